package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/prompt"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// maxContextInput caps the prompt document compact context reads.
const maxContextInput = 256 << 20

// runContext is the "compact context" subcommand: it fits a whole prompt of
// blocks (context.schema.json) to a budget and prints the fitted blocks,
// or with --json the result with its manifest.
func runContext(e *env) int {
	fs := flag.NewFlagSet("context", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	tokens := fs.Int("budget", 0, "token budget of the whole prompt (required)")
	asJSON := fs.Bool("json", false, "print the result as JSON (fitted blocks and manifest)")
	reg := fs.String("registry", "", "registry file layered over the built-in one")
	store := fs.String("store", "", "artifact store directory (default $XDG_CACHE_HOME/compact/artifacts)")
	encoding := fs.String("encoding", host.DefaultEncoding, "tokenizer encoding: o200k_base or cl100k_base")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: compact context --budget N [--json] [--registry FILE] [--store DIR] [--encoding NAME] [FILE|-]")
		fmt.Fprintln(e.stderr, "\nReads a prompt as JSON blocks (an array, or {\"blocks\": [...]}; see schemas/context.schema.json)")
		fmt.Fprintln(e.stderr, "from FILE or standard input and fits it to the budget. Exit 4 when it cannot fit.")
		fmt.Fprintln(e.stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if *tokens <= 0 {
		fmt.Fprintf(e.stderr, "compact context: --budget must be a positive number of tokens, got %d\n", *tokens)
		return ExitUsage
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(e.stderr, "compact context: one input file at most, got %q\n", fs.Args())
		return ExitUsage
	}
	name := "-"
	if fs.NArg() == 1 {
		name = fs.Arg(0)
	}
	data, err := readContextInput(e, name)
	if err != nil {
		fmt.Fprintf(e.stderr, "compact context: %v\n", err)
		return ExitInput
	}
	blocks, err := prompt.DecodeBytes(data)
	if err != nil {
		fmt.Fprintf(e.stderr, "compact context: %s: %v\n", contextInputName(name), err)
		return ExitInput
	}

	dir := *store
	if dir == "" {
		if dir, err = artifact.DefaultDir(); err != nil {
			fmt.Fprintf(e.stderr, "compact context: artifact store: %v\n", err)
			return ExitFailure
		}
	}
	st, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		fmt.Fprintf(e.stderr, "compact context: artifact store: %v\n", err)
		return ExitFailure
	}
	opts := []host.Option{host.WithStore(st), host.WithEncoding(*encoding)}
	if *reg != "" {
		opts = append(opts, host.WithRegistryFile(*reg))
	}
	eng, err := host.New(e.ctx, opts...)
	if err != nil {
		fmt.Fprintf(e.stderr, "compact context: %v\n", err)
		return engineExit(err)
	}
	defer eng.Close(e.ctx)

	res, err := eng.Context(e.ctx, blocks, *tokens)
	switch {
	case errors.Is(err, budget.ErrCannotFit):
		fmt.Fprintf(e.stderr, "compact context: %v\n", err)
		return ExitCannotFit
	case errors.Is(err, prompt.ErrInvalid):
		fmt.Fprintf(e.stderr, "compact context: %s: %v\n", contextInputName(name), err)
		return ExitInput
	case err != nil:
		fmt.Fprintf(e.stderr, "compact context: %v\n", err)
		return ExitFailure
	}
	if *asJSON {
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

// readContextInput reads name ("-" for standard input), refusing more than
// maxContextInput bytes.
func readContextInput(e *env, name string) ([]byte, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxContextInput+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", contextInputName(name), err)
	}
	if len(data) > maxContextInput {
		return nil, fmt.Errorf("%s: the prompt is larger than %d MiB", contextInputName(name), maxContextInput>>20)
	}
	return data, nil
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
			fmt.Fprintf(w, " [artifact %s]", a.Handle)
		}
		if a.Detail != "" {
			fmt.Fprintf(w, " %s", a.Detail)
		}
		fmt.Fprintln(w)
	}
}
