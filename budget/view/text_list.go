package view

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// More of a column of names, and the index of a table's rows.
//
// A column whose values are names (a list of packages, paths, symbols)
// has too many values to list, but a reader asks how many there are, how
// many differ, which repeat, how many share a start (lib…, python3-…,
// pg_toast_…) or an end (…-dev, …_index), how many carry a mark before
// the name (apt-cache rdepends' "|" of an alternative), and whether a
// given name is there. Counted exactly over every row, from the column's
// value counts (while at most maxColValues distinct values):
//
//   - marks: rows by the character before the name, one of markChars
//     (at most 4 kinds of marks);
//   - repeats: the values in more than one row, how many rows they hold,
//     the most repeated;
//   - shared starts and ends: the prefixes (suffixes) of at least 3
//     characters where the values branch (two values differ right after
//     it), made of whole words (see wordPart), held by at least 3 rows
//     and 2% of them, not by every row; the
//     best by rows × length (twice for a part that ends at a '-', '_',
//     '.', '/' or ':'), leaving out one that a better one covers to 90%;
//     counted on the names without their mark;
//   - forms: rows by the value with each number written '#' (a run of
//     digits not after a letter: "flag.go:#:" of go tool cover -func, the
//     functions per file), when
//     the forms are at most a quarter of the values.
//
// The index of a table lists its rows densely, one line each: the
// row's identity (the first column whose every value is its own and a
// name: not a number, 90% with a letter, not a time; else one nine rows
// in ten have and three in four have their own), whole up to 100
// characters, and at most three short telling columns (of few values
// only when they are short: a kind's letter), each cut at 40
// characters, but the rows among the first 10 lines (shown before); a
// list's index is its values (cut at 120), 40 to a line. The rows come
// in chunks (20 rows of a table, 40 values of a list) in line order,
// more at each priority, so a larger budget shows a superset; a
// chunk's rows are read again only when the fill reaches it.

const (
	maxIndexRows  = 4000 // rows the index lists at most
	indexChunk    = 20   // rows of a table per index candidate
	listChunk     = 40   // values of a list per index candidate
	indexCellCut  = 40   // an index cell is cut to this many characters
	indexIDCut    = 100  // and the row's identity (its first cell) to this many
	listCellCut   = 120  // a list's value in the index is cut to this many
	maxMarkKinds  = 4    // marks counted before names
	maxSharedPart = 24   // the longest shared start or end looked for
	minRunRows    = 3    // rows in a row with the same cells the index writes as one line
)

// markChars are the marks a name may carry before it ("|" of an
// alternative, "*" of the current one, "+" and "-" of a change).
const markChars = "|!*+-~^=<>?#%&"

// leadMark is the mark v starts with (one of markChars, before a letter
// or a digit), or "".
func leadMark(v string) string {
	if len(v) < 2 || strings.IndexByte(markChars, v[0]) < 0 {
		return ""
	}
	if !isAlnumByte(v[1]) {
		return ""
	}
	return v[:1]
}

// markLine is " rows by the mark before the name: "|" 719; 161 rows
// without one" for a column of names where 3 rows or more have one, of at
// most maxMarkKinds kinds; "" otherwise.
func (c *colStat) markLine() string {
	if c.overflow || c.isNumber() || len(c.values) <= shownColValues {
		return ""
	}
	marks := map[string]int{}
	with := 0
	names := map[string]struct{}{}
	for v, n := range c.values {
		m := leadMark(v)
		names[v[len(m):]] = struct{}{}
		if m == "" {
			continue
		}
		marks[m] += n
		with += n
		if len(marks) > maxMarkKinds {
			return ""
		}
	}
	if with < 3 {
		return ""
	}
	ms, _ := byCount(marks)
	var parts []string
	for _, m := range ms {
		parts = append(parts, fmt.Sprintf("%q %s", m.k, commas(m.n)))
	}
	s := fmt.Sprintf("  %s, rows by the mark before the name (a first character |, !, *, +, -, ~, ^, =, <, >, ?, #, %% or &): %s", c.name, strings.Join(parts, ", "))
	if rest := c.rows - with; rest > 0 {
		s += fmt.Sprintf("; %s rows without one", commas(rest))
	}
	return s + fmt.Sprintf("; without the mark, %s distinct names", commas(len(names)))
}

// repeatLine is " values in more than one row: 111 values in 240 rows;
// most repeated: a 4, b 3, …" for a column of many values (not listed by
// its profile line) where some repeat; "" otherwise.
func (c *colStat) repeatLine() string {
	if c.overflow || c.isNumber() || len(c.values) <= shownColValues || c.valuesListed(c.rows) {
		return ""
	}
	vs := c.sortedValues()
	if vs[0].n < 2 {
		return ""
	}
	nv, nr := 0, 0
	var parts []string
	for _, x := range vs {
		if x.n < 2 {
			break
		}
		nv++
		nr += x.n
		if len(parts) < shownColValues {
			parts = append(parts, fmt.Sprintf("%q %s", cut(x.k, 60), commas(x.n)))
		}
	}
	return fmt.Sprintf("  %s, values in more than one row: %s values in %s rows (the other %s values one row each); most repeated: %s",
		c.name, commas(nv), commas(nr), commas(len(vs)-nv), strings.Join(parts, ", "))
}

// sharedGroup is a shared start (or end) of values and its rows.
type sharedGroup struct {
	part     string
	rows     int
	distinct int
}

// sharedParts are the column's shared starts (end false) or ends (end
// true), best first (see the top of this file); nil when none.
func (c *colStat) sharedParts(end bool) []sharedGroup {
	if c.overflow || c.isNumber() || len(c.values) <= shownColValues {
		return nil
	}
	type nv struct {
		s string
		n int
	}
	var vs []nv
	total := 0
	for v, n := range c.values {
		v = v[len(leadMark(v)):]
		if end {
			v = reverseBytes(v)
		}
		vs = append(vs, nv{v, n})
		total += n
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].s < vs[j].s })
	minRows := max(3, total/50)
	var cands []sharedGroup
	for L := 3; L <= maxSharedPart; L++ {
		for i := 0; i < len(vs); {
			if len(vs[i].s) < L {
				i++
				continue
			}
			p := vs[i].s[:L]
			next := func(s string) int { // the byte after the prefix, or -1
				if len(s) > L {
					return int(s[L])
				}
				return -1
			}
			j, rows, branch := i, 0, false
			for j < len(vs) && strings.HasPrefix(vs[j].s, p) {
				rows += vs[j].n
				if next(vs[j].s) != next(vs[i].s) {
					branch = true
				}
				j++
			}
			if j-i >= 2 && branch && rows >= minRows && rows < total {
				part := p
				if end {
					part = reverseBytes(p)
				}
				if utf8.ValidString(part) && strings.TrimSpace(part) == part && wordPart(part, end) {
					cands = append(cands, sharedGroup{part, rows, j - i})
				}
			}
			i = j
		}
	}
	score := func(g sharedGroup) int {
		n := g.rows * len(g.part)
		// A part that ends (a start) or starts (an end) at a '-', '_',
		// '.', '/' or ':' is a word of the names, worth twice.
		b := g.part[len(g.part)-1]
		if end {
			b = g.part[0]
		}
		if strings.IndexByte("-_./:", b) >= 0 {
			n *= 2
		}
		return n
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := score(cands[i]), score(cands[j])
		if a != b {
			return a > b
		}
		return cands[i].part < cands[j].part
	})
	var out []sharedGroup
	for _, g := range cands {
		if len(out) == shownColValues {
			break
		}
		covered := false
		for _, o := range out {
			// A start without a delimiter ("lib") is not split further
			// by its letters ("libx").
			if !end && strings.HasPrefix(g.part, o.part) && indexDelim(g.part, 0) < 0 {
				covered = true
				break
			}
			// A better group covers this one (its part extends this
			// one's, with nearly all of its rows).
			nested := strings.HasPrefix(o.part, g.part)
			if end {
				nested = strings.HasSuffix(o.part, g.part)
			}
			if nested && 10*o.rows >= 9*g.rows {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].rows > out[j].rows })
	return out
}

// partDelims end the words of names ("python3-", "pg_toast_", "-dev",
// "--param=" of gcc's options, "BenchmarkCRC32/poly=" of a sub-benchmark).
const partDelims = "-_./:="

// wordPart reports whether p is a start (end false) or an end of names
// made of whole words: it ends (an end: starts) at a delimiter without a
// digit before (after) it, or (a start only) it has no delimiter at all
// ("lib" of libfoo, libbar) and does not end in a digit.
func wordPart(p string, end bool) bool {
	if end {
		return delimAt(p, 0) && !isDigitByte(p[1]) && indexDelim(p, 1) < 0
	}
	last := len(p) - 1
	if delimAt(p, last) {
		return !isDigitByte(p[last-1])
	}
	return indexDelim(p, 0) < 0 && !isDigitByte(p[last])
}

// delimAt reports whether p[i] ends a word of names: a byte of
// partDelims, but an '=' inside {labels} or quotes, which assigns a
// label its value (prometheus' 'up{instance="h0:9100"}': its names
// share the start 'up{instance="h', not 'up{instance=').
func delimAt(p string, i int) bool {
	c := p[i]
	if strings.IndexByte(partDelims, c) < 0 {
		return false
	}
	if c != '=' {
		return true
	}
	depth, quotes := 0, 0
	for j := 0; j < i; j++ {
		switch p[j] {
		case '{':
			depth++
		case '}':
			depth = max(0, depth-1)
		case '"':
			quotes++
		}
	}
	if depth > 0 || quotes%2 == 1 {
		return false
	}
	for j := len(p) - 1; j > i; j-- { // (an end: the '{' is cut off)
		switch p[j] {
		case '}':
			depth++
		case '{':
			depth = max(0, depth-1)
		case '"':
			quotes++
		}
	}
	return depth == 0 && quotes%2 == 0
}

// indexDelim is the index of the first byte of p from from on that ends
// a word of names (delimAt), or -1.
func indexDelim(p string, from int) int {
	for i := from; i < len(p); i++ {
		if delimAt(p, i) {
			return i
		}
	}
	return -1
}

func reverseBytes(s string) string {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		b[len(s)-1-i] = s[i]
	}
	return string(b)
}

// sharedLine is the line of the column's shared starts or ends, or "".
func (c *colStat) sharedLine(end bool) string {
	gs := c.sharedParts(end)
	if len(gs) < 2 {
		return "" // one group of nearly every row says little
	}
	var parts []string
	for _, g := range gs {
		p := g.part + "…"
		if end {
			p = "…" + g.part
		}
		s := fmt.Sprintf("%q %s", p, commas(g.rows))
		if g.distinct < g.rows {
			s += fmt.Sprintf(" (%s distinct)", commas(g.distinct))
		}
		parts = append(parts, s)
	}
	what := "start"
	if end {
		what = "end"
	}
	return fmt.Sprintf("  %s, rows by a shared %s (of the names without a mark; groups may nest): %s", c.name, what, strings.Join(parts, ", "))
}

// maskDigits writes each run of digits of v that is a number of its own
// (not after a letter: "int64", "spf13" stay) as '#'.
func maskDigits(v string) string {
	if strings.IndexAny(v, "0123456789") < 0 {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if isDigitByte(v[i]) && (i == 0 || !isAlnumByte(v[i-1])) {
			b.WriteByte('#')
			for i+1 < len(v) && isDigitByte(v[i+1]) {
				i++
			}
			continue
		}
		b.WriteByte(v[i])
		for isDigitByte(v[i]) && i+1 < len(v) && isDigitByte(v[i+1]) {
			i++
			b.WriteByte(v[i])
		}
	}
	return b.String()
}

// formLine is " rows by the value's form (each run of digits as #): …"
// for a column of many values with digits whose forms are at most a
// quarter of its values, the largest in 3 rows or more; "" otherwise.
func (c *colStat) formLine() string {
	if c.overflow || c.isNumber() || len(c.values) <= shownColValues {
		return ""
	}
	forms := map[string]int{}
	fdist := map[string]int{}
	for v, n := range c.values {
		f := maskDigits(v)
		forms[f] += n
		fdist[f]++
	}
	if len(forms) < 2 || 4*len(forms) > len(c.values) {
		return ""
	}
	fs, _ := byCount(forms)
	if fs[0].n < 3 {
		return ""
	}
	var parts []string
	rest := c.rows
	for i, f := range fs {
		if i == shownColValues {
			parts = append(parts, fmt.Sprintf("%s other forms in %s rows", commas(len(fs)-i), commas(rest)))
			break
		}
		parts = append(parts, fmt.Sprintf("%q %s", cut(f.k, 80), commas(f.n)))
		rest -= f.n
	}
	return fmt.Sprintf("  %s, rows by the value's form (each number written #): %s", c.name, strings.Join(parts, ", "))
}

// nameExtras are the column's lines of marks, repeats, shared starts and
// ends, and forms, each "" when it says nothing.
func (c *colStat) nameExtras() [5]string {
	starts := ""
	if c.pathsOf() == nil {
		starts = c.sharedLine(false) // a column of paths is counted by directory
	}
	return [5]string{c.markLine(), c.repeatLine(), starts, c.sharedLine(true), c.formLine()}
}

// indexColumns are the columns of the index of a table: its identity and
// at most three short telling columns (values of 24 characters or fewer
// on average, not one value in every row; a column of a few values the
// profile lists only when they are 8 characters or fewer on average).
// nil when no column names every row.
func (cp *colProfile) indexColumns() []int {
	if cp.split.mode == byLine {
		return []int{0}
	}
	id := -1
	for i, c := range cp.cols {
		if !c.isNumber() && !c.capped && len(c.distinct) == cp.rows && c.rows == cp.rows && 10*c.lettered >= 9*c.rows {
			id = i
			break
		}
	}
	if id < 0 {
		// Else a name nine rows in ten have, three in four their own
		// (go version -m of three binaries: a module is a dependency of
		// more than one; its build settings repeat).
		for i, c := range cp.cols {
			if !c.isNumber() && !c.capped && 4*len(c.distinct) >= 3*cp.rows && 10*c.rows >= 9*cp.rows && 10*c.lettered >= 9*c.rows {
				id = i
				break
			}
		}
	}
	if id < 0 {
		// Else a name each run of rows has its own (a table printed in
		// sections, the same rows under each header: benchstat's
		// sec/op, B/op and allocs/op tables of one package): no name
		// in more rows than there are runs, every row with one.
		// Only in a table of numbers (a column of them in nine rows in
		// ten), every run a section of minRunRows rows or more, and as
		// many names as rows in its longest run.
		longest, numbers := cp.sections()
		for i, c := range cp.cols {
			if longest > 0 && numbers && !c.isNumber() && !c.capped && !c.overflow && c.rows == cp.rows && 10*c.lettered >= 9*c.rows &&
				len(c.distinct) >= longest && maxCount(c.values) <= cp.runs {
				id = i
				break
			}
		}
	}
	if id < 0 || cp.rows < 3 {
		return nil
	}
	out := []int{id}
	left := 3 // the telling columns the index may still take, or pass over
	for i, c := range cp.cols {
		if left == 0 {
			break
		}
		if i == id || c.rows == 0 || c.sumLen > 24*c.rows || len(c.distinct) < 2 {
			continue
		}
		if !c.overflow && 20*maxCount(c.values) >= 19*c.rows {
			// One value in 19 rows of 20 or more (ls -l's owner
			// "root", its link count 1): the profile states it, the
			// rows chosen by their columns show the rare others; in
			// every index line it is a word that tells no row apart.
			// It takes its place among the three (a column after it
			// is not listed instead), so the lines are shorter and
			// the index lists more rows.
			left--
			continue
		}
		if !c.isNumber() && !c.overflow && len(c.values) <= shownColValues && c.sumLen > 8*c.rows {
			continue // longer words of a few values: their counts are in the profile
		}
		if i > 0 && spreadMark(cp.cols[i-1]) {
			continue // the spread of the value before ("36.23n ± 97%"): the value tells the row
		}
		out = append(out, i)
		left--
	}
	return out
}

// indexCandidates adds the index of the table's rows (section tsIndex)
// in chunks of consecutive rows (indexChunk of a table, listChunk of a
// list), in the order of indexChunkOrder; the returned function adds
// the chunks [from, to) of that order at prio. A chunk's text is made
// when the fill reaches it: the index reads again the rows of the
// chunks shown, not every row of the text. The chosen chunks render in
// line order.
func (tc *textCands) indexCandidates() func(prio, from, to int) {
	if tc.p == nil {
		return func(int, int, int) {}
	}
	cp := tc.p.cols
	if cp == nil || cp.rows < 2*indexChunk {
		return func(int, int, int) {}
	}
	cols := cp.indexColumns()
	if cols == nil {
		return func(int, int, int) {}
	}
	list := cp.split.mode == byLine
	if vi := tc.nameValueIndex(); vi != nil {
		// A name/value table: its rows by value (text_valindex.go).
		return tc.valueIndexCandidates(vi)
	}
	// The first lines are shown before the index (text.go's headFrom,
	// at a better or the same priority): their rows are not listed again.
	inHead := map[int]bool{}
	if !list && (tc.p.recs == nil || !tc.p.recs.short()) {
		for _, l := range tc.p.head[:min(10, len(tc.p.head))] {
			inHead[l.pos] = true
		}
	}
	chunk, cellCut := indexChunk, indexCellCut
	if list {
		chunk, cellCut = listChunk, listCellCut
	}
	// The first line of each chunk (every chunk/indexChunk-th start of
	// the profile) and its byte offset, in one pass over the newlines.
	per := chunk / indexChunk
	var starts []int
	for i := 0; i < len(cp.starts); i += per {
		starts = append(starts, cp.starts[i])
	}
	n := len(starts)
	offs := make([]int, n)
	data := tc.in.Data
	for j, line, off := 0, 0, 0; j < n; {
		if line == starts[j] {
			offs[j] = off
			j++
			continue
		}
		k := bytes.IndexByte(data[off:], '\n')
		if k < 0 {
			return func(int, int, int) {} // cannot happen: the profile read these lines
		}
		off += k + 1
		line++
	}
	rowsIn := func(c int) int { return min(chunk, cp.rows-c*chunk) }
	// shown counts the rows of each chunk the index lists (its rows less
	// those among the first lines).
	shown := make([]int, n)
	for c := range shown {
		shown[c] = rowsIn(c)
	}
	for pos := range inHead {
		if c := sort.SearchInts(starts, pos+1) - 1; c >= 0 {
			for _, l := range tc.p.head {
				if l.pos == pos && pos != cp.split.headPos && cp.split.fields(l.text) != nil {
					shown[c]--
				}
			}
		}
	}
	render := func(c int) string {
		var es []posLine
		var rests []string // per entry, its cells after the identity
		var ids []string   // per entry, its identity before the cut
		var ords []int     // per entry, its row's number in the chunk
		rows := 0
		textLinesWhile(data[offs[c]:], func(i int, line string) bool {
			pos := starts[c] + i
			f := cp.split.fields(line)
			if f == nil || pos == cp.split.headPos {
				return true
			}
			rows++
			if !inHead[pos] {
				var cells []string
				for j, i := range cols {
					if i < len(f) {
						v := f[i]
						switch {
						case cp.split.absentAt(i):
							v = absentCell // a key the line lacks (field lines)
						case v == "":
							v = `""`
						}
						w := cellCut
						if j == 0 && !list {
							w = indexIDCut // the name a row is looked up by, whole
						}
						cells = append(cells, cut(v, w))
					}
				}
				es = append(es, posLine{pos, strings.Join(cells, " ")})
				rests = append(rests, quotedCells(cells[min(1, len(cells)):]))
				id := ""
				if len(cols) > 0 && cols[0] < len(f) {
					id = f[cols[0]]
				}
				ids, ords = append(ids, id), append(ords, rows)
			}
			return rows < rowsIn(c)
		})
		if list {
			var vs []string
			for _, e := range es {
				vs = append(vs, e.text)
			}
			return fmt.Sprintf("  %d-%d\t%s", es[0].pos, es[len(es)-1].pos, strings.Join(vs, " "))
		}
		var ls []string
		for i := 0; i < len(es); {
			// (rows in a row: no row among the first lines between)
			j := i + 1
			for j < len(es) && rests[j] == rests[i] && ords[j] == ords[j-1]+1 {
				j++
			}
			if j-i < minRunRows || rests[i] == "" {
				ls = append(ls, fmt.Sprintf("  %d\t%s", es[i].pos, es[i].text))
				i++
				continue
			}
			// A run of rows with the same cells (benchstat's B/op rows
			// of "0.000 0.000 ~"): the cells once, quoted, then the
			// names, joined by ", " when a name holds a space (tested
			// before its cut, whose marker holds one).
			var names []string
			join := " "
			for k := i; k < j; k++ {
				names = append(names, cut(ids[k], indexIDCut))
				if strings.Contains(ids[k], " ") {
					join = ", "
				}
			}
			ls = append(ls, fmt.Sprintf("  %d-%d\t%d rows with %s: %s", es[i].pos, es[j-1].pos, j-i, rests[i], strings.Join(names, join)))
			i = j
		}
		return strings.Join(ls, "\n")
	}
	tc.indexCols, tc.indexN = cols, map[int]int{}
	// A table's first chunk comes first, then its middle; a list's
	// first chunks (the values right after the first lines, 200 at the
	// priority of a table's first 40 rows) stay in line order: its
	// values are read in sequence (what comes before a name).
	head := 1
	if list {
		head = 200 / listChunk
	}
	order := indexChunkOrder(n, head)
	return func(prio, from, to int) {
		for k := from; k < min(to, n, maxIndexRows/chunk); k++ {
			c := order[k]
			if shown[c] == 0 {
				continue
			}
			// The key is the chunk's first line: the chosen chunks
			// render in line order.
			tc.indexN[starts[c]] = shown[c]
			tc.v.Add(Candidate{Section: tc.sec[tsIndex], Key: starts[c], Record: -1, Prio: prio, Reason: "index",
				lazy: &lazyText{make: func() string { return render(c) }}})
		}
	}
}

// indexChunkOrder is the order the index offers its n chunks in: the
// first h in line order (the rows right after the first lines: in a
// list of packages in name order the well-known names sit there), then
// the others coarse to fine from the middle on (the middle, the
// quarters, ...), so that the index of any budget reaches into every
// part of the table, not only its start: a record looked up in the
// middle of a long table was in no index at 4,000 tokens, whose 70 rows
// were the table's first (session 20). The order does not depend on
// the budget: a larger budget lists a superset.
func indexChunkOrder(n, h int) []int {
	h = min(h, n)
	out := make([]int, 0, n)
	for c := 0; c < h; c++ {
		out = append(out, c)
	}
	// The others from the middle on: the bit-reversed order of a power
	// of two at least m+1 (0, 1/2, 1/4, 3/4, ...) scaled to m+1, each
	// chunk once, less the first (the chunk right after the first
	// ones, offered already).
	m := n - h
	size := 1
	for size < m+1 {
		size <<= 1
	}
	seen := make([]bool, m+1)
	for _, r := range spreadIndexes(size) {
		k := r * (m + 1) / size
		if k > 0 && !seen[k] {
			seen[k] = true
			out = append(out, h+k-1)
		}
	}
	return out
}

// indexHead is the header of the index section.
func (tc *textCands) indexHead(cs []Candidate) string {
	if tc.nameValueIndex() != nil {
		return tc.valueIndexHead(cs)
	}
	cp := tc.p.cols
	n := 0
	for _, c := range cs {
		n += tc.indexN[c.Key]
	}
	if cp.split.mode == byLine {
		return fmt.Sprintf("the values in line order (showing %s of %s; first-last line, then the values, space-separated):\n", commas(n), commas(cp.rows))
	}
	var names []string
	for _, i := range tc.indexCols {
		names = append(names, cp.cols[i].name)
	}
	runs := ""
	for _, c := range cs {
		if strings.Contains(c.text(), " rows with \"") {
			runs = fmt.Sprintf("; first-last<TAB>K rows with \"%s\": the K rows in a row whose other cells are those, by their %s", strings.Join(names[1:], `" "`), names[0])
			break
		}
	}
	return fmt.Sprintf("index of the rows in line order (showing %s of %s; line<TAB>%s, cells cut at %d characters, the first at %d%s):\n", commas(n), commas(cp.rows), strings.Join(names, " "), indexCellCut, indexIDCut, runs)
}

// commaPartsLines are the lines of a column of descriptions by their
// first and their last part between ", " (file(1)'s "ELF 64-bit LSB
// shared object, x86-64, …, stripped": how many are shared objects, how
// many are not stripped), when a third of its rows or more have such parts
// and the first parts repeat (at most half as many as the values); nil
// otherwise, and for a column whose values were not all counted.
func (c *colStat) commaPartsLines() []string {
	if c.overflow || c.isNumber() || len(c.values) <= shownColValues {
		return nil
	}
	firsts, lasts := map[string]int{}, map[string]int{}
	with := 0
	for v, n := range c.values {
		i, j := strings.Index(v, ", "), strings.LastIndex(v, ", ")
		if i < 0 || strings.ContainsAny(v[:i], "([{\"'=") {
			continue // the arguments of a call, not parts of a description
		}
		with += n
		firsts[v[:i]] += n
		lasts[v[j+2:]] += n
	}
	if 3*with < c.rows || 2*len(firsts) > len(c.values) {
		return nil
	}
	var out []string
	for _, p := range []struct {
		what string
		m    map[string]int
	}{{"first part (before the first \", \")", firsts}, {"last part (after the last \", \")", lasts}} {
		out = append(out, fmt.Sprintf("  %s, rows by the value's %s: %s", c.name, p.what, listCounts(p.m, with, c.rows, "parts", "without one", true)))
	}
	return out
}

// quotedCells writes the cells of an index line after its identity, each
// quoted as Go (and jq) quote a string ("build", "0.000" "~"); "" when none.
func quotedCells(cells []string) string {
	qs := make([]string, len(cells))
	for i, c := range cells {
		if c == `""` {
			c = "" // (an empty cell, written "" in the index)
		}
		qs[i] = strconv.Quote(c)
	}
	return strings.Join(qs, " ")
}

// maxCount is the largest count of m (0 when empty).
func maxCount(m map[string]int) int {
	most := 0
	for _, n := range m {
		most = max(most, n)
	}
	return most
}

// spreadMark reports whether every row of column c holds the same mark
// of a spread ("±", "+-", "+/-"): the column after it is the spread of
// the value before it (benchstat's "36.23n ± 97%", hyperfine's and
// criterion's "1.2 ms ± 0.1 ms").
func spreadMark(c *colStat) bool {
	if c.overflow || len(c.values) != 1 {
		return false
	}
	for v := range c.values {
		return v == "±" || v == "+-" || v == "+/-"
	}
	return false
}
