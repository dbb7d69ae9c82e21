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

// shallowList is the listing of the shallowest rows of column col: its
// depths lo-hi and its n rows.
type shallowList struct {
	col, lo, hi, n int
}

// shallowRest is the line that gives the query of the rows of the
// listing that the chosen candidates cs of the columns' section do not
// list ("" when they list all of them, or show no listing): the rows of
// the column's counted paths of depths lo-hi (pathStat.add), the slices
// of them not listed (each listing line says "[a-b of n]").
func (tc *textCands) shallowRest(cs []Candidate) string {
	cp := tc.p.cols
	sl := cp.shallow
	if sl == nil {
		return ""
	}
	listed := make([]bool, sl.n)
	title := false
	for _, c := range cs {
		if c.Reason != "shallowest paths" {
			continue
		}
		var a, b, n int
		if _, err := fmt.Sscanf(strings.TrimSpace(c.Text), "[%d-%d of %d]", &a, &b, &n); err != nil {
			title = true // the listing's first line, its title
			continue
		}
		for i := a - 1; i < b && i < sl.n; i++ {
			listed[i] = true
		}
	}
	var ranges [][2]int
	for i := 0; i < sl.n; i++ {
		if listed[i] {
			continue
		}
		if len(ranges) > 0 && ranges[len(ranges)-1][1] == i {
			ranges[len(ranges)-1][1]++
		} else {
			ranges = append(ranges, [2]int{i, i + 1})
		}
	}
	if !title || len(ranges) == 0 {
		return ""
	}
	rest := 0
	for _, r := range ranges {
		rest += r[1] - r[0]
	}
	depth := fmt.Sprintf(`. == %d`, sl.lo)
	if sl.hi > sl.lo {
		depth = fmt.Sprintf(`. >= %d and . <= %d`, sl.lo, sl.hi)
	}
	// A path as pathStat.add counts it: before " -> " (a link's target),
	// with a '/', not module@v1.2.3; its depth: its segments.
	sel := cp.split.jqField(sl.col) + ` | ((index(" -> ") // 0) as $i | if $i > 0 then .[:$i] else . end) | select(contains("/") and (test("[^/]@v?[0-9]+\\.[0-9][^/]*$") | not)) | [splits("/") | select(. != "")] | length | ` + depth
	return fmt.Sprintf("the %s rows of the shallowest paths (%s) not listed below: compact artifact query %s --jq %s\n", commas(rest), cp.cols[sl.col].name, tc.in.Handle,
		tc.jq(`[to_entries[] | select(.value | `+sel+`)] | `+jqSlices(ranges, sl.n)+` | "\(.key)\t\(.value)"`))
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
	cp.shallow = &shallowList{col: ci, lo: lo, hi: hi, n: len(items)}
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
