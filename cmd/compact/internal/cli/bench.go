package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/cmd/compact/internal/bench"
	"github.com/toolcompact/compact/host"
)

// defaultBenchCorpus is the bundled corpus, relative to the repository root.
const defaultBenchCorpus = "testdata/captured"

// budgetList is a repeatable --budget flag; each value may also be a
// comma-separated list.
type budgetList []int

// benchQueryTimeout is the default deadline of one jq run in compact
// bench: a minute, not query.DefaultTimeout's 5 s. The bench runs every
// query the views suggest and counts one that fails as not runnable; at
// 5 s, column-split jq over a 1 MB log and path listings failed when
// other jobs shared the machine, and the report depended on the load.
// Users' queries keep the 5 s default (compact artifact query --timeout).
const benchQueryTimeout = time.Minute

func (b *budgetList) String() string {
	parts := make([]string, len(*b))
	for i, v := range *b {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}

func (b *budgetList) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(strings.ReplaceAll(p, "_", ""))
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return fmt.Errorf("want a positive number of tokens, got %q", p)
		}
		*b = append(*b, n)
	}
	return nil
}

// runBench is the "compact bench" subcommand: it measures compact and the
// baselines on a corpus of captured outputs with questions, or with
// --speed runs the project's benchmarks.
func runBench(e *env) int {
	fs := newFlagSet("compact bench", "compact bench [--corpus DIR] [--tool NAME] [--budget N ...] [--registry F] [--json] [--html FILE] [--markdown] [--check] | compact bench --speed", e.stderr)
	var (
		budgets  budgetList
		corpus   = fs.String("corpus", defaultBenchCorpus, "corpus `DIR` of outputs, with <name>.questions.yaml beside those that have questions")
		tool     = fs.String("tool", "default", "tool `NAME` (registry entry) for the outputs without a questions file")
		regFile  = fs.String("registry", "", "registry `FILE` layered over the built-in one (default $"+envRegistry+")")
		encoding = fs.String("encoding", budget.DefaultEncoding, "tokenizer `NAME`: "+budget.EncodingO200k+" or "+budget.EncodingCL100k)
		asJSON   = fs.Bool("json", false, "print the report as JSON")
		htmlFile = fs.String("html", "", "also write a self-contained HTML report with charts to `FILE`")
		markdown = fs.Bool("markdown", false, "print the totals and compact's per-output results as Markdown tables")
		check    = fs.Bool("check", false, "exit 6 unless compact meets the targets (valid, within budget, every count stated, every question answerable inline or with one query, ≥60% fewer tokens than raw)")
		cpt      = fs.Int("chars-per-token", bench.DefaultCharsPerToken, "characters per token `N` of the char-cut baseline")
		speed    = fs.Bool("speed", false, "run the speed benchmarks instead and print throughput against each baseline")
		bt       = fs.Duration("benchtime", 0, "time per speed benchmark `D` (default 1s)")
		from     = fs.String("report", "", "render a report saved with --json from `FILE` instead of running")
		only     = fs.String("run", "", "with --speed, run only the benchmarks whose name contains `S`")
		qTimeout = fs.Duration("query-timeout", benchQueryTimeout, "deadline `D` of one jq run of the queries the views suggest (a hang, not a slow run on a loaded machine: the bench asks whether a query answers, not how fast)")
	)
	fs.Var(&budgets, "budget", "token budget `N` (repeat, or N,M,...; default "+strconv.Itoa(host.DefaultBudget)+")")
	pos, err := parseArgs(fs, e.args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		fmt.Fprintf(e.stderr, "compact bench: unexpected argument %q (the corpus is --corpus DIR)\n", pos[0])
		return ExitUsage
	}
	if *qTimeout <= 0 {
		fmt.Fprintf(e.stderr, "compact bench: --query-timeout must be positive, got %v\n", *qTimeout)
		return ExitUsage
	}
	if *cpt <= 0 {
		fmt.Fprintf(e.stderr, "compact bench: --chars-per-token must be positive, got %d\n", *cpt)
		return ExitUsage
	}
	if *speed {
		if err := bench.RunSpeed(e.ctx, e.stdout, bench.SpeedOptions{BenchTime: *bt, JSON: *asJSON, Only: *only}); err != nil {
			report(e.stderr, "compact bench", err)
			return ExitFailure
		}
		return ExitOK
	}
	if *from != "" {
		rep, err := readReport(*from)
		if err != nil {
			report(e.stderr, "compact bench", err)
			return ExitInput
		}
		return benchOutput(e, rep, *htmlFile, *asJSON, *markdown, *check)
	}
	if len(budgets) == 0 {
		budgets = budgetList{host.DefaultBudget}
	}

	corpusSet := false
	fs.Visit(func(f *flag.Flag) { corpusSet = corpusSet || f.Name == "corpus" })
	if !corpusSet {
		if dir, ok := findBundledCorpus(); ok {
			*corpus = dir
		} else {
			fmt.Fprintf(e.stderr, "compact bench: no corpus: %s is not here nor above the working directory (it is in the compact repository); give --corpus DIR\n", defaultBenchCorpus)
			return ExitInput
		}
	}
	files, err := bench.LoadOutputs(*corpus, *tool)
	if err != nil {
		report(e.stderr, "compact bench", err)
		return ExitInput
	}
	ctr, err := budget.NewCounter(*encoding)
	if err != nil {
		fmt.Fprintf(e.stderr, "compact bench: --encoding: %v\n", err)
		return ExitUsage
	}
	reg, err := (&engineFlags{registry: *regFile}).loadRegistry()
	if err != nil {
		report(e.stderr, "compact bench", err)
		return exitCode(err)
	}
	dir, err := os.MkdirTemp("", "compact-bench-store-")
	if err != nil {
		report(e.stderr, "compact bench", err)
		return ExitFailure
	}
	defer os.RemoveAll(dir)
	st, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		report(e.stderr, "compact bench", err)
		return ExitFailure
	}
	// No plugin cool-down: a plugin that failed on one output still gets
	// its chance on the next, so results do not depend on output order.
	eng, err := host.New(e.ctx, host.WithRegistry(reg), host.WithCounter(ctr), host.WithStore(st), host.WithLazyPlugins(),
		host.WithCoolDown(1<<30, 0), host.WithQueryTimeout(*qTimeout),
		host.WithLogger(slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelError}))))
	if err != nil {
		report(e.stderr, "compact bench", err)
		return exitCode(err)
	}
	defer eng.Close(e.ctx)

	h := &bench.Harness{Engine: eng, Budgets: budgets, CharsPerToken: *cpt}
	var bar *progressbar.ProgressBar
	if !*asJSON && isTerminal(e.stderr) {
		bar = progressbar.NewOptions(len(files)*len(budgets),
			progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionSetDescription("compact bench"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish())
		h.Progress = func(done, total int, what string) {
			bar.Describe(what)
			_ = bar.Set(done)
		}
	}
	rep, err := h.Run(e.ctx, files)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		report(e.stderr, "compact bench", err)
		var qe *bench.QuestionError
		if errors.As(err, &qe) || errors.Is(err, bench.ErrEmptyCorpus) || errors.Is(err, bench.ErrNoOutputs) {
			return ExitInput
		}
		return exitCode(err)
	}
	rep.Corpus = *corpus
	return benchOutput(e, rep, *htmlFile, *asJSON, *markdown, *check)
}

// benchOutput writes the report as asked and applies --check.
func benchOutput(e *env, rep *bench.Report, htmlFile string, asJSON, markdown, check bool) int {
	if htmlFile != "" {
		if err := writeFileWith(htmlFile, rep.WriteHTML); err != nil {
			report(e.stderr, "compact bench", err)
			return ExitFailure
		}
	}
	var err error
	switch {
	case asJSON:
		err = rep.WriteJSON(e.stdout)
	case markdown:
		err = rep.WriteMarkdown(e.stdout)
	default:
		err = rep.WriteText(e.stdout)
	}
	if err != nil {
		report(e.stderr, "compact bench", err)
		return ExitFailure
	}
	if check {
		if misses := rep.CheckTargets(); len(misses) > 0 {
			for _, m := range misses {
				fmt.Fprintf(e.stderr, "compact bench: target missed: %s\n", m)
			}
			return ExitCheck
		}
	}
	return ExitOK
}

// readReport reads a report saved with --json.
func readReport(path string) (*bench.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--report: %w", err)
	}
	var rep bench.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("--report %s: not a compact bench --json report: %w", path, err)
	}
	if len(rep.Results) == 0 || len(rep.Budgets) == 0 {
		return nil, fmt.Errorf("--report %s: no results", path)
	}
	return &rep, nil
}

// findBundledCorpus looks for testdata/captured in the working directory
// and its parents, so that compact bench runs from anywhere in the
// repository.
func findBundledCorpus() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		c := filepath.Join(dir, defaultBenchCorpus)
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			if rel, err := filepath.Rel(mustGetwd(), c); err == nil {
				return rel, true
			}
			return c, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func mustGetwd() string {
	wd, _ := os.Getwd()
	return wd
}

// writeFileWith writes a file through fn, atomically enough for a report:
// a failed write leaves no partial file behind.
func writeFileWith(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
