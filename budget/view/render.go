package view

import (
	"sort"
	"strings"
)

// render writes the view with the chosen candidates: the header, then
// every section in order with its head, its chosen candidates in Key
// order and its foot.
func (v *View) render(chosen []Candidate) string {
	per := make([][]Candidate, len(v.sections))
	for _, c := range chosen {
		per[c.Section] = append(per[c.Section], c)
	}
	idx := make([]int, len(v.sections))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v.sections[idx[a]].Order < v.sections[idx[b]].Order })
	var b strings.Builder
	b.WriteString(v.Header)
	for _, si := range idx {
		s := v.sections[si]
		cs := per[si]
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Key < cs[j].Key })
		if s.Head != nil {
			b.WriteString(s.Head(cs))
		}
		rows := false
		for _, c := range cs {
			rows = rows || c.Record >= 0
		}
		for _, c := range cs {
			if c.Reason == "row header" && !rows {
				continue // the column names wait for the first row
			}
			b.WriteString(c.text())
			b.WriteByte('\n')
		}
		if s.Foot != nil {
			b.WriteString(s.Foot(cs))
		}
	}
	return b.String()
}
