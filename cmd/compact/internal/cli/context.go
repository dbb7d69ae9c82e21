package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/prompt"
	"github.com/toolcompact/compact/schemas"
)

// runContext is the "compact context" subcommand: it fits a whole prompt of
// blocks (context.schema.json) to a budget and prints the fitted blocks,
// or with --json the result with its manifest.
func runContext(e *env) int {
	const usageLine = "compact context --budget N [--json] [--registry FILE] [--store DIR|off] [--encoding NAME] [FILE|-]"
	fs := newFlagSet("context", usageLine, e.stderr)
	var f engineFlags
	f.register(fs)
	// The shared --budget help speaks of a registry entry's budget; a
	// whole prompt has none, so here the flag is required.
	fs.Lookup("budget").Usage = "token budget `N` of the whole prompt (required)"
	maxInput := new(string)
	fs.Var(sizeText{maxInput}, "max-input", "largest prompt document read, a `SIZE` such as 64MiB (default: no limit but memory)")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: %s\n\n", usageLine)
		fmt.Fprintln(e.stderr, "Reads a prompt as JSON blocks (an array, or {\"blocks\": [...]}; see schemas/context.schema.json)")
		fmt.Fprintln(e.stderr, "from FILE or standard input and fits the whole prompt to --budget tokens: tool results are")
		fmt.Fprintln(e.stderr, "compacted (levels 1-2), then hint blocks dropped (3), then the tail cut (4). Prints the fitted")
		fmt.Fprintln(e.stderr, "blocks and, on stderr, the manifest; --json prints the result with its manifest.")
		fmt.Fprintln(e.stderr, "Exit 3 on a malformed prompt, 4 when it cannot fit (the message gives the numbers).")
		fmt.Fprintln(e.stderr, "\nflags:")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, e.args)
	if err != nil {
		return flagExit(err)
	}
	if f.budget <= 0 {
		fmt.Fprintf(e.stderr, "compact context: --budget must be a positive number of tokens, got %d\n", f.budget)
		return ExitUsage
	}
	if len(pos) > 1 {
		fmt.Fprintf(e.stderr, "compact context: one input file at most, got %q\n", pos)
		return ExitUsage
	}
	maxBytes, err := parseMaxInput(*maxInput)
	if err != nil {
		fmt.Fprintf(e.stderr, "compact context: --max-input: %v\n", err)
		return ExitUsage
	}
	name := "-"
	if len(pos) == 1 {
		name = pos[0]
	}
	data, err := readInput(name, e.stdin, maxBytes)
	if err != nil {
		report(e.stderr, "compact context", err)
		return exitCode(err)
	}
	blocks, err := prompt.DecodeBytes(data)
	if err != nil {
		fmt.Fprintf(e.stderr, "compact context: %s: %v\n", contextInputName(name), err)
		return ExitInput
	}
	eng, err := f.engine(e.ctx, e.stderr)
	if err != nil {
		report(e.stderr, "compact context", err)
		return exitCode(err)
	}
	defer eng.Close(context.Background())

	res, err := eng.Context(e.ctx, blocks, f.budget)
	switch {
	case errors.Is(err, budget.ErrCannotFit):
		fmt.Fprintf(e.stderr, "compact context: %v\n", err)
		return ExitCannotFit
	case errors.Is(err, prompt.ErrInvalid):
		fmt.Fprintf(e.stderr, "compact context: %s: %v\n", contextInputName(name), err)
		return ExitInput
	case err != nil:
		report(e.stderr, "compact context", err)
		return exitCode(err)
	}
	if f.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			fmt.Fprintf(e.stderr, "compact context: %v\n", err)
			return ExitFailure
		}
		return ExitOK
	}
	if err := writeContextBlocks(e.stdout, res.Blocks); err != nil {
		fmt.Fprintf(e.stderr, "compact context: %v\n", err)
		return ExitFailure
	}
	writeContextManifest(e.stderr, res)
	return ExitOK
}

func contextInputName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// writeContextBlocks prints the fitted prompt: each block under a header line
// naming its id and kind.
func writeContextBlocks(w io.Writer, blocks []schemas.Block) error {
	var b strings.Builder
	for i, bl := range blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "=== %s: %s", bl.ID, bl.Kind)
		if bl.Tool != "" {
			fmt.Fprintf(&b, " (%s)", bl.Tool)
		}
		b.WriteString(" ===\n")
		b.WriteString(bl.Content)
		if !strings.HasSuffix(bl.Content, "\n") {
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeContextManifest prints one line per manifest entry: what the model does
// not see, and where it is.
func writeContextManifest(w io.Writer, res schemas.ContextResult) {
	fmt.Fprintf(w, "compact context: %d -> %d tokens (budget %d, %s), level %s\n",
		res.Tokens.Before, res.Tokens.After, res.Tokens.Budget, res.Tokens.Encoding, res.Level)
	for _, a := range res.Actions {
		fmt.Fprintf(w, "  %s %s %s: %d -> %d tokens", a.Level, a.Kind, a.Block, a.TokensBefore, a.TokensAfter)
		if a.Handle != "" {
			fmt.Fprintf(w, " [%s]", budget.RefOf(a.Handle))
		}
		if a.Detail != "" {
			fmt.Fprintf(w, " %s", a.Detail)
		}
		fmt.Fprintln(w)
	}
}

// parseMaxInput reads a --max-input size ("64MiB", "512KiB" or a byte
// count); "" (the flag not given) is no limit (noLimit). The limit is
// opt-in: the pipeline has none of its own.
func parseMaxInput(s string) (int64, error) {
	if s == "" {
		return noLimit, nil
	}
	n, err := parseSize(s)
	if err == nil && n == 0 {
		err = fmt.Errorf("size %q must be at least 1 byte", s)
	}
	return n, err
}
