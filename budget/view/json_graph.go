package view

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Graphs: a collection whose records name other records of the same
// collection in a list (dependency-cruiser's modules, each with
// dependencies[].resolved naming other modules' source; esbuild's
// metafile inputs, each with imports[].path naming other inputs' keys;
// a package's requires, a service's depends_on). The questions are about
// the edges (which modules does X import, how many modules depend on Y,
// which modules depend on nothing, which does nothing depend on, the
// cycle), and none of them is a value of one record: the edges into Y
// are spread over every other record. So the view states the graph:
// how many records and edges, the records with no edges out and none
// in (with their names), the most named and the most naming, the
// groups of records that reach each other (cycles), and one line per
// record in record order with its edges out and in, a prefix as long
// as the budget allows, the rest one query away.
//
// Detection is by structure: a name member of the records (a map's
// key, or a string member most records have, distinct) and a list
// member (an array of strings, or of objects with a string member)
// whose values are, for at least graphResolved of them, names of
// records of the collection, read first on at most graphSample records
// (most collections are no graph: the rest is not read then).

const (
	// graphFirst is how many records the detection looks at first,
	// graphSample how many it reads when one of them names another.
	graphFirst  = 32
	graphSample = 256
	// maxGraphRecords caps the records of a graph (its lines and
	// edges are held whole).
	maxGraphRecords = 20_000
	// graphMinEdges is the fewest edges to records of the collection
	// the sample must hold.
	graphMinEdges = 8
	// graphListWidth is the characters of a list of names on one of
	// the graph's summary lines before it is cut ("… and N more").
	graphListWidth = 320
	// graphMainShare: a graph whose lists hold at least 1/graphMainShare
	// of its records' bytes is what the records are about, and its
	// summary comes with the profile; otherwise after the index.
	graphMainShare = 3
	// graphShare: at least 1/graphShare of a list's values name records
	// of the collection for it to be the graph's edges.
	graphShare = 3
	// graphTop is how many records the "most named" lines list.
	graphTop = 5
)

// recGraph is the graph of one collection.
type recGraph struct {
	name   string // the name member's path ("source"; "" for a map's key)
	edge   string // the list member ("dependencies"), its string member ("resolved") or ""
	elem   string
	inv    string // a list member holding the edges in ("dependents"), or ""
	names  []string
	out    [][]string // per record: the names its list holds, as written
	outIdx [][]int32  // the records among them
	in     [][]int32  // per record: the records naming it, in record order
	main   bool       // the lists hold a third of the records' bytes or more
	edges  int        // every name in the lists
	inside int        // those naming a record of the collection
}

// graphRec is one record's candidate names and lists, as read.
type graphRec struct {
	names map[string]string   // member -> its string value ("" key: a map's key)
	lists map[string][]string // "m" or "m.s" -> the strings listed
	size  int                 // the record's bytes
	bytes map[string]int      // list member -> its bytes
}

// readGraphRec reads a record's top-level string members and the
// strings of its lists (an array of strings, or of objects: each
// string member of the elements). A map's record whose value is itself
// a list (madge's {module: [modules it requires]}) is read as the list
// of member "".
func readGraphRec(raw []byte, isMap bool) graphRec {
	r := graphRec{names: map[string]string{}, lists: map[string][]string{}, bytes: map[string]int{}, size: len(raw)}
	list := func(name string, val []byte) {
		r.bytes[name] = len(val)
		e := jscan{d: val}
		e.elements(func(el []byte) {
			if len(el) == 0 {
				return
			}
			switch el[0] {
			case '"':
				r.lists[name] = append(r.lists[name], unquote(el))
			case '{':
				o := jscan{d: el}
				o.members(func(m string, v []byte) {
					if len(v) > 1 && v[0] == '"' && len(v) <= 256 {
						k := name + "\x00" + m
						r.lists[k] = append(r.lists[k], unquote(v))
					}
				})
			}
		})
	}
	s := jscan{d: raw}
	if isMap {
		// {"key": value}
		s.members(func(name string, val []byte) {
			r.names[""] = name
			raw = val
		})
		s = jscan{d: raw}
		s.ws()
		if s.peek() == '[' {
			list("", raw[s.pos:])
			return r
		}
	}
	s.ws()
	if s.peek() != '{' {
		return r
	}
	s.members(func(name string, val []byte) {
		if len(val) == 0 {
			return
		}
		switch val[0] {
		case '"':
			if len(val) <= 256 {
				r.names[name] = unquote(val)
			}
		case '[':
			list(name, val)
		}
	})
	return r
}

// noteGraphShape notes collection ci as no graph when its profile p has
// no candidate for the name member (a string member, outside arrays,
// in nine records of ten, nearly every value distinct; a map's key
// always is one) or none for the list (the strings of a top-level array
// member, or of a string member of its objects: "deps[]",
// "dependencies[].name"; a map's value itself: "[]", "[].id"), with at
// least graphMinEdges values. That costs nothing (the profile has
// counted it all); the first look at the records costs a read of
// graphFirst records (kubectl's pods: 5 M instructions at 10 MB).
func noteGraphShape(v *View, ci int, p *Profile) {
	name, list := p.Map, false
	for _, f := range p.Fields {
		if f.Types&tString == 0 {
			continue
		}
		before, after, arr := strings.Cut(f.Path, "[]")
		switch {
		case !arr:
			if !name && !strings.ContainsAny(f.Path, ".[\"") && f.Present*10 >= p.Records*9 &&
				(f.ManyDistinct || f.Distinct*10 >= f.Present*9) {
				name = true
			}
		case !list && f.Values >= graphMinEdges && !strings.ContainsAny(before, ".[\"") &&
			(after == "" || after[0] == '.' && !strings.ContainsAny(after[1:], ".[\"")):
			list = true
		}
	}
	if !name || !list {
		if v.noGraph == nil {
			v.noGraph = map[int]bool{}
		}
		v.noGraph[ci] = true
	}
}

// findGraph returns the graph of collection c, or nil when it is none.
func findGraph(in Input, c Collection) *recGraph {
	if in.Format != "json" || c.Kind != "array" && c.Kind != "map" || c.Count < minIndex || c.Count > maxGraphRecords || c.nodes != nil {
		return nil
	}
	isMap := c.Kind == "map"
	// A look at the first graphFirst records: some list must name
	// another of them (most collections are no graph: their other
	// records are not read).
	var recs []graphRec
	firstRecords(in, c, graphFirst, func(raw []byte) bool {
		recs = append(recs, readGraphRec(raw, isMap))
		return true
	})
	if len(recs) < minIndex || !namesAnother(recs) {
		return nil
	}
	recs = recs[:0]
	firstRecords(in, c, graphSample, func(raw []byte) bool {
		recs = append(recs, readGraphRec(raw, isMap))
		return true
	})
	if len(recs) < minIndex {
		return nil
	}
	nameM, listM, inv, ok := chooseGraph(recs)
	if !ok {
		return nil
	}
	if len(recs) < c.Count {
		recs = recs[:0]
		firstRecords(in, c, c.Count, func(raw []byte) bool {
			recs = append(recs, readGraphRec(raw, isMap))
			return true
		})
		if len(recs) != c.Count {
			return nil
		}
	}
	g := &recGraph{name: nameM, inv: inv}
	g.edge, g.elem, _ = strings.Cut(listM, "\x00")
	size, lists := 0, 0
	for _, r := range recs {
		size += r.size
		lists += r.bytes[g.edge]
		if inv != "" {
			lists += r.bytes[inv]
		}
	}
	g.main = lists*graphMainShare >= size
	g.names = make([]string, len(recs))
	at := make(map[string]int32, len(recs))
	for i, r := range recs {
		g.names[i] = r.names[nameM]
		if _, dup := at[g.names[i]]; !dup {
			at[g.names[i]] = int32(i)
		}
	}
	g.out = make([][]string, len(recs))
	g.outIdx = make([][]int32, len(recs))
	g.in = make([][]int32, len(recs))
	for i, r := range recs {
		g.out[i] = r.lists[listM]
		g.edges += len(g.out[i])
		for _, n := range g.out[i] {
			if j, ok := at[n]; ok {
				g.inside++
				g.outIdx[i] = append(g.outIdx[i], j)
				if l := g.in[j]; len(l) == 0 || l[len(l)-1] != int32(i) {
					g.in[j] = append(g.in[j], int32(i))
				}
			}
		}
	}
	if g.inside < graphMinEdges {
		return nil
	}
	return g
}

// chooseGraph picks, over the sampled records, the name member and the
// list whose values name the most other records (at least
// graphMinEdges, and at least a third of the list's values: cargo
// metadata's dependencies[].name names 228 workspace packages among 540
// crates), and a second list that holds
// the edges in (each record's list names exactly the records that name
// it), or "" for none.
func chooseGraph(recs []graphRec) (nameM, listM, inv string, ok bool) {
	// Name members: present in nine records of ten, distinct.
	count := map[string]int{}
	for _, r := range recs {
		for m := range r.names {
			count[m]++
		}
	}
	var nameCands []string
	for m, n := range count {
		if n*10 < len(recs)*9 {
			continue
		}
		seen := make(map[string]bool, n)
		for _, r := range recs {
			if v, ok := r.names[m]; ok {
				seen[v] = true
			}
		}
		if len(seen)*10 >= n*9 {
			nameCands = append(nameCands, m)
		}
	}
	sort.Strings(nameCands)
	// A cheap look first (most collections are no graph): the lists
	// whose values are names of any candidate, counted once over the
	// union of the candidates' values; only those are weighed per name.
	known := map[string]bool{}
	for _, r := range recs {
		for _, m := range nameCands {
			if v, ok := r.names[m]; ok {
				known[v] = true
			}
		}
	}
	hits := map[string]int{}
	for _, r := range recs {
		for l, vs := range r.lists {
			for _, v := range vs {
				if known[v] {
					hits[l]++
				}
			}
		}
	}
	for l, n := range hits {
		if n < graphMinEdges {
			delete(hits, l)
		}
	}
	if len(hits) == 0 {
		return "", "", "", false
	}
	best := 0
	for _, m := range nameCands {
		set := map[string]bool{}
		for _, r := range recs {
			if v, ok := r.names[m]; ok {
				set[v] = true
			}
		}
		lists := map[string][2]int{} // list -> values, of them names
		for _, r := range recs {
			own := r.names[m]
			for l, vs := range r.lists {
				if hits[l] == 0 {
					continue
				}
				x := lists[l]
				x[0] += len(vs)
				for _, v := range vs {
					// (a list of the record's own name, a test's
					// classname in its suite, names no other record)
					if set[v] && v != own {
						x[1]++
					}
				}
				lists[l] = x
			}
		}
		for _, l := range slices.Sorted(maps.Keys(lists)) {
			x := lists[l]
			if x[1] >= graphMinEdges && x[1]*graphShare >= x[0] && x[1] > best && listEverywhere(recs, l) {
				best, nameM, listM = x[1], m, l
			}
		}
	}
	if best == 0 {
		return "", "", "", false
	}
	// The inverse list, when there is one: for every sampled record,
	// the records naming it (within the sample) are in its list.
	at := map[string]int{}
	for i, r := range recs {
		if _, dup := at[r.names[nameM]]; !dup {
			at[r.names[nameM]] = i
		}
	}
	inTo := make([]map[string]bool, len(recs))
	for _, r := range recs {
		for _, v := range r.lists[listM] {
			if j, ok := at[v]; ok {
				if inTo[j] == nil {
					inTo[j] = map[string]bool{}
				}
				inTo[j][r.names[nameM]] = true
			}
		}
	}
	var others []string
	for l := range recs[0].lists {
		others = append(others, l)
	}
	for _, r := range recs {
		for l := range r.lists {
			if !strings.Contains(l, "\x00") && l != listM && !contains(others, l) {
				others = append(others, l)
			}
		}
	}
	sort.Strings(others)
	for _, l := range others {
		if l == listM || strings.Contains(l, "\x00") {
			continue
		}
		ok, some := true, 0
		for j, r := range recs {
			for n := range inTo[j] {
				some++
				if !contains(r.lists[l], n) {
					ok = false
				}
			}
		}
		if ok && some >= graphMinEdges {
			return nameM, listM, l, true
		}
	}
	return nameM, listM, "", true
}

// listEverywhere reports whether the list member of l ("m" of "m" or
// "m\x00s") is an array in nine records of ten: a record without it
// would be stated as one with no edges out. (npm outdated --all: a
// package's value is a list of its instances, each with the dependent,
// or one instance whose dependent is a plain member: 169 of 282
// records were "with an empty list".)
func listEverywhere(recs []graphRec, l string) bool {
	m, _, _ := strings.Cut(l, "\x00")
	n := 0
	for _, r := range recs {
		if _, ok := r.bytes[m]; ok {
			n++
		}
	}
	return n*10 >= len(recs)*9
}

// listPath is the list's path as the view writes it
// ("dependencies[].resolved"; "their lists" for a map of lists).
func (g *recGraph) listPath() string {
	if g.edge == "" {
		if g.elem == "" {
			return "their lists"
		}
		return "their lists' " + g.elem
	}
	if g.elem == "" {
		return g.edge + "[]"
	}
	return g.edge + "[]." + g.elem
}

// outWord and inWord name the edges out and in on a record's line.
func (g *recGraph) outWord() string {
	if g.edge == "" {
		return "names"
	}
	return g.edge
}

// noneWords names the records with no edges out ("no dependencies",
// "an empty list").
func (g *recGraph) noneWords() string {
	if g.edge == "" {
		return "an empty list"
	}
	return "no " + g.edge
}
func (g *recGraph) inWord() string {
	if g.inv != "" {
		return g.inv
	}
	return "named by"
}

// edgesExpr is the jq expression of a record's edges out, relative to
// the record (a map's record is its value).
func (g *recGraph) edgesExpr() string {
	e := ".[]?"
	if g.edge != "" {
		e = "." + jqName(g.edge) + "[]?"
	}
	if g.elem != "" {
		e += "." + jqName(g.elem)
	}
	return e + " | strings"
}

// jqName writes a member name as a jq path segment.
func jqName(n string) string {
	if plainName(n) {
		return n
	}
	return jsonQuote(n)
}

// restQuery lists, for the records from position from on, each record's
// name, its edges out and the records naming it. The edges in are
// grouped once, over an edge list sorted by the record named (group_by),
// not looked up by scanning every record for each one: that was
// quadratic and ran past jq's deadline at 3,000 records (REVIEW18 R12);
// gojq's reduce into an object copies the object at every step, so it is
// quadratic too. group_by's sort is stable: each record's namers stay in
// record order (a map's: in key order, as to_entries gives them).
func (g *recGraph) restQuery(c Collection, from int) string {
	edges := g.edgesExpr()
	const group = `group_by(.t) | map({key: .[0].t, value: map(.s)}) | from_entries`
	if c.Kind == "map" {
		return fmt.Sprintf(`%s | to_entries as $e | ([$e[] | .key as $n | [.value | %s] | unique[] | {t: ., s: $n}] | %s) as $in | [$e[%d:][] | .key as $n | {name: $n, out: [.value | %s], in: ($in[$n] // [])}]`,
			c.Path, edges, group, from, edges)
	}
	name := "." + jqName(g.name)
	return fmt.Sprintf(`%s as $r | ([$r[] | %s as $n | [%s] | unique[] | {t: ., s: $n}] | %s) as $in | [$r[%d:][] | %s as $n | {name: $n, out: [%s], in: ($in[$n | strings] // [])}]`,
		c.Path, name, edges, group, from, name, edges)
}

// nameList writes names, cut at graphListWidth characters with how many
// are left out.
func nameList(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if b.Len()+len(n) > graphListWidth && i > 0 {
			fmt.Fprintf(&b, ", … and %s more", commas(len(names)-i))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	return b.String()
}

// cycles returns the groups of records that reach each other through
// the edges (strongly connected components of more than one record, or
// one naming itself), each in record order, the groups by their first.
func (g *recGraph) cycles() [][]int32 {
	n := len(g.names)
	index := make([]int32, n)
	low := make([]int32, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int32
	var out [][]int32
	next := int32(0)
	type frame struct{ v, k int32 }
	for s := 0; s < n; s++ {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{int32(s), 0}}
		index[s], low[s] = next, next
		next++
		stack = append(stack, int32(s))
		on[s] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if int(f.k) < len(g.outIdx[v]) {
				w := g.outIdx[v][f.k]
				f.k++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					call = append(call, frame{w, 0})
				} else if on[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				if p := call[len(call)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] == index[v] {
				var comp []int32
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				self := len(comp) == 1 && containsIdx(g.outIdx[v], v)
				if len(comp) > 1 || self {
					sort.Slice(comp, func(a, b int) bool { return comp[a] < comp[b] })
					out = append(out, comp)
				}
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0] < out[b][0] })
	return out
}

// containsIdx reports whether list holds i.
func containsIdx(list []int32, i int32) bool {
	for _, x := range list {
		if x == i {
			return true
		}
	}
	return false
}

// addGraph adds the graph section of collection ci, when its records
// name each other.
func addGraph(v *View, in Input, ci int) {
	if v.noGraph[ci] {
		return
	}
	c := in.Collections[ci]
	g := findGraph(in, c)
	if g == nil {
		return
	}
	n := len(g.names)
	named := "their " + g.name
	if g.name == "" {
		named = "their key"
	}
	// A map's records in key order (the order jq's to_entries gives
	// them, and the rest query pages them in), an array's in record order.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if c.Kind == "map" {
		sort.SliceStable(order, func(a, b int) bool { return g.names[order[a]] < g.names[order[b]] })
		for i := range g.in {
			l := g.in[i]
			sort.SliceStable(l, func(a, b int) bool { return g.names[l[a]] < g.names[l[b]] })
		}
	}
	lines := make([]string, n)
	for i := range g.names {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %d %s", g.names[i], len(g.out[i]), g.outWord())
		if len(g.out[i]) > 0 {
			b.WriteString(" ")
			b.WriteString(strings.Join(g.out[i], ", "))
		}
		fmt.Fprintf(&b, "; %d %s", len(g.in[i]), g.inWord())
		if len(g.in[i]) > 0 {
			b.WriteString(" ")
			for j, r := range g.in[i] {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(g.names[r])
			}
		}
		lines[i] = b.String()
	}
	sec := v.AddSection(&Section{Coll: c.Path, Order: 10 + ci, graph: true,
		Head: func(ch []Candidate) string {
			if len(ch) == 0 {
				return ""
			}
			return fmt.Sprintf("graph of %s (%s named by %s): %s edges in %s, %s to records here, %s to other names\n",
				c.Path, plural(n, "record"), named, commas(g.edges), g.listPath(), commas(g.inside), commas(g.edges-g.inside))
		},
		Foot: func(ch []Candidate) string {
			// The lines listed from the first record on (the fill keeps
			// a prefix of one priority's candidates).
			shown := map[int]bool{}
			for _, x := range ch {
				if x.Key >= 100 {
					shown[x.Key-100] = true
				}
			}
			listed := 0
			for shown[listed] {
				listed++
			}
			if listed == 0 || listed >= n {
				// (no record's line: the lines are a reading of the
				// records, whose own section says how to get them)
				return ""
			}
			return fmt.Sprintf("  edges: %s of %s records not listed; list exactly them (name, out, in): %s\n",
				commas(n-listed), commas(n), jqCommand(in.Handle, g.restQuery(c, listed)))
		},
	})
	var none, unnamed []string
	outDeg := make([]int, n)
	for _, i := range order {
		outDeg[i] = len(g.out[i])
		if len(g.out[i]) == 0 {
			none = append(none, g.names[i])
		}
		if len(g.in[i]) == 0 {
			unnamed = append(unnamed, g.names[i])
		}
	}
	first := PrioProfile
	if !g.main {
		first = PrioSpread
	}
	add := func(key int, prio int, text string) {
		if prio == PrioProfile {
			prio = first
		}
		v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: prio, Reason: "graph", Text: text})
	}
	inWords := "named by no record"
	if g.inv != "" {
		inWords = "no " + g.inv
	}
	cyc := g.cycles()
	cycText := "no cycles (no record reaches itself)"
	if len(cyc) > 0 {
		var parts []string
		members := 0
		for _, comp := range cyc {
			members += len(comp)
			ns := make([]string, len(comp))
			for j, r := range comp {
				ns[j] = g.names[r]
			}
			parts = append(parts, nameList(ns))
		}
		cycText = fmt.Sprintf("in cycles (records that reach themselves): %s in %s: %s", plural(members, "record"), plural(len(cyc), "group"), strings.Join(parts, "; "))
	}
	add(1, PrioProfile, fmt.Sprintf("  %s with %s, %s %s; %s", commas(len(none)), g.noneWords(), commas(len(unnamed)), inWords, cycText))
	top := func(deg func(i int) int) string {
		idx := append([]int(nil), order...)
		sort.SliceStable(idx, func(a, b int) bool { return deg(idx[a]) > deg(idx[b]) })
		if d := deg(idx[0]); d > 0 && deg(idx[n-1]) == d {
			// (a ring of 3,000 records each naming 2: no record is
			// "most" named)
			return fmt.Sprintf("none, every record %d", d)
		}
		var parts []string
		for _, i := range idx[:min(graphTop, n)] {
			if deg(i) == 0 {
				break
			}
			parts = append(parts, fmt.Sprintf("%s %d", g.names[i], deg(i)))
		}
		if len(parts) == graphTop && n > graphTop {
			// A tie the top cuts is said: "and 7 more with 4 each"
			// (REVIEW19 R12: the fifth was one of eight with 4).
			d, more := deg(idx[graphTop-1]), 0
			for _, i := range idx[graphTop:] {
				if deg(i) == d {
					more++
				}
			}
			if more > 0 {
				parts = append(parts, fmt.Sprintf("and %s more with %d each", commas(more), d))
			}
		}
		return strings.Join(parts, ", ")
	}
	add(2, PrioProfile, fmt.Sprintf("  most pointed to (records naming them in %s): %s", g.listPath(), top(func(i int) int { return len(g.in[i]) })))
	add(3, PrioProfile, fmt.Sprintf("  most pointing (names in %s): %s", strings.Replace("their "+g.listPath(), "their their ", "their ", 1), top(func(i int) int { return outDeg[i] })))
	if len(none) > 0 {
		w := g.noneWords()
		if g.edge == "" {
			w = "empty lists"
		}
		add(4, PrioSpread, fmt.Sprintf("  %s (%s): %s", w, commas(len(none)), nameList(none)))
	}
	if len(unnamed) > 0 {
		add(5, PrioSpread, fmt.Sprintf("  %s (%s): %s", inWords, commas(len(unnamed)), nameList(unnamed)))
	}
	for pos, i := range order {
		v.Add(Candidate{Section: sec, Key: 100 + pos, Record: -1, Prio: PrioSpread, Reason: "graph", Text: lines[i]})
	}
}

// namesAnother reports whether a list of some record names another
// record by one of its string members (or a map's key).
func namesAnother(recs []graphRec) bool {
	known := map[string]int{}
	for i, r := range recs {
		for _, v := range r.names {
			known[v] = i + 1
		}
	}
	hits := 0
	for i, r := range recs {
		for _, vs := range r.lists {
			for _, v := range vs {
				if j := known[v]; j > 0 && j != i+1 {
					hits++
				}
			}
		}
	}
	return hits >= 2
}
