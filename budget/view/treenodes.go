package view

import (
	"fmt"
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

// treeNode is one node while walking.
type treeNode struct {
	raw    []byte
	parent int // index in the walk, -1 for a record
	idx    int // position in its parent's array (record index for a record)
	depth  int
}

// nodeInfo is what a listed node shows.
type nodeInfo struct {
	name, typ string
	entries   int // -1: no nest array
	members   [][2]string
}

// memberStat tracks whether a scalar member is constant over every node,
// or fixed by the node's type.
type memberStat struct {
	first      string
	constant   bool
	present    int
	byType     map[string]string
	functional bool
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
	// The records, copied: Each need not keep them.
	var level []treeNode
	roots := 0 // records with the nest array
	_ = k.c.Each(func(i int, raw []byte) error {
		level = append(level, treeNode{raw: append([]byte(nil), raw...), parent: -1, idx: i})
		return nil
	})
	var (
		listed   []treeNode
		infos    []nodeInfo
		perDepth []int
		stats    = map[string]*memberStat{}
		order    []string // member names, first seen first
		types    = map[string]int{}
		total    int
	)
	for depth := 0; len(level) > 0; depth++ {
		perDepth = append(perDepth, len(level))
		var next []treeNode
		for _, nd := range level {
			id := total
			total++
			info, kids := scanNode(nd.raw, key, nameM, typeM)
			types[info.typ]++
			if depth == 0 && info.entries >= 0 {
				roots++
			}
			for _, m := range info.members {
				st := stats[m[0]]
				if st == nil {
					st = &memberStat{first: m[1], constant: id == 0, byType: map[string]string{}, functional: true}
					stats[m[0]] = st
					order = append(order, m[0])
				}
				st.present++
				if m[1] != st.first {
					st.constant = false
				}
				if v, ok := st.byType[info.typ]; ok && v != m[1] {
					st.functional = false
				} else if !ok {
					st.byType[info.typ] = m[1]
				}
			}
			if id < maxTreeNodes {
				listed = append(listed, nd)
				infos = append(infos, info)
			}
			for j, kid := range kids {
				next = append(next, treeNode{raw: kid, parent: id, idx: j, depth: depth + 1})
			}
		}
		level = next
	}
	for _, st := range stats {
		// A member some node lacks is not constant.
		st.constant = st.constant && st.present == total
	}
	if len(perDepth) < 2 {
		return
	}
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
		seg := infos[i].name
		if seg == "" {
			seg = fmt.Sprintf("#%d", nd.idx)
		}
		switch {
		case nd.parent < 0:
			paths[i] = seg
			if infos[i].entries >= 0 {
				rootName = seg
			}
		case rel && listed[nd.parent].parent < 0:
			paths[i] = seg
		default:
			paths[i] = paths[nd.parent] + "/" + seg
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
		info := infos[i]
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
		if listed[i].parent < 0 || rel && listed[listed[i].parent].parent < 0 {
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
	s.pos++
	for {
		s.ws()
		if s.peek() != '"' {
			break
		}
		name := s.readString()
		s.ws()
		s.pos++ // ':'
		s.ws()
		start := s.pos
		s.skipValue()
		val := raw[start:s.pos]
		switch {
		case name == key && len(val) > 0 && val[0] == '[':
			info.entries = 0
			a := jscan{d: val, pos: 1}
			for {
				a.ws()
				if a.peek() == ']' || a.pos >= len(val) {
					break
				}
				es := a.pos
				a.skipValue()
				kids = append(kids, val[es:a.pos])
				info.entries++
				a.ws()
				if a.peek() == ',' {
					a.pos++
				}
			}
		case len(val) > 0 && (val[0] == '{' || val[0] == '['):
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
		s.ws()
		if s.peek() == ',' {
			s.pos++
			continue
		}
		break
	}
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
