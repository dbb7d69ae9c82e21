package view_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// siblingRunsHead is the head of the index of runs of the records of a
// map of lists: the key, the fields.
var siblingRunsHead = regexp.MustCompile(`\nindex of \[to_entries\[\] [^\n]*?, (?:every record|the first [\d,]+ of [\d,]+ records) in record order, one line per run of up to \d+ records with the same (\S+) \(tab-separated: \S+, then each record's ([^,]+), records separated by`)

// TestSiblingListsAreOneCollection: radon cc -j (a real capture over
// Debian's argcomplete: 7 files, each the list of its 63 blocks in all)
// is a map of file -> list of blocks. Each list's count is stated on a
// line of its own, and the blocks are one collection, each with its
// file as "key", profiled once and indexed by file in runs ("name type
// complexity" of each block), so that "what is the complexity of X"
// is read off the view; every block listed is the one jq gives at its
// place, the foot's query lists exactly the rest. Before, each file
// was a collection of its own and 7 profiles left no room for a block
// at 2,000 or 4,000 tokens.
func TestSiblingListsAreOneCollection(t *testing.T) {
	data := readFile(t, "testdata/radon-cc-argcomplete.json")
	v := buildView(t, inputOf(t, data, 4000))
	expr := `[to_entries[] | .key as $k | .value | if type == "array" then .[] else . end | {key: $k} + .]`
	prev := 0
	for _, b := range []int{2000, 3000, 4000} {
		f := fillAt(t, v, b)
		if !strings.Contains(f.Text, "\ncollection . (map): 7 keys, ") || !strings.Contains(f.Text, "each value a list of objects (7 lists of ") ||
			!strings.Contains(f.Text, "\ncollection "+expr+" (array): 63 records; ") {
			t.Fatalf("at %d: no collection of the blocks:\n%s", b, f.Text)
		}
		for _, e := range jq(t, data, `to_entries[] | [.key, (.value | length)]`) {
			kv := e.([]any)
			if line := fmt.Sprintf("\n  .%q %v record", kv[0], kv[1]); !strings.Contains(f.Text, line) {
				t.Errorf("at %d: no line %q", b, line)
			}
		}
		m := siblingRunsHead.FindStringSubmatch(f.Text)
		if m == nil {
			continue
		}
		fields := strings.Fields(m[2])
		i := strings.Index(f.Text, m[0]) + len(m[0])
		i += strings.Index(f.Text[i:], "\n") + 1
		var got [][]string
		for _, l := range strings.Split(f.Text[i:], "\n") {
			if l == "" || strings.HasPrefix(l, "  ") {
				break
			}
			id, recs, _ := strings.Cut(l, "\t")
			for _, run := range strings.Split(recs, "; ") {
				items := strings.Split(run, ", ")
				first := strings.Split(items[0], " ")
				got = append(got, append([]string{id}, first...))
				for _, it := range items[1:] {
					got = append(got, append([]string{id, first[0]}, strings.Split(it, " ")...))
				}
			}
		}
		parts := []string{".key"}
		for _, fl := range fields {
			parts = append(parts, "."+fl)
		}
		want := jq(t, data, fmt.Sprintf("%s | map([%s])", expr, strings.Join(parts, ", ")))[0].([]any)
		for j, g := range got {
			if fmt.Sprint(want[j]) != fmt.Sprint(g) {
				t.Fatalf("at %d: listed block %d is %v, jq gives %v", b, j, g, want[j])
			}
		}
		if len(got) < prev {
			t.Fatalf("at %d: %d blocks listed, %d at a smaller budget", b, len(got), prev)
		}
		prev = len(got)
		_, rest, total, query := indexLines(t, f.Text)
		if query != "" {
			out := jq(t, data, query)[0].([]any)
			if total != 63 || rest != 63-len(got) || fmt.Sprint(out) != fmt.Sprint(want[len(got):]) {
				t.Fatalf("at %d: %d listed, the foot says %d of %d not listed, its query gives %d", b, len(got), rest, total, len(out))
			}
		}
	}
	if prev == 0 {
		t.Fatal("no index of the blocks at 4,000 tokens")
	}
}
