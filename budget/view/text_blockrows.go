package view

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/toolcompact/compact/schemas/linetemplate"
)

// Records of several lines as one dense line each (session 18): a
// record that starts with a line of one template and holds one line of
// each of a few other templates ("# User@Host ...", "# Thread_id: 62
// ...", "# Query_time: 0.012215 ...", then its statement: a slow-log
// entry; "Count: 66 Time=..." then the statement: a mysqldumpslow
// group) is shown as the values that vary of those key lines, in a
// fixed column order named once, then its other lines after a "|"
// (the statement that names it). A lookup by the statement then finds
// its numbers on the same line.
//
// The records are found from the templates' row samples
// (text_tmplrows.go): a template's sampled lines start candidate
// records, each running to the next line of the template, a blank line
// or maxBlockLines; the templates of about as many lines as the start
// template that occur exactly once in nearly every sampled record are
// its key lines, and the record starts at the earliest of them.

// Bounds of records shown as one line.
const (
	maxBlockLines  = 16  // lines of a record read at most
	maxBlockOthers = 2   // other lines shown per record
	blockOtherCut  = 160 // characters an other line is cut to
	blockTries     = 4   // templates tried as record starts
)

// blockRows is the records of several lines shown one a line.
type blockRows struct {
	head  *tmplRows  // the template that starts a record, and its sample
	keys  []*cluster // the key templates, in record order (head first)
	vary  [][]int    // per key, its positions whose values vary
	names []string   // the columns' names, in order
	rows  []string   // per sampled record, its line
	last  []int      // per sampled record, its last line
	named []bool     // per sampled record, whether it has other lines
	// common are the lines the same in most sampled records, left out
	// of their lines.
	common []string
	order  []int
	sec    int
}

// blockLines reads, for each start (sorted line positions), the lines
// of its record: from the start up to a blank line, the next start, or
// maxBlockLines.
func blockLines(data []byte, starts []int) [][]string {
	out := make([][]string, len(starts))
	k, next := -1, 0 // the record being read, the next start
	for pos := 0; len(data) > 0 && (next < len(starts) || k >= 0); pos++ {
		var line []byte
		line, data = nextLine(data)
		if next < len(starts) && pos == starts[next] {
			k, next = next, next+1
		}
		if k < 0 {
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 || len(out[k]) >= maxBlockLines {
			k = -1
			continue
		}
		s := string(bytes.TrimSuffix(line, []byte{'\r'}))
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		out[k] = append(out[k], s)
	}
	return out
}

// linesBefore returns, for each position of at (ascending), the line
// just before it ("" for position 0).
func linesBefore(data []byte, at []int) []string {
	out := make([]string, len(at))
	k := 0
	for k < len(at) && at[k] <= 0 {
		k++
	}
	for pos := 0; len(data) > 0 && k < len(at); pos++ {
		var line []byte
		line, data = nextLine(data)
		for k < len(at) && at[k] == pos+1 {
			out[k] = strings.TrimSuffix(string(line), "\r")
			k++
		}
	}
	return out
}

// leadLine finds the form of a line that heads the record after it
// ("# Time: 261127  7:44:38" before some of a slow log's "# User@Host"
// entries): a form of no key line that stands inside the records read
// at least twice, each time just before the next record's first line
// and never just after a key line (a record's own last line, its
// statement or "COMMIT;", follows its "SET timestamp=" line). Such a
// line is shown with the record after it, not as the last line of the
// one before (REVIEW18 R6). It returns nil when there is no such form,
// and otherwise the form and the line before each record read (when of
// the form, else "").
func leadLine(data []byte, pos []int, blocks [][]string, h *cluster, all []*cluster) ([]string, []string) {
	isKey := func(toks []string) bool {
		for _, c := range all {
			if c.matches(toks) {
				return true
			}
		}
		return false
	}
	var lead []string
	seen := 0
	for k, b := range blocks {
		for j := 1; j < len(b); j++ {
			if !startsNext(pos, blocks, h, k, j) {
				continue
			}
			toks := maskedTokens(b[j])
			if isKey(toks) || isKey(maskedTokens(b[j-1])) {
				continue
			}
			if lead == nil {
				lead = toks
			}
			if slices.Equal(toks, lead) {
				seen++
			}
		}
	}
	if seen < 2 {
		return nil, nil
	}
	for k, b := range blocks {
		for j := 1; j < len(b); j++ {
			if slices.Equal(maskedTokens(b[j]), lead) && (!startsNext(pos, blocks, h, k, j) || isKey(maskedTokens(b[j-1]))) {
				return nil, nil
			}
		}
	}
	heads := linesBefore(data, pos)
	for i, l := range heads {
		if !slices.Equal(maskedTokens(l), lead) {
			heads[i] = ""
		}
	}
	return lead, heads
}

// startsNext reports whether line j of record k (of the records read
// at pos) is just before a record's first line: the next line of the
// record read is one of h, or the record read ends there and the next
// record read starts on the next line.
func startsNext(pos []int, blocks [][]string, h *cluster, k, j int) bool {
	b := blocks[k]
	if j+1 < len(b) {
		return h.matches(maskedTokens(b[j+1]))
	}
	return k+1 < len(pos) && pos[k]+j+1 == pos[k+1]
}

// maskedTokens are the template tokens of a line, as the miner reads it.
func maskedTokens(line string) []string {
	toks := strings.Fields(string(linetemplate.Append(nil, line)))
	keepCodes(toks, line)
	return toks
}

// matches reports whether masked tokens toks are of template c.
func (c *cluster) matches(toks []string) bool {
	if len(toks) != len(c.tokens) {
		return false
	}
	for i, t := range toks {
		if c.tokens[i] != t && c.tokens[i] != tmplAny {
			return false
		}
	}
	return true
}

// blockRecords finds records of several lines (see above), or nil.
func (tc *textCands) blockRecords() *blockRows {
	p := tc.p
	if p == nil || p.rows == nil || tc.json || p.kv != nil || p.recs.short() || tc.contentLines() ||
		p.cols != nil && p.cols.rows > 0 {
		return nil
	}
	sampled := func(c *cluster) *rowSample {
		s := p.rows.by[c]
		if s == nil || s.off || len(s.pos) < minTmplRows/2 {
			return nil
		}
		return s
	}
	tries := 0
	for _, t := range tc.tmpls {
		if t.count < minTmplRows || tries == blockTries {
			break
		}
		if sampled(t) == nil {
			continue
		}
		tries++
		// Templates of about as many lines.
		var near []*cluster
		for _, c := range tc.tmpls {
			if c != t && 10*c.count >= 9*t.count && 10*c.count <= 11*t.count {
				near = append(near, c)
			}
		}
		if len(near) == 0 {
			continue
		}
		keys := tc.blockKeys(t, near)
		if len(keys) < 2 {
			continue // a record of several lines of fixed forms
		}
		// The record starts at the earliest of its key lines.
		h := t
		for _, c := range keys {
			if c.first < h.first && sampled(c) != nil {
				h = c
			}
		}
		if h != t {
			near = near[:0]
			for _, c := range tc.tmpls {
				if c != h && 10*c.count >= 9*h.count && 10*c.count <= 11*h.count {
					near = append(near, c)
				}
			}
			if keys = tc.blockKeys(h, near); len(keys) < 2 {
				continue
			}
		}
		if br := tc.makeBlockRows(h, sampled(h), keys); br != nil {
			return br
		}
	}
	return nil
}

// blockKeys returns the templates of near that occur exactly once in at
// least 9 of 10 of the records that start at h's sampled lines.
func (tc *textCands) blockKeys(h *cluster, near []*cluster) []*cluster {
	s := tc.p.rows.by[h]
	blocks := blockLines(tc.in.Data, s.pos)
	once := make([]int, len(near))
	for _, b := range blocks {
		seen := make([]int, len(near))
		for _, l := range b[min(1, len(b)):] {
			toks := maskedTokens(l)
			if h.matches(toks) {
				break // the next record
			}
			for i, c := range near {
				if c.matches(toks) {
					seen[i]++
					break
				}
			}
		}
		for i, n := range seen {
			if n == 1 {
				once[i]++
			}
		}
	}
	var keys []*cluster
	for i, c := range near {
		if 10*once[i] >= 9*len(blocks) && len(varying(c)) > 0 {
			keys = append(keys, c)
		}
	}
	return keys
}

// varying returns the positions of template c whose values vary (a
// placeholder that holds more than one value).
func varying(c *cluster) []int {
	var out []int
	for i, tk := range c.tokens {
		if !placeholder(tk) {
			continue
		}
		if c.counts != nil && len(c.counts) == len(c.tokens) && c.counts[i] != nil && len(c.counts[i]) == 1 {
			continue
		}
		out = append(out, i)
	}
	return out
}

// makeBlockRows renders the sampled records of head template h with key
// templates keys.
func (tc *textCands) makeBlockRows(h *cluster, s *rowSample, keys []*cluster) *blockRows {
	all := append([]*cluster{h}, keys...)
	br := &blockRows{head: &tmplRows{c: h, s: s}}
	// Key templates in the order their lines come in the first record.
	blocks := blockLines(tc.in.Data, s.pos)
	at := map[*cluster]int{h: -1}
	for i, l := range blocks[0] {
		toks := maskedTokens(l)
		for _, c := range keys {
			if _, ok := at[c]; !ok && c.matches(toks) {
				at[c] = i
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		ai, aok := at[all[i]]
		aj, ajk := at[all[j]]
		if aok != ajk {
			return aok
		}
		return ai < aj
	})
	br.keys = all
	for _, c := range all {
		var vary []int
		shape := make([]string, len(c.tokens))
		copy(shape, c.tokens)
		for i, tk := range c.tokens {
			if !placeholder(tk) {
				continue
			}
			if c.counts != nil && len(c.counts) == len(c.tokens) && c.counts[i] != nil && len(c.counts[i]) == 1 {
				shape[i] = c.counts[i][0].v
				continue
			}
			vary = append(vary, i)
		}
		for _, i := range vary {
			br.names = append(br.names, slotName(shape, i))
		}
		br.vary = append(br.vary, vary)
	}
	// Other lines the same in most records say nothing of one record.
	same := map[string]int{}
	for _, b := range blocks {
		for _, l := range b {
			same[strings.TrimSpace(l)]++
		}
	}
	var common []string
	for l, n := range same {
		if 2*n > len(blocks) && l != "" {
			common = append(common, l)
		}
	}
	sort.Strings(common)
	lead, heads := leadLine(tc.in.Data, s.pos, blocks, h, all)
	for k, b := range blocks {
		vals := make([][]string, len(all))
		var others []string
		var sameOf []int
		more := 0
		end := s.pos[k]
		if lead != nil && heads[k] != "" {
			// The line before the record heads it (its time).
			others = append(others, strings.Join(strings.Fields(heads[k]), " "))
			sameOf = append(sameOf, 0)
		}
		for j, l := range b {
			toks := maskedTokens(l)
			if j > 0 && h.matches(toks) {
				break
			}
			if j > 0 && lead != nil && slices.Equal(toks, lead) && startsNext(s.pos, blocks, h, k, j) {
				break // it heads the next record
			}
			end = s.pos[k] + j
			key := -1
			for ci, c := range all {
				if vals[ci] == nil && c.matches(toks) {
					key = ci
					break
				}
			}
			if key >= 0 {
				raw := rawTokens(l, len(toks))
				v := []string{}
				for _, i := range br.vary[key] {
					if i < len(raw) {
						v = append(v, raw[i])
					}
				}
				vals[key] = v
				continue
			}
			t := strings.Join(strings.Fields(l), " ") // tabs and runs of spaces as one space
			if 2*same[strings.TrimSpace(l)] > len(blocks) {
				continue
			}
			if !slices.ContainsFunc(strings.Fields(l), func(w string) bool { return len(w) > 1 && plainWord(strings.Trim(w, ",;:.()[]'\"`")) }) {
				more++ // no word (hex digits, a "#"): counted, not shown
				continue
			}
			others = append(others, t)
			sameOf = append(sameOf, same[strings.TrimSpace(l)])
		}
		if len(others) > maxBlockOthers {
			// The lines fewest records have (a statement, a time)
			// say most of this one; in their order.
			idx := make([]int, len(others))
			for i := range idx {
				idx[i] = i
			}
			sort.SliceStable(idx, func(a, b int) bool {
				na, nb := sameOf[idx[a]], sameOf[idx[b]]
				if na != nb {
					return na < nb
				}
				return idx[a] > idx[b]
			})
			keep := idx[:maxBlockOthers]
			sort.Ints(keep)
			var kept []string
			for _, i := range keep {
				kept = append(kept, others[i])
			}
			more += len(others) - maxBlockOthers
			others = kept
		}
		for i := range others {
			others[i] = cut(others[i], blockOtherCut)
		}
		var cells []string
		for ci := range all {
			if vals[ci] == nil {
				for range br.vary[ci] {
					cells = append(cells, "-")
				}
				continue
			}
			cells = append(cells, vals[ci]...)
		}
		row := strings.Join(cells, " ")
		if len(others) > 0 {
			row += " | " + strings.Join(others, " | ")
		}
		if more > 0 {
			row += fmt.Sprintf(" [+%d other lines]", more)
		}
		br.rows = append(br.rows, cutLine(row))
		br.named = append(br.named, len(others) > 0)
		br.last = append(br.last, end)
	}
	// Rows that keep most of their records' characters say no more
	// than the lines, which the spread shows.
	rowLen, lineLen := 0, 0
	for k, b := range blocks {
		rowLen += len(br.rows[k])
		for _, l := range b[:br.last[k]-s.pos[k]+1] {
			lineLen += len(strings.TrimSpace(l))
		}
	}
	if 10*rowLen > 6*lineLen {
		return nil
	}
	// Records named by a line of their own first (a statement: the
	// record a lookup names), then the others, each an even spread.
	var named, plain []int
	for _, i := range spreadIndexes(len(br.rows)) {
		if br.named[i] {
			named = append(named, i)
		} else {
			plain = append(plain, i)
		}
	}
	br.order = append(named, plain...)
	br.common = common
	return br
}

// blockRowCandidates adds the records' lines of band lo to hi
// (tmplRowBands).
func (tc *textCands) blockRowCandidates(br *blockRows, lo, hi int) {
	if br == nil {
		return
	}
	for b := lo; b < hi; b++ {
		from := 0
		if b > 0 {
			from = tmplRowBands[b-1].upTo
		}
		for k := from; k < tmplRowBands[b].upTo && k < len(br.order); k++ {
			i := br.order[k]
			pos := br.head.s.pos[i]
			var more []int
			for l := pos + 1; l <= br.last[i]; l++ {
				more = append(more, l)
			}
			tc.v.Add(Candidate{Section: br.sec, Key: pos, Record: pos, More: more, Prio: tmplRowBands[b].prio, Reason: "record row",
				Text: fmt.Sprintf("  %d\t%s", pos, br.rows[i])})
		}
	}
}

// addBlockSection adds the section of the records' lines.
func (tc *textCands) addBlockSection(br *blockRows, order int) {
	if br == nil {
		return
	}
	s := &Section{Coll: tc.c.Path, Order: order, shared: true}
	s.Head = func(ch []Candidate) string {
		if len(ch) == 0 {
			return ""
		}
		for _, c := range ch {
			tc.shown[c.Record] = true
			for _, r := range c.More {
				tc.shown[r] = true
			}
		}
		return tc.blockHead(br, ch)
	}
	br.sec = tc.v.AddSection(s)
}

// blockHead states the records' forms, the columns, how many records
// are shown and the query that lists every record's first line.
func (tc *textCands) blockHead(br *blockRows, ch []Candidate) string {
	var forms []string
	for _, c := range br.keys {
		forms = append(forms, fmt.Sprintf("%q", cut(c.template(), 120)))
	}
	every := ""
	if s := br.head.s; s.stride > 1 || s.seen < br.head.c.count {
		every = fmt.Sprintf(", chosen from every %s record", ordinal(s.stride))
	}
	h := br.head.c
	var common []string
	for _, l := range br.common {
		common = append(common, fmt.Sprintf("%q", cut(l, 80)))
	}
	left := ""
	if len(common) > 0 {
		left = "; not repeated, the lines most records have: " + strings.Join(common[:min(len(common), 8)], ", ")
		if len(common) > 8 {
			left += fmt.Sprintf(" and %d more", len(common)-8)
		}
	}
	s := fmt.Sprintf("the %s records that start with a line of the form %s (lines %d … %d), one a line: the values that vary of its lines of the forms %s, then its other lines after \" | \" (at most %d with a word: those fewest records have)%s (showing %s of %s: those with other lines first, each an even spread%s; in line order), line<TAB>%s | other lines:\n",
		commas(h.count), forms[0], h.first, h.last, strings.Join(forms, ", "), maxBlockOthers, left, commas(len(ch)), commas(h.count), every, strings.Join(br.names, " "))
	if len(ch) < h.count {
		s += fmt.Sprintf("every record's first line: compact artifact query %s --jq %s\n", tc.in.Handle,
			tc.jq(`to_entries[] | select(.value | test(`+jqString(shapeRegexp(h.tokens))+`)) | "\(.key)\t\(.value)"`))
	}
	return s
}
