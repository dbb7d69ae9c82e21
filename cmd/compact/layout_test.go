package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goList runs "go list" in the module and returns its output lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, stderr.String())
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

const module = "github.com/toolcompact/compact"

// TestImportRules enforces the package layering of HOUSE_STYLE.md and
// RATIONALE.md: schemas is a leaf, budget never reaches registry or host,
// registry never reaches budget or host, and only host (and the guest
// build helpers' tests) reach extism and wazero.
func TestImportRules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	rules := []struct {
		pkgs      string
		forbidden []string
	}{
		{"./schemas", []string{module + "/", "github.com/extism", "github.com/tetratelabs/wazero", "gopkg.in/yaml.v3"}},
		{"./budget/...", []string{module + "/registry", module + "/host", module + "/cmd", "github.com/extism", "github.com/tetratelabs/wazero", "gopkg.in/yaml.v3"}},
		{"./registry/...", []string{module + "/budget", module + "/host", module + "/cmd", "github.com/extism", "github.com/tetratelabs/wazero"}},
	}
	for _, r := range rules {
		for _, pkg := range goList(t, r.pkgs) {
			for _, dep := range goList(t, "-deps", pkg) {
				for _, f := range r.forbidden {
					if dep != pkg && strings.HasPrefix(dep, f) && !strings.HasPrefix(dep, module+"/schemas") {
						t.Errorf("%s imports %s (forbidden by the layering rules)", pkg, dep)
					}
				}
			}
		}
	}
}

// TestOneTiktokenFile checks that the tokenizer stays swappable in one
// place: no non-test file imports the reference tokenizer
// (github.com/pkoukk/tiktoken-go, or its vocabulary loader), exactly one
// test file does (the one that compares the counter with it), and only
// budget/tokens.go imports the counter of budget/internal/bpe.
func TestOneTiktokenFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	var prod, tests []string
	for _, line := range goList(t, "-f", `{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}} {{end}}`, "./...") {
		prod = append(prod, strings.Fields(line)...)
	}
	for _, line := range goList(t, "-f", `{{$d := .Dir}}{{range .TestGoFiles}}{{$d}}/{{.}} {{end}}{{range .XTestGoFiles}}{{$d}}/{{.}} {{end}}`, "./...") {
		tests = append(tests, strings.Fields(line)...)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	importers := func(files []string, path string) []string {
		var out []string
		for _, f := range files {
			if b, err := exec.Command("grep", "-l", `"`+path+`"`, f).Output(); err == nil && len(b) > 0 {
				rel, err := filepath.Rel(root, f)
				if err != nil {
					rel = f
				}
				out = append(out, rel)
			}
		}
		return out
	}
	// Spelled in two parts, so that this file does not match.
	ref := "github.com/pkoukk/" + "tiktoken-go"
	for _, lib := range []string{ref, ref + "-loader"} {
		if got := importers(prod, lib); len(got) != 0 {
			t.Errorf("non-test files import %s: %v (it is the tests' reference only)", lib, got)
		}
		if got := importers(tests, lib); len(got) != 1 {
			t.Errorf("test files importing %s: %v, want exactly 1", lib, got)
		}
	}
	if got := importers(prod, module+"/budget/internal/bpe"); len(got) != 1 || got[0] != filepath.Join("budget", "tokens.go") {
		t.Errorf("non-test files importing budget/internal/bpe: %v, want budget/tokens.go alone", got)
	}
}
