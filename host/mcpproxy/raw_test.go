package mcpproxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// lockedBuffer collects a child's standard error.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestWireExact: what the upstream writes reaches the client as written:
// server info (title, websiteUrl, icons) and capabilities the go-sdk does
// not know (tasks, experimental, extensions); tools/list pages in the
// upstream's order with its annotations (no idempotentHint added) and
// execution; numbers no float64 holds, in a tool's schema and in
// structuredContent, with _meta saying "unchanged" only of what is, and a
// lone surrogate in a tool's description (to which the proxy appends a
// sentence: it was U+FFFD on the code before session 5's); an
// optional method the upstream lacks (resources/templates/list) is its
// error, not a failure at start-up; and the upstream's first request is
// initialize. Each of these failed on the old code (which did not even
// start: listing resource templates was fatal).
func TestWireExact(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		node, _, _, _ = conformanceKit(t)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "wire", "server.mjs"))
	eng, _ := newEngine(t, 8000)
	var log lockedBuffer
	p, err := mcpproxy.New(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script}, Stderr: &log}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatalf("start-up: %v", err)
	}
	defer p.Close()
	if first, _, _ := strings.Cut(log.String(), "\n"); !strings.Contains(first, `"method":"initialize"`) {
		t.Errorf("the upstream's first request is %s, want initialize", first)
	}
	c := newRawClientKeep(t, p)
	init := c.initResult
	for _, want := range []string{`"title":"Wire Server"`, `"websiteUrl":"https://example.invalid/wire"`, `"icons":[{`, `"tasks":{"requests":{"tools":{"call":{}}}}`, `"experimental":{"acme/x":{"on":true}}`, `"extensions":{"io.acme/y":{}}`, `"instructions":"Use the zeta tool first. \udfff\n\nTool results pass through compact`} {
		if !strings.Contains(string(init), want) {
			t.Errorf("initialize result lacks %s: %s", want, init)
		}
	}

	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`)
	_, resp := c.until(2)
	page := string(resp.Result)
	var p1 struct {
		Tools      []map[string]json.RawMessage
		NextCursor string
	}
	if err := json.Unmarshal(resp.Result, &p1); err != nil {
		t.Fatal(err)
	}
	if len(p1.Tools) != 2 || string(p1.Tools[0]["name"]) != `"zeta"` || string(p1.Tools[1]["name"]) != `"alpha"` || p1.NextCursor != "page2" {
		t.Fatalf("first page: %s, want zeta, alpha and nextCursor page2", page)
	}
	if got := string(p1.Tools[0]["annotations"]); got != `{"readOnlyHint":true}` {
		t.Errorf("zeta's annotations: %s, want {\"readOnlyHint\":true}", got)
	}
	if got := string(p1.Tools[0]["execution"]); got != `{"taskSupport":"optional"}` {
		t.Errorf("zeta's execution: %s", got)
	}
	if !strings.Contains(string(p1.Tools[1]["inputSchema"]), `"maximum":12345678901234567890`) {
		t.Errorf("alpha's schema: %s, want maximum 12345678901234567890 as written", p1.Tools[1]["inputSchema"])
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"page2"}}`)
	_, resp = c.until(3)
	var p2 struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(resp.Result, &p2); err != nil {
		t.Fatal(err)
	}
	if len(p2.Tools) != 2 || p2.Tools[0].Name != "mid" || p2.Tools[1].Name != mcpproxy.ReadArtifactTool {
		t.Errorf("second page: %s, want mid then read_artifact", resp.Result)
	}
	if !strings.Contains(string(resp.Result), `"description":"M \ud800 lone`) {
		t.Errorf("mid's description: %s, want its lone surrogate as written", resp.Result)
	}

	c.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"zeta","arguments":{}}}`)
	_, resp = c.until(4)
	var res struct {
		StructuredContent json.RawMessage
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatal(err)
	}
	if got := string(res.StructuredContent); got != `{"n":12345678901234567890,"f":1.10}` {
		t.Errorf("structuredContent %s, want it as written", got)
	}
	if string(res.Meta["acme/trace"]) != `"t-1"` || !strings.Contains(string(res.Meta[mcpproxy.MetaKey]), `"structured":"unchanged"`) {
		t.Errorf("_meta %s, want the upstream's member and structured unchanged", resp.Result)
	}

	c.send(`{"jsonrpc":"2.0","id":5,"method":"resources/templates/list","params":{}}`)
	_, resp = c.until(5)
	// The code is the upstream's; the go-sdk words -32601 itself.
	var je *jsonrpc.Error
	if !errors.As(resp.Error, &je) || je.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("resources/templates/list: %v %s, want the upstream's method-not-found error", resp.Error, resp.Result)
	}
}
