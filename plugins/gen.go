// Package plugins holds compact's WebAssembly plugins and their tooling:
// the Go guest SDK (pdk), the first-party plugins logs and restlist, the
// fault-injection fixture (internal/faults), the build helper used by
// tests (plugintest) and a third-party example in AssemblyScript
// (examples/). See docs/pdk.md.
//
// The first-party plugins are built from source into plugins/builtin,
// committed, and embedded in the compact binary (package builtin):
//
//	go generate ./plugins
//
// rewrites plugins/builtin/logs.wasm, plugins/builtin/restlist.wasm and
// plugins/builtin/BUILD (the Go version and the SHA-256 of each). The
// build is reproducible (-trimpath, -buildvcs=false): a test in
// plugins/builtin rebuilds both and fails when the committed files differ
// from a fresh build of the sources, naming this command.
package plugins

//go:generate go run ./internal/build -out builtin
