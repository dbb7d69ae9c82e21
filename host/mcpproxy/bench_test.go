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
// upstream server (a Go MCP server over stdio, echoing 40 bytes) once
// directly and once through the proxy, and the benchmark reports p50 and
// p99 of both and of the difference.
//
//	go test ./host/mcpproxy -run '^$' -bench AddedLatency -benchtime 2000x
func BenchmarkAddedLatency(b *testing.B) {
	eng, _ := newEngine(b, 1000)
	ctx := context.Background()

	exe, _ := faultyUpstreamArgs(b)
	cmd := exec.Command(exe)
	cmd.Env = faulty(b).Env
	c := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil)
	direct, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer direct.Close()
	h := startProxy(b, faulty(b), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 1000})

	args := map[string]any{"text": "a small result: 40 bytes of plain text."}
	call := func(cs *mcp.ClientSession) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: args})
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
		return d
	}
	for range 50 { // warm up both paths
		call(direct)
		call(h.client)
	}
	d := make([]time.Duration, 0, b.N)
	p := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		d = append(d, call(direct))
		p = append(p, call(h.client))
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
