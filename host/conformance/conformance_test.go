package conformance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/plugins/plugintest"
)

func sampleInputs() []Input {
	return []Input{
		{Name: "issues.json", Data: []byte(`[{"id":1,"t":"a"},{"id":2,"t":"b"}]`), ContentType: "application/json"},
		{Name: "app.log", Data: []byte("start\nERROR x\nstop\n"), ContentType: "text/plain"},
	}
}

func find(checks []Check, name string) (Check, bool) {
	for _, c := range checks {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

func TestRunPassingPlugin(t *testing.T) {
	path := plugintest.Build(t, plugintest.Faults)
	checks := Run(context.Background(), path, Options{Config: map[string]string{"fault": "echo"}, Inputs: sampleInputs()})
	if n := Failed(checks); n != 0 {
		for _, c := range checks {
			t.Log(c)
		}
		t.Fatalf("%d checks failed on the echo plugin", n)
	}
	for _, want := range []string{"load", "issues.json: runs", "issues.json: framing", "issues.json: size", "issues.json: counts", "issues.json: deterministic", "app.log: counts"} {
		if _, ok := find(checks, want); !ok {
			t.Errorf("no check %q", want)
		}
	}
}

func TestRunFailingPlugins(t *testing.T) {
	faults := plugintest.Build(t, plugintest.Faults)
	cases := []struct {
		fault, path, check, reason string
	}{
		{"drop", faults, "issues.json: counts", "collection .: the output has 1 records, the input 2"},
		{"bloat", faults, "issues.json: size", "larger than the 35-byte input"},
		{"framing", faults, "issues.json: framing", "no newline after the header"},
		{"loop", faults, "issues.json: runs", "timeout"},
		{"trap", faults, "issues.json: runs", "trap"},
		{"fail", faults, "issues.json: runs", "faults: failure requested"},
		{"echo", plugintest.Build(t, plugintest.Faults, plugintest.FaultsABI2), "load", "ABI version 2"},
	}
	for _, c := range cases {
		t.Run(c.fault+"/"+c.check, func(t *testing.T) {
			checks := Run(context.Background(), c.path, Options{
				Config: map[string]string{"fault": c.fault}, Timeout: 100 * time.Millisecond, Inputs: sampleInputs()[:1],
			})
			got, ok := find(checks, c.check)
			if !ok {
				t.Fatalf("no check %q in %v", c.check, checks)
			}
			if got.Passed() || !strings.Contains(got.String(), c.reason) {
				t.Errorf("%s = %s, want FAIL containing %q", c.check, got, c.reason)
			}
			if !strings.HasPrefix(got.String(), "FAIL "+c.check+": ") || strings.Contains(got.String(), "\n") {
				t.Errorf("not one FAIL line: %q", got.String())
			}
		})
	}
}

func TestBundledDeclineIsNotAFailure(t *testing.T) {
	path := plugintest.Build(t, plugintest.Faults)
	in := sampleInputs()[:1]
	in[0].Bundled = true
	checks := Run(context.Background(), path, Options{Config: map[string]string{"fault": "fail"}, Inputs: in})
	c, _ := find(checks, "issues.json: runs")
	if !c.Passed() || !strings.Contains(c.String(), "declined: faults: failure requested") {
		t.Errorf("bundled decline: %s", c)
	}
}

// TestFirstPartyPlugins runs the kit on every first-party plugin and the
// AssemblyScript example over the bundled captured outputs.
func TestFirstPartyPlugins(t *testing.T) {
	dir := BundledDir()
	if dir == "" {
		t.Fatal("testdata/captured not found above the working directory")
	}
	max := int64(1 << 20)
	if testing.Short() {
		max = 200 << 10
	}
	inputs, err := Bundled(dir, max)
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) < 5 {
		t.Fatalf("only %d bundled inputs in %s", len(inputs), dir)
	}
	t.Run("groupby", func(t *testing.T) {
		path := plugintest.BuildNPM(t, filepath.Join("..", "..", plugintest.ExampleGroupBy))
		for _, c := range Run(context.Background(), path, Options{Inputs: inputs, Timeout: 10 * time.Second}) {
			if !c.Passed() {
				t.Error(c)
			}
		}
	})
	for _, pkg := range []string{plugintest.Logs, plugintest.RestList} {
		rel := filepath.Join("..", "..", "plugins", filepath.Base(pkg))
		if _, err := os.Stat(rel); err != nil {
			t.Logf("%s not in the tree yet; skipped", pkg)
			continue
		}
		t.Run(filepath.Base(pkg), func(t *testing.T) {
			path := plugintest.Build(t, pkg)
			// A generous deadline: this test checks behaviour on a shared CI
			// machine; speed is for the benchmarks (host/bench_test.go).
			for _, c := range Run(context.Background(), path, Options{Inputs: inputs, Timeout: 10 * time.Second}) {
				if !c.Passed() {
					t.Error(c)
				}
			}
		})
	}
}
