package budget

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget/internal/format"
	"github.com/toolcompact/compact/budget/view"
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
// sees a view of it that fits the budget (package view): what the output
// is, its facts outside any collection, every collection with its exact
// count and the profile of its fields, rows chosen with the reason each
// is there (pinned, error states, rare values, outliers, extremes, first
// and last, an even spread), what is not shown and the queries that fetch
// exactly that, and the handle.
//
// Run calls it when p.store != nil and level 1's best output (best) is
// still over budget. in is the original input (in.Data the full bytes) and
// shape its detected shape. It returns a *FitError when even the bare view
// (what the output is, the counts and the handle) does not fit.
func (p *Pipeline) level2(ctx context.Context, in Input, shape Shape, best Level1Result) (schemas.Result, error) {
	res := best.Result
	budget := res.Tokens.Budget
	// Storing is mostly waiting for the disk (fsync): it overlaps with
	// the pin predicate.
	type stored struct {
		art *schemas.Artifact
		act schemas.Action
		err error
	}
	// With the original's digest known first, the view is made with the
	// handle the store will issue while the bytes are written and
	// synced (index.go: originalDigest).
	sum := p.originalDigest(in)
	done := make(chan stored, 1)
	indexed := make(chan struct{}) // closed once the index is written (index.go)
	defer func() { <-indexed }()
	go func() {
		defer close(indexed)
		// in.Data may be a mapped file (compact run FILE) that another
		// process truncates: reading it then faults. The caller's
		// goroutine can turn that into a panic it recovers
		// (debug.SetPanicOnFault), but this one is ours: the fault
		// becomes the store's error here instead of killing the process.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		sent := false
		defer func() {
			if r := recover(); r != nil {
				var fault interface{ Addr() uintptr }
				err, ok := r.(error)
				if !ok || !errors.As(err, &fault) {
					panic(r)
				}
				if !sent { // else the index is not written, nothing more
					done <- stored{err: fmt.Errorf("%s: store the original (%d bytes): the input changed while it was read: %w", in.Tool, len(in.Data), err)}
				}
			}
		}()
		art, act, err := p.storeOriginal(ctx, in, shape, sum)
		sent = true
		done <- stored{art, act, err}
		if err == nil {
			p.writeIndex(in, shape, art.SHA256) // beside the view
		}
	}()
	ext := viewShape(in, shape)
	s := &summary{
		p: p, in: in, shape: ext, regColls: shape.Collections,
		colls: make([]collView, len(ext.Collections)),
	}
	var pinActs []schemas.Action
	if in.Rules.Pin != "" && len(shape.Collections) > 0 {
		pinActs = s.pin(ctx, in.Rules.Pin)
	}
	var st stored
	handle := ""
	if len(sum) >= predictedHandleLen {
		handle = sum[:predictedHandleLen]
	} else {
		if st = <-done; st.err != nil {
			return schemas.Result{}, st.err
		}
		handle = st.art.Handle
	}
	vin := view.Input{
		Tool: in.Tool, ContentType: contentTypeOf(in, shape), Format: ext.Format, Data: in.Data,
		Handle: RefOf(handle), Budget: budget, TokensBefore: res.Tokens.Before, BeforeEstimated: res.Tokens.BeforeEstimated,
		Args: in.Args, Drop: dropFunc(in.Rules), Identity: in.Rules.Identity,
		Index: in.Rules.Index, Sort: in.Rules.Sort,
	}
	for ci, c := range ext.Collections {
		vc := view.Collection{Path: c.Path, Kind: c.Kind, Count: c.Count, Also: ci >= len(s.regColls),
			Each: func(fn func(int, []byte) error) error { return EachRecord(in.Data, ext, c.Path, fn) },
			Text: collectionText(in.Data, ext, c.Path), RecordLists: recordListsAt(ext, c.Path)}
		if ci < len(ext.stats) {
			vc.Fed = ext.fedOf(ext.stats[ci].node, c.Kind) // profiled by level 1's walk
		}
		if ci < len(s.regColls) && (s.colls[ci].pinnedCount > 0 || s.colls[ci].stopped) {
			vc.Pin, vc.PinnedCount = in.Rules.Pin, s.colls[ci].pinnedCount
			vc.PinStopped, vc.PinTested = s.colls[ci].stopped, s.colls[ci].tested
			for _, r := range s.colls[ci].pinned {
				vc.Pinned = append(vc.Pinned, r.index)
			}
		}
		vin.Collections = append(vin.Collections, vc)
	}
	v, err := view.Build(vin)
	for _, vc := range vin.Collections {
		if vc.Fed.Taken() {
			fedViews.Add(1)
		}
	}
	if st.art == nil {
		if st = <-done; st.err != nil {
			return schemas.Result{}, st.err
		}
		if err == nil && st.art.Handle != handle {
			// Another digest held the prefix: the issued handle is
			// longer. Made again with it.
			vin.Handle = RefOf(st.art.Handle)
			v, err = view.Build(vin)
		}
	}
	art, storeAct := st.art, st.act
	if err != nil {
		return schemas.Result{}, fmt.Errorf("%s: the view of artifact %s: %w", in.Tool, art.Handle, err)
	}
	filled, err := v.Fill(p.counter, budget)
	if err != nil {
		return schemas.Result{}, &FitError{
			Tool: in.Tool, Budget: budget, Tokens: filled.Minimum,
			Level:  schemas.LevelArtifact,
			Reason: fmt.Sprintf("even the bare view (the counts of %d collections and the handle %s) needs %d tokens; the original is stored as %s", len(ext.Collections), RefOf(art.Handle), filled.Minimum, RefOf(art.Handle)),
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
	// The view shows the items of records that are arrays of objects as
	// a collection of their own (gcc's JSON diagnostics): the envelope
	// states it too, after the output's, with what the view shows of it.
	items := v.Items()
	for _, it := range items {
		colls = append(colls, schemas.Collection{Path: it.Path, Kind: it.Kind, Count: it.Count})
	}
	for i := range colls {
		colls[i].Shown = filled.Shown(v, colls[i].Path)
		if colls[i].Shown < colls[i].Count {
			detail := fmt.Sprintf("showing %s of %s records; the rest are in %s", commas(colls[i].Shown), commas(colls[i].Count), RefOf(art.Handle))
			for _, it := range items {
				switch colls[i].Path {
				case it.Of:
					detail = fmt.Sprintf("showing %s of %s records whole; their %s items are the collection %s; the rest are in %s", commas(colls[i].Shown), commas(colls[i].Count), commas(it.Count), it.Path, RefOf(art.Handle))
					if it.Nodes {
						detail = fmt.Sprintf("showing %s of %s records whole; with their root and every node under them they are the %s nodes of the collection %s; the rest are in %s", commas(colls[i].Shown), commas(colls[i].Count), commas(it.Count), it.Path, RefOf(art.Handle))
					}
				case it.Path:
					detail = fmt.Sprintf("showing %s of %s records (the items of the records of %s); the rest are in %s", commas(colls[i].Shown), commas(colls[i].Count), it.Of, RefOf(art.Handle))
					if it.Nodes {
						detail = fmt.Sprintf("showing %s of %s records (the nodes at every depth of the tree whose root's children are %s); the rest are in %s", commas(colls[i].Shown), commas(colls[i].Count), it.Of, RefOf(art.Handle))
					}
				}
			}
			actions = append(actions, schemas.Action{
				Level: schemas.LevelArtifact, Kind: "omit_records", Target: colls[i].Path,
				Count:  colls[i].Count - colls[i].Shown,
				Detail: detail,
				Handle: art.Handle,
			})
		}
	}
	if len(shape.Collections) == 0 {
		actions = append(actions, schemas.Action{
			Level: schemas.LevelArtifact, Kind: "omit_content", Target: ".",
			Detail: fmt.Sprintf("the %s content (%s bytes) is not shown; it is %s", contentTypeOf(in, shape), commas(len(in.Data)), RefOf(art.Handle)),
			Handle: art.Handle,
		})
	}
	return schemas.Result{
		Content:     filled.Text,
		Level:       schemas.LevelArtifact,
		Tool:        res.Tool,
		ContentType: res.ContentType,
		Tokens: schemas.Tokens{Before: res.Tokens.Before, BeforeEstimated: res.Tokens.BeforeEstimated,
			After: filled.Tokens, Budget: budget, Encoding: p.counter.Encoding()},
		Collections: colls,
		Artifact:    art,
		Actions:     actions,
	}, nil
}

// viewShape is the shape whose collections the view shows: every
// collection in the output is counted, also those the registry's records
// paths leave out (npm view's .exports), after the registry's.
func viewShape(in Input, shape Shape) Shape {
	ext := shape
	if len(in.Rules.Records) > 0 && (shape.Format == FormatJSON || shape.Format == FormatJSONL || shape.Format == FormatConcat) {
		if det, err := detectedShape(in, shape); err == nil {
			ext.Collections = slices.Clip(shape.Collections)
			ext.stats = slices.Clip(shape.stats)
			for j, c := range det.Collections {
				if !slices.ContainsFunc(shape.Collections, func(r schemas.Collection) bool { return r.Path == c.Path }) {
					ext.Collections = append(ext.Collections, c)
					if len(ext.stats) == len(ext.Collections)-1 && j < len(det.stats) {
						// Its text, when it is one slice (collectionText).
						ext.stats = append(ext.stats, det.stats[j])
					}
				}
			}
		}
	}
	return ext
}

// detectedShape is DetectShapeAs(in.Data, nil, in.ContentType), the
// shape with no records paths, from the pipeline's shape when it has the
// path tree (no second walk of the input).
func detectedShape(in Input, shape Shape) (Shape, error) {
	if d, ok := shape.detected(); ok && sameBytes(shape.data, in.Data) {
		return d, nil
	}
	return DetectShapeAs(in.Data, nil, in.ContentType)
}

// dropFunc reports the record fields the rules drop, by the last segment
// of their path ("*_url", "avatar_url") or the whole path relative to a
// record ("items[].user.login" is "user.login" of .items).
func dropFunc(r Rules) func(string) bool {
	var pats []string
	pats = append(pats, r.Drop...)
	if r.Defaults {
		pats = append(pats, "*_url")
	}
	if len(pats) == 0 {
		return nil
	}
	split := func(p string) []string {
		p = strings.TrimPrefix(strings.ReplaceAll(p, "[]", ""), ".")
		return strings.Split(p, ".")
	}
	var segs [][]string
	for _, p := range pats {
		segs = append(segs, split(p))
	}
	return func(path string) bool {
		ps := split(path)
		for _, pat := range segs {
			// The pattern matches a run of the path's segments; a
			// one-segment pattern (*_url) matches any segment, a longer
			// one starts at the record or at a segment below it.
			for i := 0; i+len(pat) <= len(ps); i++ {
				ok := true
				for k, g := range pat {
					if !globMatch(g, ps[i+k]) {
						ok = false
						break
					}
				}
				if ok {
					return true
				}
			}
		}
		return false
	}
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
	art, act, err := p.storeOriginal(ctx, in, shape, "")
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
//
// sum, when not "", is the SHA-256 of in.Data (originalDigest): a
// HashedStore does not hash the bytes again.
func (p *Pipeline) storeOriginal(ctx context.Context, in Input, shape Shape, sum string) (*schemas.Artifact, schemas.Action, error) {
	if p.store == nil {
		return nil, schemas.Action{}, errors.New("budget: no artifact store configured")
	}
	colls := make([]schemas.Collection, len(shape.Collections))
	copy(colls, shape.Collections)
	meta := Meta{
		Tool: in.Tool, Created: time.Now().UTC(), ContentType: contentTypeOf(in, shape),
		Bytes: int64(len(in.Data)), Collections: colls,
	}
	var h Handle
	var m Meta
	var err error
	hs, hashed := p.store.(HashedStore)
	switch {
	case in.Spooled != nil:
		h, m, err = in.Spooled.Commit(ctx, meta) // already written: no second copy
	case hashed && sum != "":
		h, m, err = hs.PutHashed(ctx, in.Data, sum, meta)
	default:
		h, m, err = p.store.Put(ctx, bytes.NewReader(in.Data), meta)
	}
	if err != nil {
		return nil, schemas.Action{}, fmt.Errorf("%s: store the original (%d bytes): %w", in.Tool, len(in.Data), err)
	}
	art := &schemas.Artifact{Handle: string(h), SHA256: m.SHA256, Bytes: m.Bytes}
	if art.Bytes == 0 {
		art.Bytes = int64(len(in.Data))
	}
	return art, schemas.Action{
		Level: schemas.LevelArtifact, Kind: "store", Target: ".",
		Detail: fmt.Sprintf("the full original (%s bytes, sha256 %s) is stored as %s: compact artifact get %s", commas(int(art.Bytes)), art.SHA256, RefOf(art.Handle), RefOf(art.Handle)),
		Handle: art.Handle,
	}, nil
}

func contentTypeOf(in Input, shape Shape) string {
	if in.ContentType != "" {
		return in.ContentType
	}
	return shape.ContentType
}

// summary holds what level 2 finds before it builds the view: the rows
// the registry's pin predicate selects, per collection.
type summary struct {
	p     *Pipeline
	in    Input
	shape Shape
	colls []collView
	// regColls are the registry's collections (the first of
	// shape.Collections); the others were found besides them.
	regColls []schemas.Collection
}

// collView is what the pin predicate selected in one collection.
type collView struct {
	pinned      []row // pinned rows, in order (at most maxPinnedKept)
	pinnedCount int   // every record the predicate selected
	// stopped is true when the predicate stopped at its deadline after
	// testing the first tested records.
	stopped bool
	tested  int
}

// row is one pinned record.
type row struct {
	index int
	text  string
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
			cs.stopped, cs.tested = true, seen
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
		if cs.stopped {
			detail = fmt.Sprintf("pin predicate %s selects %s of the first %s records (of %s) it tested before its deadline; they are shown first", pred, commas(cs.pinnedCount), commas(cs.tested), commas(c.Count))
		} else if cs.pinnedCount == 0 {
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

// commas formats n with thousands separators: 5000 -> "5,000".
func commas(n int) string { return format.Commas(n) }
