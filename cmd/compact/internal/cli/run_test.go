package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
)

// execCLI runs the compact command in-process and returns its streams and
// exit code.
func execCLI(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, bytes.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunRefusesBadInvocations covers mistakes that must be caught before
// any input is read: wrong flags, a registry that does not validate, an
// input that cannot be read or is too large.
func TestRunRefusesBadInvocations(t *testing.T) {
	t.Setenv(envRegistry, "")
	t.Setenv(envStore, "")
	badReg := writeFile(t, "bad.yaml", "version: 1\ntools:\n  - name: x\n    budget: lots\n")
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse 1 GB file: refused by its size, without reading it.
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()

	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string // substrings of stderr
	}{
		{"unknown flag", "", []string{"run", "--nosuch"}, ExitUsage, []string{"flag provided but not defined: -nosuch", "usage: compact run"}},
		{"budget not a number", "", []string{"run", "--budget", "lots"}, ExitUsage, []string{`invalid value "lots" for flag -budget`}},
		{"negative budget", "", []string{"run", "--store", "off", "--budget", "-3"}, ExitUsage, []string{`invalid value "-3" for flag -budget: must be a positive number of tokens, got -3`}},
		{"unknown encoding", "", []string{"run", "--store", "off", "--encoding", "p50k_base"}, ExitUsage, []string{`--encoding: token encoding "p50k_base": unknown (want o200k_base or cl100k_base)`}},
		{"two inputs", "", []string{"run", "a", "b"}, ExitUsage, []string{`one input at most, got 2`}},
		{"bad args", "", []string{"run", "--args", "{nope"}, ExitUsage, []string{`--args: not valid JSON: "{nope"`}},
		{"max-input zero", "", []string{"run", "--max-input", "0"}, ExitUsage, []string{`--max-input: size "0" must be at least 1 byte`}},
		{"bad max-input", "", []string{"run", "--max-input", "lots"}, ExitUsage, []string{`invalid value "lots" for flag -max-input: bad size "lots"`}},
		{"registry does not validate", "{}", []string{"run", "--store", "off", "--registry", badReg}, ExitRegistry,
			[]string{"compact run: " + badReg + `:4:13: tools[0].budget: expected integer, got string "lots"`}},
		{"registry missing", "{}", []string{"run", "--store", "off", "--registry", filepath.Join(dir, "none.yaml")}, ExitRegistry,
			[]string{"none.yaml: cannot read registry: no such file or directory"}},
		{"input missing", "", []string{"run", "--store", "off", filepath.Join(dir, "missing.json")}, ExitInput,
			[]string{"cannot read input: open ", "missing.json: no such file or directory"}},
		{"input is a directory", "", []string{"run", "--store", "off", dir}, ExitInput, []string{"is a directory"}},
		{"1 GB input over an opt-in limit", "", []string{"run", "--store", "off", "--max-input", "256MiB", huge}, ExitInput,
			[]string{"is 1073741824 bytes, more than 268435456 (256MiB), over the --max-input limit"}},
		{"stdin over max-input", strings.Repeat("x", 2000), []string{"run", "--store", "off", "--max-input", "1KiB", "-"}, ExitInput,
			[]string{"input standard input is more than 1KiB, over the --max-input limit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := execCLI(t, []byte(c.stdin), c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, errs)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
		})
	}
}

func TestRunHelp(t *testing.T) {
	_, errs, code := execCLI(t, nil, "run", "-h")
	if code != ExitOK || !strings.Contains(errs, "-budget N") || !strings.Contains(errs, "-tool NAME") {
		t.Errorf("run -h: exit %d\n%s", code, errs)
	}
}

func TestParseArgsInterspersed(t *testing.T) {
	var f engineFlags
	fs := newFlagSet("x", "x", &bytes.Buffer{})
	f.register(fs)
	pos, err := parseArgs(fs, []string{"file.json", "--json", "--budget", "7", "--", "--odd-name"})
	if err != nil || !f.json || f.budget != 7 || len(pos) != 2 || pos[0] != "file.json" || pos[1] != "--odd-name" {
		t.Errorf("pos %q err %v flags %+v", pos, err, f)
	}
}

func TestExitCodeMapping(t *testing.T) {
	_, err := (&engineFlags{registry: writeFile(t, "r.yaml", "nope: 1\n"), store: storeOff, encoding: "o200k_base"}).engine(context.Background(), &bytes.Buffer{})
	if exitCode(err) != ExitRegistry {
		t.Errorf("registry error mapped to %d: %v", exitCode(err), err)
	}
	if exitCode(fmt.Errorf("x: %w", budget.ErrTooLarge)) != ExitInput || exitCode(fmt.Errorf("x: %w", budget.ErrCannotFit)) != ExitCannotFit {
		t.Error("budget sentinels mapped wrongly")
	}
	if exitCode(nil) != ExitOK || exitCode(os.ErrClosed) != ExitFailure {
		t.Error("plain errors must map to ExitFailure")
	}
}

func TestRunVerboseAndTextMode(t *testing.T) {
	t.Setenv(envRegistry, "")
	in := []byte(`[{"id":1,"name":"a","avatar_url":"https://x/1"},{"id":2,"name":"b","avatar_url":"https://x/2"},{"id":3,"name":"c","avatar_url":"https://x/3"}]`)
	file := writeFile(t, "in.json", string(in))
	out, errs, code := execCLI(t, nil, "run", file, "--store", "off", "--budget", "50", "-v")
	notice := "[compact: 3 of 3 records shown; left out: 1 field (avatar_url ×3); full original not stored: no artifact store is configured]\n"
	if code != ExitOK || out != notice+"id\tname\n1\ta\n2\tb\n3\tc\n" {
		t.Fatalf("exit %d, out %q, err %q", code, out, errs)
	}
	for _, w := range []string{`compact run: tool "default", level fields, `, "collection . (array): 3 records, 3 shown", "fields drop_url .[].avatar_url (3)"} {
		if !strings.Contains(errs, w) {
			t.Errorf("-v output lacks %q:\n%s", w, errs)
		}
	}
}
