package mcpproxy_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// legacy is the last protocol version with server-to-client requests.
const legacy = "2025-11-25"

// featureServer is a real go-sdk server whose tools ask their client for
// sampling, elicitation and roots, on its session (protocol ≤ legacy) or
// through multi round-trip results (2026-07-28). rootsChanged receives
// the client's roots/list_changed notifications; capsSeen the client
// capabilities of each call.
type featureServer struct {
	s            *mcp.Server
	rootsChanged chan struct{}
	asked        chan error // the outcome of each request "ask" made
	arrived      atomic.Int32
	answered     atomic.Int32
}

func newFeatureServer(versions ...string) *featureServer {
	f := &featureServer{rootsChanged: make(chan struct{}, 8), asked: make(chan error, 8)}
	f.s = mcp.NewServer(&mcp.Implementation{Name: "features", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: versions,
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) {
			select {
			case f.rootsChanged <- struct{}{}:
			default:
			}
		},
	})
	reply := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	fail := func(err error) *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
	}
	mcp.AddTool(f.s, &mcp.Tool{Name: "ask", Description: "Samples the client's model."}, func(ctx context.Context, req *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		if in.Text == "after both" { // wait until two calls are in flight
			f.arrived.Add(1)
			for i := 0; f.arrived.Load() < 2 && i < 500; i++ {
				time.Sleep(10 * time.Millisecond)
			}
		}
		res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 50,
			Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: in.Text}}}})
		if in.Text == "after both" { // and both asked before either returns
			f.answered.Add(1)
			for i := 0; f.answered.Load() < 2 && i < 500; i++ {
				time.Sleep(10 * time.Millisecond)
			}
		}
		select {
		case f.asked <- err:
		default:
		}
		if err != nil {
			return fail(err), nil, nil
		}
		return reply("sampled: " + res.Content.(*mcp.TextContent).Text + " (" + res.Model + ")"), nil, nil
	})
	mcp.AddTool(f.s, &mcp.Tool{Name: "confirm", Description: "Asks the user."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Proceed?", RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}})
		if err != nil {
			return fail(err), nil, nil
		}
		return reply(fmt.Sprintf("%s %v", res.Action, res.Content["ok"])), nil, nil
	})
	mcp.AddTool(f.s, &mcp.Tool{Name: "visit", Description: "Sends the user to a URL, then says it is done."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Log in", URL: "https://example.com/login", ElicitationID: "login-1"})
		if err != nil {
			return fail(err), nil, nil
		}
		if err := req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: "login-1"}); err != nil {
			return fail(err), nil, nil
		}
		return reply(res.Action), nil, nil
	})
	mcp.AddTool(f.s, &mcp.Tool{Name: "slow", Description: "Answers after a while."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(700 * time.Millisecond):
			return reply("done"), nil, nil
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	})
	mcp.AddTool(f.s, &mcp.Tool{Name: "roots", Description: "Lists the client's roots."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return fail(err), nil, nil
		}
		return reply(rootURIs(res.Roots)), nil, nil
	})
	mcp.AddTool(f.s, &mcp.Tool{Name: "caps", Description: "The client's capabilities."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		return reply(capsString(req.ClientCapabilities())), nil, nil
	})
	// Multi round-trip: the same questions as input requests.
	mcp.AddTool(f.s, &mcp.Tool{Name: "mrtr", Description: "Asks for input through a multi round-trip result."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		r := req.Params.InputResponses
		if r == nil {
			return &mcp.CallToolResult{RequestState: "state-1", InputRequests: mcp.InputRequestMap{
				"e": &mcp.ElicitParams{Message: "Proceed?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}},
				"s": &mcp.CreateMessageParams{MaxTokens: 50, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}},
				"r": &mcp.ListRootsParams{},
			}}, nil, nil
		}
		if req.Params.RequestState != "state-1" {
			return fail(fmt.Errorf("request state %q", req.Params.RequestState)), nil, nil
		}
		e, _ := r["e"].(*mcp.ElicitResult)
		s, _ := r["s"].(*mcp.CreateMessageWithToolsResult)
		rr, _ := r["r"].(*mcp.ListRootsResult)
		if e == nil || s == nil || rr == nil {
			return fail(fmt.Errorf("input responses %#v", r)), nil, nil
		}
		return reply(fmt.Sprintf("%s %v | %s | %s", e.Action, e.Content["ok"], s.Content[0].(*mcp.TextContent).Text, rootURIs(rr.Roots))), nil, nil
	})
	return f
}

func rootURIs(roots []*mcp.Root) string {
	var uris []string
	for _, r := range roots {
		uris = append(uris, r.URI)
	}
	slices.Sort(uris)
	return strings.Join(uris, ",")
}

func capsString(c *mcp.ClientCapabilities) string {
	if c == nil {
		return "none"
	}
	var have []string
	if c.RootsV2 != nil {
		have = append(have, "roots")
	}
	if c.Sampling != nil {
		have = append(have, "sampling")
	}
	if c.Elicitation != nil {
		have = append(have, "elicitation")
	}
	if len(have) == 0 {
		return "none"
	}
	return strings.Join(have, ",")
}

// agent is a real go-sdk client on a proxy, with a model (sampling), a
// user (elicitation) and roots; sampled counts its sampling requests.
type agent struct {
	client  *mcp.Client
	session *mcp.ClientSession
	server  *mcp.ServerSession // the proxy's end
	sampled atomic.Int32
	block   chan struct{} // when set, sampling waits for it (or the end of the request)
	started chan struct{}
	cut     func() // disconnects the client abruptly
	// sawRouteKey: the proxy's routing token reached the client.
	sawRouteKey atomic.Bool
}

// connectAgent connects a downstream client on protocol version; full
// gives it sampling, elicitation and a root named after name.
func connectAgent(t *testing.T, p *mcpproxy.Proxy, name, version string, full bool) *agent {
	t.Helper()
	a := &agent{started: make(chan struct{}, 16)}
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	if full {
		opts = &mcp.ClientOptions{
			Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}},
			CreateMessageHandler: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				a.sampled.Add(1)
				if _, ok := req.Params.Meta["compact.proxy/route"]; ok {
					a.sawRouteKey.Store(true)
				}
				a.started <- struct{}{}
				if a.block != nil {
					select {
					case <-a.block:
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
				in := req.Params.Messages[0].Content.(*mcp.TextContent).Text
				return &mcp.CreateMessageResult{Role: "assistant", Model: name + "-model", Content: &mcp.TextContent{Text: name + " says hello to " + in}}, nil
			},
			ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
			},
		}
	}
	a.client = mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, opts)
	if full {
		a.client.AddRoots(&mcp.Root{URI: "file:///work/" + name, Name: name})
	}
	// Pipes, so that cut is a real disconnect (the proxy reads EOF).
	toClient, fromProxy := io.Pipe()
	toProxy, fromClient := io.Pipe()
	ct := &mcp.IOTransport{Reader: toClient, Writer: fromClient}
	st := &mcp.IOTransport{Reader: toProxy, Writer: fromProxy}
	a.cut = func() {
		fromClient.Close()
		toClient.Close()
	}
	ss, err := p.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := a.client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	a.session, a.server = cs, ss
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return a
}

func (a *agent) call(t *testing.T, tool string, args any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := a.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return "error: " + b.String()
	}
	return b.String()
}

func newFeatureProxy(t *testing.T, f *featureServer) *mcpproxy.Proxy {
	t.Helper()
	eng, _ := newEngine(t, 2000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.InProcess{Server: f.s}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 2000, Logger: quietLogger(), UpstreamProtocol: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestClientFeaturesLegacy: an upstream on protocol 2025-11-25 asks its
// client for sampling, elicitation and roots during tool calls; the
// proxy announces the downstream client's capabilities (and only those),
// forwards each request to that client, and passes its roots changes up.
func TestClientFeaturesLegacy(t *testing.T) {
	leakCheck(t)
	f := newFeatureServer(legacy)
	p := newFeatureProxy(t, f)
	a := connectAgent(t, p, "alice", legacy, true)

	if got := a.call(t, "caps", map[string]any{}); got != "roots,sampling,elicitation" {
		t.Errorf("the upstream sees capabilities %q, want the client's roots,sampling,elicitation", got)
	}
	if got := a.call(t, "ask", map[string]any{"text": "hi"}); got != "sampled: alice says hello to hi (alice-model)" {
		t.Errorf("sampling: %q", got)
	}
	if got := a.call(t, "confirm", map[string]any{}); got != "accept true" {
		t.Errorf("elicitation: %q", got)
	}
	if got := a.call(t, "roots", map[string]any{}); got != "file:///work/alice" {
		t.Errorf("roots: %q", got)
	}
	a.client.AddRoots(&mcp.Root{URI: "file:///work/alice2"})
	select {
	case <-f.rootsChanged:
	case <-time.After(10 * time.Second):
		t.Fatal("roots/list_changed did not reach the upstream")
	}
	if got := a.call(t, "roots", map[string]any{}); got != "file:///work/alice,file:///work/alice2" {
		t.Errorf("roots after the change: %q", got)
	}

	t.Run("routing between two clients", func(t *testing.T) {
		b := connectAgent(t, p, "bob", legacy, true)
		// Only bob has a call in flight: the request is his, and alice's
		// model is never asked.
		before := a.sampled.Load()
		if got := b.call(t, "ask", map[string]any{"text": "x"}); got != "sampled: bob says hello to x (bob-model)" {
			t.Errorf("bob's call: %q", got)
		}
		if a.sampled.Load() != before {
			t.Errorf("alice's model was asked for bob's call")
		}
		// Both have calls in flight: which one the upstream asks cannot be
		// told, so neither client is asked and both calls get a clear error.
		f.arrived.Store(0)
		f.answered.Store(0)
		var wg sync.WaitGroup
		got := make([]string, 2)
		for i, ag := range []*agent{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = ag.call(t, "ask", map[string]any{"text": "after both"})
			}()
		}
		wg.Wait()
		for i, g := range got {
			if !strings.Contains(g, "not forwarded") || !strings.Contains(g, "2 downstream clients") {
				t.Errorf("client %d with two calls in flight: %q", i, g)
			}
		}
		if n := a.sampled.Load() + b.sampled.Load(); n != before+1 {
			t.Errorf("a model was asked although the request was ambiguous (%d requests)", n-before)
		}
	})
}

// TestClientFeaturesMissing: a downstream client without the capability
// gets nothing, the upstream a clear error, and the upstream is never
// told of capabilities the client lacks.
func TestClientFeaturesMissing(t *testing.T) {
	leakCheck(t)
	f := newFeatureServer(legacy)
	p := newFeatureProxy(t, f)
	a := connectAgent(t, p, "plain", legacy, false)
	if got := a.call(t, "caps", map[string]any{}); got != "none" {
		t.Errorf("the upstream sees capabilities %q for a client that has none", got)
	}
	// Not told of sampling, the upstream that asks anyway is refused.
	if got := a.call(t, "ask", map[string]any{"text": "hi"}); !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "sampling/createMessage") {
		t.Errorf("sampling without the capability: %q", got)
	}
	if got := a.call(t, "roots", map[string]any{}); !strings.Contains(got, "error") {
		t.Errorf("roots without the capability: %q", got)
	}
	if got := a.call(t, "confirm", map[string]any{}); !strings.Contains(got, "error") || !strings.Contains(got, "elicitation") {
		t.Errorf("elicitation without the capability: %q", got)
	}
	// Another client has sampling, so the upstream is told of it; a
	// request during the plain client's call is still not given to the
	// other one.
	full := connectAgent(t, p, "alice", legacy, true)
	if got := full.call(t, "caps", map[string]any{}); got != "roots,sampling,elicitation" {
		t.Errorf("after a client with capabilities joined, the upstream sees %q", got)
	}
	if got := a.call(t, "ask", map[string]any{"text": "hi"}); !strings.Contains(got, "the downstream client (plain) does not support sampling/createMessage") {
		t.Errorf("sampling routed to the client without it: %q", got)
	}
	if full.sampled.Load() != 0 {
		t.Errorf("the other client's model was asked")
	}
}

// TestClientFeaturesJoinDuringCall: a client with capabilities joins
// while another client's call is in flight; the proxy reconnects to the
// upstream to announce them, and the call in flight still finishes on
// the session it started on.
func TestClientFeaturesJoinDuringCall(t *testing.T) {
	leakCheck(t)
	f := newFeatureServer(legacy)
	p := newFeatureProxy(t, f)
	a := connectAgent(t, p, "plain", legacy, false)
	got := make(chan string, 1)
	go func() { got <- a.call(t, "slow", map[string]any{}) }()
	time.Sleep(200 * time.Millisecond)
	b := connectAgent(t, p, "alice", legacy, true)
	if caps := b.call(t, "caps", map[string]any{}); caps != "roots,sampling,elicitation" {
		t.Errorf("after alice joined the upstream sees %q", caps)
	}
	select {
	case g := <-got:
		if g != "done" {
			t.Errorf("the call in flight while the proxy reconnected: %q", g)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight never finished")
	}
}

// TestClientFeaturesProtocolMismatch: a client on protocol 2026-07-28
// cannot be sent requests of its own; an upstream on an older protocol
// that asks during its call gets an error saying so, and the client is
// not asked.
func TestClientFeaturesProtocolMismatch(t *testing.T) {
	leakCheck(t)
	f := newFeatureServer(legacy)
	p := newFeatureProxy(t, f)
	a := connectAgent(t, p, "modern", "", true)
	if got := a.call(t, "ask", map[string]any{"text": "hi"}); !strings.Contains(got, "speaks protocol 2026-07-28") {
		t.Errorf("sampling for a 2026-07-28 client from an older upstream: %q", got)
	}
	if a.sampled.Load() != 0 {
		t.Errorf("the client was asked")
	}
}

// TestClientFeaturesDisconnect: the client disconnects while the
// upstream's sampling request waits for its model: the upstream gets an
// error at once (no hang), nothing leaks, and the proxy serves the next
// client.
func TestClientFeaturesDisconnect(t *testing.T) {
	leakCheck(t)
	f := newFeatureServer(legacy)
	p := newFeatureProxy(t, f)
	a := connectAgent(t, p, "alice", legacy, true)
	a.block = make(chan struct{})
	defer close(a.block)
	go a.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"text": "slow"}})
	select {
	case <-a.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the sampling request did not reach the client")
	}
	start := time.Now()
	a.cut() // alice's connection breaks
	select {
	case err := <-f.asked:
		if err == nil {
			t.Errorf("the upstream's sampling request succeeded after the client left")
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("the upstream waited %v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the upstream's sampling request hangs after the client left")
	}
	b := connectAgent(t, p, "bob", legacy, true)
	if got := b.call(t, "ask", map[string]any{"text": "y"}); got != "sampled: bob says hello to y (bob-model)" {
		t.Errorf("the next client: %q", got)
	}
}

// TestClientFeaturesMultiRoundTrip: an upstream on protocol 2026-07-28
// asks for input in its result; the proxy passes the request to the
// calling client and the responses back, for a client on the same
// protocol (it fulfils them itself) and for an older one (the go-sdk
// server in the proxy asks it). The upstream sees each caller's own
// capabilities.
func TestClientFeaturesMultiRoundTrip(t *testing.T) {
	leakCheck(t)
	f := newFeatureServer()
	p := newFeatureProxy(t, f)
	for _, version := range []string{"", legacy} {
		name := "new"
		if version != "" {
			name = "old"
		}
		t.Run(name, func(t *testing.T) {
			a := connectAgent(t, p, name, version, true)
			if got := a.call(t, "mrtr", map[string]any{}); got != "accept true | "+name+" says hello to hi | file:///work/"+name {
				t.Errorf("multi round-trip: %q", got)
			}
			if version == "" {
				if got := a.call(t, "caps", map[string]any{}); got != "roots,sampling,elicitation" {
					t.Errorf("capabilities seen upstream: %q", got)
				}
				plain := connectAgent(t, p, "plain-"+name, version, false)
				if got := plain.call(t, "caps", map[string]any{}); got != "none" {
					t.Errorf("capabilities seen upstream for a plain client: %q", got)
				}
			}
		})
	}
}

// TestFilesystemRoots: @modelcontextprotocol/server-filesystem (a real
// upstream on an older protocol) asks the agent's client for its roots
// through the proxy and serves them instead of its command-line
// directory; a change of the client's roots reaches it too.
func TestFilesystemRoots(t *testing.T) {
	node, script := nodeServer(t)
	root := t.TempDir()
	for _, d := range []string{"one", "two"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	eng, _ := newEngine(t, 2000)
	leakCheck(t)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script, root}, Stderr: io.Discard, TerminateAfter: 500 * time.Millisecond},
		mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 2000, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	// The one client, with roots: the proxy reconnects announcing them,
	// and the server asks for them.
	b := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}}}
	c := mcp.NewClient(&mcp.Implementation{Name: "rooted", Version: "1"}, b)
	c.AddRoots(&mcp.Root{URI: "file://" + filepath.Join(root, "one"), Name: "one"})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := p.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	allowed := func() string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_allowed_directories", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	waitFor := func(want, not string) {
		t.Helper()
		var got string
		for i := 0; i < 100; i++ {
			if got = allowed(); strings.Contains(got, want) && (not == "" || !strings.Contains(got, not)) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("allowed directories %q, want %q (and not %q)", got, want, not)
	}
	waitFor(filepath.Join(root, "one"), filepath.Join(root, "two"))
	c.AddRoots(&mcp.Root{URI: "file://" + filepath.Join(root, "two"), Name: "two"})
	waitFor(filepath.Join(root, "two"), "")
}

// TestClientFeaturesHTTPRouting: over streamable HTTP the upstream's
// question comes on the stream of the call it belongs to, so with two
// clients both in the middle of a call each gets its own question (where
// stdio could only refuse), and the routing token never reaches them.
func TestClientFeaturesHTTPRouting(t *testing.T) {
	f := newFeatureServer(legacy)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return f.s }, nil))
	t.Cleanup(ts.Close)
	leakCheck(t)
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	eng, _ := newEngine(t, 2000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.HTTP{URL: ts.URL, Client: hc}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 2000, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	a := connectAgent(t, p, "alice", legacy, true)
	b := connectAgent(t, p, "bob", legacy, true)
	for round := range 3 {
		f.arrived.Store(0)
		f.answered.Store(0)
		var wg sync.WaitGroup
		got := make([]string, 2)
		for i, ag := range []*agent{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = ag.call(t, "ask", map[string]any{"text": "after both"})
			}()
		}
		wg.Wait()
		if got[0] != "sampled: alice says hello to after both (alice-model)" || got[1] != "sampled: bob says hello to after both (bob-model)" {
			t.Errorf("round %d: alice got %q, bob got %q", round, got[0], got[1])
		}
	}
	if a.sampled.Load() != 3 || b.sampled.Load() != 3 {
		t.Errorf("sampling requests: alice %d, bob %d, want 3 each", a.sampled.Load(), b.sampled.Load())
	}
	if a.sawRouteKey.Load() || b.sawRouteKey.Load() {
		t.Errorf("the proxy's routing token reached a client")
	}
	if got := b.call(t, "roots", map[string]any{}); got != "file:///work/bob" {
		t.Errorf("bob's roots: %q", got)
	}
}

// TestClientFeaturesURLElicitation: a URL elicitation reaches the client,
// and the upstream's notice that it completed follows it there.
func TestClientFeaturesURLElicitation(t *testing.T) {
	leakCheck(t)
	f := newFeatureServer(legacy)
	p := newFeatureProxy(t, f)
	completed := make(chan string, 1)
	var url string
	c := mcp.NewClient(&mcp.Implementation{Name: "browser", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			url = req.Params.URL
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
		ElicitationCompleteHandler: func(ctx context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			completed <- req.Params.ElicitationID
		},
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := p.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "visit", Arguments: map[string]any{}})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "accept" || url != "https://example.com/login" {
		t.Fatalf("URL elicitation: %v %+v, url %q", err, res, url)
	}
	select {
	case id := <-completed:
		if id != "login-1" {
			t.Errorf("completed %q", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("notifications/elicitation/complete did not reach the client")
	}
}

// TestClientFeaturesOtherSessionsCall: a call in flight on an upstream
// session the proxy has since replaced says nothing about a question the
// new session asks. Alice (roots) has a call in flight on the session
// opened for her; bob (roots and sampling) joins, so the proxy opens a
// new session, and the upstream asks it for roots as soon as it starts
// (as server-filesystem does). Nothing says which agent that is for:
// alice's roots must not be the answer.
func TestClientFeaturesOtherSessionsCall(t *testing.T) {
	leakCheck(t)
	type asked struct {
		roots string
		err   error
	}
	asks := make(chan asked, 8)
	release := make(chan struct{})
	s := mcp.NewServer(&mcp.Implementation{Name: "eager", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{legacy},
		InitializedHandler: func(_ context.Context, req *mcp.InitializedRequest) {
			if req.Session.InitializeParams().Capabilities.RootsV2 == nil {
				return
			}
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				res, err := req.Session.ListRoots(ctx, nil)
				a := asked{err: err}
				if err == nil {
					a.roots = rootURIs(res.Roots)
				}
				asks <- a
			}()
		},
	})
	mcp.AddTool(s, &mcp.Tool{Name: "wait", Description: "Answers when the test says so."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	eng, _ := newEngine(t, 2000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.InProcess{Server: s}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 2000, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })

	// Alice: roots only. The proxy reconnects to announce them, and the
	// new session's question is hers (she is the only client).
	alice := mcp.NewClient(&mcp.Implementation{Name: "alice", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{}}})
	alice.AddRoots(&mcp.Root{URI: "file:///work/alice", Name: "alice"})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := p.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := alice.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	next := func() asked {
		t.Helper()
		select {
		case a := <-asks:
			return a
		case <-time.After(10 * time.Second):
			t.Fatal("the upstream's session did not ask for roots")
		}
		return asked{}
	}
	if a := next(); a.err != nil || a.roots != "file:///work/alice" {
		t.Fatalf("the question of the session opened for alice: %q, %v", a.roots, a.err)
	}

	// Alice's call is in flight on that session while bob joins.
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	connectAgent(t, p, "bob", legacy, true)
	if a := next(); a.roots == "file:///work/alice" {
		t.Errorf("the session opened when bob joined got alice's roots, from her call on the previous session")
	} else if a.err == nil || !strings.Contains(a.err.Error(), "2 downstream clients") {
		t.Errorf("the session opened when bob joined: roots %q, error %v; want an error naming the ambiguity", a.roots, a.err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Errorf("alice's call: %v", err)
	}
}

// TestClientFeaturesJoinUnderLoad: clients that bring new capabilities
// join (the proxy replaces its upstream session each time) while another
// client makes calls without pause: none of those calls fails, however
// it falls against the switch.
func TestClientFeaturesJoinUnderLoad(t *testing.T) {
	leakCheck(t)
	for round := range 4 {
		f := newFeatureServer(legacy)
		p := newFeatureProxy(t, f)
		busy := connectAgent(t, p, fmt.Sprintf("busy-%d", round), legacy, false)
		stop := make(chan struct{})
		var failed atomic.Int32
		var firstErr atomic.Value
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					res, err := busy.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "caps", Arguments: map[string]any{}})
					if err == nil && res.IsError {
						err = fmt.Errorf("%s", res.Content[0].(*mcp.TextContent).Text)
					}
					if err != nil {
						failed.Add(1)
						firstErr.CompareAndSwap(nil, err.Error())
					}
				}
			}()
		}
		// Roots, then sampling, then elicitation: three new upstream
		// sessions while the calls go on.
		for i, caps := range []*mcp.ClientCapabilities{
			{RootsV2: &mcp.RootCapabilities{}},
			{Sampling: &mcp.SamplingCapabilities{}},
			{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
		} {
			time.Sleep(30 * time.Millisecond)
			c := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("joiner-%d", i), Version: "1"}, &mcp.ClientOptions{Capabilities: caps})
			ct, st := mcp.NewInMemoryTransports()
			ss, err := p.Server().Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close(); ss.Wait() })
		}
		time.Sleep(30 * time.Millisecond)
		close(stop)
		wg.Wait()
		if got := busy.call(t, "caps", map[string]any{}); got != "roots,sampling,elicitation" {
			t.Errorf("round %d: after three joins the upstream sees %q", round, got)
		}
		if n := failed.Load(); n > 0 {
			t.Fatalf("round %d: %d calls failed while clients joined; first: %v", round, n, firstErr.Load())
		}
	}
}

// TestClientFeaturesJoinKeepsSubscriptions: a client subscribed to a
// resource keeps getting its updates after another client joins with
// new capabilities and the proxy replaces its upstream session.
func TestClientFeaturesJoinKeepsSubscriptions(t *testing.T) {
	leakCheck(t)
	var subscribed atomic.Int32
	s := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{legacy},
		SubscribeHandler: func(context.Context, *mcp.SubscribeRequest) error {
			subscribed.Add(1)
			return nil
		},
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.AddResource(&mcp.Resource{URI: "test://doc", Name: "doc"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://doc", Text: "v"}}}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "touch", Description: "Changes the document."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		if err := s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "test://doc"}); err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "touched"}}}, nil, nil
	})
	eng, _ := newEngine(t, 2000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.InProcess{Server: s}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 2000, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })

	updated := make(chan string, 8)
	c := mcp.NewClient(&mcp.Implementation{Name: "reader", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := p.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "test://doc"}); err != nil {
		t.Fatal(err)
	}
	touch := func(when string) {
		t.Helper()
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "touch", Arguments: map[string]any{}}); err != nil {
			t.Fatal(err)
		}
		select {
		case uri := <-updated:
			if uri != "test://doc" {
				t.Errorf("%s: update of %q", when, uri)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: the subscribed client got no notifications/resources/updated", when)
		}
	}
	touch("before another client joined")
	connectAgent(t, p, "alice", legacy, true) // roots, sampling, elicitation: a new upstream session
	// The proxy reconnects once alice has initialized, in the background.
	for i := 0; subscribed.Load() < 2 && i < 100; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if got := subscribed.Load(); got != 2 {
		t.Fatalf("the upstream saw %d subscriptions, want 2 (one per session)", got)
	}
	touch("after another client joined")
}

// TestClientFeaturesQuestionEndsWithCall: over streamable HTTP a question
// belongs to the call on whose stream it came; an upstream that returns
// from the call without withdrawing its question (it asked with a
// context that outlives the call) does not leave the agent's client
// asked forever: the proxy withdraws the question when the call ends,
// and the upstream gets an error.
func TestClientFeaturesQuestionEndsWithCall(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "careless", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{legacy}})
	asked := make(chan error, 1)
	mcp.AddTool(s, &mcp.Tool{Name: "leave", Description: "Asks the model, and answers without waiting."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		go func() {
			// Not cancelled with the call (bounded, so that the test ends).
			qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			_, err := req.Session.CreateMessage(qctx, &mcp.CreateMessageParams{MaxTokens: 5,
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
			asked <- err
		}()
		time.Sleep(300 * time.Millisecond)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "left"}}}, nil, nil
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() }) // the careless upstream never ends its stream
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	eng, _ := newEngine(t, 2000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.HTTP{URL: ts.URL, Client: hc}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 2000, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	started, withdrawn := make(chan struct{}, 1), make(chan struct{}, 1)
	release := make(chan struct{})
	c := mcp.NewClient(&mcp.Implementation{Name: "patient", Version: "1"}, &mcp.ClientOptions{
		CreateMessageHandler: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			started <- struct{}{}
			select {
			case <-ctx.Done():
				withdrawn <- struct{}{}
				return nil, ctx.Err()
			case <-release:
				return nil, fmt.Errorf("released by the test")
			}
		},
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := p.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	t.Cleanup(func() { close(release) }) // first: a question left open ends
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "leave", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("the call: %v %+v", err, res)
	}
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the question never reached the client")
	}
	select {
	case <-withdrawn:
	case <-time.After(10 * time.Second):
		t.Fatal("the question is still open at the client 10 s after its call ended")
	}
	select {
	case err := <-asked:
		if err == nil {
			t.Errorf("the upstream's question succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Error("the upstream got no answer to its question")
	}
}

// TestClientFeaturesQuestionOverLimit: the upstream asks for sampling
// with a message larger than the proxy's limit. The question is not
// kept (nor passed on), and the upstream gets an error naming the limit
// at once, instead of waiting for an answer that never comes.
func TestClientFeaturesQuestionOverLimit(t *testing.T) {
	f := newFeatureServer(legacy)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return f.s }, nil))
	t.Cleanup(ts.Close)
	leakCheck(t)
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	eng, _ := newEngine(t, 2000)
	const limit = 256 << 10
	p, err := mcpproxy.New(context.Background(), &mcpproxy.HTTP{URL: ts.URL, Client: hc, MaxMessage: limit}, mcpproxy.Adapt(eng),
		mcpproxy.Options{Budget: 2000, Logger: quietLogger(), CallTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	a := connectAgent(t, p, "alice", legacy, true)
	start := time.Now()
	got := a.call(t, "ask", map[string]any{"text": strings.Repeat("z", 2*limit)})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the call took %v", d)
	}
	if !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "sampling/createMessage") || !strings.Contains(got, fmt.Sprintf("limit of %d bytes", limit)) {
		t.Errorf("want the upstream's error naming the method and the limit, got %.300q", got)
	}
	if a.sampled.Load() != 0 {
		t.Errorf("the client was asked")
	}
	if got := a.call(t, "ask", map[string]any{"text": "small"}); got != "sampled: alice says hello to small (alice-model)" {
		t.Errorf("a small question afterwards: %q", got)
	}
}

// TestSubscriptionsSharedByClients: two clients subscribed to one
// resource share one upstream subscription; when one unsubscribes, the
// other keeps getting updates, and the upstream subscription ends only
// with the last one.
func TestSubscriptionsSharedByClients(t *testing.T) {
	leakCheck(t)
	var subscribed, unsubscribed atomic.Int32
	s := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{legacy},
		SubscribeHandler: func(context.Context, *mcp.SubscribeRequest) error {
			subscribed.Add(1)
			return nil
		},
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error {
			unsubscribed.Add(1)
			return nil
		},
	})
	s.AddResource(&mcp.Resource{URI: "test://doc", Name: "doc"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://doc", Text: "v"}}}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "touch", Description: "Changes the document."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		if err := s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "test://doc"}); err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "touched"}}}, nil, nil
	})
	eng, _ := newEngine(t, 2000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.InProcess{Server: s}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 2000, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })

	type reader struct {
		cs      *mcp.ClientSession
		updated chan string
	}
	connect := func(name string) reader {
		r := reader{updated: make(chan string, 8)}
		c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ClientOptions{
			ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { r.updated <- req.Params.URI },
		})
		ct, st := mcp.NewInMemoryTransports()
		ss, err := p.Server().Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.cs, err = c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.cs.Close(); ss.Wait() })
		if err := r.cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "test://doc"}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	ann, bob := connect("ann"), connect("bob")
	if err := ann.cs.Unsubscribe(context.Background(), &mcp.UnsubscribeParams{URI: "test://doc"}); err != nil {
		t.Fatal(err)
	}
	if got := unsubscribed.Load(); got != 0 {
		t.Fatalf("ann's unsubscribe reached the upstream (%d) while bob is still subscribed", got)
	}
	if _, err := ann.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "touch", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-bob.updated:
	case <-time.After(5 * time.Second):
		t.Fatal("bob, still subscribed, got no update after ann unsubscribed")
	}
	select {
	case <-ann.updated:
		t.Fatal("ann got an update after unsubscribing")
	case <-time.After(200 * time.Millisecond):
	}
	if err := bob.cs.Unsubscribe(context.Background(), &mcp.UnsubscribeParams{URI: "test://doc"}); err != nil {
		t.Fatal(err)
	}
	if got, sub := unsubscribed.Load(), subscribed.Load(); got != 1 || sub < 1 {
		t.Fatalf("upstream saw %d subscribe and %d unsubscribe requests, want ≥1 and 1", sub, got)
	}
}
