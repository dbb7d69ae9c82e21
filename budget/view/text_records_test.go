package view

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestTextRecordHeaders checks records that are blank-line-separated
// blocks starting with the same kind of line (a commit of git log, a
// session of apt's term.log): the record count is the count of those
// lines (jq), each of which starts a block, the view states it and shows
// the first and the last header; and the Key: value lines of such a text
// are profiled by key, every count checked against jq.
func TestTextRecordHeaders(t *testing.T) {
	data := readCapture(t, "git-log-fuller-go-sdk.txt")
	p := analyzeText(data, nil)
	if p.headKey != "commit " {
		t.Fatalf("header key %q, want %q", p.headKey, "commit ")
	}
	n := runJQ(t, jqLines(t, data, `[.[] | select(startswith("commit "))] | length`)[0], ".")[0].(int)
	atStart := runJQ(t, jqLines(t, data, `. as $l | [range(0; length) | select($l[.] | startswith("commit ")) | select(. == 0 or ($l[. - 1] | test("^\\s*$")))] | length`)[0], ".")[0].(int)
	if p.records != n || atStart != n {
		t.Errorf("records %d; jq: %d commit lines, %d of them start a block", p.records, n, atStart)
	}
	if !p.loose {
		t.Fatal("Key: value lines of a git log are not profiled")
	}
	keys := map[string]bool{}
	for _, f := range p.fields {
		keys[f.name] = true
		re := regexp.MustCompile(`^` + regexp.QuoteMeta(f.name) + `:[ \t]*(.*?)[ \t]*$`)
		var vals []string
		textLines(data, func(_ int, l string) {
			if m := re.FindStringSubmatch(l); m != nil {
				vals = append(vals, m[1])
			}
		})
		if len(vals) != f.present {
			t.Errorf("key %s: %d lines, want %d", f.name, f.present, len(vals))
		}
		if f.values != nil {
			for v, c := range f.values {
				k := 0
				for _, x := range vals {
					if x == v {
						k++
					}
				}
				if k != c {
					t.Errorf("key %s value %q: %d lines, want %d", f.name, v, c, k)
				}
			}
		}
	}
	for _, k := range []string{"Author", "AuthorDate", "Commit", "CommitDate", "Merge"} {
		if !keys[k] {
			t.Errorf("key %s not profiled (have %v)", k, keys)
		}
	}
	text := fillText(t, data, 2000)
	for _, want := range []string{
		`75 records (blank-line-separated blocks, each starting with a line "commit …")`,
		`Author (75 lines): 13 distinct values; "Person 06 <person-06@example.invalid>" 29`,
		// The first and the last records, whole, each on one line.
		"\n  0\tcommit de6f8ac95721dff6cf8f5fdca26887699a53b3e9 | Author:     Person 01 <person-01@example.invalid> | AuthorDate: 2025-05-15T00:17:31+03:00 | ",
		"\tcommit ec36702d7cc7b8882fca4d004979bc4cee187217 | Author:     Person 01 <person-01@example.invalid> | AuthorDate: 2023-07-18T10:41:58+03:00 | Commit:     Person 02 <person-02@example.invalid> | CommitDate: 2023-07-18T10:41:58+03:00 | Initial commit\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view at 2,000 tokens lacks %q:\n%s", want, text)
		}
	}
}

// TestHeaderKey checks which lines name a record's kind, and that a
// text whose blocks start differently has none.
func TestHeaderKey(t *testing.T) {
	for line, want := range map[string]string{
		"commit 4c776c00747bccb86e5b84f76f77975c885bbaf1": "commit ",
		"Log started: 2025-06-24  14:36:25":               "Log started: ",
		"Log ended: 2025-06-24  14:36:25":                 "Log ended: ",
		"2025-06-24 14:36:25 status installed":            "",
		"    indented":                                    "",
		"commit":                                          "",
		"Package: bash":                                   "Package: ",
	} {
		if got := headerKey(line); got != want {
			t.Errorf("headerKey(%q) = %q, want %q", line, got, want)
		}
	}
	var b strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "\nLog started: 2025-06-2%d  14:36:25\nSetting up a (1) ...\nLog ended: 2025-06-2%d  14:37:00\n", i, i)
	}
	if k := detectHeaderKey([]byte(b.String()), textPlain); k != "Log started: " {
		t.Errorf("sessions: key %q", k)
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.records != 5 || !strings.Contains(p.recordUnit, `"Log started: …"`) {
		t.Errorf("sessions: %d %s", p.records, p.recordUnit)
	}
	// The first line's kind recurs, but not at the start of blocks.
	if k := detectHeaderKey([]byte("x: 1\nx: 2\n\ny 3\nx: 4\nx: 5\n"), textPlain); k != "" {
		t.Errorf("no headers: key %q", k)
	}
}

// TestSlowestTests checks the slowest tests a test report names: in a go
// test -json stream the longest Elapsed of test events (jq), in go test
// -v text the longest "(1.80s)" of the result lines.
func TestSlowestTests(t *testing.T) {
	for _, name := range []string{"go-test-json.jsonl", "go-test-shop.jsonl"} {
		data := readCapture(t, name)
		s := analyzeGoTestJSON(data)
		var events []any
		textLines(data, func(_ int, l string) {
			var v any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatal(err)
			}
			events = append(events, v)
		})
		want := runJQ(t, events, `[.[] | select(.Test and (.Action == "pass" or .Action == "fail") and .Elapsed > 0) | .Elapsed] | sort | reverse | .[0:5]`)[0].([]any)
		if len(want) != len(s.slowest) {
			t.Fatalf("%s: %d slowest tests, jq %d", name, len(s.slowest), len(want))
		}
		for i, w := range want {
			if s.slowest[i].seconds != w.(float64) {
				t.Errorf("%s: slowest %d: %v, jq %v", name, i, s.slowest[i].seconds, w)
			}
		}
	}
	text := "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestSlow\n--- PASS: TestSlow (2.50s)\n=== RUN   TestB\n" +
		"=== RUN   TestB/x\n    --- FAIL: TestB/x (0.30s)\n--- FAIL: TestB (0.31s)\nFAIL\nFAIL\texample.com/x\t3.2s\n"
	p := analyzeText([]byte(text), nil)
	var got []string
	for _, s := range p.tests.slowest {
		got = append(got, s.name+" "+s.text)
	}
	if strings.Join(got, ", ") != "TestSlow 2.50s, TestB 0.31s, TestB/x 0.30s" {
		t.Errorf("slowest: %q", got)
	}
	if v := fillText(t, []byte(text+strings.Repeat("=== RUN   TestC\n--- PASS: TestC (0.00s)\n", 300)), 300); !strings.Contains(v, "slowest tests: TestSlow 2.50s, TestB 0.31s, TestB/x 0.30s\n") {
		t.Errorf("the view does not name the slowest tests:\n%s", v)
	}
}

// TestExtensionCounts checks the counts of lines by the extension of
// their last word against jq, on a listing of files, and that prose and
// logs get no such line.
func TestExtensionCounts(t *testing.T) {
	data := readCapture(t, "find-usr-share-doc.txt")
	p := analyzeText(data, nil)
	got := jqLines(t, data, `[.[] | select(test("\\S")) | sub("[ \t\r]+$"; "") | (split(" ") | last) | (split("\t") | last)
		| (if (index("/") != null) and (endswith("/") | not) then split("/") | last else . end)
		| select(test("^.+\\.[A-Za-z0-9]{1,6}$") and test("\\.[0-9]*[A-Za-z][A-Za-z0-9]*$"))
		| capture("(?<e>\\.[A-Za-z0-9]+)$").e] | group_by(.) | map({key: .[0], value: length}) | from_entries`)[0].(map[string]any)
	if len(got) != len(p.miner.ext) {
		t.Errorf("%d extensions, jq %d", len(p.miner.ext), len(got))
	}
	for e, n := range got {
		if p.miner.ext[e] != n.(int) {
			t.Errorf("extension %s: %d lines, jq %d", e, p.miner.ext[e], n)
		}
	}
	// A list of paths states its extensions with its directories
	// (text_paths.go), not as lines by their last word.
	tc := &textCands{p: p}
	if s := tc.extensionCounts(); s != "" {
		t.Errorf("find listing: %q", s)
	}
	if s := strings.Join(p.cols.cols[0].pathLines(), "\n"); !strings.Contains(s, `rows by extension (after the last . of the last segment): ".gz" 1,635, ".txt" 521,`) {
		t.Errorf("find listing, path lines:\n%s", s)
	}
	for _, name := range []string{"man-bash.txt", "dpkg-log.txt", "apt-history.txt"} {
		tc := &textCands{p: analyzeText(readCapture(t, name), nil)}
		if s := tc.extensionCounts(); s != "" {
			t.Errorf("%s: %q", name, s)
		}
	}
	for w, want := range map[string]string{"a.go": ".go", "tags.txt": ".txt", "1.2.3": "", "file.": "", ".bashrc": "", "x.tar.gz": ".gz", "v1.20": "", "a.b-c": ""} {
		if got := extension(w); got != want {
			t.Errorf("extension(%q) = %q, want %q", w, got, want)
		}
	}
}

// TestMergeRareTemplates checks that lines of a common form whose second
// word is a name join their template instead of standing alone, while a
// line of another kind stays unlike the rest (the purge among removes of
// a real dpkg.log), and every line is counted once.
func TestMergeRareTemplates(t *testing.T) {
	var b strings.Builder
	for _, pkg := range []string{"iptables", "conmon", "crun", "buildah", "podman", "catatonit", "netavark", "uidmap"} {
		fmt.Fprintf(&b, "Unpacking %s (1.2.%d-1) ...\nSetting up %s (1.2.%d-1) ...\n", pkg, len(pkg), pkg, len(pkg))
	}
	b.WriteString("A chroot environment has been detected, udev not started.\n")
	p := analyzeText([]byte(b.String()), nil)
	var got []string
	for _, c := range p.miner.clusters {
		got = append(got, fmt.Sprintf("%d %s", c.count, c.template()))
	}
	want := "8 Unpacking <*> (<n>-<n>) ...|8 Setting up <*> (<n>-<n>) ...|1 A chroot environment has been detected, udev not started."
	if strings.Join(got, "|") != want {
		t.Errorf("templates %q, want %q", strings.Join(got, "|"), want)
	}
	p = analyzeText(readCapture(t, "dpkg-log.txt"), nil)
	found := false
	for _, c := range p.miner.clusters {
		if c.count == 1 && strings.Contains(c.example, " purge cmake-data:all ") {
			found = true
		}
	}
	if !found {
		t.Error("the one purge of dpkg-log.txt is no longer a line unlike the rest")
	}
}

// TestTextFacts checks the facts of a whole text: a test report's totals
// and its slowest tests, a table's columns with few values first.
func TestTextFacts(t *testing.T) {
	var b strings.Builder
	b.WriteString("  PID USER STAT   RSS COMMAND\n")
	for i := 1; i <= 40; i++ {
		st := "S"
		if i == 7 {
			st = "R"
		}
		fmt.Fprintf(&b, "%5d root %s %5d worker-%d\n", i, st, i*10, i%3)
	}
	got := strings.Join(TextFacts([]byte(b.String())), "\n")
	for _, want := range []string{"a table of 40 rows, 5 columns (header at line 0)", `column STAT: "S" 39, "R" 1`,
		`column COMMAND: "worker-1" 14, "worker-0" 13, "worker-2" 13`, "column RSS: sum 8200, min 10, max 400"} {
		if !strings.Contains(got, want) {
			t.Errorf("facts lack %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "column STAT") > strings.Index(got, "column PID") {
		t.Errorf("a column of numbers before the columns of few values:\n%s", got)
	}
	if TextFacts(readCapture(t, "go-test-json.jsonl")) != nil || TextFacts(nil) != nil {
		t.Error("facts of a go test -json stream or of nothing")
	}
}

// TestSlotValuesOfMaskedTokens checks that a small template names the
// values of its masked tokens too (the numbers of the merged pull
// requests), not only of its <*> positions.
func TestSlotValuesOfMaskedTokens(t *testing.T) {
	var b strings.Builder
	for _, n := range []int{250, 248, 213, 183} {
		fmt.Fprintf(&b, "Merge pull request #%d from owner/branch-%d\n", n, n%7)
	}
	p := analyzeText([]byte(b.String()), nil)
	if len(p.miner.clusters) != 1 {
		t.Fatalf("%d templates", len(p.miner.clusters))
	}
	got := p.miner.clusters[0].slotValues()
	if want := "values: #<n> (4 values): #250, #248, #213, #183; owner/branch-<n> (3 values): owner/branch-3 2, owner/branch-5 1, owner/branch-1 1"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestSlotCounts checks the values counted per template position, for
// templates of any size: on every captured text each counted position's
// counts add up to its template's lines, and on dpkg.log the 672
// "configure" lines' last token is "<none>" in exactly as many lines as
// jq finds (a big template named no values before).
func TestSlotCounts(t *testing.T) {
	for name := range textCaptures {
		p := analyzeText(readCapture(t, name), nil)
		for _, c := range p.miner.clusters {
			for i, cs := range c.counts {
				sum := 0
				for _, x := range cs {
					sum += x.n
				}
				if cs != nil && sum != c.count {
					t.Errorf("%s: template %q position %d: counts add up to %d of %d lines", name, c.template(), i, sum, c.count)
				}
			}
		}
	}
	data := readCapture(t, "dpkg-log.txt")
	p := analyzeText(data, nil)
	n := len(jqLines(t, data, `.[] | select(test("^\\S+ \\S+ configure ") and endswith(" <none>"))`))
	found := false
	for _, c := range p.miner.clusters {
		if c.count > maxSlotLines && strings.Contains(c.slotValues(), fmt.Sprintf("<none> %s,", commas(n))) {
			found = true
		}
	}
	if n < 100 || !found {
		t.Errorf("jq finds %d configure lines ending in <none>; no big template says so", n)
	}
}

// TestTextRecordsWhole checks a text of blank-line-separated records
// (go mod why -m all: "# module" then its import chain) is shown as whole
// records, each on one line: every shown record equals its lines in the
// text (jq: from its header to the next, blank lines left out, trimmed,
// joined by " | "), the first and the last records are shown at the
// smallest budget, a larger budget shows a superset of records, the head
// states how many are shown of 204, and the lines of the records are no
// longer shown one by one ("lines unlike the rest"). On the old code the
// view showed header lines and chain lines out of their record.
func TestTextRecordsWhole(t *testing.T) {
	data := readCapture(t, "go-mod-why.txt")
	recs := jqLines(t, data, `. as $l | [range(length) | select($l[.] | startswith("# "))] as $h | [range($h | length) | {key: ($h[.] | tostring), value: ($l[$h[.]:($h[.+1] // ($l | length))] | map(gsub("^\\s+|\\s+$"; "")) | map(select(. != "")) | join(" | "))}] | from_entries`)[0].(map[string]any)
	if len(recs) != 204 {
		t.Fatalf("jq: %d records", len(recs))
	}
	re := regexp.MustCompile(`(?m)^  (\d+)\t(# .*)$`)
	var prev map[string]bool
	prevN := 0
	for _, b := range []int{2000, 4000, 8000} {
		text := fillText(t, data, b)
		if strings.Contains(text, "lines unlike the rest") {
			t.Errorf("budget %d: lines out of their record shown", b)
		}
		shown := map[string]bool{}
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			want, ok := recs[m[1]].(string)
			if !ok {
				t.Errorf("budget %d: line %s is no record's start", b, m[1])
				continue
			}
			if m[2] != want && !strings.HasPrefix(want, strings.Split(m[2], "…[+")[0]) {
				t.Errorf("budget %d: record at %s shown as %q, jq %q", b, m[1], m[2], want)
			}
			shown[m[1]] = true
		}
		n := 0
		if _, err := fmt.Sscanf(text[strings.Index(text, "blank lines left out; showing ")+len("blank lines left out; showing "):], "%d of 204 records", &n); err != nil || n != len(shown) {
			t.Errorf("budget %d: head says %d records, %d shown (%v)", b, n, len(shown), err)
		}
		if !shown["0"] || !shown["1070"] {
			t.Errorf("budget %d: the first or the last record is missing", b)
		}
		for k := range prev {
			if !shown[k] {
				t.Errorf("budget %d drops the record at line %s", b, k)
			}
		}
		if len(shown) <= prevN {
			t.Errorf("budget %d shows %d records, not more than %d", b, len(shown), prevN)
		}
		prev, prevN = shown, len(shown)
	}
	if prevN < 150 {
		t.Errorf("8,000 tokens (of a 9,543-token text) show %d of 204 records", prevN)
	}
}

// TestRecordNumbers checks the numbers counted per record of a git log
// --stat (this repository's, 40 commits): "N insertions(+)" summed per
// record, their total and the record with the most equal jq's, the line
// states them, and the records at the extremes (most insertions, most
// files, most lines) are shown whole at a small budget. The old code
// counted no numbers per record.
func TestRecordNumbers(t *testing.T) {
	data := readCapture(t, "git-log-stat-compact.txt")
	p := analyzeText(data, nil)
	rs := p.recs
	if rs == nil || !rs.short() || rs.n != 40 {
		t.Fatalf("records: %+v", rs)
	}
	per := `. as $l | [range(length) | select($l[.] | startswith("commit "))] as $h | [range($h | length) | . as $k | $l[$h[$k]:($h[$k+1] // ($l | length))] | {h: .[0], st: (map(select(test("^ [0-9]+ files? changed")))[0] // "")} | .ins = ([.st | capture("(?<n>[0-9]+) insertion") | .n | tonumber] | add // 0) | .files = ([.st | capture("(?<n>[0-9]+) file") | .n | tonumber] | add // 0)]`
	want := jqLines(t, data, per+` | [(map(.ins) | add), (map(select(.ins > 0)) | length), (max_by(.ins) | .h), (map(.files) | add), (max_by(.files) | .h)]`)[0].([]any)
	ins, files := rs.units["insertion"], rs.units["file"]
	if ins == nil || files == nil {
		t.Fatalf("units: %v", rs.units)
	}
	got := []any{int(ins.total), ins.records, ins.maxRec, int(files.total), files.maxRec}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("insertions and files per record: %v, jq %v", got, want)
	}
	if l := rs.unitsLine(); !strings.Contains(l, "insertion: 769 in 17 records, most 158 (in \"commit 358c9b6165717e00caad6ffb343cb5a45a14951d\")") {
		t.Errorf("numbers line: %s", l)
	}
	text := fillText(t, data, 2000)
	for _, h := range []string{"\tcommit 358c9b6165717e00caad6ffb343cb5a45a14951d | ", "\tcommit f82f73e921ef9bb0d7d768a624bdc9467894ddd3 | "} {
		if !strings.Contains(text, h) {
			t.Errorf("the view at 2,000 lacks the record %q:\n%s", h, text)
		}
	}
}
