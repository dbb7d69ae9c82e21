package builtin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/toolcompact/compact/plugins/plugintest"
)

const regenerate = "run `go generate ./plugins` and commit plugins/builtin"

// TestEmbeddedMatchesSums checks the embedded modules against SHA256SUMS.
func TestEmbeddedMatchesSums(t *testing.T) {
	sums, err := os.ReadFile("SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for line := range strings.Lines(string(sums)) {
		sum, file, ok := strings.Cut(strings.TrimSpace(line), "  ")
		if ok {
			want[strings.TrimSuffix(file, ".wasm")] = sum
		}
	}
	if got := Names(); !slices.Equal(got, []string{"logs", "restlist"}) {
		t.Fatalf("Names() = %v", got)
	}
	for _, name := range Names() {
		b, ok := Wasm(name)
		if !ok {
			t.Fatalf("Wasm(%q) missing", name)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want[name] {
			t.Errorf("%s.wasm: sha256 %s, SHA256SUMS says %s: %s", name, got, want[name], regenerate)
		}
	}
	for _, bad := range []string{"", "../logs", "logs.wasm", "GOVERSION", "nope"} {
		if _, ok := Wasm(bad); ok {
			t.Errorf("Wasm(%q) found something", bad)
		}
	}
}

// TestEmbeddedIsFreshBuild rebuilds the first-party plugins from this
// checkout's sources and requires the embedded bytes to be identical: a
// change to plugins/logs, plugins/restlist or plugins/pdk without a
// regeneration fails here, and names the command. It builds with the Go
// release GOVERSION records, whichever Go runs the test (on the old code a
// CI machine with another Go release failed it, or skipped it without CI).
func TestEmbeddedIsFreshBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two plugins")
	}
	// The bytes differ between Go releases: on another Go than the one
	// GOVERSION records (a CI machine's), build with that one, which the
	// go command fetches from the module proxy (GOTOOLCHAIN).
	gv := GoVersion()
	for name, pkg := range map[string]string{"logs": plugintest.Logs, "restlist": plugintest.RestList} {
		var path string
		if gv == runtime.Version() {
			path = plugintest.Build(t, pkg)
		} else {
			path = filepath.Join(t.TempDir(), name+".wasm")
			if err := plugintest.BuildPluginWith(gv, pkg, path); err != nil {
				msg := fmt.Sprintf("the embedded plugins were built with %s, this is %s, and building with %s failed: %v",
					gv, runtime.Version(), gv, err)
				if os.Getenv("CI") != "" {
					t.Fatal(msg)
				}
				t.Skip(msg)
			}
		}
		fresh, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		embedded, _ := Wasm(name)
		if !bytes.Equal(fresh, embedded) {
			f, e := sha256.Sum256(fresh), sha256.Sum256(embedded)
			t.Errorf("plugins/builtin/%s.wasm (sha256 %x) is not a fresh build of %s with %s (sha256 %x): %s",
				name, e[:8], pkg, gv, f[:8], regenerate)
		}
	}
}
