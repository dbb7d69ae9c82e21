package server_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/server"
)

// slowBody opens a connection that sends the headers of a POST with a
// 1000-byte body, then one byte, then nothing.
func slowBody(t *testing.T, addr, path string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", path, addr)
	return c
}

// TestSlowBodiesHoldNoSlot: connections that send one byte of a body and
// then nothing cannot make a real request wait: the body is read before a
// compaction slot is taken, and such a body is cut with 408 after the
// grace period. On the old code 8 of them held all 4 slots, and the real
// request waited for its whole deadline, then got 503.
func TestSlowBodiesHoldNoSlot(t *testing.T) {
	ts := newServer(t, server.Config{MaxInFlight: 4, Timeout: 5 * time.Second, BodyGrace: 1500 * time.Millisecond})
	addr := strings.TrimPrefix(ts.URL, "http://")
	var slow []net.Conn
	for range 8 {
		slow = append(slow, slowBody(t, addr, "/v1/compact"))
	}
	time.Sleep(200 * time.Millisecond) // let the server take them in
	start := time.Now()
	resp, body := postJSON(t, ts.URL+"/v1/compact", map[string]any{"tool": "x", "content": `[{"id":1}]`})
	if took := time.Since(start); resp.StatusCode != 200 || took > time.Second {
		t.Fatalf("real request: %d after %v (%s), want 200 within 1 s", resp.StatusCode, took, body)
	}
	// The slow bodies are cut after the grace period with 408.
	for i, c := range slow {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		r, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("slow client %d: %v", i, err)
		}
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), "slow_body") {
			t.Errorf("slow client %d: %d %s, want 408 slow_body", i, r.StatusCode, b)
		}
	}
}

// TestPerClientLimit: one client address may have at most MaxPerClient
// requests in progress; the next gets 429 at once.
func TestPerClientLimit(t *testing.T) {
	ts := newServer(t, server.Config{MaxPerClient: 2, BodyGrace: 3 * time.Second})
	addr := strings.TrimPrefix(ts.URL, "http://")
	slowBody(t, addr, "/v1/compact")
	slowBody(t, addr, "/v1/compact")
	time.Sleep(200 * time.Millisecond)
	resp, body := postJSON(t, ts.URL+"/v1/compact", map[string]any{"tool": "x", "content": `[{"id":1}]`})
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "too_many_requests") {
		t.Fatalf("third request of one client: %d %s, want 429", resp.StatusCode, body)
	}
}

// TestHostOriginAndContentType: every route refuses a Host that does not
// name this server (DNS rebinding), a foreign Origin, and a POST that is
// not application/json (a cross-site text/plain or form POST a browser
// sends without asking), as the MCP HTTP door does; allowed hosts are
// configurable. On the old code all of these were answered.
func TestHostOriginAndContentType(t *testing.T) {
	ts := newServer(t, server.Config{AllowedHosts: []string{"compact.internal"}})
	u, _ := url.Parse(ts.URL)
	do := func(method, path, host, origin, ctype, body string) (int, string) {
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	const body = `{"tool":"x","content":"[1]"}`
	for _, path := range []string{"/healthz", "/metrics", "/v1/artifacts/0123456789ab"} {
		if code, b := do("GET", path, "evil.example:8377", "", "", ""); code != 403 || !strings.Contains(b, "forbidden_host") {
			t.Errorf("GET %s with Host evil.example: %d %s, want 403", path, code, b)
		}
	}
	if code, b := do("POST", "/v1/compact", "evil.example", "", "application/json", body); code != 403 {
		t.Errorf("POST with a foreign Host: %d %s", code, b)
	}
	if code, b := do("POST", "/v1/compact", "", "http://evil.example", "text/plain", body); code != 403 {
		t.Errorf("cross-site text/plain POST: %d %s, want 403", code, b)
	}
	if code, b := do("POST", "/v1/compact", "", "", "text/plain", body); code != 415 {
		t.Errorf("text/plain POST: %d %s, want 415", code, b)
	}
	if code, b := do("POST", "/v1/compact", "", "", "application/x-www-form-urlencoded", body); code != 415 {
		t.Errorf("form POST: %d %s, want 415", code, b)
	}
	// Allowed: loopback names, the address itself, configured hosts, a
	// same-origin browser request.
	for _, h := range []string{"", "localhost:" + u.Port(), "compact.internal", "[::1]:1"} {
		if code, b := do("POST", "/v1/compact", h, "", "application/json; charset=utf-8", body); code != 200 {
			t.Errorf("POST with Host %q: %d %s, want 200", h, code, b)
		}
	}
	if code, b := do("POST", "/v1/compact", "", ts.URL, "application/json", body); code != 200 {
		t.Errorf("same-origin POST: %d %s, want 200", code, b)
	}
}

// BenchmarkConcurrentClients300: 300 clients post at once (a small JSON
// list each, a real engine behind the default limits) while 16 hostile
// connections trickle one byte of a body (16-slow-bodies; quiet is the
// baseline without them, in the same run); one iteration is one round of
// 300. It reports the median and 99th percentile latency and the
// requests that did not get 200.
func BenchmarkConcurrentClients300(b *testing.B) {
	b.Run("quiet", func(b *testing.B) { concurrentClients(b, 0) })
	b.Run("16-slow-bodies", func(b *testing.B) { concurrentClients(b, 16) })
}

func concurrentClients(b *testing.B, slow int) {
	ts := newServer(b, server.Config{})
	addr := strings.TrimPrefix(ts.URL, "http://")
	for range slow {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /v1/compact HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", addr)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 300, MaxConnsPerHost: 300}
	client := &http.Client{Transport: tr, Timeout: time.Minute}
	defer tr.CloseIdleConnections()
	body := []byte(`{"tool":"x","content":"[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":\"b\"}]"}`)
	var lat []time.Duration
	errs := 0
	var mu sync.Mutex
	for b.Loop() {
		var wg sync.WaitGroup
		for range 300 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				resp, err := client.Post(ts.URL+"/v1/compact", "application/json", bytes.NewReader(body))
				ok := err == nil && resp.StatusCode == 200
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				mu.Lock()
				lat = append(lat, time.Since(start))
				if !ok {
					errs++
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(errs), "errors")
}

// TestJQBombOverHTTP: a string-building jq filter sent to the sidecar's
// artifact route gets 413 too_large at once, with the reason; the same
// query.Querier serves the MCP door's read_artifact (host.Engine's
// QueryArtifact). On the old code the request ran past its deadline
// holding gigabytes.
func TestJQBombOverHTTP(t *testing.T) {
	ts := newServer(t, server.Config{Timeout: 10 * time.Second})
	_, st := engine(t)
	h, _, err := st.Put(context.Background(), strings.NewReader(`{"a":1}`), budget.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	bomb := `("x"*1e8) as $s | [$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s] | add | length`
	start := time.Now()
	resp, err := http.Get(ts.URL + "/v1/artifacts/" + string(h) + "?jq=" + url.QueryEscape(bomb))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if took := time.Since(start); resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "would build a value") || took > 5*time.Second {
		t.Fatalf("jq bomb over HTTP: %d after %v: %s", resp.StatusCode, took, b)
	}
	// The engine call the MCP door's read_artifact makes.
	eng, _ := engine(t)
	if _, err := eng.QueryArtifact(context.Background(), host.ArtifactQuery{Ref: string(h), Op: "jq", Filter: bomb}); !errors.Is(err, query.ErrLimit) {
		t.Fatalf("QueryArtifact(bomb) = %v, want query.ErrLimit", err)
	}
}

// TestNoStorePathsToClients: errors about artifacts never show the
// server's store directory to an HTTP client (on the old code "no
// artifact has handle … in /abs/path"), on the raw route and on queries.
func TestNoStorePathsToClients(t *testing.T) {
	ts := newServer(t, server.Config{})
	_, st := engine(t)
	for _, path := range []string{"/v1/artifacts/0123456789ab", "/v1/artifacts/0123456789ab?jq=.", "/v1/artifacts/" + strings.Repeat("ab", 32)} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 || strings.Contains(string(b), st.Dir()) || !strings.Contains(string(b), "<store>") && strings.Contains(string(b), " in ") {
			t.Errorf("GET %s: %d %s (store %s)", path, resp.StatusCode, b, st.Dir())
		}
	}
}

// TestDeclaredLengthReservesNoMemory: a request that declares a large
// Content-Length and then sends one byte does not make the server
// reserve memory for the whole declared body. On the old code each of
// these reserved DefaultMaxBody (64 MiB) at once: 8 connections of a few
// header bytes each took 512 MiB of heap for the grace period.
func TestDeclaredLengthReservesNoMemory(t *testing.T) {
	ts := newServer(t, server.Config{BodyGrace: 3 * time.Second})
	addr := strings.TrimPrefix(ts.URL, "http://")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 8 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "POST /v1/compact HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", addr, server.DefaultMaxBody)
	}
	time.Sleep(500 * time.Millisecond) // let the server take them in
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Fatalf("8 requests that sent one byte each made the server allocate %d MiB", got>>20)
	}
}
