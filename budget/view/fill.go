package view

import (
	"errors"
	"slices"
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

// Fill keeps the longest prefix of the candidates (in fill order) whose
// rendering fits budget tokens, counted exactly with c. Since the order
// does not depend on the budget and a longer prefix renders a longer
// text, the view at a bigger budget holds every candidate the view at a
// smaller one holds. It fails with ErrTooSmall (and the bare view's count
// in Minimum) when not even the bare view fits.
//
// The search counts the renderings it tries by their pieces (fillcount.go:
// lines cut where no pre-token of the tokenizers spans, each piece counted
// once, whichever rendering holds it), then counts the chosen view and
// the next longer one exactly. When either exact count disagrees with the
// search (a counter whose counts do not add up over pieces), the search
// runs again with exact counts of every rendering it tries, as it did
// before: the view and its count are exact either way.
func (v *View) Fill(c Counter, budget int) (*Filled, error) {
	order := v.order()
	pc := newPieceCounter(c)
	f, err := v.fillBy(order, pc.count, budget)
	if v.exactFill(c, order, f, err, budget) {
		return f, err
	}
	return v.fillBy(order, c.Count, budget)
}

// exactFill reports whether the view f (and err) the search by pieces
// found is the one an exact search finds: its count and the bare view's
// are exact, and the next candidate in fill order would not fit (or the
// bare view does not).
func (v *View) exactFill(c Counter, order []Candidate, f *Filled, err error, budget int) bool {
	if err != nil {
		return errors.Is(err, ErrTooSmall) && c.Count(f.Text) == f.Tokens
	}
	if c.Count(f.Text) != f.Tokens || c.Count(v.render(nil)) != f.Minimum {
		return false
	}
	k := len(f.Chosen)
	if k == len(order) {
		return true
	}
	next := v.render(order[:k+1])
	if b, ok := c.(interface {
		CountUpTo(text string, limit int) (int, bool)
	}); ok {
		_, over := b.CountUpTo(next, budget)
		return over
	}
	return c.Count(next) > budget
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
	text, n := v.render(order[:lo]), count(lo)
	for i := range order[:lo] {
		order[i].Text = order[i].text()
	}
	return &Filled{Text: text, Tokens: n, Chosen: order[:lo:lo], Minimum: min}, nil
}
