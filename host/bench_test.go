package host

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
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

// runtimes are the two implementations of the Extism host ABI, the
// default first.
var runtimes = []Runtime{RuntimeNative, RuntimeExtismSDK}

// cpuTime is the CPU time (user and system) the process has used: under
// the shared machine's load, wall time per call is several times the CPU
// time a call takes.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadOn loads pkg on runtime r with close-on-context-done (stop) or
// without it (the latter for the benchmark only: such calls cannot be
// stopped by a deadline).
func loadOn(b *testing.B, r Runtime, pkg string, memory int64, stop bool) *plugin {
	b.Helper()
	ctx := context.Background()
	cfg := testConfig(b)
	cfg.runtime = r
	ps, err := newPluginSet(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ps.close(ctx) })
	if !stop {
		ps.rtConfig = wazero.NewRuntimeConfig().WithCompilationCache(ps.cache)
	}
	p, err := ps.load(ctx, &registry.Plugin{Path: plugintest.Build(b, pkg), Memory: memory})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPluginCall: a warm call with a tiny input on a pooled instance
// (target ≤ 50 µs), on the native Extism host ABI (the default) and on
// extism/go-sdk, the reference host, in the same run:
//
//   - <runtime>/pooled: compactor.Compact (frame, call with a deadline,
//     decode, verify), the figure;
//   - <runtime>/raw: plugin.call only (pool, deadline, log reset);
//   - <runtime>/empty: compact_abi_version (no input, no output) on one
//     pooled instance with no deadline: the per-call floor of the runtime;
//   - <runtime>/echo-nostop, empty-nostop: the same on a runtime without
//     close-on-context-done (which the host requires; see RATIONALE.md),
//     to show what wazero's deadline checks cost;
//   - <runtime>/new-instance: a new instance per call, the baseline the
//     pool exists to beat;
//   - interleaved: one native and one extism-sdk Compact per iteration,
//     reporting both times and their ratio from the same moments of load.
func BenchmarkPluginCall(b *testing.B) {
	ctx := context.Background()
	req := budget.Request{Tool: "t", Input: tiny, ContentType: "application/json"}
	framed, _ := EncodeInput(schemas.InputHeader{ABI: 1, Tool: "t", ContentType: "application/json", Config: map[string]string{"fault": "echo"}}, tiny)
	loaded := map[Runtime]*plugin{}
	for _, r := range runtimes {
		p := loadOn(b, r, plugintest.Faults, 0, true)
		loaded[r] = p
		c := faultCompactor(p, "echo", time.Second)
		b.Run(string(r)+"/pooled", func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := c.Compact(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/1e3, "cpu-µs/op")
		})
		b.Run(string(r)+"/raw", func(b *testing.B) {
			for b.Loop() {
				if _, err := p.call(ctx, framed, time.Second); err != nil {
					b.Fatal(err)
				}
			}
		})
		direct := func(p *plugin, export string, in []byte) func(b *testing.B) {
			return func(b *testing.B) {
				inst, err := p.acquire(ctx)
				if err != nil {
					b.Fatal(err)
				}
				defer p.release(inst, true)
				for b.Loop() {
					if _, _, err := inst.g.call(ctx, export, in); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		b.Run(string(r)+"/empty", direct(p, schemas.ExportABIVersion, nil))
		unstoppable := loadOn(b, r, plugintest.Faults, 0, false)
		b.Run(string(r)+"/empty-nostop", direct(unstoppable, schemas.ExportABIVersion, nil))
		b.Run(string(r)+"/echo-nostop", direct(unstoppable, schemas.ExportCompactResult, framed))
		b.Run(string(r)+"/new-instance", func(b *testing.B) {
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
	// The same tiny call into the AssemblyScript example, built with the
	// official @extism/as-pdk: its functions have no loop prologue (Go's
	// WebAssembly functions each open with one), so wazero's deadline
	// checks cost it little.
	for _, r := range runtimes {
		b.Run(string(r)+"/as-pdk-pooled", func(b *testing.B) {
			wasm := plugintest.BuildNPM(b, "../"+plugintest.ExampleGroupBy)
			cfg := testConfig(b)
			cfg.runtime = r
			ps, err := newPluginSet(ctx, cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer ps.close(ctx)
			p, err := ps.load(ctx, &registry.Plugin{Path: wasm})
			if err != nil {
				b.Fatal(err)
			}
			c := &compactor{p: p, config: map[string]string{"by": "id"}, timeout: time.Second}
			for b.Loop() {
				if _, err := c.Compact(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("interleaved", func(b *testing.B) {
		native := faultCompactor(loaded[RuntimeNative], "echo", time.Second)
		ref := faultCompactor(loaded[RuntimeExtismSDK], "echo", time.Second)
		var tn, tr, cn, cr time.Duration
		for b.Loop() {
			t0, c0 := time.Now(), cpuTime()
			if _, err := native.Compact(ctx, req); err != nil {
				b.Fatal(err)
			}
			t1, c1 := time.Now(), cpuTime()
			if _, err := ref.Compact(ctx, req); err != nil {
				b.Fatal(err)
			}
			tn += t1.Sub(t0)
			tr += time.Since(t1)
			cn += c1 - c0
			cr += cpuTime() - c1
		}
		n := float64(b.N)
		b.ReportMetric(float64(tn.Microseconds())/n, "native-µs/call")
		b.ReportMetric(float64(tr.Microseconds())/n, "extism-sdk-µs/call")
		b.ReportMetric(float64(tr)/float64(tn), "extism-sdk/native")
		b.ReportMetric(float64(cn.Microseconds())/n, "native-cpu-µs/call")
		b.ReportMetric(float64(cr.Microseconds())/n, "extism-sdk-cpu-µs/call")
	})
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
	for _, r := range runtimes {
		name := "plugin"
		if r != RuntimeNative {
			name += "-" + string(r)
		}
		b.Run(name, func(b *testing.B) {
			p := loadOn(b, r, plugintest.RestList, 256<<20, true)
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
	}
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
// (target ≤ 100 ms) against a cold one, on both runtimes.
func BenchmarkStartup(b *testing.B) {
	path := plugintest.Build(b, plugintest.RestList)
	ctx := context.Background()
	for _, r := range runtimes {
		load := func(b *testing.B, dir string) {
			p, err := LoadPlugin(ctx, path, PluginOptions{CacheDir: dir, Runtime: r})
			if err != nil {
				b.Fatal(err)
			}
			p.Close(ctx)
		}
		if r == RuntimeNative {
			// The same cold load compiling on one goroutine, as before
			// compilation workers were used.
			b.Run(string(r)+"/cold-1worker", func(b *testing.B) {
				for b.Loop() {
					cfg := testConfig(b)
					cfg.cacheDir = b.TempDir()
					cfg.compileWorkers = 1
					ps, err := newPluginSet(ctx, cfg)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := ps.load(ctx, &registry.Plugin{Path: path}); err != nil {
						b.Fatal(err)
					}
					ps.close(ctx)
				}
			})
		}
		b.Run(string(r)+"/warm", func(b *testing.B) {
			dir := b.TempDir()
			load(b, dir) // fill the cache
			for b.Loop() {
				load(b, dir)
			}
		})
		b.Run(string(r)+"/cold", func(b *testing.B) {
			for b.Loop() {
				load(b, b.TempDir())
			}
		})
	}
}

// BenchmarkStartupInterleaved: one warm load on each runtime per
// iteration, reporting both and their ratio from the same moments of load.
func BenchmarkStartupInterleaved(b *testing.B) {
	path := plugintest.Build(b, plugintest.RestList)
	ctx := context.Background()
	dir := b.TempDir()
	load := func(r Runtime) time.Duration {
		start := time.Now()
		p, err := LoadPlugin(ctx, path, PluginOptions{CacheDir: dir, Runtime: r})
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		p.Close(ctx)
		return took
	}
	load(RuntimeNative) // fill the cache for both
	load(RuntimeExtismSDK)
	var tn, tr time.Duration
	for b.Loop() {
		tn += load(RuntimeNative)
		tr += load(RuntimeExtismSDK)
	}
	b.ReportMetric(float64(tn.Milliseconds())/float64(b.N), "native-ms/load")
	b.ReportMetric(float64(tr.Milliseconds())/float64(b.N), "extism-sdk-ms/load")
	b.ReportMetric(float64(tr)/float64(tn), "extism-sdk/native")
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
// restlist plugin and with the declarative rules alone. The budget (200k
// tokens) is below the input's ~324k, so level 1 runs, and above what
// either level 1 gives, so nothing further does.
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
			res, err := e.Compact(ctx, Request{Tool: "github.issues", Input: input, ContentType: "application/json", Budget: 200000})
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := findAction(res.Actions, "plugin"); ok != wantPlugin {
				b.Fatalf("plugin ran: %v, want %v (level %s, tokens %+v, actions %+v)", ok, wantPlugin, res.Level, res.Tokens, res.Actions)
			}
		}
	}
	for _, r := range runtimes {
		name := "plugin"
		if r != RuntimeNative {
			name += "-" + string(r)
		}
		b.Run(name, func(b *testing.B) {
			reg := dir + "/slow.yaml"
			os.WriteFile(reg, []byte("version: 1\ntools:\n  - name: github.*\n    records: [\".\"]\n    plugin: {path: builtin:restlist, timeout: 30s, memory: 256MiB}\n"), 0o644)
			e, err := New(ctx, WithRegistryFile(reg), WithPluginDir(dir), WithRuntime(r), quiet)
			if err != nil {
				b.Fatal(err)
			}
			run(b, e, true)
		})
	}
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

// BenchmarkVerifyContent: the content checks (ABI.md §4) against the plugin
// call they verify, on the bundled corpus (testdata/captured; restlist on
// JSON, logs on text and JSON Lines), both timed in the same iterations:
// check/call is the cost of the checks as a fraction of the calls
// (target ≤ 0.20). Inputs a plugin declines are skipped.
func BenchmarkVerifyContent(b *testing.B) {
	ctx := context.Background()
	plugins := map[string]*plugin{
		"restlist": loadOn(b, RuntimeNative, plugintest.RestList, 256<<20, true),
		"logs":     loadOn(b, RuntimeNative, plugintest.Logs, 256<<20, true),
	}
	type job struct {
		name  string
		p     *plugin
		input []byte
		frame []byte
		shape budget.Shape
	}
	var jobs []job
	ents, err := os.ReadDir("../testdata/captured")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range ents {
		n := e.Name()
		ext := filepath.Ext(n)
		if ext != ".json" && ext != ".jsonl" && ext != ".txt" {
			continue
		}
		data, err := os.ReadFile(filepath.Join("../testdata/captured", n))
		if err != nil {
			b.Fatal(err)
		}
		p := plugins["logs"]
		if ext == ".json" {
			p = plugins["restlist"]
		}
		shape, err := budget.DetectShape(data, nil)
		if err != nil {
			continue
		}
		fr, err := EncodeInput(schemas.InputHeader{ABI: 1, Tool: "t", BudgetTokens: 4000, ContentType: shape.ContentType}, data)
		if err != nil {
			b.Fatal(err)
		}
		out, err := p.call(ctx, fr, 30*time.Second)
		if err != nil {
			continue // declined
		}
		hdr, payload, err := DecodeOutput(out)
		if err != nil || budget.CheckOutput(shape, budget.Output{Content: payload, ContentType: hdr.ContentType, Declared: hdr.Collections}) != nil {
			continue
		}
		if err := verifyContent(data, shape, budget.Output{Content: payload, ContentType: hdr.ContentType, Declared: hdr.Collections}, nil); err != nil {
			b.Fatalf("%s: the first-party plugin's output fails the content checks: %v", n, err)
		}
		jobs = append(jobs, job{n, p, data, fr, shape})
	}
	if len(jobs) == 0 {
		b.Fatal("no input of the bundled corpus was compacted")
	}
	var total int64
	for _, j := range jobs {
		total += int64(len(j.input))
	}
	b.SetBytes(total)
	var call, check time.Duration
	for b.Loop() {
		for _, j := range jobs {
			t0 := time.Now()
			out, err := j.p.call(ctx, j.frame, 30*time.Second)
			if err != nil {
				b.Fatal(err)
			}
			hdr, payload, err := DecodeOutput(out)
			if err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			if err := verifyContent(j.input, j.shape, budget.Output{Content: payload, ContentType: hdr.ContentType, Declared: hdr.Collections}, nil); err != nil {
				b.Fatal(err)
			}
			call += t1.Sub(t0)
			check += time.Since(t1)
		}
	}
	b.ReportMetric(float64(check)/float64(call), "check/call")
	b.ReportMetric(float64(len(jobs)), "inputs")
}
