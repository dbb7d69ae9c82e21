package budget

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/budget/internal/format"
	"github.com/toolcompact/compact/budget/view"
	"github.com/toolcompact/compact/schemas"
)

// NoticePrefix starts the notice line of a level-1 result (see
// SplitNotice and docs/level1.md, "The notice").
const NoticePrefix = "[compact: "

// SplitNotice splits the content of a level-1 ("fields") or level-0
// ("none") result into its notice line and the payload after it. The
// notice is the first line when the content starts with NoticePrefix; it
// ends with "]" and the payload (level 1's JSON, table or text, or at
// level 0 the tool's output unchanged) follows the newline. Content
// without a notice comes back whole as the payload, with notice "".
//
// Level 2's text is not split this way: it is a summary whose first line
// is a header in the same style, not a payload to parse.
func SplitNotice(content string) (notice, payload string) {
	if !strings.HasPrefix(content, NoticePrefix) {
		return "", content
	}
	i := strings.IndexByte(content, '\n')
	if i < 0 {
		return content, ""
	}
	return content[:i], content[i+1:]
}

// losslessKinds are the action kinds that change no data (table, hex
// dump) or only inform (keep_collection, records_not_found, plugin,
// plugin_failed, plugin_skipped, table_skipped, store, store_failed).
// Every other kind, including any a plugin declares, counts as lossy.
var losslessKinds = map[string]bool{
	ActTable: true, ActTableSkipped: true, ActHexdump: true, ActKeptCollection: true,
	ActRecordsMissing: true, "plugin": true, "plugin_failed": true, "plugin_skipped": true, "store": true, "store_failed": true,
}

// level1Lossy reports whether the level-1 actions changed anything lossy:
// a declarative lossy action, any action a plugin declared beyond the
// lossless ones, or a plugin that reshaped the output at all.
func level1Lossy(acts []schemas.Action) bool {
	for _, a := range acts {
		if a.Kind == "plugin" || !losslessKinds[a.Kind] {
			return true
		}
	}
	return false
}

// maxNoticeConst is the longest constant value, minified, that level 1
// drops as a constant column and states in the notice; a longer one stays
// in the records (stating it would cost as much as keeping it readable).
const maxNoticeConst = 64

// noticeEntry is one field path with its count.
type noticeEntry struct {
	coll  int // index into the collections, -1 outside them
	rel   string
	count int
	value string // drop_constant: the value
}

// relPath returns the collection a level-1 action target lies in and the
// target relative to one record of it (".[].user.login" in collection "."
// is "user.login"); -1 and the target itself when it lies in none.
func relPath(target string, colls []schemas.Collection) (int, string) {
	best, rel := -1, target
	bestLen := -1
	for i, c := range colls {
		elem := c.Path + "[]"
		if c.Path == "." {
			elem = ".[]"
		}
		for _, pre := range []string{elem, c.Path} {
			if pre == "" || !strings.HasPrefix(target, pre) || len(pre) <= bestLen {
				continue
			}
			r := target[len(pre):]
			if r != "" && r[0] != '.' && r[0] != '[' && pre != "." {
				continue // .items2 is not in .items
			}
			r = strings.TrimPrefix(r, ".")
			if r == "" {
				continue
			}
			best, rel, bestLen = i, r, len(pre)
		}
	}
	return best, rel
}

// level1Notice renders the notice of a lossy level-1 result: the records
// shown, every field path left out with its count, the constants with
// their values, what was shortened or folded, and where the full original
// is (art; nil says it was not stored, and why in noStore).
func level1Notice(colls []schemas.Collection, acts []schemas.Action, art *schemas.Artifact, noStore string) string {
	var parts []string
	// Records shown.
	if len(colls) == 1 {
		parts = append(parts, fmt.Sprintf("%s of %s records shown", commas(colls[0].Shown), commas(colls[0].Count)))
	} else if len(colls) > 1 {
		var cs []string
		for _, c := range colls {
			cs = append(cs, fmt.Sprintf("%s %s of %s", c.Path, commas(c.Shown), commas(c.Count)))
		}
		parts = append(parts, "records shown: "+strings.Join(cs, ", "))
	}
	var fields, empties, consts, shortened, other []noticeEntry
	var textParts []string
	for _, a := range acts {
		if losslessKinds[a.Kind] {
			continue
		}
		ci, rel := relPath(a.Target, colls)
		e := noticeEntry{coll: ci, rel: rel, count: a.Count}
		switch a.Kind {
		case ActDropField, ActDropURL, ActDropID:
			fields = append(fields, e)
		case ActDropEmpty:
			empties = append(empties, e)
		case ActDropConstant:
			if i := strings.LastIndex(a.Detail, " has "); i >= 0 {
				e.value = a.Detail[i+len(" has "):]
			}
			consts = append(consts, e)
		case ActShorten:
			shortened = append(shortened, e)
		case ActCollapse:
			textParts = append(textParts, fmt.Sprintf("%s repeated lines folded into the line before them, marked [×N]", commas(a.Count)))
		case ActShortenLines:
			textParts = append(textParts, fmt.Sprintf("%s lines shortened, marked …[+N chars]", commas(a.Count)))
		case ActInvalidUTF8:
			textParts = append(textParts, fmt.Sprintf("%s bytes that are not UTF-8 shown as U+FFFD, one per run of them", commas(a.Count)))
		default:
			e.rel = a.Kind + " " + a.Target
			other = append(other, e)
		}
	}
	if len(fields) > 0 {
		parts = append(parts, fmt.Sprintf("left out: %s (%s)", plural(len(fields), "field"), groupEntries(fields, colls)))
	}
	if len(empties) > 0 {
		parts = append(parts, fmt.Sprintf(`left out as empty (null, "", [], {}): %s (%s)`, plural(len(empties), "field"), groupEntries(empties, colls)))
	}
	if len(consts) > 0 {
		byColl := map[int][]string{}
		var order []int
		for _, e := range consts {
			if _, ok := byColl[e.coll]; !ok {
				order = append(order, e.coll)
			}
			byColl[e.coll] = append(byColl[e.coll], e.rel+"="+e.value)
		}
		for _, ci := range order {
			who := "every record"
			if ci >= 0 && len(colls) > 1 {
				who = "every record of " + colls[ci].Path
			}
			parts = append(parts, who+" has "+strings.Join(byColl[ci], ", ")+" (left out)")
		}
	}
	if len(shortened) > 0 {
		n := 0
		for _, e := range shortened {
			n += e.count
		}
		parts = append(parts, fmt.Sprintf("%s strings shortened, marked …[+N chars] (%s)", commas(n), groupEntries(shortened, colls)))
	}
	parts = append(parts, textParts...)
	listed := len(fields)+len(empties)+len(consts)+len(shortened)+len(textParts) > 0
	if len(other) > 0 {
		parts = append(parts, "changed by the tool's compactor: "+groupEntries(other, nil))
	} else if !listed {
		for _, a := range acts {
			if a.Kind == "plugin" {
				parts = append(parts, "reshaped by the tool's compactor, which declared no changes")
				break
			}
		}
	}
	if art != nil {
		parts = append(parts, fmt.Sprintf("full original: %s (compact artifact get / read_artifact)", RefOf(art.Handle)))
	} else {
		parts = append(parts, "full original not stored: "+noStore)
	}
	return NoticePrefix + strings.Join(parts, "; ") + "]"
}

// groupEntries lists entries as "path ×count", sorted by path, with
// siblings of the same count written once: "user.{login,id} ×100".
func groupEntries(es []noticeEntry, colls []schemas.Collection) string {
	type key struct {
		prefix string
		count  int
	}
	groups := map[key][]string{}
	var keys []key
	for _, e := range es {
		p := e.rel
		if e.coll >= 0 && len(colls) > 1 {
			p = colls[e.coll].Path + ": " + p
		}
		parent, leaf := "", p
		if i := strings.LastIndexAny(p, ".]"); i >= 0 && i < len(p)-1 {
			parent, leaf = p[:i+1], p[i+1:]
		}
		k := key{parent, e.count}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], leaf)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].prefix != keys[j].prefix {
			return keys[i].prefix < keys[j].prefix
		}
		return keys[i].count > keys[j].count
	})
	// Parents that lost the same set of members are written once:
	// "{user ×100,assignee ×60}.{avatar_url,events_url}" (GitHub's user
	// objects repeat eleven *_url members under every person field).
	sets := map[string][]key{}
	for _, k := range keys {
		sort.Strings(groups[k])
		if len(groups[k]) > 1 && strings.HasSuffix(k.prefix, ".") {
			ls := strings.Join(groups[k], ",")
			sets[ls] = append(sets[ls], k)
		}
	}
	done := map[key]bool{}
	var out []string
	for _, k := range keys {
		if done[k] {
			continue
		}
		leaves := groups[k]
		ls := strings.Join(leaves, ",")
		if same := sets[ls]; len(same) > 1 && len(leaves) > 1 && strings.HasSuffix(k.prefix, ".") {
			var ps []string
			for _, o := range same {
				ps = append(ps, strings.TrimSuffix(o.prefix, ".")+" ×"+strconv.Itoa(o.count))
				done[o] = true
			}
			out = append(out, "{"+strings.Join(ps, ",")+"}.{"+ls+"}")
			continue
		}
		s := k.prefix + leaves[0]
		if len(leaves) > 1 {
			s = k.prefix + "{" + ls + "}"
		}
		out = append(out, s+" ×"+strconv.Itoa(k.count))
	}
	return strings.Join(out, ", ")
}

// fitLevel1 finishes a level-1 result whose content (res.Content, counted
// exactly in res.Tokens.After) is level 1's output. A lossless result
// that fits is returned with the facts notice of withFacts (stored when
// the rules say store: always). A lossy one gets the notice line in
// front: the original is stored first when the pipeline has a store (the
// notice names the handle), and the notice, with the facts of the output
// (factsOf), is counted in the budget. ok is false when the result with
// its notice does not fit (with a store: with every fact): res is then
// returned unchanged, for level 2.
func (p *Pipeline) fitLevel1(ctx context.Context, in Input, shape Shape, res schemas.Result, wf *wholeFacts) (schemas.Result, bool, error) {
	budget := res.Tokens.Budget
	payload := res.Content
	if !level1Lossy(res.Actions) && !strings.HasPrefix(payload, NoticePrefix) {
		if res.Tokens.After > budget {
			return res, false, nil
		}
		r, ok := p.withFacts(in, shape, res, wf)
		if !ok {
			return res, false, nil
		}
		r, err := p.storeAlways(ctx, in, shape, r)
		return r, err == nil, err
	}
	// A cheap lower bound first: the notice without its handle.
	draft := level1Notice(res.Collections, res.Actions, nil, "")
	if res.Tokens.After+p.counter.Count(draft) > budget {
		return res, false, nil
	}
	var items []string
	if res.Tokens.Before >= factsMinTokens {
		items = p.factsOf(in, shape, wf)
	}
	if p.store != nil && len(items) > 0 {
		// Every fact, or level 2: a cheap check before the original is
		// stored (the handle adds a few tokens more).
		if c := p.counter.Count(strings.TrimSuffix(draft, "]") + "; " + strings.Join(items, "; ") + "]\n"); res.Tokens.After+c > budget {
			return res, false, nil
		}
	}
	out := res
	noStore := "no artifact store is configured"
	if p.store != nil || in.Rules.Store == "always" {
		always := in
		always.Rules.Store = "always"
		r, err := p.storeAlways(ctx, always, shape, res)
		if err != nil {
			return schemas.Result{}, false, err
		}
		out = r
		for _, a := range r.Actions[len(res.Actions):] {
			if a.Kind == "store_failed" {
				noStore = a.Detail
			}
		}
	}
	plain := level1Notice(out.Collections, out.Actions, out.Artifact, noStore)
	// The notice states the facts the view of the output states (its
	// counts, value counts, ranges and sums, a text's templates): a
	// lossy level-1 result leaves counting to the model otherwise, and
	// the view at a smaller budget stated them. With a store, every one
	// of them or level 2 (see withFacts); without, as many as fit.
	notice, k, n := fitFacts(p.counter, strings.TrimSuffix(plain, "]"), items, payload, res.Tokens.After, budget, p.store != nil)
	if n > budget || p.store != nil && k < len(items) {
		return res, false, nil
	}
	out.Content, out.Tokens.After = notice+"\n"+payload, n
	if k > 0 {
		_, _, n0 := fitFacts(p.counter, strings.TrimSuffix(plain, "]"), nil, payload, res.Tokens.After, budget, true)
		out.Actions = appendFactsAction(out.Actions, res.Level, k, n-n0)
	}
	return out, true, nil
}

// fitFacts appends to head (a notice without its closing "]") the longest
// prefix of items ("; "-separated) with which the notice line and the
// payload after it (payloadTokens, its exact count) fit budget, and
// returns the notice, the number of items in it and the exact count of
// notice, newline and payload. With no item fitting, it is head alone,
// which may be over budget. With all set, only every item or none is
// tried (a result that must state every fact).
func fitFacts(c Counter, head string, items []string, payload string, payloadTokens, budget int, all bool) (string, int, int) {
	render := func(k int) string {
		if k == 0 {
			return head + "]"
		}
		return head + "; " + strings.Join(items[:k], "; ") + "]"
	}
	count := func(notice string) int {
		// The notice ends with a newline; when the payload starts with
		// a character at which a pre-token always starts, the counts
		// add up exactly (see Count).
		if payload == "" || safeStart(payload[0]) {
			return c.Count(notice+"\n") + payloadTokens
		}
		return c.Count(notice + "\n" + payload)
	}
	if all {
		notice := render(len(items))
		if n := count(notice); n <= budget || len(items) == 0 {
			return notice, len(items), n
		}
		notice = render(0)
		return notice, 0, count(notice)
	}
	// The longest prefix that fits: lo fits (or is 0), hi does not.
	lo, hi := 0, len(items)+1
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if count(render(mid)) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	notice := render(lo)
	return notice, lo, count(notice)
}

// plural writes "1 field", "2 fields".
func plural(n int, word string) string { return format.Plural(n, word) }

// FactsHead starts the notice line of a result that keeps the whole
// output (level none, or a lossless level 1 such as a table): what
// follows the "; " are facts computed over every record.
const FactsHead = NoticePrefix + "the output as it is, nothing left out"

// ActFacts is the action of a result that keeps the whole output and
// states the facts of its view in its notice line: Count is the number of
// facts stated, TokensAfter what they cost.
const ActFacts = "facts"

// appendFactsAction adds the ActFacts action of k facts costing n tokens
// (the result's tokens with them less its tokens without them).
func appendFactsAction(acts []schemas.Action, level schemas.Level, k, n int) []schemas.Action {
	if k == 0 {
		return acts
	}
	return append(acts, schemas.Action{Level: level, Kind: ActFacts, Target: ".", Count: k, TokensAfter: n,
		Detail: fmt.Sprintf("the notice line states %s computed over every record, as the output's view does (%s tokens); the output follows it unchanged", plural(k, "fact"), commas(n))})
}

// wholeFacts are the facts of one output that a result keeping it whole
// states (factsOf), computed once per Run when first needed.
type wholeFacts struct {
	done  bool
	items []string
}

// factsOf returns the facts the view of the output states about it as a
// whole, most telling first: the exact count of every structured
// collection of 2 records or more, then View.Facts (the profile lines of
// each collection; a text's lines, records, error lines, templates,
// column profiles, test totals). Every statement of the view that is not
// a record's own text is among them, so a result that keeps the whole
// output and states all of them states everything the view states at
// any budget.
func (p *Pipeline) factsOf(in Input, shape Shape, wf *wholeFacts) []string {
	if wf.done {
		return wf.items
	}
	wf.done = true
	var counts []string
	for _, c := range shape.Collections {
		if c.Count >= 2 && c.Kind != "lines" {
			counts = append(counts, c.Path+" "+commas(c.Count)+" records")
		}
	}
	facts := viewFacts(in, shape)
	if len(counts) > 0 {
		wf.items = append(wf.items, "counted: "+strings.Join(counts, ", "))
	}
	wf.items = append(wf.items, facts...)
	return wf.items
}

// withFacts puts a notice line of facts computed over the records in front
// of a result that keeps the whole output and fits (res.Content, counted
// exactly in res.Tokens.After): the facts its view states (factsOf). A
// view at a smaller budget states these facts; the whole output at a
// larger one should state them too, or the larger budget answers fewer
// questions. So with a store (a view exists), a rendering of the output
// (level 1) is shown only with every fact (ok is false otherwise: the
// next level, whose view at this budget holds everything the view at a
// smaller one holds); the output itself (level none) with the longest
// prefix of the facts (most telling first) that fits, as long as that
// holds its collections' counts: every record is in it, which no view
// at this budget shows. Without a store, with as many as fit. The payload after the notice's
// newline is the output unchanged (SplitNotice). An output under
// factsMinTokens (its original size: read at a glance) is returned as it
// is. A payload that itself starts with NoticePrefix always gets a
// notice, the bare FactsHead when nothing else fits; ok is false when
// not even that fits (the output must then go to level 1, which says so
// with its own notice).
func (p *Pipeline) withFacts(in Input, shape Shape, res schemas.Result, wf *wholeFacts) (schemas.Result, bool) {
	payload := res.Content
	out := res
	if res.Tokens.Before >= factsMinTokens && payload != "" {
		if items := p.factsOf(in, shape, wf); len(items) > 0 {
			// The output itself (level none) is shown whole with the
			// facts that fit, its counts at least: a view in its place
			// would show less of it (lshw -json of 3,315 tokens at
			// 4,000, its facts 2,700 more). A rendering of it (level
			// 1) states every fact or gives way to the view.
			raw := res.Level == schemas.LevelNone
			notice, k, n := fitFacts(p.counter, FactsHead, items, payload, res.Tokens.After, res.Tokens.Budget, p.store != nil && !raw)
			if p.store != nil && k < len(items) && (!raw || k == 0 && strings.HasPrefix(items[0], "counted: ") ||
				!stated(p.smallerViewFacts(in, shape, res.Tokens.After-1, res.Tokens.Before), items[:k])) {
				// (and only when it states every fact the view states at
				// every smaller budget, those of the largest one at which
				// the output does not fit: a larger budget never answers
				// less)
				return res, false
			}
			if k > 0 && n <= res.Tokens.Budget {
				out.Content, out.Tokens.After = notice+"\n"+payload, n
				out.Actions = appendFactsAction(slices.Clip(out.Actions), res.Level, k, n-res.Tokens.After)
			}
		}
	}
	if out.Content == payload && strings.HasPrefix(payload, NoticePrefix) {
		bare := FactsHead + "]"
		n := p.counter.Count(bare + "\n" + payload)
		if n > res.Tokens.Budget {
			return res, false
		}
		out.Content, out.Tokens.After = bare+"\n"+payload, n
	}
	return out, true
}

// stated reports whether every one of facts is among items.
func stated(facts, items []string) bool {
	for _, f := range facts {
		if !slices.Contains(items, f) {
			return false
		}
	}
	return true
}

// factsMinTokens is the smallest output (its original's tokens) whose
// whole result states facts: a shorter one is read at a glance, and
// passes as it is.
const factsMinTokens = 1000

// viewFacts are the facts the view of an output states about it as a
// whole (package view, View.Facts), most telling first; the view is made
// of the collections level 2 would show (viewShape).
func viewFacts(in Input, shape Shape) []string {
	v := buildFactsView(in, shape, 0, 0)
	if v == nil {
		return nil
	}
	return v.Facts()
}

// smallerViewFacts are the facts the view of the output states at budget
// b (filled as level 2 fills it, with a handle of the same length), or
// nil when even its bare view is over b.
func (p *Pipeline) smallerViewFacts(in Input, shape Shape, b, before int) []string {
	v := buildFactsView(in, shape, b, before)
	if v == nil {
		return nil
	}
	fl, err := v.Fill(p.counter, b)
	if err != nil {
		return nil
	}
	return fl.Facts(v)
}

// buildFactsView builds the view of the output (at budget b, 0: any;
// before is the output's tokens).
func buildFactsView(in Input, shape Shape, b, before int) *view.View {
	ext := viewShape(in, shape)
	vin := view.Input{Tool: in.Tool, ContentType: contentTypeOf(in, shape), Format: ext.Format, Data: in.Data, Args: in.Args,
		Drop: dropFunc(in.Rules), Identity: in.Rules.Identity, Index: in.Rules.Index, Sort: in.Rules.Sort,
		Budget: b, TokensBefore: before, Handle: RefOf(strings.Repeat("0", 12))}
	for ci, c := range ext.Collections {
		vin.Collections = append(vin.Collections, view.Collection{Path: c.Path, Kind: c.Kind, Count: c.Count, Also: ci >= len(shape.Collections),
			Each: func(fn func(int, []byte) error) error { return EachRecord(in.Data, ext, c.Path, fn) },
			Text: collectionText(in.Data, ext, c.Path), RecordLists: recordListsAt(ext, c.Path)})
	}
	v, err := view.Build(vin)
	if err != nil {
		return nil
	}
	return v
}
