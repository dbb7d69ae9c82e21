package view

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Test reports in text other than go test's: jest --verbose, vitest
// --reporter=verbose, mocha's spec reporter, pytest -v. Each test is a
// line that starts (after its indentation) with a status mark or ends
// with a status word:
//
//	✓ ✔ √            passed      (jest, vitest, mocha)
//	✕ ✗ × ✘          failed      (jest, vitest)
//	N) name          failed      (mocha, before its "N failing" line)
//	○ ↓ - name       skipped     (jest "○ skipped", vitest, mocha pending)
//	✎                todo        (jest "✎ todo")
//	path::name PASSED|FAILED|SKIPPED|XFAIL|XPASS|ERROR   (pytest -v)
//
// A test's suite is its file: jest's "PASS path" / "FAIL path" line
// above it (a suite block), the part of the test line before its first
// " > " (vitest) or "::" (pytest); else (mocha) the last describe line at
// the report's shallowest indentation. Durations in parentheses ("(123
// ms)", "(1.2s)") or after the name ("481ms", vitest) rank the slowest
// tests. The failure details that follow the tests (jest's "● suite ›
// name", vitest's "FAIL  file > name", mocha's "1) suite") give each
// failed test its first output lines. The summary the tool prints at the
// end (jest's "Tests:", "Test Suites:", "Time:"; vitest's "Test Files",
// "Duration"; mocha's "N passing"; pytest's "=== N failed, M passed in
// Ts ===") is kept as printed. Everything is counted exactly over every
// line; names are kept up to the caps of testSummary.

const (
	maxSuites     = 2000 // suites profiled by name (more are counted)
	maxReportSumm = 16   // summary lines kept (the last ones)
)

// suiteStat is one suite (test file) of a test report.
type suiteStat struct {
	name                   string
	pos                    int    // its header line, or its first test's
	status                 string // "PASS", "FAIL" as the tool printed it, or "" (derived from its tests)
	pass, fail, skip, todo int
	xfail, xpass           int // pytest's XFAIL, XPASS
}

// reportState is what addReportLine keeps between lines.
type reportState struct {
	suiteHeads   bool       // the report has "PASS path" / "FAIL path" lines (jest)
	cur          *suiteStat // the suite of the tests that follow
	byName       map[string]*suiteStat
	failedByName map[string][]*failedTest // failed tests by their last name segment
	inDetails    bool                     // past the tests, in the failure details (mocha, after "N failing")
	describe     string                   // the last describe line (mocha)
	describeInd  int
	suiteMore    int // suites past maxSuites (counted in suitePass/suiteFail)
	// header: the lines after pytest's "=== test session starts ==="
	// up to the first blank line (platform, Python and pytest versions,
	// rootdir, plugins, the number of items collected).
	header   []string
	inHeader bool
}

// maxHeaderLines bounds the session header kept.
const maxHeaderLines = 8

// testMark classifies the status mark a trimmed test line starts with:
// the status and the name after the mark, or "" when there is none.
func testMark(trim string) (status, name string) {
	r, n := utf8.DecodeRuneInString(trim)
	if n == 0 || n >= len(trim) || trim[n] != ' ' {
		return "", ""
	}
	name = strings.TrimSpace(trim[n+1:])
	if name == "" {
		return "", ""
	}
	switch r {
	case '✓', '✔', '√':
		return "pass", name
	case '✕', '✗', '×', '✘':
		return "fail", name
	case '○', '↓':
		return "skip", strings.TrimPrefix(name, "skipped ")
	case '✎':
		return "todo", strings.TrimPrefix(name, "todo ")
	}
	return "", ""
}

// pytestStatus splits a pytest -v line "path::name STATUS [ 10%]".
func pytestStatus(trim string) (status, name string) {
	if !strings.Contains(trim, "::") {
		return "", ""
	}
	s := trim
	if i := strings.LastIndex(s, " ["); i > 0 && strings.HasSuffix(s, "%]") {
		s = strings.TrimSpace(s[:i])
	}
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return "", ""
	}
	if strings.HasSuffix(s, ")") {
		// pytest 7 writes the reason after the status: "SKIPPED (no
		// network)", "XFAIL (reason)".
		if j := strings.LastIndex(s, " ("); j > 0 {
			if k := strings.LastIndexByte(s[:j], ' '); k > 0 {
				switch s[k+1 : j] {
				case "SKIPPED", "XFAIL", "XPASS", "PASSED", "FAILED", "ERROR":
					i, s = k, s[:j]
				}
			}
		}
	}
	switch s[i+1:] {
	case "PASSED":
		return "pass", s[:i]
	case "FAILED", "ERROR":
		return "fail", s[:i]
	case "SKIPPED":
		return "skip", s[:i]
	case "XFAIL":
		return "xfail", s[:i]
	case "XPASS":
		return "xpass", s[:i]
	}
	return "", ""
}

// mochaFailed reports a mocha failed test line "N) name" (trimmed).
func mochaFailed(trim string) (int, string, bool) {
	i := 0
	for i < len(trim) && i < 6 && isDigitByte(trim[i]) {
		i++
	}
	if i == 0 || i+2 > len(trim) || trim[i] != ')' || trim[i+1] != ' ' {
		return 0, "", false
	}
	n := 0
	for _, c := range trim[:i] {
		n = 10*n + int(c-'0')
	}
	return n, strings.TrimSpace(trim[i+2:]), true
}

// suiteHead splits jest's suite line "PASS path" / "FAIL path (1.2 s)".
func suiteHead(line string) (status, name string, ok bool) {
	for _, st := range []string{"PASS ", "FAIL "} {
		if strings.HasPrefix(line, st) {
			f := strings.Fields(line[len(st):])
			if len(f) > 0 && strings.ContainsAny(f[0], "/.") {
				return st[:4], f[0], true
			}
		}
	}
	return "", "", false
}

// reportDuration parses a test's duration at the end of its name:
// "(123 ms)", "(123ms)", "(1.2 s)", "(1.2s)" or " 481ms"; it returns the
// name without it.
func reportDuration(name string) (string, float64, string) {
	s := strings.TrimSpace(name)
	text, rest := "", s
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, " ("); i >= 0 {
			text, rest = s[i+2:len(s)-1], s[:i]
		}
	} else if i := strings.LastIndexByte(s, ' '); i >= 0 && strings.HasSuffix(s, "ms") {
		text, rest = s[i+1:], s[:i]
	}
	if text == "" {
		return s, 0, ""
	}
	num, unit := strings.TrimSpace(strings.TrimRight(text, "ms")), strings.TrimLeft(text, "0123456789. ")
	_, f, ok := parseDecimal(num)
	if !ok || num == "" {
		return s, 0, ""
	}
	switch unit {
	case "ms":
		return rest, f / 1000, text
	case "s":
		return rest, f, text
	}
	return s, 0, ""
}

// reportSummaryLine reports whether a trimmed line is part of the summary
// a test runner prints at the end.
func reportSummaryLine(trim string) bool {
	for _, p := range []string{"Tests:", "Test Suites:", "Snapshots:", "Time:", "Ran all test suites", "Test Files ", "Tests ", "Duration ", "Start at "} {
		if strings.HasPrefix(trim, p) {
			return true
		}
	}
	if n, w := leadingCount(trim); n && (w == "passing" || w == "failing" || w == "pending") {
		return true
	}
	if strings.HasPrefix(trim, "==") && strings.HasSuffix(trim, "==") &&
		(strings.Contains(trim, " passed") || strings.Contains(trim, " failed") || strings.Contains(trim, " error")) {
		return true
	}
	return false
}

// leadingCount reports whether s is "N word ..." and returns the word.
func leadingCount(s string) (bool, string) {
	i := 0
	for i < len(s) && isDigitByte(s[i]) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != ' ' {
		return false, ""
	}
	w := s[i+1:]
	if j := strings.IndexByte(w, ' '); j >= 0 {
		w = w[:j]
	}
	return true, w
}

// isTestReport reports whether a line is a test line of a report (for
// the detection of the kind).
func isTestReportLine(line string) bool {
	trim := strings.TrimSpace(line)
	if st, _ := testMark(trim); st != "" && (st != "skip" || line != trim) {
		return true
	}
	if st, _ := pytestStatus(trim); st != "" {
		return true
	}
	_, _, ok := suiteHead(line)
	return ok
}

// lastSegment is a test's own name: after the last " › " or " > ".
func lastSegment(name string) string {
	for _, sep := range []string{" › ", " > ", "::"} {
		if i := strings.LastIndex(name, sep); i >= 0 {
			name = name[i+len(sep):]
		}
	}
	return strings.TrimSpace(name)
}

// suiteOf finds or makes the suite named name.
func (t *testSummary) suiteOf(name string, pos int) *suiteStat {
	rs := t.rep
	if s := rs.byName[name]; s != nil {
		return s
	}
	s := &suiteStat{name: name, pos: pos}
	if len(t.suites) < maxSuites {
		t.suites = append(t.suites, s)
		rs.byName[name] = s
	} else {
		rs.suiteMore++
	}
	return s
}

// addReportLine counts one line of a test report.
func (t *testSummary) addReportLine(pos int, line string) {
	t.events++
	rs := t.rep
	if rs == nil {
		rs = &reportState{byName: map[string]*suiteStat{}, failedByName: map[string][]*failedTest{}}
		t.rep = rs
	}
	trim := strings.TrimSpace(line)
	if rs.inHeader {
		if trim == "" || len(rs.header) == maxHeaderLines {
			rs.inHeader = false
		} else {
			rs.header = append(rs.header, cut(trim, 200))
			return
		}
	}
	if trim == "" {
		return
	}
	if strings.HasPrefix(trim, "==") && strings.HasSuffix(trim, "==") && strings.Contains(trim, " test session starts ") && rs.header == nil {
		rs.inHeader = true
		return
	}
	if reportSummaryLine(trim) && (line == trim || strings.HasPrefix(line, " ")) {
		if len(t.summary) == maxReportSumm {
			t.summary = t.summary[1:]
		}
		t.summary = append(t.summary, posLine{pos, trim})
		if ok, w := leadingCount(trim); ok && w == "failing" {
			rs.inDetails = true // mocha: the failure details follow
		}
		t.last = nil
		return
	}
	if st, name, ok := suiteHead(line); ok {
		rs.suiteHeads = true
		s := t.suiteOf(name, pos)
		s.status = st
		rs.cur = s
		t.last = nil
		return
	}
	status, name := testMark(trim)
	if status == "skip" && line == trim {
		status = "" // "- x" or "○ x" at column 0 is no test
	}
	if status == "" && line != trim && !rs.inDetails && t.last == nil {
		if strings.HasPrefix(trim, "- ") && len(trim) > 2 {
			status, name = "skip", strings.TrimSpace(trim[2:]) // mocha pending
		} else if _, nm, ok := mochaFailed(trim); ok {
			status, name = "fail", nm
		}
	}
	if status == "" {
		status, name = pytestStatus(trim)
	}
	if status == "" {
		t.reportDetail(pos, line, trim)
		return
	}
	name, secs, dur := reportDuration(name)
	suite := ""
	switch {
	case rs.suiteHeads && rs.cur != nil:
		suite = rs.cur.name
	case strings.Contains(name, " > "):
		suite = strings.TrimSpace(name[:strings.Index(name, " > ")])
	case strings.Contains(name, "::"):
		suite = name[:strings.Index(name, "::")]
	default:
		suite = rs.describe
	}
	var s *suiteStat
	if suite != "" {
		s = t.suiteOf(suite, pos)
	}
	short, full := name, name
	for _, sep := range []string{" > ", "::"} {
		if suite != "" && strings.HasPrefix(name, suite+sep) {
			short = name[len(suite)+len(sep):]
		}
	}
	if suite != "" {
		full = suite + " › " + short
	}
	t.last = nil
	switch status {
	case "pass":
		t.testPass++
		if s != nil {
			s.pass++
		}
	case "fail":
		t.testFail++
		if s != nil {
			s.fail++
		}
		t.addFailed(&failedTest{pkg: suite, name: short, pos: pos, line: trim})
		if f := t.last; f != nil {
			k := lastSegment(name)
			rs.failedByName[k] = append(rs.failedByName[k], f)
		}
	case "skip":
		t.testSkip++
		if s != nil {
			s.skip++
		}
		if len(t.skipped) < maxSkippedNames {
			t.skipped = append(t.skipped, full)
		}
	case "todo":
		t.testTodo++
		if s != nil {
			s.todo++
		}
		if len(t.todos) < maxSkippedNames {
			t.todos = append(t.todos, full)
		}
	case "xfail":
		t.testXFail++
		if s != nil {
			s.xfail++
		}
		if len(t.xfails) < maxSkippedNames {
			t.xfails = append(t.xfails, full)
		}
	case "xpass":
		t.testXPass++
		if s != nil {
			s.xpass++
		}
		if len(t.xpasses) < maxSkippedNames {
			t.xpasses = append(t.xpasses, full)
		}
	}
	if secs > 0 {
		t.noteTime(full, secs, dur)
	}
}

// reportDetail reads a line that is no test and no summary: a describe
// line (mocha's suites), the start of a failure's details, or a line of
// them.
func (t *testSummary) reportDetail(pos int, line, trim string) {
	rs := t.rep
	var hit []*failedTest
	if detailHead(trim) {
		rs.inDetails = true // no more tests of mocha's forms
	}
	switch {
	case strings.HasPrefix(trim, "● "):
		hit = rs.failedByName[lastSegment(strings.TrimPrefix(trim, "● "))]
	case strings.HasPrefix(trim, "FAIL ") && strings.Contains(trim, " > "):
		hit = rs.failedByName[lastSegment(trim)]
	case strings.HasPrefix(trim, "___") && strings.HasSuffix(trim, "___"):
		hit = rs.failedByName[lastSegment(pytestHeading(strings.Trim(trim, "_ ")))]
	case rs.inDetails:
		if n, _, ok := mochaFailed(trim); ok && n >= 1 && n <= len(t.failed) {
			hit = []*failedTest{t.failed[n-1]}
		}
	}
	for _, f := range hit {
		if len(f.output) == 0 && f.more == 0 {
			t.last = f
			return
		}
	}
	if hit != nil {
		t.last = nil
		return
	}
	if strings.HasPrefix(trim, "⎯") || strings.HasPrefix(trim, "───") {
		t.last = nil
		return
	}
	if t.last != nil {
		t.last.addOutput(trim)
		return
	}
	// A describe line of mocha: the shallowest indentation of a line
	// that is no test, before the failure details.
	if !rs.suiteHeads && !rs.inDetails && line != trim {
		ind := len(line) - len(strings.TrimLeft(line, " \t"))
		if rs.describe == "" || ind <= rs.describeInd {
			rs.describe, rs.describeInd = trim, ind
		}
	}
}

// pytestHeading is the test name of pytest's heading of a failure's
// details, "TestDecode.test_decimal" (Class.test; a module's test has no
// class): the part after the last "." outside the brackets of its
// parameters ("test_round[1.5]").
func pytestHeading(h string) string {
	base := h
	if i := strings.IndexByte(base, '['); i >= 0 {
		base = base[:i]
	}
	if j := strings.LastIndexByte(base, '.'); j >= 0 {
		return h[j+1:]
	}
	return h
}

// detailHead reports whether a trimmed line starts a failure's details
// or separates them (jest's "● ", vitest's "FAIL  file > name" and its
// "⎯" rules, pytest's "___ name ___").
func detailHead(trim string) bool {
	return strings.HasPrefix(trim, "● ") || strings.HasPrefix(trim, "⎯") ||
		strings.HasPrefix(trim, "FAIL ") && strings.Contains(trim, " > ") ||
		strings.HasPrefix(trim, "___") && strings.HasSuffix(trim, "___")
}

// reportTotals are the totals of a test report (suites, tests by status,
// the tool's own summary).
func reportTotals(t *testSummary) []string {
	var out []string
	if t.rep != nil && len(t.rep.header) > 0 {
		out = append(out, "test session: "+strings.Join(t.rep.header, "; "))
	}
	sp, sf := 0, 0
	for _, s := range t.suites {
		if s.failed() {
			sf++
		} else {
			sp++
		}
	}
	if n := len(t.suites); n > 0 {
		how := "each a \"PASS path\" or \"FAIL path\" line"
		if !t.rep.suiteHeads {
			how = "by the file or describe block their tests name"
		}
		s := fmt.Sprintf("suites: %s (%s passed, %s failed; %s)", commas(n), commas(sp), commas(sf), how)
		if t.rep.suiteMore > 0 {
			s = fmt.Sprintf("suites: more than %s (%s more past the cap, not profiled)", commas(n), commas(t.rep.suiteMore))
		}
		out = append(out, s)
	}
	total := t.testPass + t.testFail + t.testSkip + t.testTodo + t.testXFail + t.testXPass
	x := ""
	if t.testXFail+t.testXPass > 0 {
		x = fmt.Sprintf(", %s xfailed (expected to fail), %s xpassed (unexpectedly passed)", commas(t.testXFail), commas(t.testXPass))
	}
	out = append(out, fmt.Sprintf("tests listed: %s (%s passed, %s failed, %s skipped, %s todo%s; one line each)", commas(total), commas(t.testPass), commas(t.testFail), commas(t.testSkip), commas(t.testTodo), x))
	if t.testFail > 0 {
		var names []string
		for _, f := range t.failed[:min(20, len(t.failed))] {
			names = append(names, f.display())
		}
		out = append(out, "failed tests: "+listAndMore(names, "; ", "; ", t.testFail))
	}
	if len(t.skipped) > 0 {
		out = append(out, "skipped tests: "+listAndMore(t.skipped, "; ", "; ", t.testSkip))
	}
	if len(t.todos) > 0 {
		out = append(out, "todo tests: "+listAndMore(t.todos, "; ", "; ", t.testTodo))
	}
	if len(t.xfails) > 0 {
		out = append(out, "xfailed tests: "+listAndMore(t.xfails, "; ", "; ", t.testXFail))
	}
	if len(t.xpasses) > 0 {
		out = append(out, "xpassed tests: "+listAndMore(t.xpasses, "; ", "; ", t.testXPass))
	}
	if len(t.slowest) > 0 {
		var parts []string
		for _, s := range t.slowest {
			parts = append(parts, s.name+" ("+s.text+")")
		}
		out = append(out, "slowest tests: "+strings.Join(parts, ", "))
	}
	if len(t.summary) > 0 {
		var parts []string
		for _, l := range t.summary {
			parts = append(parts, l.text)
		}
		out = append(out, "the runner's summary, as printed: "+strings.Join(parts, " | "))
	}
	return out
}

// failed reports whether a suite failed: its header says so, or (with
// no header) a test of it failed.
func (s *suiteStat) failed() bool {
	if s.status != "" {
		return s.status == "FAIL"
	}
	return s.fail > 0
}

// line is the suite as the view lists it.
func (s *suiteStat) line() string {
	st := "PASS"
	if s.failed() {
		st = "FAIL"
	}
	parts := []string{fmt.Sprintf("%s passed", commas(s.pass))}
	for _, x := range []struct {
		n int
		w string
	}{{s.fail, "failed"}, {s.skip, "skipped"}, {s.todo, "todo"}, {s.xfail, "xfailed"}, {s.xpass, "xpassed"}} {
		if x.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", commas(x.n), x.w))
		}
	}
	return fmt.Sprintf("  %d\t%s %s: %s tests (%s)", s.pos, st, s.name, commas(s.pass+s.fail+s.skip+s.todo+s.xfail+s.xpass), strings.Join(parts, ", "))
}

// display is a failed test's suite and name.
func (f *failedTest) display() string {
	if f.pkg == "" {
		return f.name
	}
	return f.pkg + " › " + f.name
}

// reportFailedQuery lists the failed test lines of a test report (the
// marks and forms addReportLine counts as failed; mocha's "N) name"
// lines also match in its failure details).
const reportFailedQuery = `to_entries[] | select(.value | test("^\\s*(?:[✕✗×✘] |\\d+\\) )|::\\S* (?:FAILED|ERROR)")) | "\(.key)\t\(.value)"`

// report reports whether the text is a test report (text_testreport.go).
func (tc *textCands) report() bool { return tc.p != nil && tc.p.kind == textReport }

// suiteCandidates adds the suites of a test report: the failed ones
// (failed true, PrioAnomaly), or the others (PrioRare, in their order).
func (tc *textCands) suiteCandidates(failed bool) {
	if !tc.report() {
		return
	}
	for i, s := range tc.t.suites {
		if s.failed() != failed {
			continue
		}
		prio := PrioRare
		if failed {
			prio = PrioAnomaly
		}
		tc.v.Add(Candidate{Section: tc.sec[tsPackages], Key: s.pos*4 + i%4, Record: s.pos, Prio: prio, Reason: "suite", Text: s.line()})
	}
}
