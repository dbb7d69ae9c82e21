package view

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The ends of a text: what plain head+tail truncation answers for free
// (a tool's banner and version at the start; the last error, the
// summary, the final result at the end) the view must answer too, at
// every budget. So the first and last lines are not candidates of their
// own priorities: they are one stream, the lines a head+tail cut would
// keep (the first line, the last line, the second, the one before the
// last, ... balanced by characters as a head+tail cut of equal halves
// is), and that stream is merged into the fill order of every other
// candidate so that any prefix of the order holds about endsShare of
// its characters in these lines. The view at a budget then shows what a
// head+tail cut to endsShare of that budget shows, beside its census,
// and the order still does not depend on the budget (a larger budget
// holds everything a smaller one holds).

// endsShare is the share of the view's characters (numerator over
// endsDen) that the first and last lines get in the fill order: a
// quarter (held-out text outputs, 1,407 questions: an eighth, three
// eighths and a half answered fewer).
const (
	endsShare = 2
	endsDen   = 8
)

// endsTailWeight is how many characters of the end a text's ends get
// for one of its start.
const endsTailWeight = 1

// endsStream returns the first and last lines in the order a growing
// head+tail cut reaches them: each step the end with fewer characters
// so far gets its next line; every line once.
func (tc *textCands) endsStream() []Candidate {
	p := tc.p
	head, tail := p.head, p.tail
	recs := p.recs.short()
	if recs {
		// A text of short records shows whole records, the first and
		// the last among the first (text_records.go): the ends are the
		// last lines no record shows whole (a long summary at the end).
		// Records led by their indentation keep the lines before their
		// first record (a banner, the signal a backtrace follows:
		// text_lead.go).
		var pre []posLine
		if rs := p.recs; rs.lead != nil && len(rs.first) > 0 {
			for _, l := range head {
				if l.pos < rs.first[0].start {
					pre = append(pre, l)
				}
			}
		}
		head = pre
		covered := map[int]bool{}
		for _, r := range tc.recSpan {
			for l := r.start; l < r.start+r.full; l++ {
				covered[l] = true
			}
		}
		var rest []posLine
		for _, l := range tail {
			// (a blank line says nothing)
			if !covered[l.pos] && strings.TrimSpace(l.text) != "" {
				rest = append(rest, l)
			}
		}
		tail = rest
	}
	// A log's first lines are events like the others (its time range
	// is stated): its end gets three times the characters of its start.
	tailWeight := endsTailWeight
	if p.kind == textLog {
		tailWeight = 3
	}
	var out []Candidate
	hi, ti := 0, len(tail)-1
	hc, tcs := 0, 0
	for {
		hOK := hi < len(head) && (ti < 0 || head[hi].pos < tail[ti].pos)
		tOK := ti >= 0 && (hi >= len(head) || tail[ti].pos > head[hi].pos)
		if !hOK && !tOK {
			break
		}
		if hOK && (!tOK || hc*tailWeight <= tcs) {
			l := head[hi]
			out = append(out, Candidate{Section: tc.sec[tsHead], Key: l.pos, Record: l.pos, Reason: "first lines", Text: "  " + cutLine(l.text)})
			hc += len(l.text) + 1
			hi++
			continue
		}
		l := tail[ti]
		text := "  " + cutLine(l.text)
		if recs {
			text = fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.text))
		}
		out = append(out, Candidate{Section: tc.sec[tsTail], Key: l.pos, Record: l.pos, Reason: "last lines", Text: text})
		tcs += len(l.text) + 1
		ti--
	}
	return out
}

// mergeEnds replaces the first and last lines among the text's
// candidates (those added from start on) by the ends stream, merged into
// the fill order of the others at endsShare of the characters, and drops
// a line candidate of another section that only repeats lines the
// stream offers earlier in that order.
func (tc *textCands) mergeEnds(start int) {
	if tc.p == nil || tc.json {
		return
	}
	v := tc.v
	isEnd := func(c *Candidate) bool { return c.Section == tc.sec[tsHead] || c.Section == tc.sec[tsTail] }
	// The first and last lines are the stream's only: offered at their
	// own priorities too (the last 5 lines and the first 3 before the
	// census, then 20 more, ...) they took what the census needs at a
	// small budget.
	rest := slices.DeleteFunc(slices.Clone(v.cands[start:]), func(c Candidate) bool { return isEnd(&c) })
	sort.SliceStable(rest, func(i, j int) bool {
		a, b := &rest[i], &rest[j]
		if a.Prio != b.Prio {
			return a.Prio < b.Prio
		}
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		return a.seq < b.seq
	})
	ends := tc.endsStream()
	size := func(c *Candidate) int {
		if c.lazy != nil {
			return 80
		}
		return len(c.Text) + 1
	}
	shown := map[int]bool{} // first and last lines offered so far
	dup := func(c *Candidate) bool {
		s := c.Section
		if c.Record < 0 || !shown[c.Record] || !(s == tc.sec[tsErrors] || s == tc.sec[tsRare] || s == tc.sec[tsSpread] || s == tc.sec[tsCodes] || s == tc.sec[tsHeaders]) {
			return false
		}
		// An error line carries the line before it; a repeated one its
		// count, which the ends do not state.
		if strings.Contains(c.Text, "\n") && !shown[c.Record-1] {
			return false
		}
		return !strings.Contains(c.Text, " times, first at line ")
	}
	merged := make([]Candidate, 0, len(ends)+len(rest))
	var ec, rc int
	i, j := 0, 0
	prio := PrioFact
	if len(rest) > 0 {
		prio = rest[0].Prio
	}
	for i < len(ends) || j < len(rest) {
		if i < len(ends) && (j == len(rest) || ec*(endsDen-endsShare) <= rc*endsShare) {
			c := ends[i]
			i++
			if shown[c.Record] {
				continue
			}
			c.Prio = prio
			ec += size(&c)
			shown[c.Record] = true
			merged = append(merged, c)
			continue
		}
		c := rest[j]
		j++
		prio = c.Prio
		if dup(&c) {
			continue
		}
		rc += size(&c)
		merged = append(merged, c)
	}
	v.cands = v.cands[:start]
	for _, c := range merged {
		c.Rank = 0
		v.Add(c)
	}
}
