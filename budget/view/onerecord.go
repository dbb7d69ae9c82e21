package view

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// A collection of one record (a CycloneDX SBOM's .metadata.tools, the
// one element of npm pack --json around its files) is not a table: its
// profile would repeat each value with the count 1 and its one row would
// repeat them again. It is stated as facts instead, member by member
// (name=value; small objects and arrays inline, larger ones by their
// size), the lines ranked with the profiles of the other collections by
// the collection's weight, so that a main collection's profile comes
// before the facts of a small one.

// oneRecordLine is the characters of members joined on one line of a
// one-record collection's facts.
const oneRecordLine = 160

// addOneRecord adds the section of collection ci, which holds one record.
func addOneRecord(v *View, k *coll, ci int) error {
	c := k.c
	var rec []byte
	if err := k.eachRecord(func(i int, raw []byte) error {
		rec = append([]byte(nil), raw...)
		return errStop
	}); err != nil && err != errStop {
		return fmt.Errorf("record of %s: %w", c.Path, err)
	}
	parts := recordParts(rec, c.Path, k.in.Collections)
	// Its scalars first (a SARIF run's tool.driver.name, its
	// columnKind: facts), then its objects and arrays by their sizes.
	sort.SliceStable(parts, func(i, j int) bool { return !strings.Contains(parts[i], ": ") && strings.Contains(parts[j], ": ") })
	var lines []string
	scalarLines := 0
	var cur strings.Builder
	scalars := true
	for _, p := range parts {
		if cur.Len() > 0 && (cur.Len()+2+len(p) > oneRecordLine || scalars && strings.Contains(p, ": ")) {
			lines = append(lines, cur.String())
			if scalars {
				scalarLines = len(lines)
			}
			cur.Reset()
		}
		scalars = scalars && !strings.Contains(p, ": ")
		if cur.Len() > 0 {
			cur.WriteString(", ")
		}
		cur.WriteString(p)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
		if scalars {
			scalarLines = len(lines)
		}
	}
	h := k.in.Handle
	sec := v.AddSection(&Section{Coll: c.Path, Order: 10 + ci, weight: k.weight(),
		Head: func([]Candidate) string {
			return fmt.Sprintf("collection %s (%s): 1 record; its members:\n", c.Path, c.Kind)
		},
		Foot: func(ch []Candidate) string {
			if len(ch) == len(lines) {
				return ""
			}
			if len(ch) == 0 {
				return fmt.Sprintf("  get the record: %s\n", jqCommand(h, oneRecordQuery(c, 0)))
			}
			return fmt.Sprintf("  not shown: %s of %s lines of its members; the whole record: %s\n",
				commas(len(lines)-len(ch)), commas(len(lines)), jqCommand(h, oneRecordQuery(c, 0)))
		},
	})
	for i, l := range lines {
		prio := PrioProfile
		if i > 0 && i >= min(scalarLines, 3) {
			prio = PrioProfile2
		}
		v.Add(Candidate{Section: sec, Key: i, Record: 0, Prio: prio, Reason: "the record's members", Text: "  " + l})
	}
	return nil
}

// recordParts are the members of the JSON object rec as name=value:
// scalars verbatim (long strings cut), small objects and arrays inline,
// larger ones by their size and keys (a collection inside the record
// says so). An object that holds a collection (a SARIF run's
// tool.driver, around its rules) is not summarised but stated member by
// member, its names joined to its own (tool.driver.name=...), down to
// maxFactDepth levels. A record that is not an object is one part.
func recordParts(rec []byte, path string, colls []Collection) []string {
	s := jscan{d: rec}
	s.ws()
	if s.peek() != '{' {
		return []string{cell(string(bytes.TrimSpace(rec)), maxFactLen)}
	}
	elem := path + "[]"
	if path == "." {
		elem = ".[]"
	}
	var out []string
	var walk func(s *jscan, prefix string, depth int)
	walk = func(s *jscan, prefix string, depth int) {
		s.members(func(name string, raw []byte) {
			label := name
			if !plainName(name) {
				label = jsonQuote(name)
			}
			label = prefix + label
			sub := elem + "." + label
			if root := treeRootOf(colls, sub); root != "" {
				text, _ := inline(raw)
				out = append(out, label+": "+text+" (the root node of the collection "+root+")")
				return
			}
			switch {
			case len(raw) > 0 && raw[0] == '{' && depth+1 < maxFactDepth && holdsPath(colls, sub):
				walk(&jscan{d: raw}, label+".", depth+1)
			case len(raw) > 0 && (raw[0] == '{' || raw[0] == '['):
				text, _ := inline(raw)
				for _, o := range colls {
					if o.Path == sub {
						text += fmt.Sprintf(" (the collection %s)", sub)
					}
				}
				out = append(out, label+": "+text)
			default:
				out = append(out, label+"="+cell(string(raw), maxFactLen))
			}
		})
	}
	walk(&s, "", 0)
	return out
}

// treeRootOf returns the path of the collection of nodes (json_nodes.go)
// whose roots are at path, or "".
func treeRootOf(colls []Collection, path string) string {
	for _, c := range colls {
		if c.nodes != nil && c.nodes.roots == path {
			return c.nodes.expr()
		}
	}
	return ""
}

// holdsPath reports whether one of colls lies inside the value at path.
func holdsPath(colls []Collection, path string) bool {
	for _, c := range colls {
		if strings.HasPrefix(c.Path, path+".") || strings.HasPrefix(c.Path, path+"[") {
			return true
		}
	}
	return false
}

// weight is how many scalar values the collection's records hold.
func (k *coll) weight() int {
	w := 0
	for _, f := range k.p.Fields {
		if f.scalar() {
			w += f.Values
		}
	}
	if k.p.root.scalar() {
		w += k.p.root.Values
	}
	return w
}

// rankByWeight ranks the profile candidates of the collections by their
// weight, the heaviest first, less the weight of the collections inside
// each (the one record of npm pack holds its files): the main
// collection's profile is chosen before a small collection's.
func (v *View) rankByWeight() {
	type sw struct {
		i, w int
	}
	var ss []sw
	for i, s := range v.sections {
		if s.Coll == "" || s.weight == 0 {
			continue
		}
		w := s.weight
		for _, o := range v.sections {
			if o != s && o.weight > 0 && o.Coll != s.Coll && (s.Coll == "." || strings.HasPrefix(o.Coll, s.Coll+".") || strings.HasPrefix(o.Coll, s.Coll+"[")) {
				w -= o.weight
			}
		}
		ss = append(ss, sw{i, max(w, 0)})
	}
	if len(ss) < 2 {
		return
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].w > ss[b].w })
	rank := map[int]int{}
	for r, s := range ss {
		rank[s.i] = r
	}
	// The graph of a collection lighter than another (an SBOM's
	// .dependencies beside its .components) states its summary after the
	// first rows of every collection, with the profiles' second lines:
	// its "most named" and cycles took the room of 7 of the components'
	// rows at 2,000 tokens (REVIEW19 R11). The graph of the heaviest
	// collection (a madge map, cargo's packages) is what the output is
	// about: its summary stays with the profiles.
	later := map[int]bool{}
	for i, s := range v.sections {
		if !s.graph {
			continue
		}
		for j, o := range v.sections {
			if r, ok := rank[j]; ok && o.Coll == s.Coll && r > 0 {
				later[i] = true
			}
		}
	}
	for i := range v.cands {
		c := &v.cands[i]
		if r, ok := rank[c.Section]; ok && (c.Prio == PrioProfile || c.Prio == PrioProfile2) {
			c.Rank = r
		}
		if later[c.Section] && c.Prio == PrioProfile {
			c.Prio = PrioProfile2
		}
	}
}
