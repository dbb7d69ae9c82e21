package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/server"
)

// soakWall stops BenchmarkCompact100KB's clients from starting new
// requests after this long (0: never), so that a soak of 100,000
// requests on a busy machine still ends in time; the benchmark then
// reports how many it did.
var soakWall = flag.Duration("soak.wall", 0, "BenchmarkCompact100KB: stop starting requests after this long (0: run all b.N)")

// procStats is what the soak watches for growth: the live heap after a
// collection, the resident set, goroutines and open files of the test
// process (server, engine and clients together), and the artifact
// store's bytes on disk.
type procStats struct {
	heapMB, rssMB float64
	goroutines    int
	fds           int
	storeMB       float64
	load          string
}

func readProcStats(storeDir string) procStats {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	st := procStats{heapMB: float64(m.HeapAlloc) / (1 << 20), goroutines: runtime.NumGoroutine()}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
				st.rssMB = float64(kb) / 1024
			}
		}
	}
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		st.fds = len(ents)
	}
	var size int64
	filepath.WalkDir(storeDir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	st.storeMB = float64(size) / (1 << 20)
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		st.load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	return st
}

// cpuTime is the CPU time of the process so far (all threads).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCompact100KB posts a 100 KB tool output (330 GitHub-like
// issues; the github.* entry's restlist plugin, then level 2 at 2,000
// tokens) to POST /v1/compact from 50 concurrent clients and reports
// throughput, p50 and p99, the same compaction through Engine.Compact
// sequentially in the same run (the baseline: what HTTP and concurrency
// add or gain), and the process's live heap, RSS, goroutines and open
// files at 10%, 50% and 100% of the requests. It is also the soak test
// of issue 5 (100,000 requests, no growth):
//
//	go test ./host/server -run '^$' -bench Compact100KB -benchtime 100000x -timeout 3h
//
// which prints a line per tenth of the run to standard error as it goes
// and fails if goroutines or open files grow between 10% and 100% (the
// live heap is reported, not judged: it moves with what the collector
// last saw in flight). -soak.wall=40m stops starting requests after 40
// minutes; the "requests" metric says how many ran.
func BenchmarkCompact100KB(b *testing.B) {
	const clients = 50
	data := issues(330) // about 100 KB
	if len(data) < 95_000 || len(data) > 110_000 {
		b.Fatalf("input is %d bytes", len(data))
	}
	body, _ := json.Marshal(map[string]any{"tool": "github.list_issues", "content": string(data), "budget": 2000})
	eng, store := engine(b)
	storeDir := store.Dir()
	ts := newServer(b, server.Config{MaxBody: 1 << 20})
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()

	post := func() (time.Duration, error) {
		start := time.Now()
		resp, err := client.Post(ts.URL+"/v1/compact", "application/json", bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != 200 {
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		return time.Since(start), err
	}
	// Baseline: the engine alone, sequentially, in wall and CPU time.
	const direct = 20
	wall0, cpu0 := time.Now(), cpuTime()
	for range direct {
		if _, err := eng.Compact(context.Background(), host.Request{Tool: "github.list_issues", Input: data, Budget: 2000}); err != nil {
			b.Fatal(err)
		}
	}
	perDirect, cpuDirect := time.Since(wall0)/direct, (cpuTime()-cpu0)/direct
	for range clients {
		if _, err := post(); err != nil {
			b.Fatal(err)
		}
	}

	// Ten checkpoints; stats at 10%, 50% and 100% are reported.
	type mark struct {
		at    int // requests done
		t     time.Duration
		cpu   time.Duration
		stats procStats
	}
	var (
		lat     = make([]time.Duration, b.N)
		next    atomic.Int64
		done    atomic.Int64
		failed  atomic.Int64
		stop    atomic.Bool
		marksMu sync.Mutex
		marks   []mark
	)
	checkpoint := func(k int) bool { return b.N >= 10 && k%(b.N/10) == 0 && k/(b.N/10) <= 10 }
	b.ResetTimer()
	begin, cpuBegin := time.Now(), cpuTime()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				d, err := post()
				if err != nil {
					if failed.Add(1) <= 5 {
						b.Errorf("request %d: %v", i, err)
					}
				}
				lat[i] = d
				k := int(done.Add(1))
				if checkpoint(k) {
					m := mark{at: k, t: time.Since(begin), cpu: cpuTime() - cpuBegin}
					m.stats = readProcStats(storeDir)
					marksMu.Lock()
					marks = append(marks, m)
					marksMu.Unlock()
					fmt.Fprintf(os.Stderr, "soak %3d%% %7d requests %6.0fs  %5.1f req/s  heap %5.1f MB  rss %5.1f MB  goroutines %4d  fds %3d  store %.1f MB  load %s\n",
						k*100/b.N, k, m.t.Seconds(), float64(k)/m.t.Seconds(), m.stats.heapMB, m.stats.rssMB, m.stats.goroutines, m.stats.fds, m.stats.storeMB, m.stats.load)
				}
				if *soakWall > 0 && time.Since(begin) > *soakWall {
					stop.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	elapsed, cpuUsed := time.Since(begin), cpuTime()-cpuBegin
	b.StopTimer()
	n := int(done.Load())
	end := readProcStats(storeDir)
	slices.SortFunc(marks, func(a, b mark) int { return a.at - b.at })

	// Latency per tenth of the run (requests in the order they started).
	q := func(s []time.Duration, f float64) float64 {
		return float64(s[min(len(s)-1, int(f*float64(len(s))))].Microseconds()) / 1000
	}
	started := min(int(next.Load()), b.N)
	if b.N >= 1000 {
		for t := 0; t < 10; t++ {
			lo, hi := t*started/10, (t+1)*started/10
			s := slices.Clone(lat[lo:hi])
			slices.Sort(s)
			fmt.Fprintf(os.Stderr, "soak latency of requests %6d-%6d: p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms\n", lo, hi, q(s, .5), q(s, .99), q(s, 1))
		}
	}
	all := slices.Clone(lat[:started])
	slices.Sort(all)
	b.ReportMetric(float64(n), "requests")
	b.ReportMetric(float64(n)/elapsed.Seconds(), "req/s")
	b.ReportMetric(q(all, .5), "p50-ms")
	b.ReportMetric(q(all, .99), "p99-ms")
	b.ReportMetric(float64(perDirect.Microseconds())/1000, "engine-alone-ms")
	b.ReportMetric(float64(cpuDirect.Microseconds())/1000, "engine-alone-cpu-ms")
	b.ReportMetric(float64(cpuUsed.Microseconds())/1000/float64(max(n, 1)), "cpu-ms/req")
	b.ReportMetric(end.heapMB, "heap-end-MB")
	at := func(pct int) (procStats, bool) {
		for _, m := range marks {
			if m.at*100/b.N == pct {
				return m.stats, true
			}
		}
		return procStats{}, false
	}
	for _, pct := range []int{10, 50, 100} {
		if st, ok := at(pct); ok {
			b.ReportMetric(st.heapMB, fmt.Sprintf("heap-%d%%-MB", pct))
			b.ReportMetric(st.rssMB, fmt.Sprintf("rss-%d%%-MB", pct))
			b.ReportMetric(float64(st.goroutines), fmt.Sprintf("goroutines-%d%%", pct))
			b.ReportMetric(float64(st.fds), fmt.Sprintf("fds-%d%%", pct))
		}
	}
	// Growth of goroutines or open files between the first checkpoint and
	// the end would be a leak. Idle keep-alive connections may come and
	// go: a little slack.
	if len(marks) >= 2 {
		first := marks[0].stats
		if end.goroutines > first.goroutines+clients/5 || end.fds > first.fds+clients/5 {
			b.Errorf("growth over the run: goroutines %d -> %d, open files %d -> %d", first.goroutines, end.goroutines, first.fds, end.fds)
		}
	}
}
