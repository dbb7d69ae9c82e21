package cli

import "fmt"

// runServe is the "compact serve" subcommand. PLACEHOLDER: replaced by its implementation.
func runServe(e *env) int {
	fmt.Fprintln(e.stderr, "compact serve: not implemented yet")
	return ExitFailure
}
