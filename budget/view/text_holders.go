package view

import (
	"fmt"
	"sort"
	"strings"
)

// Holders of a table's rare values.
//
// A rare value of a column of few values (404 among 200s, "command line"
// among "default" origins) is shown with its first rows (chosenRows);
// what a reader asks is which things have it: the paths that got 404,
// the flags set on the command line. holderLines names them, counted:
// the values of the table's column of names among every row of the rare
// value, from the rows the profile kept (colStat.examples keeps every
// row of a value while it has at most maxHeldRows).

// maxHolderLines bounds the rare values of one column named this way.
const maxHolderLines = 3

// holderLines are, for the rare values of column i held by more rows than
// its rows shown (more than maxColExamples, at most maxHeldRows; the
// rarest first, at most maxHolderLines), the values of the column of
// names (holderColumn) in those rows with their counts:
//
//	column 2 "404" (33 rows), by their column 9: "/.env" 8, "/admin/" 8, …
func (cp *colProfile) holderLines(i int) []string {
	c := cp.cols[i]
	h := cp.holderColumn(i)
	if h < 0 {
		return nil
	}
	if c.isNumber() && c.fractions() {
		return nil // a measure's few values (0.02 s): no kind of row
	}
	rare := c.rareValues(cp.rows)
	sort.SliceStable(rare, func(a, b int) bool { return rare[a].n < rare[b].n })
	var out []string
	for _, r := range rare {
		if len(out) == maxHolderLines {
			break
		}
		ex := r.c.examples[r.v]
		if r.n <= maxColExamples || len(ex) != r.n {
			continue // its rows are all shown, or not all held
		}
		m := map[string]int{}
		n := 0
		for _, l := range ex {
			f := cp.split.fields(l.text)
			if h >= len(f) || cp.split.absentAt(h) {
				continue
			}
			m[f[h]]++
			n++
		}
		if n == 0 {
			continue
		}
		line := fmt.Sprintf("  %s %q (%s rows), by their %s: %s", c.name, cut(r.v, 40), commas(r.n), cp.cols[h].name, listCounts(m, n, n, "values", "", true))
		if n < r.n {
			line += fmt.Sprintf("; %s rows without %s", commas(r.n-n), cp.cols[h].name)
		}
		out = append(out, line)
	}
	return out
}

// holderColumn is the column that names a table's rows for holderLines:
// the identity of the table's index (indexColumns), else, of the columns other than i that are not numbers, present in nine rows
// in ten and lettered in most, the one of the most distinct values (more
// than a column of few values lists); -1 when none.
func (cp *colProfile) holderColumn(i int) int {
	if ix := cp.indexColumns(); len(ix) > 0 && ix[0] != i && ix[0] < len(cp.cols) && !cp.cols[ix[0]].isNumber() {
		return ix[0] // the index's identity names the rows
	}
	best, most := -1, shownColValues
	for j, c := range cp.cols {
		if j == i || c.isNumber() || 10*c.rows < 9*cp.rows || 2*c.lettered < c.rows {
			continue
		}
		if d := len(c.distinct); d > most {
			best, most = j, d
		}
	}
	return best
}

// fractions reports whether some value of the column is a number written
// with a decimal point.
func (c *colStat) fractions() bool {
	for v := range c.values {
		if num, _ := splitUnit(v); strings.IndexByte(num, '.') >= 0 {
			if _, _, ok := parseDecimal(num); ok {
				return true
			}
		}
	}
	return false
}
