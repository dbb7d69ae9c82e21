// Command compact makes tool outputs fit an LLM's token budget without
// silent loss. See README.md, or run "compact help".
package main

import (
	"os"

	"github.com/toolcompact/compact/cmd/compact/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
