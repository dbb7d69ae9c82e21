package cli

import "fmt"

// runArtifact is the "compact artifact" subcommand. PLACEHOLDER: replaced by its implementation.
func runArtifact(e *env) int {
	fmt.Fprintln(e.stderr, "compact artifact: not implemented yet")
	return ExitFailure
}
