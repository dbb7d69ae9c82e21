// Command build compiles compact's first-party plugins from source into
// a directory (plugins/builtin, as go generate in plugins/ runs it), one
// NAME.wasm per plugin for the host's builtin:NAME, plus SHA256SUMS (in
// sha256sum's format) and GOVERSION (the Go release that built them: the
// bytes depend on it).
//
//	go run ./plugins/internal/build [-out DIR] [NAME ...]
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/toolcompact/compact/plugins/plugintest"
)

// builtins maps each builtin plugin name to its package.
var builtins = map[string]string{
	"logs":     plugintest.Logs,
	"restlist": plugintest.RestList,
}

func main() {
	out := flag.String("out", filepath.Join("plugins", "builtin"), "directory to write NAME.wasm, SHA256SUMS and GOVERSION into")
	flag.Parse()
	names := flag.Args()
	all := len(names) == 0
	if all {
		names = []string{"logs", "restlist"}
	}
	var sums strings.Builder
	for _, name := range names {
		pkg, ok := builtins[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "build: unknown plugin %q (have logs, restlist)\n", name)
			os.Exit(2)
		}
		start := time.Now()
		dst := filepath.Join(*out, name+".wasm")
		if err := plugintest.BuildPlugin(pkg, dst); err != nil {
			fmt.Fprintf(os.Stderr, "build: %s: %v\n", name, err)
			os.Exit(1)
		}
		b, err := os.ReadFile(dst)
		if err != nil {
			fmt.Fprintf(os.Stderr, "build: %v\n", err)
			os.Exit(1)
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name+".wasm")
		fmt.Printf("build: %s %x (%s)\n", dst, sum[:6], time.Since(start).Round(time.Millisecond))
	}
	if !all {
		return
	}
	lines := strings.SplitAfter(sums.String(), "\n")
	slices.Sort(lines)
	for file, text := range map[string]string{
		"SHA256SUMS": strings.Join(lines, ""),
		"GOVERSION":  runtime.Version() + "\n",
	} {
		if err := os.WriteFile(filepath.Join(*out, file), []byte(text), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "build: %v\n", err)
			os.Exit(1)
		}
	}
}
