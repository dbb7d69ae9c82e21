package view

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTestReportCounts checks the counts of the captured jest, vitest
// and mocha reports against an independent count of their lines (a
// regular expression per status mark) and against the runner's own
// summary where it lists every test: tests by status, suites by status,
// tests by suite, failed test names, the slowest test.
func TestTestReportCounts(t *testing.T) {
	marks := map[string]*regexp.Regexp{
		"pass": regexp.MustCompile(`^\s*[✓✔√] `),
		"fail": regexp.MustCompile(`^\s*[✕✗×✘] `),
		"skip": regexp.MustCompile(`^\s+(?:[○↓] |- )`),
		"todo": regexp.MustCompile(`^\s*✎ `),
	}
	mochaFail := regexp.MustCompile(`^\s+\d+\) `)
	for _, name := range []string{"jest-verbose-lib.txt", "vitest-verbose-lib.txt", "mocha-spec-lib.txt"} {
		var data []byte
		if name == "mocha-spec-lib.txt" {
			// It fits any budget whole: kept beside the tests, not in
			// the bench corpus.
			var err error
			if data, err = os.ReadFile("testdata/" + name); err != nil {
				t.Fatal(err)
			}
		} else {
			data = readCapture(t, name)
		}
		p := analyzeText(data, nil)
		if p.kind != textReport {
			t.Fatalf("%s: kind %q, want %q", name, p.kind, textReport)
		}
		ts := p.tests
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		want := map[string]int{}
		details := false
		for _, l := range lines {
			if regexp.MustCompile(`^\s*\d+ failing`).MatchString(l) || strings.Contains(l, "Failed Tests") || strings.HasPrefix(strings.TrimSpace(l), "● ") {
				details = true
			}
			for st, re := range marks {
				if re.MatchString(l) && !(st == "skip" && details && strings.HasPrefix(strings.TrimSpace(l), "- ")) {
					want[st]++
				}
			}
			if !details && mochaFail.MatchString(l) {
				want["fail"]++
			}
		}
		got := map[string]int{"pass": ts.testPass, "fail": ts.testFail, "skip": ts.testSkip, "todo": ts.testTodo}
		for st := range marks {
			if got[st] != want[st] {
				t.Errorf("%s: %s %d, the lines say %d", name, st, got[st], want[st])
			}
		}
		if len(ts.failed) != ts.testFail {
			t.Errorf("%s: %d failed tests listed, %d counted", name, len(ts.failed), ts.testFail)
		}
		for _, f := range ts.failed {
			if !marks["fail"].MatchString(lines[f.pos]) && !mochaFail.MatchString(lines[f.pos]) {
				t.Errorf("%s: failed test at line %d is %q", name, f.pos, lines[f.pos])
			}
		}
		// The runner's own summary, where it counts the listed tests.
		summary := strings.Join(lines[max(0, len(lines)-40):], "\n")
		num := func(re string) int {
			m := regexp.MustCompile(re).FindStringSubmatch(summary)
			if m == nil {
				t.Fatalf("%s: no %s in the summary", name, re)
			}
			n, _ := strconv.Atoi(m[1])
			return n
		}
		switch name {
		case "jest-verbose-lib.txt":
			if ts.testPass != num(`Tests:.* (\d+) passed`) || ts.testFail != num(`Tests:\s+(\d+) failed`) ||
				ts.testSkip != num(`Tests:.* (\d+) skipped`) || ts.testTodo != num(`Tests:.* (\d+) todo`) {
				t.Errorf("%s: %+v differs from the runner's summary", name, got)
			}
			sp, sf := 0, 0
			for _, s := range ts.suites {
				if s.failed() {
					sf++
				} else {
					sp++
				}
			}
			if sp != num(`Test Suites:.* (\d+) passed`) || sf != num(`Test Suites:\s+(\d+) failed`) {
				t.Errorf("%s: suites %d passed %d failed, the runner says otherwise", name, sp, sf)
			}
			// Tests by suite, walking the suite blocks.
			per := map[string]int{}
			cur := ""
			for _, l := range lines {
				if m := regexp.MustCompile(`^(?:PASS|FAIL) (\S+)`).FindStringSubmatch(l); m != nil {
					cur = m[1]
					per[cur] += 0
				} else if cur != "" && regexp.MustCompile(`^\s+[✓✕○✎] `).MatchString(l) {
					per[cur]++
				}
			}
			if len(per) != len(ts.suites) {
				t.Errorf("%s: %d suites, the lines have %d", name, len(ts.suites), len(per))
			}
			for _, s := range ts.suites {
				if n := s.pass + s.fail + s.skip + s.todo; n != per[s.name] {
					t.Errorf("%s: suite %s has %d tests, the lines %d", name, s.name, n, per[s.name])
				}
			}
		case "mocha-spec-lib.txt":
			if ts.testPass != num(`(\d+) passing`) || ts.testFail != num(`(\d+) failing`) || ts.testSkip != num(`(\d+) pending`) {
				t.Errorf("%s: %+v differs from the runner's summary", name, got)
			}
		case "vitest-verbose-lib.txt":
			if ts.testPass != num(`Tests .*?(\d+) passed`) || ts.testFail != num(`Tests\s+(\d+) failed`) {
				t.Errorf("%s: %+v differs from the runner's summary", name, got)
			}
			if ts.testSkip != 0 {
				t.Errorf("%s: vitest lists no skipped test, %d counted", name, ts.testSkip)
			}
		}
		// The slowest test is the longest duration of any test line.
		dur := regexp.MustCompile(`\((\d+) ?ms\)$| (\d+)ms$`)
		best := 0.0
		for _, l := range lines {
			if !marks["pass"].MatchString(l) && !marks["fail"].MatchString(l) {
				continue
			}
			if m := dur.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[1] + m[2])
				best = max(best, float64(n)/1000)
			}
		}
		if len(ts.slowest) == 0 || ts.slowest[0].seconds != best {
			t.Errorf("%s: slowest %+v, the lines' longest is %.3fs", name, ts.slowest, best)
		}
	}
}

// TestTestReportView checks that the view of a jest report states the
// suites, the failed tests as printed, the skipped and todo tests and
// the runner's summary at a small budget, and claims no records.
func TestTestReportView(t *testing.T) {
	data := readCapture(t, "jest-verbose-lib.txt")
	out := fillText(t, data, 2000)
	for _, s := range []string{
		"kind: test report\n",
		"suites: 17 (10 passed, 7 failed;",
		"tests listed: 781 (769 passed, 6 failed, 4 skipped, 2 todo;",
		"test/money.test.js: ✕ money case 5: handles empty (4 ms)",
		"skipped tests: ",
		"todo tests: test/ledger.test.js › ledger case 12: keeps order",
		"Tests:       6 failed, 4 skipped, 2 todo, 769 passed, 781 total",
		"FAIL test/router.test.js: 73 tests (72 passed, 1 failed)",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("the view at 2,000 tokens lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "records") {
		t.Errorf("a test report's view claims records:\n%s", out)
	}
}

// TestHeaderKeyNamesEveryBlock checks that a header key is a record's
// only when (nearly) every block at column 0 starts with it: "FAIL x"
// blocks among "PASS x" blocks are not the records.
func TestHeaderKeyNamesEveryBlock(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 12; i++ {
		st := "PASS"
		if i%3 == 0 {
			st = "FAIL"
		}
		b.WriteString(st + " suite" + strconv.Itoa(i) + "\n  one\n  two\n\n")
	}
	if k := detectHeaderKey([]byte(b.String()), textBlocks); k != "" {
		t.Errorf("key %q names 4 of 12 blocks", k)
	}
	if k := detectHeaderKey([]byte(strings.ReplaceAll(b.String(), "PASS", "FAIL")), textBlocks); k != "FAIL " {
		t.Errorf("key %q, want %q for blocks that all start with it", k, "FAIL ")
	}
}
