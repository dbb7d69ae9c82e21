package budget_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/schemas"
)

// runRecords returns a JSON array of about size bytes of 10-field
// records (the records of BenchmarkLevel1, one per line).
func runRecords(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 512)
	b.WriteByte('[')
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user number %d","email":"u%d@example.com","active":%t,"score":%d.5,`+
			`"tags":["alpha","beta"],"created_at":"2024-01-02T03:04:%02dZ","url":"https://example.com/users/%d",`+
			`"note":"a longer free-text note about this user, to make the records realistic","parent":{"id":%d,"kind":"team"}}`,
			i, i, i, i%3 == 0, i%1000, i%60, i, i%50)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// cpuSeconds is the CPU time of the process so far (all threads, garbage
// collection included): MB per CPU second stays meaningful on a shared
// machine where wall-clock MB/s depends on the neighbours.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// loop runs f b.N times and reports
// MB/cpu-s besides the wall-clock MB/s.
func loop(b *testing.B, n int, f func()) {
	b.SetBytes(int64(n))
	cpu0 := cpuSeconds()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(n)*float64(b.N)/1e6/(cpuSeconds()-cpu0), "MB/cpu-s")
}

// BenchmarkRun measures Pipeline.Run end to end (shape, level none
// check, level 1, its checks, token counts, and level 2 with a
// directory store) on 1 MB and 10 MB of records, in two cases:
//
//   - fits: level 1 keeps the ids only, and the result (about 6% of the
//     input's tokens) fits a budget of one token per 20 input bytes
//     (about 17% of the input's tokens), so it is counted exactly;
//   - level2: level 1 drops half the fields and is still far over the
//     8,000-token budget, so level 2 stores the input and summarises.
//
// The baseline, EncodingJSON, is encoding/json Unmarshal into any plus
// Marshal of the same input in the same run; compare MB/s.
//
//	go test -run '^$' -bench 'Run$' -benchtime 3x -cpu 1 ./budget
func BenchmarkRun(b *testing.B) {
	c := newCounter(b)
	ctx := context.Background()
	for _, size := range []int{1 << 20, 10 << 20} {
		data := runRecords(size)
		name := fmt.Sprintf("%dMB", size>>20)
		b.Run("EncodingJSON/"+name, func(b *testing.B) {
			loop(b, len(data), func() {
				var v any
				if err := json.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run("fits/"+name, func(b *testing.B) {
			p := budget.NewPipeline(c)
			in := budget.Input{Tool: "bench", Data: data, Budget: len(data) / 20, Rules: budget.Rules{Keep: []string{"id"}}}
			loop(b, len(data), func() {
				r, err := p.Run(ctx, in)
				if err != nil {
					b.Fatal(err)
				}
				if r.Level != schemas.LevelFields {
					b.Fatalf("level %s", r.Level)
				}
			})
		})
		b.Run("level2/"+name, func(b *testing.B) {
			dir := b.TempDir()
			st, err := artifact.NewDir(dir, artifact.Options{})
			if err != nil {
				b.Fatal(err)
			}
			p := budget.NewPipeline(c, budget.WithStore(st))
			in := budget.Input{Tool: "bench", Data: data, Budget: 8000,
				Rules: budget.Rules{Drop: []string{"email", "active", "tags", "url", "note"}}}
			loop(b, len(data), func() {
				r, err := p.Run(ctx, in)
				if err != nil {
					b.Fatal(err)
				}
				if r.Level != schemas.LevelArtifact || r.Tokens.After > 8000 {
					b.Fatalf("level %s, %d tokens", r.Level, r.Tokens.After)
				}
			})
		})
	}
}

// BenchmarkRunCaptured runs Pipeline.Run on the largest captured outputs
// with the built-in defaults and an 8,000-token budget (level 2 with a
// directory store), as the sidecar does for a large call.
//
//	go test -run '^$' -bench RunCaptured -benchtime 3x -cpu 1 ./budget
func BenchmarkRunCaptured(b *testing.B) {
	c := newCounter(b)
	ctx := context.Background()
	for _, f := range []string{"kubectl-pods.json", "app-log.jsonl", "github-issues.json"} {
		data, err := os.ReadFile(filepath.Join("../testdata/captured", f))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(f, func(b *testing.B) {
			st, err := artifact.NewDir(b.TempDir(), artifact.Options{})
			if err != nil {
				b.Fatal(err)
			}
			p := budget.NewPipeline(c, budget.WithStore(st))
			in := budget.Input{Tool: f, Data: data, Budget: 8000, Rules: budget.Rules{Defaults: true}}
			loop(b, len(data), func() {
				if _, err := p.Run(ctx, in); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// sidecarIssues is the 100 KB request of the HTTP sidecar's benchmark
// (host/server BenchmarkCompact100KB): n GitHub-like issues.
func sidecarIssues(n int) []byte {
	type user struct {
		Login string `json:"login"`
	}
	type issue struct {
		Body   string `json:"body"`
		Number int    `json:"number"`
		State  string `json:"state"`
		Title  string `json:"title"`
		User   user   `json:"user"`
	}
	items := make([]issue, n)
	for i := range items {
		items[i] = issue{Number: i + 1, Title: fmt.Sprintf("issue %d: crash when the cache is cold", i+1),
			State: []string{"open", "closed"}[i%2], User: user{fmt.Sprintf("user%d", i%7)},
			Body: strings.Repeat("steps to reproduce and what was expected. ", 5)}
	}
	b, _ := json.Marshal(items)
	return b
}

// BenchmarkRunSidecar100KB is the compaction behind the sidecar's
// 100 KB benchmark without the plugin: the built-in github.* rules
// (declarative level 1, pin on open issues) and level 2 with a directory
// store at a budget of 2,000 tokens, repeating the same output as the
// sidecar benchmark does (the token counter keeps no cache, so a repeat
// costs what a new output costs).
//
//	go test -run '^$' -bench RunSidecar100KB -benchtime 200x ./budget
func BenchmarkRunSidecar100KB(b *testing.B) {
	c := newCounter(b)
	ctx := context.Background()
	data := sidecarIssues(330)
	rules := budget.Rules{Records: []string{"."}, Drop: []string{"*_url", "url", "node_id"}, StringsMax: 400,
		Pin: `select(.state == "open")`}
	st, err := artifact.NewDir(b.TempDir(), artifact.Options{})
	if err != nil {
		b.Fatal(err)
	}
	p := budget.NewPipeline(c, budget.WithStore(st))
	in := budget.Input{Tool: "github.list_issues", Data: data, Budget: 2000, Rules: rules}
	run := func() {
		r, err := p.Run(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		if r.Level != schemas.LevelArtifact {
			b.Fatalf("level %s", r.Level)
		}
	}
	// cpu-ms/op is the process's CPU time per run (garbage collection
	// included): steadier than ns/op on a shared machine.
	b.Run("warm", func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cpuSeconds()
		for b.Loop() {
			run()
		}
		b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
	})
}
