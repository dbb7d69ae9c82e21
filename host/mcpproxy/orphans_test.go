package mcpproxy_test

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// children counts the live (not zombie) child processes of this test
// process.
func children(t testing.TB) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("cannot count processes: %v", err)
	}
	me := strconv.Itoa(os.Getpid())
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ")".
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) >= 2 && f[1] == me && f[0] != "Z" {
			n++
		}
	}
	return n
}

// waitChildren waits up to 10 s for the number of child processes to be
// at most want, and fails naming the number left.
func waitChildren(t testing.TB, want int, what string) {
	t.Helper()
	var n int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if n = children(t); n <= want {
			return
		}
	}
	t.Fatalf("%s: %d upstream processes still running, want at most %d", what, n, want)
}

// TestNoOrphans: every upstream process the proxy starts is ended, also
// one that ignores SIGTERM and the end of its input (SIGKILL after the
// grace period): after a garbage reply (without waiting for the proxy to
// close), after the reconnect that follows, and when the proxy closes.
// The test counts the processes.
func TestNoOrphans(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		node, _, _, _ = conformanceKit(t)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "wire", "server.mjs"))
	eng, _ := newEngine(t, 8000)
	base := children(t)
	ctx := context.Background()

	t.Run("proxy exit", func(t *testing.T) {
		p, err := mcpproxy.New(ctx, &mcpproxy.Command{Path: node, Args: []string{script, "stubborn"}, Stderr: io.Discard, TerminateAfter: 200 * time.Millisecond}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
		if err != nil {
			t.Fatal(err)
		}
		if n := children(t); n != base+1 {
			t.Fatalf("%d upstream processes after start-up, want 1", n-base)
		}
		p.Close()
		waitChildren(t, base, "after Close")
	})

	t.Run("garbage reply and reconnect", func(t *testing.T) {
		h := startProxy(t, &mcpproxy.Command{Path: node, Args: []string{script, "garbage"}, Stderr: io.Discard, TerminateAfter: 200 * time.Millisecond}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
		for i := range 3 {
			res, err := h.client.CallTool(ctx, &mcp.CallToolParams{Name: "zeta", Arguments: map[string]any{}})
			if err == nil && !res.IsError {
				t.Fatalf("call %d: a garbage reply gave a result", i)
			}
			// The upstream that answered garbage is abandoned and ended;
			// the next call reconnects to a new one.
			waitChildren(t, base, "after a garbage reply")
		}
		h.proxy.Close()
		waitChildren(t, base, "after Close")
	})

	t.Run("garbage after the client left", func(t *testing.T) {
		h := startProxy(t, &mcpproxy.Command{Path: node, Args: []string{script, "late-garbage"}, Stderr: io.Discard, TerminateAfter: 200 * time.Millisecond}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
		cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_, _ = h.client.CallTool(cctx, &mcp.CallToolParams{Name: "zeta", Arguments: map[string]any{}})
		cancel()
		h.client.Close()
		time.Sleep(time.Second) // the garbage comes
		waitChildren(t, base, "after a garbage reply to a client that left")
		h.proxy.Close()
		waitChildren(t, base, "after Close")
	})
}

// TestHTTPSessionEndsItsUpstream: over the HTTP door each session has an
// upstream process of its own, ended when the client ends the session;
// closing the proxy ends the rest. The test counts the processes.
func TestHTTPSessionEndsItsUpstream(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		node, _, _, _ = conformanceKit(t)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "wire", "server.mjs"))
	eng, _ := newEngine(t, 8000)
	base := children(t)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script, "stubborn"}, Stderr: io.Discard, TerminateAfter: 200 * time.Millisecond}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{}))
	defer srv.Close()
	var sessions []*mcp.ClientSession
	for range 2 {
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "zeta", Arguments: map[string]any{}}); err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, cs)
	}
	if n := children(t) - base; n != 3 {
		t.Errorf("%d upstream processes for the proxy and two sessions, want 3", n)
	}
	sessions[0].Close() // DELETE
	waitChildren(t, base+2, "after a client ended its session")
	p.Close()
	waitChildren(t, base, "after Close")
	sessions[1].Close()
}
