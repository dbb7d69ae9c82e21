package artifact

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
)

// benchSize is the size of the stored output: 16 MiB by default, 100 MiB
// with COMPACT_BENCH_MB=100 (kept opt-in for CI time).
func benchSize(b *testing.B) int {
	mb := 16
	if s := os.Getenv("COMPACT_BENCH_MB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("COMPACT_BENCH_MB=%q", s)
		}
		mb = n
	}
	return mb << 20
}

// logLike returns n bytes of JSON Lines that look like an application log.
func logLike(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b bytes.Buffer
	b.Grow(n + 256)
	for i := 0; b.Len() < n; i++ {
		b.WriteString(`{"i":`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`,"level":"INFO","msg":"request served","path":"/api/v1/items/`)
		b.WriteString(strconv.FormatUint(r.Uint64(), 16))
		b.WriteString(`","ms":`)
		b.WriteString(strconv.Itoa(r.IntN(5000)))
		b.WriteString("}\n")
	}
	return b.Bytes()[:n]
}

// BenchmarkPutVsWriteFile stores an output with DirStore.Put (streamed,
// hashed, fsynced, renamed) and writes the same bytes with os.WriteFile
// plus fsync to the same disk, in the same run. Metrics: put-ms,
// writefile-ms (medians) and put/writefile, the median of the ratios of
// pairs run back to back in alternating order; B/op and allocs/op are Put's (the
// baseline allocates nothing of note): bounded, not a copy of the input.
func BenchmarkPutVsWriteFile(b *testing.B) {
	size := benchSize(b)
	data := logLike(size, 7)
	dir := b.TempDir()
	s, err := NewDir(filepath.Join(dir, "store"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var put, wf []time.Duration
	var ratios []float64
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer() // the data above is not Put's
	b.StopTimer()
	doPut := func() {
		b.StartTimer()
		t0 := time.Now()
		if _, _, err := s.Put(ctx, bytes.NewReader(data), budget.Meta{}); err != nil {
			b.Fatal(err)
		}
		put = append(put, time.Since(t0))
		b.StopTimer()
	}
	doWriteFile := func() {
		t0 := time.Now()
		p := filepath.Join(dir, "baseline")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		wf = append(wf, time.Since(t0))
	}
	for i := 0; i < b.N; i++ {
		copy(data, strconv.Itoa(1000000+i)) // new content each time: no dedup
		// Alternate the order so that neither pays for the other's
		// write-back; compare each pair, which ran under the same load.
		if i%2 == 0 {
			doPut()
			doWriteFile()
		} else {
			doWriteFile()
			doPut()
		}
		ratios = append(ratios, float64(put[i])/float64(wf[i]))
		os.RemoveAll(filepath.Join(dir, "store", "objects"))
		os.MkdirAll(filepath.Join(dir, "store", "objects"), 0o700)
		os.Remove(filepath.Join(dir, "baseline"))
	}
	sort.Float64s(ratios)
	b.ReportMetric(float64(median(put).Microseconds())/1000, "put-ms")
	b.ReportMetric(float64(median(wf).Microseconds())/1000, "writefile-ms")
	b.ReportMetric(ratios[len(ratios)/2], "put/writefile")
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkPutKnown stores 100 KB the store already holds (the in-memory
// fast path: hash, verify the stored copy, refresh the sidecar) and, in
// the same loop, 100 KB it does not hold (write and fsync), and reports
// the ratio of their mean times.
//
//	go test ./budget/artifact -run '^$' -bench PutKnown -benchtime 200x
func BenchmarkPutKnown(b *testing.B) {
	data := logLike(100<<10, 7)
	fresh := bytes.Clone(data)
	s, err := NewDir(filepath.Join(b.TempDir(), "store"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := s.Put(ctx, bytes.NewReader(data), budget.Meta{}); err != nil {
		b.Fatal(err)
	}
	var known, anew time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, _, err := s.Put(ctx, bytes.NewReader(data), budget.Meta{}); err != nil {
			b.Fatal(err)
		}
		known += time.Since(t0)
		copy(fresh, strconv.Itoa(1000000+i))
		t0 = time.Now()
		if _, _, err := s.Put(ctx, bytes.NewReader(fresh), budget.Meta{}); err != nil {
			b.Fatal(err)
		}
		anew += time.Since(t0)
	}
	b.ReportMetric(float64(known.Microseconds())/float64(b.N), "known-µs")
	b.ReportMetric(float64(anew.Microseconds())/float64(b.N), "new-µs")
	b.ReportMetric(float64(anew)/float64(known), "new/known")
}
