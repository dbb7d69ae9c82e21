package kernel_test

import (
	"context"
	"sort"
	"testing"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"

	"github.com/toolcompact/compact/host/internal/kernel"
)

// goSDKImports is the extism:host/env module of extism/go-sdk v1.7.1
// (host.go, instantiateEnvModule): every name with its parameter and
// result types (0x7e i64, 0x7f i32).
var goSDKImports = []struct {
	name            string
	params, results []byte
}{
	{"alloc", []byte{0x7e}, []byte{0x7e}},
	{"free", []byte{0x7e}, nil},
	{"load_u8", []byte{0x7e}, []byte{0x7f}},
	{"input_load_u8", []byte{0x7e}, []byte{0x7f}},
	{"store_u64", []byte{0x7e, 0x7e}, nil},
	{"store_u8", []byte{0x7e, 0x7f}, nil},
	{"input_set", []byte{0x7e, 0x7e}, nil},
	{"output_set", []byte{0x7e, 0x7e}, nil},
	{"input_length", nil, []byte{0x7e}},
	{"input_offset", nil, []byte{0x7e}},
	{"output_length", nil, []byte{0x7e}},
	{"output_offset", nil, []byte{0x7e}},
	{"length", []byte{0x7e}, []byte{0x7e}},
	{"length_unsafe", []byte{0x7e}, []byte{0x7e}},
	{"reset", nil, nil},
	{"error_set", []byte{0x7e}, nil},
	{"error_get", nil, []byte{0x7e}},
	{"memory_bytes", nil, []byte{0x7e}},
	{"input_load_u64", []byte{0x7e}, []byte{0x7e}},
	{"load_u64", []byte{0x7e}, []byte{0x7e}},
	{"config_get", []byte{0x7e}, []byte{0x7e}},
	{"var_get", []byte{0x7e}, []byte{0x7e}},
	{"var_set", []byte{0x7e, 0x7e}, nil},
	{"http_request", []byte{0x7e, 0x7e}, []byte{0x7e}},
	{"http_status_code", nil, []byte{0x7f}},
	{"http_headers", nil, []byte{0x7e}},
	{"get_log_level", nil, []byte{0x7f}},
	{"log_trace", []byte{0x7e}, nil},
	{"log_debug", []byte{0x7e}, nil},
	{"log_info", []byte{0x7e}, nil},
	{"log_warn", []byte{0x7e}, nil},
	{"log_error", []byte{0x7e}, nil},
}

func uleb(n int) []byte {
	var out []byte
	for {
		b := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}

// importAll assembles a module that imports every function of
// goSDKImports with its signature and exports nothing.
func importAll() []byte {
	section := func(id byte, count int, items []byte) []byte {
		content := append(uleb(count), items...)
		return append(append([]byte{id}, uleb(len(content))...), content...)
	}
	var types, imports []byte
	for i, f := range goSDKImports {
		types = append(types, 0x60, byte(len(f.params)))
		types = append(types, f.params...)
		types = append(types, byte(len(f.results)))
		types = append(types, f.results...)
		imports = append(imports, byte(len(kernel.ModuleName)))
		imports = append(imports, kernel.ModuleName...)
		imports = append(imports, byte(len(f.name)))
		imports = append(imports, f.name...)
		imports = append(imports, 0x00, byte(i))
	}
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	out = append(out, section(1, len(goSDKImports), types)...)
	return append(out, section(2, len(goSDKImports), imports)...)
}

// TestImportsSameAsGoSDK: the native extism:host/env module has exactly
// the functions of extism/go-sdk's, with the same signatures: a module
// importing all of them links on both hosts, and the native module has no
// other function.
func TestImportsSameAsGoSDK(t *testing.T) {
	ctx := context.Background()
	wasm := importAll()
	c, err := kernel.Compile(ctx, wasm, kernel.Options{Runtime: wazero.NewRuntimeConfig()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Instance(ctx, nil, nil); err != nil {
		t.Fatalf("native host: %v", err)
	}
	ref, err := extism.NewPlugin(ctx, extism.Manifest{Wasm: []extism.Wasm{extism.WasmData{Data: wasm}}}, extism.PluginConfig{EnableWasi: true}, nil)
	if err != nil {
		t.Fatalf("extism/go-sdk: %v (the list in this test is wrong)", err)
	}
	ref.Close(ctx)

	var want []string
	for _, f := range goSDKImports {
		want = append(want, f.name)
	}
	got := kernel.HostFuncNames()
	sort.Strings(want)
	sort.Strings(got)
	if len(got) != len(want) {
		t.Fatalf("native module has %d functions, extism/go-sdk's %d:\n%v\n%v", len(got), len(want), got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("native module has %q where extism/go-sdk's has %q", got[i], want[i])
		}
	}
}
