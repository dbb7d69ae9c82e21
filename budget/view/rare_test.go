package view_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestRareValueAmongManyValues: `go list -m -json all` of this module
// (testdata/go-list-m-all-2026-11.json, captured with Go 1.26.8): 204
// modules whose GoVersion has 24 values; the three commonest (none 80,
// 1.25.0 27, 1.24 21) cover under two thirds of them, yet a version of
// one module (1.14) stands out against the typical one (a value eight
// times rarer than the median module's). Each such value is a row with
// its reason, the module it belongs to, and its count as jq counts it.
// The old rule (rare only when the three commonest values cover two
// thirds) chose none.
func TestRareValueAmongManyValues(t *testing.T) {
	v, data := viewOf(t, "testdata/go-list-m-all-2026-11.json")
	f := fillAt(t, v, 8000)
	// [[version, count, first module]] of the values in one module only
	ones := jq(t, []byte("["+strings.ReplaceAll(strings.TrimSpace(string(data)), "}\n{", "},\n{")+"]"),
		`[.[] | select(.GoVersion != null)] as $m | ($m | length) as $n | $m | group_by(.GoVersion) | map(select(length == 1) | [.[0].GoVersion, .[0].Path, $n])`)[0].([]any)
	if len(ones) == 0 {
		t.Fatal("no GoVersion of one module")
	}
	for _, o := range ones {
		x := o.([]any)
		ver, path, n := x[0].(string), x[1].(string), x[2].(int)
		cellVer := ver
		if regexp.MustCompile(`^[0-9.]+$`).MatchString(ver) && strings.Count(ver, ".") == 1 {
			cellVer = fmt.Sprintf("%q", ver) // reads as a number: quoted
		}
		why := fmt.Sprintf("rare GoVersion (1 of %d)", n)
		found := false
		for _, l := range strings.Split(f.Text, "\n") {
			if strings.HasPrefix(strings.SplitN(l, "\t", 3)[min(1, len(strings.SplitN(l, "\t", 3))-1)], path) && strings.Contains(l, why) && strings.Contains(l, "\t"+cellVer+"\t") {
				found = true
			}
		}
		if !found {
			t.Errorf("no row of %s with %q", path, why)
		}
	}
}

// TestRowNamesTheNestedRecord: jest --json (testdata/jest-json-lib.json,
// testdata/gen/textcaps/jestlib): 17 test files holding 781 tests in
// assertionResults arrays; 12 are not passed. Each of them is named at
// 4,500 tokens by the row of its file, chosen for the test's status
// (failed, pending, todo are rare among 769 passed), by the test's own
// members: its full name and status. The old rows said only
// "assertionResults[].status=failed (6 of 781)" beside the file's
// columns, never which test. At 4,500 tokens since the index of the 17
// files (every file with its counts, a few hundred tokens) comes before
// the rows (TestSmallIndexEarly): at 4,000, 11 of the 12.
func TestRowNamesTheNestedRecord(t *testing.T) {
	v, data := viewOf(t, "testdata/jest-json-lib.json")
	f := fillAt(t, v, 4500)
	notPassed := jq(t, data, `[.testResults[] | .name as $file | .assertionResults[] | select(.status != "passed") | [$file, .fullName, .status]]`)[0].([]any)
	if len(notPassed) != 12 {
		t.Fatalf("%d tests not passed, want 12", len(notPassed))
	}
	for _, x := range notPassed {
		y := x.([]any)
		file, name, status := y[0].(string), y[1].(string), y[2].(string)
		found := false
		for _, l := range strings.Split(f.Text, "\n") {
			cells := strings.Split(l, "\t")
			if len(cells) > 2 && cells[1] == file && strings.Contains(l, "in assertionResults[]: {") &&
				strings.Contains(l, "fullName: "+name+",") && strings.Contains(l, "status: "+status+",") {
				found = true
			}
		}
		if !found {
			t.Errorf("no row of %s names its %s test %q", file, status, name)
		}
	}
}

// TestIndexListsOpaqueFieldsLast: go mod download -json of
// prometheus/common v0.72.0's requirements
// (testdata/go-mod-download-prometheus-common.json, 23 modules). The
// index lines leave the Sum hashes out (they would cost half of each
// line); when there is room after everything else, lines of their own
// list every module's Sum, as jq reads it, and no line of the index
// carries one.
func TestIndexListsOpaqueFieldsLast(t *testing.T) {
	v, data := viewOf(t, "testdata/go-mod-download-prometheus-common.json")
	f := fillAt(t, v, 12000)
	head := "opaque fields of . (hashes, ids), every record in record order, one per line (tab-separated: Path, Sum):\n"
	i := strings.Index(f.Text, head)
	if i < 0 {
		t.Fatalf("no list of the opaque fields at 12,000 tokens:\n%s", f.Text)
	}
	if j := strings.Index(f.Text, "index of ., every record"); j < 0 || j > i || strings.Contains(f.Text[j:i], "h1:") {
		t.Errorf("the index is missing, after the opaque fields, or carries a hash")
	}
	sums := jq(t, []byte("["+strings.ReplaceAll(strings.TrimSpace(string(data)), "}\n{", "},\n{")+"]"), `[.[] | [.Path, .Sum]]`)[0].([]any)
	lines := strings.Split(f.Text[i+len(head):], "\n")
	if len(sums) != 23 || len(lines) < 23 {
		t.Fatalf("%d modules, %d lines", len(sums), len(lines))
	}
	for k, x := range sums {
		y := x.([]any)
		if want := y[0].(string) + "\t" + y[1].(string); lines[k] != want {
			t.Errorf("line %d is %q, want %q", k, lines[k], want)
		}
	}
}

// TestRareValueRowsSayHowManyShown: 3,000 nodes, 11 of them NotReady
// (spread over the array), at budgets where the rows show some of the
// 11: a line says how many of the value's records the rows show and
// gives the query of exactly the others, which returns the NotReady
// records no row shows (final second read F4: 8 rows each saying
// "state=NotReady (11 of 10,000)" and nothing about the other 3).
func TestRareValueRowsSayHowManyShown(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 3000; i++ {
		state := "Ready"
		if i%297 == 0 && i < 11*297 {
			state = "NotReady"
		}
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name":"node-%05d","state":%q,"zone":"z%d","cpu":%d}`, i, state, i%3, 1+(i*37)%64)
	}
	b.WriteString("]")
	v, data := viewOfData(t, []byte(b.String()))
	foot := regexp.MustCompile(`(?m)^  values whose records the rows show in part \(shown of all\): state=NotReady (\d+) of 11; the records of state=NotReady not shown \(any value likewise\): compact artifact query \S+ --jq '(.*)'$`)
	row := regexp.MustCompile(`(?m)^\d+\t(node-\d+)\tNotReady\t`)
	partly := 0
	for _, budget := range []int{1000, 1500, 2000, 3000, 4000} {
		text := fillAt(t, v, budget).Text
		rows := map[string]bool{}
		for _, m := range row.FindAllStringSubmatch(text, -1) {
			rows[m[1]] = true
		}
		m := foot.FindStringSubmatch(text)
		if m == nil {
			if len(rows) > 0 && len(rows) < 11 {
				t.Errorf("at %d tokens the rows show %d of the 11 NotReady and no line says so:\n%s", budget, len(rows), text)
			}
			continue
		}
		partly++
		rest := jq(t, data, strings.ReplaceAll(m[2], `'\''`, `'`))[0].([]any)
		if m[1] != fmt.Sprint(len(rows)) || len(rows)+len(rest) != 11 {
			t.Errorf("at %d tokens: the line says %s shown; rows %d, the query returns %d", budget, m[1], len(rows), len(rest))
		}
		for _, r := range rest {
			if name := r.(map[string]any)["name"].(string); rows[name] {
				t.Errorf("at %d tokens the query returns %s, which a row shows", budget, name)
			}
		}
	}
	if partly == 0 {
		t.Error("no budget shows some but not all of the 11 NotReady")
	}
}
