package view

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/itchyny/gojq"
)

// The index of a collection: after the profile and the rows with their
// reasons, what is left of the budget lists the records densely, one
// line per record: its identity (or key) and its one or two most telling
// short fields ("ledger-db-1	Running	ip-10-0-3-17"). A question about one
// record in the middle of hundreds ("which version of X", "how big is
// Y") is answered from the view when that record's line fits; a record
// costs a few tokens here against tens as a row.
//
// The lines are candidates in one fixed order (record order; a keyed
// collection in key order, the order a query pages it in), at a priority
// after the rows' second round and before the even spread, so a larger
// budget lists a longer prefix. (Listing the first 64 lines before the
// extremes past the first round was measured and dropped: it answered
// no more lookups on the bundled corpus and lost two extremes, the
// riskiest charge and the newest deployment, on held-out outputs.) The section's foot counts the records not
// listed and gives the query that lists exactly them, in the same form.

const (
	// minIndex is the fewest records a collection needs for an index:
	// smaller ones are shown as rows.
	minIndex = 16
	// maxIndexRecords and maxIndexBytes cap the records read for the
	// index (fixed caps: they bound the work and the memory by numbers
	// that depend neither on the input nor on the budget). A keyed
	// collection over either cap has no index (its rest could not be
	// paged by key).
	maxIndexRecords = 4000
	maxIndexBytes   = 1 << 20
	// indexWidth is the characters of an index cell before it is cut;
	// indexFieldLen the longest values of a field an index shows.
	indexWidth    = 64
	indexFieldLen = 64
	// maxIndexCands is the most fields read for the index, of which
	// pickIndexFields keeps at most three.
	maxIndexCands = 6
	// indexPerPinned is the index lines listed for each pinned row past
	// the first round (a row costs about as much as four lines).
	indexPerPinned = 4
	// memberLines is how many lines of an index naming the records'
	// members (memberCells) come with the first round of rows.
	memberLines = 32
	// smallIndex is the most records of a collection whose index lists
	// them all early (PrioIndexSmall) and is read whatever their size.
	smallIndex = 128
	// tinyIndexBytes is the most bytes of a small collection's index
	// lines for them to come before the rows.
	tinyIndexBytes = 2000
	// maxGroupNames is the most records of one value of a field whose
	// names are listed (addValueGroups).
	maxGroupNames = 64
	// groupWidth is the characters of one list of names by value.
	groupWidth = 1400
)

// groupNames are names of fields whose values are kinds of records (a
// node's role, an item's category or type, a finding's level).
var groupNames = mustPathRe(`(?i)(^|\.)(role|category|class|kind|type|group|level|severity|status|state|phase|language|lang)(\.value)?$`)

// groupFields returns the field whose values group the records for the
// lists of names by value (addValueGroups) and the field naming them,
// or nil: a string field of 3 to 24 values (counted), in most records,
// and a name field (or the key) that is not it.
func (k *coll) groupFields(key *Field, cands []*Field) (grp, name *Field) {
	p := k.p
	if key != nil && nameLike(key.Path) {
		name = key
	}
	for _, f := range cands {
		if name == nil && f.Types == tString && nameLike(f.Path) {
			name = f
		}
	}
	if name == nil {
		name = key
	}
	if name == nil || p.Map {
		return nil, nil
	}
	for _, f := range cands {
		if f != name && f.Types == tString && f.Counts != nil && f.Distinct >= 3 && f.Distinct <= 24 && !f.inArr && f.Present*2 >= p.Records &&
			groupNames.MatchString(f.Path) && (grp == nil || f.Distinct > grp.Distinct) {
			grp = f
		}
	}
	if grp == nil {
		return nil, nil
	}
	return grp, name
}

// addValueGroups adds, per value of field grp held by at most
// maxGroupNames records (the rarer values: a page's 18 headings and 11
// links among 1,999 accessibility nodes), the names of its records in
// record order ("role.value=heading (18): Introduction, Advice, ..."):
// which records have a rare value, and the first and last of them,
// read off one line each. Rarest values first, after the profile's
// important lines.
func addValueGroups(v *View, k *coll, grp, name *Field, extra []*Field, groups map[string]*valueGroup) {
	if grp == nil {
		return
	}
	vals := make([]string, 0, len(groups))
	for val, g := range groups {
		if len(g.names) == grp.Counts[val] && len(g.names) <= maxGroupNames {
			vals = append(vals, val)
		}
	}
	sort.Slice(vals, func(i, j int) bool {
		if a, b := grp.Counts[vals[i]], grp.Counts[vals[j]]; a != b {
			return a < b
		}
		return vals[i] < vals[j]
	})
	for j, val := range vals {
		g := groups[val]
		empty := true
		for _, n := range g.names {
			empty = empty && (n == `""` || n == "null")
		}
		names := g.withExtras(k, extra)
		if empty {
			continue // nameless records: the profile counts them
		}
		var b strings.Builder
		for i, n := range names {
			if i > 0 && b.Len()+len(n) > groupWidth {
				fmt.Fprintf(&b, ", … %d more", len(names)-i)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n)
		}
		if h := k.holders[grp.vals[val]]; h != nil {
			h.listed = true // (its records' names are here)
		}
		text := fmt.Sprintf("  %s=%s (%s records), their %s in order: %s", grp.Path, cell(val, 40), commas(len(names)), name.Path, b.String())
		if len(names) == 1 {
			text = fmt.Sprintf("  %s=%s (1 record), its %s: %s", grp.Path, cell(val, 40), name.Path, names[0])
		}
		v.Add(Candidate{Section: k.sec, Key: -800_000 + j, Record: -1, Prio: PrioProfile2, Reason: "records by value", Text: text})
	}
}

// valueGroup is the records of one value of the group field: their
// names and, per record, the values of the group's extra fields ("" for
// none).
type valueGroup struct {
	names []string
	extra [][]string
}

// withExtras returns the group's names, each followed by the values of
// the extra fields every record of the group has and that differ
// between them ("Locks (level.value=2)", "wait groups (url.value=…)"):
// what a heading's level or a link's target is, beside its name.
func (g *valueGroup) withExtras(k *coll, extra []*Field) []string {
	var use []int
	for j := range extra {
		all, first, differ := true, "", false
		for i, x := range g.extra {
			if x == nil || x[j] == "" {
				all = false
				break
			}
			if i == 0 {
				first = x[j]
			} else if x[j] != first {
				differ = true
			}
		}
		if all && (differ || len(g.names) == 1) && len(use) < 2 {
			use = append(use, j)
		}
	}
	if len(use) == 0 {
		return g.names
	}
	out := make([]string, len(g.names))
	for i, n := range g.names {
		var parts []string
		for _, j := range use {
			parts = append(parts, k.short(extra[j])+"="+g.extra[i][j])
		}
		out[i] = n + " (" + strings.Join(parts, ", ") + ")"
	}
	return out
}

// groupExtras are the fields a few records have (under half) that the
// lists by value may show beside the names: scalars outside arrays, at
// most 8, the group's own and the name aside.
func (k *coll) groupExtras(key, grp, name *Field) []*Field {
	var out []*Field
	for _, f := range k.p.Fields {
		if len(out) == 8 {
			break
		}
		if f == key || f == grp || f == name || !f.scalar() || f.inArr || k.hidden(f) || f.Present*2 >= k.p.Records || f.Present < 2 ||
			f.Distinct < 2 && !f.ManyDistinct || f.ownNumbers() > 0 && (refNumber(f.Path) || identityScore(f.Path) >= 50) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// lookupNames are field names a record is most often looked up for: its
// version, state, size, where it runs, who made it.
var lookupNames = mustPathRe(`(?i)(^|\.|_)(version|status|state|phase|statevalue|size|bytes|length|count|total|amount|price|value|threshold|latest|wanted|current|node|nodename|host|hostname|ip|podip|address|owner|author|login|user|customer|license|type|kind|time|date|updated|created|modified|published)$`)

// indexFields returns the field a record is named by (nil for a keyed
// collection: its key) and the fields its index line may show, the
// most telling first: the registry's (Input.Index) when it names any,
// else up to maxIndexCands picked by pickIndexFields after the values
// are read; fixed is true for the registry's. ok is false when the
// collection gets no index.
func (k *coll) indexFields() (key *Field, fields []*Field, fixed, ok bool) {
	p := k.p
	if p.Records < minIndex || k.c.Kind == "lines" || p.Map && p.root.scalar() && k.c.Count <= 40 {
		return nil, nil, false, false
	}
	if !p.Map {
		key = p.Identity
		if key == nil {
			// A name most records have their own of (a package
			// installed twice in two versions is still looked up by
			// its name).
			for _, f := range p.Fields {
				if f.scalar() && !f.inArr && f.Types == tString && f.Present == p.Records && f.MaxLen <= 100 && !k.dropped(f) && !(refNumber(f.Path) && identityScore(f.Path) < 50) &&
					f.Distinct*2 >= p.Records && (key == nil || f.Distinct > key.Distinct) {
					key = f
				}
			}
		}
		if key == nil {
			key = k.sharedNameKey()
		}
		if key == nil {
			return nil, nil, false, false
		}
	}
	for _, path := range k.in.Index {
		if f := p.Field(strings.TrimPrefix(path, ".")); f != nil && f != key && f.scalar() && !slices.Contains(fields, f) {
			fields = append(fields, f)
		}
	}
	if len(fields) > 0 {
		return key, fields, true, true
	}
	if p.Map && p.root.scalar() && len(p.Fields) == 0 {
		return nil, []*Field{p.root}, true, true // a map of scalars: key and value
	}
	if f := p.root.elem; p.Map && p.root.Types == tArray && f != nil && f.scalar() && len(p.Fields) == 1 {
		// A map of name -> list of names (a module's requirements):
		// the list itself answers "what does X require".
		return nil, []*Field{f}, true, true
	}
	type scored struct {
		f     *Field
		score int
	}
	var cand []scored
	for _, f := range p.Fields {
		// A name is what a record is looked up by, long or not (cut
		// in the line); a code of another field's values is not.
		name := f.Types == tString && nameLike(f.Path) && (key == nil || !nameLike(key.Path))
		if f == key || !f.scalar() && !f.mostlyScalar() || f.underMostlyScalar() || f.inArr || k.dropped(f) || f.Present*2 < p.Records || k.dupOf[f] != nil ||
			f.Constant(p.Records) || f.MaxLen > indexFieldLen && !name || f.Nulls*2 > f.Values || k.opaque(f) && !name || k.codeOf(f) != nil {
			continue
		}
		s := 0
		if name {
			s += 60
		}
		if f.Counts != nil {
			if vc := f.sortedCounts(); len(vc) > 0 {
				if vc[0].n*10 >= f.Values*9 {
					continue // nearly constant: the profile says it
				}
				if vc[0].n*4 >= f.Values*3 {
					s -= 15 // mostly one value: the profile and the rows say which differ
				}
			}
		}
		if lookupNames.MatchString(f.Path) || stateNames.MatchString(f.Path) {
			s += 40
		}
		switch {
		case f.ownNumbers() > 0 && f.Distinct > 12 && placeNumber(f.Path):
			s += 10 // a place (a line, a column): less than a measure
		case f.ownNumbers() > 0 && f.Distinct > 12:
			s += 20 // a measure
		case f.Counts != nil && f.Distinct <= 12:
			s += 15 // a state
		case f.Types == tString && f.Distinct*2 >= p.Records:
			s += 10 // a record's own text (a summary, a version)
		}
		if f.MaxLen > 40 {
			s -= 10
		}
		s -= 5 * (len(pathSegments(f.Path)) - 1)
		cand = append(cand, scored{f, s})
	}
	sort.SliceStable(cand, func(i, j int) bool { return cand[i].score > cand[j].score })
	for _, c := range cand {
		if len(fields) == maxIndexCands {
			break
		}
		dup := false
		for _, o := range fields {
			dup = dup || sameValues(c.f, o)
		}
		if !dup {
			fields = append(fields, c.f)
			c.f.whole = c.f.whole || c.f.mostlyScalar() // (its lists whole in the lines)
		}
	}
	return key, fields, false, true
}

// pickIndexFields chooses, of the candidate fields (most telling
// first) and their values as read, the two the index lines show: not
// one that repeats the record's key or identity in nine records of ten
// (a version map's members each holding their own version), and not a
// second measure while a field of another kind is left (a repository's
// stars and its language, not its stars and its forks). Two, not more
// (three for a small collection, all of whose records are listed): a
// line costs tokens for every record it lists. sameAsKey(j) is how
// many of the n lines show candidate j's value as their key; det(i, j)
// whether i's value gives j's (determines; nil: never). Each is asked
// only of the candidates it passes over (at most a few of them): the
// lines are read once per question.
//
// Nor, while another is left, one whose value is a picked field's in
// most lines (eq: equalMostly): a package's wanted version beside its
// current one, the same in most lines, where its latest tells more.
// most is 2, or 3 for the lines of runs (a key once per run) and for a
// small collection listed whole (smallIndex), whose third field is
// no second place number (placeNumber: a column beside a line), and in
// a listing (runs false: each line one record's) a state (stateField).
func pickIndexFields(cands []*Field, sameAsKey func(j int) int, n, most int, runs bool, det, eq func(i, j int) bool) []int {
	var picked []int
	measure := func(j int) bool { f := cands[j]; return f.ownNumbers() > 0 && f.ownNumbers()*2 >= f.Values }
	for _, pass := range []int{0, 1} {
		for j := range cands {
			if len(picked) == most {
				break
			}
			if len(picked) >= 2 && !runs && !stateField(cands[j]) {
				continue // a third field of a listing: only a state (stateField)
			}
			if len(picked) >= 2 && placeNumber(cands[j].Path) && slices.ContainsFunc(picked, func(i int) bool { return placeNumber(cands[i].Path) }) {
				continue // a third field: not a second place (a column beside the line)
			}
			if slices.Contains(picked, j) || sameAsKey(j)*10 >= n*9 ||
				pass == 0 && len(picked) == 1 && measure(picked[0]) && measure(j) ||
				pass == 0 && slices.ContainsFunc(picked, func(i int) bool { return det != nil && det(i, j) || eq != nil && eq(i, j) }) {
				continue
			}
			picked = append(picked, j)
		}
	}
	sort.Ints(picked) // most telling first
	return picked
}

// maxStates is the most values of a field read as a record's state
// (stateField).
const maxStates = 12

// stateField reports whether f may be an index line's third field: a
// field of few values (an interface's operstate, a setting's Hierarchy,
// a file's errorCount beside its warningCount), a word or a digit a
// line, telling which kind of record it is. Not a measure or a time,
// nearly every record its own value (a test file's startTime beside its
// endTime, a sample's memused, a repository's open_issues_count): those
// cost tokens on every line for what the rows and the profile say, and
// when the index is listed whole before the rows they cost rows (rev17
// R5: jest's failed test file's row at 2,000 tokens).
func stateField(f *Field) bool {
	return f.Types&^(tString|tNumber) == 0 && f.Counts != nil && f.Distinct <= maxStates && f.MaxLen <= indexWidth && !epochField(f)
}

// equalMostly returns, for a pair of candidate fields (a, b), whether
// b's value is a's in three lines of four of those where either has
// one (pickIndexFields). Each pair is read off the lines when first
// asked, then remembered.
func equalMostly(cands []*Field, lines []indexLine) func(a, b int) bool {
	known := map[[2]int]bool{}
	return func(a, b int) bool {
		if a == b || severalValues(cands[a]) || severalValues(cands[b]) {
			return false
		}
		if d, ok := known[[2]int{a, b}]; ok {
			return d
		}
		eq, either := 0, 0
		for i := range lines {
			x, y := lines[i].vals[a], lines[i].vals[b]
			if x == nil && y == nil {
				continue
			}
			either++
			if bytes.Equal(x, y) {
				eq++
			}
		}
		d := either > 0 && eq*4 >= either*3
		known[[2]int{a, b}] = d
		return d
	}
}

// determines returns, for a pair of candidate fields (a, b), whether a's
// value in a line gives b's in 49 lines of 50 (a frame's media_type
// gives its pkt_duration_time): b then tells nothing beside a, and
// pickIndexFields passes it over while another is left
// (TestIndexSkipsDeterminedField). Fields of several values per record
// are never determined. Each pair is read off the lines when first asked
// (pickIndexFields asks of a few), then remembered.
func determines(cands []*Field, lines []indexLine) func(a, b int) bool {
	known := map[[2]int]bool{}
	return func(a, b int) bool {
		if a == b || severalValues(cands[a]) || cands[a].Counts == nil || cands[a].Distinct > 24 || severalValues(cands[b]) {
			return false // (a field of many values names lines rather than sorts them)
		}
		if d, ok := known[[2]int{a, b}]; ok {
			return d
		}
		// The commonest b value per a value, and how many lines have
		// another.
		per := map[string]map[string]int{}
		for _, l := range lines {
			// (The values' texts as keys, uncopied: they stay as they
			// are while the maps, dropped on return, live.)
			av, bv := bytesString(l.vals[a]), bytesString(l.vals[b])
			m := per[av]
			if m == nil {
				m = map[string]int{}
				per[av] = m
			}
			m[bv]++
		}
		other := 0
		for _, m := range per {
			top, sum := 0, 0
			for _, n := range m {
				top, sum = max(top, n), sum+n
			}
			other += sum - top
		}
		d := other*50 <= len(lines)
		known[[2]int{a, b}] = d
		return d
	}
}

// plainString returns the text of a JSON string of 2 characters or
// more without escapes (as a string sharing raw's bytes), or false.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 4 || raw[0] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return "", false
	}
	return unsafe.String(&raw[1], len(raw)-2), true
}

// around is a text before and after another: the rest of a string that
// holds another at one place.
type around struct{ pre, suf string }

// aroundOf returns what is around the first occurrence of part in s.
func aroundOf(s, part string) (around, bool) {
	i := strings.Index(s, part)
	if i < 0 {
		return around{}, false
	}
	return around{s[:i], s[i+len(part):]}, true
}

// commonAround returns the text around that most lines share
// (a majority vote, then its exact count): at(l) says what is around in
// line l, if anything.
func commonAround(lines []indexLine, at func(l *indexLine) (around, bool)) (around, int) {
	var cand around
	votes := 0
	for i := range lines {
		a, ok := at(&lines[i])
		switch {
		case !ok:
		case votes == 0:
			cand, votes = a, 1
		case a == cand:
			votes++
		default:
			votes--
		}
	}
	n := 0
	for i := range lines {
		if a, ok := at(&lines[i]); ok && a == cand {
			n++
		}
	}
	return cand, n
}

// keyGiven counts, for candidate field j of the index, the lines whose
// value their identity cell already gives: the value itself, a part of
// it between separators (partOf: a package's name in its path
// ".../node_modules/etag", a Go package's name ending its import path,
// a version after "name@"; not "ok" inside "broker"), or the identity with the text
// around it that most such lines share (a package's directory: GOROOT's
// src/ before its import path). Such a field tells nothing beside the
// identity: pickIndexFields passes it over.
func keyGiven(cands []*Field, lines []indexLine, j int) int {
	same, holds := 0, false
	for i := range lines {
		l := &lines[i]
		val := l.vals[j]
		if val == nil {
			continue
		}
		if cellIs(val, indexWidth, l.id) {
			same++
			continue
		}
		s, ok := plainString(val)
		switch {
		case !ok || l.id == "":
		case partOf(l.id, s):
			same++
		case strings.Contains(s, l.id):
			holds = true
		}
	}
	if holds {
		_, n := commonAround(lines, func(l *indexLine) (around, bool) {
			s, ok := plainString(l.vals[j])
			if !ok || l.id == "" || strings.Contains(l.id, s) {
				return around{}, false
			}
			return aroundOf(s, l.id)
		})
		same += n
	}
	return same
}

// partOf reports whether s is a part of id: it occurs in id with no
// letter or digit right before or right after it ("etag" in
// "/tmp/p/node_modules/etag", "4.17.4" in "lodash@4.17.4"). A value
// merely contained in the identity ("ok" in "broker7", "2" in "2744")
// is not given by it.
func partOf(id, s string) bool {
	if s == "" {
		return false
	}
	for from := 0; ; {
		i := strings.Index(id[from:], s)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(s)
		if (i == 0 || !alnumBefore(id, i)) && (j == len(id) || !alnumAt(id, j)) {
			return true
		}
		from = i + 1
	}
}

// alnumAt reports whether the character at byte i of s is a letter or
// a digit; alnumBefore the one that ends right before byte i.
func alnumAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func alnumBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// nameOfKey returns the candidate field that names the records in
// fewer characters than their identity, or -1: a name-like string field
// (name, title) in every record, that the identity holds with one text
// of 4 characters or more around it in three lines of four (npm query's
// path "/tmp/p/node_modules/etag" around its name "etag"), while the
// identity is no name itself. A Go package's import path holds its
// name with many different texts around it ("archive/tar",
// "compress/gzip", ...): the path stays.
func (k *coll) nameOfKey(key *Field, cands []*Field, lines []indexLine) int {
	if key == nil || k.p.Map || nameLike(key.Path) {
		return -1
	}
	for j, f := range cands {
		if f.Types != tString || !nameLike(f.Path) || f.Present != k.p.Records || severalValues(f) {
			continue
		}
		a, n := commonAround(lines, func(l *indexLine) (around, bool) {
			s, ok := plainString(l.vals[j])
			if !ok {
				return around{}, false
			}
			return aroundOf(l.id, s)
		})
		if n*4 >= len(lines)*3 && len(a.pre)+len(a.suf) >= 4 {
			return j
		}
	}
	return -1
}

// indexLine is one record's line in the index.
type indexLine struct {
	rec  int
	key  string // the map key (sorting), or ""
	id   string // the identity's cell, or the key's
	vals [][]byte
	// items are the items of the list fields (by field, nil for the
	// others), or nil.
	items [][]string
	sort  []any // the sort keys' values (jq's), or nil
	// text is the line, made from the values when first needed (made).
	text string
	made bool
	// more are the values of the opaque fields (hashes), listed after
	// the identity in lines of their own.
	more [][]byte
	// members names the record's optional object and array members,
	// each array with its items ("rangeint 12, any 4"), when the
	// index shows them (memberCells).
	members string
}

// keyedStream reports whether the records are one-member objects of a
// stream or an array keyed by their member's name (Profile.KeyedByName),
// profiled as a map's members.
func (k *coll) keyedStream() bool { return k.p.Map && k.c.Kind != "map" }

// memberCells reports whether an index line names the record's optional
// object and array members (memberCell): when the records are objects
// whose members are such (go fix -json's analyzers per package, each a
// list of findings), which ones a record has, and how many items each,
// is what the record is looked up for.
func (k *coll) memberCells() bool {
	r := k.p.root
	if r.Types != tObject || len(r.kids) < 2 {
		return false
	}
	opt := 0
	for _, kid := range r.kids {
		if kid.Types&(tObject|tArray) == 0 {
			return false
		}
		if kid.Present < r.Present {
			opt++
		}
	}
	return opt*2 >= len(r.kids)
}

// memberCell is the cell of a record's object and array members: each
// name, an array's with its number of items ("rangeint 12, any 4"); a
// map's record ({"key": value}) by its value's members.
func memberCell(raw []byte, isMap bool) string {
	s := jscan{d: raw}
	s.ws()
	if isMap {
		if _, ok := s.entryValue(); !ok {
			return "-"
		}
	}
	var parts []string
	items := 0
	var only []byte // the first item of a list
	s.eachMember(func(name string) {
		n := -1
		if s.peek() == '[' {
			n = 0
			s.elements(func(el []byte) {
				if items == 0 {
					only = el
				}
				n++
				items++
			})
		}
		if n >= 0 {
			parts = append(parts, cell(jsonQuote(name), 40)+" "+strconv.Itoa(n))
		} else {
			parts = append(parts, cell(jsonQuote(name), 40))
		}
	})
	if len(parts) == 0 {
		return "-"
	}
	if items == 1 {
		// The record's one finding, by its text: what vet reports in
		// the package ("copylocks 1: call of f copies lock value:
		// sync.Mutex"), not only that it reports one thing.
		if t := itemText(only); t != "" {
			parts[len(parts)-1] += ": " + cut(t, indexWidth*2)
		}
	}
	return listCell(parts)
}

// itemText returns the text of an object's first member named like a
// message (textNames) that holds a string, or "".
func itemText(raw []byte) string {
	s := jscan{d: raw}
	text := ""
	s.members(func(name string, val []byte) {
		if text == "" && len(val) > 2 && val[0] == '"' && textNames.MatchString(name) {
			text = unquote(val)
		}
	})
	return text
}

// addIndex adds the index of collection k: a section right after the
// collection's own, with one candidate per record.
func addIndex(v *View, k *coll) {
	if v.tree.inside(k.c.Path) {
		return // the tree's lines list its nodes (deptree.go)
	}
	if k.p.Map && k.c.Count > maxIndexRecords {
		return // paged by key, all or nothing (below): not all read
	}
	key, cands, fixed, ok := k.indexFields()
	if !ok {
		return
	}
	p, c := k.p, k.c
	sorts, desc := k.sortFields()
	var opq []*Field
	if !fixed {
		opq = k.opaqueIndexFields(key)
	}
	all := append(append(append([]*Field{key}, cands...), sorts...), opq...)
	if key == nil {
		all = all[1:]
	}
	grp, gname := k.groupFields(key, cands)
	var gextra []*Field
	if grp != nil {
		gextra = k.groupExtras(key, grp, gname)
		all = append(append(all, grp, gname), gextra...)
	}
	mask := p.mask(all...)
	// A field of several values in a record (in an array, or a pair's
	// member named twice in one list) is listed by all of them.
	multi := make([]bool, len(cands))
	for j, g := range cands {
		multi[j] = severalValues(g)
	}
	groups := map[string]*valueGroup{} // grp's value -> its records, in order
	stream := k.keyedStream()
	members := k.memberCells()
	lines := make([]indexLine, 0, min(c.Count, maxIndexRecords))
	read := 0
	complete := true
	// Each record's values are read in the walk that finds its end
	// (eachRecordLeaves, rows.go); a value that is a slice of the input
	// is kept as it is, one read in a reused buffer is copied.
	var (
		l      indexLine
		id     []byte
		sv     [][]byte
		gv, gn []byte   // the group field's value and the name (addValueGroups)
		gx     []string // the group's extra fields' values
	)
	keep := func(val []byte) []byte {
		if within(k.in.Data, val) {
			return val
		}
		return slices.Clone(val)
	}
	// The lines' values, in two blocks: a slice of each per line.
	var valBlock, moreBlock [][]byte
	var svBuf [][]byte
	var gxBlock []string
	begin := func(i int) bool {
		if i >= maxIndexRecords {
			complete = false
			return false
		}
		if len(valBlock) < len(cands) {
			valBlock = make([][]byte, len(cands)*min(max(c.Count-i, 1), 256))
		}
		if len(moreBlock) < len(opq) {
			moreBlock = make([][]byte, len(opq)*min(max(c.Count-i, 1), 256))
		}
		l = indexLine{rec: i, vals: valBlock[:len(cands):len(cands)], more: moreBlock[:len(opq):len(opq)]}
		valBlock, moreBlock = valBlock[len(cands):], moreBlock[len(opq):]
		id, sv, gv, gn, gx = nil, nil, nil, nil, nil
		if len(sorts) > 0 {
			// (read at the record's end only: one buffer for all)
			sv = append(svBuf[:0], make([][]byte, len(sorts))...)
			svBuf = sv
		}
		if len(gextra) > 0 {
			if len(gxBlock) < len(gextra) {
				gxBlock = make([]string, len(gextra)*min(max(c.Count-i, 1), 256))
			}
			gx, gxBlock = gxBlock[:len(gextra):len(gextra)], gxBlock[len(gextra):]
		}
		return true
	}
	leaf := func(f *Field, val []byte) {
		if f == key && id == nil {
			id = val
		}
		if grp != nil && f == grp && gv == nil {
			gv = val
		}
		if grp != nil && f == gname && gn == nil {
			gn = val
		}
		for j, g := range gextra {
			if f == g && gx[j] == "" {
				gx[j] = cell(string(val), 60)
			}
		}
		for j, g := range cands {
			switch {
			case g != f:
			case multi[j]:
				// A list: its items (listCell).
				if l.items == nil {
					l.items = make([][]string, len(cands))
				}
				l.items[j] = append(l.items[j], cell(string(val), indexWidth))
			case l.vals[j] == nil:
				l.vals[j] = keep(val)
			}
		}
		for j, g := range opq {
			if g == f && l.more[j] == nil {
				l.more[j] = keep(val)
			}
		}
		for j, g := range sorts {
			if g == f && sv[j] == nil {
				sv[j] = val
			}
		}
	}
	end := func(i int, raw []byte) error {
		if read+len(raw) > maxIndexBytes && i >= smallIndex {
			// (a few records are read whatever their size: the
			// profile's pass read them all already)
			complete = false
			return errStop
		}
		read += len(raw)
		for _, x := range sv {
			l.sort = append(l.sort, jqValue(x))
		}
		if gv != nil && gn != nil {
			g, ok := groups[string(gv)]
			if !ok && grp.Counts[string(gv)] <= maxGroupNames {
				g = &valueGroup{}
				groups[string(gv)] = g
			}
			if g != nil {
				g.names = append(g.names, cell(string(gn), 40))
				g.extra = append(g.extra, gx)
			}
		}
		if members {
			l.members = memberCell(raw, p.Map)
		}
		if p.Map {
			l.key = mapKey(raw)
			l.id = cell(jsonQuote(l.key), 100)
			if stream && l.key == "" && !bytes.Contains(raw, []byte(`""`)) {
				return nil // {}: no member, no key (the profile counts them)
			}
		} else if id != nil {
			l.id = cell(string(id), 100)
		} else {
			l.id = "-"
		}
		lines = append(lines, l)
		return nil
	}
	err := k.eachRecordLeaves(mask, begin, leaf, end) // rows.go
	if err != nil && err != errStop {
		return // the records were read once already: cannot happen
	}
	if p.Map && !complete {
		return // a keyed collection is paged by key: all or nothing
	}
	if len(lines) == 0 {
		return
	}
	if complete {
		addValueGroups(v, k, grp, gname, gextra, groups)
	}
	fields := cands
	// restKey is the field the rest query lists the records by; shared
	// the records listed by their identity, not their name, as another
	// record has the same name (nameOfKey).
	restKey, shared, sharedNote := key, 0, ""
	// runs: the key is shared by records (a finding's file, a block's
	// file), so the lines are runs of records with one key (runsOf).
	runs := !p.Map && key != nil && key.Distinct*2 < p.Records && len(sorts) == 0 && !members
	if !fixed {
		// (a name is known to tell the records apart only when every
		// record was read)
		if j := k.nameOfKey(key, cands, lines); j >= 0 && complete {
			// The identity is the record's name with one text around
			// it (a package's path, "/tmp/p/node_modules/" + its
			// name): the name says the same in fewer characters. A
			// name two records have (a package installed twice, one
			// copy nested under another) would not tell their lines
			// apart: those lines keep the identity, and the head says
			// so; the rest query lists the records by their identity.
			ident := key
			key = cands[j]
			runs = false
			names := make(map[string]int, len(lines))
			for i := range lines {
				names[string(lines[i].vals[j])]++
			}
			for i := range lines {
				if names[string(lines[i].vals[j])] > 1 {
					shared++
				} else {
					lines[i].id = valueCell(lines[i].vals[j])
				}
			}
			restKey = key
			if shared > 0 {
				restKey = ident
				sharedNote = fmt.Sprintf("; the %s records whose %s another record has too are listed by their %s", commas(shared), key.Path, ident.Path)
			}
		}
		// How many lines show candidate j's value as their key or a
		// part of it (asked of the candidates pickIndexFields passes
		// over).
		sameN := make([]int, len(cands))
		same := func(j int) int {
			if sameN[j] == 0 {
				sameN[j] = keyGiven(cands, lines, j) + 1
			}
			return sameN[j] - 1
		}
		most := 2
		if runs {
			// A run names its key once: a third field costs a few
			// tokens per record, not a key's.
			most = 3
		}
		if complete && len(lines) <= smallIndex && !members {
			// Every record of a small collection is listed (at
			// PrioIndexSmall, below): a third field costs a few
			// tokens a line and lists no fewer records, and answers
			// what the two do not (gopls' 43 settings: each one's
			// Hierarchy beside its Type and Status).
			most = 3
		}
		picked := pickIndexFields(cands, same, len(lines), most, runs, determines(cands, lines), equalMostly(cands, lines))
		fields = nil
		for _, j := range picked {
			fields = append(fields, cands[j])
		}
		// (picked is in increasing order: each value moves down or
		// stays, in place)
		for i := range lines {
			vals := lines[i].vals
			for x, j := range picked {
				vals[x] = vals[j]
			}
			lines[i].vals = vals[:len(picked):len(picked)]
		}
	}
	// A line's text is made when first needed (lineText): the fill
	// reaches a few hundred of the lines read, at most.
	lineText := func(l *indexLine) string {
		if l.made {
			return l.text
		}
		var cells []string
		for j, val := range l.vals {
			if severalValues(fields[j]) {
				var items []string
				if l.items != nil {
					items = l.items[j]
				}
				cells = append(cells, listCell(items))
			} else {
				cells = append(cells, valueCell(val))
			}
		}
		if members {
			cells = append(cells, l.members)
		}
		l.text, l.made = lineOf(l.id, cells), true
		l.vals, l.items = nil, nil
		return l.text
	}
	moreText := func(l *indexLine) string {
		cells := make([]string, 0, len(l.more))
		for _, val := range l.more {
			cells = append(cells, valueCell(val))
		}
		return lineOf(l.id, cells)
	}
	addPinnedList(v, k, key, fields, lines, lineText)
	order := "record order"
	if p.Map && !stream {
		order = "key order"
		sort.SliceStable(lines, func(i, j int) bool { return lines[i].key < lines[j].key })
	}
	if len(sorts) > 0 && complete {
		// The registry's order, the way jq's sort_by orders the
		// values (the rest query sorts the same way).
		sort.SliceStable(lines, func(i, j int) bool { return compareJQ(lines[i].sort, lines[j].sort) < 0 })
		if desc {
			slices.Reverse(lines)
		}
		order = "order of " + sortWords(sorts, desc)
	} else {
		sorts = nil
	}
	names := []string{"key"}
	if !p.Map {
		names[0] = key.Path
	}
	for _, f := range fields {
		if f == p.root || f == p.root.elem {
			names = append(names, "value")
		} else {
			names = append(names, f.Path)
		}
	}
	if members {
		names = append(names, "members (items)")
	}
	total := c.Count
	what := "records"
	if stream && complete {
		total, what = len(lines), "keyed records"
	}
	// runEnd groups the lines of records sharing their key (runsOf,
	// a key sharedNameKey found): runEnd[g] is the record after run g;
	// nil when each line is one record's.
	var runEnd []int
	if runs {
		runEnd = runsOf(lines)
		opq = nil
	}
	// listed is the number of records the chosen lines list: a prefix
	// (the lines left out as rows shown before them, rowFirst, within).
	listed := func(ch []Candidate) int {
		if len(ch) == 0 {
			return 0
		}
		last := 0
		for _, x := range ch {
			last = max(last, x.Key)
		}
		if runEnd == nil {
			return last + 1
		}
		return runEnd[last]
	}
	perLine := "one per line"
	if runEnd != nil {
		perLine = fmt.Sprintf("one line per run of up to %d records with the same %s", maxRun, key.Path)
		cells := names[1:]
		each := "then each record's " + strings.Join(cells, " ") + ", records separated by \"; \""
		if len(cells) > 1 {
			each += fmt.Sprintf(", records with the %s of the record before them by \", \" and the rest of their cells", cells[0])
		}
		names = []string{names[0], each}
	}
	// listSection is the section of one line per record: the index, or
	// the opaque fields it leaves out; head names it, label its foot,
	// note ends the head's line.
	listSection := func(head, label, note string, names []string, fields []*Field) int {
		return v.AddSection(&Section{Coll: c.Path, Order: v.sections[k.sec].Order,
			Head: func(ch []Candidate) string {
				if len(ch) == 0 {
					return ""
				}
				n := listed(ch)
				all := "every " + strings.TrimSuffix(what, "s")
				if n < total {
					all = fmt.Sprintf("the first %s of %s %s", commas(n), commas(total), what)
				}
				return fmt.Sprintf("%s, %s in %s, %s (tab-separated: %s)%s:\n", head, all, order, perLine, strings.Join(names, ", "), note)
			},
			Foot: func(ch []Candidate) string {
				n := listed(ch)
				rows := ""
				if runEnd == nil && n > len(ch) {
					// (lines left out: their records' rows are shown)
					rows = fmt.Sprintf("  %s: %s of these %s %s are shown as rows above, not repeated here\n", label, commas(n-len(ch)), commas(n), what)
				}
				if len(ch) == 0 || n >= total {
					return rows
				}
				return rows + fmt.Sprintf("  %s: %s of %s %s not listed; list exactly them: %s\n",
					label, commas(total-n), commas(total), what, jqCommand(k.in.Handle, k.indexRestQuery(restKey, fields, sorts, desc, n, lines)))
			},
		})
	}
	sec := listSection("index of "+c.Path, "index", sharedNote, names, fields)
	if runEnd != nil {
		// One candidate per run, in record order, after the second
		// round of rows: at the index's own priority these lines took
		// the rows of rare values that answered two questions of
		// pylint's 737 messages at 8,000 tokens (measured on the
		// worked-from sets); here they cost no row and list all 138 of
		// pyright's diagnostics at 4,000.
		start := 0
		for g, end := range runEnd {
			run := lines[start:end]
			lz := &lazyText{}
			lz.make = func() string { return runText(run, lineText) }
			v.Add(Candidate{Section: sec, Key: g, Record: -1, Prio: PrioSecond + 1, Rank: g, Reason: "index", lazy: lz})
			start = end
		}
		return
	}
	lazies := make([]lazyText, len(lines))
	small := PrioIndex
	if complete && len(lines) <= smallIndex && !members {
		// Every record of a small collection, a few tokens each,
		// after the profile's other lines and before the rows' later
		// rounds and the other extremes (which file has how many
		// errors, which version of each of 72 packages); when its
		// lines are short, a few hundred tokens in all, right after
		// the profile's important lines and the pinned rows, before
		// every other row and the lines of less important fields
		// (TestSmallIndexEarly).
		small = PrioIndexSmall
		n := 0
		for j := range lines {
			n += len(lineText(&lines[j])) + 1
		}
		if n <= tinyIndexBytes {
			small = PrioAnomaly - 1
		}
	}
	asRow := k.rowFirst(v, key, fields, members || stream)
	for j := range lines {
		// Ranked by position: the pinned rows past the first round
		// take turns with the lines (rows.go), and the indexes of
		// several collections list their first lines first.
		prio := small
		if members && j < memberLines {
			// A line naming the record's lists with their sizes says
			// more than a row of their items' values: the first ones
			// come before the rows.
			prio = PrioAnomaly - 1
		}
		l, lz := &lines[j], &lazies[j]
		if asRow != nil && asRow(l, prio, j, lineText) {
			continue // its row, shown before, says what its line would
		}
		lz.make = func() string { return lineText(l) }
		v.Add(Candidate{Section: sec, Key: j, Record: -1, Prio: prio, Rank: j, Reason: "index", lazy: lz})
	}
	if len(opq) == 0 {
		return
	}
	// The opaque fields (a module's Sum hash), left out of the index
	// lines so that they reach more records, in lines of their own
	// when there is room: after everything else.
	onames := []string{names[0]}
	for _, f := range opq {
		onames = append(onames, f.Path)
	}
	osec := listSection("opaque fields of "+c.Path+" (hashes, ids)", "opaque fields", "", onames, opq)
	lazies = make([]lazyText, len(lines))
	for j := range lines {
		l, lz := &lines[j], &lazies[j]
		lz.make = func() string { return moreText(l) }
		v.Add(Candidate{Section: osec, Key: j, Record: -1, Prio: PrioRemaining, Rank: j, Reason: "index", lazy: lz})
	}
}

// rowFirst returns the test of whether an index line can be left out
// because its record's row comes before it in the fill order and shows
// every cell of it whole: the row's record, its cells for the index's
// fields, uncut. A view that lists the line holds the row (the fill
// keeps a prefix of one order), so the line would say again what the
// row says, for the tokens of one more record's line (5% of the lines
// of the bundled JSON views at 4,000 tokens, 9% at 8,000). Nil when no
// line can be: no row precedes the index, or the rows do not show the
// index's fields as its lines do (a list, the members of a record, a
// keyed stream). The test asks about the line of l at prio and rank;
// lineText makes the line's text (only for a record with a row).
func (k *coll) rowFirst(v *View, key *Field, fields []*Field, never bool) func(l *indexLine, prio, rank int, lineText func(*indexLine) string) bool {
	if never || len(k.cols) == 0 {
		return nil
	}
	shown := func(f *Field) bool { return slices.Contains(k.cols, f) && !severalValues(f) }
	if !k.p.Map && !shown(key) {
		return nil
	}
	for _, f := range fields {
		if !shown(f) {
			return nil
		}
	}
	type at struct{ prio, rank int }
	first := map[int]at{} // record -> its row's earliest place
	for i := range v.cands {
		cd := &v.cands[i]
		if cd.Section != k.sec || cd.Record < 0 || cd.lazy == nil && cd.Text == "" {
			continue
		}
		if a, ok := first[cd.Record]; !ok || cd.Prio < a.prio || cd.Prio == a.prio && cd.Rank < a.rank {
			first[cd.Record] = at{cd.Prio, cd.Rank}
		}
	}
	if len(first) == 0 {
		return nil
	}
	return func(l *indexLine, prio, rank int, lineText func(*indexLine) string) bool {
		a, ok := first[l.rec]
		if !ok || a.prio > prio || a.prio == prio && a.rank > rank || k.p.Map && l.id != l.key {
			// (a row writes a key as it is: "" is an empty cell)
			return false
		}
		// Every cell as the row writes it: no cell cut (a row cuts
		// at cellWidth, the index at indexWidth).
		for _, c := range strings.Split(lineText(l), "\t") {
			if len(c) > cellWidth || strings.Contains(c, "…[+") {
				return false
			}
		}
		return true
	}
}

// severalValues reports whether f can have several values in one record:
// it is inside an array, or it is a pair's member that some list names
// twice (two {"Key": "team"} tags).
func severalValues(f *Field) bool {
	return f.inArr || f.Values > f.Present && pairMember(f) != nil
}

// cellIs reports whether cell(string(raw), width) is want, without
// making the cell when it would be raw's text as it is (a string with
// no escape, not read as a literal, at most width+12 characters).
func cellIs(raw []byte, width int, want string) bool {
	s := raw
	if len(raw) > 0 && raw[0] == '"' {
		s = raw[1 : len(raw)-1]
		if len(s) == 0 || bytes.IndexByte(s, '\\') >= 0 || bytes.ContainsAny(s, "\t\n\r") ||
			s[0] >= '0' && s[0] <= '9' || s[0] == '+' || s[0] == '-' || s[0] == '.' || s[0]|0x20 == 'i' || s[0]|0x20 == 'n' ||
			s[0] == 't' || s[0] == 'f' {
			return cell(string(raw), width) == want
		}
	}
	if utf8.RuneCount(s) > width+12 {
		return cell(string(raw), width) == want
	}
	return string(s) == want
}

// valueCell is an index cell of one value: "-" when the record has none.
func valueCell(val []byte) string {
	if val == nil {
		return "-"
	}
	return cell(string(val), indexWidth)
}

// lineOf is an index line: the identity, then the cells, tab-separated.
func lineOf(id string, cells []string) string {
	return strings.Join(append([]string{id}, cells...), "\t")
}

// listWidth is the characters of an index cell listing a record's list
// before the rest of its items is only counted.
const listWidth = 2 * indexWidth

// listCell renders the items of a list (each cut at indexWidth) as an
// index cell: "," between them, "[]" for none, and past listWidth
// characters the number of items left ("a.js,b.js,… +12 more").
func listCell(parts []string) string {
	if len(parts) == 0 {
		return "[]"
	}
	var b strings.Builder
	for i, it := range parts {
		if i > 0 && b.Len()+1+len(it) > listWidth {
			fmt.Fprintf(&b, ",… +%d more", len(parts)-i)
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(it)
	}
	return b.String()
}

// opaqueIndexFields returns the opaque fields (hashes, ids: strings of
// up to indexFieldLen characters nearly all distinct) most records have,
// the first one, that the index lines leave out (one: a line of it
// reaches more records).
func (k *coll) opaqueIndexFields(key *Field) []*Field {
	p := k.p
	var out []*Field
	for _, f := range p.Fields {
		if len(out) == 1 {
			break
		}
		if f == key || !f.scalar() || f.inArr || k.dropped(f) || f.Present*2 < p.Records || k.dupOf[f] != nil ||
			f.Constant(p.Records) || f.MaxLen > indexFieldLen || !k.opaque(f) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// sortFields returns the fields of the registry's sort keys
// (Input.Sort) and their direction, or nil when the records lack one of
// them or it is not one scalar per record (sort_by would then compare
// lists).
func (k *coll) sortFields() ([]*Field, bool) {
	var out []*Field
	desc := false
	for _, key := range k.in.Sort {
		path, d := strings.CutPrefix(key, "-")
		desc = desc || d
		f := k.p.Field(strings.TrimPrefix(path, "."))
		if f == nil || !f.scalar() || f.inArr {
			return nil, false
		}
		out = append(out, f)
	}
	return out, desc
}

// sortWords names an index's order: "status.restartCount, largest
// first".
func sortWords(sorts []*Field, desc bool) string {
	var names []string
	for _, f := range sorts {
		names = append(names, f.Path)
	}
	if desc {
		return strings.Join(names, ", ") + ", largest first"
	}
	return strings.Join(names, ", ")
}

// jqValue is the value jq sees for a scalar's JSON text (nil for a
// missing one: jq's null).
func jqValue(raw []byte) any {
	if raw == nil {
		return nil
	}
	switch s := string(raw); {
	case s == "null":
		return nil
	case s == "true":
		return true
	case s == "false":
		return false
	case strings.HasPrefix(s, `"`):
		return unquote(raw)
	default:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n == int64(int(n)) {
			return int(n)
		}
		if b, ok := new(big.Int).SetString(s, 10); ok {
			return b
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	}
}

// compareJQ compares two lists of sort values the way jq's sort_by does.
func compareJQ(a, b []any) int {
	for i := range min(len(a), len(b)) {
		if c := gojq.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// indexRestQuery lists the records after the first n of the index, in
// the index's form ([identity, field, ...] per record) and order.
func (k *coll) indexRestQuery(key *Field, fields, sorts []*Field, desc bool, n int, lines []indexLine) string {
	c := k.c
	var parts []string
	by := ""
	if len(sorts) > 0 {
		var ks []string
		for _, f := range sorts {
			if k.p.Map {
				ks = append(ks, fieldExprOf(".value", f))
			} else {
				ks = append(ks, fieldExprOf("", f))
			}
		}
		by = "sort_by(" + strings.Join(ks, ", ") + ") | "
		if desc {
			by += "reverse | "
		}
	}
	if k.p.Map {
		parts = append(parts, ".key")
		if k.keyedStream() {
			// Records keyed by their one member's name, in record
			// order: the members of them all, after the first n.
			for _, f := range fields {
				parts = append(parts, fieldExprOf(".value", f))
			}
			return fmt.Sprintf("[.[] | to_entries[]] | .[%d:] | map([%s])", n, strings.Join(parts, ", "))
		}
		for _, f := range fields {
			if f == k.p.root || f == k.p.root.elem {
				parts = append(parts, ".value")
			} else {
				parts = append(parts, fieldExprOf(".value", f))
			}
		}
		if by != "" {
			return fmt.Sprintf("%s | to_entries | %s.[%d:] | map([%s])", c.Path, by, n, strings.Join(parts, ", "))
		}
		return fmt.Sprintf("%s | to_entries | map(select(.key > %s) | [%s])", c.Path, jsonQuote(lines[n-1].key), strings.Join(parts, ", "))
	}
	parts = append(parts, fieldExprOf("", key))
	for _, f := range fields {
		parts = append(parts, fieldExprOf("", f))
	}
	form := "map([" + strings.Join(parts, ", ") + "])"
	switch {
	case by != "" && (c.Kind == "jsonl" || c.Kind == "concat" || c.Path == "."):
		return fmt.Sprintf("%s.[%d:] | %s", by, n, form)
	case by != "" && strings.Contains(c.Path, "[]"):
		return fmt.Sprintf("[%s[]] | %s.[%d:] | %s", c.Path, by, n, form)
	case by != "":
		return fmt.Sprintf("%s | %s.[%d:] | %s", c.Path, by, n, form)
	case c.Kind == "jsonl" || c.Kind == "concat" || c.Path == ".":
		return fmt.Sprintf(".[%d:] | %s", n, form)
	case strings.Contains(c.Path, "[]"):
		return fmt.Sprintf("[%s[]] | .[%d:] | %s", c.Path, n, form)
	}
	return fmt.Sprintf("%s[%d:] | %s", c.Path, n, form)
}

// addPinnedList lists the pinned records past the first round of rows
// (rows.go shows the first roundRows of them as rows, the others take
// turns with the index), one line each in the index's form, right after
// the first round: every record the registry's pin selects stays
// visible, by its identity and its index fields, for a few tokens each,
// before the profile's other lines (71 pinned open issues as rows took
// a whole 8,000-token view). lines are the index's lines in record
// order.
func addPinnedList(v *View, k *coll, key *Field, fields []*Field, lines []indexLine, lineText func(*indexLine) string) {
	c := k.c
	if len(c.Pinned) <= roundRows {
		return
	}
	var texts []string
	for _, i := range c.Pinned[roundRows:] {
		if i >= len(lines) || lines[i].rec != i {
			break // past the records the index read
		}
		texts = append(texts, lineText(&lines[i]))
	}
	if len(texts) == 0 {
		return
	}
	names := []string{"key"}
	if !k.p.Map {
		names[0] = key.Path
	}
	for _, f := range fields {
		if f == k.p.root || f == k.p.root.elem {
			names = append(names, "value")
		} else {
			names = append(names, f.Path)
		}
	}
	total := c.PinnedCount - roundRows
	sec := v.AddSection(&Section{Coll: c.Path, Order: v.sections[k.sec].Order,
		Head: func(ch []Candidate) string {
			if len(ch) == 0 {
				return ""
			}
			what := "every one"
			if c.PinStopped {
				what = fmt.Sprintf("the first %s of %s", commas(len(ch)), c.pinTotal(total))
			} else if len(ch) < total {
				what = fmt.Sprintf("the first %s of %s", commas(len(ch)), commas(total))
			}
			return fmt.Sprintf("pinned records of %s past the first %d rows, %s in record order, one per line (tab-separated: %s):\n", c.Path, roundRows, what, strings.Join(names, ", "))
		},
		Foot: func(ch []Candidate) string {
			if len(ch) == 0 || (len(ch) >= total && !c.PinStopped) {
				return ""
			}
			return fmt.Sprintf("  pinned records not listed: %s; all pinned records: %s\n", c.pinTotal(total-len(ch)), jqCommand(k.in.Handle, pinQuery(c, k.p)))
		},
	})
	for j, t := range texts {
		// (ranked after the first round's pinned rows)
		v.Add(Candidate{Section: sec, Key: j, Record: -1, Prio: PrioPinned, Rank: roundRows + j, Reason: "pinned list", Text: "  " + t})
	}
}

// fileNames are the names of fields that say where a finding is: the
// file or path it is about.
var fileNames = mustPathRe(`(?i)(^|\.|_)(file|filename|filepath|file_path|path|uri|module|location\.file|path\.text)$`)

// sharedNameKey returns the field the records of an array with no
// identity are looked up by: a file a finding is about (a type
// checker's or a linter's diagnostics name one of a few dozen files,
// each in several records), in every record, or nil.
func (k *coll) sharedNameKey() *Field {
	p := k.p
	var key *Field
	for _, f := range p.Fields {
		if f.scalar() && !f.inArr && f.Types == tString && f.Present == p.Records && f.MaxLen <= 120 && !k.dropped(f) &&
			fileNames.MatchString(f.Path) && f.Distinct >= 2 && f.Distinct*20 >= p.Records && (key == nil || f.Distinct > key.Distinct) {
			key = f
		}
	}
	return key
}

// maxRun is the most records of a run of records sharing their key
// listed on one index line (runsOf).
const maxRun = 16

// runsOf splits the index lines (in record order) into runs of
// consecutive records with the same identity cell, at most maxRun
// each, and returns the end of each run: a linter's findings, sorted
// by file, each name their file once per run, not once per finding.
func runsOf(lines []indexLine) []int {
	var ends []int
	for i := range lines {
		if i > 0 && lines[i].id == lines[i-1].id && i-ends[len(ends)-1] < maxRun {
			// (ends[len(ends)-1] is this run's start)
			continue
		}
		ends = append(ends, i)
	}
	// ends holds each run's start: shift to the ends.
	for g := range ends {
		if g+1 < len(ends) {
			ends[g] = ends[g+1]
		} else {
			ends[g] = len(lines)
		}
	}
	return ends
}

// runText is the index line of a run of records sharing their key
// (runsOf): the key once, then each record's cells separated by " ",
// the records by "; "; a record whose first cell is the record's before
// it (a finding of the same rule) gives only its other cells, after a
// ", " ("reportAttributeAccessIssue 87, 88, 89; reportArgumentType
// 236").
func runText(run []indexLine, lineText func(*indexLine) string) string {
	var b strings.Builder
	b.WriteString(run[0].id)
	b.WriteByte('\t')
	prev := ""
	for i := range run {
		cells := strings.Split(strings.TrimPrefix(lineText(&run[i]), run[i].id+"\t"), "\t")
		switch {
		case i > 0 && len(cells) > 1 && cells[0] == prev:
			b.WriteString(", ")
			b.WriteString(strings.Join(cells[1:], " "))
			continue
		case i > 0:
			b.WriteString("; ")
		}
		b.WriteString(strings.Join(cells, " "))
		prev = cells[0]
	}
	return b.String()
}

// placeNumber reports whether a number field says where its record is
// (a line or column of a source, an offset: refNumber, or a name ending
// so, radon's "endline"), not how large it is.
func placeNumber(path string) bool {
	if refNumber(path) {
		return true
	}
	l := strings.ToLower(path)
	return strings.HasSuffix(l, "line") || strings.HasSuffix(l, "column") || strings.HasSuffix(l, "offset") || strings.HasSuffix(l, "lineno")
}
