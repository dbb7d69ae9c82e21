package budget

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/budget/view"
	"github.com/toolcompact/compact/schemas"
)

// NoticePrefix starts the notice line of a level-1 result (see
// SplitNotice and docs/level1.md, "The notice").
const NoticePrefix = "[compact: "

// SplitNotice splits the content of a level-1 ("fields") result into its
// notice line and the payload after it. The notice is the first line when
// the content starts with NoticePrefix; it ends with "]" and the payload
// (level 1's JSON, table or text) follows the newline. Content without a
// notice comes back whole as the payload, with notice "".
//
// Only level-1 content is split this way: level 0 ("none") content is the
// tool's output as it was, and level 2's text is a summary whose first
// line is a header in the same style, not a payload to parse.
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
// that fits is returned as it is (stored when the rules say store:
// always). A lossy one gets the notice line in front: the original is
// stored first when the pipeline has a store (the notice names the
// handle), and the notice is counted in the budget. ok is false when the
// result with its notice does not fit: res is then returned unchanged,
// for level 2.
func (p *Pipeline) fitLevel1(ctx context.Context, in Input, shape Shape, res schemas.Result) (schemas.Result, bool, error) {
	budget := res.Tokens.Budget
	payload := res.Content
	if !level1Lossy(res.Actions) && !strings.HasPrefix(payload, NoticePrefix) {
		if res.Tokens.After > budget {
			return res, false, nil
		}
		r, err := p.storeAlways(ctx, in, shape, res)
		return r, err == nil, err
	}
	// A cheap lower bound first: the notice without its handle.
	draft := level1Notice(res.Collections, res.Actions, nil, "")
	if res.Tokens.After+p.counter.Count(draft) > budget {
		return res, false, nil
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
	// The notice states the value counts of each collection's telling
	// fields when they fit (a lossy level 1 result leaves counting to
	// the model otherwise); without them when they do not.
	notices := []string{plain}
	if counts := valueCounts(in, shape); counts != "" {
		notices = []string{strings.TrimSuffix(plain, "]") + "; " + counts + "]", plain}
	}
	for _, notice := range notices {
		out.Content = notice + "\n" + payload
		// The notice ends with a newline; when the payload starts with a
		// character at which a pre-token always starts, the counts add up
		// exactly (see Count).
		if payload != "" && safeStart(payload[0]) {
			out.Tokens.After = p.counter.Count(notice+"\n") + res.Tokens.After
		} else {
			out.Tokens.After = p.counter.Count(out.Content)
		}
		if out.Tokens.After <= budget {
			break
		}
	}
	if out.Tokens.After > budget {
		return res, false, nil
	}
	return out, true, nil
}

// plural writes "1 field", "2 fields".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return commas(n) + " " + word + "s"
}

// valueCounts profiles the records of the input's collections (package
// view) and states the value counts, ranges and sums of their telling
// fields ("values in .: state open 71, closed 29; comments 0..57, sum
// 412"), or "" when there are none.
func valueCounts(in Input, shape Shape) string {
	var parts []string
	for _, c := range shape.Collections {
		if c.Kind == "lines" || c.Count < 3 {
			continue
		}
		p := view.NewProfile(c.Kind == "map")
		if EachRecord(in.Data, shape, c.Path, func(i int, raw []byte) error { p.Add(i, raw); return nil }) != nil {
			continue
		}
		p.Finish()
		each := func(fn func(int, []byte) error) error { return EachRecord(in.Data, shape, c.Path, fn) }
		if lines := p.SummaryOf(8, dropFunc(in.Rules), each); len(lines) > 0 {
			parts = append(parts, "values in "+c.Path+": "+strings.Join(lines, "; "))
		}
	}
	return strings.Join(parts, "; ")
}
