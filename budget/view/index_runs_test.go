package view_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// runsHead is the head of an index of runs: the key, the fields.
var runsHead = regexp.MustCompile(`\nindex of \., (?:every record|the first [\d,]+ of [\d,]+ records) in record order, one line per run of up to \d+ records with the same (\S+) \(tab-separated: \S+, then each record's ([^,]+), records separated by`)

// TestIndexRunsOfFindings: shellcheck's findings over 17 init scripts
// (150 records: file, line, level, code, message; no field tells them
// apart) are indexed by their file, one line per run of findings of
// one file ("/etc/init.d/rsync\tinfo 12, 30; warning 41"): every
// record listed is the record jq gives at its place, in record order;
// the foot counts exactly the records not listed and its query lists
// exactly them; a larger budget lists a longer prefix. Before the
// index of runs such a collection had no index at all (no identity).
func TestIndexRunsOfFindings(t *testing.T) {
	v, data := viewOf(t, "testdata/shellcheck-initd.json")
	prev, all := 0, false
	for _, b := range []int{4000, 5000, 6000, 7000, 8000} {
		f := fillAt(t, v, b)
		m := runsHead.FindStringSubmatch(f.Text)
		if m == nil {
			if strings.Contains(f.Text, "\nindex of ") {
				t.Fatalf("at %d: an index not of runs:\n%s", b, f.Text)
			}
			if prev > 0 {
				t.Fatalf("at %d: no index, %d records listed at a smaller budget", b, prev)
			}
			continue
		}
		key, fields := m[1], strings.Fields(m[2])
		lines, rest, total, query := indexLines(t, f.Text)
		// The records the lines list, each as its cells.
		var got [][]string
		for _, l := range lines {
			id, recs, ok := strings.Cut(l, "\t")
			if !ok {
				t.Fatalf("at %d: index line %q has no cells", b, l)
			}
			for _, run := range strings.Split(recs, "; ") {
				items := strings.Split(run, ", ")
				first := strings.Split(items[0], " ")
				if len(first) != len(fields) {
					t.Fatalf("at %d: %q: %d cells, %d fields", b, items[0], len(first), len(fields))
				}
				got = append(got, append([]string{id}, first...))
				for _, it := range items[1:] {
					more := strings.Split(it, " ")
					if len(more) != len(fields)-1 {
						t.Fatalf("at %d: %q: %d cells after the first, want %d", b, it, len(more), len(fields)-1)
					}
					got = append(got, append([]string{id, first[0]}, more...))
				}
			}
		}
		parts := []string{"." + key}
		for _, fl := range fields {
			parts = append(parts, "."+fl)
		}
		want := jq(t, data, fmt.Sprintf(".[:%d] | map([%s])", len(got), strings.Join(parts, ", ")))[0].([]any)
		for i, w := range want {
			if fmt.Sprint(w) != fmt.Sprint(got[i]) {
				t.Fatalf("at %d: listed record %d is %v, jq gives %v", b, i, got[i], w)
			}
		}
		n := jq(t, data, "length")[0]
		if len(got) < prev {
			t.Fatalf("at %d: %d records listed, %d at a smaller budget", b, len(got), prev)
		}
		prev = len(got)
		if query == "" {
			if fmt.Sprint(len(got)) != fmt.Sprint(n) {
				t.Fatalf("at %d: %d records listed, no foot; the collection has %v", b, len(got), n)
			}
			all = true
			continue
		}
		if fmt.Sprint(total) != fmt.Sprint(n) || rest != total-len(got) {
			t.Fatalf("at %d: %d listed, the foot says %d of %d not listed; jq says %v records", b, len(got), rest, total, n)
		}
		out := jq(t, data, query)[0].([]any)
		wantRest := jq(t, data, fmt.Sprintf(".[%d:] | map([%s])", len(got), strings.Join(parts, ", ")))[0].([]any)
		if len(out) != rest || fmt.Sprint(out) != fmt.Sprint(wantRest) {
			t.Fatalf("at %d: %s gives %d records, want the %d not listed", b, query, len(out), rest)
		}
	}
	if prev == 0 || !all {
		t.Fatalf("the index of runs did not list every record at 8,000 tokens (%d listed)", prev)
	}
}
