// Package conformance is the conformance kit for compact plugins: it runs
// a plugin through the checks the host makes on every call (load and ABI
// version, framing, size, record counts, validity, time and memory
// limits) plus determinism across two runs, over the author's sample
// inputs and the bundled captured outputs, then runs every input once on
// extism/go-sdk, the reference Extism host, and requires the same results
// there ("reference host"), and reports one Check per test. "compact plugin test" prints them; Go tests run it on every
// first-party and example plugin.
package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// Check is the outcome of one check.
type Check struct {
	// Name says what was checked, such as "load" or
	// "github-issues.json: counts".
	Name string
	// Err is nil when the check passed, else the reason it failed.
	Err error
	// Note is extra information on a passing check (a declined input,
	// the time taken).
	Note string
}

// Passed reports whether the check passed.
func (c Check) Passed() bool { return c.Err == nil }

// String renders the check as "PASS name" or "FAIL name: reason".
func (c Check) String() string {
	if c.Err != nil {
		return "FAIL " + c.Name + ": " + oneLine(c.Err.Error())
	}
	if c.Note != "" {
		return "PASS " + c.Name + " (" + c.Note + ")"
	}
	return "PASS " + c.Name
}

// Input is one sample tool output.
type Input struct {
	// Name labels the input in check names (usually its file name).
	Name string
	// Data is the tool output, exactly as the tool returned it.
	Data []byte
	// ContentType is its media type; "" means sniff it.
	ContentType string
	// Bundled marks the captured outputs shipped with compact: a plugin
	// may decline those (return a non-zero status with a message) without
	// failing, since they come from tools it was not written for. It must
	// not crash, hang, or lose records on them.
	Bundled bool
}

// Options configure Run.
type Options struct {
	// Tool is the tool name sent in the input header ("plugin-test" when
	// empty).
	Tool string
	// Records are the registry's record paths for the tool (nil detects
	// them).
	Records []string
	// Budget is the token budget sent in the header (host.DefaultBudget
	// when 0).
	Budget int
	// Config is the plugin's string configuration.
	Config map[string]string
	// Timeout and Memory are the limits of each call (the host's
	// defaults when 0).
	Timeout time.Duration
	Memory  int64
	// CacheDir is the compilation cache directory ("" for the default).
	CacheDir string
	// Inputs are the inputs to run.
	Inputs []Input
	// NoReference skips the "reference host" check, which loads the
	// plugin a second time on extism/go-sdk.
	NoReference bool
}

// Run loads the plugin at path and runs every check on every input. It
// never fails itself: every problem is a failed Check.
func Run(ctx context.Context, path string, o Options) []Check {
	if o.Tool == "" {
		o.Tool = "plugin-test"
	}
	if o.Budget == 0 {
		o.Budget = host.DefaultBudget
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = host.DefaultTimeout
	}
	start := time.Now()
	p, err := host.LoadPlugin(ctx, path, host.PluginOptions{
		Timeout: o.Timeout, Memory: o.Memory, Config: o.Config, CacheDir: o.CacheDir, PoolSize: 1,
	})
	if err != nil {
		return []Check{{Name: "load", Err: err}}
	}
	defer p.Close(ctx)
	checks := []Check{{Name: "load", Note: fmt.Sprintf("exports and ABI version %d checked in %v", schemas.ABIVersion, time.Since(start).Round(time.Millisecond))}}
	if len(o.Inputs) == 0 {
		checks = append(checks, Check{Name: "inputs", Err: errors.New("no inputs to run the plugin on")})
	}
	firsts := make([]outcome, len(o.Inputs))
	for k, in := range o.Inputs {
		var cs []Check
		cs, firsts[k] = runInput(ctx, p, o, timeout, in)
		checks = append(checks, cs...)
	}
	if !o.NoReference && len(o.Inputs) > 0 {
		checks = append(checks, reference(ctx, path, o, firsts))
	}
	return checks
}

// outcome is what the first call on an input gave.
type outcome struct {
	framed []byte
	out    []byte
	err    error
}

// reference runs every input once more on extism/go-sdk, the reference
// Extism host, and requires what the host's own runtime gave: the same
// output bytes, or the same fault kind (and the same message for the
// plugin's own error). A plugin that passes is a genuine Extism plugin,
// not one that works only on compact.
func reference(ctx context.Context, path string, o Options, firsts []outcome) Check {
	const name = "reference host"
	start := time.Now()
	ref, err := host.LoadPlugin(ctx, path, host.PluginOptions{
		Timeout: o.Timeout, Memory: o.Memory, Config: o.Config, CacheDir: o.CacheDir, PoolSize: 1, Runtime: host.RuntimeExtismSDK,
	})
	if err != nil {
		return Check{Name: name, Err: fmt.Errorf("extism/go-sdk (the reference Extism host) cannot load it: %w", err)}
	}
	defer ref.Close(ctx)
	n := 0
	for k, f := range firsts {
		if f.framed == nil {
			continue
		}
		n++
		out, err := ref.Call(ctx, f.framed)
		if msg := differs(f.out, f.err, out, err); msg != "" {
			return Check{Name: name, Err: fmt.Errorf("%s: on extism/go-sdk (the reference Extism host) %s", o.Inputs[k].Name, msg)}
		}
	}
	return Check{Name: name, Note: fmt.Sprintf("same results on extism/go-sdk for %d inputs, %v", n, time.Since(start).Round(time.Millisecond))}
}

// differs says how the reference host's result differs from the host's,
// or "" when it does not.
func differs(out []byte, err error, refOut []byte, refErr error) string {
	kind := func(err error) (host.Kind, string) {
		var pe *host.PluginError
		if !errors.As(err, &pe) {
			return "error", err.Error()
		}
		if pe.Kind == host.KindFailed {
			return pe.Kind, pe.Err.Error()
		}
		return pe.Kind, ""
	}
	switch {
	case err == nil && refErr == nil:
		if !bytes.Equal(out, refOut) {
			return fmt.Sprintf("the output differs at byte %d (%d bytes here, %d there)", firstDiff(out, refOut), len(out), len(refOut))
		}
	case err == nil:
		return "the call failed: " + oneLine(refErr.Error())
	case refErr == nil:
		return fmt.Sprintf("the call succeeded (%d bytes) where compact's host gave %s", len(refOut), oneLine(err.Error()))
	default:
		k1, m1 := kind(err)
		k2, m2 := kind(refErr)
		if k1 != k2 || m1 != m2 {
			return fmt.Sprintf("the call gave %s (%s) where compact's host gave %s (%s)", k2, oneLine(refErr.Error()), k1, oneLine(err.Error()))
		}
	}
	return ""
}

// runInput runs the checks of one input and returns them with the
// outcome of the first call (for the reference host check).
func runInput(ctx context.Context, p *host.Plugin, o Options, timeout time.Duration, in Input) ([]Check, outcome) {
	name := func(s string) string { return in.Name + ": " + s }
	ct := in.ContentType
	if ct == "" {
		ct = budget.Sniff(in.Data)
	}
	h := schemas.InputHeader{ABI: schemas.ABIVersion, Tool: o.Tool, BudgetTokens: o.Budget, ContentType: ct, Config: o.Config}
	framed, err := host.EncodeInput(h, in.Data)
	if err != nil {
		return []Check{{Name: name("input"), Err: err}}, outcome{}
	}

	// 1. The call: no trap, no timeout, no memory fault, status 0.
	start := time.Now()
	out, err := p.Call(ctx, framed)
	took := time.Since(start)
	first := outcome{framed: framed, out: out, err: err}
	var pe *host.PluginError
	if errors.As(err, &pe) && pe.Kind == host.KindFailed && in.Bundled {
		return []Check{{Name: name("runs"), Note: "declined: " + oneLine(pe.Err.Error())}}, first
	}
	if err != nil {
		return []Check{{Name: name("runs"), Err: withLog(err)}}, first
	}
	checks := []Check{{Name: name("runs"), Note: fmt.Sprintf("%v of a %v deadline", took.Round(time.Millisecond), timeout)}}

	// 2. Framing.
	hdr, payload, err := host.DecodeOutput(out)
	if err != nil {
		return append(checks, Check{Name: name("framing"), Err: err}), first
	}
	checks = append(checks, Check{Name: name("framing")})

	// 3. Size.
	if len(payload) > len(in.Data) {
		checks = append(checks, Check{Name: name("size"), Err: fmt.Errorf("payload is %d bytes, larger than the %d-byte input", len(payload), len(in.Data))})
	} else {
		checks = append(checks, Check{Name: name("size"), Note: fmt.Sprintf("%d → %d bytes", len(in.Data), len(payload))})
	}

	// 4. Counts and validity, then content (every value the input's,
	// records in order, no new text, groups true), exactly as the host
	// verifies them.
	err = host.VerifyPluginOutput(in.Data, o.Records, budget.Output{Content: payload, ContentType: hdr.ContentType, Declared: hdr.Collections, Actions: hdr.Actions}, o.Config)
	if errors.Is(err, host.ErrContent) {
		checks = append(checks, Check{Name: name("counts")}, Check{Name: name("content"), Err: err})
	} else {
		checks = append(checks, Check{Name: name("counts"), Err: err})
		if err == nil {
			checks = append(checks, Check{Name: name("content")})
		}
	}

	// 5. Determinism: a second run on a fresh call gives the same bytes.
	again, err := p.Call(ctx, framed)
	switch {
	case err != nil:
		checks = append(checks, Check{Name: name("deterministic"), Err: fmt.Errorf("second run failed: %w", withLog(err))})
	case !bytes.Equal(out, again):
		checks = append(checks, Check{Name: name("deterministic"), Err: fmt.Errorf("second run differs at byte %d of %d", firstDiff(out, again), len(out))})
	default:
		checks = append(checks, Check{Name: name("deterministic")})
	}
	return checks, first
}

// withLog adds the plugin's captured log to a fault, for the author.
func withLog(err error) error {
	var pe *host.PluginError
	if errors.As(err, &pe) && strings.TrimSpace(pe.Log) != "" {
		return fmt.Errorf("%w [plugin log: %s]", err, oneLine(pe.Log))
	}
	return err
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// oneLine joins lines and shortens s to keep one check on one line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// Failed counts the failed checks.
func Failed(checks []Check) int {
	n := 0
	for _, c := range checks {
		if !c.Passed() {
			n++
		}
	}
	return n
}

// ReadInput reads one input file; its content type is guessed from the
// extension (.json, .jsonl/.ndjson, .txt/.log) or sniffed.
func ReadInput(path string) (Input, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Input{}, fmt.Errorf("input: %w", err)
	}
	return Input{Name: filepath.Base(path), Data: data, ContentType: typeByExt(path)}, nil
}

func typeByExt(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return budget.TypeJSON
	case ".jsonl", ".ndjson":
		return budget.TypeNDJSON
	case ".txt", ".log":
		return budget.TypeText
	}
	return ""
}

// BundledDir finds testdata/captured under the module root above the
// working directory, or returns "" when there is none.
func BundledDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "testdata", "captured")
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				return d
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Bundled reads the captured tool outputs in dir (.json, .jsonl and .txt
// files; question and golden files are skipped), marked Bundled, largest
// last. maxBytes skips larger files when positive.
func Bundled(dir string, maxBytes int64) ([]Input, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("bundled inputs: %w", err)
	}
	type sized struct {
		path string
		size int64
	}
	var files []sized
	for _, e := range ents {
		if e.IsDir() || typeByExt(e.Name()) == "" || strings.Contains(e.Name(), ".golden") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("bundled inputs: %w", err)
		}
		if maxBytes > 0 && info.Size() > maxBytes {
			continue
		}
		files = append(files, sized{filepath.Join(dir, e.Name()), info.Size()})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].size < files[j].size })
	var ins []Input
	for _, f := range files {
		in, err := ReadInput(f.path)
		if err != nil {
			return nil, err
		}
		in.Bundled = true
		ins = append(ins, in)
	}
	return ins, nil
}
