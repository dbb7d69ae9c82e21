package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// genDepTree writes a map of width dependencies nesting depth levels
// deep (npm ls --json's form), names and versions from a fixed
// pseudo-random sequence; about one node in 17 is "invalid" (a rare
// member) and one in 5 has "extraneous": false (empty: no flag).
func genDepTree(b *bytes.Buffer, depth, width int, seed *int) {
	b.WriteString("{")
	for i := 0; i < width; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		*seed = (*seed*1103515245 + 12345) % 2147483648
		fmt.Fprintf(b, `"p%d-%d":{"version":"1.%d.0"`, *seed%97, i, *seed%13)
		if *seed%17 == 0 {
			b.WriteString(`,"invalid":true`)
		}
		if *seed%5 == 0 {
			b.WriteString(`,"extraneous":false`)
		}
		if depth > 0 && *seed%3 != 0 {
			b.WriteString(`,"dependencies":`)
			genDepTree(b, depth-1, width, seed)
		}
		b.WriteString("}")
	}
	b.WriteString("}")
}

// TestDepTreeCountsEveryNodePastTheCap: a tree of 108,724 nodes, more
// than the 20,000 the view lists. The head's counts are every node's
// (the breadth-first walk counted only the children of listed nodes:
// 93,653), and the lines are the first 20,000 nodes breadth-first, each
// name@version with its rare members, as an independent walk over the
// decoded document makes them.
func TestDepTreeCountsEveryNodePastTheCap(t *testing.T) {
	var b bytes.Buffer
	seed := 6
	b.WriteString(`{"name":"root","version":"1.0.0","dependencies":`)
	genDepTree(&b, 6, 7, &seed)
	b.WriteString("}")
	data := b.Bytes()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	// The independent walk: breadth-first, children by name.
	type qn struct {
		path []string
		obj  map[string]any
	}
	nodes, depth, invalid := 0, 0, 0
	names := map[string]bool{}
	var count func(m map[string]any, d int)
	count = func(m map[string]any, d int) {
		deps, _ := m["dependencies"].(map[string]any)
		for name, v := range deps {
			kid := v.(map[string]any)
			nodes++
			names[name] = true
			depth = max(depth, d)
			if kid["invalid"] == true {
				invalid++
			}
			count(kid, d+1)
		}
	}
	count(doc, 1)
	flag := invalid*10 < nodes
	var want []string
	listed := 0
	queue := []qn{{nil, doc}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		deps, _ := n.obj["dependencies"].(map[string]any)
		var kids []string
		for name := range deps {
			kids = append(kids, name)
		}
		sort.Strings(kids)
		var parts []string
		for _, name := range kids {
			if listed == maxTreeNodes {
				break
			}
			listed++
			kid := deps[name].(map[string]any)
			part := name + "@" + kid["version"].(string)
			if flag && kid["invalid"] == true {
				part += " (invalid)"
			}
			parts = append(parts, part)
			queue = append(queue, qn{append(append([]string(nil), n.path...), name), kid})
		}
		if len(parts) > 0 {
			head := "(root)"
			if len(n.path) > 0 {
				head = strings.Join(n.path, " > ")
			}
			want = append(want, "  "+head+": "+strings.Join(parts, ", "))
		}
	}
	if nodes <= maxTreeNodes {
		t.Fatalf("the tree has %d nodes: not past the cap", nodes)
	}
	tree := scanDepTree(data, findNest(data, nil))
	if tree.nodes != nodes || tree.depth != depth || len(tree.names) != len(names) || tree.listed != maxTreeNodes {
		t.Errorf("nodes %d, depth %d, names %d, listed %d; want %d, %d, %d, %d",
			tree.nodes, tree.depth, len(tree.names), tree.listed, nodes, depth, len(names), maxTreeNodes)
	}
	if len(tree.lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(tree.lines), len(want))
	}
	kids := 0
	for i, l := range tree.lines {
		kids += l.kids
		if l.text != want[i] {
			t.Fatalf("line %d:\n got %s\nwant %s", i, l.text, want[i])
		}
	}
	if kids != maxTreeNodes {
		t.Errorf("the lines list %d nodes, want %d", kids, maxTreeNodes)
	}
}

// depChain is a tree depth levels deep of about n nodes: each level
// has n/depth leaves and one node holding the next level.
func depChain(depth, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"name":"root","dependencies":`)
	for d := 0; d < depth; d++ {
		b.WriteString("{")
		for i := 0; i < n/depth; i++ {
			fmt.Fprintf(&b, `"leaf%d-%d":{"version":"1.0.%d"},`, d, i, i)
		}
		fmt.Fprintf(&b, `"mid%d":{"version":"2.0.0","dependencies":`, d)
	}
	b.WriteString("{}")
	for d := 0; d < depth; d++ {
		b.WriteString("}}")
	}
	b.WriteString("}")
	return b.Bytes()
}

// BenchmarkDepTreeDepth reads trees of the same size (4,000 nodes) 10
// and 40 levels deep: the cost per byte does not grow with the depth
// (each byte is read once; a walk per node over its subtree read it once
// per ancestor: 8x slower at depth 40 than the one walk).
//
//	go test ./budget/view -run '^$' -bench DepTreeDepth -cpu 1
func BenchmarkDepTreeDepth(b *testing.B) {
	for _, depth := range []int{10, 40} {
		data := depChain(depth, 4000)
		nest := findNest(data, nil)
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				scanDepTree(data, nest)
			}
		})
	}
}
