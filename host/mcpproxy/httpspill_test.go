package mcpproxy_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// serveHTTPUpstream serves s over streamable HTTP on a loopback port
// (server-sent events, or JSON bodies when jsonResp), prints its URL on
// standard output, and serves until standard input closes. It runs in a
// process of its own (the test binary), so that the upstream's copy of a
// large result does not count in the proxy's heap.
func serveHTTPUpstream(s *mcp.Server, jsonResp bool) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResp})
	go http.Serve(ln, h)
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// httpUpstream starts the fault-injection server over streamable HTTP in
// a process of its own and returns its URL; cleanup ends the process.
func httpUpstream(t *testing.T, mode string) string {
	t.Helper()
	exe, _ := faultyUpstreamArgs(t)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envUpstream+"="+mode)
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("HTTP upstream did not start: %v", err)
	}
	return strings.TrimSpace(line)
}

// heapPeak runs f while sampling the live heap every 2 ms, and returns
// the heap before f (after a GC) and the highest heap seen during f.
func heapPeak(f func()) (base, peak uint64) {
	// HeapAlloc counts garbage not yet collected, and the collector lets
	// garbage grow in proportion to the live heap, which earlier tests of
	// the package leave at different sizes (HTTP sessions that end on a
	// timer, say): a low GC percent during f makes the peak track what f
	// keeps live, whatever ran before.
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak = ms.HeapAlloc, ms.HeapAlloc
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	return base, max(peak, ms.HeapAlloc)
}

const mib = 1 << 20

// TestHTTPLargeResults: an upstream over streamable HTTP (a real go-sdk
// server in another process) returns 40 MB results, as server-sent events
// and as JSON bodies. They reach the store as they are read: the
// transport alone never holds more than a fraction of the message; the
// stored text, the counts and read_artifact answers match the real data;
// a message over the limit is read and discarded with a clear error; and
// the proxy keeps serving.
func TestHTTPLargeResults(t *testing.T) {
	if testing.Short() {
		t.Skip("large messages")
	}
	eng, store := newEngine(t, 800)
	const size = 40_000_000
	for _, mode := range []string{"http", "http-json"} {
		t.Run(mode, func(t *testing.T) {
			url := httpUpstream(t, mode)
			leakCheck(t)
			hc := &http.Client{Transport: &http.Transport{}}
			t.Cleanup(hc.CloseIdleConnections)

			t.Run("transport", func(t *testing.T) {
				// The upstream transport alone: the result the SDK
				// decodes holds a marker, not 40 MB.
				up := &mcpproxy.HTTP{URL: url, Client: hc, Spill: store, SpillAbove: mib}
				tr, _ := up.Transport()
				c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
				cs, err := c.Connect(context.Background(), tr, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				var res *mcp.CallToolResult
				base, peak := heapPeak(func() {
					res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lines", Arguments: map[string]any{"bytes": size}})
				})
				if err != nil {
					t.Fatal(err)
				}
				got := res.Content[0].(*mcp.TextContent).Text
				if !strings.HasPrefix(got, "\x00compact-spilled:") || len(got) > 100 {
					t.Fatalf("the result was not spilled: %d bytes, %q...", len(got), got[:min(len(got), 40)])
				}
				t.Logf("%s: a %d MB result through the transport: heap %.1f MiB before, peak %.1f MiB (+%.1f MiB, %.0f%% of the message)",
					mode, size/1_000_000, float64(base)/mib, float64(peak)/mib, float64(peak-base)/mib, 100*float64(peak-base)/size)
				if peak-base > size/4 {
					t.Errorf("peak heap grew by %d bytes for a %d-byte message", peak-base, size)
				}
			})

			t.Run("proxy", func(t *testing.T) {
				h := startProxy(t, &mcpproxy.HTTP{URL: url, Client: hc, SpillAbove: mib}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 800})
				var res *mcp.CallToolResult
				base, peak := heapPeak(func() { res = h.call(t, "lines", map[string]any{"bytes": size}) })
				t.Logf("%s: a %d MB result through the whole proxy (engine included): heap +%.1f MiB at peak (%.2f× the message)",
					mode, size/1_000_000, float64(peak-base)/mib, float64(peak-base)/size)
				m := meta(t, res)
				if res.IsError || m.Spilled != 1 || len(m.Results) != 1 || m.Results[0].Artifact == nil {
					t.Fatalf("error %v, meta %+v: %.200s", res.IsError, m, text(t, res))
				}
				want := linesText(size)
				r := m.Results[0]
				if got := stored(t, store, r.Artifact.Handle); got != want {
					t.Fatalf("stored text differs from the upstream's (%d vs %d bytes)", len(got), len(want))
				}
				nlines := strings.Count(want, "\n")
				if n := countOf(r.Collections, "."); n != nlines {
					t.Errorf("line count %d, want %d", n, nlines)
				}
				if !strings.Contains(text(t, res), r.Artifact.Handle) {
					t.Errorf("the handle is not in the text the model sees")
				}
				ans := h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": r.Artifact.Handle, "op": "slice", "offset": 500_000, "limit": 2})
				if ans.IsError || !strings.Contains(text(t, ans), "line 500001: the quick brown fox") || !strings.Contains(text(t, ans), "line 500002: ") {
					t.Errorf("slice: %.300q", text(t, ans))
				}
				last := fmt.Sprintf("line %d: the quick", nlines)
				ans = h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": r.Artifact.Handle, "op": "search", "text": last, "limit": 1})
				if ans.IsError || !strings.Contains(text(t, ans), last) {
					t.Errorf("search %q: %.300q", last, text(t, ans))
				}
				// Escapes of every kind survive the trip to the store, and
				// structuredContent mirroring the text stays consistent.
				res = h.call(t, "unicode", map[string]any{"bytes": 3 * mib})
				m = meta(t, res)
				if res.IsError || m.Spilled != 1 || m.Results[0].Artifact == nil {
					t.Fatalf("unicode: error %v, meta %+v", res.IsError, m)
				}
				if got := stored(t, store, m.Results[0].Artifact.Handle); got != unicodeText(3*mib) {
					t.Errorf("unicode: stored text differs from the upstream's")
				}
				if sc, _ := res.StructuredContent.(map[string]any); m.Structured != "mirrored" || sc["content"] != text(t, res) {
					t.Errorf("unicode: structuredContent %q", m.Structured)
				}
				// Small results are not touched.
				if res := h.call(t, "echo", map[string]any{"text": "small"}); text(t, res) != "small" || meta(t, res).Spilled != 0 {
					t.Errorf("small result: %q", text(t, res))
				}
			})

			t.Run("over the limit", func(t *testing.T) {
				const limit = 8 * mib
				h := startProxy(t, &mcpproxy.HTTP{URL: url, Client: hc, SpillAbove: mib, MaxMessage: limit}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 800})
				var res *mcp.CallToolResult
				base, peak := heapPeak(func() { res = h.call(t, "lines", map[string]any{"bytes": size}) })
				t.Logf("%s: a %d MB result over a %d MiB limit: heap +%.1f MiB at peak", mode, size/1_000_000, limit/mib, float64(peak-base)/mib)
				if !res.IsError || !strings.Contains(text(t, res), "over the limit of 8388608 bytes") || !strings.Contains(text(t, res), "upstream") {
					t.Errorf("want a clear error naming the limit, got %v %.300q", res.IsError, text(t, res))
				}
				if peak-base > size/4 {
					t.Errorf("peak heap grew by %d bytes for a discarded %d-byte message", peak-base, size)
				}
				// Just under the limit passes; the proxy still serves.
				res = h.call(t, "lines", map[string]any{"bytes": 2 * mib})
				if m := meta(t, res); res.IsError || m.Spilled != 1 || m.Results[0].Artifact == nil || m.Results[0].Artifact.Bytes != int64(len(linesText(2*mib))) {
					t.Errorf("a 2 MiB result after the discarded one: error %v meta %+v", res.IsError, m)
				}
				if res := h.call(t, "echo", map[string]any{"text": "still here"}); text(t, res) != "still here" {
					t.Errorf("not serving after the discarded message: %q", text(t, res))
				}
			})
		})
	}
}
