package view

import (
	"fmt"
	"sort"
	"strings"
)

// Tree nodes: the nodes of a nesting collection (tree.go's treeKey finds
// the member they nest through), one candidate per node, breadth-first:
// the records (the root's listing) first, then their entries, and so on.
// Each line is the node's path from the root, its type, its number of
// entries when it has any, and its other scalar members (those constant
// over every node, or fixed by the type, are left to the profile lines).
// All have one priority and are added in breadth-first order, so the fill
// keeps a breadth-first prefix: a bigger budget shows more of the tree.

// maxTreeNodes caps the node candidates of one tree; every node is
// still counted, and the rest is one query away.
const maxTreeNodes = 20_000

// maxTreeNames caps the member names followed over the nodes (for the
// columns), maxTreeTypes the node types counted (for the most common
// one): a tree whose nodes have more is still listed, with fewer columns
// or its types written on every line.
const (
	maxTreeNames = maxFields
	maxTreeTypes = 4096
)

// nodeInfo is what a listed node shows.
type nodeInfo struct {
	name, typ string
	entries   int // -1: no nest array
	members   [][2]string
}

// listedNode is a node that may be listed: its place breadth-first (its
// depth, its position among the nodes of that depth), its path from its
// record and what it shows.
type listedNode struct {
	depth, pos int
	idx        int    // position in its parent's array (record index for a record)
	path       string // from its record, whose name is the first rootLen bytes
	rootLen    int
	info       nodeInfo
}

// memberStat tracks whether a scalar member is constant over every node,
// or fixed by the node's type.
type memberStat struct {
	first      string
	constant   bool
	present    int
	byType     map[string]string
	functional bool
	// firstAt is where the member was first seen breadth-first: depth,
	// position at that depth, position among the node's members.
	firstAt [3]int
}

// treeWalk walks a nesting collection depth-first, once: it counts every
// node (per depth, per type, per member) and keeps only the nodes that
// can be listed, the first maxTreeNodes breadth-first. Nothing it holds
// grows with the input past those caps: the records are not copied and
// no level of the tree is held whole.
type treeWalk struct {
	key, nameM, typeM string
	perDepth          []int
	lists             [][]listedNode // per depth, in position order
	held, maxHeld     int            // nodes in lists, now and at most
	stats             map[string]*memberStat
	types             map[string]int
	roots, total      int
}

// listable reports whether the node at position pos of depth d can
// still be among the first maxTreeNodes breadth-first (the counts of the
// depths above only grow, so a node that cannot be never will).
func (w *treeWalk) listable(d, pos int) bool {
	above := 0
	for e := 0; e < d; e++ {
		above += w.perDepth[e]
		if above+pos >= maxTreeNodes {
			return false
		}
	}
	return above+pos < maxTreeNodes
}

// prune drops the nodes that can no longer be listed.
func (w *treeWalk) prune() {
	w.held = 0
	for d := range w.lists {
		l := w.lists[d]
		n := len(l)
		for n > 0 && !w.listable(d, l[n-1].pos) {
			n--
		}
		clear(l[n:])
		w.lists[d] = l[:n]
		w.held += n
	}
}

// node counts the node raw at depth d (position idx in its parent) and
// walks its entries; path is its parent's path ("" for a record).
func (w *treeWalk) node(raw []byte, d, idx int, parentPath string, rootLen int) {
	for len(w.perDepth) <= d {
		w.perDepth = append(w.perDepth, 0)
		w.lists = append(w.lists, nil)
	}
	pos := w.perDepth[d]
	w.perDepth[d]++
	w.total++
	info, kids := scanNode(raw, w.key, w.nameM, w.typeM)
	if _, ok := w.types[info.typ]; ok || len(w.types) < maxTreeTypes {
		w.types[info.typ]++
	}
	if d == 0 && info.entries >= 0 {
		w.roots++
	}
	for j, m := range info.members {
		st := w.stats[m[0]]
		if st == nil {
			if len(w.stats) >= maxTreeNames {
				continue
			}
			st = &memberStat{first: m[1], constant: w.total == 1, byType: map[string]string{}, functional: true, firstAt: [3]int{d, pos, j}}
			w.stats[m[0]] = st
		}
		st.present++
		if m[1] != st.first {
			st.constant = false
		}
		if v, ok := st.byType[info.typ]; ok && v != m[1] {
			st.functional = false
		} else if !ok {
			if len(st.byType) >= maxTreeTypes {
				st.functional = false // too many types to tell: shown
			} else {
				st.byType[info.typ] = m[1]
			}
		}
	}
	if !w.listable(d, pos) {
		// Nor is any node below it: they all come after it.
		w.count(kids, d+1)
		return
	}
	seg := info.name
	if seg == "" {
		seg = fmt.Sprintf("#%d", idx)
	}
	path := seg
	if d > 0 {
		path = parentPath + "/" + seg
	} else {
		rootLen = len(seg)
	}
	w.lists[d] = append(w.lists[d], listedNode{depth: d, pos: pos, idx: idx, path: path, rootLen: rootLen, info: info})
	if w.held++; w.held > w.maxHeld {
		w.maxHeld = w.held
	}
	if w.held > 2*maxTreeNodes {
		w.prune()
	}
	for j, kid := range kids {
		w.node(kid, d+1, j, path, rootLen)
	}
}

// count counts the nodes below a node that cannot be listed.
func (w *treeWalk) count(kids [][]byte, d int) {
	for j, kid := range kids {
		w.node(kid, d, j, "", 0)
	}
}

// addTreeNodes adds the node candidates of a nesting collection, in a
// section of their own after the collection's.
func addTreeNodes(v *View, k *coll) {
	if k.c.Kind == "map" || k.c.Kind == "lines" {
		return
	}
	key := treeKey(k.p)
	if key == "" {
		return
	}
	nameM, typeM := "", ""
	for _, n := range []string{"name", "path", "filename", "key", "id", "title"} {
		if k.p.Field(n) != nil {
			nameM = n
			break
		}
	}
	for _, n := range []string{"type", "kind"} {
		if k.p.Field(n) != nil {
			typeM = n
			break
		}
	}
	w := &treeWalk{key: key, nameM: nameM, typeM: typeM, stats: map[string]*memberStat{}, types: map[string]int{}}
	if k.eachRecord(func(i int, raw []byte) error { w.node(raw, 0, i, "", 0); return nil }) != nil {
		return // cannot happen: the profile read the same records
	}
	w.prune()
	perDepth, stats, types, total := w.perDepth, w.stats, w.types, w.total
	for _, st := range stats {
		// A member some node lacks is not constant.
		st.constant = st.constant && st.present == total
	}
	if len(perDepth) < 2 {
		return
	}
	var order []string // member names, first seen breadth-first first
	for name := range stats {
		order = append(order, name)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := stats[order[i]].firstAt, stats[order[j]].firstAt
		for x := range a {
			if a[x] != b[x] {
				return a[x] < b[x]
			}
		}
		return false
	})
	var listed []listedNode
	for _, l := range w.lists {
		listed = append(listed, l...)
	}
	roots := w.roots
	// The most common type is not written on every line.
	common := ""
	for t, n := range types {
		if t != "" && (n > types[common] || n == types[common] && t < common) {
			common = t
		}
	}
	if types[common]*2 <= total {
		common = ""
	}
	// The members shown, as columns named once in the head.
	var cols []string
	for _, name := range order {
		st := stats[name]
		if !st.constant && !(typeM != "" && st.functional && len(st.byType) > 1) {
			cols = append(cols, name)
		}
	}
	rel := roots == 1 // one root: paths are relative to it
	paths := make([]string, len(listed))
	var rootName string
	for i, nd := range listed {
		paths[i] = nd.path
		switch {
		case nd.depth == 0:
			if nd.info.entries >= 0 {
				rootName = nd.path
			}
		case rel:
			paths[i] = nd.path[nd.rootLen+1:]
		}
	}
	in := k.in
	c := k.c
	sec := v.AddSection(&Section{Coll: c.Path, Order: 10 + collIndex(in, c),
		Head: func(chosen []Candidate) string {
			var b strings.Builder
			fmt.Fprintf(&b, "tree of %s (nodes nest through %s[]): %s of %s nodes shown (breadth-first)", c.Path, key, commas(len(chosen)), commas(total))
			if rel {
				fmt.Fprintf(&b, "; paths from %s", cut(rootName, 80))
			}
			fmt.Fprintf(&b, "; each line: path")
			if typeM != "" {
				b.WriteString(", " + typeM)
				if common != "" {
					fmt.Fprintf(&b, " (%s when not given)", common)
				}
			}
			fmt.Fprintf(&b, ", entries (of a node with %s[])", key)
			for _, col := range cols {
				b.WriteString(", " + col)
			}
			if total > maxTreeNodes {
				fmt.Fprintf(&b, "; only the first %s nodes of the %s can be listed here", commas(maxTreeNodes), commas(total))
			}
			b.WriteString("\n")
			return b.String()
		},
		Foot: func(chosen []Candidate) string {
			n := len(chosen)
			if n >= total {
				return ""
			}
			// The shown nodes are the first n breadth-first: every node
			// above depth d, the first j at depth d.
			d, j := 0, n
			for d < len(perDepth) && j >= perDepth[d] {
				j -= perDepth[d]
				d++
			}
			var parts []string
			if j > 0 {
				parts = append(parts, fmt.Sprintf("%s of %s at depth %d", commas(perDepth[d]-j), commas(perDepth[d]), d))
			} else {
				parts = append(parts, fmt.Sprintf("all %s at depth %d", commas(perDepth[d]), d))
			}
			for e := d + 1; e < len(perDepth); e++ {
				parts = append(parts, fmt.Sprintf("all %s at depth %d", commas(perDepth[e]), e))
			}
			return fmt.Sprintf("  nodes not shown: %s of %s (%s); get exactly them (path, depth, members without %s): %s\n",
				commas(total-n), commas(total), strings.Join(parts, ", "), key,
				jqCommand(in.Handle, treeRestQuery(c, key, nameM, rel, d, j)))
		}})
	for i := range listed {
		info := listed[i].info
		var b strings.Builder
		b.WriteString("  ")
		b.WriteString(cut(paths[i], 160))
		if info.typ != "" && info.typ != common {
			b.WriteString("  " + info.typ)
		}
		if info.entries >= 0 {
			if info.entries == 1 {
				b.WriteString("  1 entry")
			} else {
				b.WriteString("  " + commas(info.entries) + " entries")
			}
		}
		vals := map[string]string{}
		for _, m := range info.members {
			vals[m[0]] = m[1]
		}
		last := -1
		for ci, col := range cols {
			if _, ok := vals[col]; ok {
				last = ci
			}
		}
		for _, col := range cols[:last+1] {
			if val, ok := vals[col]; ok {
				b.WriteString("  " + cell(val, 40))
			} else {
				b.WriteString("  -")
			}
		}
		// The root's listing (the records; with one root, its entries)
		// before the second round of rows, the deeper nodes after it.
		prio := PrioSecond
		if d := listed[i].depth; d == 0 || rel && d == 1 {
			prio = PrioRare
		}
		v.Add(Candidate{Section: sec, Key: i, Record: -1, Prio: prio, Reason: "tree node", Text: b.String()})
	}
}

// collIndex is the index of c among the input's collections.
func collIndex(in Input, c Collection) int {
	for i, x := range in.Collections {
		if x.Path == c.Path {
			return i
		}
	}
	return len(in.Collections)
}

// scanNode reads one node: its name, type, scalar members and the
// elements of its nest array (entries is -1 when it has none).
func scanNode(raw []byte, key, nameM, typeM string) (nodeInfo, [][]byte) {
	info := nodeInfo{entries: -1}
	s := jscan{d: raw}
	s.ws()
	if s.peek() != '{' {
		start := s.pos
		s.skipValue()
		info.members = append(info.members, [2]string{"value", string(raw[start:s.pos])})
		return info, nil
	}
	var kids [][]byte
	s.members(func(name string, val []byte) {
		switch {
		case name == key && len(val) > 0 && val[0] == '[':
			info.entries = 0
			a := jscan{d: val}
			a.elements(func(el []byte) {
				kids = append(kids, el)
				info.entries++
			})
		case len(val) == 0:
			// not a value: cannot happen in valid JSON
		case val[0] == '{' || val[0] == '[':
			// nested values are left to the query
		case name == nameM && (val[0] == '"' || val[0] != 'n' && val[0] != 'f'):
			info.name = unquote(val)
			if val[0] != '"' {
				info.name = string(val)
			}
		case name == typeM && val[0] == '"':
			info.typ = unquote(val)
		case name == nameM || name == typeM:
			// null or false: shown as missing
		default:
			info.members = append(info.members, [2]string{name, string(val)})
		}
	})
	return info, kids
}

// treeRestQuery is the filter that yields exactly the nodes past the
// first ones breadth-first: the nodes at depth d past the first j, and
// every node deeper. Each is the node without its nest array, plus its
// path and depth.
func treeRestQuery(c Collection, key, nameM string, rel bool, d, j int) string {
	k := "[" + jsonQuote(key) + "]"
	name := "null"
	if nameM != "" {
		name = ".[" + jsonQuote(nameM) + "]"
	}
	entries := "to_entries[]"
	if c.Kind == "array" && c.Path != "." {
		entries = c.Path + " | to_entries[]"
	}
	def := fmt.Sprintf(`def n($p; $d; $rel): .key as $i | .value as $v`+
		` | ($p + (($v | %s?) // "#\($i)" | tostring)) as $q`+
		` | (($v | objects | del(.%s)) // {value: $v}) + {path: $q, depth: $d},`+
		` ($v | .%s? | arrays | to_entries[] | n(if $rel then "" else $q + "/" end; $d + 1; false));`,
		name, k, k)
	rest := fmt.Sprintf("[.[] | select(.depth == %d)][%d:] + [.[] | select(.depth > %d)]", d, j, d)
	return fmt.Sprintf("%s [%s | n(\"\"; 0; %v)] | %s", def, entries, rel, rest)
}
