package cli

import "fmt"

// runBench is the "compact bench" subcommand. PLACEHOLDER: replaced by its implementation.
func runBench(e *env) int {
	fmt.Fprintln(e.stderr, "compact bench: not implemented yet")
	return ExitFailure
}
