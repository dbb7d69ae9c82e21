package view_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
)

// textIndexRows returns the line numbers the index section of a text
// view lists, with each line's text.
func textIndexRows(text string) map[int]string {
	rows := map[int]string{}
	i := strings.Index(text, "\nindex of the rows")
	if i < 0 {
		return rows
	}
	for _, l := range strings.Split(text[i+1:], "\n")[1:] {
		pos, rest, ok := strings.Cut(strings.TrimPrefix(l, "  "), "\t")
		n, err := strconv.Atoi(pos)
		if !ok || err != nil || !strings.HasPrefix(l, "  ") {
			break
		}
		rows[n] = rest
	}
	return rows
}

// TestTextIndexSpreadsOverTheTable: the index of a long text table
// (dpkg -l, 858 packages in name order) lists chunks of rows in an even
// spread over the whole table, the middle chunk first, so that a package
// in the middle or the last quarter is looked up from the view as often
// as one near the head (which the head lines show anyway); a larger
// budget lists a superset; every listed line carries the package's
// name, version and architecture as awk's $2, $3, $4 of that line give
// them. On the old code the index listed lines 10-49 at 4,000 tokens and
// 10-169 at 8,000, the head only.
func TestTextIndexSpreadsOverTheTable(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captured/dpkg-l.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	first, last := -1, 0 // the table's rows: the lines starting "ii "
	for i, l := range lines {
		if strings.HasPrefix(l, "ii ") {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	mid := first + (last-first)/2
	v, _ := viewOf(t, "../../testdata/captured/dpkg-l.txt")
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	var prev map[int]string
	for _, b := range []int{3000, 4000, 8000} {
		f, err := v.Fill(c, b)
		if err != nil {
			t.Fatal(err)
		}
		rows := textIndexRows(f.Text)
		if len(rows) == 0 {
			t.Fatalf("at %d: no index of the rows:\n%s", b, f.Text)
		}
		for pos := range prev {
			if _, ok := rows[pos]; !ok {
				t.Errorf("at %d: line %d is no longer listed", b, pos)
			}
		}
		prev = rows
		lo, hi := last, 0
		for pos, text := range rows {
			lo, hi = min(lo, pos), max(hi, pos)
			fs := strings.Fields(lines[pos])
			if want := strings.Join(fs[1:4], " "); text != want {
				t.Errorf("at %d: line %d listed as %q, awk's $2-$4 %q", b, pos, text, want)
			}
		}
		if _, ok := rows[mid]; !ok && b == 4000 {
			t.Errorf("at %d: the middle row (line %d) is not listed; listed lines %d-%d", b, mid, lo, hi)
		}
		if b == 8000 && (lo > first+(last-first)/4 || hi < first+3*(last-first)/4) {
			t.Errorf("at %d: the index lists lines %d-%d of rows %d-%d: no even spread", b, lo, hi, first, last)
		}
		t.Logf("at %d: %d rows listed, lines %d-%d", b, len(rows), lo, hi)
	}
}
