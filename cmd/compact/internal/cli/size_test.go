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

// TestConfigErrorsUseKeys: a sidecar config error names the line and the
// YAML key and says what the key wants, never a Go type or field (on the
// old code: "cannot unmarshal !!str `soon` into time.Duration", "field
// budgett not found in type cli.sidecarConfig").
func TestConfigErrorsUseKeys(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ yaml, want string }{
		{"budgett: 10\n", `line 1: unknown key "budgett" (known: registry, encoding, budget,`},
		{"listen: x\ntimeout: soon\n", "line 2: timeout: want a duration such as 30s, 5m or 72h"},
		{"budget: lots\n", "line 1: budget: want a whole number"},
		{"strip_output_schemas: maybe\n", "line 1: strip_output_schemas: want true or false"},
		{"budget: 1\nbudget: 2\n", `line 2: key "budget" given twice`},
		{"command: {a: b}\n", "line 1: command: want a list of strings"},
		{"- a\n", "line 1: want a mapping of settings"},
	} {
		p := filepath.Join(dir, "c.yaml")
		os.WriteFile(p, []byte(c.yaml), 0o644)
		cfg := defaultSidecarConfig()
		err := loadSidecarConfig(p, &cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
			continue
		}
		for _, goName := range []string{"sidecarConfig", "time.Duration", "!!str", "unmarshal", "cli."} {
			if strings.Contains(err.Error(), goName) {
				t.Errorf("%q: error %q names %q", c.yaml, err, goName)
			}
		}
	}
	empty := filepath.Join(dir, "empty.yaml")
	os.WriteFile(empty, nil, 0o644)
	cfg := defaultSidecarConfig()
	if err := loadSidecarConfig(empty, &cfg); err != nil {
		t.Errorf("empty config: %v", err)
	}
}
