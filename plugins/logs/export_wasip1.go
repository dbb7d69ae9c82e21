//go:build wasip1 && !pdk_noextism

package main

import "github.com/toolcompact/compact/plugins/pdk"

//go:wasmexport compact_result
func compactResult() int32 { return pdk.Run(compact) }

//go:wasmexport compact_abi_version
func compactABIVersion() int32 { return pdk.ABIVersion }
