package mcpproxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	budgetpkg "github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host/mcpproxy"
)

// wireServer returns node and the fixed-wire server script. Without node
// the test is skipped, unless $CI is set: then it fails.
func wireServer(t *testing.T) (node, script string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is missing")
		}
		t.Skip("node is missing")
	}
	script, _ = filepath.Abs(filepath.Join("testdata", "wire", "server.mjs"))
	return node, script
}

// exactQuestions are questions of the upstream with the client's answers,
// whose numbers no float64 holds as written.
var exactQuestions = []struct{ method, params, answer string }{
	{"elicitation/create", `{"message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"number"}}}}`,
		`{"action":"accept","content":{"n":12345678901234567890,"f":1.0,"e":1e400},"_meta":{"x":1.50}}`},
	{"sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}`,
		`{"role":"assistant","content":{"type":"text","text":"hello"},"model":"m","_meta":{"n":12345678901234567890,"f":1.0,"e":1e400}}`},
	{"roots/list", `{}`,
		`{"roots":[{"uri":"file:///a","name":"a","_meta":{"n":12345678901234567890,"f":1.0,"e":1e400}}]}`},
}

// wireTasks is the wire server's tasks/list result.
const wireTasks = `{"tasks":[{"taskId":"t-1","status":"working","ttl":12345678901234567890,"pollInterval":1.0}]}`

const exactInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{},"sampling":{},"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`

// TestAnswersExact: the client's answers to the upstream's questions
// (elicitation, sampling, roots) reach the upstream as the client wrote
// them: 12345678901234567890, 1.0 and 1e400 unchanged (the wire server
// answers its "ask" call with the answer line it read). Through the
// stdio door (Proxy.Run, as compact mcp serves) and the HTTP door. On
// the old code the answers went through the go-sdk's Go types: 1e400
// failed to decode (the upstream got an error) and the others came out
// as 12345678901234567000 and 1. A Go program serving the proxy on its
// own transport with Proxy.Connect gets the same, and tasks/list reaches
// the upstream (before Proxy.Connect, such a program had only
// Server().Connect: the go-sdk refused tasks/list and decoded answers).
func TestAnswersExact(t *testing.T) {
	node, script := wireServer(t)
	eng, _ := newEngine(t, 8000)
	newProxy := func(t *testing.T) *mcpproxy.Proxy {
		p, err := mcpproxy.New(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script}, Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	check := func(t *testing.T, q int, result json.RawMessage) {
		t.Helper()
		var res mcp.CallToolResult
		if err := json.Unmarshal(result, &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("%s: result %s: %v", exactQuestions[q].method, result, err)
		}
		got := res.Content[0].(*mcp.TextContent).Text
		if !strings.Contains(got, `"result":`+exactQuestions[q].answer) {
			t.Errorf("%s: the upstream read %s, want the answer %s as written", exactQuestions[q].method, got, exactQuestions[q].answer)
		}
	}
	ask := func(i int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ask","arguments":{"method":%q,"params":%s}}}`, 10+i, exactQuestions[i].method, exactQuestions[i].params)
	}

	// Over a transport served by Run (as compact mcp serves stdio) or
	// connected with Connect (a Go program serving the proxy itself).
	viaTransport := func(t *testing.T, serve func(p *mcpproxy.Proxy, ctx context.Context, st mcp.Transport)) {
		p := newProxy(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ct, st := mcp.NewInMemoryTransports()
		serve(p, ctx, st)
		conn, err := ct.Connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		c := &rawClient{t: t, conn: conn}
		c.send(exactInit)
		c.until(1)
		c.send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
		for i := range exactQuestions {
			c.send(ask(i))
			rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			for {
				m, err := conn.Read(rctx)
				if err != nil {
					t.Fatal(err)
				}
				if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
					c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, mustJSON(t, r.ID.Raw()), exactQuestions[i].answer))
					continue
				}
				if r, ok := m.(*jsonrpc.Response); ok && r.ID.Raw() == int64(10+i) {
					check(t, i, r.Result)
					break
				}
			}
			cancel()
		}
		// A method the go-sdk does not know reaches the upstream, whose
		// answer comes back as written.
		c.send(`{"jsonrpc":"2.0","id":30,"method":"tasks/list","params":{}}`)
		_, resp := c.until(30)
		if resp.Error != nil || string(resp.Result) != wireTasks {
			t.Errorf("tasks/list: %s %v, want %s", resp.Result, resp.Error, wireTasks)
		}
	}
	t.Run("stdio door", func(t *testing.T) {
		viaTransport(t, func(p *mcpproxy.Proxy, ctx context.Context, st mcp.Transport) { go p.Run(ctx, st) })
	})
	t.Run("Proxy.Connect", func(t *testing.T) {
		viaTransport(t, func(p *mcpproxy.Proxy, ctx context.Context, st mcp.Transport) {
			ss, err := p.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ss.Close() })
		})
	})

	t.Run("http door", func(t *testing.T) {
		p := newProxy(t)
		srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{}))
		defer srv.Close()
		h := &rawHTTP{t: t, url: srv.URL}
		h.post(exactInit).Body.Close()
		h.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
		for i := range exactQuestions {
			resp := h.post(ask(i))
			var result json.RawMessage
			readEvents(resp.Body, func(e sseEvent) bool {
				m, err := jsonrpc.DecodeMessage([]byte(e.data))
				if err != nil {
					t.Fatalf("event %q: %v", e.data, err)
				}
				if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
					h.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, mustJSON(t, r.ID.Raw()), exactQuestions[i].answer)).Body.Close()
				}
				if r, ok := m.(*jsonrpc.Response); ok {
					result = r.Result
					return true
				}
				return false
			})
			resp.Body.Close()
			check(t, i, result)
		}
	})
}

// rawHTTP is a client of the HTTP door that writes its messages as
// given.
type rawHTTP struct {
	t       testing.TB
	url     string
	session string
}

// post sends one message; the session id of an initialize answer is
// kept.
func (h *rawHTTP) post(body string) *http.Response {
	h.t.Helper()
	req, _ := http.NewRequest("POST", h.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		h.t.Fatalf("POST %s: %s %s", body, resp.Status, b)
	}
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		h.session = s
	}
	return resp
}

// TestTextWithNULStaysText: a text block holding a NUL byte (and other
// control characters) that must be compacted is shown as text, its
// lines counted and its tail shown (the NUL escaped as JSON requires),
// never as a hex dump; the artifact holds the exact text. On the old
// code the engine took it for binary: "no records: the content (binary)
// is not shown".
func TestTextWithNULStaysText(t *testing.T) {
	eng, st := newEngine(t, 300)
	h := startProxy(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 300})
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "line %d: some log text with value %d\n", i, i*7)
		if i == 3 {
			b.WriteString("early line: a NUL \x00 here\n")
		}
	}
	b.WriteString("last line: a NUL \x00 and a bell \a here\n")
	want := b.String()
	res := h.call(t, "echo", map[string]any{"text": want})
	got := res.Content[0].(*mcp.TextContent).Text
	if strings.Contains(got, "binary") || !strings.Contains(got, "402 lines") || !strings.Contains(got, "last line: a NUL \x00 and a bell \a here") {
		t.Fatalf("compacted text:\n%s", got)
	}
	m := meta(t, res)
	if len(m.Results) != 1 || m.Results[0].Artifact == nil {
		t.Fatalf("meta %+v", m)
	}
	rc, _, err := st.Open(context.Background(), budgetpkg.Handle(m.Results[0].Artifact.Handle))
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := io.ReadAll(rc)
	rc.Close()
	if string(stored) != want {
		t.Errorf("the stored text differs from the upstream's (%d bytes, want %d)", len(stored), len(want))
	}
}

// TestResultsPrintReferences: a compacted result names its artifact as
// artifact:HANDLE only (never the bare handle, which looks like a git
// SHA); that form, passed back as an argument or to read_artifact,
// resolves; and the bare handle this proxy handed out still resolves
// (old clients). On the old code the view printed the bare handle.
func TestResultsPrintReferences(t *testing.T) {
	eng, _ := newEngine(t, 300)
	h := startProxy(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 300})
	res := h.call(t, "lines", map[string]any{"bytes": 40000})
	m := meta(t, res)
	if len(m.Results) != 1 || m.Results[0].Artifact == nil {
		t.Fatalf("meta %+v", m)
	}
	handle := m.Results[0].Artifact.Handle
	got := text(t, res)
	ref := budgetpkg.RefOf(handle)
	if !strings.Contains(got, ref) || strings.Count(got, handle) != strings.Count(got, ref) {
		t.Fatalf("the result names %s %d times, of which %d as %s:\n%s", handle, strings.Count(got, handle), strings.Count(got, ref), ref, got)
	}
	for _, arg := range []string{ref, handle} {
		echoed := text(t, h.call(t, "echo", map[string]any{"text": arg + "[2]"}))
		if !strings.HasPrefix(echoed, "line 3") {
			t.Errorf("echo %s[2]: %.100q, want line 3 of the stored output", arg, echoed)
		}
	}
	ra := text(t, h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": ref + "[0]"}))
	if !strings.Contains(ra, "line 1") {
		t.Errorf("read_artifact %s[0]: %q", ref, ra)
	}
}

// TestLoneSurrogatesKept: a text block with lone surrogates (valid JSON:
// "\ud800") that must be compacted comes to the client with the same
// escapes where the view shows that line, never U+FFFD, and the artifact
// holds their stand-ins (U+F0000 for U+D800, see surrogate.go). On the old code the go-sdk's decoding
// had made them U+FFFD, in the view and in the artifact.
func TestLoneSurrogatesKept(t *testing.T) {
	node, script := wireServer(t)
	eng, st := newEngine(t, 300)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script}, Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger(), Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := newRawClient(t, p)
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"surrogate","arguments":{}}}`)
	_, resp := c.until(7)
	var res struct {
		Content []struct {
			Text json.RawMessage `json:"text"`
		} `json:"content"`
		Meta struct {
			Compact mcpproxy.Meta `json:"compact"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Content) != 1 {
		t.Fatalf("result %s: %v", resp.Result, err)
	}
	text := string(res.Content[0].Text)
	if !strings.Contains(text, `last line: a lone \ud800 high and a lone \udfff low surrogate, and a pair 😀`) || strings.Contains(text, `\ufffd`) || strings.Contains(text, "\uFFFD") {
		t.Errorf("the compacted text as sent:\n%s", text)
	}
	if len(res.Meta.Compact.Results) != 1 || res.Meta.Compact.Results[0].Artifact == nil {
		t.Fatalf("meta %+v", res.Meta.Compact)
	}
	rc, _, err := st.Open(context.Background(), budgetpkg.Handle(res.Meta.Compact.Results[0].Artifact.Handle))
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := io.ReadAll(rc)
	rc.Close()
	if !strings.Contains(string(stored), "a lone \U000F0000 high and a lone \U000F07FF low surrogate, and a pair 😀") {
		t.Errorf("stored tail %q", stored[max(0, len(stored)-120):])
	}
}

// TestReadArtifactKeepsLoneSurrogates: an artifact made of a text with
// lone surrogates holds their private-use stand-ins (see surrogate.go);
// what the proxy reads out of it has them back as the escapes the
// upstream wrote ("\ud800"), never the stand-ins: read_artifact's get,
// slice, search and jq answers, and a memory pointer passed to the
// upstream (whole and with a path, beside an argument's own lone
// surrogate). On the old code each answer held U+F0000 and U+F07FF.
func TestReadArtifactKeepsLoneSurrogates(t *testing.T) {
	node, script := wireServer(t)
	eng, _ := newEngine(t, 300)
	var log lockedBuffer
	p, err := mcpproxy.New(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script}, Stderr: &log}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger(), Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := newRawClient(t, p)
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"surrogate","arguments":{}}}`)
	_, resp := c.until(7)
	var res struct {
		Meta struct {
			Compact mcpproxy.Meta `json:"compact"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Meta.Compact.Results) != 1 || res.Meta.Compact.Results[0].Artifact == nil {
		t.Fatalf("result %s: %v", resp.Result, err)
	}
	ref := budgetpkg.RefOf(res.Meta.Compact.Results[0].Artifact.Handle)
	const want = `a lone \ud800 high and a lone \udfff low surrogate, and a pair 😀`
	standIns := []string{"\U000F0000", "\U000F07FF", `\udb80`, `\udb81`, `\ufffd`, "\uFFFD"}
	for i, args := range []string{
		fmt.Sprintf(`{"ref":%q,"budget":20000}`, ref),
		fmt.Sprintf(`{"ref":%q}`, ref+"[400]"),
		fmt.Sprintf(`{"ref":%q,"op":"slice","offset":400,"limit":1}`, ref),
		fmt.Sprintf(`{"ref":%q,"op":"search","text":"lone"}`, ref),
		fmt.Sprintf(`{"ref":%q,"op":"jq","filter":".[400]"}`, ref),
		fmt.Sprintf(`{"ref":%q,"op":"jq","filter":"[.[400] | explode[] | select(. > 65535)]"}`, ref),
	} {
		id := int64(20 + i)
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_artifact","arguments":%s}}`, id, args))
		_, resp := c.until(id)
		got := string(resp.Result)
		if i == 5 {
			// jq sees the stand-ins as the code points they are.
			if !strings.Contains(got, "983040") {
				t.Errorf("read_artifact %s:\n%s", args, got)
			}
			continue
		}
		if !strings.Contains(got, want) {
			t.Errorf("read_artifact %s: the answer lacks %s:\n%.600s", args, want, got)
		}
		for _, s := range standIns {
			if strings.Contains(got, s) {
				t.Errorf("read_artifact %s: the answer holds %q:\n%.600s", args, s, got)
			}
		}
	}

	// Memory pointers: the upstream reads the lone surrogates as escapes.
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{"name":"exact","arguments":{"line":%q,"whole":%q,"own":"mine \ud801 here"}}}`, ref+"[400]", ref))
	c.until(40)
	var line string
	for deadline := time.Now().Add(10 * time.Second); line == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		// The upstream's standard error is copied as it comes.
		for l := range strings.Lines(log.String()) {
			if strings.Contains(l, `"own":`) {
				line = l
			}
		}
	}
	if !strings.Contains(line, `"line":"last line: `+want) || strings.Count(line, want) != 2 || !strings.Contains(line, `"own":"mine \ud801 here"`) {
		t.Errorf("the upstream read %.300s ... %.300s", line, line[max(0, len(line)-300):])
	}
	for _, s := range standIns {
		if strings.Contains(line, s) {
			t.Errorf("the upstream read %q", s)
		}
	}
}

// TestMirroredStructuredKeepsValues: structuredContent that the proxy
// changes because it mirrors a compacted text (server-filesystem's
// {"content": text} shape, with more members beside it) keeps every
// value it does not shorten as written: 12345678901234567890, 1.0,
// 1e400, -0, a lone surrogate; the mirrored text's own lone surrogates
// come out as escapes. On the old code the call failed (the go-sdk could
// not decode 1e400); without 1e400 the mirror was not seen (the copy
// held U+FFFD where the text held stand-ins) and structuredContent was
// omitted, stored apart.
func TestMirroredStructuredKeepsValues(t *testing.T) {
	node, script := wireServer(t)
	eng, _ := newEngine(t, 300)
	p, err := mcpproxy.New(context.Background(), &mcpproxy.Command{Path: node, Args: []string{script}, Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger(), Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := newRawClient(t, p)
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mirror","arguments":{}}}`)
	_, resp := c.until(7)
	if resp.Error != nil {
		t.Fatalf("the call: %v", resp.Error)
	}
	var res struct {
		Content []struct {
			Text json.RawMessage `json:"text"`
		} `json:"content"`
		StructuredContent map[string]json.RawMessage `json:"structuredContent"`
		Meta              struct {
			Compact mcpproxy.Meta `json:"compact"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Content) != 1 {
		t.Fatalf("result %s: %v", resp.Result, err)
	}
	if res.Meta.Compact.Structured != "mirrored" {
		t.Fatalf("structured %q, want mirrored: %s", res.Meta.Compact.Structured, resp.Result)
	}
	for k, want := range map[string]string{"count": `12345678901234567890`, "ratio": `1.0`, "huge": `1e400`, "negz": `-0`, "lone": `"\ud800"`} {
		if got := string(res.StructuredContent[k]); got != want {
			t.Errorf("structuredContent.%s = %s, want %s as written", k, got, want)
		}
	}
	if got, text := string(res.StructuredContent["content"]), string(res.Content[0].Text); got != text || !strings.Contains(got, `a lone \ud800 high`) {
		t.Errorf("structuredContent.content %.200s, want the compacted text %.200s with its escapes", got, text)
	}
}
