package mcpproxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// refEvent is one server-sent event as a plain reference parser reads it.
type refEvent struct {
	fields []string
	data   []string
}

// refEvents parses an event stream the simple way: whole lines ending in
// "\n" with trailing "\r\n" trimmed (as the go-sdk reads them), a blank
// line ends an event, data values lose leading spaces.
// A last event without its blank line counts; empty events (which carry
// nothing) are left out.
func refEvents(s string) []refEvent {
	var out []refEvent
	var cur refEvent
	open := false
	lines := strings.SplitAfter(s, "\n")
	for _, l := range lines {
		if l == "" {
			continue
		}
		l = strings.TrimRight(l, "\r\n") // as the go-sdk reads lines
		if l == "" {
			if open {
				out = append(out, cur)
			}
			cur, open = refEvent{}, false
			continue
		}
		open = true
		if v, ok := strings.CutPrefix(l, "data:"); ok {
			cur.data = append(cur.data, strings.TrimLeft(v, " "))
			continue
		}
		cur.fields = append(cur.fields, l)
	}
	if open {
		out = append(out, cur)
	}
	return out
}

func sameEvents(a, b []refEvent) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i].fields, "\n") != strings.Join(b[i].fields, "\n") ||
			len(a[i].data) != len(b[i].data) || strings.Join(a[i].data, "\n") != strings.Join(b[i].data, "\n") {
			return false
		}
	}
	return true
}

// rewriteSSE runs a stream through sseBody with a reading buffer of bufSize
// bytes and nothing spilled.
func rewriteSSE(in string, bufSize int) (string, error) {
	b := &sseBody{ctx: context.Background(), rc: io.NopCloser(strings.NewReader(in)), sp: &msgSpiller{limit: 1 << 20, spillAt: 1 << 20}, log: slog.New(slog.DiscardHandler)}
	b.r = bufio.NewReaderSize(b.rc, bufSize)
	out, err := io.ReadAll(b)
	return string(out), err
}

// TestSSERewrite: events pass through the rewriting body with the same
// fields and data, whatever the line endings and however the lines fall
// across the reading buffer.
func TestSSERewrite(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, in := range []string{
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"id: 7\r\ndata: {\"a\":\r\ndata:  1}\r\n\r\n",
		": a comment\n\nid: priming\ndata:\n\n",
		"data: " + long + "\r\n\r\ndata: " + long + "\n" + "data: " + long + "\r\n\n",
		"data: " + long + "\r" + long + "\n\n",
		"data: unterminated",
		"",
	} {
		for _, size := range []int{16, 17, 64, 4096} {
			got, err := rewriteSSE(in, size)
			if err != nil {
				t.Fatalf("%q (buffer %d): %v", in, size, err)
			}
			if want := refEvents(in); !sameEvents(refEvents(got), want) {
				t.Errorf("%q (buffer %d): rewritten as %q", in, size, got)
			}
		}
	}
	if _, err := rewriteSSE("event: "+long+"\n\n", 16); err == nil {
		t.Errorf("a field line longer than the buffer: no error")
	}
}

// FuzzSSERewrite: any event stream whose field lines fit the buffer
// comes out of the rewriting body with the same events.
func FuzzSSERewrite(f *testing.F) {
	for _, s := range []string{
		"data: {}\n\n", "id: 1\ndata: a\ndata: b\n\n", "data: x\r\n\r\n", ":c\n\n", "data:\n\n", "data: " + strings.Repeat("y", 70) + "\r\n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 4096 {
			return
		}
		for l := range strings.SplitSeq(in, "\n") {
			if !strings.HasPrefix(l, "data:") && len(l) > 60 {
				return
			}
		}
		got, err := rewriteSSE(in, 64)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if want := refEvents(in); !sameEvents(refEvents(got), want) {
			t.Fatalf("%q rewritten as %q", in, got)
		}
	})
}

// TestRequestCall reads the id and method of a POST body and stops early.
func TestRequestCall(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"x","arguments":{"a":"` + strings.Repeat("z", 1<<16) + `"}}}`
	sc := newScanner(strings.NewReader(body))
	sc.stop = func(fi *frameInfo) bool { return fi.id != "" && fi.method != "" }
	info, err := sc.scanFrame()
	if err != errStopScan || info.id != "n:42" || string(info.idRaw) != "42" || info.method != "tools/call" {
		t.Fatalf("%v %+v", err, info)
	}
	if sc.off > 64 {
		t.Errorf("read %d bytes; should stop after the method", sc.off)
	}
	deep := strings.Repeat("[", maxScanDepth+10)
	if _, err := newScanner(bytes.NewReader([]byte(`{"id":1,"result":` + deep))).scanFrame(); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("deep nesting: %v", err)
	}
}

// TestTagRoute: only the upstream's questions get the routing token, and
// their other _meta members and params are kept.
func TestTagRoute(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":3,"method":"roots/list"}`, `{"id":3,"jsonrpc":"2.0","method":"roots/list","params":{"_meta":{"compact.proxy/route":"r1"}}}`},
		{`{"jsonrpc":"2.0","id":"x","method":"sampling/createMessage","params":{"maxTokens":5,"_meta":{"k":1}}}`, `{"id":"x","jsonrpc":"2.0","method":"sampling/createMessage","params":{"_meta":{"compact.proxy/route":"r1","k":1},"maxTokens":5}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":null}`, `{"id":4,"jsonrpc":"2.0","method":"elicitation/create","params":{"_meta":{"compact.proxy/route":"r1"}}}`},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, ``},
		{`{"jsonrpc":"2.0","id":5,"method":"ping"}`, ``},
		{`{"jsonrpc":"2.0","id":6,"result":{"method":"roots/list"}}`, ``},
		{`{"jsonrpc":"2.0","id":7,"method":"roots/list","params":[1]}`, ``},
		{`not json "method"`, ``},
		// Other _meta members pass exactly, big numbers included.
		{`{"jsonrpc":"2.0","id":8,"method":"roots/list","params":{"_meta":{"big":12345678901234567890,"f":1.50}}}`, `{"id":8,"jsonrpc":"2.0","method":"roots/list","params":{"_meta":{"big":12345678901234567890,"compact.proxy/route":"r1","f":1.50}}}`},
	} {
		want := c.want
		if want == "" {
			want = c.in
		}
		if got := string(tagRoute([]byte(c.in), "r1")); got != want {
			t.Errorf("tagRoute(%s) = %s, want %s", c.in, got, want)
		}
	}
}

// countingBody is a response body that counts the bytes read from it.
type countingBody struct {
	r io.Reader
	n int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingBody) Close() error { return nil }

// oneResponse is an http.RoundTripper that answers every request with resp.
type oneResponse struct{ resp *http.Response }

func (o oneResponse) RoundTrip(*http.Request) (*http.Response, error) { return o.resp, nil }

// TestHTTPErrorBodyOverLimit: an upstream answering a call with an HTTP
// error status and a body larger than the limit. The go-sdk reads such a
// body whole (to find a JSON-RPC error in it); the transport must not let
// it read past the limit, and says why it stopped.
func TestHTTPErrorBodyOverLimit(t *testing.T) {
	const limit = 1 << 20
	for _, status := range []int{http.StatusInternalServerError, http.StatusBadRequest, http.StatusNotFound} {
		body := &countingBody{r: io.LimitReader(neverEnding('x'), 32<<20)}
		rt := &spillRoundTripper{
			base:  oneResponse{&http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}},
			limit: limit, spillAt: limit, log: slog.New(slog.DiscardHandler),
		}
		req, err := http.NewRequest(http.MethodPost, "http://upstream.invalid/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body) // as the go-sdk reads it
		resp.Body.Close()
		if body.n > limit+64<<10 || len(got) > limit {
			t.Errorf("status %d: %d bytes read from a 32 MiB error body, %d passed on; the limit is %d", status, body.n, len(got), limit)
		}
		if err == nil || !strings.Contains(err.Error(), "1048576 bytes") || !strings.Contains(err.Error(), fmt.Sprint(status)) {
			t.Errorf("status %d: error %v, want one naming the status and the limit", status, err)
		}
	}
}

// neverEnding is an endless stream of one byte.
type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// TestScanLongLiterals: the scanner keeps at most a few hundred bytes of
// a top-level id or method, whatever its kind: a message over the limit
// whose id is a number of many megabytes is counted, never kept.
func TestScanLongLiterals(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":` + strings.Repeat("1", 4<<20) + `,"result":{}}`,
		`{"jsonrpc":"2.0","method":` + strings.Repeat("t", 4<<20) + `,"id":2}`,
		`{"jsonrpc":"2.0","id":"` + strings.Repeat("s", 4<<20) + `","result":{}}`,
	} {
		info, _ := newScanner(strings.NewReader(msg)).scanFrame()
		if len(info.idRaw) > 300 || len(info.method) > 300 {
			t.Errorf("%.40s...: kept an id of %d bytes and a method of %d bytes", msg, len(info.idRaw), len(info.method))
		}
	}
}

// TestSSEOverLimit: messages over the limit on an event stream, read
// through reads of every size: a response whose id comes after its
// result (and whose data spans lines ending in CRLF) becomes the error
// with that id; a request of the upstream over the limit becomes the
// same request without params, marked with the error its sender gets; a
// notification over the limit is dropped with its event's other fields
// kept; the events around them pass unchanged.
func TestSSEOverLimit(t *testing.T) {
	const limit = 64 << 10
	big := strings.Repeat("y", 3*limit)
	question := `{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"x":"` + big + `"}}`
	in := "id: 1\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\r\n\r\n" +
		"id: 2\r\ndata: {\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\",\r\ndata: \"text\":\"" + big + "\"}]},\r\ndata: \"id\":\"call-7\"}\r\n\r\n" +
		"id: 3\ndata: " + question + "\n\n" +
		"id: 4\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"x\":\"" + big + "\"}}\n\n" +
		": still here\ndata: {\"jsonrpc\":\"2.0\",\"id\":10,\"result\":{}}\n\n"
	for _, size := range []int{16, 4096, 64 << 10} {
		b := &sseBody{ctx: context.Background(), rc: io.NopCloser(strings.NewReader(in)), sp: &msgSpiller{limit: limit, spillAt: 1024},
			log: slog.New(slog.DiscardHandler)} // a GET stream: the id can only come from the message
		b.r = bufio.NewReaderSize(b.rc, size)
		out, err := io.ReadAll(b)
		if err != nil {
			t.Fatalf("buffer %d: %v", size, err)
		}
		got := refEvents(string(out))
		if len(got) != 5 {
			t.Fatalf("buffer %d: %d events: %.500q", size, len(got), out)
		}
		if strings.Join(got[0].data, "\n") != `{"jsonrpc":"2.0","method":"notifications/message","params":{}}` {
			t.Errorf("buffer %d: small event changed: %q", size, got[0].data)
		}
		var resp struct {
			ID    any `json:"id"`
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(strings.Join(got[1].data, "\n")), &resp); err != nil || resp.ID != "call-7" || resp.Error.Code != CodeMessageTooLarge ||
			!strings.Contains(resp.Error.Message, fmt.Sprintf("over the limit of %d bytes", limit)) {
			t.Errorf("buffer %d: the response over the limit became %q (%v)", size, got[1].data, err)
		}
		var req struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		if err := json.Unmarshal([]byte(strings.Join(got[2].data, "\n")), &req); err != nil || req.ID != 9.0 || req.Method != "sampling/createMessage" ||
			!strings.Contains(fmt.Sprint(req.Params.Meta[overLimitMetaKey]), fmt.Sprintf("sampling/createMessage request is %d bytes or more, over the limit of %d bytes", len(question), limit)) {
			t.Errorf("buffer %d: the request over the limit became %.300q (%v)", size, got[2].data, err)
		}
		if strings.Join(got[1].fields, ",") != "id: 2" || strings.Join(got[2].fields, ",") != "id: 3" || strings.Join(got[3].fields, ",") != "id: 4" || len(got[3].data) != 0 {
			t.Errorf("buffer %d: events 2 to 4: fields %q %q %q, data of 4 %.100q", size, got[1].fields, got[2].fields, got[3].fields, got[3].data)
		}
		if got[4].fields[0] != ": still here" || strings.Join(got[4].data, "") != `{"jsonrpc":"2.0","id":10,"result":{}}` {
			t.Errorf("buffer %d: the event after: %+v", size, got[4])
		}
	}
}
