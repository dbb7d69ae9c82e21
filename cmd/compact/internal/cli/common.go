package cli

// Helpers shared by the subcommands that compact: the engine flags
// (--registry, --encoding, --budget, --store, --json), building a
// host.Engine from them, reading the input, and mapping errors to exit
// codes.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/registry"
)

// Environment variables read when the matching flag is not given.
const (
	envRegistry = "COMPACT_REGISTRY" // --registry
	envStore    = "COMPACT_STORE"    // --store
)

// envPluginDir is read when --plugin-dir is not given.
const envPluginDir = host.EnvPluginDir

// storeOff is the --store value that turns the artifact level off.
const storeOff = "off"

// engineFlags are the flags of every subcommand that builds an engine.
type engineFlags struct {
	registry string
	encoding string
	budget   int
	store    string
	json     bool
	verbose  bool
	// pluginDir replaces the embedded builtin plugins with DIR/NAME.wasm.
	pluginDir string
	// storeTTL and storeMaxBytes are the store's retention.
	storeTTL      time.Duration
	storeMaxBytes int64
	storeMaxSet   bool // --store-max-bytes was given
	// mapArtifacts maps artifacts for queries (host.WithMappedArtifacts):
	// the artifact commands, one query per process, set it.
	mapArtifacts bool
	// queryTimeout is the deadline of one jq run (host.WithQueryTimeout;
	// 0: the engine's default): the artifact commands' --timeout.
	queryTimeout time.Duration
}

// register adds the engine flags to fs.
func (f *engineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.registry, "registry", "", "registry `FILE` layered over the built-in one (default $"+envRegistry+")")
	fs.StringVar(&f.encoding, "encoding", budget.DefaultEncoding, "tokenizer `NAME`: "+budget.EncodingO200k+" or "+budget.EncodingCL100k)
	fs.Var(budgetFlag{&f.budget}, "budget", "token budget `N` (default: the registry entry's, else "+strconv.Itoa(host.DefaultBudget)+")")
	fs.StringVar(&f.store, "store", "", "artifact store `DIR` or URL (s3://, file://, mem://), or \"off\" (default $"+envStore+", else the user cache directory)")
	fs.BoolVar(&f.json, "json", false, "print the JSON result envelope instead of the content")
	fs.BoolVar(&f.verbose, "v", false, "report what was done on stderr")
	registerStoreRetention(fs, &f.storeTTL, &f.storeMaxBytes, &f.storeMaxSet)
	fs.StringVar(&f.pluginDir, "plugin-dir", "", "`DIR` of NAME.wasm files used for builtin:NAME in place of the plugins embedded in compact (default $"+envPluginDir+")")
}

// exitError carries an exit code and a message already fit for the user.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// exitCode maps an error to the exit code scripts rely on.
func exitCode(err error) int {
	var ee *exitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, registry.ErrInvalid):
		return ExitRegistry
	case errors.Is(err, budget.ErrCannotFit):
		return ExitCannotFit
	case errors.Is(err, budget.ErrTooLarge):
		return ExitInput
	}
	return ExitFailure
}

// loadRegistry loads --registry (or $COMPACT_REGISTRY), or returns the
// built-in registry when neither is set.
func (f *engineFlags) loadRegistry() (*registry.Registry, error) {
	path := f.registry
	if path == "" {
		path = os.Getenv(envRegistry)
	}
	if path == "" {
		return registry.Default(), nil
	}
	return registry.Load(path)
}

// openStore opens the artifact store named by --store (or
// $COMPACT_STORE): a directory, or a blob URL such as s3://bucket or
// file:///path; the user cache directory when neither is set. It returns
// nil when the store is "off".
func (f *engineFlags) openStore(ctx context.Context) (budget.Store, error) {
	target := f.store
	if target == "" {
		target = os.Getenv(envStore)
	}
	if target == storeOff {
		return nil, nil
	}
	return artifact.Open(ctx, target, artifact.Options{TTL: f.storeTTL, MaxBytes: storeQuota(target, f.storeMaxBytes, f.storeMaxSet)})
}

// registerStoreRetention adds --store-ttl and --store-max-bytes with the
// documented defaults (artifact.DefaultTTL, and artifact.DefaultMaxBytes
// or more: see storeQuota); set reports whether --store-max-bytes was
// given.
func registerStoreRetention(fs *flag.FlagSet, ttl *time.Duration, maxBytes *int64, set *bool) {
	*ttl, *maxBytes = artifact.DefaultTTL, artifact.DefaultMaxBytes
	fs.DurationVar(ttl, "store-ttl", *ttl, "keep an artifact this `DURATION` after it was last stored (0: until the quota needs the room)")
	fs.Var(quotaFlag{sizeFlag{maxBytes}, set}, "store-max-bytes", "artifact store quota, a `SIZE` such as 10GiB; the oldest go first (0: none; default: 1GiB, or 5% of a local store's disk when more)") // flag adds "(default 1GiB)"
}

// quotaFlag is a sizeFlag that records that it was set.
type quotaFlag struct {
	sizeFlag
	set *bool
}

// Set parses s.
func (f quotaFlag) Set(s string) error {
	*f.set = true
	return f.sizeFlag.Set(s)
}

// storeQuota is the quota of the store at target (a directory or URL, ""
// for the default directory): maxBytes when --store-max-bytes was given
// (set), else artifact.DefaultQuota of a local directory (1 GiB, or 5% of
// its file system when more, so that one large output can be stored) and
// artifact.DefaultMaxBytes for a URL.
func storeQuota(target string, maxBytes int64, set bool) int64 {
	if set || strings.Contains(target, "://") {
		return maxBytes
	}
	if target == "" {
		d, err := artifact.DefaultDir()
		if err != nil {
			return maxBytes
		}
		target = d
	}
	return artifact.DefaultQuota(target)
}

// engine builds a host.Engine from the flags. Errors carry their exit
// code: a bad flag is ExitUsage, a bad registry ExitRegistry.
func (f *engineFlags) engine(ctx context.Context, stderr io.Writer) (*host.Engine, error) {
	if f.budget < 0 {
		return nil, withCode(ExitUsage, fmt.Errorf("--budget must be a positive number of tokens, got %d", f.budget))
	}
	counter, err := budget.NewCounter(f.encoding)
	if err != nil {
		return nil, withCode(ExitUsage, fmt.Errorf("--encoding: %w", err))
	}
	reg, err := f.loadRegistry()
	if err != nil {
		return nil, err
	}
	st, err := f.openStore(ctx)
	if err != nil {
		return nil, withCode(ExitFailure, fmt.Errorf("--store: %w", err))
	}
	level := slog.LevelWarn
	if f.verbose {
		level = slog.LevelInfo
	}
	opts := []host.Option{
		host.WithRegistry(reg),
		host.WithCounter(counter),
		host.WithLazyPlugins(),
		host.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))),
	}
	if f.budget > 0 {
		opts = append(opts, host.WithBudget(f.budget))
	}
	if f.pluginDir != "" {
		if st, err := os.Stat(f.pluginDir); err != nil || !st.IsDir() {
			return nil, withCode(ExitUsage, fmt.Errorf("--plugin-dir %s: not a directory", f.pluginDir))
		}
		opts = append(opts, host.WithPluginDir(f.pluginDir))
	}
	if st != nil {
		opts = append(opts, host.WithStore(st))
	}
	if f.mapArtifacts {
		opts = append(opts, host.WithMappedArtifacts())
	}
	if f.queryTimeout > 0 {
		opts = append(opts, host.WithQueryTimeout(f.queryTimeout))
	}
	return host.New(ctx, opts...)
}

// parseArgs parses flags that may come before, between or after the
// positional arguments ("compact run FILE --json"), and returns the
// positional ones. "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// newFlagSet returns a flag set that reports to stderr and never exits.
func newFlagSet(name, usageLine string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\nflags:\n", usageLine)
		fs.PrintDefaults()
	}
	return fs
}

// flagExit is the exit code of a flag parsing error: 0 for -h.
func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	return ExitUsage
}

// readInput reads FILE, or standard input for "-" or no name, refusing
// more than max bytes (max < 0: no limit). Its errors carry ExitInput.
// compact run maps its input instead (mapInput).
func readInput(name string, stdin io.Reader, max int64) ([]byte, error) {
	var r io.Reader
	label := name
	if name == "" || name == "-" {
		label = "standard input"
		if f, ok := stdin.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				return nil, withCode(ExitUsage, errors.New("standard input is a terminal: give a FILE, or pipe the tool output in"))
			}
		}
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, withCode(ExitInput, fmt.Errorf("cannot read input: %w", err))
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil, withCode(ExitInput, fmt.Errorf("cannot read input: %w", err))
		}
		if st.IsDir() {
			return nil, withCode(ExitInput, fmt.Errorf("cannot read input %s: is a directory", name))
		}
		if max >= 0 && st.Mode().IsRegular() && st.Size() > max {
			return nil, withCode(ExitInput, tooLarge(label, st.Size(), max))
		}
		r = f
	}
	if max < 0 {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, withCode(ExitInput, fmt.Errorf("cannot read %s: %w", label, err))
		}
		return data, nil
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, withCode(ExitInput, fmt.Errorf("cannot read %s: %w", label, err))
	}
	if int64(len(data)) > max {
		return nil, withCode(ExitInput, tooLarge(label, -1, max))
	}
	return data, nil
}

func tooLarge(label string, size, max int64) error {
	what := "more than " + registry.FormatSize(max)
	if size >= 0 {
		what = fmt.Sprintf("%d bytes, more than %d (%s)", size, max, registry.FormatSize(max))
	}
	return fmt.Errorf("input %s is %s, over the --max-input limit (raise it, or leave the flag out: there is no limit by default)", label, what)
}

// report prints err for the user, prefixed with the command name, one
// line per problem (a registry with several errors prints them all).
func report(w io.Writer, cmd string, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(w, "%s: %s\n", cmd, line)
	}
}
