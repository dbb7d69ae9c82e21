package mcpproxy_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// sseEvent is one server-sent event: its id and data.
type sseEvent struct{ id, data string }

// readEvents reads events from r until stop says so or the stream ends.
func readEvents(r io.Reader, stop func(sseEvent) bool) []sseEvent {
	var out []sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.data != "" || ev.id != "" {
				out = append(out, ev)
				if stop(ev) {
					return out
				}
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, "id:"):
			ev.id = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "data:"):
			ev.data += strings.TrimSpace(line[5:])
		}
	}
	return out
}

// TestHTTPDoorResumes: over the HTTP door, a client whose stream breaks
// in the middle of a call (after the first progress notification)
// resumes it with Last-Event-ID and receives the rest: the remaining
// progress notifications and the result, nothing lost, nothing twice.
// Every event carries an id. On the old code events had no ids and the
// rest of the call was lost.
func TestHTTPDoorResumes(t *testing.T) {
	// Ten times: a race that passes four times in five fails here.
	for run := range 10 {
		t.Run(fmt.Sprint(run), testHTTPDoorResumes)
	}
}

func testHTTPDoorResumes(t *testing.T) {
	node, _, _, scenarios := conformanceKit(t)
	eng, _ := newEngine(t, 8000)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.Command{Path: node, Args: []string{scenarios, "stdio"}, Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{}))
	defer srv.Close()

	session := ""
	post := func(body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode/100 != 2 {
			b, _ := io.ReadAll(resp.Body)
			t.Fatalf("POST %s: %s %s", body, resp.Status, b)
		}
		return resp
	}
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	session = resp.Header.Get("Mcp-Session-Id")
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if session == "" {
		t.Fatal("no session id")
	}
	resp = post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()

	resp = post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_tool_with_progress","arguments":{},"_meta":{"progressToken":"p"}}}`)
	first := readEvents(resp.Body, func(e sseEvent) bool { return strings.Contains(e.data, "notifications/progress") })
	resp.Body.Close() // the connection breaks
	if len(first) == 0 || !strings.Contains(first[len(first)-1].data, `"progress":0`) {
		t.Fatalf("first events %v, want the first progress notification", first)
	}
	last := first[len(first)-1].id
	if last == "" {
		t.Fatalf("event without an id: %v", first)
	}
	time.Sleep(300 * time.Millisecond) // the call goes on meanwhile

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	req.Header.Set("Last-Event-ID", last)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("resuming: %s", resp.Status)
	}
	rest := readEvents(resp.Body, func(e sseEvent) bool { return strings.Contains(e.data, `"id":2`) })
	var got []string
	for _, e := range rest {
		if e.id == "" && e.data != "" {
			t.Errorf("event without an id: %q", e.data)
		}
		switch {
		case strings.Contains(e.data, `"progress":50`):
			got = append(got, "50")
		case strings.Contains(e.data, `"progress":100`):
			got = append(got, "100")
		case strings.Contains(e.data, `"progress":0`):
			got = append(got, "0 again")
		case strings.Contains(e.data, `"id":2`):
			got = append(got, "result")
		}
	}
	if strings.Join(got, " ") != "50 100 result" {
		t.Errorf("after resuming: %v, want 50 100 result", got)
	}
}

// TestHTTPDoorBodyLimit: the HTTP door refuses a body over its limit
// (the go-sdk's 4 MiB by default) with 413 and stops reading it: of a
// 64 MiB body it reads a few MiB. Before, the pass-through
// (passthrough.go) read a body whole when no limit was set.
func TestHTTPDoorBodyLimit(t *testing.T) {
	eng, _ := newEngine(t, 8000)
	p, err := mcpproxy.New(context.Background(), faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, limit := range []int64{0, 1 << 20} {
		srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{MaxRequestBodyBytes: limit}))
		body := &countingReader{left: 64 << 20}
		req, _ := http.NewRequest("POST", srv.URL, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		srv.Close()
		if err == nil && resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("limit %d: %s, want 413", limit, resp.Status)
		}
		if body.read > 16<<20 {
			t.Errorf("limit %d: the door read %d bytes of the body", limit, body.read)
		}
	}
}

// countingReader yields left bytes of a JSON-RPC request's start and
// then 'x's, counting what was read.
type countingReader struct {
	left, read int
}

func (r *countingReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.left)
	for i := range n {
		p[i] = 'x'
	}
	if r.read == 0 {
		n = copy(p, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`)
	}
	r.left -= n
	r.read += n
	return n, nil
}

// TestHTTPDoorKeepsSessionsInUse: over the HTTP door, a session is
// ended for want of use only when its client has had no request of it
// open for SessionTimeout: a client that listens on its GET stream
// longer than that (as a client waiting for the upstream's
// notifications does) keeps its session, and its next POST works, as
// directly. On the old code the go-sdk's timeout counted only POSTs in
// flight, ended that session under the listening client and answered
// its next POST "session not found". Once the client closes its stream,
// the session is ended after SessionTimeout, as before.
func TestHTTPDoorKeepsSessionsInUse(t *testing.T) {
	eng, _ := newEngine(t, 8000)
	p, err := mcpproxy.NewLazy(context.Background(), faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	const timeout = 2 * time.Second
	srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{SessionTimeout: timeout}))
	defer srv.Close()

	session := ""
	post := func(body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if session == "" {
			session = resp.Header.Get("Mcp-Session-Id")
		}
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); code != 200 || session == "" {
		t.Fatalf("initialize: %d %s (session %q)", code, body, session)
	}
	// The client listens on its GET stream at once.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("GET stream: %s", resp.Status)
	}
	streamDone := make(chan struct{})
	go func() {
		defer close(streamDone)
		io.Copy(io.Discard, resp.Body)
	}()
	if code, body := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != 202 {
		t.Fatalf("notifications/initialized: %d %s", code, body)
	}

	// Listening, with no POST, for three timeouts.
	select {
	case <-streamDone:
		t.Fatal("the GET stream of a listening client was ended")
	case <-time.After(3 * timeout):
	}
	if code, body := post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}`); code != 200 || !strings.Contains(body, "still here") {
		t.Fatalf("a POST after listening for %v (SessionTimeout %v): %d %s", 3*timeout, timeout, code, body)
	}

	// The client leaves: its session is ended after the timeout.
	cancel()
	<-streamDone
	resp.Body.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, body := post(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
		if code == http.StatusNotFound && strings.Contains(body, "session not found") {
			break
		}
		if code != 200 {
			t.Fatalf("ping: %d %s", code, body)
		}
		if time.Now().After(deadline) {
			t.Fatal("a session nobody used for 30s was not ended")
		}
		time.Sleep(3 * timeout)
	}
}
