package conformance

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/host"
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
	for _, want := range []string{"load", "issues.json: runs", "issues.json: framing", "issues.json: size", "issues.json: counts", "issues.json: content", "issues.json: deterministic", "app.log: counts", "app.log: content"} {
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
		{"fabricate", faults, "issues.json: content", `.[0].id: value 2 differs from the input's 1`},
		{"reorder", faults, "issues.json: content", `.[0].id: value 2 differs from the input's 1`},
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

// TestReferenceHost: the echo plugin gives the same results on
// extism/go-sdk; a guest whose output depends on what the host ABI leaves
// to each host (memory_bytes) fails the check, naming the input.
func TestReferenceHost(t *testing.T) {
	ctx := context.Background()
	checks := Run(ctx, plugintest.Build(t, plugintest.Faults), Options{Config: map[string]string{"fault": "echo"}, Inputs: sampleInputs()})
	if c, ok := find(checks, "reference host"); !ok || !c.Passed() || !strings.Contains(c.Note, "for 2 inputs") {
		t.Errorf("echo: reference host check %v (found %v)", c, ok)
	}
	checks = Run(ctx, plugintest.Build(t, "../testdata/guests/divergent"), Options{Inputs: sampleInputs()[1:]})
	c, ok := find(checks, "reference host")
	if !ok || c.Passed() || !strings.Contains(c.Err.Error(), "app.log: on extism/go-sdk (the reference Extism host) the output differs") {
		t.Errorf("divergent: reference host check %v (found %v)", c, ok)
	}
	checks = Run(ctx, plugintest.Build(t, plugintest.Faults), Options{Config: map[string]string{"fault": "echo"}, Inputs: sampleInputs(), NoReference: true})
	if _, ok := find(checks, "reference host"); ok {
		t.Error("NoReference still ran the reference host check")
	}
}

func TestDiffers(t *testing.T) {
	fail := &host.PluginError{Kind: host.KindFailed, Err: errors.New("no")}
	trap := &host.PluginError{Kind: host.KindTrap, Err: errors.New("unreachable")}
	cases := []struct {
		out    string
		err    error
		refOut string
		refErr error
		want   string
	}{
		{"a", nil, "a", nil, ""},
		{"ab", nil, "ac", nil, "differs at byte 1"},
		{"a", nil, "", trap, "the call failed"},
		{"", trap, "a", nil, "the call succeeded"},
		{"", trap, "", &host.PluginError{Kind: host.KindTrap, Err: errors.New("other text")}, ""},
		{"", trap, "", fail, "gave failed"},
		{"", fail, "", &host.PluginError{Kind: host.KindFailed, Err: errors.New("yes")}, "gave failed"},
	}
	for _, c := range cases {
		got := differs([]byte(c.out), c.err, []byte(c.refOut), c.refErr)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("differs(%q, %v, %q, %v) = %q, want %q", c.out, c.err, c.refOut, c.refErr, got, c.want)
		}
	}
}
