// Package plugintest builds compact plugins written in Go from source for
// tests and for the build (go generate): GOOS=wasip1 GOARCH=wasm
// go build -buildmode=c-shared, into a cache keyed by a hash of every
// non-standard-library source file the plugin is built from, the ldflags
// and the Go version, so that repeated test runs reuse the binary instead
// of spending seconds per plugin.
//
// It runs on the host (it shells out to the go command) and never inside
// a plugin.
package plugintest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Import paths of the plugins in this repository, usable wherever a
// package directory is accepted.
const (
	// Logs is the first-party log compactor.
	Logs = "github.com/toolcompact/compact/plugins/logs"
	// RestList is the first-party REST-list compactor.
	RestList = "github.com/toolcompact/compact/plugins/restlist"
	// Faults is the fault-injection fixture (see its package doc for the
	// "fault" config key). Build it with the ldflag
	// "-X main.abiVersion=2" for a plugin declaring ABI version 2.
	Faults = "github.com/toolcompact/compact/plugins/internal/faults"
)

// FaultsABI2 is the ldflag that makes the Faults fixture declare ABI
// version 2.
const FaultsABI2 = "-X main.abiVersion=2"

// CacheDirEnv names the environment variable that overrides where built
// plugins are cached (default: <user cache dir>/compact/plugintest).
const CacheDirEnv = "COMPACT_PLUGIN_CACHE"

var (
	mu     sync.Mutex
	builds = map[string]*buildOnce{} // by package + ldflags, per process
)

type buildOnce struct {
	once sync.Once
	path string
	err  error
}

// Build builds the plugin package pkg (a directory, absolute or relative to
// the current directory, or an import path) for wasip1 with the given
// -ldflags arguments and returns the path of the cached .wasm file. It
// builds at most once per process and reuses a cached binary whose sources
// have not changed. Any failure fails tb.
func Build(tb testing.TB, pkg string, ldflags ...string) string {
	tb.Helper()
	key := pkg + "\x00" + strings.Join(ldflags, "\x00")
	mu.Lock()
	b, ok := builds[key]
	if !ok {
		b = &buildOnce{}
		builds[key] = b
	}
	mu.Unlock()
	b.once.Do(func() { b.path, b.err = cachedBuild(pkg, ldflags) })
	if b.err != nil {
		tb.Fatalf("plugintest: %v", b.err)
	}
	return b.path
}

// BuildPlugin builds the plugin package pkg (a directory or an import
// path) for wasip1 with the given -ldflags arguments into the file out.
func BuildPlugin(pkg, out string, ldflags ...string) error {
	return BuildPluginWith("", pkg, out, ldflags...)
}

// BuildPluginWith is BuildPlugin with the Go toolchain named (such as
// go1.26.8; "" is the go command's own choice): the go command runs with
// GOTOOLCHAIN set to it, which fetches that release from the module proxy
// when it is not the one installed. The bytes of a plugin depend on the
// Go release that built it.
func BuildPluginWith(toolchain, pkg, out string, ldflags ...string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("plugintest: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".build-*.wasm")
	if err != nil {
		return fmt.Errorf("plugintest: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if err := goBuild(toolchain, pkg, tmp.Name(), ldflags); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("plugintest: %w", err)
	}
	return nil
}

// CacheDir returns the directory where Build caches plugins.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("plugintest: no cache directory (set %s): %w", CacheDirEnv, err)
	}
	return filepath.Join(d, "compact", "plugintest"), nil
}

func cachedBuild(pkg string, ldflags []string) (string, error) {
	pkg = normalize(pkg)
	sum, err := sourceHash(pkg, ldflags)
	if err != nil {
		return "", err
	}
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, sum+".wasm")
	if st, err := os.Stat(out); err == nil && st.Size() > 0 {
		return out, nil
	}
	if err := BuildPlugin(pkg, out, ldflags...); err != nil {
		return "", err
	}
	return out, nil
}

// normalize turns a bare relative directory into one the go command reads
// as a directory rather than an import path.
func normalize(pkg string) string {
	if filepath.IsAbs(pkg) || strings.HasPrefix(pkg, ".") {
		return pkg
	}
	if st, err := os.Stat(pkg); err == nil && st.IsDir() && !strings.Contains(pkg, ".") {
		return "." + string(filepath.Separator) + pkg
	}
	return pkg
}

// wasmEnv is the environment of the go command for a wasip1 build:
// GOFLAGS loses the flags wasip1 cannot build with (-race, -msan, -asan,
// -cover...), so that `GOFLAGS=-race go test ./...` still builds plugins.
func wasmEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			var keep []string
			for _, f := range strings.Fields(v) {
				switch name, _, _ := strings.Cut(f, "="); name {
				case "-race", "-msan", "-asan", "-cover", "-covermode", "-coverpkg":
					continue
				}
				keep = append(keep, f)
			}
			kv = "GOFLAGS=" + strings.Join(keep, " ")
		}
		env = append(env, kv)
	}
	return append(env, "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
}

func goBuild(toolchain, pkg, out string, ldflags []string) error {
	// -trimpath and -buildvcs=false keep the checkout's path and its
	// commit out of the module, so that a build is byte-identical on any
	// machine with the same Go version (plugins/builtin embeds them).
	args := []string{"build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false", "-o", out}
	if len(ldflags) > 0 {
		args = append(args, "-ldflags="+strings.Join(ldflags, " "))
	}
	args = append(args, pkg)
	cmd := exec.Command(goCmd(), args...)
	cmd.Env = wasmEnv()
	if toolchain != "" {
		cmd.Env = append(cmd.Env, "GOTOOLCHAIN="+toolchain)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("plugintest: go %s: %w\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return nil
}

func goCmd() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

type listedPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string
	EmbedFiles []string
	Error      *struct{ Err string }
}

// sourceHash hashes the Go version, the ldflags and every file of every
// non-standard package pkg depends on when built for wasip1.
func sourceHash(pkg string, ldflags []string) (string, error) {
	cmd := exec.Command(goCmd(), "list", "-deps", "-json=ImportPath,Dir,Standard,GoFiles,EmbedFiles,Error", pkg)
	cmd.Env = wasmEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("plugintest: go list %s: %w\n%s", pkg, err, stderr.Bytes())
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", runtime.Version(), strings.Join(ldflags, "\x00"))
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return "", fmt.Errorf("plugintest: go list %s: %w", pkg, err)
		}
		if p.Error != nil {
			return "", fmt.Errorf("plugintest: package %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Standard {
			continue
		}
		fmt.Fprintf(h, "pkg %s\x00", p.ImportPath)
		for _, f := range append(p.GoFiles, p.EmbedFiles...) {
			data, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				return "", fmt.Errorf("plugintest: %w", err)
			}
			fmt.Fprintf(h, "file %s %d\x00", f, len(data))
			h.Write(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}
