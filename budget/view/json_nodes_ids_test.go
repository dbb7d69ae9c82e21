package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// heapProfFile is a real V8 sampling heap profile: `node --heap-prof
// --heap-prof-interval 16384 node_modules/acorn/bin/acorn --ecma2022
// node_modules/yaml/dist/nodes/Alias.js` (Node 20.20.2, acorn 8 from
// npm), captured 2026-11-27 by s18-trees. Its call tree nests under
// .head through "children"; every node has a numeric id, a callFrame
// {functionName, url, lineNumber, ...} and a selfSize.
const heapProfFile = "testdata/node-heap-prof-acorn.json"

// TestTreeNodesWithNumericIDsAreOneCollection: a call tree whose nodes
// carry a numeric id (a V8 heap profile) is read as one collection of
// every node at every depth (66 levels deep, past a profile's 64):
// the nodes are counted, their selfSize summed over the whole tree, a
// node deep in the middle listed by its function's name. Before, a member named id made the
// nodes "named" (a file tree's), so the view profiled the root's two
// children with their subtrees as two records, each depth a line of
// children[].children[]... paths, and listed 2 of the nodes.
func TestTreeNodesWithNumericIDsAreOneCollection(t *testing.T) {
	data := readFile(t, heapProfFile)
	v := buildView(t, inputOf(t, data, 8000))
	var nodes string
	count := 0
	for _, it := range v.Items() {
		if it.Nodes {
			nodes, count = it.Path, it.Count
		}
	}
	want := jqAll(t, data, `[.. | objects | select(has("callFrame"))] | length`)[0].(int)
	if nodes == "" || count != want {
		t.Fatalf("collection of nodes %q of %d nodes; jq counts %d nodes", nodes, count, want)
	}
	// The collection's path yields every node, without its children.
	got := jqAll(t, data, nodes+` | map(has("children")) | unique`)[0].([]any)
	if len(got) != 1 || got[0] != false {
		t.Errorf("%s: nodes holding children: %v", nodes, got)
	}
	// The profile sums selfSize over every node (what jq sums over the
	// tree), and the index lists nodes deep in the tree by name.
	text := fillAt(t, v, 8000).Text
	sum := num(jqAll(t, data, `[.. | objects | select(has("callFrame")) | .selfSize] | add`)[0])
	if !strings.Contains(text, fmt.Sprintf("sum %d", sum)) {
		t.Errorf("no selfSize sum %d over every node in the view:\n%s", sum, text)
	}
	deep := jqAll(t, data, `[.head | recurse(.children[]?) | select(.callFrame.functionName == "pp$8.parseThrowStatement")] | length`)[0].(int)
	if deep == 0 || !strings.Contains(text, "\tpp$8.parseThrowStatement") {
		t.Errorf("pp$8.parseThrowStatement (%d nodes, deep in the tree) is not listed:\n%s", deep, text)
	}
}

// num is a jq result's number as an int (gojq gives ints and float64s).
func num(x any) int {
	switch n := x.(type) {
	case int:
		return n
	case float64:
		return int(n)
	}
	return -1
}

// TestDeepChainOverWideBottomIsNoNodeTree: every level of a tree walk
// reads its node's whole subtree, so a chain of 400 nodes over 4,000
// leaves would be read 400 times over (REVIEW18 R1: a 3 MB tree
// of this shape took 385 s). Past 256 times the text's bytes the walk
// stops and the tree is no collection of nodes; a heap profile of 66
// levels (the test above) still is; the view reads the root's children
// as level 1 found them.
func TestDeepChainOverWideBottomIsNoNodeTree(t *testing.T) {
	var b strings.Builder
	const depth, leaves = 400, 4000
	b.WriteString(`{"head":`)
	for d := 0; d < depth; d++ {
		fmt.Fprintf(&b, `{"id":%d,"selfSize":%d,"children":[`, d, d%7)
	}
	for i := 0; i < leaves; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"selfSize":%d,"children":[]}`, depth+i, i%5)
	}
	b.WriteString(strings.Repeat("]}", depth))
	b.WriteString(`}`)
	v, _ := viewOfData(t, []byte(b.String()))
	text := fillAt(t, v, 8000).Text
	if strings.Contains(text, "every node under them") {
		t.Fatalf("a chain of %d levels over %d leaves read as one collection of nodes:\n%s", depth, leaves, text)
	}
	if !strings.Contains(text, "collection .head.children (array): 1 records") {
		t.Fatalf("the view does not state the root's collection of children:\n%s", text)
	}
}
