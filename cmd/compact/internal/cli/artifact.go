package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
)

const artifactUsage = `compact artifact get    REF [--budget N] [--store DIR]
       compact artifact query  REF --jq FILTER [--timeout D] [--budget N] [--store DIR]
       compact artifact slice  REF [--offset N] [--limit K] [--path P] [--budget N] [--store DIR]
       compact artifact search REF TEXT [--limit K] [--path P] [--budget N] [--store DIR]
       compact artifact gc     [--ttl DURATION] [--max-size SIZE] [--store DIR|URL]

REF is a handle (12 to 64 hex digits) optionally followed by a jq path:
a1b2c3d4e5f6, a1b2c3d4e5f6.items[3].name, a1b2c3d4e5f6["a key"][0].
jq reads a JSON value as itself, JSON Lines (or concatenated JSON) as one
array of the values, like jq -s, and text as one array of its lines; a
path indexes the same way (a1b2c3d4e5f6[3] is value or line 3).
get writes the exact bytes (of the whole artifact, or of the value at the
path) unless --budget is given. Every other answer fits its budget: a
larger one is stored as a new artifact and summarised, never cut.
Common flags: --json prints the answer envelope; -v reports counts on stderr.`

// runArtifact is the "compact artifact" subcommand: get, query, slice or
// search a stored artifact. Exit codes: 2 for a malformed handle, bad jq
// or bad flags; 3 for an artifact that is unknown, expired, corrupted or
// too large for the query; 4 when not even a summary fits --budget.
func runArtifact(e *env) int {
	if len(e.args) == 0 || e.args[0] == "-h" || e.args[0] == "--help" || e.args[0] == "help" {
		w := e.stderr
		code := ExitUsage
		if len(e.args) > 0 {
			w, code = e.stdout, ExitOK
		}
		fmt.Fprintf(w, "usage: %s\n", artifactUsage)
		return code
	}
	op := e.args[0]
	cmd := "compact artifact " + op
	if op == "gc" {
		return runArtifactGC(e, cmd)
	}
	var f engineFlags
	fs := newFlagSet("artifact "+op, artifactUsage, e.stderr)
	f.register(fs)
	var filter, path string
	var offset, limit int
	fs.DurationVar(&f.queryTimeout, "timeout", 0, "deadline `D` of one jq run over the artifact, such as 30s (default 5s; it grows with the artifact for streamed collections)")
	switch op {
	case "get":
	case "query":
		fs.StringVar(&filter, "jq", "", "jq `FILTER` to run on the artifact (gojq)")
	case "slice":
		fs.IntVar(&offset, "offset", 0, "position `N` of the first record or line (0-based)")
		fs.IntVar(&limit, "limit", query.DefaultLimit, "number `K` of records or lines")
		fs.StringVar(&path, "path", "", "collection `P` such as .items (default: the first)")
	case "search":
		fs.IntVar(&limit, "limit", query.DefaultLimit, "best `K` matching records or lines")
		fs.StringVar(&path, "path", "", "collection `P` such as .items (default: the first)")
	default:
		fmt.Fprintf(e.stderr, "compact artifact: unknown operation %q (want get, query, slice, search or gc)\nusage: %s\n", op, artifactUsage)
		return ExitUsage
	}
	budgetSet := false
	pos, err := parseArgs(fs, e.args[1:])
	if err != nil {
		return flagExit(err)
	}
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "budget" {
			budgetSet = true
		}
	})
	want := 1
	if op == "search" {
		want = 2
	}
	if len(pos) != want {
		fmt.Fprintf(e.stderr, "%s: want %d argument(s), got %d: %q\nusage: %s\n", cmd, want, len(pos), pos, artifactUsage)
		return ExitUsage
	}
	ref := pos[0]
	if _, err := artifact.ParseRef(ref); err != nil {
		report(e.stderr, cmd, err)
		return ExitUsage
	}
	if op == "query" && strings.TrimSpace(filter) == "" {
		fmt.Fprintf(e.stderr, "%s: --jq FILTER is required\n", cmd)
		return ExitUsage
	}
	if f.queryTimeout < 0 {
		fmt.Fprintf(e.stderr, "%s: --timeout must be positive (got %s)\n", cmd, f.queryTimeout)
		return ExitUsage
	}
	if (op == "slice" || op == "search") && (offset < 0 || limit <= 0) {
		fmt.Fprintf(e.stderr, "%s: --offset must be 0 or more and --limit 1 or more (got %d and %d)\n", cmd, offset, limit)
		return ExitUsage
	}
	if f.store == storeOff {
		fmt.Fprintf(e.stderr, "%s: --store off: there is no store to read artifacts from\n", cmd)
		return ExitUsage
	}
	f.mapArtifacts = true // one query, then the process ends
	eng, err := f.engine(e.ctx, e.stderr)
	if err != nil {
		report(e.stderr, cmd, err)
		return exitCode(err)
	}
	defer eng.Close(e.ctx)

	if op == "get" && !budgetSet {
		if err := writeExact(e, eng, ref); err != nil {
			report(e.stderr, cmd, explainArtifact(err, eng))
			return artifactExit(err)
		}
		return ExitOK
	}
	tuneQueryGC(e.ctx, eng, ref)
	var a query.Answer
	switch op {
	case "get":
		a, err = eng.ArtifactGet(e.ctx, ref, f.budget)
	case "query":
		a, err = eng.ArtifactJQ(e.ctx, ref, filter, f.budget)
	case "slice":
		a, err = eng.ArtifactSlice(e.ctx, ref, query.SliceOptions{Path: path, Offset: offset, Limit: limit}, f.budget)
	case "search":
		a, err = eng.ArtifactSearch(e.ctx, ref, pos[1], query.SearchOptions{Path: path, Limit: limit}, f.budget)
	}
	if err != nil {
		report(e.stderr, cmd, explainArtifact(err, eng))
		return artifactExit(err)
	}
	if f.verbose {
		fmt.Fprintf(e.stderr, "%s: %d of %d returned, %d tokens (budget %d)", cmd, a.Returned, a.Total, a.Tokens, a.Budget)
		if a.Stored != nil {
			fmt.Fprintf(e.stderr, "; the full answer is %s", budget.RefOf(a.Stored.Handle))
		}
		fmt.Fprintln(e.stderr)
	}
	if f.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(a); err != nil {
			report(e.stderr, cmd, err)
			return ExitFailure
		}
		return ExitOK
	}
	if err := writeContent(e, a.Content); err != nil {
		report(e.stderr, cmd, err)
		return ExitFailure
	}
	return ExitOK
}

// writeExact streams the exact bytes at ref to stdout: a whole artifact
// straight from the store (verified before the first byte is written), a
// sub-value as its original text.
func writeExact(e *env, eng *host.Engine, ref string) error {
	r, err := artifact.ParseRef(ref)
	if err != nil {
		return err
	}
	if r.Path == "" {
		st := eng.Store()
		rc, _, err := st.Open(e.ctx, r.Handle)
		if err != nil {
			return err
		}
		defer rc.Close()
		_, err = io.Copy(e.stdout, rc)
		return err
	}
	v, _, err := eng.ArtifactValue(e.ctx, ref)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(v)
	return err
}

// artifactExit maps the errors of artifact queries to exit codes.
func artifactExit(err error) int {
	switch {
	case errors.Is(err, artifact.ErrBadRef), errors.Is(err, query.ErrBadQuery):
		return ExitUsage
	case errors.Is(err, budget.ErrNotFound), errors.Is(err, budget.ErrExpired),
		errors.Is(err, query.ErrNoValue), errors.Is(err, query.ErrNotJSON),
		errors.Is(err, query.ErrLimit), errors.Is(err, artifact.ErrCorrupt):
		return ExitInput
	}
	return exitCode(err)
}

// explainArtifact adds what the user can do.
func explainArtifact(err error, eng *host.Engine) error {
	where := ""
	if ds, ok := eng.Store().(*artifact.DirStore); ok {
		where = " in " + ds.Dir()
	}
	switch {
	case errors.Is(err, budget.ErrNotFound):
		return fmt.Errorf("%w\n(handles come from a result's artifact.handle; is --store the store that made it? looked%s)", err, where)
	case errors.Is(err, budget.ErrExpired):
		return fmt.Errorf("%w\n(the retention period or size quota of the store%s removed it; run the tool again)", err, where)
	case errors.Is(err, budget.ErrCannotFit):
		return fmt.Errorf("%w\n(nothing was cut; raise --budget)", err)
	}
	return err
}

// runArtifactGC is "compact artifact gc": it enforces a TTL and a size
// quota on a store once and reports what it removed.
func runArtifactGC(e *env, cmd string) int {
	fs := newFlagSet("artifact gc", artifactUsage, e.stderr)
	var store, maxSize string
	var ttl time.Duration
	var asJSON bool
	fs.StringVar(&store, "store", "", "artifact store `DIR` or URL (default $"+envStore+", else the user cache directory)")
	fs.DurationVar(&ttl, "ttl", 0, "remove artifacts stored longer ago than `DURATION` (such as 168h)")
	fs.Var(sizeText{&maxSize}, "max-size", "then remove the oldest until the store holds at most `SIZE` (such as 1GiB)")
	fs.BoolVar(&asJSON, "json", false, "print the statistics as JSON")
	pos, err := parseArgs(fs, e.args[1:])
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 0 {
		fmt.Fprintf(e.stderr, "%s: no arguments expected, got %q\n", cmd, pos)
		return ExitUsage
	}
	var opt artifact.Options
	opt.TTL, opt.GCInterval = ttl, -1
	if maxSize != "" {
		if opt.MaxBytes, err = parseQuota(maxSize); err != nil {
			fmt.Fprintf(e.stderr, "%s: --max-size: %v\n", cmd, err)
			return ExitUsage
		}
	}
	if ttl < 0 || (ttl == 0 && opt.MaxBytes == 0) {
		fmt.Fprintf(e.stderr, "%s: give --ttl (a positive duration) or --max-size, or both\n", cmd)
		return ExitUsage
	}
	if store == "" {
		store = os.Getenv(envStore)
	}
	if store == storeOff {
		fmt.Fprintf(e.stderr, "%s: --store off: there is no store to collect\n", cmd)
		return ExitUsage
	}
	st, err := artifact.Open(e.ctx, store, opt)
	if err != nil {
		report(e.stderr, cmd, err)
		return ExitFailure
	}
	return collect(e, cmd, st, asJSON)
}

// parseQuota reads a store quota with parseSize, the parser of every
// size flag ("500MiB", "10GiB", "2TB" or a byte count; sizes over the
// 4GiB of plugin memory are fine here). A quota of 0 is refused: it would
// mean "no quota" for a command whose only job is to enforce one.
func parseQuota(s string) (int64, error) {
	n, err := parseSize(s)
	if err == nil && n == 0 {
		err = fmt.Errorf("size %q must be at least 1 byte", s)
	}
	return n, err
}
