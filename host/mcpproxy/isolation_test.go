package mcpproxy_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// TestHTTPSessionsIsolated: two clients at once on the HTTP door, each
// with an upstream session of its own: what one stores in its upstream
// session the other does not read, the log level one sets does not
// apply to the other, and neither receives the other's log messages.
// On the old door both shared one upstream session: B read A's value,
// and B's call logged under A's level.
func TestHTTPSessionsIsolated(t *testing.T) {
	var mu sync.Mutex
	state := map[*mcp.ServerSession]string{}
	up := mcp.NewServer(&mcp.Implementation{Name: "stateful", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	type kv struct {
		V string `json:"v,omitempty"`
	}
	mcp.AddTool(up, &mcp.Tool{Name: "set"}, func(ctx context.Context, req *mcp.CallToolRequest, in kv) (*mcp.CallToolResult, any, error) {
		mu.Lock()
		state[req.Session] = in.V
		mu.Unlock()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	mcp.AddTool(up, &mcp.Tool{Name: "get"}, func(ctx context.Context, req *mcp.CallToolRequest, _ kv) (*mcp.CallToolResult, any, error) {
		mu.Lock()
		v := state[req.Session]
		mu.Unlock()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "value=" + v}}}, nil, nil
	})
	mcp.AddTool(up, &mcp.Tool{Name: "log"}, func(ctx context.Context, req *mcp.CallToolRequest, in kv) (*mcp.CallToolResult, any, error) {
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: in.V})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "logged"}}}, nil, nil
	})
	eng, _ := newEngine(t, 8000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.InProcess{Server: up}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{}))
	defer srv.Close()

	type agent struct {
		cs   *mcp.ClientSession
		logs chan string
	}
	connect := func(name string) *agent {
		a := &agent{logs: make(chan string, 16)}
		c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ClientOptions{
			LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) { a.logs <- r.Params.Data.(string) },
		})
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		a.cs = cs
		return a
	}
	call := func(a *agent, tool, v string) string {
		t.Helper()
		res, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"v": v}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	a, b := connect("a"), connect("b")
	defer a.cs.Close()
	defer b.cs.Close()

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); call(a, "set", "alice") }()
	go func() { defer wg.Done(); call(b, "set", "bob") }()
	wg.Wait()
	if got := call(a, "get", ""); got != "value=alice" {
		t.Errorf("a reads %q, want its own value", got)
	}
	if got := call(b, "get", ""); got != "value=bob" {
		t.Errorf("b reads %q, want its own value", got)
	}

	if err := a.cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	call(b, "log", "from b")
	call(a, "log", "from a")
	select {
	case got := <-a.logs:
		if got != "from a" {
			t.Errorf("a received log %q, want its own", got)
		}
	case <-time.After(5 * time.Second):
		t.Error("a received no log message after setting a level")
	}
	select {
	case got := <-b.logs:
		t.Errorf("b, which set no level, received log %q", got)
	case <-time.After(300 * time.Millisecond):
	}
}
