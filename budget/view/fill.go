package view

import (
	"errors"
	"slices"
	"sort"
	"strings"
)

// ErrTooSmall is returned by Fill when even the view with no candidates
// (its header and every section's head and foot) is over the budget.
var ErrTooSmall = errors.New("view: the bare view does not fit the budget")

// Filled is a view after the fill.
type Filled struct {
	// Text is the rendered view and Tokens its exact count.
	Text   string
	Tokens int
	// Chosen are the candidates shown, in fill order.
	Chosen []Candidate
	// Minimum is the exact count of the bare view (no candidates).
	Minimum int
}

// Shown returns the number of distinct records shown of the collection
// at path coll.
func (f *Filled) Shown(v *View, coll string) int {
	seen := map[[2]int]bool{}
	for _, c := range f.Chosen {
		if c.Record >= 0 && v.sections[c.Section].Coll == coll {
			seen[[2]int{c.Section, c.Record}] = true
			for _, r := range c.More {
				seen[[2]int{c.Section, r}] = true
			}
		}
	}
	// A record shown in two sections of one collection counts once.
	recs := map[int]bool{}
	for k := range seen {
		recs[k[1]] = true
	}
	return len(recs)
}

// AdditiveCounter is a Counter whose counts add up over the pieces of a
// text (fillcount.go: the text cut after each newline that starts a line
// as a piece): the count of a text is the sum of its pieces' counts. The
// tokenizers of budget.NewCounter are: no pre-token of o200k_base or
// cl100k_base spans such a cut (FuzzPieceCount checks the sum against
// the tokenizers on any text). With such a counter Fill counts each
// piece of the view once and states their sum, which is the exact
// count of the view it returns.
type AdditiveCounter interface {
	Counter
	// PiecesAddUp reports whether the counts add up over pieces.
	PiecesAddUp() bool
}

// LowerBounder is a Counter that bounds counts from below without
// counting. Fill adds the bounds of the parts of a rendering it need not
// count, each part a text that ends in a newline and comes after one
// (the header, a candidate's lines), taken with that newline before it:
// the sum must be at most the rendering's count (budget.LowerBound's
// is: it counts runs of characters that no newline starts or ends, at
// least one token each).
type LowerBounder interface {
	Counter
	// LowerBound returns a count text has at least.
	LowerBound(text string) int
}

// Fill keeps the longest prefix of the candidates (in fill order) whose
// rendering fits budget tokens, counted exactly with c. The order does
// not depend on the budget, so the view at a bigger budget holds every
// candidate the view at a smaller one holds, even where a longer prefix
// renders fewer tokens than a shorter one (a foot listing what is not
// shown is gone once every record is shown). It fails with ErrTooSmall
// (and the bare view's count in Minimum) when not even the bare view
// fits.
//
// A rendering can count fewer tokens than a shorter prefix's (a foot
// gone, a blank line joining the line before it), so no search by
// halves finds the longest: Fill bounds every longer prefix's count
// from below by its candidates' lines, a bound that only grows with the
// prefix, and steps down from the longest prefix whose bound fits,
// counting each rendering exactly, to the first that fits. With an
// AdditiveCounter (the tokenizers) each piece is counted once: a
// rendering's count is the header's, the sections' heads' and feet's,
// and each chosen candidate's lines' (fillAdditive), and the lines'
// exact counts are the bound; the lines of a section with a candidate
// whose first line does not start a piece (a blank line of a text),
// and every candidate's lines with other counters (fillBy: each
// rendering tried is counted whole), are bounded by the counter's
// LowerBound (a LowerBounder: the tokenizers are). A counter that is
// not bounds a candidate's lines by their own count less one token (a
// token may span the newline between two lines): a counter whose count
// of two texts joined is less than the sum of theirs by more can keep
// a shorter prefix.
//
// The header states the budget, and a larger number can cost more tokens
// than a smaller one ("1,000" more than "999", by more than the one token
// the budget grew by): the candidates fit budget less the header's slack
// (headerSlack), so that a view never holds fewer candidates than the
// view at a smaller budget.
func (v *View) Fill(c Counter, budget int) (*Filled, error) {
	order := v.order()
	// bound is the least count a part of a rendering (a text ending in
	// a newline, after a newline) adds to it.
	bound := func(part string) int { return max(0, c.Count(part)-1) }
	if b, ok := c.(LowerBounder); ok {
		bound = func(part string) int { return b.LowerBound("\n" + part) }
	}
	if a, ok := c.(AdditiveCounter); ok && a.PiecesAddUp() {
		pc := newPieceCounter(c)
		fit := budget - v.headerSlack(pc.countFine, budget)
		if f, err, ok := v.fillAdditive(pc, bound, order, budget, fit); ok {
			return f, err
		}
		// A head or a foot that does not start a piece, a section with
		// a blank line and no head: the renderings are counted whole,
		// by their pieces (exact all the same).
		return v.fillBy(order, pc.count, bound, budget, fit)
	}
	return v.fillBy(order, c.Count, bound, budget, budget-v.headerSlack(c.Count, budget))
}

// headerSlack is what the candidates leave of budget for the header of
// a larger budget: the most by which the header's count at a budget b of
// budget+1..budget+w exceeds its count at budget plus b-budget (0 if
// never; cnt counts a header). The candidates then fit the least room
// (a budget less its header's count) of every budget from budget up,
// which never shrinks as the budget grows: the view at a larger budget
// holds every candidate the view at a smaller one holds. Past w =
// 2·len(commas(budget))+4 the budget grew by more than the number's
// text has bytes (a longer number adds at most a token a byte), so no
// larger budget has less room. Only a view filled at the budget its
// header states (Build's) has a slack, and it is 0 but at a few budgets
// just below a longer number (999: "1,000" costs two tokens more).
func (v *View) headerSlack(cnt func(string) int, budget int) int {
	num := commas(budget)
	if v.hdrBudget != budget || v.hdrAt <= 0 || !strings.HasPrefix(v.Header[v.hdrAt:], num) {
		return 0
	}
	pre, post := v.Header[:v.hdrAt], v.Header[v.hdrAt+len(num):]
	h0, slack := cnt(v.Header), 0
	for b := budget + 1; b <= budget+2*len(num)+4; b++ {
		if d := cnt(pre+commas(b)+post) - h0 - (b - budget); d > slack {
			slack = d
		}
	}
	return slack
}

// fillAdditive is Fill with counts that add up over pieces, when every
// part of the view starts a piece (ok false otherwise: nothing is
// decided). A rendering is the header, then per section its head, its
// chosen candidates' lines and its foot, each part ending in a newline
// and starting a piece (piecePart): its count is the sum of the parts'
// counts. A candidate's lines are counted once, whichever rendering
// holds them; heads and feet depend on what is chosen and are counted
// per prefix. The lines alone (with the header) bound every rendering's
// count from below and grow with the prefix: past the longest prefix
// whose lines fit, none fits; from there down, the first prefix that
// fits is the longest. Going down one candidate changes only its
// section's head and foot; the sections of a text share state
// (Section.shared), and their renderings are counted whole, by pieces.
// The chosen rendering is counted by its pieces once more (all of them
// counted already): a sum of parts that is not the rendering's count
// (a head that depends on other sections) falls back to fillBy.
//
// A candidate whose first line does not start a piece (a blank line of
// a text) joins the piece of the line before it, whose count is then not
// its own: the lines of its section (joined, found before anything is
// counted, over the whole order: it could follow any chosen line of its
// section) are bounded by bound instead, and the renderings are counted
// whole. Such a line follows
// a line of its own section: its section's head, or a candidate; a lazy
// text (a row, an index line) starts with its number and always starts
// a piece; heads and feet start with a title or a count, never a blank
// line (Section: part checks each one it counts apart).
func (v *View) fillAdditive(pc *pieceCounter, bound func(string) int, order []Candidate, budget, fit int) (*Filled, error, bool) {
	if v.Header != "" && !strings.HasSuffix(v.Header, "\n") {
		return nil, nil, false
	}
	var joined []bool
	for i := range order {
		if order[i].lazy == nil && !pieceStart(order[i].Text+"\n", 0) {
			s := order[i].Section
			if v.sections[s].Head == nil {
				return nil, nil, false
			}
			if joined == nil {
				joined = make([]bool, len(v.sections))
			}
			joined[s] = true
		}
	}
	whole := joined != nil
	for _, s := range v.sections {
		whole = whole || s.shared
	}
	hdr := pc.count(v.Header)
	// w[i] is the count of candidate i's lines (and their newline), or
	// its bound in a joined section.
	w := make([]int, 0, 64)
	lines := func(i int) (int, bool) {
		for len(w) <= i {
			c := &order[len(w)]
			t := c.text()
			if joined != nil && joined[c.Section] {
				w = append(w, bound(t+"\n"))
				continue
			}
			if !piecePart(t + "\n") {
				return 0, false
			}
			w = append(w, pc.count(t+"\n"))
		}
		return w[i], true
	}
	st := &fillState{v: v, pc: pc, order: order, w: &w, hdr: hdr, whole: whole,
		sorted: make([][]int, len(v.sections)), parts: make([]int, len(v.sections)), records: make([]int, len(v.sections))}
	if !st.reset(0) {
		return nil, nil, false
	}
	min := st.total()
	if min > budget {
		return &Filled{Text: v.render(nil), Tokens: min, Minimum: min}, ErrTooSmall, true
	}
	// The longest prefix whose lines fit: row headers count for nothing
	// here (one is left out while its section has no row).
	sum, top := hdr, 0
	for ; top < len(order); top++ {
		n, ok := lines(top)
		if !ok {
			return nil, nil, false
		}
		if order[top].Reason == "row header" {
			n = 0
		}
		if sum+n > fit {
			break
		}
		sum += n
	}
	// From there down, one candidate at a time: only its section's head
	// and foot change.
	k, n := 0, min
	if top > 0 && !st.reset(top) {
		return nil, nil, false
	}
	for ; top > 0; top-- {
		if m := st.total(); m <= fit {
			k, n = top, m
			break
		}
		if !st.drop(top - 1) {
			return nil, nil, false
		}
	}
	text := v.render(order[:k]) // (heads and feet see the candidates as counted)
	if pc.count(text) != n {
		// Counted again by its pieces (each counted already, but for a
		// head or a foot that depends on more than its own section's
		// candidates): the sum of the parts was not the rendering's.
		return nil, nil, false
	}
	chosen := order[:k:k]
	for i := range chosen {
		chosen[i].Text = chosen[i].text()
	}
	return &Filled{Text: text, Tokens: n, Chosen: chosen, Minimum: min}, nil, true
}

// fillState is the count of the rendering of a prefix of the candidates
// in fill order, part by part (fillAdditive): the header's, each
// section's head and foot, each chosen candidate's lines.
type fillState struct {
	v     *View
	pc    *pieceCounter
	order []Candidate
	w     *[]int // the count of each candidate's lines, as far as made
	hdr   int
	// whole counts each rendering whole (by its pieces), for sections
	// that share state (Section.shared).
	whole bool
	k     int // the prefix
	// sorted are each section's chosen candidates (indices in order),
	// in Key order and fill order among equal keys, as rendered.
	sorted [][]int
	// parts are the counts of each section's head and foot; records
	// how many of its chosen candidates show a record.
	parts, records []int
	cs             []Candidate
}

// reset makes the state that of the first k candidates. It reports
// false when a head or a foot does not start a piece.
func (st *fillState) reset(k int) bool {
	if st.k = k; st.whole {
		return true
	}
	for s := range st.sorted {
		st.sorted[s] = st.sorted[s][:0]
		st.records[s] = 0
	}
	for i := range st.order[:k] {
		s := st.order[i].Section
		st.sorted[s] = append(st.sorted[s], i)
		if st.order[i].Record >= 0 {
			st.records[s]++
		}
	}
	for s, idx := range st.sorted {
		sort.SliceStable(idx, func(a, b int) bool { return st.order[idx[a]].Key < st.order[idx[b]].Key })
		if !st.part(s) {
			return false
		}
	}
	return true
}

// drop takes candidate i, the last of the prefix, out of it and counts
// its section's head and foot again.
func (st *fillState) drop(i int) bool {
	if st.k = i; st.whole {
		return true
	}
	s := st.order[i].Section
	idx := st.sorted[s]
	for j := len(idx) - 1; j >= 0; j-- {
		if idx[j] == i {
			st.sorted[s] = append(idx[:j], idx[j+1:]...)
			break
		}
	}
	if st.order[i].Record >= 0 {
		st.records[s]--
	}
	return st.part(s)
}

// part counts section s's head and foot for its chosen candidates.
func (st *fillState) part(s int) bool {
	sec := st.v.sections[s]
	st.cs = st.cs[:0]
	for _, i := range st.sorted[s] {
		st.cs = append(st.cs, st.order[i])
	}
	n := 0
	for _, part := range [2]func([]Candidate) string{sec.Head, sec.Foot} {
		if part == nil {
			continue
		}
		t := part(st.cs)
		if !piecePart(t) {
			return false
		}
		n += st.pc.countFine(t)
	}
	st.parts[s] = n
	return true
}

// total is the count of the rendering.
func (st *fillState) total() int {
	if st.whole {
		return st.pc.count(st.v.render(st.order[:st.k]))
	}
	n, w := st.hdr, *st.w
	for s, idx := range st.sorted {
		n += st.parts[s]
		for _, i := range idx {
			if st.records[s] == 0 && st.order[i].Reason == "row header" {
				continue // not rendered (render)
			}
			n += w[i]
		}
	}
	return n
}

// piecePart reports whether part, placed after a newline in a rendering,
// is a run of whole pieces: empty, or starting a piece and ending in a
// newline (so that whatever part follows starts a piece too).
func piecePart(part string) bool {
	return part == "" || strings.HasSuffix(part, "\n") && pieceStart(part, 0)
}

// fillBy is Fill with every rendering it tries counted whole by cnt.
// The header's bound and each candidate's lines' (bound; a head or a
// foot adds to the count and is left out of the bound) bound a
// rendering's count from below and only grow with the prefix: the fill
// steps down from the longest prefix whose bound fits, counting each
// rendering, to the first that fits.
func (v *View) fillBy(order []Candidate, cnt func(string) int, bound func(string) int, budget, fit int) (*Filled, error) {
	order = slices.Clone(order)
	min := cnt(v.render(nil))
	if min > budget {
		return &Filled{Text: v.render(nil), Tokens: min, Minimum: min}, ErrTooSmall
	}
	top := len(order)
	if v.Header == "" || strings.HasSuffix(v.Header, "\n") {
		sum := bound(v.Header)
		for top = 0; top < len(order); top++ {
			if order[top].Reason == "row header" {
				continue // (not rendered while its section has no row)
			}
			if sum += bound(order[top].text() + "\n"); sum > fit {
				break
			}
		}
	}
	k, n := 0, min
	for ; top > 0; top-- {
		if m := cnt(v.render(order[:top])); m <= fit {
			k, n = top, m
			break
		}
	}
	text := v.render(order[:k])
	for i := range order[:k] {
		order[i].Text = order[i].text()
	}
	return &Filled{Text: text, Tokens: n, Chosen: order[:k:k], Minimum: min}, nil
}
