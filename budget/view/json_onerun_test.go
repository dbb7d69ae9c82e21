package view_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// sarifLog is a SARIF-shaped log: the root holds one run, the run its
// results, its tool's driver with its rules, and its artifacts.
func sarifLog() []byte {
	var res, rules, arts []string
	ids := []string{"sql-injection", "sql-injection", "reflected-xss", "path-traversal", "sql-injection", "crypto-bad-mac", "reflected-xss"}
	for i := 0; i < 30; i++ {
		id := ids[i%len(ids)]
		if i >= 20 {
			id = fmt.Sprintf("rule-%02d", i)
		}
		res = append(res, fmt.Sprintf(`{"ruleId":%q,"level":"error","message":{"text":"finding %d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"/webgoat/page%02d.aspx"}}}]}`, id, i, i%9))
	}
	for i := 0; i < 40; i++ {
		rules = append(rules, fmt.Sprintf(`{"id":"rule-%02d","name":"Rule number %d","shortDescription":{"text":"Verifies rule %d"}}`, i, i, i))
	}
	for i := 0; i < 9; i++ {
		arts = append(arts, fmt.Sprintf(`{"location":{"uri":"/webgoat/page%02d.aspx"}}`, i))
	}
	return []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Contrast Security","version":"3.4.5","rules":[` + strings.Join(rules, ",") +
		`]}},"results":[` + strings.Join(res, ",") + `],"artifacts":[` + strings.Join(arts, ",") + `],"columnKind":"utf16CodeUnits"}]}`)
}

// TestOneRecordArrayHoldsCollections checks that the one record of an
// array (a SARIF log's one run) is no dead end: the collections inside
// it are collections of their own, with their exact counts and
// profiles, and its scalars, also those of an object around a
// collection (tool.driver.name), are stated. Before, the view stated
// the run by its members' sizes ("results: array of 30 items") and
// nothing else, whatever the budget.
func TestOneRecordArrayHoldsCollections(t *testing.T) {
	data := sarifLog()
	fl := fillAt(t, buildView(t, inputOf(t, data, 4000)), 4000)
	for _, want := range []string{
		"collection .runs[].results (array): 30 records",
		"collection .runs[].tool.driver.rules (array): 40 records",
		"collection .runs[].artifacts (array): 9 records",
		"tool.driver.name=Contrast Security",
		"columnKind=utf16CodeUnits",
		"sql-injection 9", // the results by ruleId, counted
	} {
		if !strings.Contains(fl.Text, want) {
			t.Errorf("the view lacks %q:\n%s", want, fl.Text)
		}
	}
}

// TestGoBuildJSONIsNoTestRun checks that a go build -json stream (build
// events only: ImportPath, Action, Output) is read as records, not as a
// go test -json run of 0 tests: its events counted by package and
// action, and the output that ends it (the failed package's compile
// errors, its build-fail) in the rows. Before, it was summed up as "go
// test -json: N events, tests: 0" and its first events shown.
func TestGoBuildJSONIsNoTestRun(t *testing.T) {
	var b strings.Builder
	pkgs := []string{"runtime", "internal/abi", "runtime", "internal/cpu", "runtime", "sync", "os", "runtime"}
	for i := 0; i < 400; i++ {
		p := pkgs[i%len(pkgs)]
		fmt.Fprintf(&b, `{"ImportPath":%q,"Action":"build-output","Output":"mkdir -p $WORK/b%03d/\n"}`+"\n", p, i)
	}
	for _, l := range []string{"# example.com/cli\n", "cli/error.go:139:15: undefined: yaml.LoadError\n", "cli/error.go:152:43: undefined: yaml.Mark\n"} {
		fmt.Fprintf(&b, `{"ImportPath":"example.com/cli","Action":"build-output","Output":%q}`+"\n", l)
	}
	b.WriteString(`{"ImportPath":"example.com/cli","Action":"build-fail"}` + "\n")
	fl := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 4000)), 4000)
	if strings.Contains(fl.Text, "go test -json") || strings.Contains(fl.Text, "tests (") {
		t.Errorf("a build stream read as a test run:\n%s", fl.Text)
	}
	for _, want := range []string{"404 records", "build-output 403, build-fail 1", "runtime 200", "undefined: yaml.LoadError", "undefined: yaml.Mark"} {
		if !strings.Contains(fl.Text, want) {
			t.Errorf("the view lacks %q:\n%s", want, fl.Text)
		}
	}
}

// TestBiggestGroupsOfManyValues checks that a field grouping the records
// (each of its 100 values in several records) states its biggest groups
// with their exact counts, as "which package has the most events" asks.
// Before, past the values counted one by one, only a value in a tenth
// of the records was named.
func TestBiggestGroupsOfManyValues(t *testing.T) {
	var b strings.Builder
	n := 0
	for p := 0; p < 100; p++ {
		k := 5
		if p == 37 {
			k = 23
		}
		for j := 0; j < k; j++ {
			fmt.Fprintf(&b, `{"pkg":"example.com/pkg%02d","seq":%d,"ok":%v}`+"\n", p, n, j%2 == 0)
			n++
		}
	}
	fl := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 4000)), 4000)
	if !strings.Contains(fl.Text, "most common: example.com/pkg37 23") {
		t.Errorf("the biggest group is not named:\n%s", fl.Text)
	}
}

// TestListsByPositionPerRecord checks that two lists are read side by
// side only in a record where they have as many items: two files whose
// function names and call counts differ in number (6 names and 7 counts,
// 7 names and 6 counts: equal totals, equal fewest and most) list each
// list on its own, every item named, none dropped. Before, the pairing
// was decided on the totals and the seventh count of the first file was
// never shown.
func TestListsByPositionPerRecord(t *testing.T) {
	m := map[string]any{}
	for i, n := range [][2]int{{6, 7}, {7, 6}, {5, 5}, {8, 8}, {6, 6}, {5, 5}, {7, 7}, {6, 6}, {5, 5}, {8, 8}} {
		path := fmt.Sprintf("/src/mod%d.js", i)
		fnMap, f := map[string]any{}, map[string]any{}
		for j := range n[0] {
			fnMap[fmt.Sprint(j)] = map[string]any{"name": fmt.Sprintf("fn%d_%d", i, j)}
		}
		for j := range n[1] {
			f[fmt.Sprint(j)] = 100*i + 11*j + 1
		}
		m[path] = map[string]any{"path": path, "fnMap": fnMap, "f": f}
	}
	data, _ := json.Marshal(m)
	text := fillAt(t, buildView(t, inputOf(t, data, 8000)), 8000).Text
	for _, want := range []string{"/src/mod0.js: f[] (7): ", "/src/mod1.js: fnMap[].name (7): ", "/src/mod2.js: f[] with fnMap[].name by position (5): 201 fn2_0"} {
		if !strings.Contains(text, want) {
			t.Errorf("view lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "67") { // the seventh count of mod0.js
		t.Errorf("the seventh count of /src/mod0.js is not shown:\n%s", text)
	}
	if strings.Contains(text, "/src/mod0.js: f[] with") || strings.Contains(text, "/src/mod1.js: f[] with") {
		t.Errorf("lists of unequal lengths read by position:\n%s", text)
	}
}

// TestOneOffRecordStatesWhatIsLeftOut checks that the line of a one-off
// record (a stream's summary) never drops a member silently: its
// members past the line's width (and those the profile does not hold)
// are counted, with the query of the whole record, and the one-off
// records past the first three are named. Before, members past 40 were
// dropped without a word, and so were the fourth and later one-off
// records.
func TestOneOffRecordStatesWhatIsLeftOut(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, `{"type":"match","path":"src/f%02d.go","line":%d}`+"\n", i%7, i)
	}
	for _, tp := range []string{"begin", "error", "warning", "timing"} {
		fmt.Fprintf(&b, `{"type":%q,"path":"x"}`+"\n", tp)
	}
	b.WriteString(`{"type":"summary","stats":{`)
	for j := 0; j < 60; j++ {
		if j > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"counter_%02d":%d`, j, 1000+j)
	}
	b.WriteString(`},"files":["a","b","c"]}` + "\n")
	fl := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 8000)), 8000)
	var line string
	for _, l := range strings.Split(fl.Text, "\n") {
		if strings.Contains(l, "the only record with type=summary") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no line of the summary:\n%s", fl.Text)
	}
	if !strings.Contains(line, "stats.counter_00=1000") || !strings.Contains(line, "more members; the whole record: compact artifact query 0123456789ab --jq '.[44]'") {
		t.Errorf("the summary's line does not count what it leaves out: %s", line)
	}
	if !strings.Contains(fl.Text, "more records with a type of their own, not stated: ") {
		t.Errorf("the one-off records past the third are not named:\n%s", fl.Text)
	}
}
