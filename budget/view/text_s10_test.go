package view

import (
	"fmt"
	"strings"
	"testing"
)

// endsText is a report of blank-line-separated records: a banner, many
// records (each a file and its long diagnostics), then a summary record
// of short lines at the end, the way perlcritic --statistics, a test
// runner or a build end.
func endsText() []byte {
	var b strings.Builder
	b.WriteString("linter 4.2.1 (config: strict)\nchecking 90 files\n\n")
	for i := 0; i < 90; i++ {
		fmt.Fprintf(&b, "== src/mod%03d.pl\n", i)
		for k := 0; k < 3; k++ {
			fmt.Fprintf(&b, "  value of eval %d not tested at line %d, column 2.  You can't depend upon the value to tell whether it worked.\n", k, 10+i*k)
		}
		b.WriteString("\n")
	}
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "  %3d violations of Policy::Rule%02d.\n", 1+i%7, i)
	}
	b.WriteString("Summary: 270 violations in 90 files, 12.5 per 1000 lines\n")
	return []byte(b.String())
}

// TestTextEndsAtEveryBudget: whatever else the view shows, it shows the
// first and last lines a head+tail cut to a share of its budget shows
// (the summary at the end of a report crowded out by its error lines
// before: the last 5 lines only, at 2,000 tokens and more), and more of
// them at a larger budget.
func TestTextEndsAtEveryBudget(t *testing.T) {
	data := endsText()
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	prevTail := 0
	for _, b := range []int{1000, 2000, 4000, 8000} {
		got := fillText(t, data, b)
		if !strings.Contains(got, "linter 4.2.1 (config: strict)") {
			t.Errorf("at %d: the first line is not shown", b)
		}
		// The last lines, counted from the end while the view shows them.
		tail, chars := 0, 0
		// (each line is unique: as a line of the tail, numbered as a
		// line no record shows whole, or a record of one line)
		for k := len(lines) - 1; k >= 0 && strings.Contains(got, strings.TrimSpace(lines[k])+"\n"); k-- {
			tail++
			chars += len(lines[k]) + 1
		}
		// byteCounter: 4 bytes a token; the ends get 1/4 of the view's
		// candidates' characters, the tail about half of that; at least
		// half of it shown (the sections' heads take their share).
		if want := min(4*b/8/2, 1800); chars < want { // (the summary: 61 lines, 2,240 characters)
			t.Errorf("at %d: the last %d lines (%d characters) shown, want at least %d characters of the end", b, tail, chars, want)
		}
		if tail < prevTail {
			t.Errorf("at %d: %d last lines, fewer than %d at a smaller budget", b, tail, prevTail)
		}
		prevTail = tail
	}
}

// TestTextEndsNotTwice: a line of the ends stream is not offered again
// in another section of lines after it (the last error line is the
// tail's), and every line of the stream is offered once.
func TestTextEndsNotTwice(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "step %d done in %d ms\n", i, i*7%100)
	}
	b.WriteString("fatal error: the build failed at step 300\n")
	v := buildText(t, []byte(b.String()), 2000)
	ends := map[int]int{}
	for _, c := range v.Candidates() {
		switch c.Reason {
		case "first lines", "last lines":
			ends[c.Record]++
		case "error line", "spread", "unlike the rest":
			if ends[c.Record] > 0 {
				t.Errorf("line %d offered again after the ends (%s)", c.Record, c.Reason)
			}
		}
	}
	for r, n := range ends {
		if n != 1 {
			t.Errorf("line %d offered %d times by the ends", r, n)
		}
	}
	if ends[300] != 1 || ends[0] != 1 {
		t.Errorf("the first and last lines are not in the ends: %v", ends)
	}
}

// TestExceptionLineInTable: a traceback's last line ("ModuleNotFoundError:
// No module named ...") is an error line even in a text read as a table
// whose first column is names (python -m test -v: "test_x (mod.Class) ...
// ok"), and the query of all error lines returns it.
func TestExceptionLineInTable(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "test_case_%d (test.test_mod.Tests.test_case_%d) ... ok\n", i, i)
		if i == 100 {
			b.WriteString("test test_sqlite3 crashed -- Traceback (most recent call last):\n")
			b.WriteString("ModuleNotFoundError: No module named 'test.test_sqlite3'\n")
		}
	}
	data := []byte(b.String())
	n, q := TextErrorsForTest(data)
	if n != 2 {
		t.Fatalf("%d error lines, want 2 (the traceback's first line and the exception)", n)
	}
	out := jqLines(t, data, "["+q+"]")
	if len(out) != 1 || !strings.Contains(fmt.Sprint(out[0]), "\tModuleNotFoundError: No module named 'test.test_sqlite3'") || len(out[0].([]any)) != 2 {
		t.Errorf("the query of error lines finds %v, want the two lines", out)
	}
	if got := fillText(t, data, 2000); !strings.Contains(got, "ModuleNotFoundError: No module named 'test.test_sqlite3'") {
		t.Errorf("the exception is not shown:\n%s", got)
	}
}

// redisInfo is a redis-cli INFO text: sections of name:value lines, some
// values lists of fields.
func redisInfo() []byte {
	var b strings.Builder
	b.WriteString("# Server\nredis_version:7.0.15\nredis_mode:standalone\nos:Linux 6.1 x86_64\nexecutable:/usr/bin/redis-server\ntcp_port:6379\n\n# Stats\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "stat_%02d:%d\n", i, i*3)
	}
	b.WriteString("\n# Commandstats\n")
	for i := 0; i < 20; i++ {
		failed := 0
		if i%9 == 4 {
			failed = 2
		}
		fmt.Fprintf(&b, "cmdstat_c%02d:calls=%d,usec=%d,usec_per_call=%.2f,rejected_calls=0,failed_calls=%d\n", i, 100+i*i, 50+i, float64(50+i)/float64(100+i*i), failed)
	}
	b.WriteString("cmdstat_client|list:calls=9000,usec=20,usec_per_call=0.00,rejected_calls=0,failed_calls=0\n")
	b.WriteString("\n# Errorstats\nerrorstat_ERR:count=6\nerrorstat_WRONGTYPE:count=3\nerrorstat_NOSCRIPT:count=1\n")
	return []byte(b.String())
}

// TestKVTight: name:value lines with no space after the colon (redis-cli
// INFO) are key/value lines, their values that are field lists are read
// as tables (each column's sum and extremes with the entry holding them,
// the entries where a mostly-0 column is not 0, every value of a small
// table), and a URL, a time or "Key: value" is no such line.
func TestKVTight(t *testing.T) {
	data := redisInfo()
	if f := detectKV(data, detectTextKind(data)); f != kvTight {
		t.Fatalf("form %d, want name:value", f)
	}
	for _, c := range []struct {
		line, key, val string
		ok             bool
	}{
		{"used_memory:2171592", "used_memory", "2171592", true},
		{"cmdstat_client|list:calls=1,usec=20", "cmdstat_client|list", "calls=1,usec=20", true},
		{"executable:/usr/bin/redis-server", "executable", "/usr/bin/redis-server", true},
		{"http://example.org", "", "", false},
		{"12:30 backup done", "", "", false},
		{"C:\\Windows", "", "", false},
		{"Name: value", "", "", false},
	} {
		k, v, ok := kvTight.split(c.line)
		if ok != c.ok || k != c.key || v != c.val {
			t.Errorf("%q: %q %q %v, want %q %q %v", c.line, k, v, ok, c.key, c.val, c.ok)
		}
	}
	got := fillText(t, data, 2000)
	for _, want := range []string{
		"calls: sum 13470, max 9000 (cmdstat_client|list), min 100 (cmdstat_c00)",
		"usec: sum 1210, max 69 (cmdstat_c19)",
		"failed_calls: 0 in 19, not 0 in 2: cmdstat_c04 2, cmdstat_c13 2",
		"rejected_calls: 0 in all",
		"count: sum 10, errorstat_ERR 6, errorstat_WRONGTYPE 3, errorstat_NOSCRIPT 1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view does not state %q:\n%s", want, got)
		}
	}
	// The query the view prints for one entry reads it.
	if out := jqLines(t, data, kvTight.query("errorstat_ERR")); len(out) != 1 || out[0] != "errorstat_ERR:count=6" {
		t.Errorf("query of one entry: %v", out)
	}
}

// TestWarningsOnePerCode: of more distinct warning lines than the first
// rounds show, the view shows the one line of a rare diagnostic code
// and of each file before more lines of the frequent code of the last
// file (clang-tidy: the 20 latest warnings were all str_ops.c's).
func TestWarningsOnePerCode(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "/src/b.c:%d:3: warning: variable name 'v%d' is too short, expected at least 3 characters [readability-identifier-length]\n    int v%d;\n        ^\n", 10+i, i, i)
	}
	b.WriteString("/src/a.c:12:5: warning: function 'build' has cognitive complexity of 88 (threshold 25) [readability-function-cognitive-complexity]\n    int build(void) {\n        ^\n")
	b.WriteString("/src/a.c:90:5: warning: function 'parse' has cognitive complexity of 31 (threshold 25) [readability-function-cognitive-complexity]\n    int parse(void) {\n        ^\n")
	b.WriteString("/src/c.c:7:1: warning: 0x80000000LL is a magic number; consider replacing it with a named constant [readability-magic-numbers]\n    x = 0x80000000LL;\n        ^\n")
	b.WriteString("/src/c.c:9:1: warning: 0x7fff is a magic number; consider replacing it with a named constant [readability-magic-numbers]\n    y = 0x7fff;\n        ^\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "/src/d.c:%d:9: warning: statement should be inside braces [readability-braces-around-statements]\n        if (x) return;\n              ^\n", 100+i)
	}
	got := fillText(t, []byte(b.String()), 2000)
	for _, want := range []string{"has cognitive complexity of 31", "0x7fff is a magic number"} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks the warning %q:\n%s", want, got)
		}
	}
}

// TestPytestXFailAndSession: pytest -v's XFAIL and XPASS are their own
// statuses (an expected failure was counted as a skipped test, the run's
// own summary line saying "58 skipped, 1 xfailed"), and the session
// header (platform, Python and pytest versions, rootdir) is a fact.
func TestPytestXFailAndSession(t *testing.T) {
	var b strings.Builder
	b.WriteString("============================= test session starts ==============================\n")
	b.WriteString("platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0 -- /usr/bin/python3\nrootdir: /srv/app\ncollecting ... collected 204 items\n\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "tests/test_mod.py::TestMod::test_case_%03d PASSED [ %2d%%]\n", i, i/2)
	}
	b.WriteString("tests/test_mod.py::TestMod::test_skip SKIPPED (no network) [ 99%]\n")
	b.WriteString("tests/test_mod.py::TestMod::test_expected XFAIL [ 99%]\n")
	b.WriteString("tests/test_mod.py::TestMod::test_lucky XPASS [ 99%]\n")
	b.WriteString("tests/test_mod.py::TestMod::test_broken FAILED [100%]\n")
	b.WriteString("=========== 1 failed, 200 passed, 1 skipped, 1 xfailed, 1 xpassed in 1.20s ===========\n")
	data := []byte(b.String())
	ts := analyzeText(data, nil).tests
	if ts == nil || ts.testPass != 200 || ts.testFail != 1 || ts.testSkip != 1 || ts.testXFail != 1 || ts.testXPass != 1 {
		t.Fatalf("counts %+v, want 200 passed, 1 failed, 1 skipped, 1 xfailed, 1 xpassed", ts)
	}
	got := fillText(t, data, 1000)
	for _, want := range []string{
		"tests listed: 204 (200 passed, 1 failed, 1 skipped, 0 todo, 1 xfailed (expected to fail), 1 xpassed (unexpectedly passed); one line each)",
		"test session: platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0 -- /usr/bin/python3; rootdir: /srv/app; collecting ... collected 204 items",
		"xfailed tests: tests/test_mod.py › TestMod::test_expected",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// TestRepeatedErrorCauses: a repeated error line shows the distinct
// lines before its earlier occurrences too, not only the line before its
// last (configure's "collect2: error: ld returned 1 exit status" after a
// different "undefined reference" each time).
func TestRepeatedErrorCauses(t *testing.T) {
	var b strings.Builder
	for i, fn := range []string{"strlcpy", "strlcat", "kqueue"} {
		for k := 0; k < 40; k++ {
			fmt.Fprintf(&b, "configure:%d: checking for %s step %d\n", 4000+i*100+k, fn, k)
		}
		fmt.Fprintf(&b, "/tmp/ac/conftest.c:54: undefined reference to `%s'\n", fn)
		b.WriteString("collect2: error: ld returned 1 exit status\n")
	}
	for k := 0; k < 60; k++ {
		fmt.Fprintf(&b, "configure:%d: result: yes %d\n", 5000+k, k)
	}
	got := fillText(t, []byte(b.String()), 1500)
	for _, fn := range []string{"strlcpy", "strlcat", "kqueue"} {
		if !strings.Contains(got, "undefined reference to `"+fn+"'") {
			t.Errorf("the view lacks the cause before a repeat: %s\n%s", fn, got)
		}
	}
}
