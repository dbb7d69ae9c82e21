package query

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// item is one record, line or jq output of an answer.
type item struct {
	pos  int
	text string
}

// listing is an answer made of items.
type listing struct {
	// plain, when set, is the whole answer as it is shown when it fits
	// (jq's outputs, like jq -c); otherwise the header and items are.
	plain string
	// what is the header line (without "# ").
	what  string
	unit  string
	items []item
	// body returns the full answer to store when it does not fit.
	body func() ([]byte, string)
	// sliceCmd is a format with the new handle and an offset.
	sliceCmd string
}

// exactLimit is the size up to which an answer is counted exactly.
const exactLimit = 1 << 20

// count returns the tokens of text, exactly up to exactLimit bytes and
// estimated from the first exactLimit bytes beyond.
func (q *Querier) count(text string) (int, bool) {
	if len(text) <= exactLimit {
		return q.counter.Count(text), false
	}
	cut := strings.LastIndexByte(text[:exactLimit], '\n')
	if cut <= 0 {
		cut = exactLimit
	}
	n := q.counter.Count(text[:cut])
	return int(float64(n) * float64(len(text)) / float64(cut)), true
}

func renderItem(b *strings.Builder, it item) {
	fmt.Fprintf(b, "%d\t%s\n", it.pos, it.text)
}

func (q *Querier) fitList(ctx context.Context, a *Answer, l listing) (Answer, error) {
	full := l.plain
	if full == "" {
		var b strings.Builder
		b.WriteString("# " + l.what + "\n")
		for _, it := range l.items {
			renderItem(&b, it)
		}
		full = b.String()
	}
	tokens, est := q.count(full)
	a.FullTokens, a.FullEstimated = tokens, est
	if !est && tokens <= a.Budget {
		a.Content, a.Tokens, a.Returned = full, tokens, len(l.items)
		if l.plain == "" {
			a.ContentType = budget.TypeText
		}
		a.Positions = positions(l.items)
		return *a, nil
	}
	body, ctype := l.body()
	art, err := q.storeAnswer(ctx, a.Op, body, ctype)
	if err != nil {
		return Answer{}, err
	}
	stored := bytes.Count(body, []byte{'\n'})
	render := func(k int) string {
		var b strings.Builder
		b.WriteString("# " + l.what + "\n")
		fmt.Fprintf(&b, "# the full answer (%d %s, %d bytes, %s%d tokens) is over the budget of %d tokens: it is stored whole as %s\n",
			stored, l.unit, len(body), approx(est), tokens, a.Budget, budget.RefOf(art.Handle))
		fmt.Fprintf(&b, "# %d of them follow as position<TAB>value; the rest: "+l.sliceCmd+"\n", k, budget.RefOf(art.Handle), k)
		for _, it := range l.items[:k] {
			renderItem(&b, it)
		}
		return b.String()
	}
	k, content, n, err := q.largestFit(len(l.items), a.Budget, render)
	if err != nil {
		return Answer{}, fmt.Errorf("%w (the full answer is stored as %s)", err, budget.RefOf(art.Handle))
	}
	a.Content, a.Tokens, a.Returned, a.Stored = content, n, k, art
	a.ContentType = budget.TypeText
	a.Positions = positions(l.items[:k])
	kind := "jsonl"
	if ctype == budget.TypeText {
		kind = "lines"
	}
	a.Collections = []schemas.Collection{{Path: ".", Kind: kind, Count: stored, Shown: k}}
	return *a, nil
}

// largestFit finds the largest k in [0, n] whose rendering fits budget.
// It gallops (1, 2, 4, ...) before it bisects, so no rendering it counts
// is much larger than the budget, however large n is.
func (q *Querier) largestFit(n, budgetTokens int, render func(k int) string) (int, string, int, error) {
	c0 := render(0)
	t0 := q.counter.Count(c0)
	if t0 > budgetTokens {
		return 0, "", 0, fmt.Errorf("%w: even a summary without items takes %d tokens, over the budget of %d", budget.ErrCannotFit, t0, budgetTokens)
	}
	fits := func(k int) bool { return q.counter.Count(render(k)) <= budgetTokens }
	lo, hi := 0, 1 // render(lo) fits; hi is the next probe
	for hi <= n && fits(hi) {
		lo, hi = hi, hi*2
	}
	if hi > n {
		hi = n + 1
	}
	// The answer is in [lo, hi): bisect.
	k := lo + sort.Search(hi-lo-1, func(i int) bool { return !fits(lo + i + 1) })
	if k == 0 {
		return 0, c0, t0, nil
	}
	c := render(k)
	return k, c, q.counter.Count(c), nil
}

func positions(items []item) []int {
	if len(items) == 0 {
		return nil
	}
	p := make([]int, len(items))
	for i, it := range items {
		p[i] = it.pos
	}
	return p
}

func approx(est bool) string {
	if est {
		return "about "
	}
	return ""
}

func (q *Querier) storeAnswer(ctx context.Context, op string, body []byte, ctype string) (*schemas.Artifact, error) {
	shape, _ := budget.DetectShape(body, nil)
	h, m, err := q.store.Put(ctx, bytes.NewReader(body), budget.Meta{Tool: "compact artifact " + op, ContentType: ctype, Collections: shape.Collections})
	if err != nil {
		return nil, fmt.Errorf("storing the %d-byte answer as a new artifact: %w", len(body), err)
	}
	return &schemas.Artifact{Handle: string(h), SHA256: m.SHA256, Bytes: m.Bytes}, nil
}

// maxLead caps the leading records a value summary considers.
const maxLead = 1000

func (q *Querier) fitValue(ctx context.Context, a *Answer, v []byte, ctype string, existing *schemas.Artifact, what string) (Answer, error) {
	tokens, est := q.count(string(v))
	a.FullTokens, a.FullEstimated = tokens, est
	if !est && tokens <= a.Budget {
		a.Content, a.Tokens, a.Returned, a.ContentType = string(v), tokens, 1, ctype
		return *a, nil
	}
	art := existing
	if art == nil {
		var err error
		if art, err = q.storeAnswer(ctx, a.Op, v, ctype); err != nil {
			return Answer{}, err
		}
	}
	shape, err := budget.DetectShape(v, nil)
	if err != nil {
		return Answer{}, fmt.Errorf("summarising %s: %w", what, err)
	}
	colls := append([]schemas.Collection(nil), shape.Collections...)
	var lead []item
	var first schemas.Collection
	if len(colls) > 0 {
		first = colls[0]
		_ = budget.EachRecord(v, shape, first.Path, func(i int, raw []byte) error {
			if i >= maxLead {
				return errStop
			}
			lead = append(lead, item{pos: i, text: recordText(raw, first.Kind)})
			return nil
		})
	}
	head := func(withFields bool) string {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s is %d bytes (%s%d tokens), over the budget of %d tokens: it is stored whole as %s\n",
			what, len(v), approx(est), tokens, a.Budget, budget.RefOf(art.Handle))
		if len(colls) == 0 {
			fmt.Fprintf(&b, "# it is %s with no records; get it with: compact artifact get %s\n", shape.Format, budget.RefOf(art.Handle))
		}
		for _, c := range colls {
			fmt.Fprintf(&b, "# collection %s (%s): %d %s", c.Path, c.Kind, c.Count, unitOf(c.Kind))
			if withFields && len(c.Fields) > 0 {
				b.WriteString("; fields:")
				for i, f := range c.Fields {
					if i == 40 {
						fmt.Fprintf(&b, " and %d more", len(c.Fields)-40)
						break
					}
					fmt.Fprintf(&b, " %s (%s, in %d)", f.Name, strings.Join(f.Types, "|"), f.Present)
				}
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	for _, withFields := range []bool{true, false} {
		h := head(withFields)
		render := func(k int) string {
			if len(colls) == 0 {
				return h
			}
			var b strings.Builder
			b.WriteString(h)
			fmt.Fprintf(&b, "# the first %d of %d %s of %s follow as position<TAB>value; more: compact artifact slice %s --path %s --offset %d; or search and jq: compact artifact search %s TEXT, compact artifact query %s --jq FILTER\n",
				k, first.Count, unitOf(first.Kind), first.Path, budget.RefOf(art.Handle), first.Path, k, budget.RefOf(art.Handle), budget.RefOf(art.Handle))
			for _, it := range lead[:k] {
				renderItem(&b, it)
			}
			return b.String()
		}
		k, content, n, err := q.largestFit(len(lead), a.Budget, render)
		if err != nil {
			if withFields {
				continue
			}
			return Answer{}, fmt.Errorf("%w (%s is stored as %s)", err, what, budget.RefOf(art.Handle))
		}
		if len(colls) > 0 {
			colls[0].Shown = k
		}
		a.Content, a.Tokens, a.Returned, a.Stored, a.Collections = content, n, 0, art, colls
		a.ContentType = budget.TypeText
		return *a, nil
	}
	panic("unreachable")
}

var errStop = fmt.Errorf("stop")
