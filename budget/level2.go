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
	wait := func() (*schemas.Artifact, schemas.Action, error) {
		st := <-done
		return st.art, st.act, st.err
	}
	if res, ok, err := p.textLevel2(ctx, in, shape, best, wait); ok {
		return res, err
	}
	// Every collection in the output is counted, also those the
	// registry's records paths leave out (npm view's .exports).
	ext := shape
	if len(in.Rules.Records) > 0 && (shape.Format == FormatJSON || shape.Format == FormatJSONL || shape.Format == FormatConcat) {
		if det, err := DetectShape(in.Data, nil); err == nil {
			ext.Collections = slices.Clip(shape.Collections)
			for _, c := range det.Collections {
				if !slices.ContainsFunc(shape.Collections, func(r schemas.Collection) bool { return r.Path == c.Path }) {
					ext.Collections = append(ext.Collections, c)
				}
			}
		}
	}
	s := &summary{
		p: p, in: in, shape: ext, best: best, regColls: shape.Collections,
		contentType: contentTypeOf(in, shape),
		colls:       make([]collView, len(ext.Collections)),
	}
	var pinActs []schemas.Action
	if in.Rules.Pin != "" && len(shape.Collections) > 0 {
		pinActs = s.pin(ctx, in.Rules.Pin)
	}
	lerr := s.leading(ctx)
	st := <-done
	if st.err != nil {
		return schemas.Result{}, st.err
	}
	if lerr != nil {
		return schemas.Result{}, lerr
	}
	art, storeAct := st.art, st.act
	s.art = art
	content, pl, ok := s.fit(budget)
	if !ok {
		return schemas.Result{}, &FitError{
			Tool: in.Tool, Budget: budget, Tokens: s.minimum,
			Level:  schemas.LevelArtifact,
			Reason: fmt.Sprintf("even the bare summary (the counts of %d collections and the handle %s) needs %d tokens; the original is stored as artifact %s", len(ext.Collections), art.Handle, s.minimum, art.Handle),
		}
	}
	colls := make([]schemas.Collection, len(ext.Collections))
	copy(colls, ext.Collections)
	for i := range res.Collections {
		if i < len(colls) && res.Collections[i].Path == colls[i].Path {
			colls[i] = res.Collections[i]
		}
	}
	actions := append([]schemas.Action(nil), res.Actions...)
	actions = append(actions, storeAct)
	actions = append(actions, pinActs...)
	actions = append(actions, s.shortenActions(pl)...)
	for i := range colls {
		colls[i].Shown = pl.pinned[i] + pl.leading[i]
		if colls[i].Shown < colls[i].Count {
			actions = append(actions, schemas.Action{
				Level: schemas.LevelArtifact, Kind: "omit_records", Target: colls[i].Path,
				Count:  colls[i].Count - colls[i].Shown,
				Detail: fmt.Sprintf("showing %s of %s records; the rest are in artifact %s", commas(colls[i].Shown), commas(colls[i].Count), art.Handle),
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
	after := s.count(content) // fit counted it: remembered
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
	// regColls are the registry's collections (the first of
	// shape.Collections); the others were found besides them.
	regColls []schemas.Collection
	views    map[[2]int]*formView // rows per (form, collection)
	l1data   []byte               // level 1's records as JSON (see compactSource)
	l1table  bool                 // l1data was read back from level 1's table
	// counted remembers the token counts of the renders fit counted: it
	// counts the same text up to three times (the loop, the check after
	// it, Tokens.After), and renders of different plans often coincide.
	counted map[string]int
}

// count counts a rendered summary once.
func (s *summary) count(text string) int {
	if n, ok := s.counted[text]; ok {
		return n
	}
	if s.counted == nil {
		s.counted = make(map[string]int)
	}
	n := s.p.counter.Count(text)
	s.counted[text] = n
	return n
}

// collView is what the summary may show of one collection.
type collView struct {
	pinned      []row // pinned rows, in order (at most maxPinnedKept)
	pinnedCount int   // every record the predicate selected
	leading     []row // leading rows that are not pinned
	firstRaw    row   // the first record of the original, minified
	example     string
}

// row is one record as shown.
type row struct {
	index int
	text  string
	// compact is a pinned row in level 1's form, when known; it is shown
	// instead of text unless every pinned row fits in full.
	compact string
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
	for ci, c := range s.regColls {
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
	if !spaceOutsideStrings(raw) {
		// Nothing to remove: Compact would return raw as it is (it
		// changes white space only), or fail, and then raw is returned
		// too. Most records (of minified API output, and level 1's) take
		// this path, which saves a copy and a validating parse.
		return string(raw)
	}
	return compactJSON(raw)
}

// compactJSON is minify without the shortcut.
func compactJSON(raw []byte) string {
	v := jsontext.Value(append([]byte(nil), raw...))
	if err := v.Compact(); err != nil {
		return string(raw)
	}
	return string(v)
}

// spaceOutsideStrings reports whether raw has a JSON white-space byte
// (space, tab, CR, LF) outside its strings: the only bytes minify
// removes.
func spaceOutsideStrings(raw []byte) bool {
	in := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case in && c == '\\':
			i++ // the escaped byte cannot end the string
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return true
		}
	}
	return false
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
// records that are not pinned, in level 1's form when level 1's output
// holds the collection with the same records (a table is read back as
// JSON; a plugin's own format is replaced by the declarative rules' JSON),
// otherwise the original records minified. It also gives pinned rows
// their level 1 form. It collects at most enough rows to fill the budget
// many times over.
func (s *summary) leading(ctx context.Context) error {
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
		rows := s.level1Rows(ctx, c, limit, pinned)
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
		cs.example = exampleQuery(c, cs, s.pinFor(ci))
	}
	return nil
}

// pinFor is the pin predicate of collection ci: the registry's records
// only, not the collections level 2 found besides them.
func (s *summary) pinFor(ci int) string {
	if ci < len(s.regColls) {
		return s.in.Rules.Pin
	}
	return ""
}

// level1Rows returns the leading rows of collection c in level 1's form
// (see compactSource) and sets the pinned rows' level 1 form, or returns
// nil when level 1's output does not hold the collection with the same
// records.
func (s *summary) level1Rows(ctx context.Context, c schemas.Collection, limit int, pinned map[int]bool) []row {
	data, sh, ok := s.compactSource(ctx, c)
	if !ok {
		return nil
	}
	rows := []row{}
	done := errors.New("done")
	n := 0
	cs := &s.colls[s.collIndex(c.Path)]
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

// fitPlan is one way of rendering the summary.
type fitPlan struct {
	maxFields int // fields listed per collection; -1 lists all
	example   bool
	form      int   // index in rowForms
	pinned    []int // pinned rows shown per collection
	leading   []int // leading rows shown per collection
}

// fit renders the richest summary that fits budget and returns it with
// the plan it rendered. The rowless summary is chosen first: every field
// listed, then 12, then 4 per collection, then only their number, then
// no example query (preferring a list that leaves half the budget to
// rows); the bare minimum is what the output is, the counts and the
// handle. Rows then fill what is left, in the form chosen as rowForms
// describes.
func (s *summary) fit(budget int) (string, fitPlan, bool) {
	n := len(s.colls)
	count := s.count
	var base fitPlan
	found := false
	plans := []fitPlan{
		{maxFields: -1, example: true}, {maxFields: 12, example: true}, {maxFields: 4, example: true},
		{maxFields: 0, example: true}, {maxFields: 0, example: false},
	}
	for _, limit := range []int{budget / 2, budget} {
		for _, pl := range plans {
			pl.pinned, pl.leading = make([]int, n), make([]int, n)
			if count(s.render(pl)) <= limit {
				base, found = pl, true
				break
			}
		}
		if found {
			break
		}
	}
	s.minimum = count(s.render(fitPlan{maxFields: 0, pinned: make([]int, n), leading: make([]int, n)}))
	if !found {
		return "", fitPlan{}, false
	}
	used := count(s.render(base))
	total := 0
	for _, c := range s.shape.Collections {
		total += c.Count
	}
	target := min(total, minRows)
	var best fitPlan
	bestText, bestShown := "", -1
	for fi := range rowForms {
		pl := base
		pl.pinned, pl.leading = make([]int, n), make([]int, n)
		if !s.planRows(&pl, fi, budget-used) {
			continue
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
				break
			}
			if pl.leading[ci] > 0 {
				pl.leading[ci]--
			} else {
				pl.pinned[ci]--
			}
			text = s.render(pl)
		}
		if count(text) > budget {
			continue
		}
		if rowForms[fi].fullPinned && !s.allPinned(pl) {
			continue
		}
		shown := 0
		for i := range s.colls {
			shown += pl.pinned[i] + pl.leading[i]
		}
		if shown > bestShown {
			best, bestText, bestShown = pl, text, shown
		}
		if shown >= target {
			break
		}
	}
	if bestShown < 0 {
		base.pinned, base.leading = make([]int, n), make([]int, n)
		return s.render(base), base, true
	}
	return bestText, best, true
}

// allPinned reports whether pl shows every kept pinned row.
func (s *summary) allPinned(pl fitPlan) bool {
	for ci := range s.colls {
		if pl.pinned[ci] < len(s.colls[ci].pinned) {
			return false
		}
	}
	return true
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
	size := commas(s.best.Result.Tokens.Before) + " tokens"
	if s.best.Result.Tokens.BeforeEstimated {
		// An upper bound, often 1.5-2.7x the exact count: say so.
		size = "at most " + size + " (estimate)"
	}
	fmt.Fprintf(&b, "tool: %s; %s bytes of %s; %s\n", tool, commas(len(s.in.Data)), s.contentType, size)
	if len(s.shape.Collections) == 0 {
		fmt.Fprintf(&b, "no records: the content (%s) is not shown\n", s.shape.Format)
	}
	for ci, c := range s.shape.Collections {
		cs := &s.colls[ci]
		shown := pl.pinned[ci] + pl.leading[ci]
		also := ""
		if ci >= len(s.regColls) {
			also = ", also found"
		}
		fmt.Fprintf(&b, "collection %s (%s%s): %s records; showing %s of %s", c.Path, c.Kind, also, commas(c.Count), commas(shown), commas(c.Count))
		if cs.pinnedCount > 0 {
			fmt.Fprintf(&b, " (%s of %s pinned rows, then %s leading rows)", commas(pl.pinned[ci]), commas(cs.pinnedCount), commas(pl.leading[ci]))
		}
		b.WriteString("\n")
		s.renderFields(&b, c, pl.maxFields)
		if shown == 0 {
			continue
		}
		v := s.view(pl.form, ci)
		f := rowForms[pl.form]
		s.renderGroup(&b, fmt.Sprintf("pinned rows of %s (%s)", c.Path, s.in.Rules.Pin), &v.pinned, pl.pinned[ci], f.maxStr, f.maxNested, c.Kind)
		s.renderGroup(&b, fmt.Sprintf("leading rows of %s", c.Path), &v.leading, pl.leading[ci], f.maxStr, f.maxNested, c.Kind)
	}
	if pl.example {
		b.WriteString(s.exampleText())
	}
	return b.String()
}

// renderFields writes the fields line of collection c: the fields
// grouped by their JSON types, in order of first appearance, a field that
// not every record has marked with how many have it ("draft (26)"), at
// most max names (-1: all) and then "and K more fields" with the query
// that lists them all.
func (s *summary) renderFields(b *strings.Builder, c schemas.Collection, max int) {
	if len(c.Fields) == 0 {
		return
	}
	if max == 0 {
		fmt.Fprintf(b, "  %d fields; list them: compact artifact query %s --jq %s\n", len(c.Fields), s.art.Handle, shellQuote(fieldsQuery(c)))
		return
	}
	k := len(c.Fields)
	if max > 0 && k > max {
		k = max
	}
	var order []string
	groups := map[string][]string{}
	for _, f := range c.Fields[:k] {
		t := strings.Join(f.Types, "|")
		if _, ok := groups[t]; !ok {
			order = append(order, t)
		}
		name := strings.TrimPrefix(fieldName(f.Name), ".")
		if f.Present < c.Count {
			name += " (" + commas(f.Present) + ")"
		}
		groups[t] = append(groups[t], name)
	}
	fmt.Fprintf(b, "  fields (%d", len(c.Fields))
	if slices.ContainsFunc(c.Fields[:k], func(f schemas.Field) bool { return f.Present < c.Count }) {
		b.WriteString("; (n) = in n records only")
	}
	b.WriteString("): ")
	for i, t := range order {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(b, "%s: %s", t, strings.Join(groups[t], ", "))
	}
	if k < len(c.Fields) {
		fmt.Fprintf(b, "; and %d more fields: compact artifact query %s --jq %s", len(c.Fields)-k, s.art.Handle, shellQuote(fieldsQuery(c)))
	}
	b.WriteString("\n")
}

// fieldsQuery is the jq filter that lists every field of c's records.
func fieldsQuery(c schemas.Collection) string {
	if c.Kind == "map" {
		return fmt.Sprintf("[%s | .value | keys[]] | unique", iterExpr(c))
	}
	return fmt.Sprintf("[%s | keys[]] | unique", iterExpr(c))
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
// its entries) in an artifact query, which reads a stream of JSON values
// as one array (jq -s).
func iterExpr(c schemas.Collection) string {
	switch c.Kind {
	case "map":
		return c.Path + " | to_entries[]"
	case FormatJSONL, FormatConcat:
		return ".[]"
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
