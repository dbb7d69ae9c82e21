//go:build wasip1

// Command sandbox is a test guest that probes the host's sandbox: per the
// "probe" config key it tries to read a file ("fs"), list the environment
// ("env"), or make an HTTP request through Extism ("net"), and reports
// what happened as its error message.
package main

import (
	"fmt"
	"os"

	"github.com/toolcompact/compact/plugins/pdk"
)

//go:wasmimport extism:host/env alloc
func alloc(n uint64) uint64

//go:wasmimport extism:host/env store_u8
func storeU8(off uint64, v uint32)

//go:wasmimport extism:host/env http_request
func httpRequest(req, body uint64) uint64

func main() {}

//go:wasmexport compact_abi_version
func abiVersion() int32 { return pdk.ABIVersion }

//go:wasmexport compact_result
func compactResult() int32 {
	return pdk.Run(func(h pdk.Header, in []byte) (pdk.OutputHeader, []byte, error) {
		switch h.Config["probe"] {
		case "fs":
			b, err := os.ReadFile(h.Config["path"])
			if err != nil {
				return pdk.OutputHeader{}, nil, fmt.Errorf("fs probe: read failed: %v", err)
			}
			return pdk.OutputHeader{}, nil, fmt.Errorf("fs probe: read %d bytes", len(b))
		case "env":
			return pdk.OutputHeader{}, nil, fmt.Errorf("env probe: %d variables", len(os.Environ()))
		case "net":
			req := []byte(`{"url":"http://127.0.0.1:9/","method":"GET"}`)
			off := alloc(uint64(len(req)))
			for i, c := range req {
				storeU8(off+uint64(i), uint32(c))
			}
			httpRequest(off, 0)
			return pdk.OutputHeader{}, nil, fmt.Errorf("net probe: request returned")
		}
		return pdk.OutputHeader{ContentType: h.ContentType}, in, nil
	})
}
