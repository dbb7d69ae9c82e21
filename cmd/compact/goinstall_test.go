package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goInstallAtVersion installs cmd/compact as a user does, `go install
// github.com/toolcompact/compact/cmd/compact@VERSION`, from a module
// proxy (a file:// one the test writes) that serves this checkout as
// that version: the files git tracks (or would, untracked but not
// ignored), without the nested modules, zipped the way the module proxy
// serves them. What `go install ./cmd/compact` in a checkout cannot show,
// this does: the module builds outside its checkout (no file the build
// needs is ignored by git, no replace directive, which go install @version
// refuses), and the version comes from the build info. The dependencies
// come from the module cache (`go mod download`, which .ci/run runs).
// Returns the binary and the version; ok is false where git cannot list
// the files (then the caller falls back to go install ./cmd/compact).
func goInstallAtVersion(t *testing.T, gobin string) (bin, version string, ok bool) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ls := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Logf("git ls-files: %v: installing from the checkout instead", err)
		return "", "", false
	}
	var files []string
	nested := map[string]bool{}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if f != "go.mod" && filepath.Base(f) == "go.mod" {
			nested[filepath.Dir(f)+"/"] = true
		}
		files = append(files, f)
	}
	// A unique version: the module cache keeps what it downloaded, and a
	// second run must not install the first run's code.
	version = fmt.Sprintf("v0.0.0-%s-000000000000", time.Now().UTC().Format("20060102150405"))
	prefix := module + "@" + version + "/"
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, f := range files {
		skip := false
		for dir := range nested {
			skip = skip || strings.HasPrefix(f, dir)
		}
		st, err := os.Lstat(filepath.Join(root, f))
		if skip || err != nil || !st.Mode().IsRegular() {
			continue // nested modules; files deleted but not yet committed
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(prefix + filepath.ToSlash(f))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	proxy := t.TempDir()
	vdir := filepath.Join(proxy, filepath.FromSlash(module), "@v")
	os.MkdirAll(vdir, 0o755)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(vdir, "list"), []byte(version+"\n"), 0o644)
	os.WriteFile(filepath.Join(vdir, version+".info"), []byte(`{"Version":"`+version+`","Time":"`+time.Now().UTC().Format(time.RFC3339)+`"}`), 0o644)
	os.WriteFile(filepath.Join(vdir, version+".mod"), gomod, 0o644)
	os.WriteFile(filepath.Join(vdir, version+".zip"), zb.Bytes(), 0o644)

	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	mc := strings.TrimSpace(string(modcache))
	t.Cleanup(func() {
		// What this version added to the module cache.
		d := filepath.Join(mc, filepath.FromSlash(module)+"@"+version)
		exec.Command("chmod", "-R", "u+w", d).Run()
		os.RemoveAll(d)
		dl, _ := filepath.Glob(filepath.Join(mc, "cache", "download", filepath.FromSlash(module), "@v", version+".*"))
		for _, f := range dl {
			os.Remove(f)
		}
	})
	goproxy, _ := exec.Command("go", "env", "GOPROXY").Output()
	install := exec.Command("go", "install", module+"/cmd/compact@"+version)
	install.Dir = t.TempDir() // outside any module
	install.Env = append(os.Environ(),
		"GOBIN="+gobin,
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+strings.TrimSpace(string(goproxy)),
		"GONOSUMDB="+module, "GOFLAGS=-modcacherw", "GOWORK=off")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install %s/cmd/compact@%s: %v\n%s", module, version, err, out)
	}
	return filepath.Join(gobin, "compact"), version, true
}
