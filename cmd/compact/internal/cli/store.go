package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/registry"
)

const storeUsage = `compact store stats [--store DIR|URL] [--store-ttl D] [--store-max-bytes SIZE] [--json]
       compact store gc    [--store DIR|URL] [--store-ttl D] [--store-max-bytes SIZE] [--json]`

// runStore is "compact store stats|gc": what the artifact store holds, and
// a collection with the retention every other command applies (the
// documented defaults unless --store-ttl / --store-max-bytes say
// otherwise). "compact artifact gc" stays for one-off limits.
func runStore(e *env) int {
	if len(e.args) == 0 {
		fmt.Fprintf(e.stderr, "usage: %s\n", storeUsage)
		return ExitUsage
	}
	op := e.args[0]
	cmd := "compact store " + op
	switch op {
	case "stats", "gc":
	case "-h", "--help", "help":
		fmt.Fprintf(e.stdout, "usage: %s\n", storeUsage)
		return ExitOK
	default:
		fmt.Fprintf(e.stderr, "compact store: unknown subcommand %q\nusage: %s\n", op, storeUsage)
		return ExitUsage
	}
	fs := newFlagSet("store "+op, storeUsage, e.stderr)
	var (
		store    string
		ttl      time.Duration
		maxBytes int64
		maxSet   bool
		asJSON   bool
	)
	fs.StringVar(&store, "store", "", "artifact store `DIR` or URL (default $"+envStore+", else the user cache directory)")
	registerStoreRetention(fs, &ttl, &maxBytes, &maxSet)
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	pos, err := parseArgs(fs, e.args[1:])
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 0 {
		fmt.Fprintf(e.stderr, "%s: no arguments expected, got %q\n", cmd, pos)
		return ExitUsage
	}
	if ttl < 0 {
		fmt.Fprintf(e.stderr, "%s: --store-ttl must not be negative, got %v\n", cmd, ttl)
		return ExitUsage
	}
	if store == "" {
		store = os.Getenv(envStore)
	}
	if store == storeOff {
		fmt.Fprintf(e.stderr, "%s: --store off: there is no store\n", cmd)
		return ExitUsage
	}
	// A directory named (--store, $COMPACT_STORE) that does not exist is
	// a mistake to report, not an empty store to create.
	if store != "" && !strings.Contains(store, "://") {
		if _, err := os.Stat(store); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(e.stderr, "%s: no artifact store at %s (the directory does not exist)\n", cmd, store)
			return ExitFailure
		}
	}
	st, err := artifact.Open(e.ctx, store, artifact.Options{TTL: ttl, MaxBytes: storeQuota(store, maxBytes, maxSet), GCInterval: -1})
	if err != nil {
		report(e.stderr, cmd, err)
		return ExitFailure
	}
	out := func(v any) int {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return ExitFailure
		}
		return ExitOK
	}
	if op == "stats" {
		us, ok := st.(interface {
			Usage(context.Context) (artifact.Usage, error)
		})
		if !ok {
			fmt.Fprintf(e.stderr, "%s: only a local directory store reports its usage\n", cmd)
			return ExitFailure
		}
		u, err := us.Usage(e.ctx)
		if err != nil {
			report(e.stderr, cmd, err)
			return ExitFailure
		}
		if asJSON {
			return out(u)
		}
		fmt.Fprintf(e.stdout, "%d artifacts, %s", u.Artifacts, registry.FormatSize(u.Bytes))
		if u.MaxBytes > 0 {
			fmt.Fprintf(e.stdout, " of a %s quota (%.0f%%)", registry.FormatSize(u.MaxBytes), 100*float64(u.Bytes)/float64(u.MaxBytes))
		}
		fmt.Fprintln(e.stdout)
		if u.Artifacts > 0 {
			fmt.Fprintf(e.stdout, "oldest stored %s, newest %s\n", u.Oldest.UTC().Format(time.RFC3339), u.Newest.UTC().Format(time.RFC3339))
		}
		if u.TTL > 0 {
			fmt.Fprintf(e.stdout, "artifacts are kept %s after they were last stored\n", u.TTL)
		}
		return ExitOK
	}
	return collect(e, cmd, st, asJSON)
}

// collect runs the store's garbage collector and prints what it did:
// the end of compact store gc and of compact artifact gc.
func collect(e *env, cmd string, st budget.Store, asJSON bool) int {
	gc, ok := st.(interface {
		GC(context.Context) (artifact.GCStats, error)
	})
	if !ok {
		fmt.Fprintf(e.stderr, "%s: this store has no collector\n", cmd)
		return ExitFailure
	}
	stats, err := gc.GC(e.ctx)
	if err != nil {
		report(e.stderr, cmd, err)
		return ExitFailure
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(stats); err != nil {
			return ExitFailure
		}
		return ExitOK
	}
	fmt.Fprintf(e.stdout, "%d artifacts scanned: %d expired and %d evicted (%s freed), %d in use kept, %s kept; %d left-over temporary files removed\n",
		stats.Scanned, stats.Expired, stats.Evicted, registry.FormatSize(stats.Freed), stats.Busy, registry.FormatSize(stats.Kept), stats.Temps)
	return ExitOK
}
