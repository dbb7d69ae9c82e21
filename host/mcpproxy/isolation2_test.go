package mcpproxy_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// TestHTTPSubscriptionsAndElicitationIsolated: two clients of the HTTP
// door at once. A resource update reaches only the client that
// subscribed to the resource, and an elicitation a tool call asks for
// reaches only the client that made the call, with that client's answer
// going back to its own call.
func TestHTTPSubscriptionsAndElicitationIsolated(t *testing.T) {
	const uri = "mem://counter"
	up := mcp.NewServer(&mcp.Implementation{Name: "stateful", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{"2025-11-25"},
		SubscribeHandler:          func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler:        func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	up.AddResource(&mcp.Resource{URI: uri, Name: "counter", MIMEType: "text/plain"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: "1"}}}, nil
	})
	type noArgs struct{}
	mcp.AddTool(up, &mcp.Tool{Name: "touch"}, func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		if err := up.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "touched"}}}, nil, nil
	})
	mcp.AddTool(up, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "name?", RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}},
		}})
		if err != nil {
			return nil, nil, err
		}
		name, _ := res.Content["name"].(string)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action + ":" + name}}}, nil, nil
	})
	eng, _ := newEngine(t, 8000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.InProcess{Server: up}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{}))
	// Cleanups run last first: the clients close, then the server.
	t.Cleanup(srv.Close)

	type agent struct {
		cs      *mcp.ClientSession
		updates chan string
		asked   chan string
	}
	connect := func(name string) *agent {
		a := &agent{updates: make(chan string, 16), asked: make(chan string, 16)}
		c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ClientOptions{
			ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { a.updates <- r.Params.URI },
			ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				a.asked <- r.Params.Message
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": name}}, nil
			},
		})
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		a.cs = cs
		return a
	}
	call := func(a *agent, tool string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	a, b := connect("alice"), connect("bob")

	if err := a.cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	call(b, "touch")
	select {
	case got := <-a.updates:
		if got != uri {
			t.Errorf("a received an update of %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Error("a, subscribed, received no update")
	}
	select {
	case got := <-b.updates:
		t.Errorf("b, not subscribed, received an update of %q", got)
	case <-time.After(300 * time.Millisecond):
	}

	for i := 0; i < 10; i++ {
		ra, rb := make(chan string, 1), make(chan string, 1)
		go func() { ra <- call(a, "ask") }()
		go func() { rb <- call(b, "ask") }()
		if got, want := <-ra, "accept:alice"; got != want {
			t.Fatalf("round %d: a's call answered %q, want %q", i, got, want)
		}
		if got, want := <-rb, "accept:bob"; got != want {
			t.Fatalf("round %d: b's call answered %q, want %q", i, got, want)
		}
		if len(a.asked) != 1 || len(b.asked) != 1 {
			t.Fatalf("round %d: a was asked %d times, b %d, want once each", i, len(a.asked), len(b.asked))
		}
		<-a.asked
		<-b.asked
	}
}
