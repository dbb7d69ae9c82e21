package view

import (
	"bytes"
	"fmt"
	"strings"
)

// Trees of unnamed nodes (PostgreSQL's EXPLAIN (FORMAT JSON): a "Plan"
// object holding its child plans under "Plans", each holding its own;
// an AST's nodes under "children"): a node object holds an array of
// nodes of its own kind under one member, down to any depth. Level 1
// finds the root's array as a collection (.[].Plan.Plans), which leaves
// out the root node itself and reads each child with its whole subtree
// as one record. The questions are about the nodes at every depth (how
// many Seq Scan nodes, the rows of the scan of relation X, the node that
// never ran), so the view reads the tree as ONE collection of every
// node, in pre-order, each without the member holding its children:
//
//	[.[].Plan | recurse(.Plans[]?) | del(.Plans)]
//
// a jq expression that yields exactly these records, so that every query
// the view suggests (a record by position, by identity, the rest) runs
// as written. Nodes that have a name (a directory tree's name or path)
// are left to the tree view of treenodes.go, whose lines give each
// node's path from its root: a file's name alone is no identity.

// maxNodeCheck is how many children of the first root are looked at
// before the whole tree is walked: one of them must hold children of
// its own.
const maxNodeCheck = 64

// maxNodeDepth is the deepest node a tree of nodes may have: the nodes
// are read as flat records (without their children), so a call tree
// deeper than a profile's maxDepth (a V8 heap profile's 66 levels) is
// still one collection; the walks recurse once per level.
const maxNodeDepth = 1024

// nodeScanTimes bounds the bytes a walk of a tree of nodes reads: at
// most this many times the input's bytes (a tree of 256 levels at most
// never passes it; a heap profile reads its bytes once per level above
// them, 15 times for one of 42 levels).
const nodeScanTimes = 256

// nodeWindow is how many bytes of a collection's text are searched for
// the name of the member its records' children would be under, and
// about how many bytes of its first records are read for a record
// holding children.
const nodeWindow = 32 << 10

// nodeTree is a tree of nodes found at a collection's parent.
type nodeTree struct {
	roots    string // path of the root nodes (".[].Plan", ".")
	key      string // the member the children are under
	count    int    // nodes at every depth, roots included
	perDepth []int
}

// expr is the jq expression that yields the nodes as one array.
func (t *nodeTree) expr() string {
	k := t.key
	if !plainName(k) {
		k = jsonQuote(k)
	}
	r := t.roots
	if r == "." {
		return fmt.Sprintf("[recurse(.%s[]?) | del(.%s)]", k, k)
	}
	return fmt.Sprintf("[%s | recurse(.%s[]?) | del(.%s)]", r, k, k)
}

// findNodeTree returns the tree of unnamed nodes whose root's children
// are collection c: c is an array at member K of objects at path P, the
// objects at P share member names with their children, some child holds
// children of its own under K, and every node at every depth is an
// object without a name member. ok is false otherwise.
func findNodeTree(in Input, c Collection) (t *nodeTree, ok bool) {
	if in.Format != "json" || c.Kind != "array" || c.Path == "." || c.Count == 0 {
		return nil, false
	}
	segs := pathSegments(strings.TrimPrefix(c.Path, "."))
	last := segs[len(segs)-1]
	if strings.HasSuffix(last, "[]") || last == "" {
		return nil, false
	}
	key := last
	if strings.HasPrefix(key, `"`) {
		key = unquote([]byte(key))
	}
	roots := "." + strings.Join(segs[:len(segs)-1], ".")
	if len(segs) == 1 {
		roots = "."
	}
	// Cheap looks first (most collections are no tree): the key's name
	// is in the collection's first nodeWindow bytes, and one of its
	// first records holds children of its own under it.
	if within(in.Data, c.Text) {
		w := c.Text[:min(len(c.Text), nodeWindow)]
		if !bytes.Contains(w, []byte(jsonQuote(key))) {
			return nil, false
		}
	}
	holds, scanned := false, 0
	firstRecords(in, c, maxNodeCheck, func(raw []byte) bool {
		scanned += len(raw)
		s := jscan{d: raw}
		s.eachEntry0(func(name []byte, val []byte) bool {
			if unquote(name) == key && len(val) > 2 && val[0] == '[' {
				holds = true
			}
			return !holds
		})
		return !holds && scanned < nodeWindow // (a few big records are enough)
	})
	if !holds {
		return nil, false
	}
	var first []byte
	valuesAt(in.Data, segs[:len(segs)-1], func(raw []byte) bool {
		first = raw
		return false
	})
	if first == nil || !sharesNames(first, key) {
		return nil, false
	}
	// The whole tree: every root and node an object without a name.
	t = &nodeTree{roots: roots, key: key}
	good, deep := true, false
	// Each level's scan reads its node's whole subtree, so a walk reads
	// a byte once per node above it: a deep chain over a wide bottom
	// (1,000 levels over 20,000 leaves) would read the text a thousand
	// times (REVIEW18 R1). Past nodeScanTimes times the text's bytes
	// it is no tree read as nodes (each, below, reads as much again).
	budget := nodeScanTimes * max(len(in.Data), nodeWindow)
	var walk func(raw []byte, d int)
	walk = func(raw []byte, d int) {
		if !good {
			return
		}
		if budget -= len(raw); budget < 0 {
			good = false
			return
		}
		s := jscan{d: raw}
		s.ws()
		if s.peek() != '{' || d >= maxNodeDepth {
			good = false
			return
		}
		for len(t.perDepth) <= d {
			t.perDepth = append(t.perDepth, 0)
		}
		t.perDepth[d]++
		t.count++
		s.members(func(name string, val []byte) {
			switch {
			case namedNode(name) && len(val) > 0 && val[0] == '"':
				good = false
			case name == key:
				e := jscan{d: val}
				if !e.elements(func(kid []byte) {
					if d >= 1 {
						deep = true
					}
					walk(kid, d+1)
				}) && !(len(val) == 4 && string(val) == "null") {
					good = false
				}
			}
		})
	}
	valuesAt(in.Data, segs[:len(segs)-1], func(raw []byte) bool {
		walk(raw, 0)
		return good
	})
	if !good || !deep || t.count <= c.Count {
		return nil, false
	}
	return t, true
}

// namedNode reports whether a member name names its node (a file tree's
// name or path): such nodes are listed by their paths (treenodes.go).
func namedNode(name string) bool {
	switch name {
	case "name", "path", "filename", "key", "id", "title":
		return true
	}
	return false
}

// sharesNames reports whether the object root holds its children under
// key and they are of its kind: most of the first maxNodeCheck children
// share at least two member names with root (or all of theirs when they
// have fewer), and one of them holds children of its own.
func sharesNames(root []byte, key string) bool {
	names := map[string]bool{}
	var kids []byte
	s := jscan{d: root}
	if !s.members(func(name string, val []byte) {
		if name == key {
			kids = val
		} else {
			names[name] = true
		}
	}) || kids == nil || len(names) == 0 {
		return false
	}
	n, alike, holds := 0, 0, false
	e := jscan{d: kids}
	e.elements(func(kid []byte) {
		if n >= maxNodeCheck {
			return
		}
		n++
		shared, all := 0, 0
		ks := jscan{d: kid}
		ks.members(func(name string, val []byte) {
			if name == key {
				if len(val) > 2 && val[0] == '[' {
					holds = true
				}
				return
			}
			all++
			if names[name] {
				shared++
			}
		})
		if shared >= 2 || shared == all && all > 0 {
			alike++
		}
	})
	return holds && alike*2 > n
}

// valuesAt calls fn with every value at the path segs (pathSegments of a
// collection's path without its leading dot: names, quoted names, "[]"
// and "name[]") of data, in order, until fn returns false. Values the
// path does not reach are skipped.
func valuesAt(data []byte, segs []string, fn func(raw []byte) bool) {
	var at func(raw []byte, i int) bool
	at = func(raw []byte, i int) bool {
		if i == len(segs) {
			return fn(raw)
		}
		seg := segs[i]
		iter := strings.HasSuffix(seg, "[]")
		name := strings.TrimSuffix(seg, "[]")
		val := raw
		if name != "" {
			if strings.HasPrefix(name, `"`) {
				name = unquote([]byte(name))
			}
			val = nil
			s := jscan{d: raw}
			s.members(func(n string, v []byte) {
				if val == nil && n == name {
					val = v
				}
			})
			if val == nil {
				return true
			}
		}
		if !iter {
			return at(val, i+1)
		}
		more := true
		s := jscan{d: val}
		s.elementsUntil(func(el []byte) bool {
			more = at(el, i+1)
			return more
		})
		return more
	}
	if len(segs) == 1 && segs[0] == "" {
		segs = nil
	}
	at(data, 0)
}

// markNodeTrees returns in's collections with those that are the
// children of a tree's root marked (Collection.nodes), a copy when any
// is.
func markNodeTrees(in Input) []Collection {
	colls := in.Collections
	copied := false
	for i, c := range colls {
		t, ok := findNodeTree(in, c)
		if !ok {
			continue
		}
		if !copied {
			colls = append([]Collection(nil), colls...)
			copied = true
		}
		colls[i].nodes = t
	}
	return colls
}

// each calls fn with every node of t in pre-order (the order of
// recurse), each without its key member.
func (t *nodeTree) each(data []byte, segs []string, fn func(i int, raw []byte) error) error {
	i := 0
	var err error
	var buf []byte
	var walk func(raw []byte)
	walk = func(raw []byte) {
		if err != nil {
			return
		}
		var kids []byte
		buf = append(buf[:0], '{')
		s := jscan{d: raw}
		s.ws()
		s.pos++ // '{'
		s.eachEntry(func(k []byte) bool {
			vs := s.pos
			s.skipValue()
			if unquote(k) == t.key {
				kids = s.d[vs:s.pos]
				return true
			}
			if len(buf) > 1 {
				buf = append(buf, ',')
			}
			buf = append(buf, k...)
			buf = append(buf, ':')
			buf = append(buf, s.d[vs:s.pos]...)
			return true
		})
		buf = append(buf, '}')
		rec := append([]byte(nil), buf...)
		if err = fn(i, rec); err != nil {
			return
		}
		i++
		if kids != nil {
			e := jscan{d: kids}
			e.elements(func(kid []byte) { walk(kid) })
		}
	}
	valuesAt(data, segs, func(raw []byte) bool {
		walk(raw)
		return err == nil
	})
	return err
}

// addNodeTree adds collection ci of in, the children of a tree's root
// (findNodeTree), as a line stating how its records are read, then the
// nodes at every depth as a collection of their own. ok is false when
// it is no such tree.
func addNodeTree(v *View, in Input, ci int) (bool, error) {
	c := in.Collections[ci]
	t := c.nodes
	if t == nil {
		return false, nil
	}
	segs := pathSegments(strings.TrimPrefix(c.Path, "."))
	rootSegs := segs[:len(segs)-1]
	data := in.Data
	nodes := Collection{Path: t.expr(), Kind: "array", Count: t.count, Each: func(fn func(int, []byte) error) error {
		return t.each(data, rootSegs, fn)
	}}
	depths := make([]string, len(t.perDepth))
	for d, n := range t.perDepth {
		depths[d] = commas(n)
	}
	roots := "the node at " + t.roots + "; with that node"
	if t.perDepth[0] > 1 {
		roots = fmt.Sprintf("the %s nodes at %s; with those nodes", commas(t.perDepth[0]), t.roots)
	}
	v.AddSection(&Section{Coll: c.Path, Order: 10 + ci, Head: func([]Candidate) string {
		return fmt.Sprintf("collection %s (%s): %s, the children of %s and every node under them (through %s[], %d levels deep; nodes per depth: %s) they are the %s nodes of the collection %s below, in tree order (pre-order), each without its %s\n",
			c.Path, c.Kind, plural(c.Count, "record"), roots, t.key, len(t.perDepth), strings.Join(depths, ", "), commas(t.count), nodes.Path, t.key)
	}})
	in.Collections = append(in.Collections[:len(in.Collections):len(in.Collections)], nodes)
	v.items = append(v.items, Items{Path: nodes.Path, Kind: nodes.Kind, Of: c.Path, Count: nodes.Count, Nodes: true})
	if err := addRecords(v, in, len(in.Collections)-1); err != nil {
		return true, err
	}
	return true, nil
}

// firstRecords calls fn with the first n records of c at most, until fn
// returns false, without reading the rest (eachRaw reads an array to its
// end).
func firstRecords(in Input, c Collection, n int, fn func(raw []byte) bool) {
	if c.Kind == "array" && within(in.Data, c.Text) {
		s := jscan{d: c.Text}
		s.elementsUntil(func(val []byte) bool {
			n--
			return fn(val) && n > 0
		})
		return
	}
	if c.Each == nil {
		return
	}
	_ = c.Each(func(_ int, raw []byte) error {
		n--
		if !fn(raw) || n <= 0 {
			return errStop
		}
		return nil
	})
}

// elementsUntil is elements until fn returns false: the array's other
// elements are not read.
func (s *jscan) elementsUntil(fn func(val []byte) bool) {
	s.ws()
	if s.peek() != '[' {
		return
	}
	s.pos++
	for {
		s.ws()
		if s.peek() == ']' || s.pos >= len(s.d) {
			return
		}
		start := s.pos
		s.skipValue()
		if s.pos == start {
			s.pos++
			continue
		}
		if !fn(s.d[start:s.pos]) {
			return
		}
		s.ws()
		if s.peek() == ',' {
			s.pos++
		}
	}
}

// eachEntry0 calls fn with the name (quoted, as written) and the value
// of each member of the object at pos, until fn returns false.
func (s *jscan) eachEntry0(fn func(name, val []byte) bool) {
	s.ws()
	if s.peek() != '{' {
		return
	}
	s.pos++
	s.eachEntry(func(k []byte) bool {
		vs := s.pos
		s.skipValue()
		return fn(k, s.d[vs:s.pos])
	})
}
