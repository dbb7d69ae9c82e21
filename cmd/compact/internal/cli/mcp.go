package cli

import "fmt"

// runMCP is the "compact mcp" subcommand. PLACEHOLDER: replaced by its implementation.
func runMCP(e *env) int {
	fmt.Fprintln(e.stderr, "compact mcp: not implemented yet")
	return ExitFailure
}
