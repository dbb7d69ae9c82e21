package cli

import "fmt"

// runPlugin is the "compact plugin" subcommand. PLACEHOLDER: replaced by its implementation.
func runPlugin(e *env) int {
	fmt.Fprintln(e.stderr, "compact plugin: not implemented yet")
	return ExitFailure
}
