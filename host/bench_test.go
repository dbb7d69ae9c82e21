package host

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/plugins/plugintest"
	"github.com/toolcompact/compact/registry"
	"github.com/toolcompact/compact/schemas"
)

// Reproduce the figures in docs/plugins.md with
//
//	go test ./host -run XXX -bench . -benchtime 2s
//
// (BenchmarkStartup/cold compiles from scratch: add -benchtime 3x.)

var tiny = []byte(`[{"id":1}]`)

// BenchmarkPluginCall: a warm call with a tiny input on a pooled instance
// (target ≤ 50 µs), against a new instance per call (the baseline the
// pool exists to beat).
func BenchmarkPluginCall(b *testing.B) {
	_, p := loadPlugin(b, testConfig(b), plugintest.Faults, 0)
	ctx := context.Background()
	req := budget.Request{Tool: "t", Input: tiny, ContentType: "application/json"}
	c := faultCompactor(p, "echo", time.Second)
	b.Run("pooled", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Compact(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	framed, _ := EncodeInput(schemas.InputHeader{ABI: 1, Tool: "t", ContentType: "application/json", Config: map[string]string{"fault": "echo"}}, tiny)
	b.Run("pooled-raw", func(b *testing.B) {
		for b.Loop() {
			if _, err := p.call(ctx, framed, time.Second); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The floor below our code: an empty export (compact_abi_version takes
	// no input and sets no output) called straight through Extism on one
	// pooled instance, with no deadline. What it costs is Extism's
	// per-call bookkeeping (six kernel functions looked up by name and
	// called from Go) and the Go guest's export entry; see docs/plugins.md.
	b.Run("extism-empty", func(b *testing.B) {
		inst, err := p.acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer p.release(inst, true)
		for b.Loop() {
			if _, _, err := inst.g.call(ctx, schemas.ExportABIVersion, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same echo call straight through Extism with no deadline and no
	// adapter: what pooled-raw costs without our code around it.
	b.Run("extism-echo", func(b *testing.B) {
		inst, err := p.acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer p.release(inst, true)
		for b.Loop() {
			if _, _, err := inst.g.call(ctx, schemas.ExportCompactResult, framed); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same two calls on a runtime without close-on-context-done, which
	// the host needs to stop a looping plugin (see RATIONALE.md): wazero
	// then starts no watcher goroutine per function call (one for the
	// export and one for each Extism kernel function it reaches).
	unstoppable := loadUnstoppable(b, plugintest.Faults)
	for _, c := range []struct {
		name, export string
		in           []byte
	}{{"extism-empty-nostop", schemas.ExportABIVersion, nil}, {"extism-echo-nostop", schemas.ExportCompactResult, framed}} {
		b.Run(c.name, func(b *testing.B) {
			inst, err := unstoppable.acquire(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer unstoppable.release(inst, true)
			for b.Loop() {
				if _, _, err := inst.g.call(ctx, c.export, c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("new-instance", func(b *testing.B) {
		for b.Loop() {
			inst, err := p.acquire(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := inst.g.call(ctx, schemas.ExportCompactResult, framed); err != nil {
				b.Fatal(err)
			}
			p.release(inst, false)
		}
	})
}

// loadUnstoppable loads pkg on a runtime without close-on-context-done,
// for the benchmark only: its calls cannot be stopped by a deadline.
func loadUnstoppable(b *testing.B, pkg string) *plugin {
	b.Helper()
	ctx := context.Background()
	ps, err := newPluginSet(ctx, testConfig(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ps.close(ctx) })
	ps.rtConfig = wazero.NewRuntimeConfig().WithCompilationCache(ps.cache)
	p, err := ps.load(ctx, &registry.Plugin{Path: plugintest.Build(b, pkg)})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// oneMB builds a JSON array of at least 1 MiB of real GitHub issues from
// the captured page, repeating its records.
func oneMB(tb testing.TB) []byte {
	data, err := os.ReadFile("../testdata/captured/github-issues.json")
	if err != nil {
		tb.Fatal(err)
	}
	shape, err := budget.DetectShape(data, []string{"."})
	if err != nil {
		tb.Fatal(err)
	}
	out := []byte{'['}
	for len(out) < 1<<20 {
		err := budget.EachRecord(data, shape, ".", func(i int, raw []byte) error {
			if len(out) >= 1<<20 {
				return nil
			}
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, raw...)
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return append(out, ']')
}

// BenchmarkRestList1MB: 1 MiB of GitHub issues through the first-party
// REST-list plugin end to end (framing, copy in, plugin, copy out,
// verification; target ≥ 20 MB/s), against the declarative level 1 of the
// same registry entry on the same input.
func BenchmarkRestList1MB(b *testing.B) {
	input := oneMB(b)
	ctx := context.Background()
	ent := registry.Default().Lookup("github.issues")
	req := budget.Request{Tool: "github.issues", Input: input, ContentType: "application/json", Budget: 4000, Rules: rulesFromEntry(ent)}
	b.Run("plugin", func(b *testing.B) {
		_, p := loadPlugin(b, testConfig(b), plugintest.RestList, 256<<20)
		c := &compactor{p: p, timeout: 30 * time.Second}
		b.SetBytes(int64(len(input)))
		var out budget.Output
		for b.Loop() {
			var err error
			if out, err = c.Compact(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(out.Content))/float64(len(input)), "out/in")
	})
	b.Run("declarative", func(b *testing.B) {
		d := budget.Declarative()
		b.SetBytes(int64(len(input)))
		var out budget.Output
		for b.Loop() {
			var err error
			if out, err = d.Compact(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(out.Content))/float64(len(input)), "out/in")
	})
}

// BenchmarkStartup: loading one Go plugin (read, check exports, compile,
// instantiate, ask its ABI version) with a warm on-disk compilation cache
// (target ≤ 100 ms) against a cold one.
func BenchmarkStartup(b *testing.B) {
	path := plugintest.Build(b, plugintest.RestList)
	ctx := context.Background()
	load := func(b *testing.B, dir string) {
		p, err := LoadPlugin(ctx, path, PluginOptions{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		p.Close(ctx)
	}
	b.Run("warm", func(b *testing.B) {
		dir := b.TempDir()
		load(b, dir) // fill the cache
		for b.Loop() {
			load(b, dir)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			load(b, b.TempDir())
		}
	})
}

func TestOneMB(t *testing.T) {
	in := oneMB(t)
	if len(in) < 1<<20 || len(in) > 1<<20+64<<10 || !bytes.HasPrefix(in, []byte("[{")) {
		t.Fatalf("oneMB: %d bytes", len(in))
	}
}

// BenchmarkEngine1MB: the same 1 MiB through Engine.Compact end to end
// (registry lookup, level none check, plugin or declarative level 1, the
// pipeline's re-count, exact token count of the result), with the
// restlist plugin and with the declarative rules alone.
func BenchmarkEngine1MB(b *testing.B) {
	input := oneMB(b)
	ctx := context.Background()
	dir := b.TempDir()
	src, err := os.ReadFile(plugintest.Build(b, plugintest.RestList))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(dir+"/restlist.wasm", src, 0o644); err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, e *Engine, wantPlugin bool) {
		defer e.Close(ctx)
		b.SetBytes(int64(len(input)))
		for b.Loop() {
			res, err := e.Compact(ctx, Request{Tool: "github.issues", Input: input, ContentType: "application/json", Budget: 400000})
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := findAction(res.Actions, "plugin"); ok != wantPlugin {
				b.Fatalf("plugin ran: %v, want %v (%+v)", ok, wantPlugin, res.Actions[:1])
			}
		}
	}
	b.Run("plugin", func(b *testing.B) {
		reg := dir + "/slow.yaml"
		os.WriteFile(reg, []byte("version: 1\ntools:\n  - name: github.*\n    records: [\".\"]\n    plugin: {path: builtin:restlist, timeout: 30s, memory: 256MiB}\n"), 0o644)
		e, err := New(ctx, WithRegistryFile(reg), WithPluginDir(dir), quiet)
		if err != nil {
			b.Fatal(err)
		}
		run(b, e, true)
	})
	b.Run("declarative", func(b *testing.B) {
		reg := dir + "/none.yaml"
		os.WriteFile(reg, []byte("version: 1\ntools:\n  - name: github.*\n    records: [\".\"]\n"), 0o644)
		e, err := New(ctx, WithRegistryFile(reg), WithPluginDir(dir), quiet)
		if err != nil {
			b.Fatal(err)
		}
		run(b, e, false)
	})
}
