package plugintest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"

	"github.com/toolcompact/compact/plugins/pdk"
)

// The tests in this package run every plugin of the repository, built
// from source, through Extism on wazero the way the host does (WASI on,
// a memory cap, a deadline, close on context done), so that each plugin
// is built once per test binary.

var (
	cacheOnce sync.Once
	cache     wazero.CompilationCache
	compiled  sync.Map // wasm path -> *extism.CompiledPlugin
)

const testMaxPages = 512 // 32 MiB

func compile(t testing.TB, wasm string) *extism.CompiledPlugin {
	t.Helper()
	if p, ok := compiled.Load(wasm); ok {
		return p.(*extism.CompiledPlugin)
	}
	cacheOnce.Do(func() {
		dir, err := CacheDir()
		if err == nil {
			cache, err = wazero.NewCompilationCacheWithDir(filepath.Join(dir, "wazero"))
		}
		if err != nil {
			cache = wazero.NewCompilationCache()
		}
	})
	ctx := context.Background()
	cp, err := extism.NewCompiledPlugin(ctx, extism.Manifest{
		Wasm:   []extism.Wasm{extism.WasmFile{Path: wasm}},
		Memory: &extism.ManifestMemory{MaxPages: testMaxPages},
	}, extism.PluginConfig{
		EnableWasi:    true,
		RuntimeConfig: wazero.NewRuntimeConfig().WithCloseOnContextDone(os.Getenv("NOCLOSE") == "").WithCompilationCache(cache).WithMemoryLimitPages(testMaxPages),
	}, nil)
	if err != nil {
		t.Fatalf("compile %s: %v", wasm, err)
	}
	actual, _ := compiled.LoadOrStore(wasm, cp)
	return actual.(*extism.CompiledPlugin)
}

// instance is one plugin instance for one test.
type instance struct {
	t testing.TB
	p *extism.Plugin
}

func newInstance(t testing.TB, wasm string) *instance {
	t.Helper()
	p, err := compile(t, wasm).Instance(context.Background(), extism.PluginInstanceConfig{
		ModuleConfig: wazero.NewModuleConfig().WithSysWalltime().WithSysNanotime(),
	})
	if err != nil {
		t.Fatalf("instantiate %s: %v", wasm, err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return &instance{t: t, p: p}
}

func (in *instance) abiVersion() int32 {
	in.t.Helper()
	exit, _, err := in.p.Call("compact_abi_version", nil)
	if err != nil {
		in.t.Fatalf("compact_abi_version: %v", err)
	}
	return int32(exit)
}

// call runs compact_result with a framed input built from config and
// payload, under a deadline.
func (in *instance) call(timeout time.Duration, contentType string, config map[string]string, payload []byte) (exit uint32, out []byte, err error) {
	w := pdk.NewWriter(nil)
	w.BeginObject()
	w.Key("abi")
	w.Int(1)
	w.Key("tool")
	w.String("test_tool")
	w.Key("budget_tokens")
	w.Int(4000)
	w.Key("content_type")
	w.String(contentType)
	w.Key("config")
	w.BeginObject()
	for k, v := range config {
		w.Key(k)
		w.String(v)
	}
	w.EndObject()
	w.EndObject()
	input := append(append(w.Bytes(), '\n'), payload...)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return in.p.CallWithContext(ctx, "compact_result", input)
}

// mustCall is call that fails the test unless the plugin succeeds, and
// returns the parsed output header and payload.
func (in *instance) mustCall(contentType string, config map[string]string, payload []byte) (outHeader, []byte) {
	in.t.Helper()
	exit, out, err := in.call(callTimeout, contentType, config, payload)
	if err != nil || exit != 0 {
		in.t.Fatalf("compact_result: exit %d, err %v", exit, err)
	}
	h, body, err := parseOutput(out)
	if err != nil {
		in.t.Fatalf("output framing: %v\n%q", err, firstBytes(out, 300))
	}
	return h, body
}

func firstBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var errNoNewline = errors.New("no newline after output header")

// callTimeout is the deadline of one call in these tests: they check
// behaviour, not speed (benchmarks do that), and a loaded CI machine can
// make a multi-megabyte call take seconds.
const callTimeout = 2 * time.Minute
