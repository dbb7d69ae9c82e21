package view

import (
	"fmt"
	"strings"
	"testing"
)

// blameLike is a text like git blame --porcelain: n commits, each
// introduced by a header line and its run of "key value" lines the first
// time it appears, and lines of content after a TAB (one of them code
// with "panic" in it); every commit's second line repeats its header
// only.
func blameLike(n int) []byte {
	var b strings.Builder
	line := 1
	for i := 0; i < n; i++ {
		sha := fmt.Sprintf("%040x", 0xabc0000+i)
		fmt.Fprintf(&b, "%s %d %d 2\n", sha, line, line)
		fmt.Fprintf(&b, "author Person %02d\nauthor-mail <p%02d@example.invalid>\nauthor-time %d\nsummary Change number %d\n", i%7, i%7, 1500000000+1000*i, i)
		if i == 0 {
			b.WriteString("boundary\n")
		} else {
			fmt.Fprintf(&b, "previous %040x flag.go\n", 0xabc0000+i-1)
		}
		b.WriteString("filename flag.go\n")
		fmt.Fprintf(&b, "\tfunc f%d() {\n", i)
		fmt.Fprintf(&b, "%s %d %d\n\t\tpanic(msg)\n", sha, line+1, line+1)
		line += 2
	}
	return []byte(b.String())
}

// TestKeyRunRecords checks records of "key value" runs: one per commit
// (jq: the lines that start "author "), each key profiled per record
// (author by value, the newest author-time and the record holding it),
// the index of the records by name with author, author-time and
// summary, and no error line for a "panic" in the content after a TAB
// (nor in the error query). On 976edec the text had no records.
func TestKeyRunRecords(t *testing.T) {
	data := blameLike(70)
	p := analyzeText(data, nil)
	if p.recs == nil || p.recs.keys == nil {
		t.Fatalf("no records of key runs (recs %+v)", p.recs)
	}
	n := jqLines(t, data, `[.[] | select(startswith("author "))] | length`)[0].(int)
	if p.records != n || n != 70 || len(jqLines(t, data, p.recs.headerQuery())) != n {
		t.Errorf("records %d, jq %d commits, want 70", p.records, n)
	}
	if p.errors != 0 || len(jqLines(t, data, p.severityQuery(sevError))) != 0 {
		t.Errorf("%d error lines in the content of a blame", p.errors)
	}
	text := fillText(t, data, 4000)
	for _, want := range []string{
		"70 records (each a line and the run of \"key value\" lines after it: author, author-mail, author-time, summary, ",
		`author (in 70 records): "Person 00" 10, "Person 01" 10,`,
		"max 1500069000 (in \"000000000000000000000000000000000abc0045 139 139 2\")",
		"line<TAB>name author; author-time; summary;",
		"\t000000000000… Person 03; 1500010000; Change number 10\n",
		"70 lines of content after a TAB have a severity word",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view at 4,000 tokens lacks %q:\n%s", want, text)
		}
	}
}

// TestKeyRunsBlameWithEmptyLines reads a real git blame --porcelain
// (of budget/view/fill.go at 8aba075, 9 commits) whose file has empty
// source lines: porcelain writes each as a content line of one TAB.
// Such a line is no blank line between blocks: the text is 9 records of
// key runs (jq: the lines that start "author "), not blank-line blocks
// (8aba075: "17 records (blank-line-separated blocks)") nor lines led
// by their indentation, and the Go source after the TABs is no error.
func TestKeyRunsBlameWithEmptyLines(t *testing.T) {
	data := readCapture(t, "testdata/git-blame-porcelain-fill.txt")
	if tabs := jqLines(t, data, `[.[] | select(. == "\t")] | length`)[0].(int); tabs == 0 {
		t.Fatal("the capture has no content line of one TAB")
	}
	p := analyzeText(data, nil)
	if p.recs == nil || p.recs.keys == nil {
		t.Fatalf("not read as key runs (records %d, unit %q)", p.records, p.recordUnit)
	}
	n := jqLines(t, data, `[.[] | select(startswith("author "))] | length`)[0].(int)
	if n != 9 || p.records != n || len(jqLines(t, data, p.recs.headerQuery())) != n {
		t.Errorf("records %d, jq %d commits, want 9", p.records, n)
	}
	if got := len(jqLines(t, data, p.severityQuery(sevError))); got != p.errors {
		t.Errorf("error lines: the view says %d, its query returns %d", p.errors, got)
	}
	text := fillText(t, data, 4000)
	if !strings.Contains(text, "9 records (each a line and the run of \"key value\" lines after it") {
		t.Errorf("the view at 4,000 tokens does not count the 9 commits:\n%s", text)
	}
}
