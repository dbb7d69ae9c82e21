package cli

import (
	"strings"
	"testing"

	"github.com/toolcompact/compact/plugins/plugintest"
)

func TestPluginTestCommand(t *testing.T) {
	faults := plugintest.Build(t, plugintest.Faults)
	abi2 := plugintest.Build(t, plugintest.Faults, plugintest.FaultsABI2)
	in := writeFile(t, "issues.json", `[{"id":1},{"id":2},{"id":3}]`)
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"passes", []string{"plugin", "test", faults, "--input", in, "--bundled=false"}, ExitOK,
			[]string{"PASS load", "PASS issues.json: counts", "PASS issues.json: content", "PASS issues.json: deterministic", "PASS reference host (same results on extism/go-sdk for 1 inputs", "all 8 checks passed"}},
		{"drops a record", []string{"plugin", "test", faults, "--input", in, "--config", "fault=drop", "--bundled=false"}, ExitCheck,
			[]string{"FAIL issues.json: counts: record count mismatch: collection .: the output has 2 records, the input 3", "1 of 7 checks failed"}},
		{"loops", []string{"plugin", "test", faults, "--input", in, "--config", "fault=loop", "--timeout", "50ms", "--bundled=false"}, ExitCheck,
			[]string{"FAIL issues.json: runs: plugin", "timeout: no answer within 50ms"}},
		{"abi 2", []string{"plugin", "test", abi2, "--input", in}, ExitCheck,
			[]string{"FAIL load: plugin", "returned ABI version 2; this host speaks version 1"}},
		{"no file", []string{"plugin", "test"}, ExitUsage, nil},
		{"bad config", []string{"plugin", "test", faults, "--config", "nokey"}, ExitUsage, nil},
		{"missing input", []string{"plugin", "test", faults, "--input", in + ".absent"}, ExitInput, nil},
		{"missing plugin", []string{"plugin", "test", faults + ".absent", "--input", in}, ExitInput, nil},
		{"plugin is a directory", []string{"plugin", "test", t.TempDir(), "--input", in}, ExitInput, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := execCLI(t, nil, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestPluginTestBundled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fixture over every captured output")
	}
	faults := plugintest.Build(t, plugintest.Faults)
	// A deadline that catches a hang, not a slow call: at 2 s a loaded
	// machine failed the test (the whole run, every check over every
	// bundled input, takes ~3 s at a light load). Plugin speed is
	// measured by the benchmarks.
	out, errOut, code := execCLI(t, nil, "plugin", "test", faults, "--timeout", "30s")
	if code != ExitOK {
		t.Fatalf("echo over the bundled inputs: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, w := range []string{"PASS github-issues.json: counts", "PASS app-log.jsonl: deterministic", "PASS man-bash.txt: counts"} {
		if !strings.Contains(out, w) {
			t.Errorf("stdout lacks %q", w)
		}
	}
}
