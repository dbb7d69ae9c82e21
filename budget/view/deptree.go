package view

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// A dependency tree: a JSON document whose root nests objects through
// one member holding a map of name → node, again and again (npm ls
// --json, a version 1 package-lock.json: "dependencies": {"express":
// {"version": "4.22.3", "dependencies": {"debug": {...}}}}). Its
// collections are the maps deep inside, each with its own profile and
// rows, but a question names a package anywhere in it ("which version
// of jest-cli does jest use"). The tree is listed here densely, one line
// per node that has dependencies: its path from the root, then each of
// its dependencies as name@version (the bare name when the node has no
// version), followed by the names of its rare members ("(invalid;
// problems)": members fewer than one node in ten has, not false, null
// or empty). The lines are in
// breadth-first order, the nodes of one depth by their path (names
// compared as jq compares them), so a larger budget lists a longer
// prefix, and the foot's query lists exactly the nodes whose parent's
// line is not shown. The collections inside the tree get no index of
// their own: their nodes are listed here.

// depTree is a detected dependency tree.
type depTree struct {
	nest    string // the member the nodes nest through ("dependencies")
	version string // the member giving a node's version, or ""
	lines   []depLine
	nodes   int // every node (below the root), counted
	listed  int // nodes in lines (all of them unless past maxTreeNodes)
	depth   int // the deepest node's depth
	names   map[string]bool
}

// depLine is the line of one node that has dependencies.
type depLine struct {
	path  []string // the node's names from the root ([] for the root)
	text  string
	kids  int
	depth int
}

// depNode is a node waiting for its line: its path and raw object.
type depNode struct {
	path []string
	raw  []byte
}

// findNest returns the member the root object nests its nodes through:
// a member holding a map of objects, one of which has the same member
// holding a map of objects again; "" when there is none. A member that
// is a collection's text is not scanned to find its end (its end is
// known), and a map's walk stops at its first member that is no object
// or once the nesting is found: on an npm document (a map of versions
// to times, an array of versions) this reads a few bytes of each
// collection, not all of them.
func findNest(data []byte, colls []Collection) string {
	s := jscan{d: data}
	nest := ""
	s.eachMember(func(name string) {
		if nest != "" {
			stepOver(&s, colls)
			return
		}
		if s.peek() != '{' {
			// Not a map (an array collection, such as a kubectl
			// list's items, is stepped over whole: no walk of it).
			stepOver(&s, colls)
			return
		}
		start := s.pos
		if !stepOver(&s, colls) {
			s.skipValue()
		}
		if nestsThrough(s.d[start:s.pos], name) {
			nest = name
		}
	})
	return nest
}

// nestsThrough reports whether the object val is a map of objects one of
// which holds the member name as a non-empty object. It stops at the
// first member that is no object and at the first that nests.
func nestsThrough(val []byte, name string) bool {
	k := jscan{d: val}
	k.ws()
	if k.peek() != '{' {
		return false
	}
	k.pos++
	for {
		k.ws()
		if k.peek() != '"' {
			return false
		}
		k.skipString()
		k.ws()
		if k.peek() != ':' {
			return false
		}
		k.pos++
		k.ws()
		if k.peek() != '{' {
			return false // not a map of objects
		}
		start := k.pos
		k.skipValue()
		// Names compared as bytes: the nodes of a large map (an npm
		// document's versions) allocate nothing here.
		again := false
		n := jscan{d: k.d[start:k.pos]}
		n.eachMemberName(func(m []byte) {
			if again {
				return
			}
			start := n.pos
			n.skipValue()
			sub := n.d[start:n.pos]
			if string(m) == name && len(sub) > 0 && sub[0] == '{' && len(bytes.TrimSpace(sub)) > 2 {
				again = true
			}
		})
		if again {
			return true
		}
		k.ws()
		if k.peek() != ',' {
			return false
		}
		k.pos++
	}
}

// scanDepTree reads the tree (one walk, two past maxTreeNodes nodes)
// and makes its lines, breadth-first.
func scanDepTree(data []byte, nest string) *depTree {
	t := &depTree{nest: nest, names: map[string]bool{}}
	// The version member: a short string most of the root's
	// dependencies have, one named like a version first.
	type stat struct{ n, long int }
	stats := map[string]*stat{}
	kids := 0
	root := jscan{d: data}
	root.members(func(name string, val []byte) {
		if name != nest {
			return
		}
		k := jscan{d: val}
		k.members(func(_ string, node []byte) {
			kids++
			n := jscan{d: node}
			n.members(func(m string, v []byte) {
				if len(v) > 0 && v[0] == '"' {
					st := stats[m]
					if st == nil {
						st = &stat{}
						stats[m] = st
					}
					st.n++
					if len(v) > 42 {
						st.long++
					}
				}
			})
		})
	})
	best := -1
	for m, st := range stats {
		if st.n*2 < kids || st.long*2 > st.n {
			continue
		}
		score := st.n
		if lookupNames.MatchString(m) && strings.Contains(strings.ToLower(m), "version") {
			score += kids
		}
		if score > best || score == best && m < t.version {
			best, t.version = score, m
		}
	}
	// Rare members: a node's member that fewer than one node in ten has
	// (not false, null or empty) is named after it: "express@4.22.3
	// (invalid; problems)", "left-pad (required; missing; problems)".
	// One walk over the tree counts every node (per depth, names,
	// members) and keeps the nodes it can list: each byte is read once,
	// not once per ancestor (a walk per node over its subtree cost the
	// size times the depth). When the tree has more nodes than it lists,
	// a second walk keeps only the depths the listing reaches.
	w := &depWalk{t: t, keepDepth: math.MaxInt, flagHas: map[string]int{}}
	w.walk(data)
	if t.nodes > maxTreeNodes {
		// The listing reaches depth d: the depths above it hold fewer
		// than maxTreeNodes nodes.
		d, sum := 1, 0
		for d < len(w.perDepth) && sum+w.perDepth[d] < maxTreeNodes {
			sum += w.perDepth[d]
			d++
		}
		w2 := &depWalk{t: &depTree{nest: t.nest, version: t.version, names: map[string]bool{}}, keepDepth: d, flagHas: map[string]int{}}
		w2.walk(data)
		w.kept = w2.kept
	}
	t.lines = w.lines()
	return t
}

// depWalk is one walk over a dependency tree: it counts every node into
// t (and per depth, and each member's nodes into flagHas) and keeps the
// nodes of at most keepDepth levels, or while they are at most
// maxTreeNodes.
type depWalk struct {
	t         *depTree
	keepDepth int
	kept      []depKept
	perDepth  []int
	flagHas   map[string]int
	full      bool // kept stopped at maxTreeNodes (keepDepth unlimited)
}

// depKept is a node kept for the listing.
type depKept struct {
	name, label string
	members     []string // the names of its non-empty members besides the nest and the version, in order
	parent      int      // index in kept, -1 for the root's dependencies
	depth, seq  int
}

// walk walks the tree from the root object data.
func (w *depWalk) walk(data []byte) {
	s := jscan{d: data}
	w.node(&s, -1, 0)
}

// node walks the object at s, the node at depth kept as kept[id] (-1:
// not kept, or the root), and gives the kept node its label and
// members. (kept grows during the walk: it is indexed, never pointed
// into.)
func (w *depWalk) node(s *jscan, id, depth int) {
	t := w.t
	s.eachMemberName(func(m []byte) {
		if string(m) == t.nest {
			if s.peek() == '{' {
				w.kids(s, id, depth+1)
			}
			return
		}
		if depth == 0 {
			return // the root's other members: skipped
		}
		start := s.pos
		s.skipValue()
		v := s.d[start:s.pos]
		switch {
		case string(m) == t.version:
			if len(v) > 0 && v[0] == '"' && id >= 0 {
				w.kept[id].label = w.kept[id].name + "@" + unquote(v)
			}
		case !emptyValue(v):
			w.flagHas[string(m)]++
			if id >= 0 {
				w.kept[id].members = append(w.kept[id].members, string(m))
			}
		}
	})
}

// kids walks the map of dependencies at s of the node kept as
// kept[parent] (-1: the root): each member whose value is an object is
// a node at depth.
func (w *depWalk) kids(s *jscan, parent, depth int) {
	t := w.t
	seq := 0
	s.eachMemberName(func(name []byte) {
		if s.peek() != '{' {
			return
		}
		t.nodes++
		n := string(name)
		t.names[n] = true
		t.depth = max(t.depth, depth)
		for len(w.perDepth) <= depth {
			w.perDepth = append(w.perDepth, 0)
		}
		w.perDepth[depth]++
		id := -1
		if depth <= w.keepDepth && !w.full {
			if w.keepDepth == math.MaxInt && len(w.kept) == maxTreeNodes {
				// Past what can be listed: a second walk keeps the
				// depths the listing reaches (scanDepTree).
				w.full = true
			} else {
				id = len(w.kept)
				w.kept = append(w.kept, depKept{name: n, label: n, parent: parent, depth: depth, seq: seq})
			}
		}
		seq++
		w.node(s, id, depth)
	})
}

// lines are the tree's lines: breadth-first, the nodes of one depth by
// their parent's place and then by name, the first maxTreeNodes nodes
// listed, one line per node (the root first) that has listed
// dependencies.
func (w *depWalk) lines() []depLine {
	t := w.t
	kept := w.kept
	byDepth := [][]int{nil}
	for i, k := range kept {
		for len(byDepth) <= k.depth {
			byDepth = append(byDepth, nil)
		}
		byDepth[k.depth] = append(byDepth[k.depth], i)
	}
	pos := make([]int, len(kept)) // place in breadth-first order
	var order []int
	for d := 1; d < len(byDepth); d++ {
		ids := byDepth[d]
		sort.SliceStable(ids, func(a, b int) bool {
			x, y := &kept[ids[a]], &kept[ids[b]]
			px, py := -1, -1
			if x.parent >= 0 {
				px = pos[x.parent]
			}
			if y.parent >= 0 {
				py = pos[y.parent]
			}
			if px != py {
				return px < py
			}
			if x.name != y.name {
				return x.name < y.name
			}
			return x.seq < y.seq
		})
		for _, i := range ids {
			if len(order) == maxTreeNodes {
				break
			}
			pos[i] = len(order)
			order = append(order, i)
		}
	}
	t.listed = len(order)
	// Each line's dependencies: the listed kids of a node, in order.
	type line struct {
		parent int
		kids   []int
	}
	var ls []line
	at := map[int]int{} // parent -> its line
	for _, i := range order {
		p := kept[i].parent
		j, ok := at[p]
		if !ok {
			j = len(ls)
			at[p] = j
			ls = append(ls, line{parent: p})
		}
		ls[j].kids = append(ls[j].kids, i)
	}
	var out []depLine
	for _, l := range ls {
		var path []string
		for p := l.parent; p >= 0; p = kept[p].parent {
			path = append(path, kept[p].name)
		}
		slices.Reverse(path)
		var parts []string
		for _, i := range l.kids {
			var flags []string
			for _, m := range kept[i].members {
				if w.flagHas[m]*10 < t.nodes {
					flags = append(flags, m)
				}
			}
			if len(flags) > 0 {
				parts = append(parts, kept[i].label+" ("+strings.Join(flags, "; ")+")")
			} else {
				parts = append(parts, kept[i].label)
			}
		}
		head := "(root)"
		if len(path) > 0 {
			head = strings.Join(path, " > ")
		}
		out = append(out, depLine{path: path, depth: len(path), kids: len(l.kids),
			text: "  " + head + ": " + strings.Join(parts, ", ")})
	}
	return out
}

// inside reports whether the collection at path is one of the tree's
// maps (.dependencies.jest.dependencies).
func (t *depTree) inside(path string) bool {
	return t != nil && strings.HasPrefix(path, "."+t.nest) && strings.HasSuffix(path, "."+t.nest)
}

// addDepTree adds the lines of the document's dependency tree, if it
// has one, and returns it (nil if none).
func addDepTree(v *View, in Input) *depTree {
	if in.Format != "json" {
		return nil
	}
	s := jscan{d: in.Data}
	s.ws()
	if s.peek() != '{' {
		return nil
	}
	nest := findNest(in.Data, in.Collections)
	if nest == "" {
		return nil
	}
	t := scanDepTree(in.Data, nest)
	if t.nodes < minIndex {
		return nil
	}
	form := "name@version"
	if t.version == "" {
		form = "name"
	} else if t.version != "version" {
		form = "name@" + t.version
	}
	sec := v.AddSection(&Section{Order: 5,
		Head: func(ch []Candidate) string {
			if len(ch) == 0 {
				return ""
			}
			what := "every node that has some"
			if len(ch) < len(t.lines) {
				what = fmt.Sprintf("the first %s of %s nodes that have some", commas(len(ch)), commas(len(t.lines)))
			}
			return fmt.Sprintf("dependency tree (nodes nest through %q): %s nodes below the root, %s levels deep, %s distinct names; %s, one line each, breadth-first: its path, then its %s as %s:\n",
				t.nest, commas(t.nodes), commas(t.depth), commas(len(t.names)), what, t.nest, form)
		},
		Foot: func(ch []Candidate) string {
			if len(ch) == 0 || len(ch) >= len(t.lines) && t.listed == t.nodes {
				return ""
			}
			listed := 0
			for _, c := range ch {
				listed += t.lines[c.Key].kids
			}
			last := t.lines[len(ch)-1]
			return fmt.Sprintf("  tree: %s of %s nodes not listed; list exactly them: %s\n",
				commas(t.nodes-listed), commas(t.nodes), jqCommand(in.Handle, t.restQuery(last.depth, last.path)))
		},
	})
	for j, l := range t.lines {
		prio := PrioIndex
		if l.depth <= 1 {
			prio = PrioRare
		}
		v.Add(Candidate{Section: sec, Key: j, Record: -1, Prio: prio, Reason: "dependency tree", Text: l.text})
	}
	return t
}

// restQuery lists, as "path > name@version", the nodes whose parent comes
// after the node at depth d with path last in the lines' order.
func (t *depTree) restQuery(d int, last []string) string {
	lastJSON := make([]string, len(last))
	for i, n := range last {
		lastJSON[i] = jsonQuote(n)
	}
	ver := `""`
	if t.version != "" {
		ver = fmt.Sprintf(`(getpath($p) | if has(%s) then "@" + (.[%s] | tostring) else "" end)`, jsonQuote(t.version), jsonQuote(t.version))
	}
	return fmt.Sprintf(`[paths(objects) as $p | select(($p | length) > 0 and ($p | length) %% 2 == 0 and ([$p[range(0; $p | length; 2)]] | all(. == %s))) | [$p[range(1; $p | length; 2)]] as $n | select(($n | length) - 1 > %d or (($n | length) - 1 == %d and $n[:-1] > [%s])) | ($n | join(" > ")) + %s]`,
		jsonQuote(t.nest), d, d, strings.Join(lastJSON, ","), ver)
}

// emptyValue reports whether a member's raw JSON is false, null, "", []
// or {}: no flag.
func emptyValue(v []byte) bool {
	switch strings.TrimSpace(string(v)) {
	case "false", "null", `""`, "[]", "{}":
		return true
	}
	return false
}
