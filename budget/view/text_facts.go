package view

import (
	"fmt"
	"strings"
)

// TextFacts are the facts the view of a text states first, computed over
// all of its lines, for a result that keeps the whole text (level none):
// what the text is (lines, kind, records), error lines and templates, a
// test report's totals, failed packages and slowest tests, a log's time
// range and levels, a table's column profile (with the marks, repeats,
// shared starts and ends and forms of its columns of names), the most frequent
// templates with their exact counts, the lines by their first words.
// Most telling first; each item is one line without its newline. A view
// at a smaller budget states these facts; the whole text at a larger one
// states them too, as far as room allows (budget's facts notice). nil for
// an empty text or a stream of go events (its records are JSON).
func TextFacts(data []byte) []string {
	if len(data) == 0 || goEvents(data) {
		return nil
	}
	esc, one := 0, false
	if hasTermEscapes(data) {
		one = cursorOne(data)
		data, esc = stripEscapes(data) // as a terminal shows it (text_escapes.go)
	}
	p := analyzeText(data, nil)
	tc := &textCands{p: p, t: p.tests, escapes: esc, escOne: one}
	tc.lists()
	var out []string
	out = append(out, strings.TrimSuffix(tc.factsHead(), "\n"))
	out = append(out, tc.factLines()...)
	if cp := p.cols; cp != nil && cp.rows > 0 {
		hdr := cp.split.headerText()
		out = append(out, fmt.Sprintf("a table of %s rows, %d columns (%s)", commas(cp.rows), cp.split.k, hdr))
		// Columns of few values first (the distributions), then
		// numbers, then the rest.
		rank := func(c *colStat) int {
			switch {
			case c.isNumber():
				return 1
			case c.overflow || len(c.values) > shownColValues && 33*c.sortedValues()[0].n < cp.rows:
				return 2
			}
			return 0
		}
		for r := 0; r < 3; r++ {
			if r == 1 {
				// Rows by the start or end of their values: the
				// distributions of columns of names.
				for _, c := range cp.cols {
					ls := c.partsLines(cp.rows)
					for _, l := range c.nameExtras() {
						if l != "" {
							ls = append(ls, l)
						}
					}
					for _, l := range ls {
						s := strings.TrimSpace(l)
						if cp.split.header != nil {
							s = "column " + s
						}
						out = append(out, cut(s, 300))
					}
				}
			}
			for _, c := range cp.cols {
				if rank(c) == r {
					s := strings.TrimSpace(c.short(cp.rows))
					if cp.split.header != nil {
						s = "column " + s // "column USER: ...", not "USER: ..."
					}
					out = append(out, s)
				}
			}
		}
	}
	if rs := p.recs; rs.short() {
		// What is counted over every record (text_records.go).
		for _, l := range []string{rs.formLine(), rs.linesLine(), rs.unitsLine()} {
			if l != "" {
				out = append(out, strings.TrimSpace(l))
			}
		}
	}
	for i, f := range p.fields {
		if i == 12 {
			break
		}
		if p.loose {
			out = append(out, f.name+" ("+commas(f.present)+" lines)"+strings.TrimPrefix(fieldSummary(f, f.present), f.name))
		} else {
			out = append(out, fieldSummary(f, p.records))
		}
	}
	if w := tc.wordCounts("first words", tc.leadMap()); w != "" && (p.cols == nil || p.cols.split.mode != byLine) {
		out = append(out, strings.TrimSpace(w))
	}
	list := p.cols != nil && p.cols.split.mode == byLine
	for i, cl := range tc.tmpls {
		if i == 10 || list {
			break
		}
		out = append(out, "["+commas(cl.count)+" lines] "+cut(cl.template(), 200))
	}
	if w := tc.extensionCounts(); w != "" {
		out = append(out, strings.TrimSpace(w))
	}
	return out
}
