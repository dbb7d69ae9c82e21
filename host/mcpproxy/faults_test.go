package mcpproxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
	"github.com/toolcompact/compact/schemas"
)

// faulty returns the fault-injection upstream (this test binary).
func faulty(t testing.TB, env ...string) *mcpproxy.Command {
	exe, _ := faultyUpstreamArgs(t)
	return &mcpproxy.Command{Path: exe, Env: append(append(os.Environ(), envUpstream+"=1"), env...), Stderr: io.Discard, TerminateAfter: 500 * time.Millisecond}
}

func TestUpstreamFaults(t *testing.T) {
	eng, _ := newEngine(t, 500)
	leakCheck(t)
	// The deadline of a call: long enough that a loaded machine does not
	// run past it on a call that answers (at 1.5 s an echo after a fault
	// did), short enough for the hang below to end soon.
	const callTimeout = 5 * time.Second
	h := startProxy(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500, CallTimeout: callTimeout})

	echo := func(t *testing.T) {
		t.Helper()
		res := h.call(t, "echo", map[string]any{"text": "still here"})
		if res.IsError || text(t, res) != "still here" {
			t.Fatalf("the proxy does not serve after the fault: %v %q", res.IsError, text(t, res))
		}
	}

	t.Run("error result", func(t *testing.T) {
		res := h.call(t, "fail", map[string]any{})
		if !res.IsError || !strings.Contains(text(t, res), "disk on fire") {
			t.Errorf("want the upstream's error result, got %v %q", res.IsError, text(t, res))
		}
		echo(t)
	})
	t.Run("exits mid-call", func(t *testing.T) {
		res := h.call(t, "exit", map[string]any{})
		if !res.IsError || !strings.Contains(text(t, res), "upstream") {
			t.Errorf("want a clear error naming the upstream, got %v %q", res.IsError, text(t, res))
		}
		echo(t) // the proxy reconnects
	})
	t.Run("hangs", func(t *testing.T) {
		start := time.Now()
		// Other calls are served while one hangs: the call made during
		// the hang is answered before the hang's deadline ends it (by
		// the order of the two answers, not by a time a loaded machine
		// may pass).
		other := make(chan time.Time, 1)
		go func() {
			time.Sleep(100 * time.Millisecond)
			res, err := h.client.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "meanwhile"}})
			if err != nil || res.IsError {
				other <- time.Time{}
				return
			}
			other <- time.Now()
		}()
		res := h.call(t, "hang", map[string]any{})
		hung := time.Now()
		if at := <-other; at.IsZero() {
			t.Error("a call during the hang failed")
		} else if at.After(hung) {
			t.Errorf("a call during the hang was answered %v after the hang's deadline ended it", at.Sub(hung))
		}
		if took := time.Since(start); took < callTimeout || took > 2*callTimeout {
			t.Errorf("the deadline of %v did not hold: %v", callTimeout, took)
		}
		if !res.IsError || !strings.Contains(text(t, res), "no answer within") {
			t.Errorf("want a deadline error, got %v %q", res.IsError, text(t, res))
		}
		echo(t)
	})
	t.Run("invalid JSON-RPC", func(t *testing.T) {
		res := h.call(t, "garbage", map[string]any{})
		if !res.IsError || !strings.Contains(text(t, res), "upstream") {
			t.Errorf("want a clear error, got %v %q", res.IsError, text(t, res))
		}
		echo(t)
	})
	t.Run("client disconnects mid-call", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, err := h.client.CallTool(ctx, &mcp.CallToolParams{Name: "hang", Arguments: map[string]any{}})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("want the client's own deadline, got %v", err)
		}
		echo(t)
	})
	t.Run("progress", func(t *testing.T) {
		params := &mcp.CallToolParams{Name: "progress", Arguments: map[string]any{}}
		params.SetProgressToken("tok-1")
		res, err := h.client.CallTool(context.Background(), params)
		if err != nil || text(t, res) != "done" {
			t.Fatalf("progress: %v %v", err, res)
		}
		for i := 1; i <= 3; i++ {
			select {
			case p := <-h.progress:
				if p.ProgressToken != "tok-1" || p.Progress != float64(i) {
					t.Errorf("progress %d: %+v", i, p)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("progress notification %d not forwarded", i)
			}
		}
	})
}

// TestLogging forwards upstream log messages to a client that set a
// level (the session-level logging of protocol 2025-11-25; logging is
// deprecated from 2026-07-28 on).
func TestLogging(t *testing.T) {
	eng, _ := newEngine(t, 500)
	h := startProxyVersion(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500}, "2025-11-25")
	if err := h.client.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	h.call(t, "progress", map[string]any{})
	select {
	case l := <-h.logs:
		if l.Data != "half way" || l.Level != "warning" {
			t.Errorf("log: %+v", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("log message not forwarded")
	}
}

func TestLargeResults(t *testing.T) {
	eng, store := newEngine(t, 800)
	leakCheck(t)
	h := startProxy(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 800})

	t.Run("structuredContent of its own", func(t *testing.T) {
		res := h.call(t, "records", map[string]any{"bytes": 200_000})
		m := meta(t, res)
		if len(m.Results) != 1 {
			t.Fatalf("meta %+v", m)
		}
		r := m.Results[0]
		if r.Level != schemas.LevelArtifact {
			t.Fatalf("level %q", r.Level)
		}
		n := countOf(r.Collections, ".")
		if n < 1000 {
			t.Errorf("record count %d", n)
		}
		// structuredContent is not the text's JSON ({"items": [...]} vs
		// [...]), so it was compacted on its own and, being too large,
		// omitted with a note naming its artifact.
		if m.Structured != "omitted" || res.StructuredContent != nil || m.Handle == "" {
			t.Fatalf("structured %q handle %q sc %T", m.Structured, m.Handle, res.StructuredContent)
		}
		var sc struct {
			Items []map[string]any `json:"items"`
		}
		if err := json.Unmarshal([]byte(stored(t, store, m.Handle)), &sc); err != nil || len(sc.Items) != n {
			t.Errorf("stored structuredContent: %v, %d items, want %d", err, len(sc.Items), n)
		}
		if !strings.Contains(text(t, res), m.Handle) {
			t.Errorf("the note naming the structuredContent artifact is missing")
		}
	})

	t.Run("structuredContent is the text's JSON", func(t *testing.T) {
		small := h.call(t, "same", map[string]any{"bytes": 200})
		if m := meta(t, small); m.Structured != "unchanged" || small.StructuredContent == nil {
			t.Errorf("small: %q %v", m.Structured, small.StructuredContent)
		}
		res := h.call(t, "same", map[string]any{"bytes": 100_000})
		m := meta(t, res)
		r := m.Results[0]
		if r.Level != schemas.LevelArtifact || m.Structured != "omitted" || res.StructuredContent != nil || r.Artifact == nil || m.Handle != r.Artifact.Handle {
			t.Errorf("level %q structured %q handle %q (text artifact %v), sc %T", r.Level, m.Structured, m.Handle, r.Artifact, res.StructuredContent)
		}
	})

	t.Run("over the SDK's 16 MiB default", func(t *testing.T) {
		if testing.Short() {
			t.Skip("large message")
		}
		res := h.call(t, "lines", map[string]any{"bytes": 17 << 20})
		m := meta(t, res)
		if res.IsError || len(m.Results) != 1 || m.Results[0].Artifact == nil {
			t.Fatalf("17 MiB result: error %v meta %+v", res.IsError, m)
		}
		if m.Results[0].Artifact.Bytes < 17<<20 {
			t.Errorf("stored %d bytes", m.Results[0].Artifact.Bytes)
		}
		if m.Spilled != 1 {
			t.Errorf("the 17 MiB result was not spilled to the store as it was read (spilled %d)", m.Spilled)
		}
		// The stored text is exactly what the upstream sent.
		got := stored(t, store, m.Results[0].Artifact.Handle)
		if !strings.HasPrefix(got, "line 1: the quick brown fox") || strings.Count(got, "\n") != m.Results[0].Collections[0].Count {
			t.Errorf("stored text: %d bytes, %d lines, count %d", len(got), strings.Count(got, "\n"), m.Results[0].Collections[0].Count)
		}
	})
}

// TestSpill: a result over the spill size goes from the upstream's
// message to the store as it is read; the stored text is exactly the
// upstream's, escapes and all, and structuredContent stays consistent.
func TestSpill(t *testing.T) {
	eng, store := newEngine(t, 800)
	leakCheck(t)
	up := faulty(t)
	up.SpillAbove = 1 << 20
	h := startProxy(t, up, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 800})
	const size = 3 << 20
	res := h.call(t, "unicode", map[string]any{"bytes": size})
	m := meta(t, res)
	if res.IsError || m.Spilled != 1 || len(m.Results) != 1 || m.Results[0].Artifact == nil {
		t.Fatalf("error %v, meta %+v", res.IsError, m)
	}
	if got, want := stored(t, store, m.Results[0].Artifact.Handle), unicodeText(size); got != want {
		t.Errorf("stored text differs from the upstream's (%d vs %d bytes)", len(got), len(want))
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if m.Structured != "mirrored" || sc["content"] != text(t, res) || sc["other"] != "small" {
		t.Errorf("structuredContent %q: other=%v, content consistent: %v", m.Structured, sc["other"], sc["content"] == text(t, res))
	}
	if strings.Contains(text(t, res), "compact-spilled") {
		t.Errorf("a spill marker reached the client")
	}
	// A result under the spill size is decoded as usual.
	res = h.call(t, "unicode", map[string]any{"bytes": 100})
	if meta(t, res).Spilled != 0 || text(t, res) != unicodeText(100) {
		t.Errorf("small result: %q", text(t, res))
	}
}

func TestMessageLimit(t *testing.T) {
	eng, _ := newEngine(t, 800)
	leakCheck(t)
	up := faulty(t)
	up.MaxMessage = 64 << 10
	h := startProxy(t, up, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 800})
	res := h.call(t, "lines", map[string]any{"bytes": 200 << 10})
	if !res.IsError || !strings.Contains(text(t, res), "upstream") {
		t.Errorf("a message over the limit: want a clear error, got %v %q", res.IsError, text(t, res))
	}
	res = h.call(t, "echo", map[string]any{"text": "ok"})
	if text(t, res) != "ok" {
		t.Errorf("not serving after an oversized message: %q", text(t, res))
	}
}

func TestPointerToEcho(t *testing.T) {
	eng, _ := newEngine(t, 300)
	logf := filepath.Join(t.TempDir(), "calls.jsonl")
	h := startProxy(t, faulty(t, "COMPACT_TEST_LOG="+logf), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 300})
	big := h.call(t, "lines", map[string]any{"bytes": 30_000})
	m := meta(t, big)
	if m.Results[0].Artifact == nil {
		t.Fatalf("no artifact: %+v", m)
	}
	hd := m.Results[0].Artifact.Handle
	// Nested arguments are resolved too; other strings are untouched,
	// and a 40-digit hex string that is not stored passes through.
	sha := strings.Repeat("ab", 20)
	res := h.call(t, "echo", map[string]any{"text": strings.ToUpper(hd)})
	if res.IsError {
		t.Fatal(text(t, res))
	}
	h.call(t, "echo", map[string]any{"text": sha})
	f, err := os.Open(logf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var a struct{ Text string }
		json.Unmarshal(sc.Bytes(), &a)
		got = append(got, a.Text)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "line 1: ") || len(got[0]) < 30_000 || got[1] != sha {
		t.Errorf("upstream received %d calls: %q", len(got), clip(got))
	}
}

func clip(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		if len(x) > 60 {
			x = fmt.Sprintf("%s... (%d bytes)", x[:60], len(x))
		}
		out[i] = x
	}
	return out
}

// TestHTTPManyClients runs 200 clients at once against the streamable
// HTTP door (loopback), all sharing one upstream.
func TestHTTPManyClients(t *testing.T) {
	eng, _ := newEngine(t, 500)
	leakCheck(t)
	p, err := mcpproxy.New(context.Background(), faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return p.Server() }, nil)
	srv := httptest.NewServer(handler)
	defer srv.Close()

	const clients = 200
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, nil)
			if err != nil {
				errs <- fmt.Errorf("client %d: connect: %w", i, err)
				return
			}
			defer cs.Close()
			want := fmt.Sprintf("hello from %d", i)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": want}})
			if err != nil {
				errs <- fmt.Errorf("client %d: %w", i, err)
				return
			}
			if got := res.Content[0].(*mcp.TextContent).Text; got != want {
				errs <- fmt.Errorf("client %d: got %q", i, got)
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n < 5 {
			t.Error(err)
		}
		n++
	}
	if n > 0 {
		t.Errorf("%d of %d clients failed", n, clients)
	}
}

// TestHTTPUpstream puts the proxy in front of a server reached over
// streamable HTTP.
func TestHTTPUpstream(t *testing.T) {
	eng, _ := newEngine(t, 500)
	leakCheck(t)
	up := mcp.NewServer(&mcp.Implementation{Name: "http-up", Version: "1"}, nil)
	mcp.AddTool(up, &mcp.Tool{Name: "lines", Description: "Numbered lines."}, func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
		var b strings.Builder
		for i := 1; b.Len() < in.Bytes; i++ {
			fmt.Fprintf(&b, "line %d of the report\n", i)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, nil, nil
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return up }, nil))
	defer ts.Close()
	h := startProxy(t, &mcpproxy.HTTP{URL: ts.URL}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500})
	res := h.call(t, "lines", map[string]any{"bytes": 100_000})
	m := meta(t, res)
	if res.IsError || len(m.Results) != 1 || m.Results[0].Level != schemas.LevelArtifact {
		t.Fatalf("error %v meta %+v", res.IsError, m)
	}
	if n := countOf(m.Results[0].Collections, "."); n < 4000 {
		t.Errorf("line count %d", n)
	}
	res = h.call(t, "lines", map[string]any{"bytes": 10})
	if text(t, res) != "line 1 of the report\n" {
		t.Errorf("small result: %q", text(t, res))
	}
	h.client.Close()
	h.proxy.Close()
	ts.CloseClientConnections()
}

// TestForwarding: prompts, resources and tool list changes reach the
// client.
func TestForwarding(t *testing.T) {
	eng, _ := newEngine(t, 500)
	changed := make(chan struct{}, 4)
	h := startProxyWith(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500}, "", &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx := context.Background()
	ps, err := h.client.ListPrompts(ctx, nil)
	if err != nil || len(ps.Prompts) != 1 || ps.Prompts[0].Name != "review" {
		t.Fatalf("prompts: %v %+v", err, ps)
	}
	pr, err := h.client.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review", Arguments: map[string]string{"file": "main.go"}})
	if err != nil || pr.Messages[0].Content.(*mcp.TextContent).Text != "Review main.go" {
		t.Errorf("get prompt: %v %+v", err, pr)
	}
	rs, err := h.client.ListResources(ctx, nil)
	if err != nil || len(rs.Resources) != 1 || rs.Resources[0].URI != "test://readme" {
		t.Fatalf("resources: %v %+v", err, rs)
	}
	rr, err := h.client.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://readme"})
	if err != nil || rr.Contents[0].Text != "read me" {
		t.Errorf("read resource: %v %+v", err, rr)
	}
	if res := h.call(t, "add_tool", map[string]any{"text": "brand_new"}); text(t, res) != "added" {
		t.Fatalf("add_tool: %q", text(t, res))
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no tools/list_changed reached the client")
	}
	if res := h.call(t, "brand_new", map[string]any{}); res.IsError || text(t, res) != "new" {
		t.Errorf("the new tool: %v %q", res.IsError, text(t, res))
	}
}
