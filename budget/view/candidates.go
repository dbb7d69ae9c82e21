package view

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Caps on the rows kept as candidates per collection: fixed numbers, so
// that the candidates (and the memory they take) do not grow with the
// input or depend on the budget.
const (
	firstRound = 4   // rows per reason in the first round
	roundRows  = 16  // rows of rare values, fields and the like in the first round
	maxPerWhy  = 60  // rows per reason in all
	maxSpread  = 256 // rows of the even spread
	maxCols    = 10  // columns of a row besides the position and the reason
	cellWidth  = 48  // characters of a cell before it is cut
	tinyColl   = 8   // records of a collection whose short rows come with the profiles
)

// Build returns the candidates of an output: its facts (JSON outside
// every collection) and, per collection, its profile and rows. Text
// collections (Kind "lines") get the text candidates.
func Build(in Input) (*View, error) {
	v := &View{}
	var hb strings.Builder
	hb.WriteString("[compact: this output is too large for its budget of ")
	v.hdrAt, v.hdrBudget = hb.Len(), in.Budget
	fmt.Fprintf(&hb, "%s tokens; the full original is stored as %s]\n", commas(in.Budget), in.Handle)
	tool := in.Tool
	if tool == "" {
		tool = "(unnamed)"
	}
	size := commas(in.TokensBefore) + " tokens"
	if in.BeforeEstimated {
		size = "at most " + size + " (estimate)"
	}
	fmt.Fprintf(&hb, "tool: %s; %s bytes of %s; %s\n", tool, commas(len(in.Data)), in.ContentType, size)
	if len(in.Collections) == 0 {
		fmt.Fprintf(&hb, "no records: the content (%s) is not shown; get it: compact artifact get %s\n", in.Format, in.Handle)
	}
	for _, n := range in.Notes {
		hb.WriteString(n)
		hb.WriteByte('\n')
	}
	v.Header = hb.String()
	if in.Format == "json" {
		in.Collections = markNodeTrees(in) // json_nodes.go
		addFacts(v, in)
		v.tree = addDepTree(v, in) // deptree.go
	}
	folded := foldGroups(in.Collections)            // fold.go
	if group, root, k, ok := siblingLists(in); ok { // json_siblings.go
		// Each list's count on a line of its own, then its records as
		// one collection.
		if folded == nil {
			folded = map[int]int{}
		}
		for _, ci := range group {
			folded[ci] = group[0]
		}
		addFolded(v, in, folded, group[0])
		if err := addKeyedItemsOf(v, in, root, k, 10+group[0]); err != nil {
			return nil, err
		}
		for _, ci := range group {
			folded[ci] = -1
		}
	}
	for ci, c := range in.Collections {
		if g, ok := folded[ci]; ok {
			if g == ci {
				addFolded(v, in, folded, ci)
			}
			continue
		}
		if c.Kind == "jsonl" && len(in.Collections) == 1 && isGoTestJSON(in.Data) {
			if err := addGoTest(v, in, ci); err != nil {
				return nil, err
			}
			continue
		}
		if c.Kind == "lines" {
			if err := addText(v, in, ci); err != nil {
				return nil, err
			}
			continue
		}
		if ok, err := addNodeTree(v, in, ci); ok || err != nil { // json_nodes.go
			if err != nil {
				return nil, err
			}
			continue
		}
		if ok, err := addKeyedItems(v, in, ci); ok || err != nil { // json_items.go
			if err != nil {
				return nil, err
			}
			continue
		}
		if ok, err := addArrayItems(v, in, ci); ok || err != nil { // json_items.go
			if err != nil {
				return nil, err
			}
			continue
		}
		nc := findNested(&in, ci) // json_items.go
		if err := addRecords(v, in, ci); err != nil {
			return nil, err
		}
		if err := addNestedItems(v, in, ci, nc); err != nil {
			return nil, err
		}
	}
	for ci := range in.Collections {
		if _, ok := folded[ci]; !ok {
			addGraph(v, in, ci) // json_graph.go
		}
	}
	if err := addFamilies(v, in); err != nil { // json_families.go
		return nil, err
	}
	v.rankByWeight() // onerecord.go
	return v, nil
}

// errStop ends a walk over records early.
var errStop = errors.New("stop")

// coll is the state of one structured collection while its candidates are
// chosen.
type coll struct {
	// kindMax are the lines of the largest numbers per kind of a log's
	// records (json_kinds.go).
	kindMax []string
	// groupMax are the lines of each main number's extremes and sum
	// per value of a field of few values (groupmax.go).
	groupMax []string
	// groupMaxOf are the measures whose lines per value of k.group
	// groupMax holds: groupLines leaves them out.
	groupMaxOf map[*Field]bool
	// names are the records' own names, when few (recNames); named
	// once they are known.
	names      map[int]string
	namesOf    *Field
	namesKnown bool
	// holders name the records holding each rare value (holders.go).
	holders map[*valState]*holderLine
	// maxNames names every record holding a number field's max when
	// two or three do (holders.go).
	maxNames map[*Field]string
	in       Input
	c        Collection
	p        *Profile
	cols     []*Field
	// colIdx indexes cols.
	colIdx map[*Field]int
	// t gathers the selection's state in the profile's pass (rows.go).
	t *tracker
	// keys are the keys of a keyed collection, gathered in that pass.
	keys keyList
	// smap gathers a map's entries while its values are scalars
	// (json_map.go).
	smap *scalarMap
	// tuples gathers a map's lists while each leads with a scalar, to
	// be read by position (json_tuple.go); nil when they are not.
	tuples *tupleMap
	// why lists, per reason, the records it selects (in its order).
	why  []*reason
	rows map[int]*row // rendered on first use (row)
	// rowVals are, per record of a row, the values of the fields of
	// the reasons' vals (valueFoot); valMu guards it.
	rowVals map[int]map[*Field]string
	valMu   sync.Mutex
	// drops are the fields the rules drop, once the profile is done.
	drops map[*Field]bool
	// colMask reaches the columns (leavesOf); rowMu guards rendering.
	colMask []bool
	rowMu   sync.Mutex
	probe   []probe // identities of records for the lookup query
	// readAgain counts the records selectRows read again for the
	// extremes and outliers.
	readAgain int
	// fieldLines counts the profile lines that each profile one field
	// (not the per-group and per-kind lines after them), and fieldKey is
	// the candidate key of the first: the foot's "profile lines not
	// shown: N of M fields" counts fields only (REVIEW18 R3).
	fieldLines, fieldKey int
	// fieldKeyEnd is the key after the last field's lines (its own and
	// its holders' lines).
	fieldKeyEnd int
	// whole counts the lines that list every member or item of a
	// small collection of scalars (reasonWhole): no rows are needed.
	whole int
	// endRows are the records whose rows carry every member no cell
	// shows: the last record, the last of each kind (json_last.go).
	endRows map[int]bool
	// group and measures give the sums per group (rows.go).
	group     *Field
	measures  []*Field
	groupSums map[string]*groupSum
	// shorts are the fields' short names (short).
	shorts map[*Field]string
	// opaqueCols are the opaque fields rows leave out (chooseColumns).
	opaqueCols []*Field
	// otherCols are the fields of a few records each that no column
	// shows: a row's "other" cell names those it has (chooseColumns).
	otherCols []*Field
	// text is the records' own free text (a log's message), a column
	// of every row, wider than the others (textField); nil when the
	// records have none.
	text *Field
	// sec is the collection's section.
	sec int
	// dupOf maps a field that repeats another's value in every record
	// to that field (dupcols.go).
	dupOf map[*Field]*Field
	// codes maps a number field that codes another's values one for
	// one to that field (codeOf, dupcols.go), once asked.
	codes map[*Field]*Field
	// holderIDs are the identities of the records holding a field's
	// extreme, by record (holderText), read once each.
	holderIDs map[int]string
	// isSeries: 0 not yet known, 1 a series of samples named by their
	// time, -1 not (series, json_series.go).
	isSeries int8
}

// short is the name a row's reason gives field f: the shortest ending of
// its path, in whole segments, that no other field's path ends with
// ("restartCount" for status.containerStatuses[].restartCount while no
// other field is named restartCount; "lastState.terminated.exitCode"
// beside "state.terminated.exitCode"). The row header names the columns
// in full; reasons repeat on every row, so they say it short.
func (k *coll) short(f *Field) string {
	if k.shorts == nil {
		k.shorts = map[*Field]string{}
		ends := map[string]int{}
		segs := map[*Field][]string{}
		for _, g := range k.p.Fields {
			ss := pathSegments(g.Path)
			segs[g] = ss
			for j := 1; j <= len(ss); j++ {
				ends[strings.Join(ss[len(ss)-j:], ".")]++
			}
		}
		for _, g := range k.p.Fields {
			ss := segs[g]
			k.shorts[g] = g.Path
			for j := 1; j < len(ss); j++ {
				if e := strings.Join(ss[len(ss)-j:], "."); ends[e] == 1 {
					k.shorts[g] = e
					break
				}
			}
		}
	}
	if s, ok := k.shorts[f]; ok {
		return s
	}
	return f.Path
}

// pathSegments splits a dot path at the dots outside quoted names
// (metadata.labels."app.kubernetes.io/name" has three segments).
func pathSegments(path string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '\\':
			i++
		case '"':
			quoted = !quoted
		case '.':
			if !quoted {
				out = append(out, path[start:i])
				start = i + 1
			}
		}
	}
	return append(out, path[start:])
}

type reason struct {
	prio int
	recs []int
	text map[int]string // per record: why, in words
	more int            // records the reason selects beyond the cap
	// field is, per record, the field the reason is about when its text
	// does not give the value ("has configFilePath"): the row says the
	// value there when no column shows it.
	field map[int]*Field
	// inner is, per record, the value of a field inside an array of
	// objects the reason is about (a test's status among a file's
	// tests): the row names the element holding it (rows.go, innerOf).
	inner map[int]innerRef
	// val is the value of a field outside arrays the reason selects
	// the records of (a rare or error value), or nil: the foot says
	// how many of its records the rows show (valueFoot).
	val *valReason
	// many is set for an error value more records hold than the first
	// round shows of it (2*firstRound): its rows past the first
	// firstRound wait for the second round (addRows).
	many bool
}

// valReason is a field's value whose records a reason selects: how the
// view names it (label), and how many records hold it (exact: the field
// is outside arrays, one value a record).
type valReason struct {
	f     *Field
	raw   string // the value as written (JSON)
	label string
	total int
	// has are the records holding the value when the profile kept
	// them all (at most maxPerWhy), else nil: then a row's own record
	// is read (rowValue).
	has map[int]bool
}

// innerRef is a field inside an array of objects and one of its values.
type innerRef struct {
	f   *Field
	raw string
}

type row struct {
	raw   []byte // the record; cells and ident are made from it by row
	done  bool
	cells []string
	ident string
}

type probe struct {
	rec   int
	ident string
}

// addRecords adds the profile and row candidates of structured
// collection ci.
func addRecords(v *View, in Input, ci int) error {
	c := in.Collections[ci]
	if envelope(in, c) {
		// {total_count, items: [...]}: the members are facts and the
		// collection inside has its own section.
		v.AddSection(&Section{Coll: c.Path, Order: 10 + ci, Head: func([]Candidate) string {
			return fmt.Sprintf("collection %s (%s): %s members, an envelope: its scalars are above, the collections in it below\n", c.Path, c.Kind, commas(c.Count))
		}})
		return nil
	}
	// One pass over the records: the profile, and what the selection of
	// rows needs (rows.go); then a look at the few records kept.
	// Level 1's walk may have made that pass already (feed.go).
	k := c.Fed.take(in, c)
	if k == nil {
		k = &coll{in: in, c: c, p: NewProfile(c.Kind == "map"), rows: map[int]*row{}}
		if c.Kind == "map" {
			k.smap = &scalarMap{}
			k.tuples = &tupleMap{}
		}
		k.t = newTracker(k)
		k.p.t = k.t
		if err := k.profileRecords(); err != nil { // rows.go
			return fmt.Errorf("profile %s: %w", c.Path, err)
		}
	}
	k.p.Finish()
	if k.p.KeyedByName() {
		// One-member objects keyed by a name (go fix -json): profiled
		// again as keyed records, the name as the identity.
		k = &coll{in: in, c: c, p: NewProfile(true), rows: map[int]*row{}}
		k.t = newTracker(k)
		k.p.t = k.t
		if err := k.profileRecords(); err != nil {
			return fmt.Errorf("profile %s: %w", c.Path, err)
		}
		k.p.Finish()
	}
	noteGraphShape(v, ci, k.p) // json_graph.go
	if k.in.Drop != nil {
		// Asked of every field many times: answered once (rows.go).
		k.drops = make(map[*Field]bool, len(k.p.Fields)+1)
		for _, f := range append(k.p.Fields, k.p.root) {
			k.drops[f] = k.in.Drop(f.Path)
		}
	}
	for _, path := range in.Identity {
		if f := k.p.Field(strings.TrimPrefix(path, ".")); f != nil && f.scalar() && f.Present == k.p.Records {
			k.p.Identity = f
			break
		}
	}
	if k.p.Map && k.smap.usable(c.Count) {
		k.t, k.p.t = nil, nil
		addScalarMap(v, k, ci) // json_map.go
		return nil
	}
	k.smap = nil
	if !k.tuples.usable() {
		k.tuples = nil
	}
	if c.Count == 1 && !k.p.Map && (treeKey(k.p) == "" || holdsCollection(in, c)) {
		k.t, k.p.t = nil, nil
		return addOneRecord(v, k, ci) // onerecord.go
	}
	k.findDuplicates() // dupcols.go
	k.chooseColumns()
	k.selectRows()
	k.nameHolders() // holders.go
	k.t, k.p.t = nil, nil
	if ends := summaryEnds(k); len(ends) > 0 { // json_map.go
		return addSummarized(v, in, ci, k, ends)
	}
	sec := v.AddSection(&Section{Coll: c.Path, Order: 10 + ci,
		Head: k.head, Foot: k.foot, weight: k.weight()})
	k.sec = sec
	k.addProfile(v, sec)
	addOneOffRecords(v, k, sec) // oneoff.go
	if k.whole > 0 {
		return nil // listed whole: no rows, no index
	}
	if k.tuples == nil {
		// (A map of tuples has no columns: its lists are read by
		// position above and listed by the index.)
		k.addRows(v, sec)
		addNestedLists(v, k, sec) // nested.go
	}
	if (c.Count <= tinyColl || k.p.Map && c.Count <= 2*tinyColl) && len(k.cols) > 0 {
		// A few short records (an API document's servers) are shown
		// whole with the profiles, not after the rows of big ones (a
		// row's text is made here: a few of them).
		for i := range v.cands {
			if cd := &v.cands[i]; cd.Section == sec && cd.Record >= 0 && len(cd.text()) <= 320 {
				cd.Prio = PrioProfile
			}
		}
	}
	addTreeNodes(v, k) // treenodes.go
	addIndex(v, k)     // index.go
	k.addHolders(v)    // holders.go
	return nil
}

// head is the collection's first line: its path, kind, exact count and
// how many records are shown.
func (k *coll) head(chosen []Candidate) string {
	// The records shown: each once (the fill renders a head for each
	// prefix it counts: a sorted list, not a map).
	var recs []int
	for _, c := range chosen {
		if c.Record >= 0 {
			recs = append(recs, c.Record)
		}
	}
	slices.Sort(recs)
	recs = slices.Compact(recs)
	shown := len(recs)
	if k.whole > 0 && k.wholeShown(chosen) {
		// (every record: those past the count too, if any)
		shown = k.c.Count + len(recs) - sort.SearchInts(recs, k.c.Count)
	}
	also := ""
	if k.c.Pin != "" {
		also = "; pinned: " + cut(k.c.Pin, 80) + k.c.pinStopNote()
	}
	if k.c.Also {
		also = ", found besides the registry's records"
	}
	id := ""
	if k.p.Map {
		id = "; each record is a key and its value"
	} else if k.p.Identity != nil {
		id = "; identity: " + k.p.Identity.Path
	}
	return fmt.Sprintf("collection %s (%s%s): %s; showing %s of %s%s\n", k.c.Path, k.c.Kind, also,
		countWords(k.c.Path, k.c.Count), commas(shown), commas(k.c.Count), id)
}

// addProfile adds the profile lines of the collection: constants, then
// field by field, the important ones first.
func (k *coll) addProfile(v *View, sec int) {
	p := k.p
	key := -1_000_000
	var consts []string
	for _, f := range p.Fields {
		if f.Constant(p.Records) && !k.hidden(f) {
			consts = append(consts, f.Path+"="+cell(onlyValue(f), 80))
		}
	}
	if len(consts) > 0 && p.Records > 1 {
		v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: PrioProfile, Reason: "constant fields",
			Text: fmt.Sprintf("  all %s records have: %s", commas(p.Records), strings.Join(consts, ", "))})
	}
	key++
	var same []string
	for _, f := range p.Fields {
		if sameInArrays(f, p.Records) && !k.hidden(f) {
			same = append(same, fmt.Sprintf("%s=%s (%s values)", f.Path, cell(onlyValue(f), 80), commas(f.Values)))
		}
	}
	if len(same) > 0 {
		v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: PrioProfile, Reason: "constant fields",
			Text: fmt.Sprintf("  the same value everywhere, in all %s records: %s", commas(p.Records), strings.Join(same, ", "))})
	}
	key++
	if p.Map && p.root.scalar() && k.c.Count <= 40 {
		// In lines, so that a long one does not hold back the rest.
		for _, l := range k.membersLines() {
			v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: PrioProfile, Reason: reasonWhole, Text: l})
			key++
			k.whole++
		}
	} else if p.Map {
		v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: PrioProfile, Reason: "the keys", Text: k.keysLine()})
		if l := k.keyKindsLine(); l != "" {
			// A fact, unlike the keys it counts (a listing of the
			// output's own data): stated also beside the whole output.
			key++
			v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: PrioProfile, Reason: "keys by their parts", Text: l})
		}
		if k.tuples != nil {
			// Lists read by position (json_tuple.go): they replace the
			// lines of their merged items ("[]...").
			for _, l := range k.tuples.lines() {
				key++
				v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: PrioProfile, Reason: "by position", Text: l})
			}
		}
	} else if p.root.scalar() && p.root.Values == k.c.Count && k.c.Count <= 40 && (k.c.Kind == "array") {
		// A short list of names (a process's shared objects) is shown
		// whole, item by item in its order.
		for _, l := range k.itemsLines() {
			v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: PrioProfile, Reason: reasonWhole, Text: l})
			key++
			k.whole++
		}
	}
	key++
	tree := k.treeLines()
	for _, l := range tree {
		v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: PrioProfile, Reason: "tree", Text: l})
		key++
	}
	// A scalar field of the nodes below the records (Plans[].Plans[].
	// "Node Type") is counted by the tree's lines over every depth; a
	// line per depth would only split those counts (an EXPLAIN plan's
	// 336 such lines cost twice the plan itself).
	nested := func(f *Field) bool { return false }
	if len(tree) > 0 {
		elem := treeKey(p) + "[]."
		nested = func(f *Field) bool {
			rest := f.Path
			for strings.HasPrefix(rest, elem) {
				rest = rest[len(elem):]
			}
			return rest != f.Path && f.scalar() && !strings.Contains(rest, "[]")
		}
	}
	type line struct {
		prio int
		text string
		// holders are the lines naming the holders of the field's
		// rare values (holders.go), right after its own.
		holders []*holderLine
	}
	var lines []line
	// The lines that answer most come first: the identity, then the
	// fields most records have with few values, each with all its
	// counts (a package's license, its dev flag: "true 391, missing
	// 100"), then numbers, times, maps and arrays by their ranges, then
	// the shapes of many-valued strings; fields of few records last.
	type ranked struct {
		f     *Field
		text  string
		class int
		w     float64 // its worth (below), computed once
		segs  int     // its path's segments
	}
	var rs []ranked
	fields := p.Fields
	if p.root.Values > 0 && p.root.scalar() || p.Map && p.root.Types == tArray {
		// The records' own values: scalars counted; lists (a map of
		// name -> list) by their sizes: "0-65 items, 2,840 in all, 122
		// empty, most in array.js (65)".
		fields = append([]*Field{p.root}, fields...)
	}
	for _, f := range fields {
		if f.Constant(p.Records) && p.Records > 1 || sameInArrays(f, p.Records) || k.hidden(f) || nested(f) || k.tuples != nil && strings.HasPrefix(f.Path, "[]") {
			continue
		}
		if text, class := k.fieldLine(f); text != "" {
			if k.dupOf[f] != nil {
				text, class = k.dupLine(f), classOther
			}
			if f.Present*10 < p.Records && f != p.Identity && len(pathSegments(f.Path)) > 1 {
				class += classSparse // a nested field of few records
			}
			rs = append(rs, ranked{f: f, text: text, class: class})
		}
	}
	// Which records hold each optional object or array member, one line
	// per object ("delete 187, put 134" of an API's paths; "bin 23" of
	// a lockfile's packages): the members' own lines are their leaves.
	for _, f := range append([]*Field{p.root}, p.Fields...) {
		if f.Types&tObject == 0 || f.MapLike || k.hidden(f) || k.tuples != nil && strings.HasPrefix(f.Path, "[]") {
			continue
		}
		if text := k.membersOf(f); text != "" {
			class := classRange
			if f.Present*10 < p.Records && len(pathSegments(f.Path)) > 1 {
				class += classSparse
			}
			rs = append(rs, ranked{f: f, text: text, class: class})
		}
	}
	// A line's worth: the share of the records having the field, plus
	// what its class answers (few values with every count most, then
	// ranges, then up to 24 values, then shapes), plus a state-like
	// name, less for a field inside arrays; the identity first and
	// nested fields of few records last.
	bonus := [...]float64{classIdentity: 9, classFew: 0.3, classRange: 0.2, classMore: 0.1, classShapes: 0, classOther: -0.5}
	worth := func(r ranked) float64 {
		w := float64(r.f.Present)/float64(max(1, p.Records)) + bonus[r.class%classSparse]
		if r.class >= classSparse {
			w -= 10
		}
		if stateNames.MatchString(r.f.Path) {
			w += 0.2
		} else if !onePerRecord(r.f) {
			w -= 0.2
		}
		return w
	}
	for i := range rs {
		rs[i].w, rs[i].segs = worth(rs[i]), len(pathSegments(rs[i].f.Path))
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if wi, wj := rs[i].w, rs[j].w; wi != wj {
			return wi > wj
		}
		// The record's own fields before nested ones.
		return rs[i].segs < rs[j].segs
	})
	nImportant := 0
	for _, r := range rs {
		// A dozen telling lines come before the rows; the others after
		// the first rows.
		prio := PrioProfile2
		switch {
		case r.f == p.Identity:
			prio = PrioProfile
		case (k.c.Count <= tinyColl || p.Map && k.c.Count <= 2*tinyColl) && len(k.cols) > 0:
			// A few records are shown whole (addRecords): their lines
			// wait.
		case r.class < classOther && (r.class == classFew || r.f.Present*10 >= p.Records):
			// (of a field of few records, only its value counts: an
			// error field of 2% of the lines)
			nImportant++
			if nImportant <= 12 {
				prio = PrioProfile
			}
		case (r.class >= classSparse || r.f.Present*10 < p.Records) && r.class%classSparse != classFew:
			prio = PrioObject // a field of a few records
			// (but one of a few values, each with its count, waits
			// only for the other lines: a trace's fileIncludeKind in
			// 91 of 2,864 events, a pod's lastState reason)
		}
		lines = append(lines, line{prio, r.text, k.holderLines(r.f)})
	}
	if p.Unprofiled > 0 {
		lines = append(lines, line{prio: PrioProfile2, text: fmt.Sprintf("  %s more field values (past %d fields or %d levels deep) are not profiled", commas(p.Unprofiled), maxFields, maxDepth)})
	}
	for _, g := range k.groupLines() {
		lines = append(lines, line{prio: PrioProfile2, text: g})
	}
	for _, g := range k.kindMax { // (json_kinds.go)
		lines = append(lines, line{prio: PrioProfile2, text: g})
	}
	for _, g := range k.groupMax { // (groupmax.go)
		lines = append(lines, line{prio: PrioProfile2, text: g})
	}
	k.fieldLines, k.fieldKey, k.fieldKeyEnd = len(rs), key, key
	for i, l := range lines {
		v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: l.prio, Reason: "profile", Text: l.text})
		key++
		for _, h := range l.holders {
			// (added once the index has listed its groups: addHolders)
			h.key = key
			key++
		}
		if i == len(rs)-1 {
			k.fieldKeyEnd = key
		}
	}
	// The column header goes before every row, and is chosen before any
	// (its priority is the profile's).
	if k.c.Count > 0 {
		v.Add(Candidate{Section: sec, Key: -1, Record: -1, Prio: PrioProfile, Reason: "row header", Text: k.rowHeader()})
	}
}

// membersLines list every member of a small map of scalars, key value,
// in lines of about membersWidth characters.
func (k *coll) membersLines() []string {
	w := wrapped{head: "  every member: "}
	_ = k.c.Each(func(i int, raw []byte) error {
		s := jscan{d: raw}
		s.members(func(key string, val []byte) {
			w.add(key + " " + cell(string(val), 60))
		})
		return nil
	})
	return w.lines()
}

// itemsLines list every item of a short list of scalars, in its order,
// in lines of about membersWidth characters.
func (k *coll) itemsLines() []string {
	w := wrapped{head: "  every item, in order: "}
	_ = k.eachRecord(func(i int, raw []byte) error { // rows.go
		w.add(cell(string(raw), 100))
		return nil
	})
	return w.lines()
}

// wrapped lays parts out as one list after head, ", " between them, in
// lines of about membersWidth characters: a line that is full ends with
// ",", and the next starts with 4 spaces.
type wrapped struct {
	head string
	done []string
	cur  strings.Builder
}

// add appends a part to the list.
func (w *wrapped) add(part string) {
	switch {
	case w.cur.Len() == 0:
		w.cur.WriteString(w.head)
	case w.cur.Len()+len(part) > membersWidth:
		w.done = append(w.done, w.cur.String()+",")
		w.cur.Reset()
		w.cur.WriteString("    ")
	default:
		w.cur.WriteString(", ")
	}
	w.cur.WriteString(part)
}

// lines returns the list's lines (the head alone when no part was added).
func (w *wrapped) lines() []string {
	if w.cur.Len() == 0 {
		w.cur.WriteString(w.head)
	}
	return append(w.done, w.cur.String())
}

// reasonWhole is the reason of the lines that list a small collection
// of scalars whole.
const reasonWhole = "every member"

// epochNames are names of fields whose numbers may be times since 1970.
var epochNames = mustPathRe(`(?i)(time|timestamp|date|_at|At|Ms)$`)

// epochTimes writes "; as times: earliest ..., latest ..." for a number
// field named like a time whose numbers are all milliseconds (or
// seconds) since 1970 between 2001 and 2100 (jest's startTime).
func epochTimes(b *strings.Builder, f *Field) {
	if lo, hi, ok := epochRange(f); ok {
		fmt.Fprintf(b, "; as times: earliest %s, latest %s", lo.Format(time.RFC3339Nano), hi.Format(time.RFC3339Nano))
	}
}

// epochRange is the earliest and latest time of a field epochTimes
// reads as times.
func epochRange(f *Field) (lo, hi time.Time, ok bool) {
	if f.NumN == 0 || !epochNames.MatchString(f.Path) || f.Min != math.Trunc(f.Min) || f.Max != math.Trunc(f.Max) {
		return lo, hi, false
	}
	switch {
	case f.Min >= 978307200000 && f.Max < 4102444800000:
		return time.UnixMilli(int64(f.Min)).UTC(), time.UnixMilli(int64(f.Max)).UTC(), true
	case f.Min >= 978307200 && f.Max < 4102444800:
		return time.Unix(int64(f.Min), 0).UTC(), time.Unix(int64(f.Max), 0).UTC(), true
	}
	return lo, hi, false
}

// epochField reports whether f's numbers are times since 1970 (no
// quantity to sum).
func epochField(f *Field) bool {
	_, _, ok := epochRange(f)
	return ok
}

// years writes "; by year: 2024 120, 2025 200" when f's times span 2 to
// 24 years.
func years(b *strings.Builder, f *Field) {
	if len(f.Years) < 2 || len(f.Years) > 24 {
		return
	}
	ys := make([]int, 0, len(f.Years))
	for y := range f.Years {
		ys = append(ys, y)
	}
	sort.Ints(ys)
	b.WriteString("; by year: ")
	for i, y := range ys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%d %s", y, commas(f.Years[y]))
	}
}

// membersWidth is the characters of one line of a small map's members.
const membersWidth = 200

// keysLine lists the keys of a keyed collection: all when short, else the
// first and last 25 with the count between.
// The keys come from the profile's pass (keyList.add).
func (k *coll) keysLine() string {
	keys, n := k.keys.list(), k.keys.n
	count := commas(n)
	if rest := k.c.Count - n; k.keyedStream() && rest > 0 {
		// Records keyed by their one member's name, and empty ones.
		count += fmt.Sprintf("; the other %s records are {}, with no member", commas(rest))
	}
	var b strings.Builder
	if n > len(keys) {
		fmt.Fprintf(&b, "  keys (%s): %s, … %s more …, %s", count, strings.Join(keys[:25], ", "), commas(n-len(keys)), strings.Join(keys[25:], ", "))
	} else {
		fmt.Fprintf(&b, "  keys (%s): %s", count, strings.Join(keys, ", "))
	}
	return b.String()
}

// keyKindsLine counts the keys of a keyed collection by their parts, or
// "": keys are data too: media types by their type, paths by their first
// segment (exact counts over every key), where the keys are too many to
// count by eye.
func (k *coll) keyKindsLine() string {
	n := k.keys.n
	var b strings.Builder
	if n > 50 {
		if pres := k.keys.prefixes(); !kinds(&b, "keys before the first /", pres, n) && len(pres) == 1 {
			// One prefix (lodash's fp/ modules beside its top-level
			// ones, a linter's import/ rules): how many keys have it.
			for pre, c := range pres {
				fmt.Fprintf(&b, "; keys with a /: %s, all %s/", commas(c), cut(pre, 40))
			}
		}
		// Keys by their first segment (HAVE_, npm_), or their first two
		// when one holds nearly all (versions: 0.19.).
		for d := 1; d <= 2; d++ {
			m := k.keys.segments(d)
			most := 0
			for _, c := range m {
				most = max(most, c)
			}
			if most*10 <= n*9 && kinds(&b, fmt.Sprintf("keys by their first %s (up to a _ . or -)", map[int]string{1: "segment", 2: "two segments"}[d]), m, n) {
				break
			}
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("  the %s keys by their parts%s", commas(n), b.String())
}

// stateNames are field names whose values are states.
var stateNames = mustPathRe(`(?i)(^|\.)(phase|status|state|level|severity|type|kind|reason|conclusion|result|outcome|health|ready|action|priority|statevalue|state_value|lang|language|license)$`)

// The classes of profile lines, in the order they are shown: what
// answers most first (see addProfile).
const (
	classIdentity = iota // the identity
	classFew             // a field with few values (counted, missing included)
	classRange           // numbers, times, maps and varying arrays by their ranges
	classMore            // a field with up to 24 values, counted
	classShapes          // the shapes or prefixes of many-valued strings
	classOther           // the rest
	classSparse   = 10   // added for a nested field of under a tenth of the records
)

// fieldLine is the profile line of f and its class.
func (k *coll) fieldLine(f *Field) (string, int) {
	p := k.p
	if f.MapLike {
		return k.mapLine(f), classRange
	}
	if f.Types == tObject {
		return "", classOther // its fields are listed
	}
	if strings.HasSuffix(f.Path, "[]") && f.Counts == nil && f.NumN == 0 && f.TimeN == 0 && !(f.parent == p.root && standsOut(f)) {
		// (but the items of records that are lists, a module's
		// requirements, are the records' data: their most common)
		return "", classOther // its array's line gives the counts
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  %s (%s", f.Path, strings.Join(f.TypeNames(), "|"))
	// The value counts below say "missing N" themselves.
	counted := f != p.Identity && f.Types&(tArray|tObject) == 0 && f.Counts != nil && f.Distinct <= 24 && (f.Distinct < f.Values || f.Values < 4)
	if f.Present < p.Records {
		fmt.Fprintf(&b, ", in %s of %s records", commas(f.Present), commas(p.Records))
		if !counted && onePerRecord(f) {
			// "how many have no X" needs no subtraction
			fmt.Fprintf(&b, ", missing in %s", commas(p.Records-f.Present))
		}
	}
	if f.Values > f.Present {
		fmt.Fprintf(&b, ", %s values", commas(f.Values))
	}
	if f.Nulls > 0 {
		fmt.Fprintf(&b, ", %s null", commas(f.Nulls))
	}
	if counted && f.Distinct >= 5 {
		// "how many distinct" needs no counting of the list
		fmt.Fprintf(&b, ", %s distinct", commas(f.Distinct))
	}
	b.WriteString(")")
	class := classOther
	under := strings.Contains(f.Path, "[]")
	// Absence is an answer: "true 391, missing 100".
	missing := 0
	if onePerRecord(f) {
		missing = p.Records - f.Present
	}
	switch {
	case f == p.Identity:
		if f.ManyDistinct {
			// (past maxDistinct values the count is not exact: an
			// identity named like an id, not known to be unique)
			fmt.Fprintf(&b, ": identity, over %s distinct", commas(maxDistinct))
		} else {
			fmt.Fprintf(&b, ": identity, %s distinct", commas(f.Distinct))
		}
		if f.MaxLen > 0 {
			fmt.Fprintf(&b, ", longest %s chars", commas(f.MaxLen))
		}
		if f.Counts != nil && f.Distinct < f.Values {
			// Not unique (a SARIF result's ruleId, 18 of 30): the
			// names several records share are a distribution.
			repeated(&b, f)
		}
		shapes(&b, f)
		kinds(&b, "before the first /", f.Prefixes, f.Distinct)
		kinds(&b, "by extension", f.Exts, f.Distinct)
		class = classIdentity
	case f.Types&tArray != 0:
		fmt.Fprintf(&b, ": %s-%s items, %s in all", commas(f.MinItems), commas(f.MaxItems), commas(f.Items))
		if f.EmptyArrays > 0 && f.MaxItems > 0 {
			fmt.Fprintf(&b, ", %s empty", commas(f.EmptyArrays))
		}
		if f.MinItems != f.MaxItems && !under {
			class = classRange
			if id := k.identOf(f.maxItemsRaw); id != "" {
				fmt.Fprintf(&b, ", most in %s (%s)", cell(id, 60)+tiedWith(f.maxItemsN), commas(f.MaxItems))
			}
		}
	case f.Types&tObject != 0:
		// present in some records only: said above
	case f.Counts != nil && f.Distinct <= 24 && (f.Distinct < f.Values || f.Values < 4):
		b.WriteString(": ")
		vcs := f.sortedCounts()
		once := onceValues(f, vcs)
		if once > 0 {
			vcs = slices.DeleteFunc(slices.Clone(vcs), func(vc keyCount) bool { return vc.n == 1 && vc.k != "null" })
		}
		for i, vc := range vcs {
			if i > 0 {
				b.WriteString(", ")
			}
			if f.Distinct <= 2 {
				// One or two values (a rare error message): shown
				// whole up to 240 characters, else its head and its
				// end (where a message's cause is).
				fmt.Fprintf(&b, "%s %s", cellEnds(vc.k, 240), commas(vc.n))
			} else if name := k.holderName(f, vc); name != "" {
				// The one record holding it, by name: a job's read
				// IOPS among a few jobs' (recNames).
				fmt.Fprintf(&b, "%s (%s)", cell(vc.k, 60), name)
			} else {
				fmt.Fprintf(&b, "%s %s", cell(vc.k, 60), commas(vc.n))
			}
		}
		if once > 0 {
			// Values each in one record: how many, and their range
			// (the records holding them are the rare values' rows).
			if len(vcs) > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s more values, each in one record", commas(once))
			if f.TimeN > 0 {
				// (the field's range: the values of several records
				// are within it too)
				fmt.Fprintf(&b, " (the field's times from %s to %s)", f.earliestText, f.latestText)
			} else if lo, hi := onceRange(f); lo != "" {
				fmt.Fprintf(&b, " (min %s, max %s)", lo, hi)
			}
		}
		k.kindsLine(&b, f) // (a caller's files: json_kinds.go)
		if missing > 0 {
			fmt.Fprintf(&b, ", missing %s", commas(missing))
		}
		if f.NumN > 1 && f.Min != f.Max && !refNumber(f.Path) && !codeNumber(f.Path) && f.NumStrings == 0 {
			// (A few values written as strings are codes and flags
			// ("tcp.flags.ack": "1"): their sum says nothing.)
			fmt.Fprintf(&b, "; sum %s", sumText(f.Sum))
			if h := k.numHolder(f, f.Max, f.maxRec, f.maxRaw); h != "" && f.NumN == f.Values-f.Nulls && f.Distinct >= 3 && !strings.HasPrefix(h, " (first in ") {
				// The record of the largest (the most restarts), when
				// known to hold it alone or with one or two others.
				fmt.Fprintf(&b, "; max %s%s", numExact(f.Max), h)
			}
		}
		n := f.Distinct
		if missing > 0 {
			n++
		}
		switch {
		case f.Distinct == 1 && f.parent != nil && f.parent != p.root && f.Present == f.parent.Present:
			// One value wherever its parent is: the missing ones are
			// the parent's.
		case n >= 2 && n <= 12 && (onePerRecord(f) || stateNames.MatchString(f.Path)):
			class = classFew
		case n >= 2:
			class = classMore
		}
		if f.NumN > 0 && refNumber(f.Path) {
			class = classOther // columns, lines, offsets: counted, last
		}
	case f.NumN > 0 && f.NumN >= f.Values-f.Nulls:
		ref := refNumber(f.Path) || identityScore(f.Path) >= 50
		code := codeNumber(f.Path)
		if ref || code {
			// Ids, lines, offsets, codes: their sum and mean say
			// nothing.
			fmt.Fprintf(&b, ": min %s, max %s", numExact(f.Min), numExact(f.Max))
		} else if k.measure(f) {
			// A series' measure: the samples of its extremes, its mean
			// (no sum: a rate's or a percentage's sum over the samples
			// says nothing; json_series.go).
			fmt.Fprintf(&b, ": min %s, max %s, mean %s", k.extreme(f, f.Min, f.minRaw), k.extreme(f, f.Max, f.maxRaw), num(f.Mean()))
		} else {
			fmt.Fprintf(&b, ": min %s, max %s%s, mean %s, sum %s", numExact(f.Min),
				numExact(f.Max), k.numHolder(f, f.Max, f.maxRec, f.maxRaw), num(f.Mean()), sumText(f.Sum))
		}
		if !f.ManyDistinct && !k.measure(f) {
			fmt.Fprintf(&b, ", %s distinct", commas(f.Distinct))
		}
		// The values people count ("0 991" of cloc's blank lines), when
		// one covers a third of them.
		switch {
		case code:
			// A code (a linter's rule number, an HTTP status, an
			// exit code) is counted by its values, most common first.
			if codeValues(&b, f) {
				class = classMore
			}
		default:
			if vcs := f.sortedCounts(); len(vcs) > 0 && vcs[0].n*3 >= f.Values-f.Nulls {
				commonValues(&b, f)
			}
		}
		epochTimes(&b, f)
		if f.Min != f.Max && (!under || f.Max > f.Mean()+2*f.StdDev()) && !ref && !code && f.NumStrings == 0 {
			// (the range of ids, offsets or positions answers nothing;
			// numbers written as strings keep the place of the strings
			// they are written as)
			class = classRange
		}
	case f.TimeN > 0 && f.TimeN == f.Values-f.Nulls:
		fmt.Fprintf(&b, ": earliest %s%s, latest %s%s", f.earliestText, k.timeHolder(f, f.earliestText, f.earliestRec, f.earliestRaw),
			f.latestText, k.timeHolder(f, f.latestText, f.latestRec, f.latestRaw))
		years(&b, f)
		if !under {
			class = classRange
		}
	default:
		if f.ManyDistinct {
			fmt.Fprintf(&b, ": over %s distinct", commas(maxDistinct))
		} else {
			fmt.Fprintf(&b, ": %s distinct", commas(f.Distinct))
		}
		if f.Counts != nil && f.Distinct <= 24 {
			b.WriteString(" (")
			for i, vc := range f.sortedCounts() {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s %s", cell(vc.k, 40), commas(vc.n))
			}
			b.WriteString(")")
		}
		if f.MaxLen > 0 {
			fmt.Fprintf(&b, ", longest %s chars", commas(f.MaxLen))
		}
		if commonValues(&b, f) {
			class = classMore
		}
		if !k.opaque(f) {
			topValuesOf(&b, f)
		}
		byKind := k.kindsLine(&b, f) // (json_kinds.go)
		if byKind {
			class = classShapes
		} else if shapes(&b, f) {
			class = classShapes
		}
		if !(byKind && f.kindOf == kindFile) && kinds(&b, "before the first /", f.Prefixes, f.Distinct) {
			class = classShapes
		}
		if kinds(&b, "by extension", f.Exts, f.Distinct) && class == classOther {
			class = classShapes
		}
		if f.TimeN > 0 {
			fmt.Fprintf(&b, "; %s are times from %s to %s", commas(f.TimeN), f.earliestText, f.latestText)
		}
	}
	return b.String(), class
}

// Extremes by their record.
//
// "Which file is the largest", "the slowest test", "the newest
// release": a profile line's max (a time's earliest and latest) names the
// record holding it by its identity (identOf: "size: min 0, max 9812331
// (libfoo.so)"; the smallest number, asked less, is left to the rows, for
// the tokens of the rows and the index), read from the record the profile kept for
// it (the first record holding the value). When the profile counted the
// field's values, it knows how many records hold the extreme: one is
// named as the one ("(libfoo.so)"), a few as the first of them ("(the
// first of 3: a.txt)"), more not at all. Past the values it counts, it
// does not know: the record is named as the first holding it ("(first
// in libfoo.so)"), never as the only one. Nothing is named for the
// identity itself, a field whose name says it is an id, or a record
// with no identity.

// holderMost is the most records holding an extreme for the profile to
// name the first of them.
const holderMost = 3

// numHolder returns " (X)" naming the record (rec, its text raw)
// holding the number x, the Max of f, or "" (see above). The profile
// counts the values equal to it (maxN) when they are all written as
// numbers; under an array they are values, not records.
func (k *coll) numHolder(f *Field, x float64, rec int, raw []byte) string {
	if math.Abs(x) >= 1<<53 {
		return "" // (read rounded: which records hold it is not known)
	}
	n := -1 // unknown
	if f.NumStrings == 0 && !f.inArr && f.Values == f.Present {
		n = f.maxN
	}
	return k.holderText(f, x, n, rec, raw)
}

// timeHolder is numHolder of a time (its earliest or latest, as
// written: text).
func (k *coll) timeHolder(f *Field, text string, rec int, raw []byte) string {
	n := -1
	if f.Counts != nil {
		n = f.Counts[strconv.Quote(text)]
		if n == 0 {
			n = -1 // (written otherwise: not known)
		}
	}
	return k.holderText(f, math.NaN(), n, rec, raw)
}

// holderText names record rec (its text raw) held by n records (-1:
// not known) for an extreme of f (x, the number; NaN for a time).
func (k *coll) holderText(f *Field, x float64, n, rec int, raw []byte) string {
	p := k.p
	if f == p.Identity || raw == nil || n == 0 || n > holderMost || identityScore(f.Path) >= 50 || p.Records < 3 {
		return ""
	}
	id := strings.TrimSuffix(strings.TrimPrefix(k.recName(rec, raw), " ("), ")")
	if id == "" {
		return ""
	}
	switch {
	case n == 1:
		return " (" + id + ")"
	case n > 1:
		if all := k.maxNames[f]; all != "" && x == f.Max {
			// Every record holding it, when the profile kept them
			// (holders.go): the tests with the longest timeout.
			return fmt.Sprintf(" (%d records: %s)", n, all)
		}
		return fmt.Sprintf(" (the first of %d: %s)", n, id)
	}
	return " (first in " + id + ")"
}

// onceValues returns how many of the values of f (its counts vcs, most
// common first) a profile line counts together rather than one by one:
// a number's or a time's values each held by one record, when they are
// six or more and at least half of its distinct values ("idx_tup_fetch
// (...): 0 83, null 5, 1 2, 2 2, 4 2, 15 more values, each in one record
// (min 0, max 12480)"). Each such value is one record's own, which its
// row or its index line shows beside its name; listed in the profile
// they take the tokens of rows. 0 when they are listed one by one.
func onceValues(f *Field, vcs []keyCount) int {
	numbers := f.NumN > 0 && f.NumN >= f.Values-f.Nulls && f.NumStrings == 0
	times := f.TimeN > 0 && f.TimeN == f.Values-f.Nulls
	if !numbers && !times || refNumber(f.Path) || codeNumber(f.Path) {
		return 0
	}
	once := 0
	for _, vc := range vcs {
		if vc.n == 1 && vc.k != "null" {
			once++
		}
	}
	if once < 6 || once*2 < len(vcs) {
		return 0
	}
	return once
}

// namedRecords is the most records a collection has for the profile
// lines to name the record holding each value only one record has
// (recNames).
const namedRecords = 10

// recNames returns, for a collection of at most namedRecords records
// with many fields (more than its rows show), each record's name (its
// nameField's value, or its identity's when a string) that no other
// record has: a value of a field only one record holds is then stated
// with that record's name ("read.iops (...): 0.000000 3, 10667.333167
// (rand-read-4k), ...": what is the IOPS of rand-read-4k), where the
// rows show a few fields of a few records. nil otherwise.
func (k *coll) recNames() map[int]string {
	if k.namesKnown {
		return k.names
	}
	k.namesKnown = true
	p := k.p
	if p.Map || p.Records > namedRecords || p.Records < 3 || len(p.Fields) <= 3*maxCols {
		return nil
	}
	nf := k.nameField()
	if nf == nil {
		nf = p.Identity
	}
	if nf == nil || nf.Types != tString || nf.vals == nil {
		return nil
	}
	k.namesOf = nf
	for key, vs := range nf.vals {
		if vs.n == 1 {
			if k.names == nil {
				k.names = map[int]string{}
			}
			k.names[vs.first] = cell(key, 40)
		}
	}
	return k.names
}

// holderName returns the name (recNames) of the one record holding the
// value vc of f, or "".
func (k *coll) holderName(f *Field, vc keyCount) string {
	if vc.n != 1 || f == k.p.Identity || f.inArr || f.vals == nil {
		return ""
	}
	names := k.recNames()
	if names == nil {
		return ""
	}
	vs := f.vals[vc.k]
	if vs == nil || f == k.namesOf {
		return ""
	}
	return names[vs.first]
}

// onceRange returns the smallest and the largest of the numbers of f
// each held by one record, as written (onceValues), or "" when one is
// not a number.
func onceRange(f *Field) (lo, hi string) {
	var min, max float64
	for k, n := range f.Counts {
		if n != 1 || k == "null" {
			continue
		}
		x, err := strconv.ParseFloat(strings.Trim(k, `"`), 64)
		if err != nil {
			return "", ""
		}
		if lo == "" || x < min || x == min && k < lo {
			lo, min = k, x
		}
		if hi == "" || x > max || x == max && k > hi {
			hi, max = k, x
		}
	}
	return strings.Trim(lo, `"`), strings.Trim(hi, `"`)
}

// commonValues writes the most common values of a field with more
// values than a profile line lists (over 24, all counted) when a few of
// them cover most of its values ("; most common: file:///w.js 29,
// node:internal/main 3"; a number's "0 991"), and reports whether it
// wrote. (Listed always, they lengthen the facts a whole output's notice
// must state all of, and a table that fitted its budget no longer does.)
func commonValues(b *strings.Builder, f *Field) bool {
	if f.Counts == nil || f.Distinct <= 24 {
		return false
	}
	vcs := f.sortedCounts()
	top, shown := 0, 0
	for _, vc := range vcs {
		if shown == 8 || vc.n < 2 {
			break
		}
		top += vc.n
		shown++
	}
	if shown == 0 || top*2 < f.Values-f.Nulls {
		return false
	}
	b.WriteString("; most common: ")
	for i, vc := range vcs[:shown] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s %s", cell(vc.k, 60), commas(vc.n))
	}
	fmt.Fprintf(b, "; %s more values with %s", commas(len(vcs)-shown), commas(f.Values-f.Nulls-top))
	return true
}

// repeated writes the values of f held by more than one record, most
// first, each with its exact count (up to 12), and how many values are
// each in one record.
func repeated(b *strings.Builder, f *Field) {
	vcs := f.sortedCounts()
	shown, rest := 0, 0
	for _, vc := range vcs {
		if vc.n < 2 {
			rest++
			continue
		}
		if shown == 12 {
			rest++
			continue
		}
		if shown == 0 {
			b.WriteString("; in several records: ")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s %s", cell(vc.k, 60), commas(vc.n))
		shown++
	}
	if shown > 0 && rest > 0 {
		fmt.Fprintf(b, "; %s more values", commas(rest))
	}
}

// standsOut reports whether the most common of a field's many values
// (more than it counts one by one) stands out: seen at least 3 times, at
// least 3 times as often as the field's values on average and in at
// least one value of 10 (the module 348 of 1,049 modules require, not
// one id among ids, a hash two copies of a package share, nor the
// commonest of 201 versions of 409 packages).
func standsOut(f *Field) bool {
	if len(f.Top) == 0 || f.Distinct == 0 {
		return false
	}
	n, vals := f.Top[0].Count, f.Values-f.Nulls-f.Containers
	return n >= 3 && n*f.Distinct >= 3*vals && n*10 >= vals
}

// codeValues writes the most common values of a code field (up to 10,
// each with its exact count: "; most common: 2086 412, 2034 120"), and
// reports whether it wrote.
func codeValues(b *strings.Builder, f *Field) bool {
	var vcs []keyCount
	if f.Counts != nil {
		vcs = f.sortedCounts()
	} else {
		for _, t := range f.Top {
			vcs = append(vcs, keyCount{t.Value, t.Count})
		}
	}
	if len(vcs) == 0 {
		return false
	}
	b.WriteString("; most common: ")
	top := 0
	for i, vc := range vcs {
		if i == 10 {
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s %s", cell(vc.k, 40), commas(vc.n))
		top += vc.n
	}
	if f.Counts != nil && len(vcs) > 10 {
		fmt.Fprintf(b, "; %s more values with %s", commas(len(vcs)-10), commas(f.Values-f.Nulls-top))
	}
	return true
}

// topValuesOf writes the most common values of a field with too many to
// count one by one, each with its exact count ("; most common:
// fp/convert.js 348, _baseRest.js 120"), when the first stands out, and
// reports whether it wrote.
func topValuesOf(b *strings.Builder, f *Field) bool {
	if f.Counts != nil || len(f.Top) == 0 {
		return false
	}
	vals := f.Values - f.Nulls - f.Containers
	// A field that groups the records (each value in several of them,
	// as a build's events by their package): its biggest groups, those
	// at least twice the average.
	grouped := vals >= 3*f.Distinct && f.Top[0].Count*f.Distinct >= 2*vals
	if !standsOut(f) && !grouped {
		return false
	}
	b.WriteString("; most common: ")
	least := 3 * vals
	if grouped {
		least = 2 * vals
	}
	for i, t := range f.Top {
		// Those 3 (2 in groups) times as common as the average value,
		// at most 5.
		if i == 5 || i > 0 && t.Count*f.Distinct < least {
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s %s", cell(t.Value, 60), commas(t.Count))
	}
	return true
}

// cellEnds is cell for a value shown whole when it can be: past width
// characters it keeps the head and the last 60 ("…[N chars]…" between).
func cellEnds(raw string, width int) string {
	s := cell(raw, 1<<30)
	r := []rune(s)
	if len(r) <= width+12 {
		return s
	}
	head, tail := r[:width-60], r[len(r)-60:]
	return string(head) + "…[" + strconv.Itoa(len(r)-len(head)-len(tail)) + " chars]…" + string(tail)
}

// membersOf is the line of object field f (or the records) that counts
// the records holding each of its optional members whose values are
// objects or arrays, most first, or "" for fewer than two.
func (k *coll) membersOf(f *Field) string {
	var ms []keyCount
	items := map[string]int{} // of the members that are always arrays
	all := 0
	for name, kid := range f.kids {
		if kid.Types&(tObject|tArray) != 0 && kid.Present < f.Present && !k.dropped(kid) {
			ms = append(ms, keyCount{name, kid.Present})
			if kid.Types&^tNull == tArray && kid.Values == kid.Present {
				items[name] = kid.Items
				all += kid.Items
			}
		}
	}
	if len(ms) < 2 {
		return ""
	}
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].n != ms[j].n {
			return ms[i].n > ms[j].n
		}
		return ms[i].k < ms[j].k
	})
	var b strings.Builder
	if f == k.p.root {
		fmt.Fprintf(&b, "  records by the object and array members they have (of %s): ", commas(k.p.Records))
	} else {
		fmt.Fprintf(&b, "  %s: records by the object and array members it has (of %s): ", f.Path, commas(f.Present))
	}
	for i, m := range ms {
		if i == 16 {
			fmt.Fprintf(&b, ", … %d more", len(ms)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", cell(jsonQuote(m.k), 40), commas(m.n))
		if n, ok := items[m.k]; ok {
			fmt.Fprintf(&b, " (%s)", plural(n, "item"))
		}
	}
	if len(items) == len(ms) {
		// Lists of findings per kind (go fix -json's analyzers): how
		// many in all.
		fmt.Fprintf(&b, "; %s in these lists in all", plural(all, "item"))
	}
	return b.String()
}

// mapLine is the line of a map-like field (its member names are data,
// as a package's dependencies): how many entries its objects hold, which
// record holds the most, and its names by the records holding them.
func (k *coll) mapLine(f *Field) string {
	p := k.p
	var b strings.Builder
	fmt.Fprintf(&b, "  %s (map", f.Path)
	kind := -1
	for _, kid := range f.kids {
		if kind == -1 {
			kind = kid.Types
		} else if kind != kid.Types {
			kind = 0
		}
	}
	if kind > 0 && !f.keyed {
		fmt.Fprintf(&b, " of %s", strings.Join((&Field{Types: kind}).TypeNames(), "|"))
	}
	if f.Present < p.Records {
		fmt.Fprintf(&b, ", in %s of %s records", commas(f.Present), commas(p.Records))
	}
	if f.Nulls > 0 {
		fmt.Fprintf(&b, ", %s null", commas(f.Nulls))
	}
	fmt.Fprintf(&b, "): %s-%s entries, %s in all", commas(f.MinEntries), commas(f.MaxEntries), commas(f.Entries))
	if id := k.identOf(f.maxEntriesRaw); id != "" && !f.inArr {
		fmt.Fprintf(&b, ", most in %s (%s)", cell(id, 60)+tiedWith(f.maxEntriesN), commas(f.MaxEntries))
	}
	names, _ := byCount(f.KeyCounts)
	if f.ManyKeys {
		b.WriteString("; names (not all counted) by records holding them: ")
	} else {
		fmt.Fprintf(&b, "; %s distinct names, by records holding them: ", commas(len(names)))
	}
	for i, x := range names {
		if i == 12 {
			if !f.ManyKeys {
				fmt.Fprintf(&b, ", … %s more", commas(len(names)-i))
			}
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", cell(jsonQuote(x.k), 40), commas(x.n))
	}
	return b.String()
}

// identOf names the record raw (kept by the tracker) by its key or its
// identity, or "".
func (k *coll) identOf(raw []byte) string {
	if raw == nil {
		return ""
	}
	if k.p.Map {
		return mapKey(raw)
	}
	if k.p.Identity == nil {
		return ""
	}
	id, name := "", ""
	nf := k.nameField()
	k.p.leavesOf(raw, k.p.mask(k.p.Identity, nf), func(f *Field, v []byte) {
		if f == k.p.Identity && id == "" {
			id = string(v)
		}
		if f == nf && nf != nil && name == "" {
			name = string(v)
		}
	})
	if name != "" && id != "" {
		// A number names no record for a reader: its name does
		// ("EmptyStream [id 1185]").
		return cell(name, 60) + " [" + k.p.Identity.Path + " " + id + "]"
	}
	return id
}

// nameField is the field that names the records when their identity is a
// number (typedoc's reflections: id 1185, name EmptyStream): a string
// field of the record itself named like a name, in most records; or nil.
func (k *coll) nameField() *Field {
	id := k.p.Identity
	if id == nil || id.Types&tNumber == 0 {
		return nil
	}
	var best *Field
	for _, f := range k.p.Fields {
		if f.parent != k.p.root || f.Types != tString || f.Present*2 < k.p.Records || f.MaxLen > 120 || identityScore(f.Path) < 50 {
			continue
		}
		if best == nil || identityScore(f.Path) > identityScore(best.Path) {
			best = f
		}
	}
	return best
}

// sameInArrays reports whether f is a field inside arrays whose every
// value is one value, in every record (the severity 2 of each of a
// report's 4,716 messages): stated once ("messages[].severity=2 (4,716
// values)"), never a column nor a line of its own. Present in every
// record and no null: a record without it would not have that value.
func sameInArrays(f *Field, records int) bool {
	return records > 1 && f.inArr && f.scalar() && !f.ManyDistinct && f.Distinct == 1 && f.Nulls == 0 && f.Present == records && f.Values > records
}

// refNames are names of numbers that are references or places, not
// measures: their sums and means say nothing.
var refNames = mustPathRe(`(?i)(^|[._\]])(id|ids|target|targets|position|pos|offset|line|column|col|character|char|start|end|index|idx|row|ordinal|address|addr|seq|seqno|sequence|lineno|rownum|columnno|colno|charno)$|[a-z](Id|ID|Index|Offset|Position|Line|Column|Seq)$|(?i)(^|[._\]])(line|row|seq|record|event|entry|msg|message|frame|step|log)[_-]?(num|no|nr|number|idx|index)$|[a-z](LineNumber|LineNum|RowNumber|SeqNum)$`)

// placeNames are names of strings that say where a record is (a file,
// a source position "main.go:39:6"): long and nearly all distinct, like
// hashes, but read and looked up, so not opaque.
var placeNames = mustPathRe(`(?i)(^|[._\]])(posn|pos|position|location|loc|file|filename|filepath|path)$`)

// codeNames are names of numbers that are codes: a linter's rule number,
// an HTTP status, an exit code, an errno, a kind or type by number
// (typedoc's kind 128 for a class). Their values are counted,
// most common first, never summed.
var codeNames = mustPathRe(`(?i)(^|[._\]])(code|codes|status|statuscode|status_code|httpstatus|exitcode|exit_code|exitstatus|exit_status|errno|rule|ruleid|rule_id|signal|kind|type)$|[a-z](Code|Status)$`)

// codeNumber reports whether a number field's name says it is a code.
func codeNumber(path string) bool { return codeNames.MatchString(path) }

// refNumber reports whether a number field's name says it is a
// reference or a place (an id, a target, a line, a column, an offset).
func refNumber(path string) bool { return refNames.MatchString(path) }

// onePerRecord reports whether a field has at most one value per record:
// outside arrays, or inside arrays of at most one item
// (licenses[].license.id of an SBOM), so that its values count records.
func onePerRecord(f *Field) bool {
	return !strings.Contains(f.Path, "[]") || f.Values == f.Present
}

// num formats a number shortly: integers in full, others with up to 6
// significant digits (a mean: a statistic, not a value of the output).
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// numExact formats a value of the output (a minimum, a maximum): an
// integer below 2^53 in full, another number below 2^53 as jq prints it
// (the shortest digits that read back as the same number:
// 0.004056220604842231, not 0.00405622), and a number of 2^53 or more
// as "about" and 16 significant digits, since its float64 may not be
// the value written.
func numExact(x float64) string {
	if math.Abs(x) >= 1<<53 {
		// Past 2^53 a float64 no longer holds every integer: the value
		// read may not be the one written (9007199254740993 reads as
		// ...992, 2^64-1 as 18446744073709552000), and jq keeps the
		// written integer, so a select on the printed digits finds
		// nothing. Say it is rounded.
		return "about " + strconv.FormatFloat(x, 'g', 16, 64)
	}
	if x == math.Trunc(x) {
		return strconv.FormatInt(int64(x), 10)
	}
	if a := math.Abs(x); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64) // 1795711598.3824089, not 1.7957115983824089e+09
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// sumText formats a sum: exact as an integer, or when its shortest digits
// are few (at most 12 significant); else "about" and 12 significant
// digits ("about 150127123.3"): a sum of fractions carries the rounding
// of each addition (0.1+0.2 is 0.30000000000000004).
func sumText(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	digits := 0
	for i := 0; i < len(s) && s[i] != 'e'; i++ {
		if isDigitByte(s[i]) && (digits > 0 || s[i] != '0') {
			digits++
		}
	}
	if digits <= 12 && !strings.Contains(s, "e") {
		return s
	}
	s = strconv.FormatFloat(x, 'g', 12, 64)
	if strings.Contains(s, ".") && !strings.Contains(s, "e") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return "about " + s
}

// onlyValue is the one value of a constant field.
func onlyValue(f *Field) string {
	for k := range f.Counts {
		return k
	}
	return ""
}

// dropped reports whether the rules drop f (not shown as a column).
func (k *coll) dropped(f *Field) bool {
	if d, ok := k.drops[f]; ok {
		return d
	}
	return k.in.Drop != nil && k.in.Drop(f.Path)
}

// hidden reports whether f has no line, column or reason of its own: the
// rules drop it, or it is a member of a map-like field (its map's line
// summarises it).
func (k *coll) hidden(f *Field) bool {
	return f.inMap || k.dropped(f) || k.c.inner != "" && strings.HasPrefix(f.Path, k.c.inner)
}

// opaque reports whether f's values are opaque and nearly all distinct
// (hashes, ids other than the identity, long URLs): strings over 20
// bytes without spaces, at least half of them distinct, not times. Rows leave such
// columns out (the foot says so); a rare value of one is no anomaly.
func (k *coll) opaque(f *Field) bool {
	if f == k.p.Identity || f.Types&^tNull != tString || f.Values-f.Nulls < 2 || placeNames.MatchString(f.Path) || nameLike(f.Path) {
		// (a name is read, even a long one: the files a clone
		// repeats, firstFile.name and secondFile.name)
		return false
	}
	strs := f.Values - f.Nulls
	return f.TimeN*2 < strs && f.Long*4 >= strs*3 && f.Spaced*10 < f.Long && (f.ManyDistinct || f.Distinct*2 >= strs)
}

// msgWidth is the characters of a row's free text (coll.text) before
// it is cut: a log's message is the record, so it gets more than a cell.
const msgWidth = 120

// textNames are names of fields holding a record's free text: a log's
// message, an event's output, an issue's title.
var textNames = mustPathRe(`(?i)(^|[._])(message|msg|text|output|log|line|body|description|desc|summary|title|detail|details|error|err|statement|reason|comment|note|content)$`)

// freeText reports whether f holds free text: strings, most of them
// long (over 20 bytes) and holding a space, not times, and of many
// values (not a state).
func freeText(f *Field) bool {
	strs := f.Values - f.Nulls
	return f.Types&^tNull == tString && strs > 0 && f.TimeN*2 < strs && f.Long*2 >= strs && f.Spaced*3 >= f.Long*2 &&
		(f.ManyDistinct || f.Distinct*4 >= strs || f.Distinct > 24)
}

// textField is the records' own free text, the one field a row must
// show whatever else it shows (a log's message: the ERROR record of a
// server log is read by its message, not by its state code): a field of
// the record itself (not nested, not in an array), in at least half
// the records, of free text (freeText), named like a message (any free
// text in a stream of events or log records); named like a message
// first, then the one in the most records. Nil when there is none.
func (k *coll) textField() *Field {
	p := k.p
	var best *Field
	better := func(a, b *Field) bool {
		if an, bn := textNames.MatchString(a.Path), textNames.MatchString(b.Path); an != bn {
			return an
		}
		// A line (an issue's title) before a document (its body).
		if al, bl := a.MaxLen <= 1000, b.MaxLen <= 1000; al != bl {
			return al
		}
		return a.Present > b.Present
	}
	stream := k.c.Kind == "jsonl" || k.c.Kind == "concat"
	for _, f := range p.Fields {
		if f.parent != p.root || f.inArr || f == p.Identity || k.hidden(f) || f.Present*2 < p.Records || !freeText(f) || placeNames.MatchString(f.Path) {
			continue
		}
		if !stream && !textNames.MatchString(f.Path) {
			continue // (a code fragment, an alarm's generated description: not the record's message)
		}
		if best == nil || better(f, best) {
			best = f
		}
	}
	return best
}

// chooseColumns picks the columns rows show: the identity first, then the
// most telling fields (states, numbers, times, short strings), the
// records' own free text (textField) always, long free text last.
func (k *coll) chooseColumns() {
	p := k.p
	if p.Records > 1 {
		k.text = k.textField()
	}
	type scored struct {
		f     *Field
		score int
	}
	var cand []scored
	log := k.logRecords()
	for _, f := range p.Fields {
		if f == p.Identity || !f.scalar() && !f.mostlyScalar() || f.underMostlyScalar() || k.hidden(f) || (f.Constant(p.Records) && p.Records > 1) || sameInArrays(f, p.Records) || f.Present*10 < p.Records || k.dupOf[f] != nil || k.codeOf(f) != nil {
			continue
		}
		if k.opaque(f) {
			k.opaqueCols = append(k.opaqueCols, f)
			continue
		}
		// Numbers written as strings are scored as the strings they are
		// written as: their statistics are the profile's, the columns
		// stay those of the records' own numbers.
		numN := f.ownNumbers()
		s := 30
		switch {
		case f.MaxLen > 200:
			s = 20 // free text
		case f.MaxLen > 60:
			s = 35 // a line of text: a title, a summary, a message
		case f.Types == tBool:
			s = 60
		case numN > 0 && (identityScore(f.Path) >= 50 || refNumber(f.Path)):
			s = 25 // a number naming something (user.id) or a place (a line, an offset), not a measure
		case numN > 0 && f.Distinct > 12:
			s = 75 // a measure
		case f.Counts != nil && f.Distinct <= 12 && f.Distinct >= 2:
			s = 70
		case numN > 0:
			s = 65
		case f.TimeN > 0:
			s = 55
		case f.Distinct <= 1:
			s = 10
		default:
			s = 45
		}
		if f.Types == tString && identityScore(f.Path) >= 50 && f.MaxLen <= cellWidth {
			s += 30 // a short name (of a nested record too: commands[].name), before the values of its enums (not a long path: webpack's issuerName)
		}
		if f.Nulls*2 > f.Values {
			s -= 35 // mostly null
		}
		if numN >= 8 && f.Max > f.Mean()+2*f.StdDev() && !refNumber(f.Path) {
			s += 30 // has outliers
		}
		several := strings.Contains(f.Path, "[]") && f.Values > f.Present+f.Present/5
		if several && numN > 0 && refNumber(f.Path) {
			continue // a list of offsets or positions says nothing per row
		}
		if stateNames.MatchString(f.Path) && !several {
			s += 20 // (a list of states of nested records says little per row)
		}
		if lookupNames.MatchString(f.Path) && !several && f.MaxLen <= cellWidth && f.Distinct*4 >= p.Records {
			s += 25 // what a record is looked up for (its version, size, time), its own value
		}
		if k.lookedUp(f) {
			s += 50 // the registry's index: what records are looked up for
		}
		if logKind(f, p.Records) && !several {
			s += 40 // the kind of a log's record (json_kinds.go)
		}
		if log && requested(f, p.Records) && !several {
			s += 35 // the resource a request asked for (json_kinds.go)
		}
		if f == k.text {
			s += 200 // the record's own text: in every row
		}
		s -= 4 * strings.Count(f.Path, ".")
		if strings.Contains(f.Path, "[]") {
			s -= 10
			if f.Values > f.Present+f.Present/5 {
				s -= 45 // several values per record
			}
		}
		if f.Present*2 < p.Records {
			s -= 20
		}
		cand = append(cand, scored{f, s})
	}
	sort.SliceStable(cand, func(i, j int) bool { return cand[i].score > cand[j].score })
	// A column that repeats another's values (spec.containers[].image and
	// status.containerStatuses[].image) is left out.
	var kept []scored
	for _, c := range cand {
		dup := false
		for _, o := range kept {
			if sameValues(c.f, o.f) {
				dup = true
				break
			}
		}
		if !dup {
			kept = append(kept, c)
		}
	}
	cand = kept
	// At most two columns of one object's members while other fields
	// are left (an issue's reactions."+1", "-1", heart, rocket, ...
	// would fill the row and push out its title and author); the rest
	// of them come after the others.
	perParent := map[*Field]int{}
	var first, later []scored
	var own *Field // the object holding the identity: the record's own fields (pip inspect's metadata.name, metadata.version)
	if p.Identity != nil {
		own = p.Identity.parent
	}
	for _, c := range cand {
		if par := c.f.parent; par != nil && par != p.root && par != own && !c.f.inArr {
			perParent[par]++
			if perParent[par] > 2 {
				later = append(later, c)
				continue
			}
		}
		first = append(first, c)
	}
	cand = append(first, later...)
	if len(cand) > maxCols {
		cand = cand[:maxCols]
	}
	// Long free text last.
	sort.SliceStable(cand, func(i, j int) bool { return cand[i].f.MaxLen <= 60 && cand[j].f.MaxLen > 60 })
	// Opaque columns only when the rows have little else to show, and
	// then last.
	for len(cand) < 2 && len(k.opaqueCols) > 0 {
		cand = append(cand, scored{f: k.opaqueCols[0]})
		k.opaqueCols = k.opaqueCols[1:]
	}
	if p.Identity != nil && !p.Map {
		k.cols = append(k.cols, p.Identity)
	}
	for _, c := range cand {
		k.cols = append(k.cols, c.f)
		c.f.whole = c.f.mostlyScalar() // (its lists whole in the cells)
	}
	defer func() {
		k.colIdx = map[*Field]int{}
		for j, f := range k.cols {
			k.colIdx[f] = j
		}
	}()
	if p.Map && len(p.Fields) == 0 {
		k.cols = append(k.cols, p.root) // a map of scalars: its value
	}
	// The members of a few records each (a trace event's args.fileName
	// beside the other kinds' members): in a collection of many kinds
	// (a record has under half of the fields, on average), a row shows
	// its own in an "other" cell.
	var sparse, opaqueSparse []*Field
	inCols := map[*Field]bool{}
	for _, f := range k.cols {
		inCols[f] = true
	}
	present, fields := 0, 0
	for _, f := range p.Fields {
		if !f.scalar() || k.hidden(f) || f.inArr {
			continue
		}
		present += f.Present
		fields++
		if !inCols[f] && f.Present*2 < p.Records && k.dupOf[f] == nil && !(f.Constant(p.Records) && p.Records > 1) {
			// An opaque member (a path, a hash) is the record's own
			// too (a trace event's args.fileName): after the others.
			if k.opaque(f) {
				opaqueSparse = append(opaqueSparse, f)
			} else {
				sparse = append(sparse, f)
			}
		}
	}
	if len(sparse)+len(opaqueSparse) >= 3 && present*2 < fields*p.Records {
		k.otherCols = append(sparse, opaqueSparse...)
	} else if k.text != nil {
		// Records whose free text goes on in fields of a few of them (a
		// server log's ERROR with its detail and statement, a hint):
		// the "other" cell shows those a row has.
		for _, f := range sparse {
			if freeText(f) {
				k.otherCols = append(k.otherCols, f)
			}
		}
	}
	if !p.Map && len(p.Fields) == 0 {
		k.cols = append(k.cols, p.root) // records that are scalars
	}
}

// lookedUp reports whether the registry's index names f.
func (k *coll) lookedUp(f *Field) bool {
	for _, path := range k.in.Index {
		if strings.TrimPrefix(path, ".") == f.Path {
			return true
		}
	}
	return false
}

// rowHeader names the columns of the rows.
func (k *coll) rowHeader() string {
	var b strings.Builder
	b.WriteString("rows (tab-separated; cells over ")
	b.WriteString(strconv.Itoa(cellWidth))
	b.WriteString(" chars cut")
	if k.text != nil {
		fmt.Fprintf(&b, " (%s over %d)", k.short(k.text), msgWidth)
	}
	b.WriteString(", marked …[+N chars]):\n#")
	if k.p.Map {
		b.WriteString("\tkey")
	}
	for _, f := range k.cols {
		b.WriteByte('\t')
		if f == k.p.root {
			b.WriteString("value")
		} else {
			b.WriteString(f.Path)
		}
	}
	if len(k.otherCols) > 0 {
		b.WriteString("\tother")
	}
	b.WriteString("\twhy")
	return b.String()
}

// cell renders a scalar's JSON text for a row: strings bare when that
// reads unambiguously, cut at width characters with the count cut.
func cell(raw string, width int) string {
	s := raw
	if strings.HasPrefix(raw, `"`) {
		if len(raw) >= 2 && strings.IndexByte(raw[1:len(raw)-1], '\\') < 0 {
			s = raw[1 : len(raw)-1] // (unquote's, with no copy)
		} else {
			s = unquote([]byte(raw))
		}
		if s == "" || hasLineSpace(s) || isLiteral(s) {
			s = strconv.Quote(s)
		}
	}
	return cut(s, width)
}

// hasLineSpace reports whether s holds a tab, a newline or a carriage
// return (strings.ContainsAny's, without its set of bytes made per call).
func hasLineSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= '\r' && (c == '\t' || c == '\n' || c == '\r') {
			return true
		}
	}
	return false
}

// isLiteral reports whether a bare string would read as a number or a
// JSON literal.
func isLiteral(s string) bool {
	switch s {
	case "true", "false", "null":
		return true
	}
	// What ParseFloat reads starts (after a sign) with a digit, a
	// point, or inf/nan: other strings are not asked (its error
	// allocates, for every name and word).
	t := strings.TrimLeft(s, "+-")
	if t == "" || !(t[0] >= '0' && t[0] <= '9' || t[0] == '.' || t[0]|0x20 == 'i' || t[0]|0x20 == 'n') {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// cut shortens s to width characters plus "…[+N chars]".
func cut(s string, width int) string {
	if len(s) <= width {
		return s // (at most width bytes: at most width characters)
	}
	n := 0
	for i := range s {
		if n == width {
			rest := len([]rune(s[i:]))
			if rest <= 12 {
				return s
			}
			return s[:i] + "…[+" + strconv.Itoa(rest) + " chars]"
		}
		n++
	}
	return s
}

// kinds writes ", what: a 12, b 3" when m has between 2 and 24 kinds, far
// fewer than the distinct values (else it says nothing), and reports
// whether it wrote.
func kinds(b *strings.Builder, what string, m map[string]int, distinct int) bool {
	if len(m) < 2 || len(m)*4 > distinct {
		return false
	}
	ks, _ := byCount(m)
	fmt.Fprintf(b, "; %s: ", what)
	countList(b, ks, 40, "more", func(i int, x keyCount) bool { return i < 16 && (x.n > 1 || i == 0) })
	return true
}

// countList writes the kinds ks ("a 12, b 3"), each cut to width
// characters, those shown says to show; the others are summed after them
// (", 4 more with 9", more naming them).
func countList(b *strings.Builder, ks []keyCount, width int, more string, shown func(i int, x keyCount) bool) {
	rest, restN, n := 0, 0, 0
	for i, x := range ks {
		if !shown(i, x) {
			rest++
			restN += x.n
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		fmt.Fprintf(b, "%s %s", cut(x.k, width), commas(x.n))
	}
	if rest > 0 {
		fmt.Fprintf(b, ", %d %s with %s", rest, more, commas(restN))
	}
}

// keyCount is one kind of value and how many times it occurs.
type keyCount struct {
	k string
	n int
}

// byCount lists the kinds of m, most frequent first (then by kind), and
// the sum of their counts.
func byCount(m map[string]int) ([]keyCount, int) {
	ks := make([]keyCount, 0, len(m))
	total := 0
	for k, n := range m {
		ks = append(ks, keyCount{k, n})
		total += n
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].n != ks[j].n {
			return ks[i].n > ks[j].n
		}
		return ks[i].k < ks[j].k
	})
	return ks, total
}

// shapes writes the shapes of f's strings (kinds), saying how many
// strings are too long to have one, and reports whether it wrote.
func shapes(b *strings.Builder, f *Field) bool {
	if !kinds(b, "shapes (# digits, * mixed letters and digits)", f.Patterns, f.Distinct) {
		return false
	}
	if f.Unshaped > 0 {
		fmt.Fprintf(b, "; %s strings over 100 bytes have none", commas(f.Unshaped))
	}
	return true
}

// sameValues reports whether two fields hold the same values with the
// same counts (as far as counted).
func sameValues(a, b *Field) bool {
	if a.Counts == nil || b.Counts == nil || len(a.Counts) != len(b.Counts) || a.Present != b.Present {
		return false
	}
	for k, n := range a.Counts {
		if b.Counts[k] != n {
			return false
		}
	}
	return true
}

// holdsCollection reports whether another collection of the input is
// inside c.
func holdsCollection(in Input, c Collection) bool {
	for _, o := range in.Collections {
		if o.Path != c.Path && (c.Path == "." || strings.HasPrefix(o.Path, c.Path+".") || strings.HasPrefix(o.Path, c.Path+"[")) {
			return true
		}
	}
	return false
}

// envelope reports whether c is a small object holding other collections
// (a search result's {total_count, incomplete_results, items}) rather
// than a map of records.
func envelope(in Input, c Collection) bool {
	if c.Kind != "map" || c.Count >= 8 {
		return false
	}
	for _, o := range in.Collections {
		if o.Path != c.Path && (c.Path == "." || strings.HasPrefix(o.Path, c.Path+".") || strings.HasPrefix(o.Path, c.Path+"[")) {
			return true
		}
	}
	return false
}

// changePoints is the reason of the records where an ordered series of a
// state-like field changes regime: a value (not the usual one) whose
// records are one run of at least minRun in a row starts there
// ("status=degraded from here: a run of 12, records 120-131"). Values
// that come in runs say the records are ordered (by time, by stage); in
// records in no order a rare value seldom repeats three times in a row.
func (k *coll) changePoints() *reason {
	const minRun = 3
	r := &reason{prio: PrioRare, text: map[int]string{}}
	p := k.p
	for _, f := range p.Fields {
		if f.Counts == nil || f.Distinct < 2 || f.Distinct > 12 || f.Present != p.Records || strings.Contains(f.Path, "[]") || k.hidden(f) {
			continue
		}
		for _, raw := range sortedKeys(f.vals) {
			vs := f.vals[raw]
			if vs.noRecs || vs.n < minRun || vs.n*2 >= f.Values || vs.first == 0 || len(vs.recs) == 0 || vs.recs[0] != vs.first {
				continue
			}
			run := 1
			for run < len(vs.recs) && vs.recs[run] == vs.first+run {
				run++
			}
			if run < minRun || run < len(vs.recs) {
				continue // not one run (as far as its records are kept)
			}
			if len(r.recs) >= maxPerWhy {
				r.more++
				continue
			}
			label := k.valueWhy(f, raw)
			what := fmt.Sprintf("a run of %s, records %d-%d", commas(vs.n), vs.first, vs.first+vs.n-1)
			if vs.n > len(vs.recs) {
				what = fmt.Sprintf("the first %d of %s in a row", run, commas(vs.n))
			}
			r.recs = append(r.recs, vs.first)
			r.text[vs.first] = joinWhy(r.text[vs.first], label+" from here: "+what)
		}
	}
	return r
}

// tiedWith says how many others hold as many as the one named (n holding
// the most in all): " and 59 more" when 60 arrays have the most items,
// "" when one has. "most in #4208 (1)" named one of 60 assignee lists
// of one item as if it were the longest.
func tiedWith(n int) string {
	if n <= 1 {
		return ""
	}
	return " and " + commas(n-1) + " more"
}
