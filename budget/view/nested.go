package view

import (
	"fmt"
	"sort"
	"strings"
)

// The nested lists of a small collection's records. A row cuts a list
// column at its first 4 values ("auditTotal,auditRound,…"); once every
// row of a few records is shown, the rest of the budget is better spent
// on those lists whole than left unused (a coverage map of 18 files
// stopped at 1,835 tokens at every budget). One line per record and
// list column, after the rows and the index, in record order; two lists
// of one record read by the same positions (an istanbul fnMap's names
// and f's call counts, both keyed "0".."n-1") are listed side by side.

const (
	// maxNestedRecords is the most records a collection may have for
	// its lists to be listed whole.
	maxNestedRecords = 32
	// nestedItems and nestedWidth cap one line: its items, its
	// characters.
	nestedItems = 200
	nestedWidth = 2000
)

// addNestedLists adds the lines listing the list columns of every record
// of a small collection whole.
func addNestedLists(v *View, k *coll, sec int) {
	if k.c.Count > maxNestedRecords || k.c.Kind == "lines" {
		return
	}
	var lists []*Field
	for _, f := range k.cols {
		if f.inArr && f.scalar() && f.Values > f.Present && f.MaxLen <= 100 {
			lists = append(lists, f)
		}
	}
	if len(lists) == 0 {
		return
	}
	// Pairs read by the same positions: two lists of one record under
	// objects keyed "0".."n-1" (or arrays) with equal item counts in
	// every record, each one value per position.
	partner := map[*Field]*Field{}
	for i, a := range lists {
		for _, b := range lists[i+1:] {
			pa, pb := listOf(a), listOf(b)
			if partner[a] == nil && partner[b] == nil && pa != nil && pb != nil && pa != pb &&
				pa.indexed && pb.indexed && pa.Items == pb.Items && pa.MinItems == pb.MinItems && pa.MaxItems == pb.MaxItems &&
				a.Values == pa.Items && b.Values == pb.Items {
				partner[a], partner[b] = b, a
			}
		}
	}
	var fs []*Field
	for _, f := range lists {
		if p := partner[f]; p == nil || k.colIdx[f] < k.colIdx[p] {
			fs = append(fs, f)
		}
	}
	// Names read by position with their numbers first, then lists of
	// strings, then of numbers: every record's first list before any
	// record's second.
	kind := func(f *Field) int {
		switch {
		case partner[f] != nil:
			return 0
		case f.Types&tString != 0:
			return 1
		}
		return 2
	}
	sort.SliceStable(fs, func(a, b int) bool { return kind(fs[a]) < kind(fs[b]) })
	mask := k.p.mask(lists...)
	if k.c.Kind == "map" && k.c.Each == nil {
		return
	}
	_ = k.eachRecord(func(i int, raw []byte) error { // rows.go
		vals := map[*Field][]string{}
		k.p.leavesOf(raw, mask, func(f *Field, val []byte) {
			vals[f] = append(vals[f], cell(string(val), 60))
		})
		id := k.identOf(raw)
		if id == "" {
			id = fmt.Sprintf("record %d", i)
		}
		line := func(key, rank int, head string, items []string) {
			var b strings.Builder
			fmt.Fprintf(&b, "  %s: %s (%d): ", cut(id, 80), head, len(items))
			for x, it := range items {
				if x == nestedItems || b.Len()+len(it) > nestedWidth {
					fmt.Fprintf(&b, "… %d more", len(items)-x)
					break
				}
				if x > 0 {
					b.WriteString(", ")
				}
				b.WriteString(it)
			}
			// (after the even spread of rows: once the rows are all
			// shown)
			v.Add(Candidate{Section: sec, Key: 1<<24 + i*64 + key, Record: -1, Prio: PrioSpread + 1, Rank: rank, Reason: "a record's lists whole", Text: b.String()})
		}
		for j, f := range fs {
			items := vals[f]
			p := partner[f]
			if p != nil && len(vals[p]) == len(items) {
				// Side by side only where this record's two lists
				// have as many items (equal totals over the records
				// do not make equal lists in each).
				if len(items) <= 4 {
					continue // the row shows them all
				}
				paired := make([]string, len(items))
				for x := range items {
					paired[x] = items[x] + " " + vals[p][x]
				}
				line(2*j, j*maxNestedRecords+i, f.Path+" with "+p.Path+" by position", paired)
				continue
			}
			if len(items) > 4 {
				line(2*j, j*maxNestedRecords+i, f.Path, items)
			}
			if p != nil && len(vals[p]) > 4 {
				line(2*j+1, j*maxNestedRecords+i, p.Path, vals[p])
			}
		}
		return nil
	})
}

// listOf is the list field a field inside lists is an item of, or under
// (fnMap for fnMap[].name, f for f[]): its nearest ancestor ending in
// [], or nil.
func listOf(f *Field) *Field {
	for g := f.parent; g != nil; g = g.parent {
		if g.elem != nil && strings.HasPrefix(f.Path, g.elem.Path) {
			return g
		}
	}
	return nil
}
