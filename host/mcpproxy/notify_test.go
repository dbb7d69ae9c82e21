package mcpproxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// rawClient is a downstream client that reads the proxy's messages off
// the wire, in the order they are sent.
type rawClient struct {
	t          testing.TB
	conn       mcp.Connection
	initResult json.RawMessage
}

func newRawClient(t testing.TB, p *mcpproxy.Proxy) *rawClient { return newRawClientKeep(t, p) }

// newRawClientKeep is newRawClient; the client keeps the initialize
// result in initResult.
func newRawClientKeep(t testing.TB, p *mcpproxy.Proxy) *rawClient {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := p.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		ss.Close()
	})
	c := &rawClient{t: t, conn: conn}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	_, resp := c.until(1)
	c.initResult = resp.Result
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	return c
}

func (c *rawClient) send(msg string) {
	c.t.Helper()
	m, err := jsonrpc.DecodeMessage([]byte(msg))
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.conn.Write(context.Background(), m); err != nil {
		c.t.Fatal(err)
	}
}

// until reads messages up to the response with id, and returns the
// notifications read before it and the response.
func (c *rawClient) until(id int64) ([]*jsonrpc.Request, *jsonrpc.Response) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var notes []*jsonrpc.Request
	for {
		m, err := c.conn.Read(ctx)
		if err != nil {
			c.t.Fatalf("reading up to the response %d: %v", id, err)
		}
		switch m := m.(type) {
		case *jsonrpc.Request:
			notes = append(notes, m)
		case *jsonrpc.Response:
			if m.ID.Raw() == id {
				return notes, m
			}
		}
	}
}

// TestNotificationsBeforeResult: a call's progress notifications and the
// upstream's log messages reach the client before the call's result, in
// the upstream's order, with the client's own progress token (which is
// also the token the upstream saw), and log messages are not dropped
// before the client sets a level. Twenty calls each, over a stdio and an
// HTTP upstream: on the old code the last notifications of a call often
// came after its result, the upstream saw a token of the proxy's, and
// log messages were dropped until logging/setLevel.
func TestNotificationsBeforeResult(t *testing.T) {
	node, _, _, scenarios := conformanceKit(t)
	eng, _ := newEngine(t, 8000)
	upURL := startHTTPServer(t, node, scenarios, "http")
	for _, up := range []mcpproxy.Upstream{
		&mcpproxy.Command{Path: node, Args: []string{scenarios, "stdio"}, Stderr: io.Discard},
		&mcpproxy.HTTP{URL: upURL},
	} {
		t.Run(up.String(), func(t *testing.T) {
			p, err := mcpproxy.New(context.Background(), up, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			c := newRawClient(t, p)
			for i := int64(1); i <= 20; i++ {
				tok := fmt.Sprintf("tok-%d", i)
				c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_tool_with_progress","arguments":{},"_meta":{"progressToken":%q}}}`, 100+i, tok))
				notes, resp := c.until(100 + i)
				var progress []float64
				for _, n := range notes {
					if n.Method != "notifications/progress" {
						continue
					}
					var pp struct {
						ProgressToken any     `json:"progressToken"`
						Progress      float64 `json:"progress"`
					}
					if err := json.Unmarshal(n.Params, &pp); err != nil {
						t.Fatal(err)
					}
					if pp.ProgressToken != tok {
						t.Fatalf("call %d: progress token %v, want the client's %q", i, pp.ProgressToken, tok)
					}
					progress = append(progress, pp.Progress)
				}
				if fmt.Sprint(progress) != "[0 50 100]" {
					t.Fatalf("call %d: progress before the result: %v, want [0 50 100]", i, progress)
				}
				var res mcp.CallToolResult
				if err := json.Unmarshal(resp.Result, &res); err != nil {
					t.Fatal(err)
				}
				if got := res.Content[0].(*mcp.TextContent).Text; got != tok {
					t.Fatalf("call %d: the upstream saw progress token %q, want the client's %q", i, got, tok)
				}

				c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{}}}`, 200+i))
				notes, _ = c.until(200 + i)
				var logs []string
				for _, n := range notes {
					if n.Method == "notifications/message" {
						var lp struct{ Data string }
						if err := json.Unmarshal(n.Params, &lp); err != nil {
							t.Fatal(err)
						}
						logs = append(logs, lp.Data)
					}
				}
				if want := "[Tool execution started Tool processing data Tool execution completed]"; fmt.Sprint(logs) != want {
					t.Fatalf("call %d: log messages before the result: %v, want %s", i, logs, want)
				}
			}
		})
	}
}

// TestLookalikeArgumentsReachUpstream: through the proxy, to a real
// server that echoes its arguments, a string that merely looks like an
// artifact handle arrives unchanged, and the call is not refused (on the
// old code each of these was refused as an unresolvable reference).
func TestLookalikeArgumentsReachUpstream(t *testing.T) {
	node, _, _, scenarios := conformanceKit(t)
	eng, _ := newEngine(t, 8000)
	h := startProxy(t, &mcpproxy.Command{Path: node, Args: []string{scenarios, "stdio"}, Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{})
	for _, s := range []string{"a94a8fe5ccb1", "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3", "9e107d9d372bb6826bd81d3542a419d6", "1732550400123", "0123456789abcdef0123.json"} {
		res, err := h.client.CallTool(context.Background(), &mcp.CallToolParams{Name: "json_schema_2020_12_tool", Arguments: map[string]any{"name": s}})
		if err != nil {
			t.Fatal(err)
		}
		got := res.Content[0].(*mcp.TextContent).Text
		if res.IsError || got != fmt.Sprintf(`{"name":%q}`, s) {
			t.Errorf("%q: the upstream got %s (error %v), want it unchanged", s, got, res.IsError)
		}
	}
}

// TestQuestionsUnaltered: an elicitation of the upstream reaches the
// client as the upstream wrote it (no mode member added), and the
// client's answer reaches the upstream as the client wrote it (no
// schema defaults filled in); a client with elicitation joining sends
// no list_changed notification (nothing changed). Over a stdio and an
// HTTP upstream. On the old code the request gained "mode":"form", the
// answer gained age 30, score 95.5, status and verified, and the client
// was sent tools/list_changed. Twenty elicitations per upstream.
func TestQuestionsUnaltered(t *testing.T) {
	node, _, _, scenarios := conformanceKit(t)
	eng, _ := newEngine(t, 8000)
	upURL := startHTTPServer(t, node, scenarios, "http")
	for _, up := range []mcpproxy.Upstream{
		&mcpproxy.Command{Path: node, Args: []string{scenarios, "stdio"}, Stderr: io.Discard},
		&mcpproxy.HTTP{URL: upURL},
	} {
		t.Run(up.String(), func(t *testing.T) {
			p, err := mcpproxy.New(context.Background(), up, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ctx := context.Background()
			ct, st := mcp.NewInMemoryTransports()
			ss, err := p.Server().Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			conn, err := ct.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			c := &rawClient{t: t, conn: conn}
			c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`)
			c.until(1)
			c.send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
			var notes []string
			for i := int64(0); i < 20; i++ { // a race that passes four times in five fails here
				c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_elicitation_sep1034_defaults","arguments":{}}}`, 10+i))
				rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				var asked json.RawMessage
				var result *jsonrpc.Response
				for result == nil {
					m, err := conn.Read(rctx)
					if err != nil {
						t.Fatal(err)
					}
					switch m := m.(type) {
					case *jsonrpc.Request:
						if !m.IsCall() {
							notes = append(notes, m.Method)
							continue
						}
						asked = m.Params
						ans, _ := jsonrpc.DecodeMessage([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":{"name":"Jane"}}}`, mustJSON(t, m.ID.Raw()))))
						if err := conn.Write(rctx, ans); err != nil {
							t.Fatal(err)
						}
					case *jsonrpc.Response:
						if m.ID.Raw() == 10+i {
							result = m
						}
					}
				}
				cancel()
				var params map[string]json.RawMessage
				if err := json.Unmarshal(asked, &params); err != nil {
					t.Fatalf("elicitation params %s: %v", asked, err)
				}
				if _, has := params["mode"]; has {
					t.Errorf("the elicitation gained a mode member: %s", asked)
				}
				if !strings.Contains(string(params["requestedSchema"]), `"default":"John Doe"`) {
					t.Errorf("requestedSchema %s, want the upstream's", params["requestedSchema"])
				}
				var res mcp.CallToolResult
				if err := json.Unmarshal(result.Result, &res); err != nil {
					t.Fatal(err)
				}
				if got := res.Content[0].(*mcp.TextContent).Text; got != `Elicitation completed: action=accept, content={"name":"Jane"}` {
					t.Errorf("the upstream got %q, want the client's answer as written", got)
				}
			}
			for _, n := range notes {
				if strings.HasSuffix(n, "/list_changed") {
					t.Errorf("the client was sent %s although nothing changed", n)
				}
			}
		})
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
