package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/server"
	"github.com/toolcompact/compact/schemas"
)

var shared struct {
	dir   string
	once  sync.Once
	eng   *host.Engine
	store *artifact.DirStore
	err   error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// engine returns the real engine with a real store, shared by the tests
// of the package (building one compiles the plugins).
func engine(t testing.TB) (*host.Engine, *artifact.DirStore) {
	t.Helper()
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "compact-server-test-")
		if err != nil {
			shared.err = err
			return
		}
		shared.dir = dir
		st, err := artifact.NewDir(dir, artifact.Options{})
		if err != nil {
			shared.err = err
			return
		}
		ctr, err := budget.NewCounter("o200k_base")
		if err != nil {
			shared.err = err
			return
		}
		shared.store = st
		shared.eng, shared.err = host.New(context.Background(), host.WithStore(st), host.WithCounter(ctr),
			host.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.eng, shared.store
}

func newServer(t testing.TB, cfg server.Config) *httptest.Server {
	t.Helper()
	eng, _ := engine(t)
	cfg.Engine = server.Adapt(eng)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// issues is a JSON list of records large enough to need the artifact
// level at a small budget.
func issues(n int) []byte {
	var items []map[string]any
	for i := range n {
		items = append(items, map[string]any{
			"number": i + 1, "title": fmt.Sprintf("issue %d: crash when the cache is cold", i+1),
			"state": []string{"open", "closed"}[i%2], "user": map[string]any{"login": fmt.Sprintf("user%d", i%7)},
			"body": strings.Repeat("steps to reproduce and what was expected. ", 5),
		})
	}
	b, _ := json.Marshal(items)
	return b
}

func postJSON(t testing.TB, url string, body any) (*http.Response, []byte) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp, out
}

func TestCompactAndArtifacts(t *testing.T) {
	ts := newServer(t, server.Config{})
	data := issues(300)

	resp, body := postJSON(t, ts.URL+"/v1/compact", map[string]any{"tool": "github.list_issues", "content": string(data), "budget": 600})
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	conforms(t, "Result", body)
	var res schemas.Result
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if res.Level != schemas.LevelArtifact || res.Artifact == nil || res.Tokens.After > 600 {
		t.Fatalf("level %q artifact %v tokens %+v", res.Level, res.Artifact, res.Tokens)
	}
	if len(res.Collections) == 0 || res.Collections[0].Count != 300 {
		t.Errorf("collections %+v, want 300 records", res.Collections)
	}
	h := res.Artifact.Handle

	// The exact bytes.
	resp, err := http.Get(ts.URL + "/v1/artifacts/" + h)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(raw, data) || resp.Header.Get("X-Compact-SHA256") != res.Artifact.SHA256 {
		t.Errorf("get: status %d, %d bytes (want %d), sha %q", resp.StatusCode, len(raw), len(data), resp.Header.Get("X-Compact-SHA256"))
	}
	// The same by the reference the view prints (artifact:HANDLE).
	if !strings.Contains(res.Content, budget.RefOf(h)) {
		t.Errorf("the view does not print %s", budget.RefOf(h))
	}
	resp, err = http.Get(ts.URL + "/v1/artifacts/" + budget.RefOf(h))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(raw, data) {
		t.Errorf("get %s: status %d, %d bytes (want %d)", budget.RefOf(h), resp.StatusCode, len(raw), len(data))
	}

	get := func(q string) (int, query.Answer, []byte) {
		resp, err := http.Get(ts.URL + "/v1/artifacts/" + q)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var a query.Answer
		json.Unmarshal(b, &a)
		return resp.StatusCode, a, b
	}
	code, a, b := get(h + "?jq=" + url.QueryEscape(`[.[] | select(.state == "open")] | length`))
	conforms(t, "Answer", b)
	if code != 200 || strings.TrimSpace(a.Content) != "150" {
		t.Errorf("jq: %d %s", code, b)
	}
	code, a, b = get(h + "?offset=10&limit=2")
	if code != 200 || a.Total != 300 || a.Returned != 2 || len(a.Positions) != 2 || a.Positions[0] != 10 || !strings.Contains(a.Content, "issue 11:") {
		t.Errorf("slice: %d %s", code, b)
	}
	code, a, b = get(h + "?q=" + url.QueryEscape("issue 123") + "&limit=1")
	if code != 200 || !strings.Contains(a.Content, "issue 123:") {
		t.Errorf("search: %d %s", code, b)
	}
	code, a, b = get(url.PathEscape(h + "[4].user.login"))
	if code != 200 || !strings.Contains(a.Content, "user4") {
		t.Errorf("get with a path: %d %s", code, b)
	}

	// Bad input gets clear errors.
	for _, c := range []struct {
		q      string
		status int
		code   string
	}{
		{"0123456789abcdef0123", 404, "not_found"},
		{"not-a-handle", 400, "bad_handle"},
		{h + "?jq=" + url.QueryEscape("[.[] |"), 400, "bad_query"},
		{h + "?jq=length&q=x", 400, "bad_request"},
		{h + "?limit=-1", 400, "bad_request"},
		{h + "?nope=1", 400, "bad_request"},
	} {
		code, _, b := get(c.q)
		var e struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(b, &e)
		if code != c.status || e.Error.Code != c.code || e.Error.Message == "" {
			t.Errorf("GET %s: %d %s, want %d %s", c.q, code, b, c.status, c.code)
		}
	}
}

func TestCompactBadInput(t *testing.T) {
	ts := newServer(t, server.Config{MaxBody: 1 << 10})
	for _, c := range []struct {
		body   string
		status int
		want   string
	}{
		{`{"content":"x"}`, 400, "tool"},
		{`{"tool":"x"}`, 400, "content"},
		{`{"tool":"x","content":"x","budgt":3}`, 400, "budgt"},
		{`{"tool":"x","content":"x"} {}`, 400, "trailing"},
		{`{"tool":"x","content":"` + strings.Repeat("a", 2000) + `"}`, 413, "limit"},
		{`{"tool":"x","content":"x","budget":-1}`, 400, "budget"},
	} {
		resp, err := http.Post(ts.URL+"/v1/compact", "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(b), c.want) {
			t.Errorf("%.40s: %d %s, want %d mentioning %q", c.body, resp.StatusCode, b, c.status, c.want)
		}
	}
	// A JSON value as content is taken as the output itself.
	resp, body := postJSON(t, ts.URL+"/v1/compact", map[string]any{"tool": "x", "content": []int{1, 2, 3}})
	var res schemas.Result
	json.Unmarshal(body, &res)
	if resp.StatusCode != 200 || res.Level != schemas.LevelNone || res.Content != "[1,2,3]" {
		t.Errorf("JSON content: %d %s", resp.StatusCode, body)
	}
}

func TestContext(t *testing.T) {
	ts := newServer(t, server.Config{})
	blocks := []schemas.Block{
		{ID: "sys", Kind: schemas.BlockSystem, Content: "You are a careful assistant."},
		{ID: "h1", Kind: schemas.BlockHint, Priority: 1, Content: strings.Repeat("an optional hint about style. ", 40)},
		{ID: "t1", Kind: schemas.BlockToolResult, Tool: "github.list_issues", Content: string(issues(100))},
		{ID: "u", Kind: schemas.BlockUser, Content: "Which issues are open?"},
	}
	resp, body := postJSON(t, ts.URL+"/v1/context", map[string]any{"budget": 1200, "blocks": blocks})
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	conforms(t, "context.schema.json#/$defs/result", body)
	var res schemas.ContextResult
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if res.Tokens.After > 1200 || len(res.Actions) == 0 {
		t.Errorf("tokens %+v, %d actions", res.Tokens, len(res.Actions))
	}
	resp, body = postJSON(t, ts.URL+"/v1/context", map[string]any{"budget": 5, "blocks": blocks[:1]})
	if resp.StatusCode != 422 || !strings.Contains(string(body), "cannot_fit") || !strings.Contains(string(body), `"fit"`) {
		t.Errorf("cannot fit: %d %s", resp.StatusCode, body)
	}
	resp, body = postJSON(t, ts.URL+"/v1/context", map[string]any{"budget": 100, "blocks": []map[string]any{{"kind": "nonsense", "content": "x"}}})
	if resp.StatusCode != 400 || !strings.Contains(string(body), "nonsense") {
		t.Errorf("bad block: %d %s", resp.StatusCode, body)
	}
}

func TestTokenAndMetrics(t *testing.T) {
	ts := newServer(t, server.Config{Token: "s3cret"})
	do := func(method, path, token, body string) (int, string) {
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := do("GET", "/healthz", "", ""); code != 200 {
		t.Errorf("healthz without a token: %d", code)
	}
	for _, tok := range []string{"", "wrong"} {
		if code, _ := do("POST", "/v1/compact", tok, `{"tool":"x","content":"x"}`); code != 401 {
			t.Errorf("token %q: %d, want 401", tok, code)
		}
		if code, _ := do("GET", "/metrics", tok, ""); code != 401 {
			t.Errorf("metrics with token %q: %d, want 401", tok, code)
		}
	}
	if code, b := do("POST", "/v1/compact", "s3cret", fmt.Sprintf(`{"tool":"github.list_issues","content":%q,"budget":500}`, issues(200))); code != 200 {
		t.Fatalf("with the token: %d %s", code, b)
	}
	if code, b := do("POST", "/v1/compact", "s3cret", `{"tool":"random-tool-4711","content":"x"}`); code != 200 {
		t.Fatalf("unknown tool: %d %s", code, b)
	}
	code, m := do("GET", "/metrics", "s3cret", "")
	if code != 200 {
		t.Fatalf("metrics: %d", code)
	}
	for _, want := range []string{
		`compact_calls_total{door="http",outcome="ok",tool=`,
		`compact_levels_total{level="artifact"} `,
		`compact_tokens_before_total{`,
		`compact_tokens_after_total{`,
		`compact_records_total{`,
		`compact_compaction_seconds_bucket{`,
		`compact_artifact_store_bytes `,
		`compact_http_requests_total{code="401",route="/v1/compact"} 2`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(m, "random-tool-4711") || !strings.Contains(m, `compact_calls_total{door="http",outcome="ok",tool="default"}`) {
		t.Errorf("an unknown tool must be labelled by its registry entry, default:\n%s", grep(m, "compact_calls_total"))
	}
	if !strings.Contains(m, "compact_records_total{tool=") || strings.Contains(m, `compact_records_total{tool="github.list_issues"} 0`) {
		t.Errorf("records not counted:\n%s", grep(m, "compact_records"))
	}
}

func grep(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestListenRules(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8377", "", true},
		{"localhost:8377", "", true},
		{"[::1]:8377", "", true},
		{":8377", "", false},
		{"0.0.0.0:8377", "", false},
		{"192.168.1.5:8377", "", false},
		{"example.com:8377", "", false},
		{"0.0.0.0:8377", "t", true},
	} {
		err := server.CheckListen(c.addr, c.token)
		if (err == nil) != c.ok {
			t.Errorf("CheckListen(%q, %q) = %v", c.addr, c.token, err)
		}
	}
}

// TestGracefulShutdown: a request in flight when the context ends still
// gets its answer.
func TestGracefulShutdown(t *testing.T) {
	eng, _ := engine(t)
	started := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		io.WriteString(w, "finished")
	})
	_ = eng
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- server.Serve(ctx, ln, slow, 5*time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-started
	cancel()
	if s := <-got; s != "finished" {
		t.Errorf("in-flight request: %q", s)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestManyClients: 200 clients at once on loopback, every one answered.
func TestManyClients(t *testing.T) {
	ts := newServer(t, server.Config{})
	const clients = 200
	var wg sync.WaitGroup
	errs := make(chan string, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			content := fmt.Sprintf(`[{"id":%d,"name":"item %d"}]`, i, i)
			b, _ := json.Marshal(map[string]any{"tool": "x", "content": content})
			resp, err := http.Post(ts.URL+"/v1/compact", "application/json", bytes.NewReader(b))
			if err != nil {
				errs <- err.Error()
				return
			}
			defer resp.Body.Close()
			var res schemas.Result
			if err := json.NewDecoder(resp.Body).Decode(&res); err != nil || resp.StatusCode != 200 || res.Content != content {
				errs <- fmt.Sprintf("client %d: %d %v %q", i, resp.StatusCode, err, res.Content)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestDeadline: a request that cannot finish within --timeout gets 504.
func TestDeadline(t *testing.T) {
	ts := newServer(t, server.Config{Timeout: 5 * time.Millisecond})
	resp, body := postJSON(t, ts.URL+"/v1/compact", map[string]any{"tool": "github.list_issues", "content": string(issues(3000)), "budget": 500})
	if resp.StatusCode != http.StatusGatewayTimeout || !strings.Contains(string(body), `"deadline"`) {
		t.Errorf("status %d: %.200s", resp.StatusCode, body)
	}
}
