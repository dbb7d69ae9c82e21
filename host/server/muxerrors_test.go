package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/toolcompact/compact/host/server"
)

// TestEveryErrorIsJSON: requests no route matches (unknown path, known
// path with another method) and a body over the limit get the documented
// JSON error body, with a code schemas/openapi.yaml's Error enum lists; on
// the old code 404 and 405 were net/http's plain text, and the enum lacked
// method_not_allowed.
func TestEveryErrorIsJSON(t *testing.T) {
	codes := openAPIErrorCodes(t)
	ts := newServer(t, server.Config{MaxBody: 1 << 10})
	cases := []struct {
		method, path, body string
		status             int
		code, allow        string
	}{
		{"GET", "/nope", "", 404, "not_found", ""},
		{"GET", "/v1/compact", "", 405, "method_not_allowed", "POST"},
		{"DELETE", "/healthz", "", 405, "method_not_allowed", "GET"},
		{"POST", "/v1/compact", `{"tool":"t","content":"` + strings.Repeat("x", 4<<10) + `"}`, 413, "", ""},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e struct {
			Error struct{ Code, Message string }
		}
		if resp.StatusCode != c.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
			json.Unmarshal(b, &e) != nil || e.Error.Message == "" || (c.code != "" && e.Error.Code != c.code) {
			t.Errorf("%s %s: %d %q %s, want %d and the JSON error body (code %q)", c.method, c.path, resp.StatusCode, resp.Header.Get("Content-Type"), b, c.status, c.code)
		}
		if !slices.Contains(codes, e.Error.Code) {
			t.Errorf("%s %s: code %q is not in openapi.yaml's Error code enum %v", c.method, c.path, e.Error.Code, codes)
		}
		if c.allow != "" && !strings.Contains(resp.Header.Get("Allow"), c.allow) {
			t.Errorf("%s %s: Allow %q, want %s", c.method, c.path, resp.Header.Get("Allow"), c.allow)
		}
	}
}

// openAPIErrorCodes is the enum of the Error body's code in
// schemas/openapi.yaml.
func openAPIErrorCodes(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "schemas", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				Error struct {
					Properties struct {
						Error struct {
							Properties struct {
								Code struct {
									Enum []string `yaml:"enum"`
								} `yaml:"code"`
							} `yaml:"properties"`
						} `yaml:"error"`
					} `yaml:"properties"`
				} `yaml:"Error"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	codes := doc.Components.Schemas.Error.Properties.Error.Properties.Code.Enum
	if len(codes) == 0 {
		t.Fatal("openapi.yaml: no enum at components.schemas.Error.properties.error.properties.code")
	}
	return codes
}

// TestMetricsCoverEveryEndpoint: /v1/context is counted, requests no
// route matches are counted, and the Go and process collectors are there
// (none of the three on the old code).
func TestMetricsCoverEveryEndpoint(t *testing.T) {
	ts := newServer(t, server.Config{})
	resp, err := http.Post(ts.URL+"/v1/context", "application/json", strings.NewReader(`{"budget":1000,"blocks":[{"kind":"user","content":"hello"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("context: %d", resp.StatusCode)
	}
	if r, err := http.Get(ts.URL + "/nope"); err == nil {
		r.Body.Close()
	}
	r, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	for _, want := range []string{
		`compact_context_calls_total{outcome="ok"} 1`,
		"compact_context_seconds_count 1",
		`compact_http_requests_total{code="200",route="/v1/context"} 1`,
		`compact_http_requests_total{code="404",route="unmatched"} 1`,
		"go_goroutines ",
		"process_cpu_seconds_total ",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestFitUsesContractNames: error.fit names its numbers as the contract
// does (snake_case JSON members), for one result and for a prompt; on the
// old code they were the Go field names (Tool, Budget, AtLeast, ...).
func TestFitUsesContractNames(t *testing.T) {
	ts := newServer(t, server.Config{})
	for _, c := range []struct {
		path, body string
		want       []string
	}{
		{"/v1/context", `{"budget":3,"blocks":[{"kind":"system","content":"you are a careful assistant with many rules"}]}`,
			[]string{"budget", "before", "best", "fixed", "system", "tool_results", "reason"}},
		{"/v1/compact", `{"tool":"t","budget":1,"content":"` + strings.Repeat("word ", 200) + `"}`,
			[]string{"tool", "budget", "tokens", "level", "reason"}},
	} {
		resp, err := http.Post(ts.URL+c.path, "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e struct {
			Error struct {
				Code string
				Fit  map[string]any
			}
		}
		if resp.StatusCode != 422 || json.Unmarshal(b, &e) != nil || e.Error.Code != "cannot_fit" {
			t.Errorf("%s: %d %s, want 422 cannot_fit", c.path, resp.StatusCode, b)
			continue
		}
		for _, k := range c.want {
			if _, ok := e.Error.Fit[k]; !ok {
				t.Errorf("%s: fit %v lacks %q", c.path, e.Error.Fit, k)
			}
		}
		for k := range e.Error.Fit {
			if strings.ToLower(k) != k {
				t.Errorf("%s: fit member %q is not a contract name", c.path, k)
			}
		}
	}
}
