package view

import (
	"fmt"
	"strings"
)

// The shallowest rows of a column of paths.
//
// A listing of a tree with a number per path (du -ah: "18M<TAB>
// node_modules/webpack"; tar -tv, ls -lR) is asked about its top: the
// size of one package, the largest directory. Those rows are few (the 85
// packages among 9,212 files) and lie anywhere in the text (du writes a
// directory after its files). The view lists them densely, "path cells"
// with the row's short cells (the index's columns), several a line, in
// line order: the rows of the smallest depths that together are at most
// maxShallowRows and at most a quarter of the rows, when their other
// cells differ.

const (
	maxShallowRows  = 256 // rows listed as the shallowest at most
	maxShallowDepth = 8   // depths whose rows are kept for it
	shallowLineLen  = 320 // a line of the listing is cut into the next one here
)

// shallowRows are the rows of the smallest depths of the column's paths,
// their depth range, or nil.
func (c *colStat) shallowRows(rows int) (out []posLine, lo, hi int) {
	ps := c.pathsOf()
	if ps == nil || ps.shallow == nil {
		return nil, 0, 0
	}
	lo = -1
	for d := 0; d <= maxShallowDepth; d++ {
		n := ps.depth[d]
		if n == 0 {
			continue
		}
		if len(out)+n > maxShallowRows || len(ps.shallow[d]) != n {
			break
		}
		if lo < 0 {
			lo = d
		}
		hi = d
		out = append(out, ps.shallow[d]...)
	}
	if len(out) < 3 || 4*len(out) > rows {
		return nil, 0, 0
	}
	// in line order
	sortPosLines(out)
	return out, lo, hi
}

// sortPosLines sorts ls by position.
func sortPosLines(ls []posLine) {
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && ls[j].pos < ls[j-1].pos; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// shallowLines are the lines of the listing of the shallowest rows of
// column ci: each row as its path and the other index cells.
func (cp *colProfile) shallowLines(ci int) []string {
	c := cp.cols[ci]
	rows, lo, hi := c.shallowRows(cp.rows)
	if rows == nil {
		return nil
	}
	cols := cp.indexColumns()
	if len(cols) == 0 || cols[0] != ci {
		return nil
	}
	var items []string
	others := map[string]bool{} // the other cells of the rows: listed only when they differ
	for _, l := range rows {
		f := cp.split.fields(l.text)
		if f == nil {
			continue
		}
		var cells []string
		for _, i := range cols {
			if i < len(f) {
				w := indexCellCut
				if i == ci {
					w = indexIDCut
				}
				cells = append(cells, cut(f[i], w))
			}
		}
		items = append(items, strings.Join(cells, " "))
		others[strings.Join(cells[1:], " ")] = true
	}
	if len(others) < 2 {
		return nil // (tar -tv's directories: all of size 0) the listing says nothing the directories' line does not
	}
	depth := fmt.Sprintf("depth %d", lo)
	if hi > lo {
		depth = fmt.Sprintf("depths %d-%d", lo, hi)
	}
	var names []string
	for _, i := range cols {
		names = append(names, cp.cols[i].name)
	}
	// Each line of the listing is a candidate of its own, which the
	// fill may leave out: every line says which of the rows it lists,
	// so a cut listing shows where it ends.
	out := []string{fmt.Sprintf("  %s, the rows of the shallowest paths (%s: %s of %s rows; each line says which of them it lists), in line order, each as %s:", c.name, depth, commas(len(items)), commas(cp.rows), strings.Join(names, " "))}
	cur, first := "", 0
	flush := func(last int) {
		out = append(out, fmt.Sprintf("    [%s-%s of %s] %s", commas(first+1), commas(last), commas(len(items)), cur))
		cur, first = "", last
	}
	for j, it := range items {
		if cur != "" && len(cur)+len(it) > shallowLineLen {
			flush(j)
		}
		if cur != "" {
			cur += "; "
		}
		cur += it
	}
	if cur != "" {
		flush(len(items))
	}
	return out
}
