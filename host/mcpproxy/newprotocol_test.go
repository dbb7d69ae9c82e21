package mcpproxy_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// wireRecorder is a client transport that keeps the result of every
// response as it came over the wire, before the go-sdk's client decodes
// it.
type wireRecorder struct {
	mcp.Transport
	mu      sync.Mutex
	results []string
}

func (r *wireRecorder) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, r: r}, nil
}

// last returns the last result recorded.
func (r *wireRecorder) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.results) == 0 {
		return ""
	}
	return r.results[len(r.results)-1]
}

type recordingConn struct {
	mcp.Connection
	r *wireRecorder
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if resp, ok := m.(*jsonrpc.Response); ok && resp.Result != nil {
		c.r.mu.Lock()
		c.r.results = append(c.r.results, string(resp.Result))
		c.r.mu.Unlock()
	}
	return m, err
}

// exactMembers are the members of the wire server's "exact" result
// that no Go type holds as written, as the client must read them.
var exactMembers = []string{
	`"text":"n=12345678901234567890 e=1e400 z=-0 f=1.0 lone=\ud800 end"`,
	`"big":12345678901234567890`, `"huge":1e400`, `"negz":-0`, `"one":1.0`, `"lone":"\ud800"`,
	`"list":[12345678901234567890,1e400,-0,1.0,"a\udc00b"]`,
	`"acme/n":12345678901234567890`, `"acme/e":1e400`, `"acme/z":-0`, `"acme/f":1.0`, `"acme/s":"\ud800"`,
	`"structured":"unchanged"`,
}

// TestNewProtocolExact: a client on protocol 2026-07-28 (the go-sdk's
// client set to it, through the real stdio transport served by
// Proxy.Run over OS pipes; through the HTTP door, which offers it
// 2025-11-25, see below) reads the
// upstream's result as written, like a client on an older protocol:
// 12345678901234567890, 1e400, -0, 1.0 and lone surrogates in the text,
// in structuredContent and in _meta; and a tool's schema in tools/list
// with its numbers as written. The result carries what the protocol adds
// (resultType, the server's identity in _meta, a list's cache hints),
// and its server/discover answer holds the upstream's server info and
// capabilities that the go-sdk does not know (title, websiteUrl, tasks,
// experimental, extensions), as initialize does for older clients.
// On the old code the call failed (the go-sdk inside the proxy could not
// decode 1e400: "compact: upstream ... failed", and the upstream session
// was dropped), and without 1e400 a 2026-07-28 client got
// 12345678901234567000 and U+FFFD (the go-sdk's typed results).
func TestNewProtocolExact(t *testing.T) {
	node, script := wireServer(t)
	eng, _ := newEngine(t, 8000)
	type constructor = func(context.Context, mcpproxy.Upstream, mcpproxy.Engine, mcpproxy.Options) (*mcpproxy.Proxy, error)
	newProxy := func(t *testing.T, make constructor) *mcpproxy.Proxy {
		p, err := make(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script}, Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	check := func(t *testing.T, cs *mcp.ClientSession, rec *wireRecorder, version string) {
		t.Helper()
		ctx := context.Background()
		if v := cs.InitializeResult().ProtocolVersion; v != version {
			t.Fatalf("negotiated %s, want %s", v, version)
		}
		added := []string{`"resultType":"complete"`, `"io.modelcontextprotocol/serverInfo":{"name":"compact(wire)"`}
		cache := []string{`"resultType":"complete"`, `"ttlMs":0`, `"cacheScope":"public"`}
		if version < "2026-07-28" {
			added, cache = nil, nil
		}
		// The go-sdk's client cannot hold 1e400 in a float64 either: its
		// own decoding fails, after the wire recorded the result.
		_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "exact", Arguments: map[string]any{}})
		got := rec.last()
		for _, want := range append(exactMembers, added...) {
			if !strings.Contains(got, want) {
				t.Errorf("the result lacks %s:\n%s", want, got)
			}
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatal(err)
		}
		got = rec.last()
		for _, want := range append([]string{`"maximum":12345678901234567890`, `"nextCursor":"page2"`, `"execution":{"taskSupport":"optional"}`}, cache...) {
			if !strings.Contains(got, want) {
				t.Errorf("tools/list lacks %s:\n%s", want, got)
			}
		}
		if strings.Contains(got, "idempotentHint") {
			t.Errorf("tools/list gained idempotentHint:\n%s", got)
		}
	}

	// Through Run on a proxy made by New, and by NewLazy as compact mcp
	// makes it (an upstream session per client).
	for _, c := range []struct {
		name string
		make constructor
	}{{"stdio", mcpproxy.New}, {"stdio, NewLazy", mcpproxy.NewLazy}} {
		t.Run(c.name, func(t *testing.T) {
			p := newProxy(t, c.make)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			upR, upW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			downR, downW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			served := make(chan error, 1)
			go func() { served <- p.Run(ctx, &mcp.IOTransport{Reader: upR, Writer: downW}) }()
			rec := &wireRecorder{Transport: &mcp.IOTransport{Reader: downR, Writer: upW}}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "new", Version: "1"}, nil).Connect(ctx, rec, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
			if err != nil {
				t.Fatal(err)
			}
			// server/discover, which a 2026-07-28 client asks instead of
			// initialize, says what the upstream's initialize says: server
			// info and capabilities the go-sdk does not know.
			rec.mu.Lock()
			discover := rec.results[0]
			rec.mu.Unlock()
			for _, want := range []string{`"title":"Wire Server"`, `"websiteUrl":"https://example.invalid/wire"`, `"name":"compact(wire)"`,
				`"tasks":{"requests":{"tools":{"call":{}}}}`, `"experimental":{"acme/x":{"on":true}}`, `"extensions":{"io.acme/y":{}}`,
				`"supportedVersions":[`, `"resultType":"complete"`, `"instructions":"Use the zeta tool first. \udfff\n\nTool results`} {
				if !strings.Contains(discover, want) {
					t.Errorf("server/discover lacks %s:\n%s", want, discover)
				}
			}
			if n := cs.InitializeResult().ServerInfo; n == nil || n.Name != "compact(wire)" {
				t.Errorf("the client sees the server as %+v", n)
			}
			check(t, cs, rec, "2026-07-28")
			cs.Close()
			<-served
		})
	}

	t.Run("http door", func(t *testing.T) {
		p := newProxy(t, mcpproxy.New)
		srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{}))
		defer srv.Close()
		rec := &wireRecorder{Transport: &mcp.StreamableClientTransport{Endpoint: srv.URL}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "new", Version: "1"}, nil).Connect(context.Background(), rec, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		// The go-sdk's streamable HTTP handler serves 2026-07-28 only
		// statelessly; the door keeps a session (and an upstream) per
		// client, so the client is offered 2025-11-25, and reads the
		// same exact values there.
		check(t, cs, rec, "2025-11-25")
	})
}

// newMeta is the _meta of every request of a raw client on protocol
// 2026-07-28, which travels without initialize.
const newMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}`

// TestNewProtocolInputRequired: with an upstream and a client on
// protocol 2026-07-28 (multi round-trip), the upstream's input-required
// result reaches the client as written (12345678901234567890, 1e400 and
// 1.0 in the elicitation's schema, no mode member added, -0 in _meta),
// and the client's answers in its next call (inputResponses) reach the
// upstream as the client wrote them (12345678901234567890, 1.0, 1e400),
// through Proxy.Run and Proxy.Connect. On the old code the call failed
// (the go-sdk inside the proxy could not decode 1e400), and without it
// the schema came out as 12345678901234567000 and 1 with "mode":"form"
// added; the answers went up re-encoded, or were refused (1e400).
func TestNewProtocolInputRequired(t *testing.T) {
	node, script := wireServer(t)
	eng, _ := newEngine(t, 8000)
	for _, how := range []string{"Run", "Connect", "Run, NewLazy"} {
		t.Run(how, func(t *testing.T) {
			make := mcpproxy.New
			if how == "Run, NewLazy" {
				make = mcpproxy.NewLazy // as compact mcp makes it
			}
			p, err := make(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script, "2026"}, Stderr: io.Discard}, mcpproxy.Adapt(eng),
				mcpproxy.Options{Logger: quietLogger(), UpstreamProtocol: "2026-07-28"})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ct, st := mcp.NewInMemoryTransports()
			if how != "Connect" {
				go p.Run(ctx, st)
			} else {
				ss, err := p.Connect(ctx, st, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer ss.Close()
			}
			conn, err := ct.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			c := &rawClient{t: t, conn: conn}
			c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + newMeta + `,"name":"mrtr","arguments":{}}}`)
			_, resp := c.until(1)
			got := string(resp.Result)
			for _, want := range []string{`"resultType":"input_required"`, `"requestState":"st-1"`,
				`"requestedSchema":{"type":"object","properties":{"n":{"type":"number","default":12345678901234567890,"maximum":1e400,"multipleOf":1.0}}}`,
				`"acme/n":-0`} {
				if !strings.Contains(got, want) {
					t.Errorf("the input-required result lacks %s:\n%s", want, got)
				}
			}
			if strings.Contains(got, `"mode"`) {
				t.Errorf("the elicitation gained a mode:\n%s", got)
			}
			const answers = `{"q1":{"action":"accept","content":{"n":12345678901234567890,"f":1.0,"e":1e400}}}`
			c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + newMeta + `,"name":"mrtr","arguments":{},"inputResponses":` + answers + `,"requestState":"st-1"}}`)
			_, resp = c.until(2)
			if resp.Error != nil {
				t.Fatalf("the second call: %v", resp.Error)
			}
			var res mcp.CallToolResult
			if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Content) == 0 {
				t.Fatalf("result %s: %v", resp.Result, err)
			}
			line := res.Content[0].(*mcp.TextContent).Text
			if !strings.Contains(line, `"inputResponses":`+answers) || !strings.Contains(line, `"requestState":"st-1"`) {
				t.Errorf("the upstream read %s, want the answers %s as written", line, answers)
			}
			if strings.Contains(line, "compact.proxy") {
				t.Errorf("the upstream read the proxy's own _meta: %s", line)
			}
		})
	}
}
