// Command build compiles compact's first-party plugins from source into
// a directory (plugins/dist by default, as go generate in plugins/ runs
// it), one NAME.wasm per plugin, for the host's builtin:NAME.
//
//	go run ./plugins/internal/build [-out DIR] [NAME ...]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/toolcompact/compact/plugins/plugintest"
)

// builtins maps each builtin plugin name to its package.
var builtins = map[string]string{
	"logs":     plugintest.Logs,
	"restlist": plugintest.RestList,
}

func main() {
	out := flag.String("out", filepath.Join("plugins", "dist"), "directory to write NAME.wasm into")
	flag.Parse()
	names := flag.Args()
	if len(names) == 0 {
		names = []string{"logs", "restlist"}
	}
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
		fmt.Printf("build: %s (%s)\n", dst, time.Since(start).Round(time.Millisecond))
	}
}
