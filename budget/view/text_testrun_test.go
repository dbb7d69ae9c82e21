package view_test

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/view"
)

// TestGoTestRunsAndGoroutineDump checks the view of a long go test -v
// log that ends in a timeout panic and a goroutine dump
// (testdata/captured/go-test-v-timeout.txt: go test -v -count=1000
// -timeout 3s of go-json-experiment/json, captured on the development
// machine) against an independent reading of its lines: the "=== RUN"
// lines, the top-level runs and distinct top-level tests, each test's
// runs and subtest runs, the top-level results, the test running when
// it ended, the panic and the tests it names, the goroutines by state
// and by top function, and the error lines (a test named ...Error is no
// error line; the query for all error lines yields exactly the count
// stated). The view before this stated the result lines only ("tests:
// 4,234"), and called every "=== RUN TestX...Error" line an error.
func TestGoTestRunsAndGoroutineDump(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captured/go-test-v-timeout.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	runRe := regexp.MustCompile(`^\s*=== RUN\s+(\S+)$`)
	resRe := regexp.MustCompile(`^\s*--- (PASS|FAIL|SKIP): (\S+) \(`)
	gorRe := regexp.MustCompile(`^goroutine \d+ .*\[([^,\]]+)[^\]]*\]:$`)
	runs, top := 0, 0
	distinct := map[string]bool{}
	perRuns, perSub := map[string]int{}, map[string]int{}
	results := map[string]int{}
	open := map[string]int{}
	last := ""
	gors, states, tops := 0, map[string]int{}, map[string]int{}
	panicLine, panicPos := "", -1
	var running []string
	for i, l := range lines {
		if m := runRe.FindStringSubmatch(l); m != nil {
			runs++
			last = m[1]
			open[m[1]]++
			name, sub, _ := strings.Cut(m[1], "/")
			if sub == "" && !strings.Contains(m[1], "/") {
				top++
				distinct[name] = true
				perRuns[name]++
			} else {
				perSub[name]++
			}
		}
		if m := resRe.FindStringSubmatch(l); m != nil {
			if !strings.Contains(m[2], "/") {
				results[m[1]]++
			}
			if open[m[2]]--; open[m[2]] == 0 {
				delete(open, m[2])
			}
		}
		if m := gorRe.FindStringSubmatch(l); m != nil {
			gors++
			states[m[1]]++
			f := strings.TrimSpace(lines[i+1])
			tops[f[:strings.LastIndex(f, "(")]]++ // the frames here end in one "(...)"
		}
		if strings.HasPrefix(l, "panic: ") && panicPos < 0 {
			panicLine, panicPos = strings.TrimPrefix(l, "panic: "), i
			for _, x := range lines[i+1:] {
				if strings.HasPrefix(x, "\t\t") {
					running = append(running, strings.TrimSpace(x))
				} else if strings.TrimSpace(x) != "running tests:" {
					break
				}
			}
		}
	}
	if runs < 1000 || gors == 0 || panicPos < 0 || len(running) == 0 {
		t.Fatalf("the capture is not a long run ending in a timeout: %d runs, %d goroutines, panic at %d", runs, gors, panicPos)
	}
	views, v := kvView(t, data, []int{2000, 4000, 8000})
	for b, text := range views {
		name := fmt.Sprintf("at %d", b)
		want := []string{
			fmt.Sprintf("test runs (=== RUN lines): %s; top-level runs (no \"/\" in the name): %s, of %s distinct top-level tests; subtest runs: %s",
				commas(runs), commas(top), commas(len(distinct)), commas(runs-top)),
			fmt.Sprintf("top-level test results (--- lines without \"/\"): %s passed, %s failed, %s skipped; %s top-level runs with no result line",
				commas(results["PASS"]), commas(results["FAIL"]), commas(results["SKIP"]), commas(top-results["PASS"]-results["FAIL"]-results["SKIP"])),
			fmt.Sprintf("last test started (line %s): %s", commas(lastRunPos(lines)), last),
			fmt.Sprintf("panic (line %s): %s; running tests it names: %s", commas(panicPos), panicLine, strings.Join(running, ", ")),
		}
		var openNames []string
		for n := range open {
			openNames = append(openNames, n)
		}
		sort.Strings(openNames)
		want = append(want, fmt.Sprintf("tests started with no result line (running when the output ends; %d): %s", len(openNames), strings.Join(openNames, ", ")))
		var st, tp []string
		for s, n := range states {
			st = append(st, fmt.Sprintf("%s %d", s, n))
		}
		for f, n := range tops {
			tp = append(tp, fmt.Sprintf("%s %d", f, n))
		}
		sort.Strings(st)
		sort.Strings(tp)
		want = append(want, fmt.Sprintf("goroutine dump: %d goroutines", gors))
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q:\n%s", name, w, text)
			}
		}
		// The states and top functions (all of count 1 here: in name order).
		for _, w := range append(st, tp...) {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the goroutine dump lacks %q", name, w)
			}
		}
		// Each test's runs, where the list is shown.
		for tn, n := range perRuns {
			item := fmt.Sprintf("%s %s", tn, commas(n))
			if perSub[tn] > 0 {
				item += fmt.Sprintf(" (subtest runs: %s)", commas(perSub[tn]))
			}
			if strings.Contains(text, "top-level tests by their runs") && !regexp.MustCompile(`[ ,]`+regexp.QuoteMeta(item)+`(,|\n)`).MatchString(text) {
				t.Errorf("%s: the runs list lacks %q", name, item)
			}
		}
		if b >= 4000 && !strings.Contains(text, "top-level tests by their runs") {
			t.Errorf("%s: no list of the tests by their runs", name)
		}
		// No "=== RUN" or "--- PASS" line is an error line.
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, "times, first at line") && (strings.Contains(l, "=== RUN") || strings.Contains(l, "--- PASS")) {
				t.Errorf("%s: a test's line shown as an error line: %q", name, l)
			}
		}
	}
	_ = v
}

// lastRunPos is the line of the last "=== RUN" line.
func lastRunPos(lines []string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "=== RUN ") {
			return i
		}
	}
	return -1
}

// TestPathLinesByDirectory checks that the lines of a text that are a
// path each (the files a tsc build read, --listFiles, among its errors
// and statistics) are counted by directory, against a count of the
// lines by their prefix. The view before stated only templates of
// these lines ("[8 lines] /tmp/<id>/…/lib.<id>.d.ts"): how many files
// came from each directory was not stated.
func TestPathLinesByDirectory(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captured/tsc-build-codes.txt")
	if err != nil {
		t.Fatal(err)
	}
	under := map[string]int{}
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "/") || strings.Contains(l, " ") {
			continue
		}
		d := l[:strings.LastIndexByte(l, '/')+1]
		under[d]++
	}
	if len(under) < 2 {
		t.Fatalf("%d directories of path lines", len(under))
	}
	views, _ := kvView(t, data, []int{4000})
	text := views[4000]
	line := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "  lines that are a path, rows by directory") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no directories of the path lines:\n%s", text)
	}
	for d, n := range under {
		if want := fmt.Sprintf("%q %d", d, n); !strings.Contains(line, want) {
			t.Errorf("%q lacks %s", line, want)
		}
	}
}

// TestSeverityQueryOfProseAndTestNames checks, on captured texts, that
// the query the view prints for every error line yields exactly the
// count the view states, now that a test's name ("=== RUN
// TestQuery_HaltError") and a sentence of prose ("they fail on i386",
// a changelog's) make no error line; and that the changelog, which the
// old view said had 29 error lines (sentences), has none.
func TestSeverityQueryOfProseAndTestNames(t *testing.T) {
	for _, c := range []struct {
		file   string
		errors int // -1: any
	}{
		{"../../testdata/captured/debian-changelog-coreutils.txt", 0},
		{"../../testdata/captured/go-test-v-timeout.txt", -1},
		{"../../testdata/captured/git-log-fuller-go-sdk.txt", -1},
		{"../../testdata/captured/man-bash.txt", -1},
	} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		views, _ := kvView(t, data, []int{8000})
		text := views[8000]
		m := regexp.MustCompile(`(?m)^error lines: ([\d,]+) \(`).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("%s: no error count:\n%s", c.file, text)
		}
		n := strings.ReplaceAll(m[1], ",", "")
		if c.errors >= 0 && n != fmt.Sprint(c.errors) {
			t.Errorf("%s: %s error lines, want %d", c.file, n, c.errors)
		}
		count, q := view.TextErrorsForTest(data)
		if fmt.Sprint(count) != n {
			t.Errorf("%s: %d error lines counted, the view states %s", c.file, count, n)
		}
		got := runLinesQuery(t, q, lines)
		if fmt.Sprint(len(got)) != n {
			t.Errorf("%s: the error query yields %d lines, the view states %s", c.file, len(got), n)
		}
	}
}

// TestTAPNested checks the view of a nesting TAP producer's report
// (node --test --test-reporter=tap, captured from
// testdata/gen/textcaps/nodetap) against the report's own summary and
// an independent reading of its points: tests by status, the suites,
// every failed test by its path of subtests with its expected and
// actual values, the skipped and todo tests with their reasons. The old
// view read it as plain text ("5 records (blank-line-separated
// blocks)") and stated no test count.
func TestTAPNested(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captured/node-test-tap-units.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	sum := map[string]string{}
	var failed []string
	point := regexp.MustCompile(`^(\s*)(not )?ok \d+ - (.*?)(?: # (SKIP|TODO) (.*))?$`)
	for i, l := range lines {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "#" {
			sum[f[1]] = f[2]
		}
		m := point.FindStringSubmatch(l)
		if m == nil || m[2] == "" {
			continue
		}
		// A failed leaf: its YAML has no type: 'suite'.
		suite := false
		for _, x := range lines[i+1 : min(i+8, len(lines))] {
			if strings.TrimSpace(x) == "type: 'suite'" {
				suite = true
			}
			if strings.TrimSpace(x) == "..." {
				break
			}
		}
		if !suite {
			failed = append(failed, m[3])
		}
	}
	views, _ := kvView(t, data, []int{2000, 4000})
	for b, text := range views {
		name := fmt.Sprintf("at %d", b)
		want := []string{
			"; kind: TAP\n",
			fmt.Sprintf("tests: %d (%s passed, %s failed, %s skipped)", atoi(sum["pass"])+atoi(sum["fail"])+atoi(sum["skipped"]), sum["pass"], sum["fail"], sum["skipped"]),
			fmt.Sprintf("suites (points whose details say type: 'suite'): %s (", sum["suites"]),
			fmt.Sprintf("todo tests (%s): cart > applies a coupon (TODO coupons come with the promotions service)", sum["todo"]),
			"mass > converts a stone (SKIP stones are not supported yet)",
			"# tests " + sum["tests"] + "; # suites " + sum["suites"],
			fmt.Sprintf("failed tests (%s; ", sum["fail"]),
			"  cart > discount > takes 33% off 99.99 (at ",
			"      expected: 67\n      actual: 66.99\n",
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q:\n%s", name, w, text)
			}
		}
		if len(failed) != atoi(sum["fail"]) {
			t.Fatalf("%d failed leaves read, the summary says %s", len(failed), sum["fail"])
		}
		for _, f := range failed {
			if !strings.Contains(text, " > "+f+" (at ") {
				t.Errorf("%s: the failed test %q is not named with its suites", name, f)
			}
		}
	}
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// TestTemplatesKeepTheirWords checks, on an update-alternatives log
// captured on the development machine (DPKG_ROOT=<scratch dir>
// update-alternatives --install/--set/--remove, testdata/
// update-alternatives-scratch.log), that the two lines "run with
// --quiet --install A B C N" of the same length as the "link group X
// updated to point to Y" lines do not fold into their template: the old
// view stated "[25 lines] update-alternatives <ts>: <*> <*> <*> <*> <*>
// <*> <*> <*>", a template whose words all vary.
func TestTemplatesKeepTheirWords(t *testing.T) {
	data, err := os.ReadFile("testdata/update-alternatives-scratch.log")
	if err != nil {
		t.Fatal(err)
	}
	link := 0
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, ": link group ") && strings.Contains(l, " updated to point to ") {
			link++
		}
	}
	// (At 1,000 tokens the first and last lines, shown before any
	// template, take the budget of this 1,966-token log.)
	views, _ := kvView(t, data, []int{1500, 4000})
	for b, text := range views {
		if want := fmt.Sprintf("[%d lines] update-alternatives <ts>: link group <*> updated to point to <*>", link); !strings.Contains(text, want) {
			t.Errorf("at %d: no %q:\n%s", b, want, text)
		}
		if strings.Contains(text, "<ts>: <*> <*> <*> <*>") {
			t.Errorf("at %d: a template whose words all vary:\n%s", b, text)
		}
	}
}
