package view

import (
	"fmt"
	"sort"
	"strings"
)

// Trees: records that nest records of their own kind through one array
// member (a directory's "children", a tree's "contents"). The profile has
// a field per depth (type, children[].type, children[].children[].type);
// the tree lines add them up over every depth, so that "how many files"
// and "how many bytes in all" are stated, not left to the model.

// treeKey returns the member X through which the records nest (a field
// path has "X[]" twice), or "".
func treeKey(p *Profile) string {
	best, bestN := "", 0
	n := map[string]int{}
	for _, f := range p.Fields {
		segs := strings.Split(f.Path, ".")
		seen := map[string]bool{}
		for _, s := range segs {
			if strings.HasSuffix(s, "[]") {
				if seen[s] {
					n[s]++
					break
				}
				seen[s] = true
			}
		}
	}
	for k, c := range n {
		if c > bestN || c == bestN && k < best {
			best, bestN = k, c
		}
	}
	return strings.TrimSuffix(best, "[]")
}

// treeLines are the profile lines of a nesting collection, over every
// depth: how many nodes, and per field its values (the counts of a few
// values, the range and sum of numbers, distinct strings).
func (k *coll) treeLines() []string {
	p := k.p
	key := treeKey(p)
	if key == "" {
		return nil
	}
	elem := key + "[]"
	type agg struct {
		leaf                 string
		values, nulls, depth int
		counts               map[string]int
		many                 bool
		nums                 int
		min, max, sum        float64
		maxLen               int
		first                int
	}
	groups := map[string]*agg{}
	nodes := p.Records
	maxDepth := 0
	for _, f := range p.Fields {
		segs := strings.Split(f.Path, ".")
		d := 0
		for d < len(segs)-1 && segs[d] == elem {
			d++
		}
		leaf := strings.Join(segs[d:], ".")
		if leaf == key && f.Types&tArray != 0 {
			nodes += f.Items // the children at this depth
			maxDepth = max(maxDepth, d+1)
			continue
		}
		if !f.scalar() || strings.Contains(leaf, "[]") || k.hidden(f) {
			continue
		}
		g := groups[leaf]
		if g == nil {
			g = &agg{leaf: leaf, counts: map[string]int{}, first: f.first}
			groups[leaf] = g
		}
		g.values += f.Values
		g.nulls += f.Nulls
		g.maxLen = max(g.maxLen, f.MaxLen)
		if f.Counts == nil {
			g.many = true
		} else if !g.many {
			for v, n := range f.Counts {
				g.counts[v] += n
			}
			if len(g.counts) > 24 {
				g.many = true
			}
		}
		if f.NumN > 0 {
			if g.nums == 0 || f.Min < g.min {
				g.min = f.Min
			}
			if g.nums == 0 || f.Max > g.max {
				g.max = f.Max
			}
			g.nums += f.NumN
			g.sum += f.Sum
		}
	}
	if maxDepth == 0 {
		return nil
	}
	var out []string
	note := ""
	if p.Unprofiled > 0 {
		note = fmt.Sprintf(" (%s values deeper or past %d fields are not counted here)", commas(p.Unprofiled), maxFields)
	}
	out = append(out, fmt.Sprintf("  the records nest through %s[], %d levels deep: %s nodes at every depth%s", key, maxDepth+1, commas(nodes), note))
	var gs []*agg
	for _, g := range groups {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].first < gs[j].first })
	// Fields with one value at every node are stated once, together, in
	// the place of the first of them.
	var consts []string
	stated := false
	for _, g := range gs {
		if !g.many && len(g.counts) == 1 && g.values == nodes && g.nulls == 0 {
			for v := range g.counts {
				consts = append(consts, g.leaf+"="+cell(v, 40))
			}
		}
	}
	for _, g := range gs {
		if !g.many && len(g.counts) == 1 && g.values == nodes && g.nulls == 0 {
			if !stated {
				stated = true
				out = append(out, fmt.Sprintf("  every node (%s) has: %s", commas(nodes), strings.Join(consts, ", ")))
			}
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "  every depth: %s (%s values", g.leaf, commas(g.values))
		if g.nulls > 0 {
			fmt.Fprintf(&b, ", %s null", commas(g.nulls))
		}
		b.WriteString(")")
		switch {
		case !g.many && len(g.counts) <= 12 && (len(g.counts)*2 <= g.values || g.nums == 0 && g.values <= 12):
			// A few strings are listed even when each is rare.
			b.WriteString(": ")
			vcs, _ := byCount(g.counts)
			for i, vc := range vcs {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s %s", cell(vc.k, 40), commas(vc.n))
			}
		case g.nums > 0 && g.nums == g.values-g.nulls && (refNumber(g.leaf) || identityScore(g.leaf) >= 50):
			fmt.Fprintf(&b, ": min %s, max %s", numExact(g.min), numExact(g.max)) // an id, a line: no sum
		case g.nums > 0 && g.nums == g.values-g.nulls:
			fmt.Fprintf(&b, ": min %s, max %s, sum %s", numExact(g.min), numExact(g.max), sumText(g.sum))
		case g.maxLen > 0:
			fmt.Fprintf(&b, ": longest %s chars", commas(g.maxLen))
		}
		out = append(out, b.String())
	}
	return out
}
