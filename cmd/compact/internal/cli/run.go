package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/registry"
	"github.com/toolcompact/compact/schemas"
)

const runUsage = "compact run [--tool NAME] [--registry FILE] [--budget N] [--encoding NAME] [--store DIR|URL|off] [--json] [--args JSON] [FILE|-]"

// runRun is the "compact run" subcommand: it compacts one tool output
// (FILE, or standard input) to its budget and prints what the model would
// see, or with --json the result envelope. An output that no level can
// fit exits ExitCannotFit with the numbers; it is never cut.
func runRun(e *env) (code int) {
	const cmd = "compact run"
	var f engineFlags
	var tool, contentType, maxInput, args string
	fs := newFlagSet("run", runUsage, e.stderr)
	f.register(fs)
	fs.StringVar(&tool, "tool", registry.DefaultName, "tool `NAME` the registry entry is looked up by")
	fs.StringVar(&contentType, "content-type", "", "declared media `TYPE` of the input (default: sniffed)")
	fs.StringVar(&args, "args", "", "the tool call's arguments as a JSON `OBJECT`, passed to the plugin")
	fs.Var(sizeText{&maxInput}, "max-input", "largest input read, a `SIZE` such as 64MiB (default: no limit but memory and disk space)")
	pos, err := parseArgs(fs, e.args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 1 {
		fmt.Fprintf(e.stderr, "%s: one input at most, got %d: %q\nusage: %s\n", cmd, len(pos), pos, runUsage)
		return ExitUsage
	}
	maxBytes, err := parseMaxInput(maxInput)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: --max-input: %v\n", cmd, err)
		return ExitUsage
	}
	if args != "" && !json.Valid([]byte(args)) {
		fmt.Fprintf(e.stderr, "%s: --args: not valid JSON: %q\n", cmd, args)
		return ExitUsage
	}
	name := ""
	if len(pos) == 1 {
		name = pos[0]
	}
	// Flags and the registry are checked before the input is read, so a
	// mistake costs nothing on a large input.
	eng, err := f.engine(e.ctx, e.stderr)
	if err != nil {
		report(e.stderr, cmd, err)
		return exitCode(err)
	}
	defer eng.Close(e.ctx)
	ds, _ := eng.Store().(*artifact.DirStore)
	data, release, spooled, err := mapInput(e.ctx, name, e.stdin, maxBytes, ds)
	if err != nil {
		report(e.stderr, cmd, err)
		return exitCode(err)
	}
	defer release()
	tuneGC(len(data))
	// A mapped file that another process truncates while it is read
	// faults; the fault becomes a panic here, reported as an input error,
	// instead of killing the process.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); ok && isFault(err) {
				report(e.stderr, cmd, fmt.Errorf("the input changed while it was read (was the file truncated?): %v", err))
				code = ExitInput
				return
			}
			panic(r)
		}
	}()
	req := host.Request{Tool: tool, Input: data, ContentType: contentType, Budget: f.budget}
	if spooled != nil {
		req.Spooled = spooled
	}
	if args != "" {
		req.Args = json.RawMessage(args)
	}
	res, err := eng.Compact(e.ctx, req)
	if err != nil && isFault(err) {
		// A fault on the engine's own goroutine (level 2 stores the
		// original on one), turned into its error.
		report(e.stderr, cmd, fmt.Errorf("the input changed while it was read (was the file truncated?): %w", err))
		return ExitInput
	}
	if err != nil {
		report(e.stderr, cmd, explainFit(err, f))
		return exitCode(err)
	}
	if f.verbose {
		summarize(e, res)
	} else if !f.json {
		warnPlugins(e.stderr, cmd, res.Actions)
	}
	if f.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			report(e.stderr, cmd, err)
			return ExitFailure
		}
		return ExitOK
	}
	if err := writeContent(e, res.Content); err != nil {
		report(e.stderr, cmd, err)
		return ExitFailure
	}
	return ExitOK
}

// writeContent prints the content exactly, with a final newline added
// only when it lacks one (the envelope's content is never changed). On a
// terminal, control characters other than newline and tab are shown
// escaped (\x1b, \u009b), so that a tool output cannot move the cursor,
// retitle the window or hide text; piped or redirected output stays
// byte for byte.
func writeContent(e *env, s string) error {
	nl := s != "" && !strings.HasSuffix(s, "\n")
	if isTerminal(e.stdout) {
		s = escapeControls(s)
	}
	// Written as it is, then the newline: appending it first copied the
	// whole content (a level-1 result of 500 MB held twice).
	if _, err := io.WriteString(e.stdout, s); err != nil {
		return err
	}
	if nl {
		_, err := io.WriteString(e.stdout, "\n")
		return err
	}
	return nil
}

// explainFit adds what the user can do to a cannot-fit error.
func explainFit(err error, f engineFlags) error {
	if !errors.Is(err, budget.ErrCannotFit) {
		return err
	}
	hint := "raise --budget"
	if f.store == storeOff {
		hint += ", or drop --store off so the artifact level can store the full output"
	}
	return fmt.Errorf("%w\n(nothing was cut; %s)", err, hint)
}

// warnPlugins reports, on stderr, every plugin that was skipped or failed
// for this result: in text mode the content alone does not say that the
// declarative rules ran in its place (--json and -v show the actions).
func warnPlugins(w io.Writer, cmd string, actions []schemas.Action) {
	for _, a := range actions {
		if a.Kind == "plugin_failed" || a.Kind == "plugin_skipped" {
			fmt.Fprintf(w, "%s: warning: %s %s: %s\n", cmd, strings.ReplaceAll(a.Kind, "_", " "), a.Target, a.Detail)
		}
	}
}

// summarize reports the result's sizes and actions on stderr.
func summarize(e *env, r schemas.Result) {
	fmt.Fprintf(e.stderr, "compact run: tool %q, level %s, %d -> %d tokens (budget %d, %s)\n",
		r.Tool, r.Level, r.Tokens.Before, r.Tokens.After, r.Tokens.Budget, r.Tokens.Encoding)
	for _, c := range r.Collections {
		fmt.Fprintf(e.stderr, "  collection %s (%s): %d records, %d shown\n", c.Path, c.Kind, c.Count, c.Shown)
	}
	for _, a := range r.Actions {
		fmt.Fprintf(e.stderr, "  %s %s %s", a.Level, a.Kind, a.Target)
		if a.Count > 0 {
			fmt.Fprintf(e.stderr, " (%d)", a.Count)
		}
		if a.Detail != "" {
			fmt.Fprintf(e.stderr, ": %s", a.Detail)
		}
		fmt.Fprintln(e.stderr)
	}
}

// escapeControls writes C0 controls (but newline and tab), DEL and C1
// controls as Go escapes, and invalid UTF-8 bytes as \xNN.
func escapeControls(s string) string {
	clean := true
	for _, r := range s {
		if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == utf8.RuneError) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
