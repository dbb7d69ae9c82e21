package view

import (
	"fmt"
	"strings"
)

// Folding: an output with many collections side by side (npm outdated
// --all --json: a map of package name to an array of its instances, 137
// arrays) would need a section head and foot per collection, more than
// a small budget holds even before any row. Sibling collections (one
// parent object, one kind, none inside an array) of at least foldMin are
// listed in one section instead, each with its exact count, as many as
// fit; the rest are counted and one query lists them all.
const (
	foldCollections = 24 // fold only outputs with more collections than this
	foldMin         = 8  // the smallest group folded
)

// foldGroups returns, per collection index, the index of the first
// collection of its folded group (absent when not folded).
func foldGroups(colls []Collection) map[int]int {
	if len(colls) <= foldCollections {
		return nil
	}
	type key struct{ parent, kind string }
	members := map[key][]int{}
	for ci, c := range colls {
		if c.Kind == "lines" || strings.Contains(c.Path, "[") || c.Path == "." {
			continue
		}
		segs := pathSegments(strings.TrimPrefix(c.Path, "."))
		parent := "." + strings.Join(segs[:len(segs)-1], ".")
		k := key{parent, c.Kind}
		members[k] = append(members[k], ci)
	}
	out := map[int]int{}
	for _, ms := range members {
		if len(ms) < foldMin {
			continue
		}
		// A folded collection holding another collection would hide
		// it: such a member keeps its own section, the others are
		// folded (radon cc -j: one file's records of 87 hold a nested
		// array, and the 87 sections' heads were over 4,000 tokens:
		// no view at all, TestFoldAroundNestedMember).
		var flat []int
		for _, ci := range ms {
			nested := false
			for _, o := range colls {
				if strings.HasPrefix(o.Path, colls[ci].Path+".") || strings.HasPrefix(o.Path, colls[ci].Path+"[") {
					nested = true
					break
				}
			}
			if !nested {
				flat = append(flat, ci)
			}
		}
		if len(flat) < foldMin {
			continue
		}
		for _, ci := range flat {
			out[ci] = flat[0]
		}
	}
	return out
}

// addFolded adds the section of the folded group that starts at
// collection first: one line per collection with its exact count.
func addFolded(v *View, in Input, groups map[int]int, first int) {
	var ms []int
	total := 0
	for ci := range in.Collections {
		if g, ok := groups[ci]; ok && g == first {
			ms = append(ms, ci)
			total += in.Collections[ci].Count
		}
	}
	c0 := in.Collections[first]
	segs := pathSegments(strings.TrimPrefix(c0.Path, "."))
	parent := "." + strings.Join(segs[:len(segs)-1], ".")
	jqType := "array"
	if c0.Kind == "map" {
		jqType = "object"
	}
	sec := v.AddSection(&Section{Order: 10 + first,
		Head: func(ch []Candidate) string {
			return fmt.Sprintf("%s collections of the same kind in %s (%s, %s records in all); listed with their counts: %s of %s\n",
				commas(len(ms)), parent, c0.Kind, commas(total), commas(len(ch)), commas(len(ms)))
		},
		Foot: func(ch []Candidate) string {
			var b strings.Builder
			if len(ch) < len(ms) {
				listed := 0
				for _, c := range ch {
					listed += in.Collections[c.Key].Count
				}
				q := parent + " | to_entries | map(select(.value | type == \"" + jqType + "\") | {(.key): (.value | length)}) | add"
				if parent == "." {
					q = "to_entries | map(select(.value | type == \"" + jqType + "\") | {(.key): (.value | length)}) | add"
				}
				fmt.Fprintf(&b, "  not listed: %s collections with %s records; every one with its count: %s\n",
					commas(len(ms)-len(ch)), commas(total-listed), jqCommand(in.Handle, q))
			}
			fmt.Fprintf(&b, "  the records of one: %s\n", jqCommand(in.Handle, c0.Path))
			return b.String()
		},
	})
	for _, ci := range ms {
		c := in.Collections[ci]
		v.Add(Candidate{Section: sec, Key: ci, Record: -1, Prio: PrioCount, Reason: "folded collection",
			Text: fmt.Sprintf("  %s %s", strings.TrimPrefix(c.Path, parent+"."), plural(c.Count, "record"))})
	}
}
