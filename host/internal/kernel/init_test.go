package kernel_test

import (
	"context"
	"testing"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"

	"github.com/toolcompact/compact/host/internal/kernel"
)

// wfunc is one function of a hand-assembled module: its parameter and
// result value types, its body (without the trailing end) and its export
// name.
type wfunc struct {
	params, results []byte
	body            []byte
	export          string
}

// assemble builds a module with one mutable i32 global (0) and funcs.
func assemble(funcs []wfunc) []byte {
	vec := func(items ...[]byte) []byte {
		out := []byte{byte(len(items))}
		for _, it := range items {
			out = append(out, it...)
		}
		return out
	}
	section := func(id byte, content []byte) []byte {
		return append([]byte{id, byte(len(content))}, content...)
	}
	var types, decls, exports, codes [][]byte
	for i, f := range funcs {
		t := append([]byte{0x60, byte(len(f.params))}, f.params...)
		t = append(append(t, byte(len(f.results))), f.results...)
		types = append(types, t)
		decls = append(decls, []byte{byte(i)})
		exports = append(exports, append(append([]byte{byte(len(f.export))}, f.export...), 0x00, byte(i)))
		body := append(append([]byte{0x00}, f.body...), 0x0b) // no locals
		codes = append(codes, append([]byte{byte(len(body))}, body...))
	}
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	out = append(out, section(1, vec(types...))...)
	out = append(out, section(3, vec(decls...))...)
	out = append(out, section(6, vec([]byte{0x7f, 0x01, 0x41, 0x00, 0x0b}))...)
	out = append(out, section(7, vec(exports...))...)
	return append(out, section(10, vec(codes...))...)
}

// add returns a body adding n (below 64: one signed LEB128 byte) to
// global 0.
func add(n byte) []byte { return []byte{0x23, 0x00, 0x41, n, 0x6a, 0x24, 0x00} }

var get = wfunc{results: []byte{0x7f}, body: []byte{0x23, 0x00}, export: "get"}

// TestRuntimeInitSameAsExtism: the guest runtime initialisation (none, a
// WASI reactor's _initialize, a command's __wasm_call_ctors, the reactor
// preferred over the command, a reactor entry with parameters skipped,
// Haskell's hs_init after _initialize) runs exactly as under
// extism/go-sdk: once, before the first call, and the same functions.
func TestRuntimeInitSameAsExtism(t *testing.T) {
	i32 := []byte{0x7f}
	cases := []struct {
		name  string
		funcs []wfunc
		want  uint32
	}{
		{"none", []wfunc{get}, 0},
		{"reactor", []wfunc{get, {body: add(1), export: "_initialize"}}, 1},
		{"command", []wfunc{get, {body: add(50), export: "__wasm_call_ctors"}}, 50},
		{"reactor before command", []wfunc{get, {body: add(1), export: "_initialize"}, {body: add(50), export: "__wasm_call_ctors"}}, 1},
		{"reactor with parameters skipped", []wfunc{get, {params: i32, body: add(1), export: "_initialize"}, {body: add(50), export: "__wasm_call_ctors"}}, 50},
		{"haskell", []wfunc{get, {params: []byte{0x7f, 0x7f}, body: add(10), export: "hs_init"}, {body: add(1), export: "_initialize"}}, 11},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wasm := assemble(c.funcs)
			comp, err := kernel.Compile(ctx, wasm, kernel.Options{Runtime: wazero.NewRuntimeConfig().WithCloseOnContextDone(true)})
			if err != nil {
				t.Fatal(err)
			}
			defer comp.Close(ctx)
			inst, err := comp.Instance(ctx, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := extism.NewPlugin(ctx, extism.Manifest{Wasm: []extism.Wasm{extism.WasmData{Data: wasm}}}, extism.PluginConfig{EnableWasi: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Close(ctx)
			for call := range 2 {
				got, _, err := inst.Call(ctx, "get", nil)
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := ref.CallWithContext(ctx, "get", nil)
				if err != nil {
					t.Fatal(err)
				}
				if got != want || got != c.want {
					t.Errorf("call %d: native %d, extism/go-sdk %d, want %d", call+1, got, want, c.want)
				}
			}
		})
	}
}
