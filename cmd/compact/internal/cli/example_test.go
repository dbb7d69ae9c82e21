package cli

import (
	"os"
	"strings"
)

// Compacting a small JSON array with the built-in registry: the *_url
// links go (and are listed in the --json envelope's actions), and the
// homogeneous records become a lossless table.
func ExampleMain_run() {
	in := `[{"id":1,"name":"a","avatar_url":"https://x/1"},{"id":2,"name":"b","avatar_url":"https://x/2"},{"id":3,"name":"c","avatar_url":"https://x/3"}]`
	Main([]string{"run", "--store", "off", "--budget", "50", "-"}, strings.NewReader(in), os.Stdout, os.Stdout)
	// Output:
	// [compact: 3 of 3 records shown; left out: 1 field (avatar_url ×3); full original not stored: no artifact store is configured]
	// id	name
	// 1	a
	// 2	b
	// 3	c
}

// Which registry entry a tool gets, with every default spelled out.
func ExampleMain_registryShow() {
	os.Setenv(envRegistry, "")
	Main([]string{"registry", "show", "npm.view"}, nil, os.Stdout, os.Stdout)
	// Output:
	// # tool "npm.view" matched entry "npm.view" (exact), defined at builtin:registry/default.yaml:21:5
	// name: npm.view
	// records: [.versions, .time]
	// drop: [_*, dist.signatures, dist.npm-signature]
	// strings: {max: 500}
	// format: auto
	// store: fallback
	// defaults: true
}
