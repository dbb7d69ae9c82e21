package view

import "errors"

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
func (v *View) Fill(c Counter, budget int) (*Filled, error) {
	order := v.order()
	counted := map[int]int{}
	count := func(k int) (string, int) {
		text := v.render(order[:k])
		if n, ok := counted[k]; ok {
			return text, n
		}
		n := c.Count(text)
		counted[k] = n
		return text, n
	}
	bare, min := count(0)
	if min > budget {
		return &Filled{Text: bare, Tokens: min, Minimum: min}, ErrTooSmall
	}
	// An estimate first: each candidate's own count plus a newline. It
	// is counted only until it passes the budget, so the cost follows the
	// budget, not the number of candidates.
	est, k := min, 0
	for k < len(order) {
		t := c.Count(order[k].text()) + 1
		if est+t > budget+budget/8 {
			break
		}
		est += t
		k++
	}
	// Then the exact largest prefix: lo fits, hi does not (or is past
	// the end).
	lo, hi := 0, len(order)+1
	if k > 0 {
		if _, n := count(k); n <= budget {
			lo = k
			// Gallop up from the estimate.
			step := 1
			for lo+step < hi {
				if _, n := count(lo + step); n <= budget {
					lo += step
					step *= 2
				} else {
					hi = lo + step
					break
				}
			}
		} else {
			hi = k
		}
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if _, n := count(mid); n <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	text, n := count(lo)
	for i := range order[:lo] {
		order[i].Text = order[i].text()
	}
	return &Filled{Text: text, Tokens: n, Chosen: order[:lo:lo], Minimum: min}, nil
}
