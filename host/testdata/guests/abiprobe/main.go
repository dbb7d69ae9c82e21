//go:build wasip1

// Command abiprobe is a test guest that calls every function of the
// Extism host ABI ("extism:host/env") that a well-behaved plugin may call
// and reports what it saw, one line each, as its output, so that the
// differential test can require the same answers from compact's native
// host and from extism/go-sdk. Offsets are never printed (each host lays
// out its memory its own way), only what a plugin may rely on. The
// "mode" config key picks an ending: "ok" (the default) returns 0 with
// the report, "error0" sets an error message and still returns 0,
// "exit0" and "exit3" call proc_exit.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/toolcompact/compact/plugins/pdk"
)

//go:wasmimport extism:host/env alloc
func alloc(n uint64) uint64

//go:wasmimport extism:host/env free
func free(p uint64)

//go:wasmimport extism:host/env length
func length(p uint64) uint64

//go:wasmimport extism:host/env length_unsafe
func lengthUnsafe(p uint64) uint64

//go:wasmimport extism:host/env load_u8
func loadU8(p uint64) uint32

//go:wasmimport extism:host/env load_u64
func loadU64(p uint64) uint64

//go:wasmimport extism:host/env store_u8
func storeU8(p uint64, v uint32)

//go:wasmimport extism:host/env store_u64
func storeU64(p uint64, v uint64)

//go:wasmimport extism:host/env input_length
func inputLength() uint64

//go:wasmimport extism:host/env input_offset
func inputOffset() uint64

//go:wasmimport extism:host/env input_load_u8
func inputLoadU8(i uint64) uint32

//go:wasmimport extism:host/env input_load_u64
func inputLoadU64(i uint64) uint64

//go:wasmimport extism:host/env output_length
func outputLength() uint64

//go:wasmimport extism:host/env output_offset
func outputOffset() uint64

//go:wasmimport extism:host/env error_get
func errorGet() uint64

//go:wasmimport extism:host/env error_set
func errorSet(p uint64)

//go:wasmimport extism:host/env config_get
func configGet(p uint64) uint64

//go:wasmimport extism:host/env var_get
func varGet(p uint64) uint64

//go:wasmimport extism:host/env get_log_level
func getLogLevel() int32

//go:wasmimport extism:host/env log_info
func logInfo(p uint64)

//go:wasmimport extism:host/env log_debug
func logDebug(p uint64)

//go:wasmimport extism:host/env log_warn
func logWarn(p uint64)

//go:wasmimport extism:host/env http_status_code
func httpStatusCode() int32

//go:wasmimport extism:host/env http_headers
func httpHeaders() uint64

func main() {}

func write(s string) uint64 {
	p := alloc(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		storeU8(p+uint64(i), uint32(s[i]))
	}
	return p
}

func read(p uint64) string {
	n := length(p)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(loadU8(p + uint64(i)))
	}
	return string(b)
}

//go:wasmexport compact_abi_version
func abiVersion() int32 { return pdk.ABIVersion }

//go:wasmexport compact_result
func compactResult() int32 {
	var r strings.Builder
	say := func(format string, args ...any) { fmt.Fprintf(&r, format+"\n", args...) }

	n := inputLength()
	say("input_length %d, input_offset set %v", n, inputOffset() != 0)
	in := make([]byte, n)
	for i := range in {
		in[i] = byte(inputLoadU8(uint64(i)))
	}
	say("input_load_u8 past the end %d", inputLoadU8(n))
	if n >= 8 {
		say("input_load_u64(0) %#x", inputLoadU64(0))
	}
	mode := "ok"
	if h, _, err := pdk.ParseInput(in); err == nil && h.Config["mode"] != "" {
		mode = h.Config["mode"]
	}
	say("output before set: length %d, offset %d; error_get %d", outputLength(), outputOffset(), errorGet())

	say("alloc(0) %d", alloc(0))
	a := alloc(13)
	b := alloc(300)
	say("alloc(13) and alloc(300) non-zero and distinct: %v", a != 0 && b != 0 && a != b)
	say("length %d %d, length_unsafe %d, length(0) %d", length(a), length(b), lengthUnsafe(b), length(0))
	storeU64(b, 0x0123456789abcdef)
	storeU8(b+8, 0xfe)
	say("load_u64 %#x, load_u8 %#x", loadU64(b), loadU8(b+8))
	free(b)
	say("length after free %d", length(b))
	c := alloc(16)
	say("alloc(16) after free reuses the block: %v, length %d", c == b, length(c))

	key := write("fault")
	say("config_get(fault) %d", configGet(key))
	say("var_get(x) %d", varGet(write("x")))
	say("get_log_level %d", getLogLevel())
	logInfo(write("probe info"))
	logDebug(write("probe debug"))
	logWarn(write("probe warn"))
	say("http_status_code %d, http_headers %d", httpStatusCode(), httpHeaders())

	msg := write("probe message")
	say("read back %q", read(msg))

	switch mode {
	case "error0":
		errorSet(write("probe error with status 0"))
	case "exit0":
		pdk.SetOutput([]byte("{\"abi\":1,\"content_type\":\"text/plain\"}\n" + r.String()))
		os.Exit(0)
	case "exit3":
		os.Exit(3)
	}
	pdk.SetOutput([]byte("{\"abi\":1,\"content_type\":\"text/plain\"}\n" + r.String()))
	return 0
}
