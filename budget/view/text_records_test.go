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
		"\n  0\tcommit de6f8ac95721dff6cf8f5fdca26887699a53b3e9\n",
		"\tcommit ec36702d7cc7b8882fca4d004979bc4cee187217\n",
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
	tc := &textCands{p: p}
	if s := tc.extensionCounts(); !strings.HasPrefix(s, "  lines by the extension of their last word (exact counts): .gz 1,635, .txt 521,") {
		t.Errorf("find listing: %q", s)
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
