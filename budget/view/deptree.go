package view

import (
	"bytes"
	"fmt"
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
// holding a map of objects again; "" when there is none.
func findNest(data []byte, colls []Collection) string {
	s := jscan{d: data}
	nest := ""
	s.eachMember(func(name string) {
		if s.peek() != '{' || nest != "" {
			// Not a map (an array collection, such as a kubectl
			// list's items, is stepped over whole: no walk of it).
			stepOver(&s, colls)
			return
		}
		start := s.pos
		s.skipValue()
		val := s.d[start:s.pos]
		objects, again := true, false
		k := jscan{d: val}
		k.eachMemberName(func([]byte) {
			if !objects || again {
				return // the rest is skipped
			}
			start := k.pos
			k.skipValue()
			node := k.d[start:k.pos]
			if len(node) == 0 || node[0] != '{' {
				objects = false
				return
			}
			// Names compared as bytes: the nodes of a large map (an
			// npm document's versions) allocate nothing here.
			n := jscan{d: node}
			n.eachMemberName(func(m []byte) {
				start := n.pos
				n.skipValue()
				sub := n.d[start:n.pos]
				if string(m) == name && len(sub) > 0 && sub[0] == '{' && len(bytes.TrimSpace(sub)) > 2 {
					again = true
				}
			})
		})
		if objects && again {
			nest = name
		}
	})
	return nest
}

// scanDepTree walks the tree breadth-first and makes its lines.
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
	flagHas := map[string]int{}
	type pending struct {
		path []string
		kids [][2]string // name, label without flags
		raw  [][]byte
	}
	var lines []pending
	queue := []depNode{{raw: data}}
	for len(queue) > 0 {
		nd := queue[0]
		queue = queue[1:]
		var kidsOf []depNode
		s := jscan{d: nd.raw}
		s.members(func(name string, val []byte) {
			if name != nest || len(val) == 0 || val[0] != '{' {
				return
			}
			k := jscan{d: val}
			k.members(func(kid string, node []byte) {
				if len(node) == 0 || node[0] != '{' {
					return
				}
				kidsOf = append(kidsOf, depNode{path: append(append([]string(nil), nd.path...), kid), raw: node})
			})
		})
		if len(kidsOf) == 0 {
			continue
		}
		sort.SliceStable(kidsOf, func(i, j int) bool {
			return kidsOf[i].path[len(kidsOf[i].path)-1] < kidsOf[j].path[len(kidsOf[j].path)-1]
		})
		p := pending{path: nd.path}
		for _, kd := range kidsOf {
			t.nodes++
			name := kd.path[len(kd.path)-1]
			t.names[name] = true
			t.depth = max(t.depth, len(kd.path))
			label := name
			n := jscan{d: kd.raw}
			n.members(func(m string, v []byte) {
				switch {
				case m == t.version && len(v) > 0 && v[0] == '"':
					label = name + "@" + unquote(v)
				case m != nest && m != t.version && !emptyValue(v):
					flagHas[m]++
				}
			})
			if t.listed < maxTreeNodes {
				t.listed++
				p.kids = append(p.kids, [2]string{name, label})
				p.raw = append(p.raw, kd.raw)
				queue = append(queue, kd)
			}
		}
		if len(p.kids) > 0 {
			lines = append(lines, p)
		}
	}
	for _, p := range lines {
		var parts []string
		for j, kd := range p.kids {
			var flags []string
			n := jscan{d: p.raw[j]}
			n.members(func(m string, v []byte) {
				if m != nest && m != t.version && !emptyValue(v) && flagHas[m]*10 < t.nodes {
					flags = append(flags, m)
				}
			})
			if len(flags) > 0 {
				parts = append(parts, kd[1]+" ("+strings.Join(flags, "; ")+")")
			} else {
				parts = append(parts, kd[1])
			}
		}
		head := "(root)"
		if len(p.path) > 0 {
			head = strings.Join(p.path, " > ")
		}
		t.lines = append(t.lines, depLine{path: p.path, depth: len(p.path), kids: len(p.kids),
			text: "  " + head + ": " + strings.Join(parts, ", ")})
	}
	return t
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
