package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSizeFlagsOneParser: every size flag reads the same sizes (binary
// and decimal units, plain bytes) and refuses a bad one with the same
// words. --max-message refused 512MiB on the old code (it took a plain
// int), while --max-input accepted it.
func TestSizeFlagsOneParser(t *testing.T) {
	cases := [][]string{
		{"run", "--max-input"},
		{"context", "--max-input"},
		{"serve", "--max-body"},
		{"serve", "--store-max-bytes"},
		{"mcp", "--max-message"},
		{"mcp", "--max-body"},
		{"artifact", "gc", "--max-size"},
		{"plugin", "test", "--memory"},
	}
	for _, c := range cases {
		name := strings.Join(c, " ")
		for _, good := range []string{"512MiB", "10MB", "1048576", "64 KiB"} {
			args := append(append([]string{}, c...), good, "-h")
			if _, errs, code := execCLI(t, nil, args...); code != ExitOK {
				t.Errorf("%s %s: exit %d\n%.300s", name, good, code, errs)
			}
		}
		for _, bad := range []string{"lots", "-5", "5XB"} {
			args := append(append([]string{}, c...), bad, "-h")
			_, errs, code := execCLI(t, nil, args...)
			if code != ExitUsage || !strings.Contains(errs, `bad size "`+bad+`": expected a size such as 64MiB, 10MB or a byte count`) {
				t.Errorf("%s %s: exit %d, want 2 and the parser's words:\n%.300s", name, bad, code, errs)
			}
		}
	}
}

// TestBudgetZeroAndNegativeSameAnswer: --budget 0 and --budget -5 are the
// same mistake on every command that takes a budget, answered in the same
// words (on the old code, run accepted 0 as "the default" and refused -5;
// serve refused -5 with other words).
func TestBudgetZeroAndNegativeSameAnswer(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.json")
	os.WriteFile(in, []byte(`[1,2,3]`), 0o644)
	for _, cmd := range [][]string{{"run", "--store", "off", in}, {"context", "--store", "off", in}, {"serve"}, {"mcp"}} {
		for _, b := range []string{"0", "-5"} {
			args := append(append([]string{}, cmd...), "--budget", b)
			_, errs, code := execCLI(t, nil, args...)
			want := `invalid value "` + b + `" for flag -budget: must be a positive number of tokens, got ` + b
			if code != ExitUsage || !strings.Contains(errs, want) {
				t.Errorf("%s: exit %d, want 2 and %q:\n%.300s", strings.Join(args, " "), code, want, errs)
			}
		}
	}
}

// TestConfigSizes: a sidecar config file takes sizes with units too, and
// a bad one names the key's line.
func TestConfigSizes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte("max_body: 64MiB\nmax_message: 512MiB\nstore_max_bytes: 10GiB\n"), 0o644)
	c := defaultSidecarConfig()
	if err := loadSidecarConfig(good, &c); err != nil || c.MaxBody != 64<<20 || c.MaxMessage != 512<<20 || c.StoreMaxBytes != 10<<30 {
		t.Fatalf("config: %v %+v", err, c)
	}
	plain := filepath.Join(dir, "plain.yaml")
	os.WriteFile(plain, []byte("max_body: 1048576\n"), 0o644)
	if err := loadSidecarConfig(plain, &c); err != nil || c.MaxBody != 1<<20 {
		t.Fatalf("plain bytes: %v %d", err, c.MaxBody)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("listen: 127.0.0.1:0\nmax_message: lots\n"), 0o644)
	err := loadSidecarConfig(bad, &c)
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), `bad size "lots"`) {
		t.Fatalf("bad size in config: %v", err)
	}
}
