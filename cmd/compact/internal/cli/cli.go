// Package cli implements the compact command line: it parses arguments,
// runs one subcommand against host.Engine, and maps errors to exit codes
// that scripts can rely on.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
)

// Exit codes. They are part of the public contract of the compact command.
const (
	ExitOK        = 0 // success
	ExitFailure   = 1 // an unexpected failure (I/O, internal error)
	ExitUsage     = 2 // bad flags or arguments
	ExitInput     = 3 // the input cannot be read or is refused (too large, not found)
	ExitCannotFit = 4 // no level could make the output fit the budget
	ExitRegistry  = 5 // the registry file does not load or validate
	ExitCheck     = 6 // a check failed (plugin test, bench); an invalid registry is ExitRegistry
)

// env is what every subcommand gets: its arguments and streams.
type env struct {
	ctx    context.Context
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

type command struct {
	summary string
	run     func(e *env) int
}

// commands is the table of subcommands; each lives in a file of its own.
var commands = map[string]command{
	"run":        {"compact one tool output to a budget (the offline CLI)", runRun},
	"registry":   {"validate a registry file or show the entry a tool gets", runRegistry},
	"artifact":   {"get, query, slice or search a stored artifact", runArtifact},
	"context":    {"fit a whole prompt of blocks to a budget", runContext},
	"plugin":     {"list the loaded plugins (plugin list) or run the conformance kit on one (plugin test)", runPlugin},
	"plugins":    {"list the loaded plugins with their source and SHA-256 (= plugin list)", func(e *env) int { return pluginList(e, e.args) }},
	"version":    {"print the version, the VCS revision and the embedded plugins", runVersion},
	"bench":      {"measure fidelity and savings against the baselines", runBench},
	"mcp":        {"run the MCP proxy in front of an MCP server", runMCP},
	"serve":      {"run the HTTP sidecar API", runServe},
	"store":      {"show what the artifact store holds (store stats) or collect it (store gc)", runStore},
	"completion": {"print a shell completion script: completion bash|zsh|fish", runCompletion},
}

// Main runs the compact command with args (without the program name) and
// returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		// A usage error, like an unknown command: the usage goes to stderr.
		usage(stderr)
		return ExitUsage
	}
	if args[0] == "__complete" {
		// Hidden: the candidates for the shell completion scripts.
		return runComplete(&env{ctx: context.Background(), args: args[1:], stdin: stdin, stdout: stdout, stderr: stderr})
	}
	if args[0] == "--version" {
		args = append([]string{"version"}, args[1:]...)
	}
	if (args[0] == "help" || args[0] == "-h" || args[0] == "--help") && len(args) > 1 && args[0] == "help" {
		// "compact help COMMAND [SUB]" is "compact COMMAND [SUB] -h".
		args = append(append([]string{}, args[1:]...), "-h")
		if _, ok := commands[args[0]]; !ok {
			fmt.Fprintf(stderr, "compact help: unknown command %q\n", args[0])
			usage(stderr)
			return ExitUsage
		}
	} else if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return ExitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "compact: unknown command %q\n", args[0])
		usage(stderr)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return cmd.run(&env{ctx: ctx, args: args[1:], stdin: stdin, stdout: stdout, stderr: stderr})
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: compact COMMAND [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		if !strings.HasPrefix(n, "__") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"compact help COMMAND\" (or \"compact COMMAND -h\") for a command's flags; \"compact --version\" for the version.")
}
