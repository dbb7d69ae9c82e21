// Package plugins holds compact's WebAssembly plugins and their tooling:
// the Go guest SDK (pdk), the first-party plugins logs and restlist, the
// fault-injection fixture (internal/faults), the build helper used by
// tests (plugintest) and a third-party example in AssemblyScript
// (examples/). See docs/pdk.md.
//
// The first-party plugins are built from source, never committed:
//
//	go generate ./plugins
//
// writes plugins/dist/logs.wasm and plugins/dist/restlist.wasm, where the
// host resolves builtin:logs and builtin:restlist.
package plugins

//go:generate go run ./internal/build -out dist
