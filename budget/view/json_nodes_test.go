package view_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// explainDoc is a plan in the shape of PostgreSQL's EXPLAIN (ANALYZE,
// FORMAT JSON): one "Plan" node whose child plans are under "Plans",
// each holding its own, beside the query's timings.
func explainDoc() []byte {
	scan := func(alias, rel string, rows, loops int) string {
		return fmt.Sprintf(`{"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Relation Name": %q, "Alias": %q, "Actual Rows": %d, "Actual Loops": %d}`, rel, alias, rows, loops)
	}
	var b strings.Builder
	b.WriteString(`[{"Plan": {"Node Type": "Hash Join", "Join Type": "Left", "Actual Rows": 2012, "Actual Loops": 1, "Plans": [`)
	for i := 0; i < 6; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"Node Type": "Hash", "Parent Relationship": "Inner", "Actual Rows": %d, "Actual Loops": 1, "Plans": [%s, {"Node Type": "Nested Loop", "Parent Relationship": "Outer", "Actual Rows": %d, "Actual Loops": 1, "Plans": [%s, %s]}]}`,
			100+i, scan(fmt.Sprintf("a_%d", i), "pg_class", 10*i, 1), 7*i, scan(fmt.Sprintf("b_%d", i), "pg_attribute", 3*i, 1), scan(fmt.Sprintf("c_%d", i), "pg_type", i, i%3))
	}
	b.WriteString(`]}, "Planning Time": 143.35, "Triggers": [], "Execution Time": 247.273}]`)
	return []byte(b.String())
}

// jqAll runs filter over data and returns its results.
func jqAll(t *testing.T, data []byte, filter string) []any {
	t.Helper()
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatalf("%s: %v", filter, err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		t.Fatalf("%s: %v", filter, err)
	}
	var doc any
	if err := jsonUnmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []any
	iter := code.Run(doc)
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

// TestTreeNodesAreOneCollection: the nodes of a plan tree at every depth,
// the root included, are one collection whose path is a jq expression
// that yields exactly them; its profile counts the node types over
// every node (what jq counts with .. | objects), and the query's
// timings beside the root are shown. Before, the view read only the
// root's children, each with its subtree as one record: no count of
// the nodes by type, the root left out.
func TestTreeNodesAreOneCollection(t *testing.T) {
	data := explainDoc()
	v := buildView(t, inputOf(t, data, 8000))
	var nodes string
	count := 0
	for _, it := range v.Items() {
		if it.Nodes {
			nodes, count = it.Path, it.Count
		}
	}
	want := jqAll(t, data, `[.. | objects | select(has("Node Type"))] | length`)[0].(int)
	if nodes == "" || count != want {
		t.Fatalf("collection of nodes %q of %d nodes; jq counts %d nodes", nodes, count, want)
	}
	if got := jqAll(t, data, nodes+" | length")[0].(int); got != want {
		t.Errorf("%s yields %d nodes, want %d", nodes, got, want)
	}
	text := fillAt(t, v, 8000).Text
	for _, typ := range []string{"Seq Scan", "Nested Loop", "Hash", "Hash Join"} {
		n := jqAll(t, data, fmt.Sprintf(`[.. | objects | select(."Node Type" == %q)] | length`, typ))[0].(int)
		if !strings.Contains(text, fmt.Sprintf(", %s %d", typ, n)) && !strings.Contains(text, fmt.Sprintf(": %s %d", typ, n)) {
			t.Errorf("no %q %d in the view:\n%s", typ, n, text)
		}
	}
	if !strings.Contains(text, `"Execution Time"=247.273`) {
		t.Errorf("the execution time beside the plan is not shown:\n%s", text)
	}
	// The node that never ran (0 loops) is a row, with its alias.
	if !strings.Contains(text, "c_3") {
		t.Errorf("the scan c_3 that never ran is not shown:\n%s", text)
	}
}
