package view

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Test reports: go test -json events, go test (-v) text and TAP, summed
// up as packages and tests passed, failed and skipped, the failed tests
// by name with the first lines of their output, and build failures.

// maxSkippedNames bounds the skipped tests named.
const maxSkippedNames = 20

// maxFailOutput bounds the output lines kept per failed test.
const maxFailOutput = 12

// Caps on what a test run's summary holds, so that it does not grow with
// the events: the failed tests and failed packages named (each counted
// exactly in testFail and pkgFail), and the running tests whose output
// is kept until they end (a test past the cap shows no output lines).
const (
	maxFailedKept  = 2000
	maxFailedPkgs  = 500
	maxRunningKept = 10000
)

// failedTest is one failed test and what it printed.
type failedTest struct {
	pkg    string
	name   string
	pos    int // position of its fail event or line
	output []string
	more   int    // output lines past maxFailOutput
	line   string // the test's line as a test report printed it (trimmed), or ""
}

// testSummary counts a test run.
type testSummary struct {
	events                       int
	pkgPass, pkgFail, pkgSkip    int
	testPass, testFail, testSkip int
	failedPkgs                   []string
	skipped                      []string // names of skipped tests (at most maxSkippedNames)
	failed                       []*failedTest
	buildErrors                  []posLine // build-output lines of failed builds (go test -json)
	buildFails                   int
	elapsed                      float64             // sum of the packages' Elapsed
	output                       []posLine           // the last output lines, in order (go test -json)
	pkgLines                     []posLine           // "ok", "FAIL", "?" lines of packages (go test -json)
	running                      map[string][]string // output of running tests, at most maxRunningKept
	runningMax                   int                 // the most running tests held at once
	runningMore                  map[string]int
	last                         *failedTest // TAP/go test text: the test whose output follows
	slowest                      []timedTest // the maxSlowest longest tests, longest first
	// Test reports (text_testreport.go): todo tests, suites, the
	// runner's own summary lines.
	testTodo int
	todos    []string
	suites   []*suiteStat
	summary  []posLine
	rep      *reportState
}

// maxSlowest bounds the slowest tests named.
const maxSlowest = 5

// timedTest is a test and how long it took, as go test printed it.
type timedTest struct {
	name    string
	seconds float64
	text    string // "1.80s"
}

// noteTime keeps the test among the slowest when it is one of them (a
// test of 0s is not noted: every fast test takes "0.00s").
func (t *testSummary) noteTime(name string, seconds float64, text string) {
	if seconds <= 0 {
		return
	}
	i := len(t.slowest)
	for i > 0 && t.slowest[i-1].seconds < seconds {
		i--
	}
	if i >= maxSlowest {
		return
	}
	t.slowest = append(t.slowest, timedTest{})
	copy(t.slowest[i+1:], t.slowest[i:])
	t.slowest[i] = timedTest{name, seconds, text}
	if len(t.slowest) > maxSlowest {
		t.slowest = t.slowest[:maxSlowest]
	}
}

// durationOf parses the "(1.80s)" that ends a go test text result line.
func durationOf(line string) (float64, string, bool) {
	i := strings.LastIndex(line, " (")
	if i < 0 || !strings.HasSuffix(line, "s)") {
		return 0, "", false
	}
	s := line[i+2 : len(line)-2]
	_, f, ok := parseDecimal(s)
	if !ok {
		return 0, "", false
	}
	return f, s + "s", true
}

// goTestEvent is one line of go test -json (cmd/test2json).
type goTestEvent struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	Elapsed     float64
	FailedBuild string
}

// isGoTestJSON reports whether the first values of a JSON Lines text are
// go test -json events.
func isGoTestJSON(data []byte) bool {
	n, hits := 0, 0
	textLines(data[:min(len(data), 64<<10)], func(pos int, line string) {
		if n >= 20 || strings.TrimSpace(line) == "" {
			return
		}
		n++
		var e goTestEvent
		if json.Unmarshal([]byte(line), &e) == nil && e.Action != "" && (e.Package != "" || e.ImportPath != "") {
			hits++
		}
	})
	return n > 0 && hits*10 >= n*9
}

// analyzeGoTestJSON sums up go test -json events, one a line.
func analyzeGoTestJSON(data []byte) *testSummary {
	t := &testSummary{running: map[string][]string{}, runningMore: map[string]int{}}
	textLines(data, func(pos int, line string) {
		var e goTestEvent
		if json.Unmarshal([]byte(line), &e) != nil {
			return
		}
		t.events++
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "output":
			out := strings.TrimSuffix(e.Output, "\n")
			if len(t.output) == tailKeep {
				t.output = t.output[1:]
			}
			t.output = append(t.output, posLine{pos, out})
			if e.Test == "" && (strings.HasPrefix(out, "ok  ") || strings.HasPrefix(out, "FAIL\t") || strings.HasPrefix(out, "?   ")) && len(t.pkgLines) < 10000 {
				t.pkgLines = append(t.pkgLines, posLine{pos, out})
			}
			if e.Test != "" && !boringTestOutput(out) {
				if _, ok := t.running[key]; !ok && (len(t.running) >= maxRunningKept || len(t.failed) >= maxFailedKept) {
					break // not held: past the cap, or no more failed tests are listed
				}
				if len(t.running[key]) < maxFailOutput {
					t.running[key] = append(t.running[key], out)
					t.runningMax = max(t.runningMax, len(t.running))
				} else {
					t.runningMore[key]++
				}
			}
		case "build-output":
			out := strings.TrimSuffix(e.Output, "\n")
			if len(t.buildErrors) < 200 {
				t.buildErrors = append(t.buildErrors, posLine{pos, out})
			}
		case "build-fail":
			t.buildFails++
		case "pass", "fail", "skip":
			if e.Test == "" {
				t.elapsed += e.Elapsed
				switch e.Action {
				case "pass":
					t.pkgPass++
				case "fail":
					t.pkgFail++
					name := e.Package
					if e.FailedBuild != "" {
						name += " [build failed]"
					}
					if len(t.failedPkgs) < maxFailedPkgs {
						t.failedPkgs = append(t.failedPkgs, name)
					}
				default:
					t.pkgSkip++
				}
				break
			}
			if e.Action != "skip" {
				t.noteTime(e.Package+" "+e.Test, e.Elapsed, strconvSeconds(e.Elapsed))
			}
			switch e.Action {
			case "pass":
				t.testPass++
			case "fail":
				t.testFail++
				if len(t.failed) < maxFailedKept {
					t.failed = append(t.failed, &failedTest{pkg: e.Package, name: e.Test, pos: pos,
						output: t.running[key], more: t.runningMore[key]})
				}
			default:
				t.testSkip++
				if len(t.skipped) < maxSkippedNames {
					t.skipped = append(t.skipped, e.Package+" "+e.Test)
				}
			}
			delete(t.running, key)
			delete(t.runningMore, key)
		}
	})
	t.finish()
	return t
}

// strconvSeconds prints an Elapsed as go test prints it: "1.80s".
func strconvSeconds(s float64) string { return strconv.FormatFloat(s, 'f', 2, 64) + "s" }

// boringTestOutput reports the framing lines of go test output that say
// nothing a failed test's name does not.
func boringTestOutput(s string) bool {
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- FAIL", "--- SKIP"} {
		if strings.HasPrefix(strings.TrimSpace(s), p) {
			return true
		}
	}
	return false
}

// addLine counts one line of go test text or TAP.
func (t *testSummary) addLine(pos int, line, kind string) {
	t.events++
	trim := strings.TrimSpace(line)
	if kind == textTAP {
		switch {
		case strings.HasPrefix(line, "ok "):
			t.testPass++
			t.last = nil
		case strings.HasPrefix(line, "not ok "):
			if strings.Contains(line, "# SKIP") || strings.Contains(line, "# skip") || strings.Contains(line, "# TODO") {
				t.testSkip++
				t.last = nil
				return
			}
			t.testFail++
			f := &failedTest{name: strings.TrimSpace(strings.TrimPrefix(line, "not ok ")), pos: pos}
			t.addFailed(f)
		default:
			if t.last != nil && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "#")) {
				t.last.addOutput(line)
			}
		}
		return
	}
	// go test text.
	if strings.HasPrefix(trim, "--- PASS: ") || strings.HasPrefix(trim, "--- FAIL: ") {
		if sec, text, ok := durationOf(trim); ok {
			name := trim[len("--- PASS: "):]
			if i := strings.LastIndex(name, " ("); i >= 0 {
				name = name[:i]
			}
			t.noteTime(name, sec, text)
		}
	}
	switch {
	case strings.HasPrefix(trim, "--- PASS: "):
		t.testPass++
	case strings.HasPrefix(trim, "--- SKIP: "):
		t.testSkip++
	case strings.HasPrefix(trim, "--- FAIL: "):
		t.testFail++
		name := strings.TrimPrefix(trim, "--- FAIL: ")
		if i := strings.Index(name, " ("); i >= 0 {
			name = name[:i]
		}
		t.addFailed(&failedTest{name: name, pos: pos})
	case (strings.HasPrefix(line, "ok  \t") || strings.HasPrefix(line, "ok \t")) && len(strings.Fields(line)) >= 2:
		t.pkgPass++
		t.assignPackage(strings.Fields(line)[1])
		t.last = nil
	case (strings.HasPrefix(line, "FAIL\t") || strings.HasPrefix(line, "FAIL ")) && len(strings.Fields(line)) >= 2:
		t.pkgFail++
		f := strings.Fields(line)
		name := f[1]
		if strings.Contains(line, "[build failed]") || strings.Contains(line, "[setup failed]") {
			name += " " + f[len(f)-2] + " " + f[len(f)-1]
		}
		if len(t.failedPkgs) < maxFailedPkgs {
			t.failedPkgs = append(t.failedPkgs, name)
		}
		t.assignPackage(f[1])
		t.last = nil
	case strings.HasPrefix(line, "?   \t"):
		t.pkgSkip++
	case t.last != nil && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")):
		t.last.addOutput(line)
	}
}

// addFailed notes a failed test of go test text or TAP, whose output
// lines follow (none are kept past maxFailedKept: it is only counted).
func (t *testSummary) addFailed(f *failedTest) {
	t.last = nil
	if len(t.failed) < maxFailedKept {
		t.failed = append(t.failed, f)
		t.last = f
	}
}

// assignPackage names the package of the failed tests seen since the last
// package line (go test prints a package's line after its tests).
func (t *testSummary) assignPackage(pkg string) {
	for i := len(t.failed) - 1; i >= 0 && t.failed[i].pkg == ""; i-- {
		t.failed[i].pkg = pkg
	}
}

func (f *failedTest) addOutput(line string) {
	if len(f.output) < maxFailOutput {
		f.output = append(f.output, line)
	} else {
		f.more++
	}
}

// finish orders the failed tests: by package, then as they failed.
func (t *testSummary) finish() {
	sort.SliceStable(t.failed, func(i, j int) bool { return t.failed[i].pkg < t.failed[j].pkg })
	t.running, t.runningMore = nil, nil
}
