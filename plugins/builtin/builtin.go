// Package builtin holds the first-party plugins (logs, restlist) as
// WebAssembly modules embedded in every program that imports it: the host
// resolves a registry plugin path builtin:NAME to NAME.wasm here, so a
// copied binary, a go-installed one and a container image all carry them.
//
// The .wasm files are build outputs committed next to this file; they are
// written by
//
//	go generate ./plugins
//
// with a reproducible build (-trimpath, -buildvcs=false), and a test
// rebuilds them from source and fails when the committed bytes differ.
// GOVERSION records the Go release that built them (the bytes depend on
// it) and SHA256SUMS their digests.
package builtin

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.wasm GOVERSION
var files embed.FS

// Names returns the names of the embedded plugins, sorted ("logs",
// "restlist").
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".wasm"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Wasm returns the module of the embedded plugin name, or false when
// there is none by that name. The slice is shared: do not modify it.
func Wasm(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, "/\\.") {
		return nil, false
	}
	b, err := files.ReadFile(name + ".wasm")
	if err != nil {
		return nil, false
	}
	return b, true
}

// GoVersion is the Go release that built the embedded modules.
func GoVersion() string {
	b, _ := files.ReadFile("GOVERSION")
	return strings.TrimSpace(string(b))
}
