package mcpproxy_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	budgetpkg "github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/mcpproxy"
)

var shared struct {
	once  sync.Once
	eng   *host.Engine
	store *artifact.DirStore
	err   error
}

// newEngine returns the real engine (with the real plugins, through the
// shared compilation cache) and its real artifact store in a temporary
// directory (under the root TestMain removes). One engine serves every test of the package: building one
// compiles the plugins, which takes seconds; each proxy passes its own
// budget. The budget argument documents the test's budget.
func newEngine(t testing.TB, budget int) (*host.Engine, *artifact.DirStore) {
	t.Helper()
	_ = budget
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "engine-")
		if err != nil {
			shared.err = err
			return
		}
		st, err := artifact.NewDir(dir, artifact.Options{})
		if err != nil {
			shared.err = err
			return
		}
		ctr, err := budgetpkg.NewCounter("o200k_base")
		if err != nil {
			shared.err = err
			return
		}
		shared.store = st
		shared.eng, shared.err = host.New(context.Background(), host.WithStore(st), host.WithCounter(ctr), host.WithLogger(quietLogger()))
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.eng, shared.store
}

// quietLogger logs warnings and errors to stderr.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// harness is a proxy with one in-memory downstream client.
type harness struct {
	proxy    *mcpproxy.Proxy
	client   *mcp.ClientSession
	progress chan *mcp.ProgressNotificationParams
	logs     chan *mcp.LoggingMessageParams
}

func startProxy(t testing.TB, up mcpproxy.Upstream, eng mcpproxy.Engine, opts mcpproxy.Options) *harness {
	t.Helper()
	return startProxyVersion(t, up, eng, opts, "")
}

// startProxyVersion is startProxy with the downstream client asking for
// protocol version (the latest when "").
func startProxyVersion(t testing.TB, up mcpproxy.Upstream, eng mcpproxy.Engine, opts mcpproxy.Options, version string) *harness {
	t.Helper()
	return startProxyWith(t, up, eng, opts, version, &mcp.ClientOptions{})
}

// startProxyWith is startProxyVersion with client options (the harness
// sets the progress and logging handlers).
func startProxyWith(t testing.TB, up mcpproxy.Upstream, eng mcpproxy.Engine, opts mcpproxy.Options, version string, copts *mcp.ClientOptions) *harness {
	t.Helper()
	ctx := context.Background()
	if opts.Logger == nil {
		opts.Logger = quietLogger()
	}
	p, err := mcpproxy.New(ctx, up, eng, opts)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{proxy: p, progress: make(chan *mcp.ProgressNotificationParams, 16), logs: make(chan *mcp.LoggingMessageParams, 16)}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := p.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	copts.ProgressNotificationHandler = func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		select {
		case h.progress <- r.Params:
		default:
		}
	}
	copts.LoggingMessageHandler = func(_ context.Context, r *mcp.LoggingMessageRequest) {
		select {
		case h.logs <- r.Params:
		default:
		}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	h.client = cs
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		p.Close()
	})
	return h
}

// call calls a tool and returns the result (failing the test on a
// protocol error).
func (h *harness) call(t testing.TB, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := h.client.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	return res
}

func text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// meta decodes the proxy's account of a result.
func meta(t testing.TB, res *mcp.CallToolResult) mcpproxy.Meta {
	t.Helper()
	raw, ok := res.Meta[mcpproxy.MetaKey]
	if !ok {
		t.Fatalf("result has no _meta.%s: %+v", mcpproxy.MetaKey, res.Meta)
	}
	b, _ := json.Marshal(raw)
	var m mcpproxy.Meta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// leakCheck records goroutines and open files now, and at cleanup waits
// for both to come back to (about) where they were.
func leakCheck(t *testing.T) {
	t.Helper()
	g0, f0 := runtime.NumGoroutine(), openFiles(t)
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		var g, f int
		for {
			g, f = runtime.NumGoroutine(), openFiles(t)
			if g <= g0+2 && f <= f0 {
				return
			}
			if time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("leak: goroutines %d -> %d, open files %d -> %d\n%s", g0, g, f0, f, buf[:n])
	})
}

func openFiles(t testing.TB) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count open files: %v", err)
	}
	return len(ents)
}

// nodeServer finds node and the pinned server-filesystem package. Without
// them the test is skipped, unless $CI is set: then it fails.
func nodeServer(t testing.TB) (node, script string) {
	t.Helper()
	script, _ = filepath.Abs(filepath.Join("testdata", "npm", "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	node, err := lookPath("node")
	_, serr := os.Stat(script)
	if err != nil || serr != nil {
		msg := "node or @modelcontextprotocol/server-filesystem missing: run npm ci in host/mcpproxy/testdata/npm"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, script
}
