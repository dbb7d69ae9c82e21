package budget

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// outdatedDoc is a map in the shape of npm outdated --all --json: n
// package names, each to its entry {current, wanted, latest, dependent,
// location} or, every third one, to a list of 2-4 such entries (one per
// dependent); every seventh entry wants a version other than its
// current one.
func outdatedDoc(n int) []byte {
	entry := func(i, j int) string {
		wanted := fmt.Sprintf("1.%d.0", j)
		if (i+j)%7 == 0 {
			wanted = fmt.Sprintf("1.%d.1", j)
		}
		return fmt.Sprintf(`{"current": "1.%d.0", "wanted": %q, "latest": "%d.0.0", "dependent": "dep-%d", "location": "node_modules/pkg-%03d"}`, j, wanted, 2+i%5, j, i)
	}
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `"pkg-%03d": `, i)
		if i%3 != 0 {
			b.WriteString(entry(i, 0))
			continue
		}
		b.WriteString("[")
		for j := range 2 + i/3%3 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(entry(i, j))
		}
		b.WriteString("]")
	}
	b.WriteString("}")
	return []byte(b.String())
}

// jqRun runs filter over data and returns its results.
func jqRun(t *testing.T, data []byte, filter string) []any {
	t.Helper()
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatalf("%s: %v", filter, err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []any
	iter := q.Run(doc)
	for {
		x, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := x.(error); ok {
			t.Fatalf("%s: %v", filter, err)
		}
		out = append(out, x)
	}
	return out
}

// TestMapOfRecordsAndLists: a map whose values are records or lists of
// records of one shape (npm outdated --all --json) is one keyed
// collection: its keys counted, and its entries, each with its key as
// "name", a collection of their own whose path is a jq expression that
// yields exactly them, so that the view's queries run. With 40 keys
// (each member its own node) and with 300 (past maxNamedMembers, folded
// into one node). Before, 300 keys were "no records" (every entry
// listed under "outside the collections", no count), and 40 were one
// collection per list, the objects facts.
func TestMapOfRecordsAndLists(t *testing.T) {
	for _, n := range []int{40, 300} {
		data := outdatedDoc(n)
		sh, err := DetectShape(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(sh.Collections) != 1 || sh.Collections[0].Path != "." || sh.Collections[0].Kind != "map" || sh.Collections[0].Count != n {
			t.Fatalf("%d keys: collections %+v, want one map . of %d", n, sh.Collections, n)
		}
		entries := jqRun(t, data, `[.[] | if type == "array" then .[] else . end] | length`)[0].(int)
		lists := jqRun(t, data, `[.[] | select(type == "array")] | length`)[0].(int)
		p := NewPipeline(counter(t), WithStore(&memStore{}))
		b := 4000
		if n < 100 {
			b = 1200
		}
		res, err := p.Run(context.Background(), Input{Tool: "npm.outdated", Data: data, Budget: b})
		if err != nil {
			t.Fatal(err)
		}
		head := fmt.Sprintf("collection . (map): %d keys, the first pkg-000, the last pkg-%03d; each value an object (%d) or a list of objects (%d lists of 2-4",
			n, n-1, n-lists, lists)
		if !strings.Contains(res.Content, head) {
			t.Errorf("%d keys: no %q in the view:\n%.1500s", n, head, res.Content)
		}
		var path string
		for _, c := range res.Collections {
			if strings.HasPrefix(c.Path, "[to_entries[]") {
				path = c.Path
				if c.Count != entries {
					t.Errorf("%d keys: %s counts %d, jq %d", n, c.Path, c.Count, entries)
				}
			}
		}
		if path == "" {
			t.Fatalf("%d keys: no collection of the entries in %+v", n, res.Collections)
		}
		got := jqRun(t, data, path)[0].([]any)
		if len(got) != entries {
			t.Fatalf("%s yields %d records, want %d", path, len(got), entries)
		}
		if r := got[1].(map[string]any); r["name"] != "pkg-000" || r["dependent"] != "dep-1" {
			t.Errorf("%s: second record %v, want pkg-000's second entry with its name", path, r)
		}
		// The collection's head and its queries as the view writes them.
		if !strings.Contains(res.Content, fmt.Sprintf("collection %s (array): %d records", path, entries)) {
			t.Errorf("%d keys: the entries' collection is not stated:\n%.1500s", n, res.Content)
		}
		m := regexp.MustCompile(`one record by its name: compact artifact query \S+ --jq '([^']*)'`).FindStringSubmatch(res.Content)
		if m == nil {
			t.Fatalf("%d keys: no lookup query in the view:\n%s", n, res.Content)
		}
		for _, r := range jqRun(t, data, m[1]) {
			if _, ok := r.(map[string]any)["latest"]; !ok {
				t.Errorf("%s: %v", m[1], r)
			}
		}
	}
}
