package budget

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// benchRecords returns a JSON array of 10-field records of about size
// bytes.
func benchRecords(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 512)
	b.WriteByte('[')
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user number %d","email":"u%d@example.com","active":%t,"score":%d.5,`+
			`"tags":["alpha","beta"],"created_at":"2024-01-02T03:04:%02dZ","url":"https://example.com/users/%d",`+
			`"note":"a longer free-text note about this user, to make the records realistic","parent":{"id":%d,"kind":"team"}}`,
			i, i, i, i%3 == 0, i%1000, i%60, i, i%50)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// cpuTime is the CPU time of the process so far (user and system, all
// threads, so garbage collection counts too). On a shared machine the
// wall-clock MB/s depends on the neighbours; MB per CPU second does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// halfRules drop five of the ten fields.
var halfRules = Rules{Drop: []string{"email", "active", "tags", "url", "note"}}

// allocPerByte reports the bytes allocated per input byte by one run of
// f: an upper bound of the peak heap it needs, as a multiple of the input.
func allocPerByte(b *testing.B, n int, f func()) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(n), "alloc/input")
}

// BenchmarkLevel1 measures level 1 (shape detection plus the declarative
// rules, as Pipeline.Run does) against encoding/json Unmarshal into any
// plus Marshal of the same input, on 1 MB and 10 MB. Compare the MB/s of
// the Level1 and EncodingJSON lines of the same size; alloc/input bounds
// the peak heap as a multiple of the input.
//
//	go test -run '^$' -bench Level1 -benchtime 3x -cpu 1 ./budget
func BenchmarkLevel1(b *testing.B) {
	for _, size := range []int{1 << 20, 10 << 20} {
		data := benchRecords(size)
		name := fmt.Sprintf("%dMB", size>>20)
		b.Run("Level1/"+name, func(b *testing.B) {
			run := func() {
				out, err := Declarative().Compact(context.Background(), Request{Input: data, Rules: halfRules})
				if err != nil {
					b.Fatal(err)
				}
				if len(out.Content) > len(data)*3/4 {
					b.Fatalf("output %d of %d bytes: fields not dropped", len(out.Content), len(data))
				}
			}
			b.SetBytes(int64(len(data)))
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				run()
			}
			b.StopTimer()
			b.ReportMetric(float64(len(data))*float64(b.N)/1e6/(cpuTime()-cpu0).Seconds(), "MB/cpu-s")
			allocPerByte(b, len(data), run)
		})
		b.Run("Level1Defaults/"+name, func(b *testing.B) {
			// The same with the built-in cleanups and a table: constant
			// columns, ids, links, empties.
			rules := halfRules
			rules.Defaults, rules.Format = true, "auto"
			run := func() {
				if _, err := Declarative().Compact(context.Background(), Request{Input: data, Rules: rules}); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(data)))
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				run()
			}
			b.StopTimer()
			b.ReportMetric(float64(len(data))*float64(b.N)/1e6/(cpuTime()-cpu0).Seconds(), "MB/cpu-s")
			allocPerByte(b, len(data), run)
		})
		b.Run("EncodingJSON/"+name, func(b *testing.B) {
			run := func() {
				var v any
				if err := json.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(data)))
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				run()
			}
			b.StopTimer()
			b.ReportMetric(float64(len(data))*float64(b.N)/1e6/(cpuTime()-cpu0).Seconds(), "MB/cpu-s")
			allocPerByte(b, len(data), run)
		})
	}
}

// BenchmarkTokens compares Estimate, LowerBound, a count bounded by an
// 8,000-token budget and the exact count on the same 256 KB of JSON
// records (SetBytes: MB/s of each, the text's bytes per second), and the
// reference tokenizer's exact count for the ratio.
//
//	go test -run '^$' -bench Tokens -benchtime 3x -cpu 1 ./budget
func BenchmarkTokens(b *testing.B) {
	data := benchRecords(256 << 10)
	c := counter(b)
	b.Run("Estimate", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			Estimate(data)
		}
	})
	b.Run("LowerBound", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			LowerBound(data)
		}
	})
	b.Run("CountUpTo8000", func(b *testing.B) {
		// What deciding that a large text is over an 8,000-token budget
		// costs when the lower bound cannot tell.
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			c.(BoundedCounter).CountUpTo(string(data), 8000)
		}
	})
	b.Run("Count", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			c.Count(string(data))
		}
		b.StopTimer()
		allocPerByte(b, len(data), func() { c.Count(string(data)) })
	})
	b.Run("CountReference", func(b *testing.B) {
		// The reference tokenizer (github.com/pkoukk/tiktoken-go, the
		// counter before budget/internal/bpe) on the same text: the
		// ratio of Count's MB/s to this one's is the speed-up.
		want := c.Count(string(data))
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			if n := refCount(b, c.Encoding(), string(data)); n != want {
				b.Fatalf("reference %d, Count %d", n, want)
			}
		}
	})
}
