package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Text outputs (Kind "lines") and go test -json event streams. One pass
// (text_profile.go) finds what the text is and counts it exactly; the
// candidates are, in this order of priority:
//
//	(ends)       the first and last lines, as a head+tail cut reaches
//	             them, merged into the whole order at a quarter of its
//	             characters (text_ends.go): at every budget the view
//	             holds what a head+tail cut to a quarter of it holds
//	PrioAnomaly  failed tests and build errors, the first 10 distinct
//	             error lines and 3 warning lines (one of each diagnostic
//	             code, rarest first, then of each file, then the latest:
//	             text_notable_order.go), each once with its count of
//	             identical repeats and the lines before it
//	PrioRare     the fields of RFC 822-like records,
//	             the 10 most frequent templates with exact counts, the
//	             first 10 lines, lines unlike the rest (the only line of
//	             their template)
//	PrioSecond   more errors and warnings, rows by the start and end of
//	             a column's values, templates
//	PrioSpread   an even spread over the middle, more failed tests, rare
//	             lines, record names
//	PrioRemaining everything else that was kept
//
// What the text is (lines, blank lines, kind, records, error and warning
// lines, templates; the kind's summary such as tests passed and failed,
// levels, time range) is the head of the first section and always shown.
// Every section's head says how much of its kind is shown of how many,
// and the last section's foot names the lines not shown with the queries
// that read them.

const (
	textWidth = 400 // a line is shown cut to this many characters, with the rest's length stated
	headFirst = 3   // the first lines offered with the last ones, before any census
)

// Sections of a text view, in rendering order (offsets from the
// collection's base Order).
const (
	tsFacts = iota
	tsPinned
	tsRequest   // lines matching the tool call's arguments (text_request.go)
	tsKV        // key/value lines: values of name groups (text_kv.go)
	tsKVGroups  // key/value lines: names by their shared value
	tsKVEntries // key/value lines: entries as written
	tsKVNames   // key/value lines: entries by their names (text_kvnames.go)
	tsPackages
	tsReport
	tsRuns // go test text: top-level tests by their runs (text_testrun.go)
	tsFailed
	tsBuild
	tsErrors
	tsStatus       // a report of status lines: the lines of the rarer statuses (text_status.go)
	tsStatusLabels // a report of status lines: the labels by status
	tsCodes
	tsRare
	tsKinds
	tsFields
	tsHeaders
	tsSections   // a heading and its entries (text_sections.go)
	tsHistograms // histograms drawn as rows (text_histogram.go)
	tsRecFacts
	tsTagged // colon-separated records with a type tag (text_tagged.go)
	tsRecIndex
	tsRecords
	tsRecNames // records by name (text_recindex.go)
	tsColumns
	tsColRows
	tsIndex
	tsTemplates
	tsNames
	tsHead
	tsSpread
	tsTail
	tsRest
	tsCount
)

// textCands builds the candidates of one text collection.
type textCands struct {
	v     *View
	in    Input
	c     Collection
	p     *textProfile // text (nil for go test -json)
	t     *testSummary // go test -json, go test text, TAP
	json  bool         // go test -json: records are events, the tail is their output
	sec   [tsCount]int
	shown map[int]bool // lines shown in any section, for the final foot (reset by the facts head)
	// kvShown are the metric samples shown (text_kvmetric.go), for kvFoot (reset by the facts head)
	kvShown map[int]bool
	// derived lists
	errs, warns []*notable
	tmpls, rare []*cluster
	// tmplPairs: templates of 2 lines left out of tmpls (rows of a table)
	tmplPairs int
	recSpan   map[int]*textRecord // the records offered, by their first line (text_records.go)
	indexCols []int               // the columns of the index of a table's rows (text_list.go)
	indexN    map[int]int         // rows per index candidate, by its key
	valIndex  *valueIndex         // the index of a name/value table by value, or nil (text_valindex.go)
	// valIndexDone: valIndex is made (nameValueIndex)
	valIndexDone bool
	kvLines      map[int][]int // the lines of each names-by-value candidate, by its key (text_kv.go)
	kvNames      int           // entries in the listing by names (text_kvnames.go), 0 when there is none
	reqTerms     []string      // the words of the request (text_request.go)
	prefix       string        // the prefix every line has, removed before reading (text_prefix.go)
	escapes      int           // terminal control sequences removed before reading (text_escapes.go)
	escOne       bool          // a cursor move forward was read as one space (cursorOne)

	// recIndexWhat names the fields of the index of records by name,
	// recIndexN its records per candidate (text_recindex.go).
	recIndexWhat []string
	recIndexN    map[int]int

	sections *sectionStats // the text's sections, or nil (text_sections.go)
	hists    *histStats    // the text's histograms, or nil (text_histogram.go)

	// rowTs are the templates shown as rows (text_tmplrows.go), blocks
	// the records of several lines shown one a line (text_blockrows.go).
	rowTs  []*tmplRows
	blocks *blockRows
}

// jq is a jq filter over the text's lines, shell-quoted, as the view
// prints it: after the removal of the line prefix the view read the
// text without (jqPrefix).
func (tc *textCands) jq(q string) string {
	return ShellQuote(jqEscapes(tc.escapes > 0, tc.escOne) + jqPrefix(tc.prefix) + q)
}

// addText adds the candidates of text collection ci.
func addText(v *View, in Input, ci int) error {
	c := in.Collections[ci]
	tc := &textCands{v: v, in: in, c: c}
	want := map[int]bool{}
	for _, i := range c.Pinned {
		want[i] = true
	}
	if hasTermEscapes(in.Data) {
		// Read as a terminal shows it (text_escapes.go).
		tc.escOne = cursorOne(in.Data)
		tc.in.Data, tc.escapes = stripEscapes(in.Data)
	}
	if pre := linePrefix(tc.in.Data); pre != "" {
		// Read without the prefix every line has (text_prefix.go).
		tc.prefix = pre
		tc.in.Data = stripPrefix(tc.in.Data, pre)
	}
	tc.p = analyzeText(tc.in.Data, want)
	if tc.p.lines != c.Count {
		return fmt.Errorf("text view: %d lines counted, the collection has %d", tc.p.lines, c.Count)
	}
	tc.t = tc.p.tests
	if tc.p.headKey == "" && (tc.p.recs == nil || !tc.p.recs.colon && !tc.p.recs.kv.active()) {
		// (records led by a header line or a "dir:" line are shown as
		// records: their sections would be the same again)
		tc.sections = detectSections(tc.in.Data, tc.p.kind)
	}
	tc.hists = detectHistograms(tc.in.Data)
	tc.build(ci)
	return nil
}

// addGoTest adds the candidates of a go test -json stream (collection ci,
// Kind "jsonl").
func addGoTest(v *View, in Input, ci int) error {
	c := in.Collections[ci]
	tc := &textCands{v: v, in: in, c: c, json: true}
	tc.t = analyzeGoTestJSON(in.Data)
	if tc.t.events != c.Count {
		return fmt.Errorf("go test -json view: %d events read, the collection has %d", tc.t.events, c.Count)
	}
	tc.build(ci)
	return nil
}

// cutLine shortens a line for display, stating how much is left out.
func cutLine(s string) string { return cut(s, textWidth) }

func (tc *textCands) build(ci int) {
	for k := 0; k < tsCount; k++ {
		k := k
		s := &Section{Coll: tc.c.Path, Order: 10 + ci*tsCount + k, shared: true}
		s.Head = func(ch []Candidate) string {
			if k == tsFacts {
				tc.shown = map[int]bool{}
				tc.kvShown = map[int]bool{}
			}
			for _, c := range ch {
				if c.Record >= 0 {
					tc.shown[c.Record] = true
				}
				if k == tsRecords {
					tc.markRecord(c.Record)
				}
			}
			if k == tsFacts {
				return tc.factsHead()
			}
			if len(ch) == 0 {
				return ""
			}
			if k == tsKV || k == tsKVGroups || k == tsKVEntries || k == tsKVNames {
				return tc.kvHead(k, ch)
			}
			return tc.head(k, ch)
		}
		if k == tsRest {
			s.Foot = func([]Candidate) string { return tc.kvFoot() + tc.restFoot() }
		}
		tc.sec[k] = tc.v.AddSection(s)
	}
	tc.lists()
	tc.blocks = tc.blockRecords()
	tc.rowTs = tc.rowTemplates(tc.blocks)
	tc.addBlockSection(tc.blocks, 10+ci*tsCount+tsTemplates)
	tc.addRowSections(tc.rowTs, 10+ci*tsCount+tsTemplates)
	start := len(tc.v.cands)
	tc.candidates()
	tc.mergeEnds(start) // text_ends.go
}

// lists sorts the profile's notable lines and templates.
func (tc *textCands) lists() {
	p := tc.p
	if p == nil {
		return
	}
	for _, nb := range p.notables {
		if nb.sev == sevError {
			tc.errs = append(tc.errs, nb)
		} else {
			tc.warns = append(tc.warns, nb)
		}
	}
	byLast := func(s []*notable) { sort.SliceStable(s, func(i, j int) bool { return s[i].last > s[j].last }) }
	byLast(tc.errs)
	byLast(tc.warns)
	tc.errs, tc.warns = spreadNotables(tc.errs), spreadNotables(tc.warns) // text_notable_order.go
	for _, cl := range p.miner.clusters {
		if !cl.literal() {
			continue // "<*> <*>" says nothing
		}
		if cl.count > 1 {
			tc.tmpls = append(tc.tmpls, cl)
		} else if cl.sev == sevNone {
			tc.rare = append(tc.rare, cl)
		}
	}
	sort.SliceStable(tc.tmpls, func(i, j int) bool { return tc.tmpls[i].count > tc.tmpls[j].count })
	if p.cols != nil && p.cols.split.mode != byLine && p.cols.rows*10 >= (p.lines-p.blank)*9 {
		// A table's templates of two lines are two rows that share a
		// cell ("daytime <*>": 13/tcp and 13/udp), which the rows and
		// the columns' counts state: not listed, a fact the whole
		// output would have to carry (getent services: 44 such
		// templates and their values, half of its facts).
		k := len(tc.tmpls)
		for k > 0 && tc.tmpls[k-1].count <= 2 {
			k--
		}
		tc.tmplPairs, tc.tmpls = len(tc.tmpls)-k, tc.tmpls[:k]
	}
	sort.SliceStable(tc.rare, func(i, j int) bool { return tc.rare[i].first > tc.rare[j].first })
	// In prose every line is rare: lines unlike the rest mean something
	// only when most lines follow templates.
	if len(tc.rare)*4 > p.lines-p.blank || p.locData {
		// (A text of located diagnostics shows its rare forms
		// instead: text_locations.go.)
		tc.rare = nil
	}
}

// candidates adds every candidate in fill order.
func (tc *textCands) candidates() {
	p, t := tc.p, tc.t
	prio := PrioAnomaly
	// A line is offered once: an error line (with the line before it),
	// a line unlike the rest or of the spread that an earlier candidate
	// of the same or a better priority already offers (the last error
	// lines are the tail's) is not offered again; the tail and the head
	// state ranges of lines and keep all of theirs. The candidates do
	// not depend on the budget, so neither does this.
	offered := map[int]int{}
	lineSec := map[int]bool{tsTail: true, tsHead: true, tsSpread: true, tsErrors: true, tsCodes: true, tsRare: true, tsHeaders: true}
	// Sections that state no contiguous range can leave a line out.
	skipSec := map[int]bool{tsSpread: true, tsErrors: true, tsCodes: true, tsRare: true}
	add := func(sec, key, rec int, reason, text string) {
		if lineSec[sec] && rec >= 0 {
			was := func(i int) bool { p, ok := offered[i]; return ok && p <= prio }
			if skipSec[sec] && was(rec) && !strings.Contains(text, " times, first at line ") &&
				(!strings.Contains(text, "\n") || was(rec-1)) {
				return
			}
			if _, ok := offered[rec]; !ok {
				offered[rec] = prio
			}
		}
		tc.v.Add(Candidate{Section: tc.sec[sec], Key: key, Record: rec, Prio: prio, Reason: reason, Text: text})
	}
	// A text of records shows whole records (text_records.go) in place
	// of its first lines, lines out of their record and record headers.
	recMode := p != nil && p.recs.short()
	// A list (one value a line) shows its values in line order (the
	// index, text_list.go) in place of its lines, templates and rare
	// lines.
	list := p != nil && p.cols != nil && p.cols.rows > 0 && p.cols.split.mode == byLine
	// Records of Key: value lines state their keys and list their
	// records (text_kvrecords.go): their templates ("<*> <n> kB") and
	// words come late.
	kvRec := p != nil && p.recs != nil && p.recs.kv.active()
	var tail []posLine
	if tc.json {
		tail = t.output
	} else {
		tail = p.tail
	}
	tailFrom := func(a, b int) { // the a-th to b-th line from the end, 1-based
		if recMode || kvRec {
			b = min(b, 5) // the last record shows the rest (records of Key: value lines: its line in their index)
		}
		for k := a; k <= b && k <= len(tail); k++ {
			l := tail[len(tail)-k]
			add(tsTail, l.pos, l.pos, "last lines", "  "+cutLine(l.text))
		}
	}
	notableFrom := func(list []*notable, a, b int) {
		if (tc.contentLines() || tc.errorsAreData()) && prio < PrioSpread {
			return // shown at PrioSpread (below)
		}
		for k := a; k < b && k < len(list); k++ {
			nb := list[k]
			text := fmt.Sprintf("  %d\t%s", nb.last, cutLine(nb.text))
			if nb.count > 1 {
				text = fmt.Sprintf("  %d\t[%s times, first at line %d] %s", nb.last, commas(nb.count), nb.first, cutLine(nb.text))
			}
			if nb.prev != "" {
				text = fmt.Sprintf("  %d\t%s\n", nb.last-1, cutLine(nb.prev)) + text
			}
			for k := len(nb.others) - 1; k >= 0; k-- {
				// (the distinct lines before its earlier occurrences)
				o := nb.others[k]
				text = fmt.Sprintf("  %d\t%s\n", o.pos, cutLine(o.text)) + text
			}
			reason := "error line"
			if nb.sev == sevWarn {
				reason = "warning line"
			}
			add(tsErrors, nb.last, nb.last, reason, text)
		}
	}
	tmplFrom := func(a, b int) {
		if list || (tc.contentLines() || kvRec) && prio < PrioSpread {
			return // a list's values are its index; lines of content (code, subjects) are shown later
		}
		for k := a; k < b && k < len(tc.tmpls); k++ {
			cl := tc.tmpls[k]
			add(tsTemplates, k, -1, "template", fmt.Sprintf("  [%s lines] %s  (lines %d … %d)", commas(cl.count), cutLine(cl.template()), cl.first, cl.last))
		}
	}
	slotsFrom := func(a, b int) {
		if list {
			return
		}
		for k := a; k < b && k < len(tc.tmpls); k++ {
			if v := tc.tmpls[k].slotValues(); v != "" {
				add(tsTemplates, k, -1, "template values", "      "+cut(v, 3*textWidth))
			}
		}
	}
	rareFrom := func(a, b int) {
		if recMode || list || tc.contentLines() && prio < PrioSpread {
			return
		}
		for k := a; k < b && k < len(tc.rare); k++ {
			r := tc.rare[k]
			add(tsRare, r.first, r.first, "unlike the rest", fmt.Sprintf("  %d\t%s", r.first, cutLine(r.example)))
		}
	}
	headFrom := func(a, b int) {
		if p == nil || recMode || list {
			return
		}
		for k := a; k < b && k < len(p.head); k++ {
			add(tsHead, p.head[k].pos, p.head[k].pos, "first lines", "  "+cutLine(p.head[k].text))
		}
	}
	var failed []*failedTest
	if t != nil {
		failed = t.failed
	}
	failedFrom := func(a, b int) {
		for k := a; k < b && k < len(failed); k++ {
			f := failed[k]
			name := f.name
			if f.pkg != "" {
				name = f.pkg + " " + f.name
			}
			if tc.report() {
				name = f.display()
			}
			lines := []string{fmt.Sprintf("  %s (at %d)", name, f.pos)}
			if tc.report() {
				// The line as the runner printed it, under its suite.
				lines[0] = fmt.Sprintf("  %d\t%s: %s", f.pos, f.pkg, cutLine(f.line))
				if f.pkg == "" || strings.HasPrefix(f.line, f.pkg) {
					// (pytest's line names its file: not twice)
					lines[0] = fmt.Sprintf("  %d\t%s", f.pos, cutLine(f.line))
				}
			}
			shown := 0
			if len(f.errs) > 0 {
				// The lines that state the error, wherever they are
				// in the details (after the test's source in pytest's).
				for _, o := range f.errs {
					lines = append(lines, "      "+cutLine(strings.TrimSpace(o)))
					shown++
				}
			} else {
				for i := 0; i < 3 && i < len(f.output); i++ {
					if o := strings.TrimSpace(f.output[i]); o != "" {
						lines = append(lines, "      "+cutLine(o))
					}
					shown++
				}
			}
			if rest := len(f.output) - shown + f.more; rest > 0 {
				lines = append(lines, fmt.Sprintf("      … %d more output lines", rest))
			}
			add(tsFailed, k, f.pos, "failed test", strings.Join(lines, "\n"))
		}
	}
	buildFrom := func(a, b int) {
		if t == nil {
			return
		}
		for k := a; k < b && k < len(t.buildErrors); k++ {
			l := t.buildErrors[k]
			add(tsBuild, k, l.pos, "build error", fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.text)))
		}
	}
	var index func(prio, a, b int)
	rowPos := map[int]bool{}
	for _, rt := range tc.rowTs {
		for _, pos := range rt.s.pos {
			rowPos[pos] = true
		}
	}
	if br := tc.blocks; br != nil {
		for i, pos := range br.head.s.pos {
			for l := pos; l <= br.last[i]; l++ {
				rowPos[l] = true
			}
		}
	}
	spreadFrom := func(a, b int) {
		if p == nil || recMode || list || tc.indexN != nil {
			return
		}
		for k := a; k < b && k < len(p.spread); k++ {
			l := p.spread[k]
			if rowPos[l.pos] {
				continue // a line of a template shown as rows (text_tmplrows.go)
			}
			add(tsSpread, l.pos, l.pos, "spread", fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.text)))
		}
	}

	// Key/value lines state their names and values (text_kv.go), and
	// their last lines.
	if p != nil && p.kv != nil {
		tail := map[int]bool{}
		prio = PrioAnomaly
		tailFrom(1, 5)
		for k := 1; k <= 5 && k <= len(p.tail); k++ {
			tail[p.tail[len(p.tail)-k].pos] = true
		}
		tc.kvCandidates(add, func(pr int) { prio = pr }, tail)
		return
	}
	// PrioFact: what the text is, beyond its first line.
	prio = PrioFact
	for i, f := range tc.factLines() {
		add(tsFacts, i, -1, "fact", f)
	}
	// The located lines by file and directory (text_locations.go): a
	// census of the diagnostics, before any of their lines.
	if p != nil {
		for i, l := range p.locs.facts(p.lines - p.blank) {
			add(tsTemplates, -10+i, -1, "source locations", cut(l, 3*textWidth))
		}
	}
	// PrioPinned: the rows the registry's pin predicate selects.
	if p != nil && len(tc.c.Pinned) > 0 {
		prio = PrioPinned
		for _, i := range tc.c.Pinned {
			if s, ok := p.extra[i]; ok {
				add(tsPinned, i, i, "pinned", fmt.Sprintf("  %d\t%s", i, cutLine(s)))
			}
		}
	}
	if p != nil && tc.c.PinStopped && len(tc.c.Pinned) == 0 {
		// The predicate stopped before it selected any line: the
		// section still says so, and how to get the lines it selects.
		prio = PrioPinned
		add(tsPinned, -1, -1, "pinned", fmt.Sprintf("  (none of the %s lines tested matched)", commas(tc.c.PinTested)))
	}
	// PrioRare (before the anomalies' second half): the lines the
	// request names.
	requestFrom := tc.requestCandidates(add)
	// PrioAnomaly: how it ended, what failed.
	prio = PrioAnomaly
	if t != nil {
		for i, l := range t.pkgLines {
			add(tsPackages, i, l.pos, "package result", fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.text)))
		}
		tc.suiteCandidates(true)
	}
	tc.reportCandidates()
	if p != nil {
		saved := prio
		tc.statusCandidates(add, func(pr int) { prio = pr }) // text_status.go
		prio = saved
	}
	tailFrom(1, 5)
	// A report's first lines name what ran (a runner's banner, the
	// first file of a diff, the newest commit).
	// So do the first lines of any text but a log: a tool's banner,
	// version and summary come before any census, at every budget (a
	// log's first lines are events like the others: its time range is
	// stated, its rare lines are the anomaly).
	headStart := 0
	if p != nil && p.kind != textLog {
		headStart = headFirst
		headFrom(0, headStart)
	}
	buildFrom(0, 10)
	failedFrom(0, 20)
	notableFrom(tc.errs, 0, 10)
	notableFrom(tc.warns, 0, 3)
	if p != nil {
		tc.rareCodeCandidates(add)
		tc.shiftCandidates(add) // text_fields.go
	}
	// PrioRare: the lines the request names, more of the end, the
	// structure, the start.
	prio = PrioRare
	requestFrom(0, 10)
	tailFrom(6, 20)
	if t != nil && t.runs != nil {
		for i, l := range t.runs.testLines() {
			pr := PrioRare
			switch {
			case i >= 10:
				pr = PrioSpread
			case i >= 2:
				pr = PrioSecond
			}
			tc.v.Add(Candidate{Section: tc.sec[tsRuns], Key: i, Record: -1, Prio: pr, Reason: "test runs", Text: l})
		}
	}
	if p != nil {
		for i, f := range p.fields {
			switch {
			case i >= 40:
			case p.loose:
				s := fieldSummary(f, f.present)
				add(tsFields, i, -1, "field", fmt.Sprintf("  %s (%s lines)%s", f.name, commas(f.present), strings.TrimPrefix(s, f.name)))
			default:
				add(tsFields, i, -1, "field", "  "+fieldSummary(f, p.records))
			}
		}
	}
	headersFrom := func(a, b int) { // the a-th to b-th header from each end
		if p == nil || recMode {
			return
		}
		hs := p.headers
		for k := a; k < b && k < len(hs)-1-k; k++ {
			add(tsHeaders, hs[k].pos, hs[k].pos, "record header", fmt.Sprintf("  %d\t%s", hs[k].pos, cutLine(hs[k].text)))
			l := hs[len(hs)-1-k]
			add(tsHeaders, l.pos, l.pos, "record header", fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.text)))
		}
		if n := len(hs); n%2 == 1 && n/2 >= a && n/2 < b {
			add(tsHeaders, hs[n/2].pos, hs[n/2].pos, "record header", fmt.Sprintf("  %d\t%s", hs[n/2].pos, cutLine(hs[n/2].text)))
		}
	}
	headersFrom(0, 3)
	if p != nil {
		tc.sectionCandidates()
		tc.histCandidates()
	}
	if t != nil {
		tc.suiteCandidates(false)
	}
	if p != nil {
		tc.recordCandidates()
	}
	if p != nil {
		tc.taggedCandidates(add)
	}
	colRows := tc.columnCandidates(add)
	prio = PrioRare
	index = tc.indexCandidates()
	if list {
		tc.columnParts(add)
	}
	if w := tc.wordCounts("first words", tc.leadMap()); w != "" && !list && !kvRec {
		add(tsTemplates, -2, -1, "leading words", w)
	}
	tmplFrom(0, 10)
	if p != nil && !(tc.contentLines() || kvRec || list) && (p.cols == nil || p.cols.rows == 0 || p.cols.split.header == nil) {
		// The values of a top template's positions of few values (a
		// distribution: "still reachable 152, possibly lost 3") with it
		// (a table with a header states its columns' values instead).
		for k := 0; k < 5 && k < len(tc.tmpls); k++ {
			if v := tc.tmpls[k].fewValues(); v != "" {
				add(tsTemplates, k, -1, "template distribution", "      "+cut(v, textWidth))
			}
		}
	}
	if w := tc.wordCounts("last word", tc.lastMap()); w != "" && !tc.pathList() && !kvRec && p.tagged == nil {
		add(tsTemplates, -1, -1, "last words", w)
	}
	if w := tc.extensionCounts(); w != "" {
		add(tsTemplates, -1, -1, "extensions", w)
	}
	headFrom(headStart, 10)
	rareFrom(0, 10)
	tc.formCandidates(add, false)
	if list {
		index(PrioRare, 0, 200/listChunk)
	} else {
		index(PrioRare, 0, 2)
	}
	// PrioSecond: more of each.
	prio = PrioSecond
	requestFrom(10, maxRequestLines)
	notableFrom(tc.errs, 10, 40)
	notableFrom(tc.warns, 3, 20)
	buildFrom(10, len(tc.buildLines()))
	if !list {
		tc.columnParts(add)
	}
	tailFrom(21, 40)
	if p != nil {
		tc.fieldQueryCandidate(add) // text_fields.go
	}
	if c := p.pathLinesOrNil(); c != nil && c.rows >= 10 {
		// Lines that are a path among other lines (tsc's --listFiles):
		// by directory, extension and depth, after more of the end.
		for i, l := range c.pathLines() {
			add(tsTemplates, -20+i, -1, "path lines", cut(l, 3*textWidth))
		}
	}
	tc.formCandidates(add, true)
	tmplFrom(10, 30)
	colRows(firstColRows, maxColRows)
	if list {
		index(PrioSecond, 200/listChunk, 600/listChunk)
	} else {
		index(PrioSecond, 2, 200/indexChunk)
	}
	slotsFrom(0, 30)
	headFrom(10, 30)
	tc.blockRowCandidates(tc.blocks, 0, 1)
	// PrioSpread: the middle, and the long lists.
	prio = PrioSpread
	if tc.blocks != nil || len(tc.rowTs) > 0 {
		// Rows leave room for the lines unlike the rest that say
		// something in words first (REVIEW18 R10: readelf's one FLAGS
		// line of its dynamic section; not a certificate's hex dump).
		for k := 10; k < 40 && k < len(tc.rare); k++ {
			if r := tc.rare[k]; hasWord(r.example) && !recMode && !list {
				add(tsRare, r.first, r.first, "unlike the rest", fmt.Sprintf("  %d\t%s", r.first, cutLine(r.example)))
			}
		}
	}
	tc.blockRowCandidates(tc.blocks, 1, 2)
	tc.tmplRowCandidates(tc.rowTs, 0, 2)
	spreadFrom(0, 32)
	failedFrom(20, len(failed))
	if tc.contentLines() {
		rareFrom(0, 10)
		tmplFrom(0, 30)
	} else if kvRec {
		tmplFrom(0, 30)
	}
	rareFrom(10, 40)
	tailFrom(41, 100)
	if tc.contentLines() || tc.errorsAreData() {
		notableFrom(tc.errs, 0, 40)
		notableFrom(tc.warns, 0, 20)
	}
	notableFrom(tc.errs, 40, 200)
	notableFrom(tc.warns, 20, 100)
	spreadFrom(32, len(p.spreadOrNil()))
	if list {
		index(PrioSpread, 600/listChunk, maxIndexRows)
	} else {
		index(PrioSpread, 200/indexChunk, maxIndexRows)
	}
	if p != nil {
		for i := 0; i < len(p.names); i += 40 {
			var names []string
			for _, nm := range p.names[i:min(i+40, len(p.names))] {
				names = append(names, fmt.Sprintf("%s@%d", nm.text, nm.pos))
			}
			add(tsNames, i, -1, "record names", "  "+strings.Join(names, " "))
		}
	}
	// PrioRemaining: whatever else was kept.
	prio = PrioRemaining
	tmplFrom(30, 100)
	headFrom(30, 100)
	rareFrom(40, 200)
	tailFrom(101, tailKeep)
	notableFrom(tc.errs, 200, maxNotable)
	notableFrom(tc.warns, 100, maxNotable)
	headFrom(100, headKeep)
	headersFrom(3, maxHeaders)
	tc.blockRowCandidates(tc.blocks, 2, 3)
	tc.tmplRowCandidates(tc.rowTs, 2, 3)
}

// pathList reports whether the text is a list of paths: its names after
// the last / are counted with its directories (text_paths.go), not again
// as lines by their last word.
func (tc *textCands) pathList() bool {
	cp := tc.p.cols
	return cp != nil && cp.rows > 0 && cp.split.mode == byLine && cp.cols[0].pathsOf() != nil
}

func (tc *textCands) leadMap() map[string]int {
	if tc.p == nil {
		return nil
	}
	return tc.p.miner.lead
}

func (tc *textCands) lastMap() map[string]int {
	if tc.p == nil {
		return nil
	}
	return tc.p.miner.last
}

// noCut is a width topCounts cuts no key at.
const noCut = 1 << 30

// listAndMore joins names with sep and, when total is more than their
// number, says how many more there are after moreSep ("a, b and 3
// more", "a; b; and 3 more").
func listAndMore(names []string, sep, moreSep string, total int) string {
	s := strings.Join(names, sep)
	if total > len(names) {
		s += fmt.Sprintf("%sand %s more", moreSep, commas(total-len(names)))
	}
	return s
}

// topCounts lists the n most frequent keys of m, most frequent first,
// as "key count" joined by ", " (each key cut at width characters): the
// list, the lines (the sum of the counts) it covers, and the keys and
// lines it leaves out.
func topCounts(m map[string]int, n, width int) (list string, shown, moreKeys, moreLines int) {
	ks, total := byCount(m)
	var parts []string
	for i, x := range ks {
		if i == n {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", cut(x.k, width), commas(x.n)))
		shown += x.n
	}
	return strings.Join(parts, ", "), shown, len(ks) - len(parts), total - shown
}

// wordCounts is the line "lines by their first words (exact counts): npm
// silly 1,312, npm http 749, ..." (the 16 most frequent), or "" when the
// words mostly start (or end) one line each, or the 16 cover less than
// a third of the lines: then they are names or values, not kinds of lines.
func (tc *textCands) wordCounts(what string, m map[string]int) string {
	if len(m) < 2 || tc.p.kind == textFields || tc.p.kind == textBlocks || tc.p.kind == textReport || tc.contentLines() {
		// Records and prose have their own structure (fields,
		// paragraphs); their words are not kinds of lines.
		return ""
	}
	ws, total := byCount(m)
	if ws[0].n < 3 || len(ws)*2 > total {
		return ""
	}
	list, shown, _, _ := topCounts(m, 16, 60)
	if 3*shown < tc.p.lines-tc.p.blank {
		return "" // the most frequent words cover less than a third of the lines
	}
	s := fmt.Sprintf("  lines by their %s (exact counts): %s", what, list)
	if rest := tc.p.lines - tc.p.blank - shown; rest > 0 {
		s += fmt.Sprintf("; %s other lines", commas(rest))
	}
	return s
}

// extensionCounts is the line "lines by the extension of their last word
// (exact counts): .go 272, .txt 9, ...; 339 lines without one", when at
// least a third of the lines end in a name with an extension, of at least
// 2 kinds, the most frequent in 3 lines or more (a listing of files); ""
// otherwise.
func (tc *textCands) extensionCounts() string {
	p := tc.p
	if p == nil || p.kind == textFields || len(p.miner.ext) < 2 || len(p.miner.ext) >= maxLeadWords {
		return ""
	}
	if cp := p.cols; cp != nil && cp.rows > 0 {
		for _, c := range cp.cols {
			if c.pathsOf() != nil {
				return "" // a column of paths states its extensions (text_paths.go)
			}
		}
	}
	ws, total := byCount(p.miner.ext)
	lines := p.lines - p.blank
	if ws[0].n < 3 || 3*total < lines {
		return ""
	}
	list, _, more, rest := topCounts(p.miner.ext, 16, noCut)
	s := fmt.Sprintf("  lines by the extension of their last word (exact counts): %s", list)
	if rest > 0 {
		s += fmt.Sprintf(", %s other extensions in %s lines", commas(more), commas(rest))
	}
	return s + fmt.Sprintf("; %s lines without one", commas(lines-total))
}

func (tc *textCands) buildLines() []posLine {
	if tc.t == nil {
		return nil
	}
	return tc.t.buildErrors
}

func (p *textProfile) pathLinesOrNil() *colStat {
	if p == nil {
		return nil
	}
	return p.pathLines
}

func (p *textProfile) spreadOrNil() []posLine {
	if p == nil {
		return nil
	}
	return p.spread
}

// factsHead is what the text is, in one line: always shown.
func (tc *textCands) factsHead() string {
	if tc.json {
		return fmt.Sprintf("go test -json: %s events (one JSON value a line; positions are event numbers from 0)\n", commas(tc.t.events))
	}
	p := tc.p
	var b strings.Builder
	fmt.Fprintf(&b, "text: %s lines", commas(p.lines))
	if p.blank > 0 {
		fmt.Fprintf(&b, " (%s blank)", commas(p.blank))
	}
	fmt.Fprintf(&b, "; kind: %s", p.kind)
	if tc.escapes > 0 {
		how := "n spaces"
		if tc.escOne {
			how = "one space (as n spaces they would more than double the text)"
		}
		fmt.Fprintf(&b, "; %s terminal control sequences (colours, cursor moves) removed, a cursor move forward by n columns read as %s", commas(tc.escapes), how)
	}
	if tc.prefix != "" {
		fmt.Fprintf(&b, "; every line starts with %q, shown without it (a line that is only the prefix is blank)", tc.prefix)
	}
	if p.recordUnit != "lines" {
		fmt.Fprintf(&b, "; %s %s", commas(p.records), p.recordUnit)
		if p.nameField != "" {
			fmt.Fprintf(&b, ", named by %s", p.nameField)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// factLines are the text's other facts, shown first (PrioFact): error
// and warning counts, templates, the kind's summary (tests, time range,
// levels).
func (tc *textCands) factLines() []string {
	if tc.json {
		return testTotals(tc.t, true)
	}
	p := tc.p
	var out []string
	s := fmt.Sprintf("error lines: %s (%s distinct); warning lines: %s (%s distinct); templates: %s",
		commas(p.errors), commas(len(tc.errs)), commas(p.warns), commas(len(tc.warns)), commas(len(p.miner.clusters)))
	if p.miner.other > 0 {
		s += fmt.Sprintf(" (+%s lines past the template cap)", commas(p.miner.other))
	}
	if p.proseSev > 0 {
		s += fmt.Sprintf("; %s lines of prose have a severity word inside a sentence, not marking the line (not counted)", commas(p.proseSev))
	}
	if p.codeSev > 0 {
		s += fmt.Sprintf("; %s lines of source code have a severity word as a name or type, with no level marker (not counted)", commas(p.codeSev))
	}
	if p.leadSev > 0 {
		s += fmt.Sprintf("; %s records' first lines have a severity word in their description, not marking the line (not counted)", commas(p.leadSev))
	}
	if p.tabSev > 0 {
		s += fmt.Sprintf("; %s lines of content after a TAB have a severity word, the content's, not the text's (not counted)", commas(p.tabSev))
	}
	if p.testNameSev > 0 {
		s += fmt.Sprintf("; %s lines === RUN or --- PASS/SKIP have a severity word only in a test's name (not counted)", commas(p.testNameSev))
	}
	if p.nameSev > 0 {
		// A symbol or file named "...Error" is not an error line.
		rows := "table rows have a severity word only in their"
		if p.nameSev == 1 {
			rows = "table row has a severity word only in its"
		}
		s += fmt.Sprintf("; %s %s %s: no level, not counted)", commas(p.nameSev), rows, p.cols.split.nameColumnsText())
	}
	out = append(out, s)
	if p.status.active() {
		out = append(out, p.status.factLine()) // text_status.go
	} else if l := p.status.codesLine(); l != "" {
		out = append(out, l) // (a type checker's codes: text_status.go)
	}
	if p.nSummaries > 0 {
		// A tool's own count of its diagnostics, verbatim.
		var ls []string
		for _, l := range p.summaries {
			ls = append(ls, fmt.Sprintf("%q (line %d)", cut(l.text, 200), l.pos))
		}
		out = append(out, fmt.Sprintf("summary lines (a count of errors or warnings; not counted as error lines): %s%s", commas(p.nSummaries), ": "+strings.Join(ls, ", ")))
	}
	if p.tagged != nil {
		out = append(out, p.tagged.fact())
	}
	if s := p.locs.codeFact(); s != "" {
		out = append(out, s)
	}
	if cp := p.cols; cp != nil && cp.rows > 0 {
		out = append(out, cp.factLine())
	}
	if p.graph != nil {
		out = append(out, p.graph.facts()...)
	}
	if p.diff != nil {
		out = append(out, p.diff.facts()...)
	}
	if p.tests != nil && p.kind == textReport {
		out = append(out, reportTotals(p.tests)...)
	} else if p.tests != nil {
		out = append(out, testTotals(p.tests, false)...)
		out = append(out, tapTotals(p.tests)...)
		if p.tests.runs != nil {
			out = append(out, p.tests.runs.facts()...)
		}
	}
	if s := p.gor.fact(); s != "" {
		out = append(out, cut(s, 3*textWidth))
	}
	if p.firstTime != "" {
		out = append(out, fmt.Sprintf("time: %s … %s", p.firstTime, p.lastTime))
	}
	if len(p.levels) > 0 && (p.kind == textLog || p.kind == textPlain) {
		var parts []string
		sum := 0
		for _, lv := range sortedLevels(p.levels) {
			parts = append(parts, fmt.Sprintf("%s %s", lv, commas(p.levels[lv])))
			sum += p.levels[lv]
		}
		out = append(out, fmt.Sprintf("levels (of the %s lines that state one): %s", commas(sum), strings.Join(parts, ", ")))
	}
	return out
}

// head is the header of section k with its chosen candidates cs.
func (tc *textCands) head(k int, cs []Candidate) string {
	h := tc.in.Handle
	switch k {
	case tsRequest:
		return tc.requestHead(cs)
	case tsPinned:
		s := fmt.Sprintf("lines the registry's pin predicate selects (%s; showing %s), line<TAB>text:\n", commas(tc.c.PinnedCount), commas(len(cs)))
		if tc.c.PinStopped {
			shown := 0
			for _, c := range cs {
				if c.Record >= 0 {
					shown++
				}
			}
			s = fmt.Sprintf("lines the registry's pin predicate selects in the first %s of %s lines, where it stopped at its deadline (%s; showing %s; it may select more of the %s), line<TAB>text:\n",
				commas(tc.c.PinTested), commas(tc.c.Count), commas(tc.c.PinnedCount), commas(shown), commas(tc.c.Count))
		}
		if len(cs) < tc.c.PinnedCount || tc.c.PinStopped {
			s += fmt.Sprintf("all of them: compact artifact query %s --jq %s\n", h, ShellQuote(`to_entries[] | select(.value | `+tc.c.Pin+`) | "\(.key)\t\(.value)"`))
		}
		return s
	case tsReport:
		return tc.reportHead(cs)
	case tsStatus:
		return tc.statusHead(cs)
	case tsStatusLabels:
		return tc.statusLabelsHead(cs)
	case tsRuns:
		rs := tc.t.runs
		once := ""
		if rs.once > 0 {
			once = fmt.Sprintf("; %s other tests ran at most once, with no subtests, not listed", commas(rs.once))
		}
		return fmt.Sprintf("top-level tests by their runs, most first (showing %s of %s tests run more than once or with subtests%s; exact counts of their === RUN lines, and of their subtests'):\n", commas(min(len(cs)*20, rs.listed)), commas(rs.listed), once)
	case tsPackages:
		if tc.report() {
			return fmt.Sprintf("suites, tests by status (showing %s of %s: failed suites first), line<TAB>suite:\n", commas(len(cs)), commas(len(tc.t.suites)))
		}
		return fmt.Sprintf("package results as go test printed them (%s), event<TAB>output:\n", commas(len(cs)))
	case tsFailed:
		n := tc.t.testFail // at most maxFailedKept are listed
		s := fmt.Sprintf("failed tests (%s; showing %s, with the lines of their output that state the error, else their first output lines):\n", commas(n), commas(len(cs)))
		if tc.report() {
			s = fmt.Sprintf("failed tests (%s; showing %s, each as printed with its suite and the lines of its failure details that state the error (pytest's E lines), else their first lines), line<TAB>suite: test:\n", commas(n), commas(len(cs)))
		}
		if len(cs) < n && tc.json {
			s += fmt.Sprintf("all of them: compact artifact query %s --jq %s\n", h, ShellQuote(`.[] | select(.Action == "fail" and .Test) | "\(.Package) \(.Test)"`))
		}
		if len(cs) < n && tc.report() {
			s += fmt.Sprintf("every failed test's line: compact artifact query %s --jq %s\n", h, tc.jq(reportFailedQuery))
		}
		return s
	case tsBuild:
		return fmt.Sprintf("build output of failed builds (%s lines, %s failed builds; showing %s), event<TAB>line:\n", commas(len(tc.t.buildErrors)), commas(tc.t.buildFails), commas(len(cs)))
	case tsErrors:
		at := make(map[int]bool, len(cs))
		for _, c := range cs {
			at[c.Record] = true
		}
		se, sw := 0, 0
		for _, nb := range tc.p.notables {
			if at[nb.last] {
				if nb.sev == sevError {
					se++
				} else {
					sw++
				}
			}
		}
		s := fmt.Sprintf("error and warning lines, each distinct line once at its last position, after the line before it (showing %s of %s distinct error lines, %s of %s distinct warning lines; [N times, first at line P] = N identical lines):\n",
			commas(se), commas(len(tc.errs)), commas(sw), commas(len(tc.warns)))
		if se < len(tc.errs) || tc.p.notableCut > 0 {
			s += fmt.Sprintf("all error lines: compact artifact query %s --jq %s\n", h, tc.jq(tc.p.severityQuery(sevError)))
		}
		if sw < len(tc.warns) {
			s += fmt.Sprintf("all warning lines: compact artifact query %s --jq %s\n", h, tc.jq(tc.p.severityQuery(sevWarn)))
		}
		return s
	case tsCodes:
		return fmt.Sprintf("diagnostics whose code is in no other line (showing %s), line<TAB>text:\n", commas(len(cs)))
	case tsKinds:
		return fmt.Sprintf("rare forms of diagnostic (templates of at most 1%% of the lines whose words are in no frequent template's; fewest lines first, each with its lines; showing %s lines), line<TAB>text:\n", commas(len(cs)))
	case tsRare:
		return fmt.Sprintf("lines unlike the rest (the only line of their template, latest first; showing %s of %s), line<TAB>text:\n", commas(len(cs)), commas(len(tc.rare)))
	case tsHeaders:
		return fmt.Sprintf("record headers (the first line of each record; showing %s of %s, the first and the last), line<TAB>text:\n", commas(len(cs)), commas(tc.p.nHead))
	case tsFields:
		if tc.p.recs != nil && tc.p.recs.kv.active() {
			return tc.kvRecHead(cs)
		}
		if tc.p.loose {
			return fmt.Sprintf("Key: value lines by key (showing %s of %s keys that recur; counts are of lines):\n", commas(len(cs)), commas(len(tc.p.fields)))
		}
		return fmt.Sprintf("fields of the %s records (showing %s of %s fields; counts are of records):\n", commas(tc.p.records), commas(len(cs)), commas(len(tc.p.fields)))
	case tsTemplates:
		n := 0
		for _, c := range cs {
			if c.Reason == "template" {
				n++
			}
		}
		pairs := ""
		if tc.tmplPairs > 0 {
			pairs = fmt.Sprintf(", %s more of 2 rows each", commas(tc.tmplPairs))
		}
		return fmt.Sprintf("templates, most frequent first (showing %s of %s%s; [N lines] = exactly N lines have this form; <n> number, <ts> timestamp, <id> id, <*> varies):\n", commas(n), commas(len(tc.tmpls)), pairs)
	case tsNames:
		n := 0
		for _, c := range cs {
			n += strings.Count(strings.TrimSpace(c.Text), " ") + 1
		}
		return fmt.Sprintf("record names (%s of %s; name@line of its %s field):\n", commas(n), commas(len(tc.p.names)), tc.p.nameField)
	case tsRecords:
		return tc.recordsHead(cs)
	case tsRecIndex:
		return tc.recIndexHead(cs)
	case tsRecNames:
		return tc.recNamesHead(cs)
	case tsTagged:
		return tc.taggedHead(cs)
	case tsSections:
		return tc.sectionsHeadOf(cs)
	case tsHistograms:
		return tc.histHead(cs)
	case tsRecFacts:
		return fmt.Sprintf("the %s records, counted over every record:\n", commas(tc.p.recs.n))
	case tsColumns:
		return tc.columnsHead(cs)
	case tsColRows:
		return fmt.Sprintf("rows chosen by their columns (showing %s), line<TAB>text<TAB>[why]:\n", commas(len(cs)))
	case tsIndex:
		return tc.indexHead(cs)
	case tsHead:
		return fmt.Sprintf("first %s lines (lines %d-%d):\n", commas(len(cs)), cs[0].Record, cs[len(cs)-1].Record)
	case tsSpread:
		return "lines spread over the middle, line<TAB>text:\n"
	case tsTail:
		if tc.json {
			return fmt.Sprintf("the last %s output lines of the run (the Output of events %d-%d):\n", commas(len(cs)), cs[0].Record, cs[len(cs)-1].Record)
		}
		if tc.p.recs.short() {
			return fmt.Sprintf("the last lines that no record above shows whole (showing %s), line<TAB>text:\n", commas(len(cs)))
		}
		return fmt.Sprintf("last %s lines (lines %d-%d):\n", commas(len(cs)), cs[0].Record, cs[len(cs)-1].Record)
	}
	return ""
}

// restFoot names what is not shown: the count of records (lines or
// events) not shown and the longest run of them, as a slice, and a search.
func (tc *textCands) restFoot() string {
	n := tc.c.Count
	if len(tc.shown) >= n {
		return ""
	}
	bestStart, bestLen, start := 0, 0, -1
	for i := 0; i <= n; i++ {
		if i < n && !tc.shown[i] {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start > bestLen {
			bestStart, bestLen = start, i-start
		}
		start = -1
	}
	unit := "lines"
	if tc.json {
		unit = "events"
	}
	return fmt.Sprintf("not shown: %s of %s %s (numbered from 0); %s-%s: compact artifact slice %s --offset %d --limit %d\n",
		commas(n-len(tc.shown)), commas(n), unit, commas(bestStart), commas(bestStart+bestLen-1), tc.in.Handle, bestStart, min(bestLen, 100))
}

// fieldSummary is one field of RFC 822-like records: how many records
// have it, and either every value with its count (few distinct values,
// or values that repeat), or the numeric range and sum, or the exact
// number of distinct values.
func fieldSummary(f *fieldStat, records int) string {
	var b strings.Builder
	b.WriteString(f.name)
	if f.present != records {
		fmt.Fprintf(&b, " (in %s records%s)", commas(f.present), f.names.holdersText(f.present, records))
	}
	b.WriteString(": ")
	switch {
	case f.numeric == f.present && f.present > 1:
		fmt.Fprintf(&b, "numbers, sum %s, min %s (%s), max %s (%s)", strconv.FormatInt(f.sum, 10), strconv.FormatInt(f.min, 10), f.minRec, strconv.FormatInt(f.max, 10), f.maxRec)
	case !f.overflow && (len(f.values) <= 12 || 2*len(f.values) <= f.present):
		vs, _ := byCount(f.values)
		if len(vs) > 12 {
			fmt.Fprintf(&b, "%d distinct values; ", len(vs))
		}
		for i, x := range vs {
			if i == 12 {
				rest := f.present
				for _, y := range vs[:12] {
					rest -= y.n
				}
				fmt.Fprintf(&b, "; %d other values in %s records", len(vs)-12, commas(rest))
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q %s%s", cut(x.k, 60), commas(x.n), f.names.rareText(x.k, x.n, f.present))
		}
	case len(f.distinct) >= maxDistinctTracked:
		fmt.Fprintf(&b, "at least %s distinct values", commas(len(f.distinct)))
	default:
		fmt.Fprintf(&b, "%s distinct values", commas(len(f.distinct)))
	}
	return b.String()
}

// testTotals are the totals of a test run.
func testTotals(t *testSummary, json bool) []string {
	var out []string
	pk := t.pkgPass + t.pkgFail + t.pkgSkip
	if pk > 0 {
		out = append(out, fmt.Sprintf("packages: %s (%s passed, %s failed, %s with no tests or skipped)", commas(pk), commas(t.pkgPass), commas(t.pkgFail), commas(t.pkgSkip)))
	}
	tests := "tests"
	if json {
		tests = "tests (subtests counted, a parent fails with its subtest)"
	}
	out = append(out, fmt.Sprintf("%s: %s (%s passed, %s failed, %s skipped)", tests, commas(t.testPass+t.testFail+t.testSkip), commas(t.testPass), commas(t.testFail), commas(t.testSkip)))
	if len(t.failedPkgs) > 0 {
		out = append(out, "failed packages: "+listAndMore(t.failedPkgs, ", ", " ", t.pkgFail))
	}
	if len(t.skipped) > 0 {
		out = append(out, "skipped tests: "+listAndMore(t.skipped, ", ", " ", t.testSkip))
	}
	if len(t.slowest) > 0 {
		var parts []string
		for _, s := range t.slowest {
			parts = append(parts, s.name+" "+s.text)
		}
		out = append(out, "slowest tests: "+strings.Join(parts, ", "))
	}
	if json && t.elapsed > 0 {
		out = append(out, fmt.Sprintf("elapsed (sum over packages): %.3fs", t.elapsed))
	}
	return out
}

// hasWord reports whether line holds a word of three letters or more
// with a letter past f ("FLAGS", "Issuers"; not "7a:64:6a", "----").
func hasWord(line string) bool {
	for _, w := range strings.Fields(line) {
		w = strings.Trim(w, ",;:.()[]{}<>'\"`")
		if len(w) < 3 || !plainWord(w) {
			continue
		}
		for i := 0; i < len(w); i++ {
			if c := w[i] | 0x20; c > 'f' && c <= 'z' {
				return true
			}
		}
	}
	return false
}
