package budget

import (
	"context"
	"fmt"

	"github.com/toolcompact/compact/schemas"
)

// textLevel2 is level 2 for text (one collection of lines) and for go
// test -json event streams: the original is stored (st is its result)
// and the model sees the text view (text_view.go). It returns ok=false
// when the output is neither, and level 2's general summary applies.
func (p *Pipeline) textLevel2(ctx context.Context, in Input, shape Shape, best Level1Result, st func() (*schemas.Artifact, schemas.Action, error)) (schemas.Result, bool, error) {
	v := &textView{}
	switch {
	case shape.Format == FormatText && len(shape.Collections) == 1 && shape.Collections[0].Kind == "lines":
		v.p = analyzeText(in.Data)
	case shape.Format == FormatJSONL && len(shape.Collections) == 1 && isGoTestJSON(in.Data):
		v.t = analyzeGoTestJSON(in.Data)
	default:
		return schemas.Result{}, false, nil
	}
	coll := shape.Collections[0]
	v.total = coll.Count
	// The registry's pin predicate still selects rows.
	var pinActs []schemas.Action
	var pinned []row
	pinnedCount := 0
	if in.Rules.Pin != "" {
		s := &summary{p: p, in: in, shape: shape, best: best, regColls: shape.Collections, colls: make([]collView, 1)}
		pinActs = s.pin(ctx, in.Rules.Pin)
		pinned, pinnedCount = s.colls[0].pinned, s.colls[0].pinnedCount
	}
	art, storeAct, err := st()
	if err != nil {
		return schemas.Result{}, true, err
	}
	res := best.Result
	budget := res.Tokens.Budget
	v.handle = art.Handle
	tool := in.Tool
	if tool == "" {
		tool = "(unnamed)"
	}
	size := commas(res.Tokens.Before) + " tokens"
	if res.Tokens.BeforeEstimated {
		size = "at most " + size + " (estimate)"
	}
	v.header = []string{
		fmt.Sprintf("[compact: this output is too large for its budget of %s tokens; the full original is stored as artifact %s]", commas(budget), art.Handle),
		fmt.Sprintf("tool: %s; %s bytes of %s; %s", tool, commas(len(in.Data)), contentTypeOf(in, shape), size),
	}
	v.textCandidates()
	if len(pinned) > 0 {
		v.addPinned(pinned, pinnedCount, in.Rules.Pin, coll.Kind)
	}
	counted := map[string]int{}
	v.counted = func(s string) int {
		if n, ok := counted[s]; ok {
			return n
		}
		n := p.counter.Count(s)
		counted[s] = n
		return n
	}
	content, shown, ok := v.fit(budget)
	if !ok {
		return schemas.Result{}, true, &FitError{
			Tool: in.Tool, Budget: budget, Tokens: v.counted(content),
			Level:  schemas.LevelArtifact,
			Reason: fmt.Sprintf("even the bare view of the text (its counts and the handle %s) needs %d tokens; the original is stored as artifact %s", art.Handle, v.counted(content), art.Handle),
		}
	}
	c := coll
	c.Shown = min(shown, c.Count)
	actions := append([]schemas.Action(nil), res.Actions...)
	actions = append(actions, storeAct)
	actions = append(actions, pinActs...)
	if c.Shown < c.Count {
		actions = append(actions, schemas.Action{
			Level: schemas.LevelArtifact, Kind: "omit_records", Target: c.Path,
			Count:  c.Count - c.Shown,
			Detail: fmt.Sprintf("showing %s of %s records (lines), chosen as the view's sections say; the rest are in artifact %s", commas(c.Shown), commas(c.Count), art.Handle),
			Handle: art.Handle,
		})
	}
	return schemas.Result{
		Content:     content,
		Level:       schemas.LevelArtifact,
		Tool:        res.Tool,
		ContentType: res.ContentType,
		Tokens: schemas.Tokens{Before: res.Tokens.Before, BeforeEstimated: res.Tokens.BeforeEstimated,
			After: v.counted(content), Budget: budget, Encoding: p.counter.Encoding()},
		Collections: []schemas.Collection{c},
		Artifact:    art,
		Actions:     actions,
	}, true, nil
}

// addPinned inserts the rows the registry's pin predicate selected right
// after the view's summary and the last lines: the first 20, then the
// others after everything of the first rank.
func (v *textView) addPinned(rows []row, count int, pred, kind string) {
	var first, later []textCand
	for k, r := range rows {
		c := textCand{sec: secPinned, key: r.index, pos: r.index, lines: []string{fmt.Sprintf("%d\t%s", r.index, cut(r.text))}}
		if k < 20 {
			first = append(first, c)
		} else {
			later = append(later, c)
		}
	}
	v.pinCount, v.pinPred, v.pinKind = count, pred, kind
	at := 0
	for at < len(v.cands) && (v.cands[at].sec == secSummary || v.cands[at].sec == secTail) {
		at++
	}
	out := append([]textCand(nil), v.cands[:at]...)
	out = append(out, first...)
	out = append(out, v.cands[at:]...)
	v.cands = append(out, later...)
}
