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

// TestOneTiktokenFile checks that exactly one non-test file imports
// tiktoken-go, so the tokenizer can be swapped in one place.
func TestOneTiktokenFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	var importers []string
	for _, line := range goList(t, "-f", `{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}} {{end}}`, "./...") {
		for _, f := range strings.Fields(line) {
			importers = append(importers, f)
		}
	}
	n := 0
	for _, f := range importers {
		out, err := exec.Command("grep", "-l", `"github.com/pkoukk/tiktoken-go"`, f).Output()
		if err == nil && len(out) > 0 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d non-test files import tiktoken-go, want exactly 1", n)
	}
}
