package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/artifact"
)

// wasmModule assembles a WebAssembly module from its sections (id, body),
// adding the magic, the version and every section's size.
func wasmModule(sections ...[]byte) []byte {
	out := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		out = append(out, s[0])
		out = appendULEB(out, uint64(len(s)-1))
		out = append(out, s[1:]...)
	}
	return out
}

func appendULEB(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			c |= 0x80
		}
		b = append(b, c)
		if v == 0 {
			return b
		}
	}
}

// wasmName is a name as the binary format writes it: length, bytes.
func wasmName(s string) []byte { return append(appendULEB(nil, uint64(len(s))), s...) }

// wasmVec is a vector: count, then the items.
func wasmVec(items ...[]byte) []byte {
	out := appendULEB(nil, uint64(len(items)))
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// abiV1OutputHeader is the output header abiV1OnlyWasm writes.
const abiV1OutputHeader = `{"abi":1,"content_type":"text/plain","collections":[]}` + "\n"

// abiV1OnlyWasm is a plugin written to ABI v1 as it was first stated: it
// exports compact_result and nothing else (no compact_abi_version, no
// WASI). It answers abiV1OutputHeader (from its data segment) followed by
// the input's payload unchanged:
//
//	(module
//	  (import "extism:host/env" "input_length" (func $len (result i64)))
//	  (import "extism:host/env" "input_load_u8" (func $load (param i64) (result i32)))
//	  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
//	  (import "extism:host/env" "store_u8" (func $store (param i64 i32)))
//	  (import "extism:host/env" "output_set" (func $out (param i64 i64)))
//	  (memory 1)
//	  (data (i32.const 0) "{\"abi\":1,...}\n")          ;; H bytes
//	  (func (export "compact_result") (result i32) (local $n i64) (local $p i64) (local $i i64) (local $k i64)
//	    (local.set $n (call $len))
//	    (block (loop                                  ;; $i = index of the first newline
//	      (br_if 1 (i64.ge_u (local.get $i) (local.get $n)))
//	      (br_if 1 (i32.eq (call $load (local.get $i)) (i32.const 10)))
//	      (local.set $i (i64.add (local.get $i) (i64.const 1))) (br 0)))
//	    (local.set $i (i64.add (local.get $i) (i64.const 1)))
//	    (local.set $p (call $alloc (i64.sub (i64.add (i64.const H) (local.get $n)) (local.get $i))))
//	    (block (loop                                  ;; the header from memory
//	      (br_if 1 (i64.ge_u (local.get $k) (i64.const H)))
//	      (call $store (i64.add (local.get $p) (local.get $k)) (i32.load8_u (i32.wrap_i64 (local.get $k))))
//	      (local.set $k (i64.add (local.get $k) (i64.const 1))) (br 0)))
//	    (block (loop                                  ;; the payload from the input
//	      (br_if 1 (i64.ge_u (local.get $i) (local.get $n)))
//	      (call $store (i64.add (local.get $p) (local.get $k)) (call $load (local.get $i)))
//	      (local.set $i (i64.add (local.get $i) (i64.const 1)))
//	      (local.set $k (i64.add (local.get $k) (i64.const 1))) (br 0)))
//	    (call $out (local.get $p) (local.get $k))
//	    (i32.const 0)))
func abiV1OnlyWasm() []byte {
	const i64, i32 = 0x7e, 0x7f
	const h = byte(len(abiV1OutputHeader)) // < 64: one byte of signed LEB128
	fn := func(params, results []byte) []byte {
		return cat([]byte{0x60}, wasmVec(bytesEach(params)...), wasmVec(bytesEach(results)...))
	}
	types := cat([]byte{1}, wasmVec(
		fn(nil, []byte{i64}),         // 0: input_length
		fn([]byte{i64}, []byte{i32}), // 1: input_load_u8
		fn([]byte{i64}, []byte{i64}), // 2: alloc
		fn([]byte{i64, i32}, nil),    // 3: store_u8
		fn([]byte{i64, i64}, nil),    // 4: output_set
		fn(nil, []byte{i32}),         // 5: compact_result
	))
	imp := func(name string, typ byte) []byte {
		return cat(wasmName("extism:host/env"), wasmName(name), []byte{0x00, typ})
	}
	imports := cat([]byte{2}, wasmVec(imp("input_length", 0), imp("input_load_u8", 1), imp("alloc", 2), imp("store_u8", 3), imp("output_set", 4)))
	funcs := cat([]byte{3}, wasmVec([]byte{5}))
	memory := cat([]byte{5}, wasmVec([]byte{0x00, 0x01}))
	exports := cat([]byte{7}, wasmVec(cat(wasmName("compact_result"), []byte{0x00, 5})))
	const n, p, i, k = 0, 1, 2, 3
	incr := func(l byte) []byte { return []byte{0x20, l, 0x42, 1, 0x7c, 0x21, l} }
	body := cat(
		[]byte{0x01, 0x04, i64}, // locals $n $p $i $k
		[]byte{0x10, 0, 0x21, n},
		[]byte{0x02, 0x40, 0x03, 0x40},
		[]byte{0x20, i, 0x20, n, 0x5a, 0x0d, 1},
		[]byte{0x20, i, 0x10, 1, 0x41, 10, 0x46, 0x0d, 1},
		incr(i), []byte{0x0c, 0, 0x0b, 0x0b},
		incr(i),
		[]byte{0x42, h, 0x20, n, 0x7c, 0x20, i, 0x7d, 0x10, 2, 0x21, p},
		[]byte{0x02, 0x40, 0x03, 0x40},
		[]byte{0x20, k, 0x42, h, 0x5a, 0x0d, 1},
		[]byte{0x20, p, 0x20, k, 0x7c, 0x20, k, 0xa7, 0x2d, 0, 0, 0x10, 3},
		incr(k), []byte{0x0c, 0, 0x0b, 0x0b},
		[]byte{0x02, 0x40, 0x03, 0x40},
		[]byte{0x20, i, 0x20, n, 0x5a, 0x0d, 1},
		[]byte{0x20, p, 0x20, k, 0x7c, 0x20, i, 0x10, 1, 0x10, 3},
		incr(i), incr(k), []byte{0x0c, 0, 0x0b, 0x0b},
		[]byte{0x20, p, 0x20, k, 0x10, 4, 0x41, 0, 0x0b},
	)
	code := cat([]byte{10}, wasmVec(cat(appendULEB(nil, uint64(len(body))), body)))
	data := cat([]byte{11}, wasmVec(cat([]byte{0x00, 0x41, 0x00, 0x0b}, wasmName(abiV1OutputHeader))))
	return wasmModule(types, imports, funcs, memory, exports, code, data)
}

func bytesEach(b []byte) [][]byte {
	out := make([][]byte, len(b))
	for i := range b {
		out[i] = b[i : i+1]
	}
	return out
}

// TestABIV1PluginWithoutVersionExportLoads: a module that exports only
// compact_result speaks ABI v1 (the version also travels in every header)
// and loads and runs on both runtimes; before, the host refused it for
// not exporting compact_abi_version, an incompatible change of the ABI.
func TestABIV1PluginWithoutVersionExportLoads(t *testing.T) {
	mod := abiV1OnlyWasm()
	exports, err := exportedFuncs(mod)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := exports["compact_abi_version"]; ok || len(exports) != 1 {
		t.Fatalf("fixture exports %v, want compact_result only", exports)
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "v1only.wasm")
	if err := os.WriteFile(wasm, mod, 0o644); err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(dir, "compact.yaml")
	// A byte at a time through host calls is slow on a busy machine: a
	// generous deadline, the fixture's speed is not what is tested.
	os.WriteFile(reg, []byte("version: 1\ntools:\n  - name: old\n    plugin: {path: "+wasm+", timeout: 10s}\n"), 0o644)
	input := []byte(strings.Repeat("GET /health 200 ok\n", 200))
	for _, rt := range []Runtime{RuntimeNative, RuntimeExtismSDK} {
		t.Run(string(rt), func(t *testing.T) {
			ctx := context.Background()
			st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
			if err != nil {
				t.Fatal(err)
			}
			e, err := New(ctx, WithStore(st), WithRegistryFile(reg), WithPluginDir(t.TempDir()), WithCompilationCache(""), WithRuntime(rt), quiet)
			if err != nil {
				t.Fatalf("New with an ABI v1 plugin exporting only compact_result: %v", err)
			}
			defer e.Close(ctx)
			res, err := e.Compact(ctx, Request{Tool: "old", Input: input, ContentType: "text/plain", Budget: 400})
			if err != nil {
				t.Fatal(err)
			}
			a, ok := findAction(res.Actions, "plugin")
			if !ok || a.Target != wasm {
				b, _ := json.Marshal(res.Actions)
				t.Fatalf("the plugin did not run: actions %s", b)
			}
			if a.Kind == "" || len(res.Collections) != 1 || res.Collections[0].Count != 200 {
				b, _ := json.Marshal(res)
				t.Errorf("result %s, want 200 lines counted", b)
			}
		})
	}
}

// TestABIVersionExportStillChecked: a module that does export
// compact_abi_version must still declare a version this host speaks, with
// the right signature.
func TestABIVersionExportStillChecked(t *testing.T) {
	// compact_result () -> i32 and compact_abi_version () -> i64.
	mod := wasmModule(
		cat([]byte{1}, wasmVec([]byte{0x60, 0, 1, 0x7f}, []byte{0x60, 0, 1, 0x7e})),
		cat([]byte{3}, wasmVec([]byte{0}, []byte{1})),
		cat([]byte{7}, wasmVec(cat(wasmName("compact_result"), []byte{0, 0}), cat(wasmName("compact_abi_version"), []byte{0, 1}))),
		cat([]byte{10}, wasmVec([]byte{4, 0, 0x41, 0, 0x0b}, []byte{4, 0, 0x42, 1, 0x0b})),
	)
	path := filepath.Join(t.TempDir(), "badsig.wasm")
	os.WriteFile(path, mod, 0o644)
	_, err := LoadPlugin(context.Background(), path, PluginOptions{})
	var pe *PluginError
	if !errors.As(err, &pe) || pe.Kind != KindABI || !strings.Contains(err.Error(), `export "compact_abi_version" has signature () -> (i64), want () -> i32`) {
		t.Fatalf("LoadPlugin: %v, want a KindABI signature error", err)
	}
}
