package budget_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

// TestRootMapIsOneCollection checks an output that is one keyed map at its
// root (`npm view esbuild time --json`: version -> publish time). Its
// members are the records of the collection ".", so the view shows them
// in that collection's section (profile, rows, their count) and never as
// "outside the collections" facts, which used to take the whole budget
// while the collection showed none of its 441 records.
func TestRootMapIsOneCollection(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/npm-view-esbuild-time.json")
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := storePipeline(t)
	for _, b := range []int{1000, 2000, 4000} {
		res := runView(t, p, "npm.view.time", data, b)
		if res.Level != schemas.LevelArtifact {
			t.Fatalf("budget %d: level %s, want artifact", b, res.Level)
		}
		if strings.Contains(res.Content, "outside the collections") {
			t.Errorf("budget %d: the root map's records are shown as facts:\n%s", b, head(res.Content, 12))
		}
		if !strings.Contains(res.Content, "collection . (map): 441 records") {
			t.Errorf("budget %d: no section for the root collection with its exact count:\n%s", b, head(res.Content, 12))
		}
		// The profile's time range is stated.
		if !strings.Contains(res.Content, "earliest 2024-02-27T16:27:13.631000+00:00") {
			t.Errorf("budget %d: the earliest publish time is not stated", b)
		}
	}
}

func head(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// TestKeyPrefixCounts checks the counts of a keyed collection's keys by
// their part before the first "/" (npm scopes here; media types, paths)
// against the keys themselves: every count the view states is exact.
func TestKeyPrefixCounts(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/npm-view-vite.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		DevDependencies map[string]any `json:"devDependencies"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for k := range doc.DevDependencies {
		if i := strings.IndexByte(k, '/'); i >= 0 {
			want[k[:i]]++
		}
	}
	p, _, _ := storePipeline(t)
	res := runView(t, p, "vite-document", data, 4000)
	_, after, ok := strings.Cut(res.Content, "collection .devDependencies (map)")
	if !ok {
		t.Fatalf("no .devDependencies section:\n%s", head(res.Content, 20))
	}
	_, line, ok := strings.Cut(after, "keys before the first /: ")
	if !ok {
		t.Fatalf("no key prefix counts in the .devDependencies section:\n%s", head(after, 6))
	}
	line, _, _ = strings.Cut(line, "\n")
	rest := 0
	for _, part := range strings.Split(line, ", ") {
		if strings.Contains(part, " more with ") {
			continue // the rare prefixes, summed
		}
		var n int
		i := strings.LastIndexByte(part, ' ')
		if i < 0 {
			t.Fatalf("cannot read %q", part)
		}
		k := part[:i]
		if _, err := fmt.Sscan(part[i+1:], &n); err != nil {
			t.Fatalf("cannot read %q: %v", part, err)
		}
		if want[k] != n {
			t.Errorf("%s: view says %d, the keys have %d", k, n, want[k])
		}
		rest++
	}
	if rest < 2 {
		t.Errorf("only %d prefixes listed: %q", rest, line)
	}
}

// TestTreeOfWordNamedFields: a plan tree whose nodes have a dozen fields
// named by words with spaces (PostgreSQL's EXPLAIN (FORMAT JSON): "Node
// Type", "Actual Rows") is a tree of structs, not of maps, so every
// node's fields are counted at every depth. Such nodes were taken for
// maps (most of their names are no identifiers), and the tree lines
// counted the types of 3 of the 9 nodes under the top one. The nodes
// are now one collection (view/json_nodes.go): the top one is counted
// with the nine under it.
func TestTreeOfWordNamedFields(t *testing.T) {
	node := func(typ string, rows int, kids ...map[string]any) map[string]any {
		n := map[string]any{"Node Type": typ, "Parent Relationship": "Outer", "Parallel Aware": false,
			"Async Capable": false, "Startup Cost": float64(rows) + 0.5, "Total Cost": float64(rows)*2 + 0.25,
			"Plan Rows": rows, "Plan Width": 8, "Actual Startup Time": 0.01, "Actual Total Time": 1.5,
			"Actual Rows": rows, "Actual Loops": 1}
		if len(kids) > 0 {
			n["Plans"] = kids
		}
		return n
	}
	// Limit > Sort > Aggregate > Hash Join of a Seq Scan and a Hash over
	// a Hash Join of a Seq Scan and a Hash of a Seq Scan.
	plan := node("Limit", 5, node("Sort", 5, node("Aggregate", 7,
		node("Hash Join", 100, node("Seq Scan", 300), node("Hash", 40,
			node("Hash Join", 40, node("Seq Scan", 50), node("Hash", 9, node("Seq Scan", 9))))))))
	data, err := json.MarshalIndent([]any{map[string]any{"Plan": plan, "Planning Time": 0.2, "Execution Time": 3.5}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := storePipeline(t)
	res := runView(t, p, "explain", data, 750)
	if res.Level != schemas.LevelArtifact {
		t.Fatalf("level %s, want artifact", res.Level)
	}
	// The Limit and the nine nodes under it, counted by type.
	want := `"Node Type" (string, 6 distinct): Seq Scan 3, Hash Join 2, Hash 2, Aggregate 1, Limit 1, Sort 1`
	if !strings.Contains(res.Content, want) {
		t.Errorf("want %s in:\n%s", want, res.Content)
	}
}
