package view_test

import (
	"strconv"
	"strings"
	"testing"
)

// TestDuplicateColumnsStatedOnce: a GitHub search result's watchers_count
// is stargazers_count in every repository (jq agrees); the view says so
// in one profile line and its rows leave the repeat out. Before, both
// were columns of every row.
func TestDuplicateColumnsStatedOnce(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/github-search-repos.json")
	if got := jq(t, data, `all(.items[]; .watchers_count == .stargazers_count)`)[0]; got != true {
		t.Fatalf("jq: watchers_count == stargazers_count everywhere is %v", got)
	}
	f := fillAt(t, v, 8000)
	if !strings.Contains(f.Text, "\n  watchers_count (number): the same value as stargazers_count in every record\n") {
		t.Errorf("no duplicate line in\n%s", f.Text)
	}
	for _, l := range strings.Split(f.Text, "\n") {
		if strings.HasPrefix(l, "#\t") && (strings.Contains(l, "\twatchers_count\t") || !strings.Contains(l, "\tstargazers_count\t")) {
			t.Errorf("row header %q: want stargazers_count and not watchers_count", l)
		}
	}
}

// TestDuplicateColumnsNeedEveryRecord: two fields with the same values
// in the same numbers (equal profiles) that differ in one record are not
// called the same.
func TestDuplicateColumnsNeedEveryRecord(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 40; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		x, y := i, i
		switch i { // swapped in two records: the same multiset
		case 7:
			y = 8
		case 8:
			y = 7
		}
		b.WriteString(`{"name":"r` + itoa(i) + `","a":` + itoa(x) + `,"b":` + itoa(y) + `,"c":` + itoa(x) + `}`)
	}
	b.WriteString("]")
	v, _ := viewOfData(t, []byte(b.String()))
	f := fillAt(t, v, 4000)
	if strings.Contains(f.Text, "b (number): the same value") {
		t.Errorf("b differs from a in records 7 and 8:\n%s", f.Text)
	}
	if !strings.Contains(f.Text, "c (number): the same value as a in every record") {
		t.Errorf("c repeats a:\n%s", f.Text)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
