//go:build wasip1

// Command divergent is a test guest that is not a genuine Extism plugin:
// its output depends on memory_bytes, a number the Extism host ABI leaves
// to each host (the Extism kernel reports its memory's size, compact's
// native host its arena's). The conformance kit's "reference host" check
// must catch it.
package main

import (
	"strconv"

	"github.com/toolcompact/compact/plugins/pdk"
)

//go:wasmimport extism:host/env memory_bytes
func memoryBytes() uint64

func main() {}

//go:wasmexport compact_abi_version
func abiVersion() int32 { return pdk.ABIVersion }

//go:wasmexport compact_result
func compactResult() int32 {
	return pdk.Run(func(h pdk.Header, in []byte) (pdk.OutputHeader, []byte, error) {
		return pdk.OutputHeader{ContentType: "text/plain"}, []byte(strconv.FormatUint(memoryBytes(), 10) + "\n"), nil
	})
}
