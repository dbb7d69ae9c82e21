package plugintest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host"
)

// TestFirstPartyThroughHost loads each first-party plugin with the host's
// own loader and runs the captured outputs through host verification
// (framing, counts against the host's own count of the input, size,
// validity): the host accepts every output.
func TestFirstPartyThroughHost(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		pkg, file, contentType string
	}{
		{Logs, "dpkg-log.txt", "text/plain"},
		{Logs, "app-log.jsonl", "application/x-ndjson"},
		{Logs, "apt-history.txt", "text/plain"},
		{RestList, "github-issues.json", "application/json"},
		{RestList, "sqlite-orders.json", "application/json"},
		{RestList, "cloudwatch-alarms.json", "application/json"},
	}
	plugins := map[string]*host.Plugin{}
	t.Cleanup(func() {
		for _, p := range plugins {
			p.Close(ctx)
		}
	})
	for _, c := range cases {
		t.Run(filepath.Base(c.pkg)+"/"+c.file, func(t *testing.T) {
			payload := capturedFile(t, c.file)
			p, ok := plugins[c.pkg]
			if !ok {
				var err error
				p, err = host.LoadPlugin(ctx, Build(t, c.pkg), host.PluginOptions{Timeout: callTimeout, Memory: 256 << 20})
				if err != nil {
					t.Fatal(err)
				}
				plugins[c.pkg] = p
			}
			out, err := p.Compact(ctx, budget.Request{Tool: c.file, Input: payload, ContentType: c.contentType, Budget: 4000})
			if err != nil {
				t.Fatalf("host rejected the output: %v", err)
			}
			t.Logf("%s: %d bytes -> %d bytes (%.1f%%), declared %+v", c.file, len(payload), len(out.Content), 100*float64(len(out.Content))/float64(len(payload)), out.Declared)
		})
	}
}

// benchPlugin measures warm calls of a first-party plugin through the
// host (framing, copy in and out, verification included).
func benchPlugin(b *testing.B, pkg, file, contentType string) {
	ctx := context.Background()
	payload := capturedFile(b, file)
	p, err := host.LoadPlugin(ctx, Build(b, pkg), host.PluginOptions{Timeout: callTimeout, Memory: 256 << 20, PoolSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(ctx)
	req := budget.Request{Tool: file, Input: payload, ContentType: contentType, Budget: 4000}
	if _, err := p.Compact(ctx, req); err != nil { // warm the instance
		b.Fatal(err)
	}
	b.SetBytes(int64(len(payload)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.Compact(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRestListWasmGitHubIssues(b *testing.B) {
	benchPlugin(b, RestList, "github-issues.json", "application/json")
}

func BenchmarkLogsWasmAppLog(b *testing.B) {
	benchPlugin(b, Logs, "app-log.jsonl", "application/x-ndjson")
}

// TestGroupByThroughHost runs the AssemblyScript example through the
// host's loader and verification: the count_field sum is checked by the
// host against its own count of the input.
func TestGroupByThroughHost(t *testing.T) {
	ctx := context.Background()
	wasm := BuildNPM(t, filepath.Join("..", "..", ExampleGroupBy))
	for _, c := range []struct{ file, by string }{{"github-issues.json", "state"}, {"sqlite-orders.json", "status,country"}} {
		payload := capturedFile(t, c.file)
		p, err := host.LoadPlugin(ctx, wasm, host.PluginOptions{Timeout: callTimeout, Memory: 64 << 20, Config: map[string]string{"by": c.by}})
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Compact(ctx, budget.Request{Tool: c.file, Input: payload, ContentType: "application/json", Budget: 4000})
		p.Close(ctx)
		if err != nil {
			t.Fatalf("%s: host rejected the output: %v", c.file, err)
		}
		t.Logf("%s by %s: %d bytes -> %s", c.file, c.by, len(payload), firstBytes(out.Content, 200))
	}
}

// BenchmarkLevel1GitHubIssues is the baseline for
// BenchmarkRestListWasmGitHubIssues: compact's declarative level 1 on the
// same page, natively, with its defaults and a table.
func BenchmarkLevel1GitHubIssues(b *testing.B) {
	payload := capturedFile(b, "github-issues.json")
	req := budget.Request{Tool: "github.issues", Input: payload, ContentType: "application/json", Budget: 4000,
		Rules: budget.Rules{Tool: "github.issues", Defaults: true, Format: "table", Drop: []string{"*_url", "url", "node_id", "body", "reactions"}}}
	c := budget.Declarative()
	if _, err := c.Compact(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		if _, err := c.Compact(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
