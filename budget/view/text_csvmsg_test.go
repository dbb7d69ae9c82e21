package view

import (
	"fmt"
	"strings"
	"testing"
)

// A CSV with a header row and one column of sentences (a linter's
// message: bandit -f csv's issue_text) is a table: its other columns
// are counted. Before, the sentences (one cell in 5 with four words or
// more) made it prose, and the view counted no column.
func TestDelimitedMessageColumnUnderHeader(t *testing.T) {
	msgs := []string{
		"Use of assert detected. The enclosed code will be removed.",
		"subprocess call - check for execution of untrusted input.",
		`"Try, Except, Pass detected."`,
	}
	sev := []string{"LOW", "LOW", "MEDIUM", "HIGH"}
	var b strings.Builder
	b.WriteString("filename,test_id,issue_severity,issue_text,line_number\n")
	counts := map[string]int{}
	for i := 0; i < 60; i++ {
		s := sev[i%len(sev)]
		counts[s]++
		fmt.Fprintf(&b, "pkg%d/mod%d.py,B%d,%s,%s,%d\n", i%5, i%7, 100+i%3, s, msgs[i%len(msgs)], 10+i*7)
	}
	data := []byte(b.String())
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.mode != byBar || cp.split.sep != "," || cp.split.k != 5 {
		t.Fatalf("not a table of 5 comma-separated columns: %+v", cp)
	}
	if cp.rows != 60 {
		t.Errorf("%d rows, want 60", cp.rows)
	}
	got := fillText(t, data, 4000)
	want := fmt.Sprintf(`issue_severity: "LOW" %d, "HIGH" %d, "MEDIUM" %d`, counts["LOW"], counts["HIGH"], counts["MEDIUM"])
	if !strings.Contains(got, want) {
		t.Errorf("the view lacks %q:\n%s", want, got)
	}
	// The same lines with no header row are still prose.
	rest := data[strings.IndexByte(string(data), '\n')+1:]
	if sp := detectColumns(rest, textPlain); sp != nil && sp.mode == byBar {
		t.Errorf("headerless lines of sentences split at %q", sp.sep)
	}
}
