package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCompleteCandidates(t *testing.T) {
	cases := []struct {
		words []string
		want  []string
		not   []string
	}{
		{[]string{""}, []string{"run", "serve", "store", "completion", "--version", "help"}, []string{"__complete"}},
		{[]string{"ar"}, []string{"artifact"}, []string{"run"}},
		{[]string{"artifact", ""}, []string{"get", "query", "slice", "search", "gc"}, nil},
		{[]string{"artifact", "gc", "--"}, []string{"--ttl", "--max-size", "--store", "--json"}, nil},
		{[]string{"run", "file.json", "--st"}, []string{"--store", "--store-ttl", "--store-max-bytes"}, []string{"--budget"}},
		{[]string{"mcp", "--max"}, []string{"--max-message", "--max-body"}, nil},
		{[]string{"help", "st"}, []string{"store"}, []string{"serve"}},
		{[]string{"run", "te"}, nil, []string{"test"}}, // a file name: the shell completes it
	}
	for _, c := range cases {
		out, _, code := execCLI(t, nil, append([]string{"__complete"}, c.words...)...)
		got := strings.Fields(out)
		if code != ExitOK {
			t.Errorf("%q: exit %d", c.words, code)
		}
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: candidates %q lack %q", c.words, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("%q: candidates %q include %q", c.words, got, w)
			}
		}
	}
}

// TestCompletionScripts: each script is valid for its shell (checked with
// the shell's own parser where the shell is installed; bash always is
// here), and an unknown shell is a usage error.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		out, errs, code := execCLI(t, nil, "completion", sh)
		if code != ExitOK || !strings.Contains(out, "compact __complete") {
			t.Fatalf("completion %s: %d %s", sh, code, errs)
		}
		bin, err := exec.LookPath(sh)
		if err != nil {
			if sh == "bash" {
				t.Errorf("bash not found: %v", err)
			}
			continue
		}
		p := filepath.Join(t.TempDir(), "c."+sh)
		os.WriteFile(p, []byte(out), 0o644)
		if b, err := exec.Command(bin, "-n", p).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", sh, err, b)
		}
	}
	if _, _, code := execCLI(t, nil, "completion", "tcsh"); code != ExitUsage {
		t.Errorf("completion tcsh: exit %d", code)
	}
}
