package budget

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/schemas"
)

// PinTimeout bounds the evaluation of a registry's pin predicate over all
// the records of one output. When it runs out, the rows found so far stay
// pinned and an action says where evaluation stopped.
var PinTimeout = 2 * time.Second

// maxPinnedKept caps the pinned rows level 2 keeps in memory per
// collection; more are counted, not kept (they could never all be shown).
const maxPinnedKept = 2000

// level2 is the artifact level: the full original is stored and the model
// sees a summary that fits the budget: what the output is, every
// collection with its exact count and its fields with types, the rows the
// pin predicate selects, as many leading rows as fit (in level 1's compact
// form when level 1 produced JSON), the handle and an example query
// written for this output.
//
// Run calls it when p.store != nil and level 1's best output (best) is
// still over budget. in is the original input (in.Data the full bytes) and
// shape its detected shape. It returns a *FitError when even the bare
// minimum (what the output is, the counts and the handle) does not fit.
func (p *Pipeline) level2(ctx context.Context, in Input, shape Shape, best Level1Result) (schemas.Result, error) {
	res := best.Result
	budget := res.Tokens.Budget
	// Storing is mostly waiting for the disk (fsync): it overlaps with
	// the pin predicate and the choice of rows, which need no handle.
	type stored struct {
		art *schemas.Artifact
		act schemas.Action
		err error
	}
	done := make(chan stored, 1)
	go func() {
		art, act, err := p.storeOriginal(ctx, in, shape)
		done <- stored{art, act, err}
	}()
	s := &summary{
		p: p, in: in, shape: shape, best: best,
		contentType: contentTypeOf(in, shape),
		colls:       make([]collView, len(shape.Collections)),
	}
	var pinActs []schemas.Action
	if in.Rules.Pin != "" && len(shape.Collections) > 0 {
		pinActs = s.pin(ctx, in.Rules.Pin)
	}
	lerr := s.leading()
	st := <-done
	if st.err != nil {
		return schemas.Result{}, st.err
	}
	if lerr != nil {
		return schemas.Result{}, lerr
	}
	art, storeAct := st.art, st.act
	s.art = art
	content, shown, ok := s.fit(budget)
	if !ok {
		return schemas.Result{}, &FitError{
			Tool: in.Tool, Budget: budget, Tokens: s.minimum,
			Level:  schemas.LevelArtifact,
			Reason: fmt.Sprintf("even the bare summary (the counts of %d collections and the handle %s) needs %d tokens; the original is stored as artifact %s", len(shape.Collections), art.Handle, s.minimum, art.Handle),
		}
	}
	colls := make([]schemas.Collection, len(res.Collections))
	copy(colls, res.Collections)
	if len(colls) != len(shape.Collections) {
		colls = make([]schemas.Collection, len(shape.Collections))
		copy(colls, shape.Collections)
	}
	actions := append([]schemas.Action(nil), res.Actions...)
	actions = append(actions, storeAct)
	actions = append(actions, pinActs...)
	for i := range colls {
		colls[i].Shown = shown[i]
		if shown[i] < colls[i].Count {
			actions = append(actions, schemas.Action{
				Level: schemas.LevelArtifact, Kind: "omit_records", Target: colls[i].Path,
				Count:  colls[i].Count - shown[i],
				Detail: fmt.Sprintf("showing %s of %s records; the rest are in artifact %s", commas(shown[i]), commas(colls[i].Count), art.Handle),
				Handle: art.Handle,
			})
		}
	}
	if len(shape.Collections) == 0 {
		actions = append(actions, schemas.Action{
			Level: schemas.LevelArtifact, Kind: "omit_content", Target: ".",
			Detail: fmt.Sprintf("the %s content (%s bytes) is not shown; it is artifact %s", s.contentType, commas(len(in.Data)), art.Handle),
			Handle: art.Handle,
		})
	}
	after := p.counter.Count(content)
	return schemas.Result{
		Content:     content,
		Level:       schemas.LevelArtifact,
		Tool:        res.Tool,
		ContentType: res.ContentType,
		Tokens: schemas.Tokens{Before: res.Tokens.Before, BeforeEstimated: res.Tokens.BeforeEstimated,
			After: after, Budget: budget, Encoding: p.counter.Encoding()},
		Collections: colls,
		Artifact:    art,
		Actions:     actions,
	}, nil
}

// storeAlways stores the original of a result that fitted at level none
// or 1 when the rules say store: always, so that what level 1 dropped can
// be recovered: the result's Artifact is set and a "store" action names
// the handle. A store that fails (or is not configured) does not fail the
// result, which fits: a "store_failed" action says why.
func (p *Pipeline) storeAlways(ctx context.Context, in Input, shape Shape, res schemas.Result) (schemas.Result, error) {
	if in.Rules.Store != "always" {
		return res, nil
	}
	art, act, err := p.storeOriginal(ctx, in, shape)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return schemas.Result{}, fmt.Errorf("%s: %w", in.Tool, ctxErr)
		}
		res.Actions = append(res.Actions, schemas.Action{Level: res.Level, Kind: "store_failed", Target: ".",
			Detail: fmt.Sprintf("store: always, but the original was not stored: %v", err)})
		return res, nil
	}
	act.Level = res.Level
	res.Artifact = art
	res.Actions = append(res.Actions, act)
	return res, nil
}

// storeOriginal stores the full original of in and returns the artifact
// and the "store" action naming it. Level 1 calls it too when the
// registry says store: always.
func (p *Pipeline) storeOriginal(ctx context.Context, in Input, shape Shape) (*schemas.Artifact, schemas.Action, error) {
	if p.store == nil {
		return nil, schemas.Action{}, errors.New("budget: no artifact store configured")
	}
	colls := make([]schemas.Collection, len(shape.Collections))
	copy(colls, shape.Collections)
	h, m, err := p.store.Put(ctx, bytes.NewReader(in.Data), Meta{
		Tool: in.Tool, Created: time.Now().UTC(), ContentType: contentTypeOf(in, shape),
		Bytes: int64(len(in.Data)), Collections: colls,
	})
	if err != nil {
		return nil, schemas.Action{}, fmt.Errorf("%s: store the original (%d bytes): %w", in.Tool, len(in.Data), err)
	}
	art := &schemas.Artifact{Handle: string(h), SHA256: m.SHA256, Bytes: m.Bytes}
	if art.Bytes == 0 {
		art.Bytes = int64(len(in.Data))
	}
	return art, schemas.Action{
		Level: schemas.LevelArtifact, Kind: "store", Target: ".",
		Detail: fmt.Sprintf("the full original (%s bytes, sha256 %s) is stored as artifact %s: compact artifact get %s", commas(int(art.Bytes)), art.SHA256, art.Handle, art.Handle),
		Handle: art.Handle,
	}, nil
}

func contentTypeOf(in Input, shape Shape) string {
	if in.ContentType != "" {
		return in.ContentType
	}
	return shape.ContentType
}

// summary builds the level 2 text of one output.
type summary struct {
	p           *Pipeline
	in          Input
	shape       Shape
	best        Level1Result
	art         *schemas.Artifact
	contentType string
	colls       []collView
	minimum     int // tokens of the bare summary, set by fit
}

// collView is what the summary may show of one collection.
type collView struct {
	pinned      []row  // pinned rows, in order (at most maxPinnedKept)
	pinnedCount int    // every record the predicate selected
	leading     []row  // leading rows that are not pinned
	header      string // the table header line, when leading rows are table rows
	firstRaw    row    // the first record of the original, minified
	example     string
}

// row is one record as shown.
type row struct {
	index  int
	text   string
	tokens int
	// compact is a pinned row in level 1's form, when known; it is shown
	// instead of text when the pinned rows in full do not all fit.
	compact       string
	compactTokens int
}

// pin evaluates the pin predicate over every record of every collection
// and keeps the selected rows in full (the original record, minified).
func (s *summary) pin(ctx context.Context, pred string) []schemas.Action {
	q, err := gojq.Parse(pred)
	var code *gojq.Code
	if err == nil {
		code, err = gojq.Compile(q)
	}
	if err != nil {
		return []schemas.Action{{Level: schemas.LevelArtifact, Kind: "pin_failed", Target: pred,
			Detail: fmt.Sprintf("the pin predicate does not compile: %v; no rows are pinned", err)}}
	}
	ctx, cancel := context.WithTimeout(ctx, PinTimeout)
	defer cancel()
	var proj *projector // decodes only the members the predicate reads
	if names, ok := pinFields(q); ok {
		want := make(map[string]bool, len(names))
		for _, n := range names {
			want[n] = true
		}
		proj = newProjector(want)
	}
	lits := pinLiterals(q) // records without them cannot match
	var acts []schemas.Action
	for ci, c := range s.shape.Collections {
		cs := &s.colls[ci]
		evalErrs, firstErr, seen := 0, "", 0
		stopped := errors.New("stopped")
		err := EachRecord(s.in.Data, s.shape, c.Path, func(i int, raw []byte) error {
			if err := ctx.Err(); err != nil {
				return stopped
			}
			seen = i + 1
			if !mayMatch(raw, lits) {
				return nil
			}
			value, err := recordValue(c.Kind, raw, proj)
			if err != nil {
				evalErrs++
				if firstErr == "" {
					firstErr = fmt.Sprintf("record %d: %v", i, err)
				}
				return nil
			}
			ok, err := truthy(ctx, code, value)
			if err != nil {
				if ctx.Err() != nil {
					return stopped
				}
				evalErrs++
				if firstErr == "" {
					firstErr = fmt.Sprintf("record %d: %v", i, err)
				}
				return nil
			}
			if ok {
				cs.pinnedCount++
				if len(cs.pinned) < maxPinnedKept {
					cs.pinned = append(cs.pinned, row{index: i, text: recordText(c.Kind, raw)})
				}
			}
			return nil
		})
		if errors.Is(err, stopped) {
			acts = append(acts, schemas.Action{Level: schemas.LevelArtifact, Kind: "pin_stopped", Target: c.Path,
				Count:  seen,
				Detail: fmt.Sprintf("pin predicate %s stopped after %s of %s records (deadline %v); later matching rows are not pinned", pred, commas(seen), commas(c.Count), PinTimeout)})
		} else if err != nil {
			acts = append(acts, schemas.Action{Level: schemas.LevelArtifact, Kind: "pin_failed", Target: c.Path,
				Detail: fmt.Sprintf("pin predicate %s: %v", pred, err)})
		}
		if evalErrs > 0 {
			acts = append(acts, schemas.Action{Level: schemas.LevelArtifact, Kind: "pin_failed", Target: c.Path,
				Count:  evalErrs,
				Detail: fmt.Sprintf("pin predicate %s failed on %s records (not pinned); first: %s", pred, commas(evalErrs), firstErr)})
		}
		detail := fmt.Sprintf("pin predicate %s selects %s of %s records; they are shown first", pred, commas(cs.pinnedCount), commas(c.Count))
		if cs.pinnedCount == 0 {
			detail = fmt.Sprintf("pin predicate %s selects none of the %s records", pred, commas(c.Count))
		}
		acts = append(acts, schemas.Action{Level: schemas.LevelArtifact, Kind: "pin", Target: c.Path,
			Count: cs.pinnedCount, Detail: detail})
	}
	return acts
}

// recordValue returns a record's value for jq: the member's value for a
// map record, the line as a string for text, and only the members in want
// for an object record when proj is not nil (see pinFields).
func recordValue(kind string, raw []byte, proj *projector) (any, error) {
	if kind == "lines" {
		return strings.TrimSuffix(string(raw), "\r"), nil
	}
	if proj != nil && kind != "map" {
		m, isObject, err := proj.project(raw)
		if err != nil {
			return nil, err
		}
		if isObject {
			return m, nil
		}
	}
	var v any
	if err := jsonv2.Unmarshal(raw, &v, lenient); err != nil {
		return nil, err
	}
	if kind == "map" {
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			for _, x := range m {
				v = x
			}
		}
	}
	return v, nil
}

// recordText is how a record is shown: minified JSON, or the line.
func recordText(kind string, raw []byte) string {
	if kind == "lines" {
		return displayLine(string(raw))
	}
	return minify(raw)
}

// lenient decodes records as the collection detector reads them.
var lenient = jsonv2.JoinOptions(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))

// truthy reports whether code yields a truthy value (not false or null) on
// v.
func truthy(ctx context.Context, code *gojq.Code, v any) (bool, error) {
	iter := code.RunWithContext(ctx, v)
	for {
		x, ok := iter.Next()
		if !ok {
			return false, nil
		}
		if err, ok := x.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return false, nil
			}
			return false, err
		}
		if x != nil && x != false {
			return true, nil
		}
	}
}

// minify returns raw JSON without insignificant white space.
func minify(raw []byte) string {
	v := jsontext.Value(append([]byte(nil), raw...))
	if err := v.Compact(); err != nil {
		return string(raw)
	}
	return string(v)
}

// displayLine makes a text line safe to show: invalid UTF-8 bytes become
// U+FFFD (the artifact keeps the exact bytes).
func displayLine(line string) string {
	line = strings.TrimSuffix(line, "\r")
	if !utf8.ValidString(line) {
		return strings.ToValidUTF8(line, "\uFFFD")
	}
	return line
}

// leading collects candidate leading rows of every collection: the first
// records that are not pinned, in level 1's form when level 1 produced
// JSON with the same collection, otherwise the original records minified.
// It collects at most enough rows to fill the budget many times over.
func (s *summary) leading() error {
	budget := s.best.Result.Tokens.Budget
	for ci, c := range s.shape.Collections {
		cs := &s.colls[ci]
		pinned := make(map[int]bool, len(cs.pinned))
		for _, r := range cs.pinned {
			pinned[r.index] = true
		}
		// Rows are at least one token each plus a newline: never more
		// than the budget can hold.
		limit := budget + len(cs.pinned)
		if limit > c.Count {
			limit = c.Count
		}
		rows := s.level1Rows(c, limit, pinned)
		if rows == nil {
			rows = []row{}
			done := errors.New("done")
			err := EachRecord(s.in.Data, s.shape, c.Path, func(i int, raw []byte) error {
				if len(rows) >= limit || i >= limit+len(pinned) {
					return done
				}
				if pinned[i] {
					return nil
				}
				text := displayLine(string(raw))
				if c.Kind != "lines" {
					text = minify(raw)
				}
				rows = append(rows, row{index: i, text: text})
				return nil
			})
			if err != nil && !errors.Is(err, done) {
				return fmt.Errorf("%s: read records of %s: %w", s.in.Tool, c.Path, err)
			}
		}
		cs.leading = rows
		if c.Kind != "lines" {
			stop := errors.New("stop")
			_ = EachRecord(s.in.Data, s.shape, c.Path, func(i int, raw []byte) error {
				cs.firstRaw = row{index: i, text: minify(raw)}
				return stop
			})
		}
		cs.example = exampleQuery(c, cs, s.in.Rules.Pin)
	}
	return nil
}

// level1Rows returns the leading rows of collection c from level 1's JSON
// output, or nil when level 1's output is not JSON or does not hold the
// collection with the same records.
func (s *summary) level1Rows(c schemas.Collection, limit int, pinned map[int]bool) []row {
	r := s.best.Result
	if r.ContentType == TypeTable && c.Path == "." && len(s.shape.Collections) == 1 {
		return s.tableRows(c, limit, pinned)
	}
	if c.Kind == "lines" || r.Content == "" || (r.ContentType != "" && r.ContentType != TypeJSON && r.ContentType != TypeNDJSON) {
		return nil
	}
	data := []byte(r.Content)
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return nil
	}
	sh := Shape{Collections: []schemas.Collection{{Path: c.Path, Kind: c.Kind, Count: c.Count}}}
	rows := []row{}
	done := errors.New("done")
	n := 0
	cs := s.colls[s.collIndex(c.Path)]
	lastPinned := -1
	if len(cs.pinned) > 0 {
		lastPinned = cs.pinned[len(cs.pinned)-1].index
	}
	compact := make(map[int]string, len(cs.pinned))
	err := EachRecord(data, sh, c.Path, func(i int, raw []byte) error {
		n = i + 1
		if len(rows) >= limit && i > lastPinned {
			return done
		}
		if pinned[i] {
			compact[i] = minify(raw)
		} else if len(rows) < limit {
			rows = append(rows, row{index: i, text: minify(raw)})
		}
		return nil
	})
	if err != nil && !errors.Is(err, done) {
		return nil
	}
	if !errors.Is(err, done) && n != c.Count {
		return nil // not the same records
	}
	for k := range cs.pinned {
		cs.pinned[k].compact = compact[cs.pinned[k].index]
	}
	return rows
}

// collIndex returns the index of the collection at path.
func (s *summary) collIndex(path string) int {
	for i, c := range s.shape.Collections {
		if c.Path == path {
			return i
		}
	}
	return -1
}

// tableRows returns the leading rows of level 1's table output (a header
// line, then one line per record) and keeps its header, or nil when the
// table does not have one line per record of c.
func (s *summary) tableRows(c schemas.Collection, limit int, pinned map[int]bool) []row {
	lines := strings.Split(strings.TrimSuffix(s.best.Result.Content, "\n"), "\n")
	if len(lines)-1 != c.Count {
		return nil
	}
	s.colls[0].header = lines[0]
	rows := []row{}
	for i, l := range lines[1:] {
		if len(rows) >= limit {
			break
		}
		if !pinned[i] {
			rows = append(rows, row{index: i, text: l})
		}
	}
	return rows
}

// fitPlan is one way of rendering the summary.
type fitPlan struct {
	maxFields int // fields listed per collection; -1 lists all
	example   bool
	pinned    []int // pinned rows shown per collection
	// compactPinned lists the collections whose pinned rows are shown
	// in level 1's form rather than in full.
	compactPinned []int
	leading       []int // leading rows shown per collection
}

// fit renders the richest summary that fits budget and returns it with
// the rows shown per collection. It shrinks stepwise: fewer leading rows,
// fewer pinned rows, fewer fields listed, no example query; the bare
// minimum is what the output is, the counts and the handle.
func (s *summary) fit(budget int) (string, []int, bool) {
	n := len(s.colls)
	count := s.p.counter.Count
	var base fitPlan
	found := false
	for _, pl := range []fitPlan{
		{maxFields: -1, example: true}, {maxFields: 12, example: true}, {maxFields: 4, example: true},
		{maxFields: 0, example: true}, {maxFields: 0, example: false},
	} {
		pl.pinned, pl.leading = make([]int, n), make([]int, n)
		if count(s.render(pl)) <= budget {
			base, found = pl, true
			break
		}
	}
	s.minimum = count(s.render(fitPlan{maxFields: 0, pinned: make([]int, n), leading: make([]int, n)}))
	if !found {
		return "", nil, false
	}
	// Rows: pinned rows first, then leading rows; collections take turns
	// with an equal share of what is left. Row sizes are counted one by
	// one and the whole text is then counted exactly; rows are removed
	// from the end until it fits.
	used := count(s.render(base))
	left := budget - used
	pl := base
	for ci := range s.colls {
		share := left / (n - ci)
		spent := 0
		cs := &s.colls[ci]
		full := 0
		for k := range cs.pinned {
			r := &cs.pinned[k]
			if r.tokens == 0 {
				r.tokens = count(r.text) + 1
			}
			if full+r.tokens > share {
				break
			}
			full += r.tokens
			pl.pinned[ci]++
		}
		spent = full
		if pl.pinned[ci] < len(cs.pinned) && cs.pinned[0].compact != "" {
			// Not all pinned rows fit in full: show them all in level
			// 1's form if that shows more of them.
			k, used := 0, 0
			for j := range cs.pinned {
				r := &cs.pinned[j]
				if r.compactTokens == 0 {
					r.compactTokens = count(r.compact) + 1
				}
				if used+r.compactTokens > share {
					break
				}
				used += r.compactTokens
				k++
			}
			if k > pl.pinned[ci] {
				pl.pinned[ci], spent = k, used
				pl.compactPinned = append(pl.compactPinned, ci)
			}
		}
		if pl.pinned[ci] == len(cs.pinned) {
			for k := range cs.leading {
				r := &cs.leading[k]
				if r.tokens == 0 {
					r.tokens = count(r.text) + 1
				}
				if spent+r.tokens > share {
					break
				}
				spent += r.tokens
				pl.leading[ci]++
			}
		}
		left -= spent
	}
	text := s.render(pl)
	for count(text) > budget {
		// Drop one row from the collection that shows the most.
		ci, most := -1, 0
		for i := range s.colls {
			if k := pl.pinned[i] + pl.leading[i]; k > most {
				ci, most = i, k
			}
		}
		if ci < 0 {
			text = s.render(base)
			break
		}
		if pl.leading[ci] > 0 {
			pl.leading[ci]--
		} else {
			pl.pinned[ci]--
		}
		text = s.render(pl)
	}
	shown := make([]int, n)
	for i := range shown {
		shown[i] = pl.pinned[i] + pl.leading[i]
	}
	return text, shown, true
}

// render writes the summary text for plan pl.
func (s *summary) render(pl fitPlan) string {
	var b strings.Builder
	h := s.art.Handle
	fmt.Fprintf(&b, "[compact: this output is too large for its budget of %s tokens; the full original is stored as artifact %s]\n", commas(s.best.Result.Tokens.Budget), h)
	tool := s.in.Tool
	if tool == "" {
		tool = "(unnamed)"
	}
	est := ""
	if s.best.Result.Tokens.BeforeEstimated {
		est = " (estimated)"
	}
	fmt.Fprintf(&b, "tool: %s; %s bytes of %s; %s tokens%s\n", tool, commas(len(s.in.Data)), s.contentType, commas(s.best.Result.Tokens.Before), est)
	if len(s.shape.Collections) == 0 {
		fmt.Fprintf(&b, "no records: the content (%s) is not shown\n", s.shape.Format)
	}
	for ci, c := range s.shape.Collections {
		cs := &s.colls[ci]
		shown := pl.pinned[ci] + pl.leading[ci]
		fmt.Fprintf(&b, "collection %s (%s): %s records; showing %s of %s", c.Path, c.Kind, commas(c.Count), commas(shown), commas(c.Count))
		if cs.pinnedCount > 0 {
			fmt.Fprintf(&b, " (%s of %s pinned rows, then %s leading rows)", commas(pl.pinned[ci]), commas(cs.pinnedCount), commas(pl.leading[ci]))
		}
		b.WriteString("\n")
		if len(c.Fields) > 0 && pl.maxFields != 0 {
			b.WriteString("  fields: ")
			k := len(c.Fields)
			if pl.maxFields > 0 && k > pl.maxFields {
				k = pl.maxFields
			}
			for i, f := range c.Fields[:k] {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s (%s", strings.TrimPrefix(fieldName(f.Name), "."), strings.Join(f.Types, "|"))
				if f.Present < c.Count {
					fmt.Fprintf(&b, "; in %s", commas(f.Present))
				}
				b.WriteString(")")
			}
			if k < len(c.Fields) {
				fmt.Fprintf(&b, " (+%d more fields)", len(c.Fields)-k)
			}
			b.WriteString("\n")
		} else if len(c.Fields) > 0 {
			fmt.Fprintf(&b, "  %d fields\n", len(c.Fields))
		}
		if pl.pinned[ci] > 0 {
			compact := slices.Contains(pl.compactPinned, ci)
			form := "in full"
			if compact {
				form = "after the field rules"
			}
			fmt.Fprintf(&b, "pinned rows of %s (%s), %s:\n", c.Path, s.in.Rules.Pin, form)
			for _, r := range cs.pinned[:pl.pinned[ci]] {
				if compact {
					b.WriteString(r.compact)
				} else {
					b.WriteString(r.text)
				}
				b.WriteString("\n")
			}
		}
		if pl.leading[ci] > 0 {
			form := ""
			if c.Kind != "lines" {
				form = ", after the field rules"
			}
			if cs.header != "" {
				form = ", as level 1's table (tab-separated, header first)"
			}
			fmt.Fprintf(&b, "leading rows of %s%s:\n", c.Path, form)
			if cs.header != "" {
				b.WriteString(cs.header)
				b.WriteString("\n")
			}
			for _, r := range cs.leading[:pl.leading[ci]] {
				b.WriteString(r.text)
				b.WriteString("\n")
			}
		}
	}
	if pl.example {
		b.WriteString(s.exampleText())
	}
	return b.String()
}

// exampleText is the "how to get the rest" part of the summary.
func (s *summary) exampleText() string {
	h := s.art.Handle
	var b strings.Builder
	b.WriteString("get the rest:\n")
	for ci, c := range s.shape.Collections {
		if q := s.colls[ci].example; q != "" {
			fmt.Fprintf(&b, "  compact artifact query %s --jq %s\n", h, shellQuote(q))
			fmt.Fprintf(&b, "  read_artifact {\"ref\":%q,\"op\":\"jq\",\"filter\":%s}\n", h, strconv.Quote(q))
			return b.String()
		}
		if c.Kind == "lines" {
			fmt.Fprintf(&b, "  compact artifact slice %s --offset 0 --limit 50\n", h)
			fmt.Fprintf(&b, "  read_artifact {\"ref\":%q,\"op\":\"slice\",\"offset\":0,\"limit\":50}\n", h)
			return b.String()
		}
	}
	fmt.Fprintf(&b, "  compact artifact get %s > output\n", h)
	return b.String()
}

// exampleQuery writes a jq filter for collection c that uses a real field
// of its records: it selects on a categorical field (state, status,
// level, ...) with a value from the first record and yields an id-like
// field; without such fields it yields one field of the first records.
func exampleQuery(c schemas.Collection, cs *collView, pin string) string {
	if c.Kind == "lines" {
		return ""
	}
	iter := iterExpr(c)
	if len(c.Fields) == 0 {
		// Records that are not objects: look one up by key, or slice.
		var m map[string]any
		if c.Kind == "map" && jsonv2.Unmarshal([]byte(cs.firstRaw.text), &m, lenient) == nil {
			for k := range m {
				lit, _ := jsonv2.Marshal(k)
				return fmt.Sprintf("%s | select(.key == %s) | .value", iter, lit)
			}
		}
		if c.Kind == "array" {
			return c.Path + "[:50]"
		}
		return ""
	}
	first := firstObject(c, cs)
	// An id-like field to yield, and a categorical field to select on,
	// matched by name without regard to case.
	pick := func(names []string, suffixes []string, types ...string) []string {
		var out []string
		for _, want := range names {
			for _, f := range c.Fields {
				if strings.EqualFold(f.Name, want) && hasAny(f.Types, types) {
					out = append(out, f.Name)
				}
			}
		}
		for _, f := range c.Fields {
			l := strings.ToLower(f.Name)
			for _, suf := range suffixes {
				if strings.HasSuffix(l, suf) && hasAny(f.Types, types) {
					out = append(out, f.Name)
				}
			}
		}
		return out
	}
	yield := fieldName(c.Fields[0].Name)
	if ids := pick([]string{"id", "number", "name", "key", "title", "uid", "arn", "path"}, []string{"name", "id"}, "string", "number"); len(ids) > 0 {
		yield = fieldName(ids[0])
	} else if meta := pick([]string{"metadata"}, nil, "object"); len(meta) > 0 {
		yield = fieldName(meta[0]) + ".name" // Kubernetes objects
	}
	if c.Kind == "map" {
		yield = ".value" + yield
	}
	if pin != "" && cs.pinnedCount > 0 {
		// The query that lists every pinned row, shown or not.
		if strings.HasPrefix(strings.TrimSpace(pin), "select(") {
			if c.Kind == "map" {
				return fmt.Sprintf("%s | select(.value | %s) | .key", iter, pin)
			}
			return fmt.Sprintf("%s | %s | %s", iter, pin, yield)
		}
		if c.Kind == "map" {
			return fmt.Sprintf("%s | select(.value | %s) | .key", iter, pin)
		}
		return fmt.Sprintf("%s | select(%s) | %s", iter, pin, yield)
	}
	cats := pick([]string{"state", "status", "level", "severity", "type", "kind", "phase", "statevalue", "state_value"}, []string{"state", "status", "level"}, "string")
	for _, name := range cats {
		if first == nil {
			break
		}
		v, ok := first[name].(string)
		if !ok || v == "" || len(v) > 40 {
			continue
		}
		lit, _ := jsonv2.Marshal(v)
		if c.Kind == "map" {
			return fmt.Sprintf("%s | select(.value%s == %s) | .key", iter, fieldName(name), lit)
		}
		return fmt.Sprintf("%s | select(%s == %s) | %s", iter, fieldName(name), lit, yield)
	}
	if c.Kind == "map" {
		return fmt.Sprintf("%s | {key, value: %s}", iter, yield)
	}
	return fmt.Sprintf("%s | %s", iter, yield)
}

func hasAny(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if h == w {
				return true
			}
		}
	}
	return false
}

// firstObject returns the first pinned or leading record (a map's member
// value) that is a JSON object, or nil.
func firstObject(c schemas.Collection, cs *collView) map[string]any {
	rows := append(append([]row(nil), cs.pinned...), cs.leading...)
	if cs.header != "" {
		rows = cs.pinned // table rows are not JSON
	}
	for _, r := range append(rows, cs.firstRaw) {
		var v any
		if r.text == "" || jsonv2.Unmarshal([]byte(r.text), &v, lenient) != nil {
			continue
		}
		m, ok := v.(map[string]any)
		if ok && c.Kind == "map" && len(m) == 1 {
			for _, x := range m {
				m, ok = x.(map[string]any)
			}
		}
		if ok {
			return m
		}
	}
	return nil
}

// iterExpr is the jq expression that yields the records of c (for a map,
// its entries).
func iterExpr(c schemas.Collection) string {
	switch c.Kind {
	case "map":
		return c.Path + " | to_entries[]"
	case FormatJSONL, FormatConcat:
		return "."
	}
	if c.Path == "." {
		return ".[]"
	}
	return c.Path + "[]"
}

// fieldName renders a member access: .name or ."odd name".
func fieldName(name string) string { return pathSegment(name) }

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// commas formats n with thousands separators: 5000 -> "5,000".
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
