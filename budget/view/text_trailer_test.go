package view

import (
	"fmt"
	"strings"
	"testing"
)

// rsyncLike is an rsync -i --stats like text: n itemized rows "flags
// path" (a row at line spaceAt, if any, names a path with a space),
// then a blank line and its statistics.
func rsyncLike(n, spaceAt int) []byte {
	var b strings.Builder
	flags := []string{".f..t......", ".f..t......", ">fcst......", ".d..t......", ".f..t......"}
	for i := 0; i < n; i++ {
		path := fmt.Sprintf("pkg%d/file%d.go", i%17, i)
		if i == spaceAt {
			path = "pkg/a file.go"
		}
		f := flags[i%len(flags)]
		if i%97 == 5 {
			f = "*deleting"
		}
		fmt.Fprintf(&b, "%-11s %s\n", f, path)
	}
	b.WriteString("\nNumber of files: 894 (reg: 836, dir: 58)\nNumber of created files: 4 (reg: 4)\n" +
		"Total file size: 7,519,553 bytes\nTotal transferred file size: 1,560,760 bytes\nLiteral data: 0 bytes\n" +
		"File list size: 0\nTotal bytes sent: 39,318\n\nsent 39,318 bytes  received 3,775 bytes  86,186.00 bytes/sec\n" +
		"total size is 7,519,553  speedup is 174.50 (DRY RUN)\n")
	return []byte(b.String())
}

// TestSummaryBelowTable: the statistics below a table of two columns
// (rsync -i --stats), after a blank line, split into more words than
// the table has columns while no row does: they are no rows (rev14 R4:
// 2a389e3 read "Total file size: 7,519,553 bytes" as a row of itemize
// code "Total" and listed "Total (names 1-4 of 4)" among the first lines
// of the index). The rows are exactly the itemized lines (by jq), the
// codes of column 1 are the itemize codes only, and the view's row query
// returns no statistics line. A row with a space in its path above the
// statistics breaks the rule: every line with two words or more is a
// row again, as before. Fails on 2a389e3 (909 rows, "Total" a value).
func TestSummaryBelowTable(t *testing.T) {
	data := rsyncLike(900, -1)
	p := analyzeText(data, nil)
	if p.cols == nil {
		t.Fatal("no table")
	}
	rows := jqLines(t, data, `[.[] | select(test("^([.>*][^ ]+) +[^ ]+$"))] | length`)[0].(int)
	if p.cols.rows != rows || rows != 900 || p.cols.other != 9 {
		t.Errorf("%d rows and %d other lines; jq: %d itemized rows, 9 statistics lines", p.cols.rows, p.cols.other, rows)
	}
	for v := range p.cols.cols[0].values {
		if !strings.HasPrefix(v, ".") && !strings.HasPrefix(v, ">") && v != "*deleting" {
			t.Errorf("column 1 has the value %q, no itemize code", v)
		}
	}
	got := jqLines(t, data, `[.[] | `+p.cols.split.jqFields()+`] | length`)[0].(int)
	if got != 900 {
		t.Errorf("the view's split in jq finds %d rows, the profile 900", got)
	}
	text := fillText(t, data, 2000)
	if strings.Contains(text, "Total (names") || strings.Contains(text, `"Total"`) {
		t.Errorf("the view reads the statistics as rows:\n%s", text)
	}
	if !strings.Contains(text, "a table of 900 rows") {
		t.Errorf("the view does not count 900 rows:\n%s", text)
	}
	// A row with more words above the statistics: the rule is wrong,
	// and the text is read as without it.
	data = rsyncLike(900, 450)
	p = analyzeText(data, nil)
	q := profileText(data, nil, true, false)
	if p.cols == nil || q.cols == nil || p.cols.rows != q.cols.rows || p.cols.rows != 909 || p.cols.split.trailer {
		t.Errorf("with a path with a space at line 450: %d rows (without the rule: %d)", p.cols.rows, q.cols.rows)
	}
}
