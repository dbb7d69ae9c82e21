package view

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Families: objects of one shape spread through a tree (MariaDB's
// optimizer trace: the considered plans {plan_prefix, table,
// rows_for_plan, cost_for_plan, pruned_by_cost, rest_of_plan: [plans]}
// nest in each other at a dozen depths, the access paths {access_type,
// index, rows, cost, chosen} sit in every plan's tables). Level 1 finds
// the trace's two steps as its one collection; the questions are about
// the plans and the access paths (how many plans were pruned by cost,
// how many access paths are of type ref, the largest rows_for_plan). A
// family is the objects whose first two members have the same names,
// found at familyDepths depths or more, minFamily of them or more, the
// names no node's name (a directory tree's nodes are listed by their
// paths, treenodes.go); families that lead with the same member and
// stand in the same lists (under a member of the same name) are one,
// every object with that member; most of a family's objects lie
// outside every collection of minFamily records or more (objects inside
// one are profiled as parts of its records: a Terraform plan's
// resources' values.input); read as records they
// are a collection of their own, every object in the document with
// both members, in document order, each without its members that hold
// objects (the nested plans are records of their own):
//
//	[.. | objects | select(has("plan_prefix") and has("table")) | del(.[] | select(type == "object" or type == "array" and any(.[]; type == "object")))]
//
// a jq expression that yields exactly these records, so every query the
// view suggests runs as written. The census reads a document whose
// collections are all small (fewer than familyGate records: a document
// that is one tree, not a list of records) and of at most familyBytes:
// one walk over its objects, then one more for the families chosen (at
// most maxFamilies, the most objects first, whose objects add up to at
// most familyScan times the document's bytes: each pass over a family
// reads its objects whole).
const (
	minFamily   = 8
	maxFamilies = 4
	familyGate  = 64
	familyBytes = 8 << 20
	// familyPlaces is how many places (parent member and depth) of a
	// family the census keeps.
	familyPlaces = 8
	// familyScan bounds the bytes of a family's objects, all families
	// together, as a multiple of the document's.
	familyScan = 4
	// familyDepths is the fewest depths a family is found at: a record
	// and its totals at two (coverage.py's files' summaries and its
	// totals) are no tree.
	familyDepths = 3
)

// family is one family found by the census.
type family struct {
	a, b  string
	count int // objects whose first two members are a and b
	// outside counts those outside every collection of minFamily
	// records or more.
	outside int
	places  []string // parent member and depth, distinct, at most familyPlaces
	depths  []int    // distinct depths, at most familyDepths
	minD    int
	maxD    int
	spans   [][2]int // every object with a and b, in document order
	first   int      // order of first sight
}

func (f *family) expr() string {
	if f.b == "" {
		return fmt.Sprintf(`[.. | objects | select(has(%s)) | del(.[] | select(type == "object" or type == "array" and any(.[]; type == "object")))]`,
			jsonQuote(f.a))
	}
	return fmt.Sprintf(`[.. | objects | select(has(%s) and has(%s)) | del(.[] | select(type == "object" or type == "array" and any(.[]; type == "object")))]`,
		jsonQuote(f.a), jsonQuote(f.b))
}

// familyWalk calls obj for every object of data, after its members (in
// post-order), with its span, its first two member names (nil when it
// has fewer), the member it is under and its depth; names are every
// member name of the object (valid during the call).
func familyWalk(data []byte, obj func(start, end int, a, b []byte, names [][]byte, parent []byte, depth int)) {
	s := jscan{d: data}
	var names [][]byte
	var value func(parent []byte, depth int)
	value = func(parent []byte, depth int) {
		s.ws()
		switch s.peek() {
		case '{':
			start := s.pos
			mark := len(names)
			s.eachMemberName(func(name []byte) {
				names = append(names, name)
				value(name, depth+1)
			})
			own := names[mark:]
			var a, b []byte
			if len(own) >= 2 {
				a, b = own[0], own[1]
			}
			obj(start, s.pos, a, b, own, parent, depth)
			names = names[:mark]
		case '[':
			s.pos++
			for {
				s.ws()
				if s.peek() == ']' || s.pos >= len(s.d) {
					if s.peek() == ']' {
						s.pos++
					}
					return
				}
				at := s.pos
				value(parent, depth+1)
				if s.pos == at {
					s.pos++ // (not a value: a stray comma)
				}
				s.ws()
				if s.peek() == ',' {
					s.pos++
				}
			}
		default:
			s.skipValue()
		}
	}
	value(nil, 0)
}

// findFamilies returns the families of in's document (see above), the
// most objects first; none when the document is no tree of small
// collections.
func findFamilies(in Input) []*family {
	if in.Format != "json" || len(in.Data) > familyBytes {
		return nil
	}
	for _, c := range in.Collections {
		if c.Count >= familyGate || c.nodes != nil || c.Kind == "lines" {
			return nil
		}
	}
	// The text of every collection of minFamily records or more: an
	// object inside one is profiled with its records already (a plan's
	// resources' values.input), merged into disjoint spans.
	var covered [][2]int
	for _, c := range in.Collections {
		if c.Count < minFamily {
			continue
		}
		var segs []string
		if c.Path != "." {
			segs = pathSegments(strings.TrimPrefix(c.Path, "."))
		}
		valuesAt(in.Data, segs, func(raw []byte) bool {
			if within(in.Data, raw) {
				at := offsetIn(in.Data, raw)
				covered = append(covered, [2]int{at, at + len(raw)})
			}
			return true
		})
	}
	sort.Slice(covered, func(i, j int) bool { return covered[i][0] < covered[j][0] })
	spans := covered[:0]
	for _, sp := range covered {
		if n := len(spans); n > 0 && sp[0] <= spans[n-1][1] {
			spans[n-1][1] = max(spans[n-1][1], sp[1])
			continue
		}
		spans = append(spans, sp)
	}
	inside := func(at int) bool {
		i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > at })
		return i < len(spans) && spans[i][0] <= at
	}
	byPair := map[string]*family{}
	var all []*family
	var key []byte
	familyWalk(in.Data, func(start, _ int, a, b []byte, _ [][]byte, parent []byte, depth int) {
		if a == nil {
			return
		}
		key = append(append(append(key[:0], a...), 0), b...)
		f := byPair[string(key)]
		if f == nil {
			f = &family{a: string(a), b: string(b), minD: depth, maxD: depth, first: len(all)}
			byPair[string(key)] = f
			all = append(all, f)
		}
		f.count++
		if !inside(start) {
			f.outside++
		}
		f.minD, f.maxD = min(f.minD, depth), max(f.maxD, depth)
		if len(f.depths) < familyDepths && !slices.Contains(f.depths, depth) {
			f.depths = append(f.depths, depth)
		}
		if len(f.places) < familyPlaces {
			p := fmt.Sprintf("%s@%d", parent, depth)
			if !slices.Contains(f.places, p) {
				f.places = append(f.places, p)
			}
		}
	})
	var out []*family
	for _, f := range all {
		if f.count >= minFamily && len(f.depths) >= familyDepths && f.outside*2 > f.count && !namedNode(f.a) && !namedNode(f.b) {
			out = append(out, f)
		}
	}
	// Families that lead with the same member and stand in the same
	// lists (access paths under considered_access_paths: access_type
	// then index, or then resulting_rows) are one: every object with
	// that member.
	parentsOf := func(f *family) []string {
		var ps []string
		for _, p := range f.places {
			ps = append(ps, p[:strings.LastIndexByte(p, '@')])
		}
		return ps
	}
	var merged []*family
	for _, f := range out {
		var into *family
		for _, m := range merged {
			if m.a == f.a && slices.ContainsFunc(parentsOf(f), func(p string) bool { return slices.Contains(parentsOf(m), p) }) {
				into = m
				break
			}
		}
		if into == nil {
			merged = append(merged, f)
			continue
		}
		if into.b != "" {
			// (a copy: the census's family keeps its own count)
			c := *into
			c.b = ""
			c.places = slices.Clone(into.places)
			*into = c
		}
		into.count += f.count
		into.outside += f.outside
		into.minD, into.maxD = min(into.minD, f.minD), max(into.maxD, f.maxD)
		for _, p := range f.places {
			if len(into.places) < familyPlaces && !slices.Contains(into.places, p) {
				into.places = append(into.places, p)
			}
		}
	}
	out = merged
	sort.SliceStable(out, func(i, j int) bool { return out[i].count > out[j].count })
	if len(out) > maxFamilies {
		out = out[:maxFamilies]
	}
	if len(out) == 0 {
		return nil
	}
	// Every object with both members, in document order.
	familyWalk(in.Data, func(start, end int, _, _ []byte, names [][]byte, _ []byte, _ int) {
		for _, f := range out {
			ha, hb := false, f.b == ""
			for _, n := range names {
				ha = ha || string(n) == f.a
				hb = hb || string(n) == f.b
			}
			if ha && hb {
				f.spans = append(f.spans, [2]int{start, end})
			}
		}
	})
	// Each pass over a family's records reads its objects whole (a
	// plan holds the plans under it): the families' objects may add up
	// to familyScan times the document, the most objects first; a
	// family past that is left out (a chain of 3,000 nested plans read
	// 3,000 times its depth).
	kept := out[:0]
	read := 0
	for _, f := range out {
		n := 0
		for _, sp := range f.spans {
			n += sp[1] - sp[0]
		}
		if read+n > familyScan*len(in.Data) {
			continue
		}
		read += n
		sort.Slice(f.spans, func(i, j int) bool { return f.spans[i][0] < f.spans[j][0] })
		kept = append(kept, f)
	}
	return kept
}

// flatRecord appends to buf the object raw without its members whose
// values are objects or arrays holding an object.
func flatRecord(buf, raw []byte) []byte {
	buf = append(buf, '{')
	n := 0
	s := jscan{d: raw}
	s.members(func(name string, val []byte) {
		if len(val) > 0 && (val[0] == '{' || val[0] == '[' && holdsObject(val)) {
			return
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, jsonQuote(name)...)
		buf = append(buf, ':')
		buf = append(buf, val...)
		n++
	})
	return append(buf, '}')
}

// holdsObject reports whether the array val has an object element.
func holdsObject(val []byte) bool {
	found := false
	s := jscan{d: val}
	s.elementsUntil(func(el []byte) bool {
		found = len(el) > 0 && el[0] == '{'
		return !found
	})
	return found
}

// addFamilies adds every family of in's document as a collection of its
// own: a line saying what it is and where it was found, then its
// profile and rows.
func addFamilies(v *View, in Input) error {
	if v.tree != nil {
		return nil // a dependency tree is listed node by node (deptree.go)
	}
	fams := findFamilies(in)
	data := in.Data
	for _, f := range fams {
		f := f
		c := Collection{Path: f.expr(), Kind: "array", Count: len(f.spans), Each: func(fn func(int, []byte) error) error {
			var buf []byte
			for i, sp := range f.spans {
				buf = flatRecord(buf[:0], data[sp[0]:sp[1]])
				if err := fn(i, append([]byte(nil), buf...)); err != nil {
					return err
				}
			}
			return nil
		}}
		under := map[string]bool{}
		var parents []string
		for _, p := range f.places {
			name := p[:strings.LastIndexByte(p, '@')]
			if name == "" {
				name = "(an array)"
			}
			if !under[name] {
				under[name] = true
				parents = append(parents, name)
			}
		}
		more := ""
		if len(f.places) == familyPlaces {
			more = " and more"
		}
		depths := fmt.Sprintf("depth %d", f.minD)
		if f.maxD > f.minD {
			depths = fmt.Sprintf("depths %d-%d", f.minD, f.maxD)
		}
		with := f.a + " and " + f.b
		if f.b == "" {
			with = f.a
		}
		head := fmt.Sprintf("objects of one shape through the tree: %s objects with %s (%s), at %s, under %s%s: the collection below, each without its members holding objects\n",
			commas(len(f.spans)), with, plural(len(f.spans), "record"), depths, strings.Join(parents, ", "), more)
		v.AddSection(&Section{Coll: c.Path, Order: 10 + len(in.Collections), Head: func([]Candidate) string { return head }})
		in.Collections = append(in.Collections[:len(in.Collections):len(in.Collections)], c)
		v.items = append(v.items, Items{Path: c.Path, Kind: c.Kind, Of: ".", Count: c.Count})
		if err := addRecords(v, in, len(in.Collections)-1); err != nil {
			return err
		}
	}
	return nil
}
