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

// Fill keeps the longest prefix of the candidates (in fill order) whose
// rendering fits budget tokens, counted exactly with c. The order does
// not depend on the budget, so where it keeps the longest prefix the
// view at a bigger budget holds every candidate the view at a smaller
// one holds, even where a longer prefix renders fewer tokens than a
// shorter one (a foot listing what is not shown is gone once every
// record is shown). The search by halves below (fillBy) does not
// guarantee that: see its paragraph. It fails with ErrTooSmall
// (and the bare view's count in Minimum) when not even the bare view
// fits.
//
// With an AdditiveCounter (the tokenizers) each piece is counted once:
// a rendering's count is the header's, the sections' heads' and feet's,
// and each chosen candidate's lines' (fillAdditive; past maxFillSteps
// prefixes that do not fit, the rest is searched by halves). Other counters,
// and views with a line that does not start a piece (a blank line of a
// text), count every rendering the search tries whole (fillBy): a search
// by halves, which may keep a shorter prefix where a longer one renders
// fewer tokens, but every candidate when all of them fit. A known defect:
// a text view can then hold less at a budget one token larger (the
// captured openssl-x509-mozilla.txt at 521 and 522 tokens).
func (v *View) Fill(c Counter, budget int) (*Filled, error) {
	order := v.order()
	if a, ok := c.(AdditiveCounter); ok && a.PiecesAddUp() {
		pc := newPieceCounter(c)
		if f, err, ok := v.fillAdditive(pc, order, budget); ok {
			return f, err
		}
		// A line that does not start a piece: the renderings are
		// counted whole, by their pieces (exact all the same).
		return v.fillBy(order, pc.count, budget)
	}
	return v.fillBy(order, c.Count, budget)
}

// maxFillSteps is how many prefixes fillAdditive counts down from the
// longest whose lines alone fit before it searches the rest by halves
// (the heads and feet of a view at 4,000 tokens take the room of 4 to 40
// candidates' lines: a bound on the fill's cost, seldom reached).
const maxFillSteps = 128

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
// fits is the longest (after maxFillSteps of them, the rest is searched
// by halves as fillBy does). Going down one candidate changes only its
// section's head and foot; the sections of a text share state
// (Section.shared), and their renderings are counted whole, by pieces.
// The chosen rendering is counted by its pieces once more (all of them
// counted already): a sum of parts that is not the rendering's count
// (a head that depends on other sections) falls back to fillBy.
func (v *View) fillAdditive(pc *pieceCounter, order []Candidate, budget int) (*Filled, error, bool) {
	if v.Header != "" && !strings.HasSuffix(v.Header, "\n") {
		return nil, nil, false
	}
	whole := false
	for _, s := range v.sections {
		whole = whole || s.shared
	}
	hdr := pc.count(v.Header)
	// w[i] is the count of candidate i's lines (and their newline).
	w := make([]int, 0, 64)
	lines := func(i int) (int, bool) {
		for len(w) <= i {
			t := order[len(w)].text()
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
	lb, top := hdr, 0
	for ; top < len(order); top++ {
		n, ok := lines(top)
		if !ok {
			return nil, nil, false
		}
		if order[top].Reason == "row header" {
			n = 0
		}
		if lb+n > budget {
			break
		}
		lb += n
	}
	// From there down, one candidate at a time: only its section's head
	// and foot change.
	k, n := 0, min
	if top > 0 && !st.reset(top) {
		return nil, nil, false
	}
	for step := 0; top > 0; step++ {
		if step == maxFillSteps {
			// By halves below top: lo fits, hi does not.
			lo, hi, nlo := 0, top+1, min
			for hi-lo > 1 {
				mid := (lo + hi) / 2
				if !st.reset(mid) {
					return nil, nil, false
				}
				if m := st.total(); m <= budget {
					lo, nlo = mid, m
				} else {
					hi = mid
				}
			}
			k, n = lo, nlo
			break
		}
		if m := st.total(); m <= budget {
			k, n = top, m
			break
		}
		top--
		if !st.drop(top) {
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

// fillBy is Fill with the renderings counted by count.
func (v *View) fillBy(order []Candidate, cnt func(string) int, budget int) (*Filled, error) {
	order = slices.Clone(order)
	counted := map[int]int{}
	count := func(k int) int {
		if n, ok := counted[k]; ok {
			return n
		}
		n := cnt(v.render(order[:k]))
		counted[k] = n
		return n
	}
	min := count(0)
	if min > budget {
		return &Filled{Text: v.render(nil), Tokens: min, Minimum: min}, ErrTooSmall
	}
	// An estimate first: each candidate's own count plus a newline. It
	// is counted only until it passes the budget, so the cost follows the
	// budget, not the number of candidates.
	est, k := min, 0
	for k < len(order) {
		t := cnt(order[k].text()) + 1
		if est+t > budget+budget/8 {
			break
		}
		est += t
		k++
	}
	// Then the exact largest prefix: lo fits, hi does not (or is past
	// the end). (The search's path matters where a longer prefix renders
	// fewer tokens, a foot listing what is not shown gone: from the same
	// start, the same view.)
	lo, hi := 0, len(order)+1
	if k > 0 {
		if count(k) <= budget {
			lo = k
			// Gallop up from the estimate.
			for step := 1; lo+step < hi; step *= 2 {
				if count(lo+step) > budget {
					hi = lo + step
					break
				}
				lo += step
			}
		} else {
			hi = k
		}
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if count(mid) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo < len(order) && k == len(order) && count(len(order)) <= budget {
		// Every candidate fits, though a shorter prefix did not: the
		// foot that lists what is not shown is gone. (Tried when the
		// estimate of all of them is within the budget.)
		lo = len(order)
	}
	text, n := v.render(order[:lo]), count(lo)
	for i := range order[:lo] {
		order[i].Text = order[i].text()
	}
	return &Filled{Text: text, Tokens: n, Chosen: order[:lo:lo], Minimum: min}, nil
}
