package view

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The index of a name/value table, by value.
//
// A table of two columns, one naming every row and the other holding a
// value that many rows share (gcc -Q --help's "-fname  [enabled]",
// rsync -i's ".f..t...... path", a settings dump printed in two
// columns), is read by name: "is -ftree-vectorize enabled?", "what are
// the flags of quic/endpoint.go?". Its index lists the rows grouped by
// their value, as the names of key/value lines are (text_kv.go's
// kvStats.items): a value held by kvGroupMin rows or more once, then the
// names of the rows that hold it, in line order (valueChunk a line); every
// other row as "name value"; after the rare values the lines come in
// the order of their first row (a value's names 1-12 before its names
// 13-24), so a larger budget shows a superset of a smaller one's lines,
// and rows in the middle of a long table are reached only at larger
// budgets (their query is given); the rare values (held by
// 1% of the rows or fewer, at most valueChunk) come first, the fewest
// first, each on one line; every
// value of kvGroupMin rows or more is grouped (key/value lines group the
// 32 most frequent). Written once per value,
// not once per row with its line number, the index names about twice as
// many rows as the line-order index (text_list.go) in the same tokens,
// and the rows of a rare value (gcc's "[ignored]", rsync's new files)
// come whole among the first.
//
// The value column must not be one of numbers (a measure is read by its
// extremes and sums, not grouped by equal values), and the values shared
// by kvGroupMin rows or more must hold half of the rows. A table of more
// than maxIndexRows rows keeps the line-order index (which lists that
// many at most): a value's count in the index is the count of all its rows.

// valueChunk is the names of one value a line of the index lists: a
// line is a candidate of the fill, which stops at the first that does
// not fit, so a shorter line leaves less of the budget unused.
const valueChunk = 12

// valueIndex is the by-value index of a name/value table: the rows as
// key/value entries of name column id and value column val.
type valueIndex struct {
	id, val int
	items   []kvItem
	// rows are the rows indexed, in line order: their line and value
	// (the counts of values per record, recValues).
	rows []kvEntry
	// top are the values of the most rows, at most recTopValues.
	top []string
	// skipped are the lines of the rows of values not grouped that the
	// index skips (among the first lines shown before it), in order.
	skipped []int
	// chunk is, per item, the index chunk it falls in (the bytes of
	// indexChunk rows in line order): the fill offers the index the same
	// share of the budget per priority as the line-order index.
	chunk []int
}

// nameValue returns the name column and the value column of a table read
// by value, and whether it is one: exactly two columns, cols (the index
// columns) naming one of them the identity first, the other no column of
// numbers, with its values counted exactly, and the values shared by
// kvGroupMin rows or more (up to kvGroupLen characters) holding half of
// the rows or more.
func (cp *colProfile) nameValue(cols []int) (id, val int, ok bool) {
	if cp.split.mode == byLine || len(cp.cols) != 2 || len(cols) == 0 || cp.rows < 2*indexChunk || cp.rows > maxIndexRows {
		return 0, 0, false
	}
	// The other column, also when the line-order index leaves it out
	// (a few long values, counted in the profile: rsync's itemize codes).
	id, val = cols[0], 1-cols[0]
	c := cp.cols[val]
	if len(cols) == 1 && (c.rows == 0 || c.sumLen > 24*c.rows || len(c.distinct) < 2) {
		return 0, 0, false // left out of the index for more than its few long values
	}
	if c.isNumber() || c.overflow || c.values == nil || c.rows != cp.rows || cp.cols[id].rows != cp.rows && cp.split.mode == byFields {
		return 0, 0, false // (field lines: a key every row has)
	}
	shared := 0
	for v, n := range c.values {
		if n >= kvGroupMin && len(v) <= kvGroupLen {
			shared += n
		}
	}
	return id, val, 2*shared >= cp.rows
}

// valueIndexOf reads the first maxIndexRows rows of the table again and
// makes the by-value index; skip are the lines shown before it (the
// first lines), whose rows are not listed as entries of their own.
func (tc *textCands) valueIndexOf(id, val int, skip map[int]bool) *valueIndex {
	cp := tc.p.cols
	s := &kvStats{vals: map[string]int{}, allGroups: true, groupChunk: valueChunk}
	rows := 0
	textLinesWhile(tc.in.Data, func(pos int, line string) bool {
		f := cp.split.fields(line)
		if f == nil || pos == cp.split.headPos || len(f) <= max(id, val) {
			return true
		}
		rows++
		name, v := f[id], f[val]
		if strings.ContainsAny(name, " \t") || name == "" {
			name = strconv.Quote(name)
		}
		shown := v
		if shown == "" {
			shown = `""`
		}
		s.vals[v]++
		s.kept = append(s.kept, kvEntry{pos: pos, key: strings.Clone(cut(name, indexIDCut)), val: v,
			text: cut(name, indexIDCut) + " " + cut(shown, indexCellCut)})
		return rows < maxIndexRows
	})
	items := s.items(skip)
	// The values of few rows (one line of names: gcc's 3 "[ignored]"
	// options, rsync's 4 new files) come whole before the even spread:
	// what stands out in a table of two columns is its rare value.
	small := func(it kvItem) bool { return it.group && it.total <= valueChunk && 100*it.total <= len(s.kept) }
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if small(a) != small(b) {
			return small(a)
		}
		if small(a) {
			return a.total < b.total
		}
		return a.ents[0].pos < b.ents[0].pos
	})
	vi := &valueIndex{id: id, val: val, items: items, rows: s.kept}
	for _, e := range s.kept {
		if n := s.vals[e.val]; skip[e.pos] && (n < kvGroupMin || utf8.RuneCountInString(e.val) > kvGroupLen) {
			vi.skipped = append(vi.skipped, e.pos)
		}
	}
	vs, _ := byCount(s.vals)
	for _, x := range vs[:min(len(vs), recTopValues)] {
		vi.top = append(vi.top, x.k)
	}
	// The index gets the share of the budget the line-order index would
	// get at each priority (indexChunk rows a chunk): an item's chunk is
	// the bytes of the items before it over the bytes of indexChunk rows
	// written in line order, so the denser lines show more rows.
	lineBytes := 0
	for _, e := range s.kept {
		lineBytes += 4 + len(strconv.Itoa(e.pos)) + len(e.text)
	}
	per := max(1, lineBytes*indexChunk/max(1, len(s.kept)))
	n := 0
	for _, it := range vi.items {
		vi.chunk = append(vi.chunk, n/per)
		n += len(it.text(" ")) + 1
	}
	return vi
}

// valueIndexCandidates adds the items of the by-value index whose chunk
// is in [from, to) at prio (the same contract as indexCandidates).
func (tc *textCands) valueIndexCandidates(vi *valueIndex) func(prio, from, to int) {
	tc.indexN = map[int]int{}
	return func(prio, from, to int) {
		for i, it := range vi.items {
			if vi.chunk[i] < from || vi.chunk[i] >= to {
				continue
			}
			// Values in rank order, each value's names in line order,
			// then the single entries in line order.
			key := 1<<40 + it.ents[0].pos
			if it.group {
				key = it.vrank*1000000 + it.chunk
			}
			tc.indexN[key] = len(it.ents)
			it := it
			tc.v.Add(Candidate{Section: tc.sec[tsIndex], Key: key, Record: -1, Prio: prio, Reason: "index",
				lazy: &lazyText{make: func() string { return it.text(" ") }}})
		}
	}
}

// valueIndexHead is the header of the by-value index.
func (tc *textCands) valueIndexHead(cs []Candidate) string {
	cp, vi := tc.p.cols, tc.valIndex
	n := 0
	for _, c := range cs {
		n += tc.indexN[c.Key]
	}
	name, val := cp.cols[vi.id].name, cp.cols[vi.val].name
	s := fmt.Sprintf("index of the rows by %[2]s (a value of %[3]d rows or more once, then the %[1]s of the rows that have it, in line order; the other rows as %[1]s %[2]s; showing %[4]s of %[5]s rows):\n",
		name, val, kvGroupMin, commas(n), commas(cp.rows))
	if n < len(vi.rows) {
		s += fmt.Sprintf("the %s rows not in this index, in line order: compact artifact query %s --jq %s\n",
			commas(len(vi.rows)-n), tc.in.Handle, tc.jq(vi.restQuery(&cp.split, cs)))
	}
	return s
}

// restQuery is the jq that yields exactly the rows the chosen index
// lines cs do not list, in line order, as "line<TAB>text". The rows are
// grouped by value (each group in line order). A grouped value (of
// kvGroupMin rows or more, up to kvGroupLen characters) yields its rows
// past the names its lines list: names 1-N, since a value's lines come
// in line order ($n maps the value to N: every value listed, 0 for the
// others; or, when shorter, the values listed in part and those not
// listed, all the rows for the others, listed whole). A value whose
// listed lines are not its first is sliced apart (no fill is known to
// do that). Another value yields its rows but the single rows listed,
// which are the first in line order (but those among the first lines,
// which the index skips): past the last listed, or among those skipped.
func (vi *valueIndex) restQuery(sp *colSplit, cs []Candidate) string {
	shownChunks := map[int]map[int]bool{} // vrank -> chunks listed
	listed := map[int]bool{}              // single rows listed, by line
	last := -1
	for _, c := range cs {
		if c.Key >= 1<<40 {
			pos := c.Key - 1<<40
			listed[pos], last = true, max(last, pos)
			continue
		}
		r := c.Key / 1000000
		if shownChunks[r] == nil {
			shownChunks[r] = map[int]bool{}
		}
		shownChunks[r][c.Key%1000000] = true
	}
	type part struct {
		value string
		total int
	}
	parts := map[int]part{}
	var unlisted []string // the grouped values none of whose names are listed
	prefix := true        // the single rows listed are those up to last
	for _, it := range vi.items {
		switch {
		case it.group && shownChunks[it.vrank] != nil:
			parts[it.vrank] = part{it.value, it.total}
		case it.group && it.chunk == 0:
			unlisted = append(unlisted, fmt.Sprintf("%s: 0", jqString(it.value)))
		case !it.group && it.ents[0].pos <= last && !listed[it.ents[0].pos]:
			prefix = false
		}
	}
	ranks := make([]int, 0, len(parts))
	for r := range parts {
		ranks = append(ranks, r)
	}
	sort.Ints(ranks)
	v := fmt.Sprintf(".[0].f[%d]", vi.val)
	var firsts, partial, apart []string
	for _, r := range ranks {
		p := parts[r]
		n := 0
		for shownChunks[r][n/valueChunk] && n < p.total {
			n += valueChunk
		}
		n = min(n, p.total)
		if len(shownChunks[r]) == (n+valueChunk-1)/valueChunk {
			firsts = append(firsts, fmt.Sprintf("%s: %d", jqString(p.value), n))
			if n < p.total {
				partial = append(partial, firsts[len(firsts)-1])
			}
			continue
		}
		var ranges [][2]int
		for c := 0; c*valueChunk < p.total; c++ {
			if !shownChunks[r][c] {
				ranges = append(ranges, [2]int{c * valueChunk, min(p.total, (c+1)*valueChunk)})
			}
		}
		apart = append(apart, fmt.Sprintf("if %s == %s then %s", v, jqString(p.value), jqSlices(ranges, p.total)))
	}
	rows := "to_entries[] | "
	if sp.headPos >= 0 {
		rows += fmt.Sprintf("select(.key != %d) | ", sp.headPos)
	}
	rows += ".f = (.value | " + sp.jqFields() + ")"
	// fields yields at least least cells of a row: a row with fewer
	// than the name's and the value's is no row of the index.
	least := sp.minK
	if sp.mode == bySpaces {
		least = min(sp.minK, sp.k-1) + 1
	}
	if need := max(vi.id, vi.val); need >= least {
		rows += fmt.Sprintf(" | select(.f | length > %d)", need)
	}
	grouped := fmt.Sprintf("length >= %d and (%s | length) <= %d", kvGroupMin, v, kvGroupLen)
	each := fmt.Sprintf(".[($n[%s] // 0):][]", v)
	if len(firsts) == 0 {
		each = ".[]"
	}
	if others := append(partial, unlisted...); len(strings.Join(others, ", ")) < len(strings.Join(firsts, ", ")) {
		firsts = others
		each = fmt.Sprintf(".[($n[%s] // length):][]", v)
		if len(firsts) == 0 {
			each = "empty"
		}
	}
	for i := len(apart) - 1; i >= 0; i-- {
		each = apart[i] + " else " + each + " end"
	}
	single := ".[]"
	switch {
	case len(listed) == 0:
	case prefix:
		var skipped []string
		for _, p := range vi.skipped {
			if p < last {
				skipped = append(skipped, strconv.Itoa(p))
			}
		}
		single = fmt.Sprintf(".[] | select(.key > %d", last)
		if len(skipped) > 0 {
			single += fmt.Sprintf(" or (.key | IN(%s))", strings.Join(skipped, ", "))
		}
		single += ")"
	default:
		pos := make([]int, 0, len(listed))
		for p := range listed {
			pos = append(pos, p)
		}
		sort.Ints(pos)
		ps := make([]string, len(pos))
		for i, p := range pos {
			ps[i] = strconv.Itoa(p)
		}
		single = fmt.Sprintf(".[] | select(.key | IN(%s) | not)", strings.Join(ps, ", "))
	}
	q := fmt.Sprintf(`[%s] | group_by(.f[%d])[] | if %s then %s else %s end`, rows, vi.val, grouped, each, single)
	if len(firsts) > 0 {
		q = fmt.Sprintf(`{%s} as $n | %s`, strings.Join(firsts, ", "), q)
	}
	return fmt.Sprintf(`[%s] | sort_by(.key)[] | "\(.key)\t\(.value)"`, q)
}

// valueNumbersLine is the extremes of the numbers among the values of a
// name/value table's value column, each with the name of its row: gcc
// -Q's "--param=max-vartrack-size= 50000000" is the largest of 312
// numbers among 941 values ([enabled], a level, a number). The values of
// such a column are mostly words, so the column's own line (colStat.line)
// names no number; "" when fewer than 10 values are numbers (or they mix
// units). The largest maxTopRows+1 distinct values and the smallest, the
// first row of each.
func (cp *colProfile) valueNumbersLine(id, val int) string {
	c := cp.cols[val]
	if c.numeric < 10 || c.mixed || c.units || len(c.top) == 0 {
		return ""
	}
	name := func(l posLine) string {
		f := cp.split.fields(l.text)
		if len(f) <= id {
			return "?"
		}
		return cut(f[id], indexIDCut)
	}
	list := func(ts []topRow) string {
		var parts []string
		for _, t := range ts {
			parts = append(parts, fmt.Sprintf("%s (%s)", t.raw, name(t.l)))
		}
		return strings.Join(parts, ", ")
	}
	if len(c.bottom) > 0 && slices.ContainsFunc(c.top, func(t topRow) bool { return t.raw == c.bottom[0].raw }) {
		// The smallest is among the largest: top holds every distinct
		// number, written once (not "largest 5; smallest 5").
		if len(c.top) == 1 {
			return fmt.Sprintf("  %s, numbers in %s of %s rows, all of them %s (the first row)",
				c.name, commas(c.numeric), commas(c.rows), list(c.top))
		}
		return fmt.Sprintf("  %s, numbers in %s of %s rows, all %d distinct values, largest first: %s (each value's first row)",
			c.name, commas(c.numeric), commas(c.rows), len(c.top), list(c.top))
	}
	return fmt.Sprintf("  %s, numbers in %s of %s rows: largest %s; smallest %s (each value's first row)",
		c.name, commas(c.numeric), commas(c.rows), list(c.top), list(c.bottom))
}

// recTopValues is the values of a name/value table counted per record.
const recTopValues = 3

// recValues is what a record's line says of the rows in it: the number
// of its rows with each of the table's most frequent values (gcc -Q's
// sections: "column 2: [enabled] 151, [disabled] 86" of the warnings),
// exact, those it has; "" for a table that is not read by value or a
// record without such rows.
func (tc *textCands) recValues(r *textRecord) string {
	vi := tc.nameValueIndex()
	if vi == nil {
		return ""
	}
	counts := map[string]int{}
	i := sort.Search(len(vi.rows), func(i int) bool { return vi.rows[i].pos >= r.start })
	for ; i < len(vi.rows) && vi.rows[i].pos <= r.end; i++ {
		counts[vi.rows[i].val]++
	}
	var parts []string
	for _, v := range vi.top {
		if n := counts[v]; n > 0 {
			parts = append(parts, shownValue(v)+" "+commas(n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("; %s: %s", tc.p.cols.cols[vi.val].name, strings.Join(parts, ", "))
}

// nameValueIndex is the index by value of a name/value table (made once),
// or nil when the text is no such table.
func (tc *textCands) nameValueIndex() *valueIndex {
	if tc.valIndexDone {
		return tc.valIndex
	}
	tc.valIndexDone = true
	cp := tc.p.cols
	if cp == nil || cp.rows == 0 {
		return nil
	}
	id, val, ok := cp.nameValue(cp.indexColumns())
	if !ok {
		return nil
	}
	// The first lines are shown before the index (text.go's headFrom):
	// their rows are not listed as entries of their own.
	inHead := map[int]bool{}
	if tc.p.recs == nil || !tc.p.recs.short() {
		for _, l := range tc.p.head[:min(10, len(tc.p.head))] {
			inHead[l.pos] = true
		}
	}
	tc.valIndex = tc.valueIndexOf(id, val, inHead)
	return tc.valIndex
}
