package view

import (
	"fmt"
	"strings"
)

// TAP (Test Anything Protocol) reports: prove, tap, node --test
// --test-reporter=tap. A test point is "ok N - name" or "not ok N -
// name", with a "# SKIP reason" or "# TODO reason" directive; a
// producer that nests (node --test, TAP 14 subtests) indents its
// subtests under "# Subtest: name" and follows each point with a YAML
// block ("---" … "...") of its details: duration_ms, a suite's "type:
// 'suite'", a failure's location, error, expected and actual. The
// report ends with its own summary ("# tests 313", "# pass 306", "#
// fail 4", "# skipped 1", "# todo 2"). Counted exactly: tests (points
// that are not suites) by status, suites passed and failed, top-level
// points; every failed test by its path of subtests with the first
// lines of its details; skipped and todo tests with their reasons.

// tapPoint is a test point whose YAML block is being read.
type tapPoint struct {
	pos       int
	indent    int
	ok        bool
	name      string // the path of subtests and its own name ("tax > computeTax > returns 148 for 74")
	directive string // "SKIP reason", "TODO reason", or ""
	suite     bool
	stack     bool // its YAML's stack: is being read
	details   []string
	more      int
}

// tapState is what the reading of a TAP report keeps between lines.
type tapState struct {
	cur        *tapPoint
	inYAML     bool
	stack      []tapSubtest // the open "# Subtest:" names, by indentation
	suites     int
	suitesFail int
	top        int // points at indentation 0 (files, top-level suites)
	topNames   []posLine
	lastTop    posLine
}

type tapSubtest struct {
	indent int
	name   string
}

// isTAPLine reports whether a line is TAP's own (a test point, a plan,
// its version, a subtest's name), at any indentation.
func isTAPLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, "ok ") || strings.HasPrefix(t, "not ok ") || strings.HasPrefix(t, "1..") ||
		strings.HasPrefix(t, "TAP version ") || strings.HasPrefix(t, "# Subtest: ")
}

// tapPointOf reads "ok 3 - name # SKIP reason".
func tapPointOf(trim string) (ok bool, name, directive string, is bool) {
	rest, found := strings.CutPrefix(trim, "ok ")
	ok = found
	if !found {
		if rest, found = strings.CutPrefix(trim, "not ok "); !found {
			return false, "", "", false
		}
	}
	// The number, then " - " and the description.
	i := 0
	for i < len(rest) && isDigitByte(rest[i]) {
		i++
	}
	rest = strings.TrimSpace(rest[i:])
	rest = strings.TrimPrefix(rest, "- ")
	if j := strings.Index(rest, " # "); j >= 0 {
		d := strings.TrimSpace(rest[j+3:])
		if u := strings.ToUpper(d); strings.HasPrefix(u, "SKIP") || strings.HasPrefix(u, "TODO") {
			directive, rest = d, rest[:j]
		}
	} else if strings.HasPrefix(strings.ToUpper(rest), "# SKIP") || strings.HasPrefix(strings.ToUpper(rest), "# TODO") {
		directive, rest = strings.TrimSpace(rest[2:]), ""
	}
	return ok, strings.TrimSpace(rest), directive, true
}

// addTAPLine counts one line of a TAP report.
func (t *testSummary) addTAPLine(pos int, line string) {
	if t.tap == nil {
		t.tap = &tapState{}
	}
	st := t.tap
	trim := strings.TrimSpace(line)
	indent := len(line) - len(strings.TrimLeft(line, " \t"))
	if st.inYAML {
		switch {
		case trim == "...":
			st.inYAML = false
		case st.cur != nil:
			if trim == "type: 'suite'" || trim == "type: suite" || trim == `type: "suite"` {
				st.cur.suite = true
			} else if strings.HasPrefix(trim, "stack:") {
				st.cur.stack = true // the rest is the stack trace: not kept
			} else if !st.cur.stack && !strings.HasPrefix(trim, "duration_ms:") && !strings.HasPrefix(trim, "type:") &&
				!strings.HasPrefix(trim, "failureType:") && !strings.HasPrefix(trim, "code:") && trim != "" {
				if len(st.cur.details) < maxFailOutput {
					st.cur.details = append(st.cur.details, trim)
				} else {
					st.cur.more++
				}
			}
		}
		return
	}
	if trim == "---" && st.cur != nil {
		st.inYAML = true
		return
	}
	if name, ok := strings.CutPrefix(trim, "# Subtest: "); ok {
		t.tapFinish()
		for len(st.stack) > 0 && st.stack[len(st.stack)-1].indent >= indent {
			st.stack = st.stack[:len(st.stack)-1]
		}
		st.stack = append(st.stack, tapSubtest{indent, name})
		return
	}
	if ok, name, directive, is := tapPointOf(trim); is {
		t.tapFinish()
		var path []string
		for _, s := range st.stack {
			if s.indent < indent {
				path = append(path, s.name)
			}
		}
		full := name
		if len(path) > 0 {
			if full == "" || path[len(path)-1] == full {
				full = strings.Join(path, " > ")
			} else {
				full = strings.Join(append(path, name), " > ")
			}
		}
		st.cur = &tapPoint{pos: pos, indent: indent, ok: ok, name: full, directive: directive}
		return
	}
	if indent == 0 && strings.HasPrefix(trim, "# ") {
		// The producer's summary: "# tests 313", "# pass 306".
		f := strings.Fields(trim)
		if len(f) == 3 && len(t.summary) < 40 {
			if _, _, isNum := parseDecimal(f[2]); isNum {
				t.tapFinish()
				t.summary = append(t.summary, posLine{pos, trim})
				return
			}
		}
	}
	if st.cur == nil && t.last != nil && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "#")) {
		t.last.addOutput(line) // a failed point's diagnostics without YAML
	}
}

// tapFinish counts the point whose details were being read.
func (t *testSummary) tapFinish() {
	st := t.tap
	p := st.cur
	if p == nil {
		return
	}
	st.cur = nil
	t.last = nil
	if p.indent == 0 {
		st.top++
		st.lastTop = posLine{p.pos, p.name}
		if len(st.topNames) < maxFailedKept {
			st.topNames = append(st.topNames, posLine{p.pos, p.name})
		}
	}
	if p.suite {
		st.suites++
		if !p.ok {
			st.suitesFail++
		}
		return
	}
	u := strings.ToUpper(p.directive)
	switch {
	case strings.HasPrefix(u, "SKIP"):
		t.testSkip++
		if len(t.skipped) < maxSkippedNames {
			t.skipped = append(t.skipped, tapNamed(p))
		}
	case strings.HasPrefix(u, "TODO"):
		t.testTodo++
		if len(t.todos) < maxSkippedNames {
			t.todos = append(t.todos, tapNamed(p))
		}
	case p.ok:
		t.testPass++
	default:
		t.testFail++
		// Where it is, what was expected and what came first: the
		// lines a reader needs, before the error's text.
		var first, rest []string
		for _, d := range p.details {
			if strings.HasPrefix(d, "location:") || strings.HasPrefix(d, "expected:") || strings.HasPrefix(d, "actual:") {
				first = append(first, d)
			} else {
				rest = append(rest, d)
			}
		}
		f := &failedTest{name: p.name, pos: p.pos, output: append(first, rest...), more: p.more}
		t.addFailed(f)
		if len(p.details) == 0 {
			t.last = f // diagnostics as "# ..." lines may follow
		}
	}
}

// tapNamed is a skipped or todo point with its reason.
func tapNamed(p *tapPoint) string {
	if p.directive == "" {
		return p.name
	}
	return p.name + " (" + p.directive + ")"
}

// tapTotals are the TAP report's own lines: suites, top-level points,
// the todo tests and the producer's summary as printed.
func tapTotals(t *testSummary) []string {
	st := t.tap
	if st == nil {
		return nil
	}
	var out []string
	if st.suites > 0 {
		out = append(out, fmt.Sprintf("suites (points whose details say type: 'suite'): %s (%s passed, %s failed); top-level points: %s", commas(st.suites), commas(st.suites-st.suitesFail), commas(st.suitesFail), commas(st.top)))
	}
	if t.testTodo > 0 {
		out = append(out, fmt.Sprintf("todo tests (%s): %s", commas(t.testTodo), listAndMore(t.todos, "; ", "; ", t.testTodo)))
	}
	if st.top > 0 && st.suites > 0 {
		var names []string
		for _, n := range st.topNames[:min(len(st.topNames), 40)] {
			names = append(names, n.text)
		}
		out = append(out, fmt.Sprintf("top-level points in order (%s): %s", commas(st.top), listAndMore(names, ", ", " ", st.top)))
	}
	if len(t.summary) > 0 {
		var parts []string
		for _, l := range t.summary {
			parts = append(parts, l.text)
		}
		out = append(out, "the report's summary (as printed): "+strings.Join(parts, "; "))
	}
	return out
}
