package budget_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/schemas"
)

// l2Records returns a JSON array of n 10-field records, about 250 bytes
// each; every 97th record is in state "ALARM".
func l2Records(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		state := []string{"open", "closed", "pending"}[i%3]
		if i%97 == 0 {
			state = "ALARM"
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"service-%04d","state":%q,"level":"info","message":"request handled in %d ms by worker %d","created_at":"2026-11-%02dT10:%02d:00Z","url":"https://example.com/api/v1/items/%d","count":%d,"tags":["a","b","c"],"owner":{"login":"user%d","id":%d}}`,
			i, i%5000, state, i%1000, i%16, 1+i%28, i%60, i, i*7%1000, i%300, i%300)
	}
	b.WriteString("]")
	return b.Bytes()
}

func l2Pipeline(t testing.TB) (*budget.Pipeline, *artifact.DirStore) {
	t.Helper()
	c, err := budget.NewCounter(budget.EncodingO200k)
	if err != nil {
		t.Fatal(err)
	}
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return budget.NewPipeline(c, budget.WithStore(st)), st
}

func l2ReadArtifact(t *testing.T, st budget.Store, h string) []byte {
	t.Helper()
	rc, _, err := st.Open(context.Background(), budget.Handle(h))
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRunLevel2EndToEnd runs the whole pipeline on outputs level 1 cannot
// fit and checks the envelope and the stored original.
func TestRunLevel2EndToEnd(t *testing.T) {
	p, st := l2Pipeline(t)
	data := l2Records(3000)
	in := budget.Input{Tool: "svc.list", Data: data, Budget: 2500,
		Rules: budget.Rules{Tool: "svc.list", Pin: `.state == "ALARM"`, Drop: []string{"url", "tags"}}}
	res, err := p.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Level != schemas.LevelArtifact || res.Artifact == nil || res.Tokens.After > 2500 {
		t.Fatalf("level %s artifact %+v tokens %+v", res.Level, res.Artifact, res.Tokens)
	}
	sum := sha256.Sum256(data)
	if res.Artifact.SHA256 != hex.EncodeToString(sum[:]) || !bytes.Equal(l2ReadArtifact(t, st, res.Artifact.Handle), data) {
		t.Fatal("the artifact is not the exact original")
	}
	if len(res.Collections) != 1 || res.Collections[0].Count != 3000 || res.Collections[0].Shown == 0 || res.Collections[0].Shown >= 3000 {
		t.Fatalf("collections %+v", res.Collections)
	}
	c := res.Collections[0]
	if !strings.Contains(res.Content, fmt.Sprintf("showing %d of 3,000", c.Shown)) {
		t.Errorf("content does not state the shown count %d", c.Shown)
	}
	var kinds []string
	for _, a := range res.Actions {
		kinds = append(kinds, a.Kind)
	}
	joined := strings.Join(kinds, " ")
	for _, k := range []string{"store", "pin", "omit_records"} {
		if !strings.Contains(joined, k) {
			t.Errorf("actions %v lack %s", kinds, k)
		}
	}
	// All 31 pinned rows fit only in level 1's form (without url and
	// tags), and they are shown that way.
	if c.Shown < 31 || !strings.Contains(res.Content, "31 of 31 pinned rows") || !strings.Contains(res.Content, "pinned rows of . (.state == \"ALARM\"), after the field rules;") {
		t.Errorf("pinned rows not all shown in compact form:\n%.3000s", res.Content)
	}
	// Without a pin predicate, leading rows are in level 1's form.
	in.Rules.Pin = ""
	res, err = p.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(res.Content, "leading rows of .")
	if i < 0 || strings.Contains(res.Content[i:], `"url"`) || !strings.Contains(res.Content[i:], `"name":"service-0000"`) {
		t.Errorf("leading rows are not after the field rules:\n%.2000s", res.Content)
	}
}

// TestRunStoreAlways checks that a level 1 result stores the original
// when the rules say store: always.
func TestRunStoreAlways(t *testing.T) {
	p, st := l2Pipeline(t)
	data := l2Records(20)
	res, err := p.Run(context.Background(), budget.Input{Tool: "svc.list", Data: data, Budget: 100000,
		Rules: budget.Rules{Tool: "svc.list", Drop: []string{"url"}, Store: "always"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Level == schemas.LevelArtifact || res.Artifact == nil {
		t.Fatalf("level %s artifact %+v", res.Level, res.Artifact)
	}
	if !bytes.Equal(l2ReadArtifact(t, st, res.Artifact.Handle), data) {
		t.Fatal("store: always did not store the original")
	}
	found := false
	for _, a := range res.Actions {
		if a.Kind == "store" && a.Handle == res.Artifact.Handle {
			found = true
		}
	}
	if !found {
		t.Errorf("no store action: %+v", res.Actions)
	}
}

// BenchmarkLevel2 compares level 2 on a 10 MB output, end to end, with
// level 1 on the same input in the same run (target: at most 3x).
func BenchmarkLevel2(b *testing.B) {
	data := l2Records(40000)
	if len(data) < 10<<20 {
		data = l2Records(40000 * (10 << 20) / len(data))
	}
	rules := budget.Rules{Tool: "svc.list", Pin: `.state == "ALARM"`, Drop: []string{"url", "tags", "owner", "created_at", "message"}}
	// The level 1 transform alone, without detection or token counting:
	// the strictest baseline.
	b.Run("level1-transform", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := budget.Declarative().Compact(context.Background(), budget.Request{Tool: "svc.list", Input: data, Budget: 4000, Rules: rules}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Writing the same bytes durably: what the artifact store adds at
	// the least.
	b.Run("write+fsync", func(b *testing.B) {
		dir := b.TempDir()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			f, err := os.Create(filepath.Join(dir, "out"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := f.Write(data); err != nil {
				b.Fatal(err)
			}
			if err := f.Sync(); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
	for _, bc := range []struct {
		name   string
		budget int
		level  schemas.Level
		pin    string
	}{
		// A budget that the level 1 output fits but the original does
		// not: Run ends at level 1, counting its output exactly.
		{"level1", 2_500_000, schemas.LevelFields, rules.Pin},
		// The pin compares a member with a string: records without
		// that string are not decoded.
		{"level2", 4000, schemas.LevelArtifact, rules.Pin},
		// A pin with no literal to look for: every record is decoded
		// (only the member the pin reads) and evaluated.
		{"level2-pin-decoded", 4000, schemas.LevelArtifact, `.state != "open" and .state != "closed" and .state != "pending"`},
		{"level2-no-pin", 4000, schemas.LevelArtifact, ""},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, _ := l2Pipeline(b)
			r := rules
			r.Pin = bc.pin
			in := budget.Input{Tool: "svc.list", Data: data, Budget: bc.budget, Rules: r}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				res, err := p.Run(context.Background(), in)
				if err != nil {
					b.Fatal(err)
				}
				if res.Level != bc.level {
					b.Fatalf("level %s, want %s", res.Level, bc.level)
				}
			}
		})
	}
}

// TestLevel2ExampleQueriesRun runs level 2 on every captured output and
// runs each summary's example query through the artifact query path (as
// compact artifact query does) on the stored original: it must parse, run
// without error and yield something; with a pin predicate it must yield
// one value per pinned record.
func TestLevel2ExampleQueriesRun(t *testing.T) {
	files, err := filepath.Glob("../testdata/captured/*.*")
	if err != nil {
		t.Fatal(err)
	}
	p, st := l2Pipeline(t)
	counter, err := budget.NewCounter(budget.EncodingO200k)
	if err != nil {
		t.Fatal(err)
	}
	querier, err := query.New(st, counter, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`compact artifact query \S+ --jq '([^']*)'`)
	pins := map[string]string{
		"kubectl-pods.json":      `select(.status.phase != "Running")`,
		"cloudwatch-alarms.json": `.StateValue == "ALARM"`,
		"app-log.jsonl":          `.level == "ERROR"`,
		"github-issues.json":     `select(.state == "open")`,
	}
	ran := 0 // outputs whose level-2 example query was run
	for _, f := range files {
		if strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".md") {
			continue
		}
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rules := budget.Rules{Tool: name, Pin: pins[name], Defaults: true}
			res, err := p.Run(context.Background(), budget.Input{Tool: name, Data: data, Budget: 1500, Rules: rules})
			if err != nil {
				t.Fatal(err)
			}
			if res.Level != schemas.LevelArtifact {
				t.Skipf("fits at level %s", res.Level)
			}
			m := re.FindStringSubmatch(res.Content)
			if m == nil {
				if !strings.Contains(res.Content, "compact artifact slice") && !strings.Contains(res.Content, "compact artifact get") {
					t.Fatalf("no example:\n%s", res.Content)
				}
				return
			}
			// Run it the way the model would: through the artifact
			// query path, on the stored original.
			ans, err := querier.JQ(context.Background(), res.Artifact.Handle, m[1], 1_000_000)
			if err != nil {
				t.Fatalf("example %q fails: %v", m[1], err)
			}
			ran++
			n := ans.Total
			if n == 0 {
				t.Errorf("example %q yields nothing", m[1])
			}
			if pins[name] != "" {
				pinned := 0
				for _, a := range res.Actions {
					if a.Kind == "pin" {
						pinned += a.Count
					}
				}
				if n != pinned {
					t.Errorf("example %q yields %d values, the pin selects %d records", m[1], n, pinned)
				}
			}
		})
	}
	// The corpus is large: most outputs need level 2 at 1,500 tokens. A
	// run where none did would pass without checking any example.
	if ran < 10 {
		t.Errorf("only %d captured outputs reached level 2 with a jq example; want at least 10", ran)
	}
}
