package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/plugins/plugintest"
	"github.com/toolcompact/compact/schemas"
)

// records makes a JSON array of n records whose link and opaque-id fields
// the built-in cleanups drop, so that level 1 has something to do.
func records(n int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"title":"issue number %d","html_url":"https://example.com/octo/hello/issues/%d","events_url":"https://api.example.com/repos/octo/hello/issues/%d/events","node_id":"I_kwDOABCDEFGHIJKLMNOPQRSTUV%04d","body":null}`, i, i, i, i, i)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// faultEngine builds an engine whose registry sends tool "faulty" to the
// fault fixture with the given fault.
func faultEngine(t *testing.T, fault string, opts ...Option) (*Engine, string) {
	return faultEngineTimeout(t, fault, "1s", opts...)
}

func faultEngineTimeout(t *testing.T, fault, timeout string, opts ...Option) (*Engine, string) {
	t.Helper()
	wasm := plugintest.Build(t, plugintest.Faults)
	reg := filepath.Join(t.TempDir(), "compact.yaml")
	yaml := fmt.Sprintf("version: 1\ntools:\n  - name: faulty\n    plugin:\n      path: %s\n      timeout: %s\n      memory: 16MiB\n      config: {fault: %q}\n", wasm, timeout, fault)
	if err := os.WriteFile(reg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e, err := New(ctx, append([]Option{WithRegistryFile(reg), WithPluginDir(t.TempDir()), quiet, WithBudget(700)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(ctx) })
	return e, wasm
}

func findAction(as []schemas.Action, kind string) (schemas.Action, bool) {
	for _, a := range as {
		if a.Kind == kind {
			return a, true
		}
	}
	return schemas.Action{}, false
}

// TestEngineFaultFallback: for every misbehaviour of the fault fixture
// the engine answers, within the deadline plus a margin, with the
// declarative rules' result (every record still counted) and an action
// naming the plugin and the fault.
func TestEngineFaultFallback(t *testing.T) {
	input := records(30)
	for _, c := range []struct {
		fault string
		kind  Kind
	}{
		{"trap", KindTrap}, {"loop", KindTimeout}, {"oom", KindMemory}, {"framing", KindFraming},
		{"badheader", KindFraming}, {"bloat", KindSize}, {"drop", KindCount}, {"fail", KindFailed},
	} {
		t.Run(c.fault, func(t *testing.T) {
			timeout := time.Second
			if c.fault == "loop" {
				timeout = 100 * time.Millisecond
			}
			e, wasm := faultEngineTimeout(t, c.fault, timeout.String())
			start := time.Now()
			res, err := e.Compact(context.Background(), Request{Tool: "faulty", Input: input})
			if err != nil {
				t.Fatalf("Compact failed with a faulty plugin: %v", err)
			}
			if took := time.Since(start); c.fault == "loop" && took > timeout+time.Second {
				t.Errorf("answered after %v", took)
			}
			a, ok := findAction(res.Actions, "plugin_failed")
			if !ok {
				t.Fatalf("no plugin_failed action in %+v", res.Actions)
			}
			if a.Target != wasm || !strings.HasPrefix(a.Detail, string(c.kind)+": ") || strings.Contains(a.Detail, "\n") {
				t.Errorf("plugin_failed action = %+v, want target %s and a one-line detail starting %q", a, wasm, c.kind)
			}
			if res.Level != schemas.LevelFields || len(res.Collections) != 1 || res.Collections[0].Count != 30 || res.Collections[0].Shown != 30 {
				t.Errorf("fallback result: level %s, collections %+v", res.Level, res.Collections)
			}
			_, payload := budget.SplitNotice(res.Content)
			if strings.Contains(payload, "node_id") || !strings.Contains(payload, "issue number 29") {
				t.Errorf("content is not the declarative rules' output: %.200s", res.Content)
			}
		})
	}
}

func TestEngineCoolDown(t *testing.T) {
	e, wasm := faultEngine(t, "trap", WithCoolDown(2, time.Hour))
	ctx := context.Background()
	req := Request{Tool: "faulty", Input: records(30)}
	for i := range 2 {
		res, err := e.Compact(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := findAction(res.Actions, "plugin_failed"); !ok {
			t.Fatalf("call %d: no plugin_failed", i)
		}
	}
	p, err := e.plugins.load(ctx, e.reg.Lookup("faulty").Plugin)
	if err != nil {
		t.Fatal(err)
	}
	made := p.made.Load()
	res, err := e.Compact(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := findAction(res.Actions, "plugin_skipped")
	if !ok || a.Target != wasm || !strings.HasPrefix(a.Detail, "cooldown: on cool-down until") || !strings.Contains(a.Detail, "last: trap") {
		t.Fatalf("third call: actions %+v, want plugin_skipped for the cool-down", res.Actions)
	}
	if _, ok := findAction(res.Actions, "plugin_failed"); ok {
		t.Error("a plugin on cool-down was called")
	}
	if p.made.Load() != made {
		t.Error("a plugin on cool-down made an instance")
	}
}

func TestEngineRefusesABI2AtStart(t *testing.T) {
	wasm := plugintest.Build(t, plugintest.Faults, plugintest.FaultsABI2)
	reg := filepath.Join(t.TempDir(), "compact.yaml")
	os.WriteFile(reg, []byte("version: 1\ntools:\n  - name: future\n    plugin: {path: "+wasm+"}\n"), 0o644)
	_, err := New(context.Background(), WithRegistryFile(reg), WithPluginDir(t.TempDir()), quiet)
	var pe *PluginError
	if !errors.As(err, &pe) || pe.Kind != KindABI {
		t.Fatalf("New: %v, want a KindABI error", err)
	}
	for _, want := range []string{`"future"`, reg + ":3", wasm, "ABI version 2; this host speaks version 1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestEngineMissingBuiltinReported(t *testing.T) {
	t.Setenv(EnvPluginDir, "")
	e, err := New(context.Background(), WithPluginDir(t.TempDir()), quiet, WithBudget(700))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	res, err := e.Compact(context.Background(), Request{Tool: "github.issues", Input: records(30)})
	if err != nil {
		t.Fatal(err)
	}
	a, ok := findAction(res.Actions, "plugin_skipped")
	if !ok || a.Target != "builtin:restlist" || !strings.Contains(a.Detail, "go generate ./plugins/...") {
		t.Fatalf("actions %+v, want plugin_skipped naming go generate", res.Actions)
	}
	if res.Collections[0].Count != 30 {
		t.Errorf("collections %+v", res.Collections)
	}
}

func TestEngineRestListPlugin(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(plugintest.Build(t, plugintest.RestList))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "restlist.wasm"), src, 0o644)
	t.Setenv(EnvPluginDir, "")
	e, err := New(context.Background(), WithPluginDir(dir), quiet, WithBudget(700))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	res, err := e.Compact(context.Background(), Request{Tool: "github.issues", Input: records(30), ContentType: "application/json"})
	if err != nil {
		t.Fatal(err)
	}
	a, ok := findAction(res.Actions, "plugin")
	if !ok || a.Target != "builtin:restlist" {
		t.Fatalf("actions %+v, want the restlist plugin to have run", res.Actions)
	}
	if res.Collections[0].Count != 30 || res.Tokens.After > 700 || !strings.Contains(res.Content, "issue number 29") {
		t.Errorf("restlist result: %+v\n%s", res.Tokens, res.Content)
	}
	// What the plugin says it left out reaches the result.
	forwarded := false
	for _, a := range res.Actions {
		forwarded = forwarded || (a.Level == schemas.LevelFields && !strings.HasPrefix(a.Kind, "plugin") && a.Target != "")
	}
	if !forwarded {
		t.Errorf("no action forwarded from the plugin's output header: %+v", res.Actions)
	}
}

// TestEngineCoolDownEnds: after its cool-down a plugin is tried again,
// and a success resets its run of faults.
func TestEngineCoolDownEnds(t *testing.T) {
	e, _ := faultEngine(t, "trap", WithCoolDown(1, 50*time.Millisecond))
	ctx := context.Background()
	req := Request{Tool: "faulty", Input: records(30)}
	kinds := func() string {
		res, err := e.Compact(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, a := range res.Actions {
			if strings.HasPrefix(a.Kind, "plugin") {
				ks = append(ks, a.Kind)
			}
		}
		return strings.Join(ks, ",")
	}
	if got := kinds(); got != "plugin_failed" {
		t.Fatalf("first call: %s", got)
	}
	if got := kinds(); got != "plugin_skipped" {
		t.Fatalf("during the cool-down: %s", got)
	}
	time.Sleep(60 * time.Millisecond)
	if got := kinds(); got != "plugin_failed" {
		t.Fatalf("after the cool-down: %s, want the plugin tried again", got)
	}
}

// TestEngineConcurrent: many goroutines share one engine and one plugin
// pool; every result is the plugin's, with every record counted.
func TestEngineConcurrent(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(plugintest.Build(t, plugintest.RestList))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "restlist.wasm"), src, 0o644)
	reg := filepath.Join(dir, "compact.yaml")
	os.WriteFile(reg, []byte("version: 1\ntools:\n  - name: github.*\n    plugin: {path: builtin:restlist, timeout: 10s}\n"), 0o644)
	t.Setenv(EnvPluginDir, "")
	ctx := context.Background()
	e, err := New(ctx, WithRegistryFile(reg), WithPluginDir(dir), quiet, WithBudget(700), WithPoolSize(2))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	input := records(30)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 5 {
				res, err := e.Compact(ctx, Request{Tool: "github.issues", Input: input})
				if err == nil && (res.Collections[0].Count != 30 || res.Level != schemas.LevelFields) {
					err = fmt.Errorf("result %+v", res.Collections)
				}
				if err == nil {
					if a, ok := findAction(res.Actions, "plugin"); !ok || a.Target != "builtin:restlist" {
						err = fmt.Errorf("the plugin did not run: %+v", res.Actions)
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	p, err := e.plugins.load(ctx, e.reg.Lookup("github.issues").Plugin)
	if err != nil {
		t.Fatal(err)
	}
	if made := p.made.Load(); made > 2 {
		t.Errorf("%d instances made with a pool of 2", made)
	}
}

// TestEngineRestListEnvelope: a GitHub search page is an envelope
// ({total_count, incomplete_results, items}); the registry's records path
// "." names its items. On the old code the host counted the envelope's
// three members as the records, refused the plugin's honest declaration
// of .items ("declares collection .items, which the input does not
// have") and fell back to the declarative rules.
func TestEngineRestListEnvelope(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("..", "testdata", "captured", "github-search-repos.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvPluginDir, "")
	e, err := New(context.Background(), WithStore(st), quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	res, err := e.Compact(context.Background(), Request{Tool: "github.search", Input: in, ContentType: "application/json", Budget: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := findAction(res.Actions, "plugin_failed"); ok {
		t.Fatalf("the restlist plugin failed on an envelope: %+v", a)
	}
	if a, ok := findAction(res.Actions, "plugin"); !ok || a.Target != "builtin:restlist" {
		t.Fatalf("actions %+v, want the restlist plugin to have run", res.Actions)
	}
	if len(res.Collections) == 0 || res.Collections[0].Path != ".items" || res.Collections[0].Count != 100 {
		t.Fatalf("collections %+v, want .items with 100 records", res.Collections)
	}
	if !strings.Contains(res.Content, "total_count: 48213") {
		t.Errorf("the envelope's total_count is not in the view:\n%s", res.Content)
	}
}
