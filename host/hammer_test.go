package host

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolcompact/compact/plugins/plugintest"
)

// TestHammer runs 4 goroutines × N calls through one
// pooled plugin with random faults injected (2% of calls: trap, loop,
// memory exhaustion, failure, bad framing, bloat, dropped record). Every
// call must be answered, with the right output or the right fault kind;
// the pool must never exceed its bound, no instance may leak, and the heap
// must not grow with the number of thrown-away instances.
//
// N is 1,000 (250 with -short) to keep CI fast; the full 10,000 of the
// issue runs with COMPACT_HAMMER_CALLS=10000 (about 25 s here on the
// native runtime, figures in docs/plugins.md).
func TestHammer(t *testing.T) {
	const goroutines = 4
	calls := 1000
	if testing.Short() {
		calls = 250
	}
	if s := os.Getenv("COMPACT_HAMMER_CALLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("COMPACT_HAMMER_CALLS=%q: want a positive number", s)
		}
		calls = n
	}
	cfg := testConfig(t)
	cfg.poolSize = goroutines
	// COMPACT_HAMMER_RUNTIME=extism-sdk hammers the reference host instead.
	if r := Runtime(os.Getenv("COMPACT_HAMMER_RUNTIME")); r != "" {
		if err := WithRuntime(r)(cfg); err != nil {
			t.Fatal(err)
		}
	}
	ps, p := loadPlugin(t, cfg, plugintest.Faults, 16<<20)
	ctx := context.Background()
	faults := []struct {
		fault string
		kind  Kind
	}{
		{"trap", KindTrap}, {"loop", KindTimeout}, {"oom", KindMemory}, {"fail", KindFailed},
		{"framing", KindFraming}, {"bloat", KindSize}, {"drop", KindCount},
	}
	var (
		answered, faulted atomic.Int64
		maxLive           atomic.Int64
		wg                sync.WaitGroup
		heapStart         uint64
		heapOnce          sync.Once
		failures          = make(chan error, goroutines)
	)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 42))
			for i := range calls {
				if g == 0 && i == calls/10 {
					heapOnce.Do(func() { heapStart = heap() })
				}
				fault, kind, timeout := "echo", Kind(""), 10*time.Second
				if rng.IntN(100) < 2 {
					f := faults[rng.IntN(len(faults))]
					fault, kind = f.fault, f.kind
					if fault == "loop" {
						timeout = 30 * time.Millisecond
					}
				}
				out, err := faultCompactor(p, fault, timeout).Compact(ctx, sampleRequest())
				answered.Add(1)
				if l := p.live.Load(); l > maxLive.Load() {
					maxLive.Store(l)
				}
				var pe *PluginError
				switch {
				case kind == "" && (err != nil || !bytes.Equal(out.Content, sample)):
					failures <- errors.Join(errors.New("echo call failed"), err)
					return
				case kind != "" && (!errors.As(err, &pe) || pe.Kind != kind):
					failures <- errors.Join(errors.New("fault "+fault+" not reported as "+string(kind)), err)
					return
				case kind != "":
					faulted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Error(err)
	}
	if got := answered.Load(); got != int64(goroutines*calls) {
		t.Errorf("%d calls answered, want %d", got, goroutines*calls)
	}
	if m := maxLive.Load(); m > goroutines {
		t.Errorf("%d instances live at once, bound %d", m, goroutines)
	}
	heapEnd := heap()
	t.Logf("%s runtime: %d calls, %d faults, %d instances made, heap in use %d MiB → %d MiB",
		cfg.runtime, answered.Load(), faulted.Load(), p.made.Load(), heapStart>>20, heapEnd>>20)
	// Each thrown-away instance held at least 3 MiB of linear memory; a
	// leak of even a tenth of them would show.
	if heapEnd > heapStart+64<<20 {
		t.Errorf("heap grew from %d MiB to %d MiB over %d faults", heapStart>>20, heapEnd>>20, faulted.Load())
	}
	if err := ps.close(ctx); err != nil {
		t.Fatal(err)
	}
	if live := p.live.Load(); live != 0 {
		t.Errorf("%d instances still live after close", live)
	}
}
