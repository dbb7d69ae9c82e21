package cli

import "fmt"

// runContext is the "compact context" subcommand. PLACEHOLDER: replaced by its implementation.
func runContext(e *env) int {
	fmt.Fprintln(e.stderr, "compact context: not implemented yet")
	return ExitFailure
}
