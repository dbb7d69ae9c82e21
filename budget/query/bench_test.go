package query

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// doc10MB returns a 10 MiB JSON document {"items":[...]} of log-like
// records.
func doc10MB() []byte {
	r := rand.New(rand.NewPCG(3, 4))
	levels := []string{"INFO", "INFO", "INFO", "WARN", "ERROR"}
	msgs := []string{"request served", "cache miss", "upstream timeout", "retrying payment", "disk almost full", "user login"}
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < 10<<20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"level":%q,"msg":%q,"status":%d,"ms":%d,"path":"/api/v1/items/%x","host":"web-%d"}`,
			i, levels[r.IntN(len(levels))], msgs[r.IntN(len(msgs))], 200+100*r.IntN(4), r.IntN(3000), r.Uint64(), r.IntN(40))
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// BenchmarkQuery10MB runs jq, slice and search on a 10 MiB artifact, with
// the parsed-artifact cache and without it (every query re-reads,
// re-verifies and re-parses from disk). Metrics: p50-ms and p99-ms of
// single queries.
func BenchmarkQuery10MB(b *testing.B) {
	data := doc10MB()
	st, err := artifact.NewDir(b.TempDir(), artifact.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctr, err := budget.NewCounter("")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	h, _, err := st.Put(ctx, bytes.NewReader(data), budget.Meta{})
	if err != nil {
		b.Fatal(err)
	}
	ref := string(h)
	ops := map[string]func(q *Querier, i int) (Answer, error){
		"jq": func(q *Querier, i int) (Answer, error) {
			return q.JQ(ctx, ref, `[.items[] | select(.status >= 500)] | length`, 2000)
		},
		"slice": func(q *Querier, i int) (Answer, error) {
			return q.Slice(ctx, ref, SliceOptions{Offset: (i * 7919) % 90000, Limit: 20}, 2000)
		},
		"search": func(q *Querier, i int) (Answer, error) {
			return q.Search(ctx, ref, []string{"upstream timeout", "disk full", "payment", "web-17"}[i%4], SearchOptions{Limit: 10}, 2000)
		},
	}
	for _, name := range []string{"jq", "slice", "search"} {
		for _, cached := range []bool{true, false} {
			mode := "cached"
			if !cached {
				mode = "uncached"
			}
			b.Run(name+"/"+mode, func(b *testing.B) {
				c := NewCache(0)
				if cached {
					c = NewCache(DefaultCacheBytes)
				}
				q, err := New(st, ctr, Options{Cache: c, Timeout: time.Minute})
				if err != nil {
					b.Fatal(err)
				}
				if cached { // warm: the first query parses
					if _, err := ops[name](q, 0); err != nil {
						b.Fatal(err)
					}
				}
				var lat []time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					a, err := ops[name](q, i)
					if err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
					if a.Tokens > a.Budget {
						b.Fatalf("answer over budget")
					}
				}
				b.StopTimer()
				sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
				b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
				b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
			})
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkJQBounded: filters heavy on the operators bounded.go wraps
// (+, add, tostring, join, tojson, interpolation), on the 10 MB document,
// with the wrappers (bounded) and with gojq's own operators (gojq), in
// the same run; bounded/gojq is the cost of the value cap.
func BenchmarkJQBounded(b *testing.B) {
	data := doc10MB()
	st, err := artifact.NewDir(b.TempDir(), artifact.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctr, err := budget.NewCounter("")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	h, _, err := st.Put(ctx, bytes.NewReader(data), budget.Meta{})
	if err != nil {
		b.Fatal(err)
	}
	filter := `([.items[] | "\(.status)-" + (.status + 1 | tostring) + (.status | tojson)] | join(",") | length), ([.items[].status] | add)`
	var times [2]time.Duration
	for i, mode := range []string{"bounded", "gojq"} {
		b.Run(mode, func(b *testing.B) {
			q, err := New(st, ctr, Options{Timeout: time.Minute, MaxInput: 64 << 20})
			if err != nil {
				b.Fatal(err)
			}
			q.unbounded = mode == "gojq"
			if _, err := q.JQ(ctx, string(h), filter, 2000); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			for b.Loop() {
				if _, err := q.JQ(ctx, string(h), filter, 2000); err != nil {
					b.Fatal(err)
				}
			}
			times[i] = time.Since(start) / time.Duration(b.N)
			if i == 1 && times[1] > 0 {
				b.ReportMetric(float64(times[0])/float64(times[1]), "bounded/gojq")
			}
		})
	}
}
