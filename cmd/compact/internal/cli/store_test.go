package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/artifact"
)

// TestStoreRetentionDefaults: every command that opens a store applies
// the documented TTL and quota unless told otherwise; before, a store
// opened by run or serve had neither and grew without bound.
func TestStoreRetentionDefaults(t *testing.T) {
	c := defaultSidecarConfig()
	if c.StoreTTL != artifact.DefaultTTL || int64(c.StoreMaxBytes) != artifact.DefaultMaxBytes {
		t.Errorf("sidecar defaults: ttl %v, max %d", c.StoreTTL, c.StoreMaxBytes)
	}
	var f engineFlags
	fs := newFlagSet("run", "", os.Stderr)
	f.register(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if f.storeTTL != artifact.DefaultTTL || f.storeMaxBytes != artifact.DefaultMaxBytes {
		t.Errorf("run defaults: ttl %v, max %d", f.storeTTL, f.storeMaxBytes)
	}
}

// TestStoreStatsAndGC: compact store stats counts what runs stored;
// compact store gc with a small quota evicts the oldest; an evicted
// handle then answers "expired" naming the handle (exit 3).
func TestStoreStatsAndGC(t *testing.T) {
	dir := t.TempDir()
	var handles []string
	for i := range 3 {
		in := filepath.Join(t.TempDir(), "in.json")
		var b strings.Builder
		b.WriteString("[")
		for j := range 400 {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":%d,"run":%d,"text":"some words to make this record long enough"}`, j, i)
		}
		b.WriteString("]")
		os.WriteFile(in, []byte(b.String()), 0o644)
		out, errs, code := execCLI(t, nil, "run", "--json", "--store", dir, "--budget", "300", in)
		if code != ExitOK {
			t.Fatalf("run: %d %s", code, errs)
		}
		var res struct{ Artifact struct{ Handle string } }
		json.Unmarshal([]byte(out), &res)
		if res.Artifact.Handle == "" {
			t.Fatalf("no artifact: %s", out)
		}
		handles = append(handles, res.Artifact.Handle)
	}
	out, errs, code := execCLI(t, nil, "store", "stats", "--store", dir, "--json")
	var u artifact.Usage
	if code != ExitOK || json.Unmarshal([]byte(out), &u) != nil || u.Artifacts != 3 || u.MaxBytes != artifact.DefaultQuota(dir) || u.MaxBytes < artifact.DefaultMaxBytes || u.TTL != artifact.DefaultTTL {
		t.Fatalf("store stats: %d %s %s", code, out, errs)
	}
	out, errs, code = execCLI(t, nil, "store", "gc", "--store", dir, "--store-max-bytes", fmt.Sprint(u.Bytes/3+10))
	if code != ExitOK || !strings.Contains(out, "2 evicted") {
		t.Fatalf("store gc: %d %s %s", code, out, errs)
	}
	_, errs, code = execCLI(t, nil, "artifact", "get", handles[0], "--store", dir)
	if code != ExitInput || !strings.Contains(errs, "artifact expired") || !strings.Contains(errs, handles[0]) {
		t.Errorf("evicted handle: exit %d %q", code, errs)
	}
	if _, _, code := execCLI(t, nil, "store", "nope"); code != ExitUsage {
		t.Errorf("store nope: %d", code)
	}
}

// TestStoreFlagsHelpSaysDefaultOnce: -h of every command with
// --store-max-bytes gives its default once; on the old code run, context
// and store stats printed "(default 1GiB) (default 1GiB)".
func TestStoreFlagsHelpSaysDefaultOnce(t *testing.T) {
	for _, args := range [][]string{{"run", "-h"}, {"context", "-h"}, {"store", "stats", "-h"}, {"serve", "-h"}} {
		_, out := runCLI(context.Background(), args...)
		line := ""
		for l := range strings.Lines(out) {
			if strings.Contains(l, "artifact store quota") {
				line = l
			}
		}
		if n := strings.Count(line, "(default "); n != 1 {
			t.Errorf("compact %s: --store-max-bytes help %q gives %d defaults, want 1", strings.Join(args, " "), strings.TrimSpace(line), n)
		}
	}
}

// TestStoreStatsMissingDir: store stats and gc on a directory that does
// not exist say so, naming it, and create nothing; on the old code they
// created an empty store there and reported 0 artifacts (a mistyped
// --store looked like an empty store).
func TestStoreStatsMissingDir(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "typo", "artifacts")
	for _, op := range []string{"stats", "gc"} {
		code, out := runCLI(context.Background(), "store", op, "--store", missing)
		if code != ExitFailure || !strings.Contains(out, "no artifact store at "+missing) {
			t.Errorf("store %s --store %s: exit %d, %q", op, missing, code, out)
		}
		if _, err := os.Stat(missing); err == nil {
			t.Fatalf("store %s created %s", op, missing)
		}
	}
}
