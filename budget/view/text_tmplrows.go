package view

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Lines of one template as a dense table (session 18): the template is
// stated once, with the positions every line has the same value at
// filled in, then one row per line with only the values of the
// positions that vary, in the line's own order (a sysbench interval
// line "[ 73s ] thds: 12 tps: 722.07 qps: ..." becomes "73s 12 722.07
// ..."). A record looked up by its key (the interval "73s", an
// "icmp_seq=317", a path) is then found beside its values at half the
// tokens of its line, and the rows of a long template are an even
// spread over all its lines (coarse to fine), not its first ones.
//
// The profile pass keeps, per template, an even sample of its lines
// (rowSampler: every stride-th line, the stride doubled whenever the
// sample is full), so memory is bounded by the sample, not the input.

// Bounds of the row samples.
const (
	// maxRowSample is the lines kept per template: more rows than
	// a view of 16,000 tokens shows of one template.
	maxRowSample = 512
	// maxRowLines bounds the lines kept over all templates; a
	// template whose sample would pass it keeps none (no rows).
	maxRowLines = 1 << 14
	// minTmplRows is the fewest lines a template needs for rows: a
	// smaller one is shown by its lines and its values.
	minTmplRows = 16
	// maxRowTokens bounds the tokens of a template shown as rows.
	maxRowTokens = 48
	// maxRowTemplates is the most templates shown as rows.
	maxRowTemplates = 3
)

// rowSample is an even sample of the lines of one template: the lines
// whose index among the template's lines is a multiple of stride.
type rowSample struct {
	pos    []int
	lines  []string
	stride int
	seen   int // lines of the template seen
	off    bool
}

// rowSampler keeps a rowSample per template.
type rowSampler struct {
	by   map[*cluster]*rowSample
	kept int
}

func newRowSampler() *rowSampler { return &rowSampler{by: map[*cluster]*rowSample{}} }

// add notes line pos of template c.
func (r *rowSampler) add(c *cluster, pos int, line string) {
	if r == nil || c == nil {
		return
	}
	s := r.by[c]
	if s == nil {
		s = &rowSample{stride: 1}
		r.by[c] = s
	}
	if s.off {
		return
	}
	if s.seen%s.stride == 0 {
		if r.kept >= maxRowLines {
			r.kept -= len(s.pos)
			s.off, s.pos, s.lines = true, nil, nil
			return
		}
		s.pos = append(s.pos, pos)
		s.lines = append(s.lines, line)
		r.kept++
		if len(s.pos) == maxRowSample {
			// Keep every other line: the stride doubles.
			k := 0
			for i := 0; i < len(s.pos); i += 2 {
				s.pos[k], s.lines[k] = s.pos[i], s.lines[i]
				k++
			}
			for i := k; i < len(s.lines); i++ {
				s.lines[i] = ""
			}
			r.kept -= len(s.pos) - k
			s.pos, s.lines = s.pos[:k], s.lines[:k]
			s.stride *= 2
		}
	}
	s.seen++
}

// tmplRows is one template shown as rows.
type tmplRows struct {
	c     *cluster
	s     *rowSample
	vary  []int    // the template positions whose values vary, in order
	names []string // a name for each, for the section's head
	shape string   // the template with its constant positions filled in
	order []int    // sample indexes, coarse to fine (spreadIndexes)
	sec   int
}

// rowTemplates picks the templates shown as rows: the most frequent
// (tc.tmpls' order) of at least minTmplRows lines that make at least
// half of the lines from their first to their last, with a whole
// sample and two positions that vary (a key and a value), whose rows
// are at most 60% of their lines' characters, of a text whose lines
// are not shown another way (a table's index, a list, key/value lines,
// records).
func (tc *textCands) rowTemplates(br *blockRows) []*tmplRows {
	p := tc.p
	if p == nil || p.rows == nil || tc.json || p.kv != nil || p.recs.short() ||
		p.recs != nil && p.recs.kv.active() || tc.contentLines() ||
		p.cols != nil && p.cols.rows > 0 {
		return nil
	}
	var out []*tmplRows
	for _, c := range tc.tmpls {
		if len(out) == maxRowTemplates || c.count < minTmplRows {
			break
		}
		if br != nil && slices.Contains(br.keys, c) {
			continue // shown in its records' lines (text_blockrows.go)
		}
		s := p.rows.by[c]
		if s == nil || s.off || len(s.pos) < minTmplRows/2 || c.counts == nil || len(c.counts) != len(c.tokens) {
			continue
		}
		if len(c.tokens) > maxRowTokens {
			// Its rows' head (the template and a query by it) would
			// take the room of everything after it (REVIEW18 R9).
			continue
		}
		if 2*c.count < c.last-c.first+1 {
			// Its lines are scattered among others: each is a line of a
			// record of several lines (text_blockrows.go), not a row.
			continue
		}
		t := &tmplRows{c: c, s: s}
		shape := make([]string, len(c.tokens))
		for i, tk := range c.tokens {
			shape[i] = tk
			if !placeholder(tk) {
				continue
			}
			if cs := c.counts[i]; cs != nil && len(cs) == 1 {
				shape[i] = cs[0].v // the same in every line
				continue
			}
			t.vary = append(t.vary, i)
		}
		if len(t.vary) < 2 {
			continue // a row needs a key and a value
		}
		for _, i := range t.vary {
			t.names = append(t.names, slotName(shape, i))
		}
		t.shape = strings.Join(shape, " ")
		// Rows that keep most of their lines' characters say no more
		// than the lines, which the spread shows.
		rowLen, lineLen := 0, 0
		for k := range s.lines {
			rowLen += len(t.row(k))
			lineLen += len(strings.TrimSpace(s.lines[k]))
		}
		if 10*rowLen > 6*lineLen {
			continue
		}
		t.order = spreadIndexes(len(s.pos))
		out = append(out, t)
	}
	return out
}

// placeholder reports whether a template token holds a placeholder
// ("<*>", "<n>", "<n>s", "icmp_seq=<n>").
func placeholder(tk string) bool {
	i := strings.IndexByte(tk, '<')
	return i >= 0 && strings.IndexByte(tk[i:], '>') > 0
}

// slotName names template position i of shape (the template with its
// constant positions filled in): the token itself when it has a word of
// its own beside its placeholders ("icmp_seq=<n>", "time=<n>"), else the
// word before it without its punctuation ("tps" of "tps: <n>", "r/w/o"
// of "(r/w/o: <n>/<n>/<n>)"), else the token.
func slotName(shape []string, i int) string {
	tk := shape[i]
	if len(strings.Trim(stripPlaceholders(tk), "[](){}:,;=/.%-+#'\"")) >= 2 {
		return tk
	}
	if i > 0 && !placeholder(shape[i-1]) {
		if w := strings.Trim(shape[i-1], "[](){}:,;=\"'"); w != "" {
			return w
		}
	}
	return tk
}

// stripPlaceholders is tk without its placeholders.
func stripPlaceholders(tk string) string {
	var b strings.Builder
	for tk != "" {
		j := strings.IndexByte(tk, '<')
		k := -1
		if j >= 0 {
			k = strings.IndexByte(tk[j:], '>')
		}
		if j < 0 || k < 0 {
			b.WriteString(tk)
			break
		}
		b.WriteString(tk[:j])
		tk = tk[j+k+1:]
	}
	return b.String()
}

// spreadIndexes orders 0..n-1 coarse to fine: the first, then the
// halves, quarters, ... (bit-reversed order), so that any prefix of the
// order is an even spread over all n.
func spreadIndexes(n int) []int {
	if n <= 0 {
		return nil
	}
	size := 1
	bits := 0
	for size < n {
		size <<= 1
		bits++
	}
	out := make([]int, 0, n)
	for k := 0; k < size; k++ {
		r := 0
		for b := 0; b < bits; b++ {
			if k&(1<<b) != 0 {
				r |= 1 << (bits - 1 - b)
			}
		}
		if r < n {
			out = append(out, r)
		}
	}
	return out
}

// row is the varying values of sample line k, joined by spaces.
func (t *tmplRows) row(k int) string {
	raw := rawTokens(t.s.lines[k], len(t.c.tokens))
	if len(raw) != len(t.c.tokens) {
		return cutLine(t.s.lines[k])
	}
	vals := make([]string, len(t.vary))
	for j, i := range t.vary {
		vals[j] = raw[i]
	}
	return cutLine(strings.Join(vals, " "))
}

// tmplRowBands are the rows of each template offered per priority:
// the first 32 at PrioSpread, after the lines unlike the rest that hold
// a word (the first row carries the rows' head, the template and a query
// by it: offered at PrioSecond, before those lines, it ended the fill
// where it did not fit and left their room unused, REVIEW18 R9: mocha's
// spec report at 2,000 tokens showed 1 of its 20 lines unlike the rest),
// the rest last.
var tmplRowBands = [...]struct{ prio, upTo int }{{PrioSpread, 16}, {PrioSpread, 32}, {PrioRemaining, maxRowSample}}

// tmplRowCandidates adds the sections and the rows of the templates
// shown as rows, at priorities from band lo to band hi (exclusive), the
// templates' rows interleaved within a band. It returns the positions
// of every sampled line (a spread line among them is not offered again).
func (tc *textCands) tmplRowCandidates(ts []*tmplRows, lo, hi int) {
	for b := lo; b < hi; b++ {
		from := 0
		if b > 0 {
			from = tmplRowBands[b-1].upTo
		}
		for k := from; k < tmplRowBands[b].upTo; k++ {
			for _, t := range ts {
				if k >= len(t.order) {
					continue
				}
				i := t.order[k]
				pos := t.s.pos[i]
				tc.v.Add(Candidate{Section: t.sec, Key: pos, Record: pos, Prio: tmplRowBands[b].prio, Reason: "template row",
					Text: fmt.Sprintf("  %d\t%s", pos, t.row(i))})
			}
		}
	}
}

// addRowSections adds a section per template shown as rows, after the
// templates' section.
func (tc *textCands) addRowSections(ts []*tmplRows, order int) {
	for _, t := range ts {
		t := t
		s := &Section{Coll: tc.c.Path, Order: order, shared: true}
		s.Head = func(ch []Candidate) string {
			if len(ch) == 0 {
				return ""
			}
			for _, c := range ch {
				tc.shown[c.Record] = true
			}
			return tc.rowsHead(t, ch)
		}
		t.sec = tc.v.AddSection(s)
	}
}

// rowsHead states the template, how many of its lines the rows show and
// which, and the query that lists all its lines.
func (tc *textCands) rowsHead(t *tmplRows, ch []Candidate) string {
	every := ""
	if t.s.stride > 1 || t.s.seen < t.c.count {
		every = fmt.Sprintf(", chosen from every %s line", ordinal(t.s.stride))
	}
	s := fmt.Sprintf("the %s lines of the form %q (lines %d … %d), one a line by the values that vary (showing %s of %s: an even spread%s, in line order), line<TAB>values (%s):\n",
		commas(t.c.count), cutLine(t.shape), t.c.first, t.c.last, commas(len(ch)), commas(t.c.count), every, strings.Join(t.names, " "))
	if len(ch) < t.c.count {
		s += fmt.Sprintf("every line of this form: compact artifact query %s --jq %s\n", tc.in.Handle,
			tc.jq(`to_entries[] | select(.value | test(`+jqString(shapeRegexp(t.c.tokens))+`)) | "\(.key)\t\(.value)"`))
	}
	return s
}

// shapeRegexp is a regular expression (jq's test, Oniguruma) matching
// the lines of a template: its literal words in order, any word for a
// placeholder, white space between.
func shapeRegexp(toks []string) string {
	var b strings.Builder
	b.WriteString("^\\s*")
	for i, tk := range toks {
		if i > 0 {
			b.WriteString("\\s+")
		}
		if tk == tmplAny {
			b.WriteString(".+?")
			continue
		}
		// A token with placeholders: its literal parts, anything between.
		rest := tk
		for rest != "" {
			j := strings.IndexByte(rest, '<')
			k := -1
			if j >= 0 {
				k = strings.IndexByte(rest[j:], '>')
			}
			if j < 0 || k < 0 {
				b.WriteString(regexp.QuoteMeta(rest))
				break
			}
			b.WriteString(regexp.QuoteMeta(rest[:j]))
			b.WriteString(".+?")
			rest = rest[j+k+1:]
		}
	}
	b.WriteString("\\s*$")
	return b.String()
}
