package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/server"
)

// BenchmarkCompact100KB posts a 100 KB tool output to POST /v1/compact
// from 50 concurrent clients and reports throughput, p50 and p99, the
// same compaction through Engine.Compact directly (the baseline: what
// HTTP adds), and the live heap after the first and the last half of the
// requests (growth would be a leak).
//
//	go test ./host/server -run '^$' -bench Compact100KB -benchtime 2000x
func BenchmarkCompact100KB(b *testing.B) {
	const clients = 50
	data := issues(330) // about 100 KB
	if len(data) < 95_000 || len(data) > 110_000 {
		b.Fatalf("input is %d bytes", len(data))
	}
	body, _ := json.Marshal(map[string]any{"tool": "github.list_issues", "content": string(data), "budget": 2000})
	eng, _ := engine(b)
	ts := newServer(b, server.Config{MaxBody: 1 << 20})
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()

	post := func() time.Duration {
		start := time.Now()
		resp, err := client.Post(ts.URL+"/v1/compact", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Error(err)
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Errorf("status %d", resp.StatusCode)
		}
		return time.Since(start)
	}
	// Baseline: the engine alone, sequentially.
	start := time.Now()
	const direct = 20
	for range direct {
		if _, err := eng.Compact(context.Background(), host.Request{Tool: "github.list_issues", Input: data, Budget: 2000}); err != nil {
			b.Fatal(err)
		}
	}
	perDirect := time.Since(start) / direct
	for range clients {
		post()
	}

	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 20)
	}
	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var half float64
	var halfOnce sync.Once
	b.ResetTimer()
	begin := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				lat[i] = post()
				if i == int64(b.N/2) {
					halfOnce.Do(func() { half = heap() })
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(begin)
	b.StopTimer()
	end := heap()
	slices.Sort(lat)
	q := func(f float64) float64 {
		return float64(lat[min(len(lat)-1, int(f*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(q(.5), "p50-ms")
	b.ReportMetric(q(.99), "p99-ms")
	b.ReportMetric(float64(perDirect.Microseconds())/1000, "engine-alone-ms")
	b.ReportMetric(half, "heap-half-MB")
	b.ReportMetric(end, "heap-end-MB")
}
