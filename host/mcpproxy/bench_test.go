package mcpproxy_test

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// BenchmarkAddedLatency measures the latency the proxy adds to a small
// tool result that needs no compaction: each iteration calls the same
// upstream server once directly and once through the proxy, and the
// benchmark reports p50 and p99 of both and of the difference. Two
// upstreams: a Go MCP server over stdio echoing 40 bytes, and the real
// server-filesystem (list_allowed_directories) when node is installed.
//
//	go test ./host/mcpproxy -run '^$' -bench AddedLatency -benchtime 2000x
func BenchmarkAddedLatency(b *testing.B) {
	eng, _ := newEngine(b, 1000)
	ctx := context.Background()

	b.Run("go-echo", func(b *testing.B) {
		exe, _ := faultyUpstreamArgs(b)
		cmd := exec.Command(exe)
		cmd.Env = faulty(b).Env
		direct := connectDirect(b, cmd)
		h := startProxy(b, faulty(b), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 1000})
		measure(b, ctx, direct, h.client, "echo", map[string]any{"text": "a small result: 40 bytes of plain text."})
	})
	b.Run("server-filesystem", func(b *testing.B) {
		node, script := nodeServer(b)
		root := b.TempDir()
		direct := connectDirect(b, exec.Command(node, script, root))
		h := startProxy(b, &mcpproxy.Command{Path: node, Args: []string{script, root}}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 1000})
		measure(b, ctx, direct, h.client, "list_allowed_directories", map[string]any{})
	})
}

func connectDirect(b *testing.B, cmd *exec.Cmd) *mcp.ClientSession {
	b.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

func measure(b *testing.B, ctx context.Context, direct, proxied *mcp.ClientSession, tool string, args map[string]any) {
	call := func(cs *mcp.ClientSession) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
		return d
	}
	for range 50 { // warm up both paths
		call(direct)
		call(proxied)
	}
	d := make([]time.Duration, 0, b.N)
	p := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		d = append(d, call(direct))
		p = append(p, call(proxied))
	}
	b.StopTimer()
	slices.Sort(d)
	slices.Sort(p)
	q := func(s []time.Duration, f float64) float64 {
		return float64(s[min(len(s)-1, int(f*float64(len(s))))].Microseconds())
	}
	b.ReportMetric(q(d, .5), "direct-p50-µs")
	b.ReportMetric(q(d, .99), "direct-p99-µs")
	b.ReportMetric(q(p, .5), "proxy-p50-µs")
	b.ReportMetric(q(p, .99), "proxy-p99-µs")
	b.ReportMetric(q(p, .5)-q(d, .5), "added-p50-µs")
	b.ReportMetric(q(p, .99)-q(d, .99), "added-p99-µs")
}
