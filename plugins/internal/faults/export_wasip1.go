//go:build wasip1

package main

import "github.com/toolcompact/compact/plugins/pdk"

//go:wasmexport compact_abi_version
func compactABIVersion() int32 { return version() }

//go:wasmexport compact_result
func compactResult() int32 {
	h, payload, err := pdk.ReadInput()
	if err != nil {
		pdk.SetError(err.Error())
		return 1
	}
	hazard(h.Config["fault"])
	out, err := respond(h, payload)
	if err != nil {
		pdk.SetError(err.Error())
		return 1
	}
	pdk.SetOutput(out)
	return 0
}
