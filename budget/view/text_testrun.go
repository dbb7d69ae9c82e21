package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
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
	// errs are the first maxFailErrs lines of its output that state the
	// error (pytest's "E   AttributeError: …", a line with a severity
	// word), wherever they are in it; the view shows them in place of
	// the first lines (a test's source comes first in pytest's details).
	errs []string
}

// maxFailErrs bounds the error lines kept per failed test.
const maxFailErrs = 3

// codeFrameRe matches a line of a code frame (jest's and vitest's
// excerpt of the source: "> 2 | throw new Error(…)", "  4 |   test(…"):
// its severity words are code, not the error.
var codeFrameRe = regexp.MustCompile(`^\s*>?\s*\d+\s*\|`)

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
	// go test -v text: the output lines since the last === RUN, CONT or
	// NAME line (at most maxFailOutput; the rest counted), which belong
	// to the test whose --- line comes next.
	runOut  []string
	runMore int
	slowest []timedTest // the maxSlowest longest tests, longest first
	// Test reports (text_testreport.go): todo tests, suites, the
	// runner's own summary lines.
	testTodo int
	todos    []string
	// pytest's expected failures (XFAIL) and unexpected passes (XPASS):
	// their own statuses, not skipped nor passed tests.
	testXFail, testXPass int
	xfails, xpasses      []string
	suites               []*suiteStat
	summary              []posLine
	rep                  *reportState
	// runs: the "=== RUN" lines of go test text (nil for other kinds).
	runs *runSummary
	// tap: the reading of a TAP report (text_tap.go).
	tap *tapState
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
// test of 0s is not noted: every fast test takes "0.00s"), each test
// once.
func (t *testSummary) noteTime(name string, seconds float64, text string) {
	if seconds <= 0 {
		return
	}
	for k, s := range t.slowest {
		if s.name != name {
			continue
		}
		// A test run again (-count=N) is named once, at its slowest.
		if seconds <= s.seconds {
			return
		}
		t.slowest = append(t.slowest[:k], t.slowest[k+1:]...)
		break
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

// isGoTestJSON reports whether a JSON Lines text is a go test -json
// stream: its first values are go events (goEvents) and some event is a
// package's test event (it has a Package). A stream of build events
// only (go build -json: ImportPath, Action build-output or build-fail)
// has no tests to count: its events are records like any others, read
// by what they hold (their census, the failed build's output at the
// end), not summed up as a test run of 0 tests.
func isGoTestJSON(data []byte) bool {
	return goEvents(data) && bytes.Contains(data, []byte(`"Package":"`))
}

// goEvents reports whether the first values of a JSON Lines text are
// events of the go command (go test -json, go build -json).
func goEvents(data []byte) bool {
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
		t.addTAPLine(pos, line)
		return
	}
	// go test text.
	if t.runs == nil {
		t.runs = newRunSummary()
	}
	t.runs.add(pos, line)
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
	case strings.HasPrefix(trim, "=== RUN") || strings.HasPrefix(trim, "=== CONT") || strings.HasPrefix(trim, "=== NAME") || strings.HasPrefix(trim, "=== PAUSE"):
		// go test -v: the lines that follow are the next test's, not
		// the output of a failed test before it.
		t.last, t.runOut, t.runMore = nil, t.runOut[:0], 0
	case strings.HasPrefix(trim, "--- PASS: "):
		t.testPass++
		t.last, t.runOut, t.runMore = nil, t.runOut[:0], 0
	case strings.HasPrefix(trim, "--- SKIP: "):
		t.testSkip++
		t.last, t.runOut, t.runMore = nil, t.runOut[:0], 0
	case strings.HasPrefix(trim, "--- FAIL: "):
		t.testFail++
		name := strings.TrimPrefix(trim, "--- FAIL: ")
		if i := strings.Index(name, " ("); i >= 0 {
			name = name[:i]
		}
		// go test -v prints a test's output before its --- FAIL line;
		// without -v, after it (addOutput below).
		f := &failedTest{name: name, pos: pos, output: append([]string(nil), t.runOut...), more: t.runMore}
		t.runOut, t.runMore = t.runOut[:0], 0
		t.addFailed(f)
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
	case t.runs.runs > 0 && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")):
		if len(t.runOut) < maxFailOutput {
			t.runOut = append(t.runOut, line)
		} else {
			t.runMore++
		}
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
	if len(f.errs) < maxFailErrs && (strings.HasPrefix(line, "E ") || lineSeverity(line) == sevError && !codeFrameRe.MatchString(line)) {
		f.errs = append(f.errs, line)
	}
	if len(f.output) < maxFailOutput {
		f.output = append(f.output, line)
	} else {
		f.more++
	}
}

// finish orders the failed tests: by package, then as they failed.
func (t *testSummary) finish() {
	if t.tap != nil {
		t.tapFinish()
	}
	sort.SliceStable(t.failed, func(i, j int) bool { return t.failed[i].pkg < t.failed[j].pkg })
	t.running, t.runningMore = nil, nil
}

// Runs of go test -v (and of any runner that prints "=== RUN name" and
// "--- PASS: name (1.2s)" lines): a test run with -count=400 prints the
// same tests hundreds of times, and the questions are about runs, not
// result lines: how many tests were started, how many of them are
// top-level tests (no "/" in the name) and how many distinct ones, how
// often each ran and how many subtests it ran, which were running when
// the output ends (a timeout panic), and the panic's message with the
// tests it names as running.

// maxRunTests bounds the top-level tests counted by name (more are
// counted in total and by a hash for the distinct count).
const maxRunTests = 4096

// runStat is one top-level test's runs.
type runStat struct {
	name    string
	runs    int // "=== RUN name" lines
	subRuns int // "=== RUN name/..." lines
	first   int // the line of its first run
}

// runSummary counts the "=== RUN" lines of a go test text.
type runSummary struct {
	runs, topRuns int
	listed, once  int                 // testLines: the tests it lists, and those run at most once with no subtests (counted only)
	tests         map[string]*runStat // top-level tests by name, while at most maxRunTests
	order         []*runStat
	distinct      map[uint64]struct{} // hashes of every top-level name
	topPass       int                 // results of top-level tests ("--- PASS: name" without "/")
	topFail       int
	topSkip       int
	open          map[string]int // tests started and not finished, by name (at most maxRunningKept)
	openCut       bool           // past the cap: the open tests are not stated
	last          posLine        // the last "=== RUN" line
	panic         posLine        // the first "panic: " line at column 0, pos -1 if none
	panicRunning  []string       // the tests the panic names as running ("running tests:")
	inPanic       bool
}

func newRunSummary() *runSummary {
	return &runSummary{tests: map[string]*runStat{}, distinct: map[uint64]struct{}{}, open: map[string]int{}, panic: posLine{pos: -1}}
}

// testName is the name of a "=== RUN" or "--- PASS:" line's test (its
// "(1.20s)" left out), and whether the line is one.
func testName(trim, prefix string) (string, bool) {
	name, ok := strings.CutPrefix(trim, prefix)
	if !ok {
		return "", false
	}
	if i := strings.LastIndex(name, " ("); i >= 0 && strings.HasSuffix(name, ")") {
		name = name[:i]
	}
	return strings.TrimSpace(name), name != ""
}

// add counts one line.
func (rs *runSummary) add(pos int, line string) {
	trim := strings.TrimSpace(line)
	if rs.inPanic {
		// "panic: test timed out after 3s" then "\trunning tests:" and
		// one "\t\tTestX (3s)" line per test.
		switch {
		case trim == "running tests:":
			return
		case strings.HasPrefix(line, "\t\t") && trim != "" && len(rs.panicRunning) < maxFailedKept:
			rs.panicRunning = append(rs.panicRunning, trim)
			return
		}
		rs.inPanic = false
	}
	if strings.HasPrefix(line, "panic: ") && rs.panic.pos < 0 {
		rs.panic = posLine{pos, line}
		rs.inPanic = true
		return
	}
	if name, ok := testName(trim, "=== RUN "); ok {
		rs.runs++
		rs.last = posLine{pos, line}
		if !rs.openCut {
			if len(rs.open) >= maxRunningKept {
				rs.openCut, rs.open = true, nil
			} else {
				rs.open[name]++
			}
		}
		top, sub := name, false
		if i := strings.IndexByte(name, '/'); i >= 0 {
			top, sub = name[:i], true
		}
		if !sub {
			rs.topRuns++
			if len(rs.distinct) < maxDistinctTracked {
				rs.distinct[hashString(top)] = struct{}{}
			}
		}
		s := rs.tests[top]
		if s == nil && len(rs.tests) < maxRunTests {
			s = &runStat{name: top, first: pos}
			rs.tests[top] = s
			rs.order = append(rs.order, s)
		}
		if s != nil {
			if sub {
				s.subRuns++
			} else {
				s.runs++
			}
		}
		return
	}
	for _, r := range []struct {
		prefix string
		n      *int
	}{{"--- PASS: ", &rs.topPass}, {"--- FAIL: ", &rs.topFail}, {"--- SKIP: ", &rs.topSkip}} {
		name, ok := testName(trim, r.prefix)
		if !ok {
			continue
		}
		if !strings.Contains(name, "/") {
			*r.n++
		}
		if rs.open != nil {
			if rs.open[name] > 1 {
				rs.open[name]--
			} else {
				delete(rs.open, name)
			}
		}
		return
	}
}

// facts are the run's lines: runs, top-level runs and distinct tests,
// top-level results, the tests running at the end, the panic.
func (rs *runSummary) facts() []string {
	if rs.runs == 0 {
		return nil
	}
	distinct := fmt.Sprintf("%s distinct", commas(len(rs.distinct)))
	if len(rs.distinct) >= maxDistinctTracked {
		distinct = fmt.Sprintf("at least %s distinct", commas(len(rs.distinct)))
	}
	out := []string{fmt.Sprintf("test runs (=== RUN lines): %s; top-level runs (no \"/\" in the name): %s, of %s top-level tests; subtest runs: %s",
		commas(rs.runs), commas(rs.topRuns), distinct, commas(rs.runs-rs.topRuns))}
	out = append(out, fmt.Sprintf("top-level test results (--- lines without \"/\"): %s passed, %s failed, %s skipped; %s top-level runs with no result line",
		commas(rs.topPass), commas(rs.topFail), commas(rs.topSkip), commas(max(0, rs.topRuns-rs.topPass-rs.topFail-rs.topSkip))))
	if rs.last.pos >= 0 && rs.last.text != "" {
		out = append(out, fmt.Sprintf("last test started (line %s): %s", commas(rs.last.pos), cutLine(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rs.last.text), "=== RUN")))))
	}
	if !rs.openCut && len(rs.open) > 0 {
		var names []string
		for n := range rs.open {
			names = append(names, n)
		}
		sort.Strings(names)
		total := len(names)
		if len(names) > 20 {
			names = names[:20]
		}
		out = append(out, fmt.Sprintf("tests started with no result line (running when the output ends; %s): %s", commas(total), listAndMore(names, ", ", " ", total)))
	}
	if rs.panic.pos >= 0 {
		s := fmt.Sprintf("panic (line %s): %s", commas(rs.panic.pos), cutLine(strings.TrimPrefix(rs.panic.text, "panic: ")))
		if len(rs.panicRunning) > 0 {
			s += "; running tests it names: " + listAndMore(rs.panicRunning[:min(len(rs.panicRunning), 20)], ", ", " ", len(rs.panicRunning))
		}
		out = append(out, s)
	}
	return out
}

// testLines are the top-level tests by their runs, most runs first, 20
// a line: "TestCompare 263 (subtest runs: 28,401)"; the tests run at most
// once with no subtests are only counted, and none is listed when every
// test is such.
func (rs *runSummary) testLines() []string {
	if len(rs.order) < 2 {
		return nil
	}
	// A test run once with no subtests says nothing a count would:
	// such tests are counted, not listed (a run of 93 tests each once
	// listed 93 names with "1" for 2,000 tokens).
	var ts []*runStat
	once := 0
	for _, s := range rs.order {
		if s.runs <= 1 && s.subRuns == 0 {
			once++
			continue
		}
		ts = append(ts, s)
	}
	if len(ts) == 0 {
		return nil
	}
	sort.SliceStable(ts, func(i, j int) bool {
		a, b := ts[i].runs+ts[i].subRuns, ts[j].runs+ts[j].subRuns
		return a > b
	})
	var out []string
	for i := 0; i < len(ts); i += 20 {
		var parts []string
		for _, s := range ts[i:min(i+20, len(ts))] {
			p := fmt.Sprintf("%s %s", s.name, commas(s.runs))
			if s.subRuns > 0 {
				p += fmt.Sprintf(" (subtest runs: %s)", commas(s.subRuns))
			}
			parts = append(parts, p)
		}
		out = append(out, "  "+strings.Join(parts, ", "))
	}
	rs.listed, rs.once = len(ts), once
	return out
}

// goroutineStats counts a goroutine dump (a Go panic's, a timeout's, a
// SIGQUIT's): "goroutine 7 [chan receive, 5 minutes]:" headers, by
// state and by the function on top of each stack (the line after the
// header).
type goroutineStats struct {
	n      int
	first  int
	states map[string]int
	tops   map[string]int
	await  bool // the next non-blank line is a top frame
}

// goroutineHeader reads "goroutine 12 [state, 5 minutes]:" (Go 1.25
// adds "gp=0x… m=… mp=…" before the bracket): the state, without its
// duration.
func goroutineHeader(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "goroutine ")
	if !ok || rest == "" || !isDigitByte(rest[0]) || !strings.HasSuffix(rest, "]:") {
		return "", false
	}
	i := strings.IndexByte(rest, '[')
	if i < 0 {
		return "", false
	}
	state := rest[i+1 : len(rest)-2]
	if j := strings.IndexByte(state, ','); j >= 0 {
		state = state[:j]
	}
	return state, true
}

// frameFunc is a stack frame line's function: "testing.(*T).Run" of
// "testing.(*T).Run(0x64bce7f0488, {0x6fc9eb?, 0x0?}, 0x70c4b8)".
func frameFunc(line string) string {
	t := strings.TrimSpace(line)
	if !strings.HasSuffix(t, ")") {
		return cut(t, 120)
	}
	depth := 0
	for i := len(t) - 1; i >= 0; i-- {
		switch t[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return cut(t[:i], 120)
			}
		}
	}
	return cut(t, 120)
}

// add counts one line.
func (g *goroutineStats) add(pos int, line string) {
	if g.await && strings.TrimSpace(line) != "" {
		g.await = false
		if len(g.tops) < maxKinds || g.tops[frameFunc(line)] > 0 {
			g.tops[frameFunc(line)]++
		}
		return
	}
	if len(line) < 12 || line[0] != 'g' {
		return
	}
	state, ok := goroutineHeader(line)
	if !ok {
		return
	}
	if g.n == 0 {
		g.first = pos
		g.states, g.tops = map[string]int{}, map[string]int{}
	}
	g.n++
	if len(g.states) < maxKinds || g.states[state] > 0 {
		g.states[state]++
	}
	g.await = true
}

// fact is the dump's line, or "".
func (g *goroutineStats) fact() string {
	if g.n == 0 {
		return ""
	}
	states, _, moreS, _ := topCounts(g.states, 12, 60)
	if moreS > 0 {
		states += fmt.Sprintf(", %s more states", commas(moreS))
	}
	tops, _, moreT, restT := topCounts(g.tops, 8, 120)
	if moreT > 0 {
		tops += fmt.Sprintf("; %s more functions in %s goroutines", commas(moreT), commas(restT))
	}
	return fmt.Sprintf("goroutine dump: %s goroutines (the first at line %s); by state (exact counts): %s; by the function on top of their stack (exact counts): %s",
		commas(g.n), commas(g.first), states, tops)
}

// testFramingRe is the start of go test's lines that frame a test by
// its name ("=== RUN   TestX", "--- PASS: TestX (0.00s)"), whose
// severity words are the name's; "--- FAIL:" is no such line.
const testFramingRe = `^\\s*(?:=== (?:RUN|PAUSE|CONT|NAME) |--- (?:PASS|SKIP): )`

// testFraming reports whether a line is one of them.
func testFraming(line string) bool {
	t := strings.TrimLeft(line, " \t")
	for _, p := range []string{"=== RUN ", "=== PAUSE ", "=== CONT ", "=== NAME ", "--- PASS: ", "--- SKIP: "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
