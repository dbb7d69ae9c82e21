// Package pdk is the Go guest SDK for compact plugins: WebAssembly modules
// (GOOS=wasip1 GOARCH=wasm, -buildmode=c-shared) that the compact host runs
// through Extism to compact one tool's output.
//
// It holds three things:
//
//   - the Extism kernel imports and the ABI v1 framing (Input, SetOutput,
//     SetError, ReadInput, WriteOutput, Run; only built for wasip1),
//   - the framing logic itself in plain Go (ParseInput, AppendOutput,
//     Process, the "[×N] " group markers), so that a plugin's whole logic
//     runs and is tested natively,
//   - a reflection-free streaming JSON Reader and Writer, because
//     encoding/json inside WebAssembly is about 15× slower than native.
//
// A plugin is a main package with two exports:
//
//	//go:wasmexport compact_result
//	func compactResult() int32 { return pdk.Run(compact) }
//
//	//go:wasmexport compact_abi_version
//	func abiVersion() int32 { return pdk.ABIVersion }
//
// See docs/pdk.md for a walk-through and schemas/ABI.md for the contract.
// The package imports the standard library only.
package pdk
