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
	mode := h.Config["fault"]
	if mode == "" || mode == "echo" {
		// The valid mode, the host's tiny-call benchmark: the framing goes
		// straight into the host's memory (respond gives the same bytes).
		pdk.WriteOutput(pdk.OutputHeader{ContentType: h.ContentType}, payload)
		return 0
	}
	hazard(mode)
	out, err := respond(h, payload)
	if err != nil {
		pdk.SetError(err.Error())
		return 1
	}
	pdk.SetOutput(out)
	return 0
}
