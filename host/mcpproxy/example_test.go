package mcpproxy_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/mcpproxy"
)

// A proxy in front of an MCP server whose tool returns 2,000 log lines:
// the agent sees a summary with the exact count and a handle, and can
// query the stored original with read_artifact.
func Example() {
	ctx := context.Background()

	// The upstream server (any MCP server; here one in this process).
	up := mcp.NewServer(&mcp.Implementation{Name: "logs", Version: "1"}, nil)
	mcp.AddTool(up, &mcp.Tool{Name: "tail_log", Description: "The service log."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			var b strings.Builder
			for i := 1; i <= 2000; i++ {
				fmt.Fprintf(&b, "2026-01-01T00:00:%02dZ INFO request %d served in %dms\n", i%60, i, i%37)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, nil, nil
		})

	// The engine with an artifact store.
	dir, _ := os.MkdirTemp("", "compact-example-")
	defer os.RemoveAll(dir)
	st, _ := artifact.NewDir(dir, artifact.Options{})
	ctr, _ := budget.NewCounter("o200k_base")
	eng, err := host.New(ctx, host.WithStore(st), host.WithCounter(ctr), host.WithLazyPlugins())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer eng.Close(ctx)

	p, err := mcpproxy.New(ctx, &mcpproxy.InProcess{Server: up}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()

	// The agent's side.
	ct, stt := mcp.NewInMemoryTransports()
	ss, _ := p.Server().Connect(ctx, stt, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()

	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tail_log", Arguments: map[string]any{}})
	m := res.Meta[mcpproxy.MetaKey].(map[string]any)["results"].([]any)[0].(map[string]any)
	fmt.Println("level:", m["level"])
	handle := m["artifact"].(map[string]any)["handle"].(string)

	ans, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpproxy.ReadArtifactTool,
		Arguments: map[string]any{"ref": handle, "op": "slice", "offset": 1999, "limit": 1}})
	fmt.Println(strings.Contains(ans.Content[0].(*mcp.TextContent).Text, "request 2000 served"))
	// Output:
	// level: artifact
	// true
}

// A Go program that serves the proxy on transports of its own connects
// each client with Proxy.Connect (not Server().Connect): its clients
// then get what clients of compact mcp get, such as the upstream's
// answer to a request the go-sdk does not know.
func ExampleProxy_Connect() {
	ctx := context.Background()
	up := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, nil)
	mcp.AddTool(up, &mcp.Tool{Name: "greet", Description: "Says hello."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello"}}}, nil, nil
		})
	dir, _ := os.MkdirTemp("", "compact-example-")
	defer os.RemoveAll(dir)
	st, _ := artifact.NewDir(dir, artifact.Options{})
	ctr, _ := budget.NewCounter("o200k_base")
	eng, err := host.New(ctx, host.WithStore(st), host.WithCounter(ctr), host.WithLazyPlugins())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer eng.Close(ctx)
	p, err := mcpproxy.New(ctx, &mcpproxy.InProcess{Server: up}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()

	// One client of the program, over an in-memory transport.
	ct, stt := mcp.NewInMemoryTransports()
	ss, err := p.Connect(ctx, stt, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// hello
}
