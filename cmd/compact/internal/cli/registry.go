package cli

import "fmt"

// runRegistry is the "compact registry" subcommand. PLACEHOLDER: replaced by its implementation.
func runRegistry(e *env) int {
	fmt.Fprintln(e.stderr, "compact registry: not implemented yet")
	return ExitFailure
}
