// Package host is the library entry point of compact. An Engine loads the
// field registry, compiles every WebAssembly plugin the registry names once
// at start-up (on wazero, with a shared on-disk compilation cache; the
// Extism host ABI plugins import is implemented natively in Go by default,
// or by extism/go-sdk, the reference host, with WithRuntime), keeps a bounded pool of instances per plugin, adapts each plugin
// to budget.Compactor, and runs the budget pipeline on each tool output.
//
// A plugin is never trusted: every call has a deadline and a memory cap,
// no filesystem and no network; its output framing is parsed strictly and
// the pipeline re-counts every record collection. A plugin that traps,
// times out, runs out of memory, answers with malformed framing, a payload
// larger than its input or a wrong record count is discarded for that
// call, the declarative rules run instead, and the result's actions say
// which plugin failed and why. A plugin that keeps failing is put on a
// cool-down.
//
// The plugin contract (ABI v1) is documented in schemas/ABI.md.
package host
