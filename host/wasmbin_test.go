package host

import (
	"os"
	"strings"
	"testing"

	"github.com/toolcompact/compact/plugins/plugintest"
)

func TestExportedFuncs(t *testing.T) {
	bin, err := os.ReadFile(plugintest.Build(t, plugintest.Faults))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := exportedFuncs(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"compact_result", "compact_abi_version"} {
		if got := ex[name].String(); got != "() -> (i32)" {
			t.Errorf("%s: %s, want () -> (i32)", name, got)
		}
	}
	if _, ok := ex["_initialize"]; !ok {
		t.Error("no _initialize export found in a c-shared Go module")
	}
	// A hand-made module: type () -> i64, one function, exported as
	// compact_result.
	mod := []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x05\x01\x60\x00\x01\x7e" + // type section: [() -> i64]
		"\x03\x02\x01\x00" + // function section: [type 0]
		"\x07\x12\x01\x0ecompact_result\x00\x00" + // export section
		"\x0a\x04\x01\x02\x00\x0b") // code section (skipped)
	ex, err = exportedFuncs(mod)
	if err != nil {
		t.Fatal(err)
	}
	if got := ex["compact_result"].String(); got != "() -> (i64)" {
		t.Errorf("hand-made module: %s", got)
	}
	_, err = checkExports("p", "m.wasm", mod)
	if err == nil || !strings.Contains(err.Error(), `export "compact_result" has signature () -> (i64), want () -> i32`) {
		t.Errorf("checkExports: %v", err)
	}
	for _, bad := range []string{"", "\x00asm", "\x00asm\x02\x00\x00\x00", "\x00asm\x01\x00\x00\x00\x01\x05\x01\x60", "\x00asm\x01\x00\x00\x00\x07\x05\x01\x09ab"} {
		if _, err := exportedFuncs([]byte(bad)); err == nil {
			t.Errorf("exportedFuncs(%q) accepted a broken module", bad)
		}
	}
}

// FuzzExportedFuncs: the section reader never panics or hangs on any
// bytes, and rendering what it returns does not panic either. (It does
// not check value types: an unknown one renders as its hex byte.)
func FuzzExportedFuncs(f *testing.F) {
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x01\x05\x01\x60\x00\x01\x7f\x03\x02\x01\x00\x07\x12\x01\x0ecompact_result\x00\x00"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x02\x0b\x01\x01m\x01n\x02\x01\x01\x02\x01\x02"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4096 {
			return
		}
		ex, err := exportedFuncs(b)
		if err != nil {
			return
		}
		for name, sig := range ex {
			_ = sig.String()
			_ = name
		}
	})
}
