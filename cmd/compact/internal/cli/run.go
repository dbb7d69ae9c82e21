package cli

import "fmt"

// runRun is the "compact run" subcommand. PLACEHOLDER: replaced by its implementation.
func runRun(e *env) int {
	fmt.Fprintln(e.stderr, "compact run: not implemented yet")
	return ExitFailure
}
