package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/plugins/plugintest"
	"github.com/toolcompact/compact/registry"
	"github.com/toolcompact/compact/schemas"
)

// The differential tests run the same plugins on the same inputs on the
// native Extism host ABI (the default) and on extism/go-sdk (the
// reference) and require identical results: the same output bytes, or
// the same fault kind (and, for a plugin's own error message, the same
// message). Plugins: the first-party logs and restlist, the fault
// fixture in every mode, the sandbox probe, the ABI.md example and the
// AssemblyScript example built with the official @extism/as-pdk.

// diffPlugin loads the plugin at path on both runtimes.
func diffPlugin(t *testing.T, path string, memory int64) (native, ref *plugin) {
	t.Helper()
	for _, r := range []Runtime{RuntimeNative, RuntimeExtismSDK} {
		cfg := testConfig(t)
		cfg.runtime = r
		cfg.poolSize = 1
		ps, err := newPluginSet(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ps.close(context.Background()) })
		p, err := ps.load(context.Background(), &registry.Plugin{Path: path, Memory: memory})
		if err != nil {
			t.Fatalf("load %s on %s: %v", path, r, err)
		}
		if r == RuntimeNative {
			native = p
		} else {
			ref = p
		}
	}
	return native, ref
}

// outcome is what one call gave: output bytes or a fault.
type outcome struct {
	out  []byte
	kind Kind
	msg  string
}

func callOutcome(p *plugin, framed []byte, timeout time.Duration) outcome {
	out, err := p.call(context.Background(), framed, timeout)
	if err == nil {
		return outcome{out: out}
	}
	var pe *PluginError
	if !errors.As(err, &pe) {
		return outcome{kind: "not a PluginError", msg: err.Error()}
	}
	o := outcome{kind: pe.Kind}
	if pe.Kind == KindFailed {
		o.msg = pe.Err.Error() // the plugin's own error message
	}
	return o
}

// same runs one framed input on both and compares.
func same(t *testing.T, name string, native, ref *plugin, framed []byte, timeout time.Duration) outcome {
	t.Helper()
	a := callOutcome(native, framed, timeout)
	b := callOutcome(ref, framed, timeout)
	switch {
	case a.kind != b.kind:
		t.Errorf("%s: native gave %s %q, extism-sdk %s %q", name, orOK(a.kind), a.msg, orOK(b.kind), b.msg)
	case a.msg != b.msg:
		t.Errorf("%s: native failed with %q, extism-sdk with %q", name, a.msg, b.msg)
	case string(a.out) != string(b.out):
		t.Errorf("%s: outputs differ (native %d bytes, extism-sdk %d bytes) at byte %d", name, len(a.out), len(b.out), diffAt(a.out, b.out))
	}
	return a
}

func orOK(k Kind) string {
	if k == "" {
		return "output"
	}
	return string(k)
}

func diffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// capturedInputs reads testdata/captured (tool outputs, no questions or
// goldens) up to maxBytes each, smallest first.
func capturedInputs(t *testing.T, maxBytes int64) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir("../testdata/captured")
	if err != nil {
		t.Fatal(err)
	}
	ins := map[string][]byte{}
	for _, e := range ents {
		n := e.Name()
		ext := filepath.Ext(n)
		if strings.Contains(n, ".golden") || (ext != ".json" && ext != ".jsonl" && ext != ".txt") {
			continue
		}
		info, err := e.Info()
		if err != nil || info.Size() > maxBytes {
			continue
		}
		data, err := os.ReadFile(filepath.Join("../testdata/captured", n))
		if err != nil {
			t.Fatal(err)
		}
		ins[n] = data
	}
	// The first 20 GitHub issues, a list restlist compacts, small enough
	// for -short.
	issues, err := os.ReadFile("../testdata/captured/github-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	shape, err := budget.DetectShape(issues, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	first := []byte{'['}
	err = budget.EachRecord(issues, shape, ".", func(i int, raw []byte) error {
		if i < 20 {
			if i > 0 {
				first = append(first, ',')
			}
			first = append(first, raw...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ins["github-issues-20.json"] = append(first, ']')
	if len(ins) < 5 {
		t.Fatalf("only %d captured inputs under %d bytes", len(ins), maxBytes)
	}
	return ins
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func frame(t *testing.T, tool string, config map[string]string, data []byte) []byte {
	t.Helper()
	f, err := EncodeInput(schemas.InputHeader{ABI: 1, Tool: tool, BudgetTokens: 2000, ContentType: budget.Sniff(data), Config: config}, data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDifferentialFirstParty: logs and restlist on every captured input.
func TestDifferentialFirstParty(t *testing.T) {
	maxBytes := int64(4 << 20)
	if testing.Short() {
		maxBytes = 256 << 10
	}
	ins := capturedInputs(t, maxBytes)
	for _, c := range []struct{ pkg, tool string }{{plugintest.Logs, "logs.app"}, {plugintest.RestList, "github.issues"}} {
		t.Run(filepath.Base(c.pkg), func(t *testing.T) {
			native, ref := diffPlugin(t, plugintest.Build(t, c.pkg), 512<<20)
			outputs := 0
			for _, name := range sortedKeys(ins) {
				if o := same(t, name, native, ref, frame(t, c.tool, nil, ins[name]), 60*time.Second); o.kind == "" {
					outputs++
				}
			}
			if outputs == 0 {
				t.Errorf("no input gave an output: nothing was compared")
			}
		})
	}
}

// TestDifferentialAssemblyScript: the example built with the official
// @extism/as-pdk from npm, the proof that plugins built with an official
// PDK run unchanged on the native host.
func TestDifferentialAssemblyScript(t *testing.T) {
	wasm := plugintest.BuildNPM(t, filepath.Join("..", plugintest.ExampleGroupBy))
	native, ref := diffPlugin(t, wasm, 64<<20)
	ins := capturedInputs(t, 1<<20)
	outputs := 0
	for _, by := range []string{"", "state", "nonexistent"} {
		for _, name := range sortedKeys(ins) {
			if o := same(t, name+" by="+by, native, ref, frame(t, "x", map[string]string{"by": by}, ins[name]), 30*time.Second); o.kind == "" {
				outputs++
			}
		}
	}
	if outputs == 0 {
		t.Errorf("no input gave an output: nothing was compared")
	}
}

// TestDifferentialFaults: every mode of the fault fixture, the sandbox
// probes and the ABI.md example give the same outputs and fault kinds.
func TestDifferentialFaults(t *testing.T) {
	native, ref := diffPlugin(t, plugintest.Build(t, plugintest.Faults), 16<<20)
	in := []byte(`[{"id":1},{"id":2},{"id":3}]`)
	want := map[string]Kind{
		"echo": "", "trap": KindTrap, "loop": KindTimeout, "oom": KindMemory, "framing": "", "badheader": "",
		"drop": "", "bloat": "", "fail": KindFailed, "slow:5": "", "spin:1": "", "nonsense": KindFailed,
	}
	for _, mode := range []string{"echo", "trap", "loop", "oom", "framing", "badheader", "drop", "bloat", "fail", "slow:5", "spin:1", "nonsense"} {
		timeout := 10 * time.Second
		if mode == "loop" {
			timeout = 100 * time.Millisecond
		}
		if o := same(t, mode, native, ref, frame(t, "t", map[string]string{"fault": mode}, in), timeout); o.kind != want[mode] {
			t.Errorf("%s: native gave %s, want %s", mode, orOK(o.kind), orOK(want[mode]))
		}
	}

	sn, sr := diffPlugin(t, plugintest.Build(t, "./testdata/guests/sandbox"), 0)
	for _, probe := range []string{"fs", "env", "net", ""} {
		same(t, "sandbox "+probe, sn, sr, frame(t, "t", map[string]string{"probe": probe, "path": "/etc/hostname"}, in), 10*time.Second)
	}
	an, ar := diffPlugin(t, plugintest.Build(t, "./testdata/guests/abiecho"), 0)
	same(t, "abiecho", an, ar, frame(t, "t", nil, in), 10*time.Second)

	// A plugin declaring ABI version 2 is refused at load by both.
	abi2 := plugintest.Build(t, plugintest.Faults, plugintest.FaultsABI2)
	for _, r := range []Runtime{RuntimeNative, RuntimeExtismSDK} {
		_, err := LoadPlugin(context.Background(), abi2, PluginOptions{Runtime: r})
		var pe *PluginError
		if !errors.As(err, &pe) || pe.Kind != KindABI {
			t.Errorf("%s: ABI 2 plugin: %v, want an abi fault", r, err)
		}
	}
}

func TestWithRuntime(t *testing.T) {
	ctx := context.Background()
	if _, err := New(ctx, WithRuntime("wasmtime"), quiet); err == nil || !strings.Contains(err.Error(), `unknown runtime "wasmtime"`) {
		t.Errorf("WithRuntime(wasmtime): %v", err)
	}
	if _, err := LoadPlugin(ctx, "x.wasm", PluginOptions{Runtime: "wasmtime"}); err == nil || !strings.Contains(err.Error(), `unknown runtime "wasmtime"`) {
		t.Errorf("PluginOptions{Runtime: wasmtime}: %v", err)
	}
	for _, r := range []Runtime{RuntimeNative, RuntimeExtismSDK} {
		p, err := LoadPlugin(ctx, plugintest.Build(t, plugintest.Faults), PluginOptions{Runtime: r})
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		out, err := p.Compact(ctx, sampleRequest())
		if err != nil || string(out.Content) != string(sample) {
			t.Errorf("%s: echo = %q, %v", r, out.Content, err)
		}
		p.Close(ctx)
	}
}

// TestDifferentialABIProbe: a guest that calls every Extism host function
// a well-behaved plugin may call (allocation, lengths, loads and stores,
// input, output and error, config, vars, log level, logs, HTTP status and
// headers) and reports what it saw gets the same answers, the same log
// and the same endings (an error message with status 0, proc_exit 0 and
// 3) from both hosts.
func TestDifferentialABIProbe(t *testing.T) {
	path := plugintest.Build(t, "./testdata/guests/abiprobe")
	native, ref := diffPlugin(t, path, 0)
	in := []byte("some tool output\n")
	for _, mode := range []string{"ok", "error0", "exit0", "exit3"} {
		framed := frame(t, "t", map[string]string{"mode": mode}, in)
		o := same(t, mode, native, ref, framed, 10*time.Second)
		switch mode {
		case "ok", "exit0":
			if o.kind != "" || !strings.Contains(string(o.out), "get_log_level 2") {
				t.Errorf("%s: %s %q", mode, orOK(o.kind), o.out)
			}
			// proc_exit(0) answers but closes the module: the instance
			// is thrown away, not pooled for a call that would fail.
			if mode == "exit0" && (native.live.Load() != 0 || ref.live.Load() != 0) {
				t.Errorf("exit0: %d and %d instances kept, want 0", native.live.Load(), ref.live.Load())
			}
		case "error0":
			if o.kind != KindFailed || o.msg != "probe error with status 0" {
				t.Errorf("%s: %s %q", mode, orOK(o.kind), o.msg)
			}
		case "exit3":
			if o.kind != KindTrap {
				t.Errorf("%s: %s", mode, orOK(o.kind))
			}
		}
	}
	// The captured log: info and warn, not debug, in the same words.
	logs := make([]string, 2)
	for k, p := range []*plugin{native, ref} {
		inst, err := p.acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		inst.log.Reset()
		if _, _, err := inst.g.call(context.Background(), schemas.ExportCompactResult, frame(t, "t", nil, in)); err != nil {
			t.Fatal(err)
		}
		logs[k] = inst.log.String()
		p.release(inst, true)
	}
	if logs[0] != logs[1] || logs[0] != "INFO: probe info\nWARN: probe warn\n" {
		t.Errorf("logs: native %q, extism-sdk %q", logs[0], logs[1])
	}
}
