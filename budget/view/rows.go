package view

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// errWords match values that say something went wrong.
var errWords = regexp.MustCompile(`(?i)(err|fail|fatal|panic|crash|alarm|unhealthy|denied|invalid|timed? ?out|warn|critical|backoff|oomkilled|evicted|refused|broken|missing|reject|abort|killed|not.?ready|unavailable|degraded|conflict)`)

// exitNames are numeric fields where a value other than 0 is a failure.
var exitNames = mustPathRe(`(?i)(^|\.)(exit_?code|exitstatus|return_?code|returncode|rc|errors?|failures?|failed)$`)

// errWord reports whether a value (its JSON text) says something went
// wrong: errWords, by a scan of the bytes (the regexp only for text
// that is not ASCII, where case folding reaches beyond ASCII letters).
// It runs once per distinct value of a field with few values.
func errWord(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] >= utf8.RuneSelf {
			return errWords.MatchString(raw)
		}
	}
	for i := 0; i < len(raw); i++ {
		rest := raw[i:]
		switch raw[i] | 0x20 { // ASCII letters in lower case
		case 'a':
			if hasFold(rest, "alarm") || hasFold(rest, "abort") {
				return true
			}
		case 'b':
			if hasFold(rest, "backoff") || hasFold(rest, "broken") {
				return true
			}
		case 'c':
			if hasFold(rest, "crash") || hasFold(rest, "critical") || hasFold(rest, "conflict") {
				return true
			}
		case 'd':
			if hasFold(rest, "denied") || hasFold(rest, "degraded") {
				return true
			}
		case 'e':
			if hasFold(rest, "err") || hasFold(rest, "evicted") {
				return true
			}
		case 'f':
			if hasFold(rest, "fail") || hasFold(rest, "fatal") {
				return true
			}
		case 'i':
			if hasFold(rest, "invalid") {
				return true
			}
		case 'k':
			if hasFold(rest, "killed") {
				return true
			}
		case 'm':
			if hasFold(rest, "missing") {
				return true
			}
		case 'n':
			// not.?ready
			if hasFold(rest, "not") && (hasFold(rest[3:], "ready") || len(rest) > 3 && rest[3] != '\n' && hasFold(rest[4:], "ready")) {
				return true
			}
		case 'o':
			if hasFold(rest, "oomkilled") {
				return true
			}
		case 'p':
			if hasFold(rest, "panic") {
				return true
			}
		case 'r':
			if hasFold(rest, "refused") || hasFold(rest, "reject") {
				return true
			}
		case 't':
			// timed? ?out
			if hasFold(rest, "time") {
				r := rest[4:]
				if len(r) > 0 && r[0]|0x20 == 'd' {
					r = r[1:]
				}
				if len(r) > 0 && r[0] == ' ' {
					r = r[1:]
				}
				if hasFold(r, "out") {
					return true
				}
			}
		case 'u':
			if hasFold(rest, "unhealthy") || hasFold(rest, "unavailable") {
				return true
			}
		case 'w':
			if hasFold(rest, "warn") {
				return true
			}
		}
	}
	return false
}

// hasFold reports whether s starts with the lower-case ASCII word w in
// any case.
func hasFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// exitName reports whether a field's numbers are exit codes (a value
// other than 0 is a failure). It runs once per field.
func exitName(path string) bool { return exitNames.MatchString(path) }

// leaves calls fn with every scalar value of the record raw (for a map,
// its value) and the profile field it belongs to, in document order.
func (p *Profile) leaves(raw []byte, fn func(f *Field, raw []byte)) {
	p.leavesOf(raw, nil, fn)
}

// leavesOf is leaves that only goes down the fields in mask (see
// p.mask; nil: all of them).
func (p *Profile) leavesOf(raw []byte, mask []bool, fn func(f *Field, raw []byte)) {
	s := jscan{d: raw}
	s.ws()
	if p.Map {
		if _, ok := s.entryValue(); !ok {
			return
		}
	}
	p.walk(&s, p.root, mask, fn)
}

func (p *Profile) walk(s *jscan, f *Field, mask []bool, fn func(*Field, []byte)) {
	if f == nil || mask != nil && !mask[f.first+1] {
		s.skipValue()
		return
	}
	if f.whole {
		if c := s.peek(); c == '{' || c == '[' {
			start := s.pos
			s.skipValue()
			fn(f, s.d[start:s.pos])
			return
		}
	}
	switch s.peek() {
	case '{':
		if f.indexed && indexKeyedMin(s, 0) {
			// A list keyed "0".."n-1" (json_listmap.go).
			s.eachMemberName(func([]byte) { p.walk(s, f.elem, mask, fn) })
			return
		}
		s.pos++
		s.ws()
		if s.peek() == '}' {
			s.pos++
			return
		}
		for {
			s.ws()
			var kid *Field
			if b, name := s.memberName(); b != nil {
				kid = f.kids[string(b)]
			} else {
				kid = f.kids[name]
			}
			s.ws()
			s.pos++
			s.ws()
			p.walk(s, kid, mask, fn)
			s.ws()
			if s.peek() == ',' {
				s.pos++
				continue
			}
			s.pos++
			return
		}
	case '[':
		if f.pairs {
			p.walkPairs(s, f, mask, fn) // json_pairs.go
			return
		}
		s.pos++
		s.ws()
		if s.peek() == ']' {
			s.pos++
			return
		}
		for {
			s.ws()
			p.walk(s, f.elem, mask, fn)
			s.ws()
			if s.peek() == ',' {
				s.pos++
				continue
			}
			s.pos++
			return
		}
	}
	start := s.pos
	s.skipValue()
	fn(f, s.d[start:s.pos])
}

// mask returns the mask of leavesOf that reaches the fields fs: each of
// them and the fields that contain it.
func (p *Profile) mask(fs ...*Field) []bool {
	m := make([]bool, len(p.Fields)+1)
	m[0] = true
	for _, f := range fs {
		for ; f != nil; f = f.parent {
			m[f.first+1] = true
		}
	}
	return m
}

// mapKey returns the key of a map record {"key": value}.
func mapKey(raw []byte) string {
	s := jscan{d: raw}
	s.ws()
	s.pos++
	s.ws()
	if s.peek() != '"' {
		return "" // {}: a keyed stream's record without a member
	}
	return s.readString()
}

// spreadOrder returns up to max record positions of n in bisection order
// (the middle, then the quarters, ...): any prefix is an even spread.
func spreadOrder(n, max int) []int {
	var out []int
	seen := map[int]bool{0: true, n - 1: true}
	for step := 2; len(out) < max && step <= 2*n; step *= 2 {
		for j := 1; j < step && len(out) < max; j += 2 {
			i := j * n / step
			if i > 0 && i < n-1 && !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	return out
}

// requestTerms are the words of the tool call's arguments (three letters
// or more), for rows relevant to the request.
func requestTerms(args []byte) []string {
	if len(args) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	// Only string values count: member names are the tool's vocabulary.
	s := jscan{d: args}
	var walk func()
	walk = func() {
		s.ws()
		switch s.peek() {
		case '{':
			s.pos++
			for {
				s.ws()
				if s.peek() == '}' || s.peek() == 0 {
					s.pos++
					return
				}
				s.skipString()
				s.ws()
				s.pos++
				walk()
				s.ws()
				if s.peek() == ',' {
					s.pos++
				}
			}
		case '[':
			s.pos++
			for {
				s.ws()
				if s.peek() == ']' || s.peek() == 0 {
					s.pos++
					return
				}
				walk()
				s.ws()
				if s.peek() == ',' {
					s.pos++
				}
			}
		case '"':
			str := strings.ToLower(s.readString())
			if len(str) >= 3 && len(str) <= 100 && !strings.ContainsAny(str, " \t\n") && !seen[str] && len(out) < 16 {
				// A name as written ("node-express"): a line holding
				// it whole is more relevant than one with its words.
				seen[str] = true
				out = append(out, str)
			}
			for _, w := range strings.FieldsFunc(str, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
				if len(w) >= 3 && !seen[w] && len(out) < 16 {
					seen[w] = true
					out = append(out, w)
				}
			}
		default:
			s.skipValue()
		}
	}
	walk()
	return out
}

// selectRows finds the records each reason selects, from what the
// profile's one pass gathered (the tracker), and renders the rows of
// those records: no second walk over the records, only a look at the
// few records kept as candidates. Reasons are kept apart per field and
// value (status.phase=Failed is one reason, state.waiting.reason=
// CrashLoopBackOff another), so that the first round of rows shows one of
// each kind of anomaly before a second of any.
func (k *coll) selectRows() {
	p, c, t := k.p, k.c, k.t
	n := c.Count
	add := func(prio int) *reason {
		r := &reason{prio: prio, text: map[int]string{}}
		k.why = append(k.why, r)
		return r
	}
	pinned := add(PrioPinned)
	for _, i := range c.Pinned {
		pinned.recs = append(pinned.recs, i)
		pinned.text[i] = "pinned"
	}
	pinned.more = c.PinnedCount - len(c.Pinned)
	outliers := &reason{prio: PrioAnomaly, text: map[int]string{}}
	lacking := &reason{prio: PrioRare, text: map[int]string{}, field: map[int]*Field{}}
	lackErr := &reason{prio: PrioAnomaly, text: map[int]string{}, field: map[int]*Field{}}
	relevant := &reason{prio: PrioRare, text: map[int]string{}}
	ends := &reason{prio: PrioEnds, text: map[int]string{}}
	spread := &reason{prio: PrioSpread, text: map[int]string{}}

	// Per field and value: the anomalies and the rare values, in the
	// order first seen (record, then value in the record), then the
	// rarest first.
	byLabel := map[string]*keyed{}
	var anomalies, rares []*keyed
	flag := func(label string, prio, count int, vs *valState, why string, in innerRef, f *Field, raw string) {
		kr := byLabel[label]
		fresh := kr == nil // (then no record is in it: a value's records are distinct)
		if fresh {
			kr = &keyed{r: &reason{prio: prio, text: make(map[int]string, len(vs.recs)), inner: map[int]innerRef{}, many: prio == PrioAnomaly && count > 2*firstRound}, count: count, first: vs.first, seq: vs.seq, share: 1}
			if f != nil && !f.inArr && !p.Map && pairMember(f) == nil && count > 1 {
				kr.r.val = &valReason{f: f, raw: raw, label: k.short(f) + "=" + cell(raw, 24), total: count}
				if len(vs.recs) == count {
					kr.r.val.has = make(map[int]bool, count)
					for _, i := range vs.recs {
						kr.r.val.has[i] = true
					}
				}
			}
			byLabel[label] = kr
			if prio == PrioAnomaly {
				anomalies = append(anomalies, kr)
			} else {
				rares = append(rares, kr)
			}
		} else {
			kr.r.val = nil // two values under one label: no one query
		}
		if !fresh && (vs.first < kr.first || vs.first == kr.first && vs.seq < kr.seq) {
			// Two values with one label (cut alike): the first seen
			// names it.
			kr.first, kr.seq = vs.first, vs.seq
		}
		for j, i := range vs.recs {
			if j >= 2 && vs.recs[j-1] == i-1 && vs.recs[j-2] == i-2 {
				// A run of records with the value (a macro's 27
				// commands at one depth): its first two stand for it.
				continue
			}
			if !fresh {
				if _, ok := kr.r.text[i]; ok {
					continue
				}
			}
			kr.r.recs = append(kr.r.recs, i)
			kr.r.text[i] = why
			if in.f != nil {
				kr.r.inner[i] = in
			}
		}
	}
	outl := map[*Field]stat{}
	var lack []*Field
	for _, f := range p.Fields {
		if k.hidden(f) || f.sel == nil || k.dupOf[f] != nil {
			// (a field repeating another's values in every record is
			// no reason of its own: global_frame beside frame)
			continue
		}
		exit := f.ownNumbers() > 0 && f.sel.exit
		if f.Counts != nil {
			// Values that say something went wrong are anomalies where
			// they are the exception: not where a quarter of the values
			// say so (issue titles such as "Panic in X", "Flaky test
			// Y", most of a page of bug reports).
			errN := 0
			for _, vs := range f.vals {
				if vs.errWord > 0 {
					errN += vs.n
				}
			}
			errExc := errN*4 <= f.Values
			// What a rare value asks of its field, worked out once for
			// the field (each a pass over its values or a regular
			// expression): -1 not yet.
			few, med, plain := -1, -1, -1
			rareField := func(n int) bool {
				if few < 0 {
					few = b2i(fewValued(f))
				}
				if few == 0 && med < 0 {
					med = medianCount(f)
				}
				if !(few == 1 || n*8 <= med) {
					return false
				}
				if plain < 0 {
					plain = b2i(!k.opaque(f) && !(f.ownNumbers() > 0 && refNumber(f.Path)) && k.codeOf(f) == nil)
				}
				return plain == 1
			}
			for _, raw := range sortedKeys(f.vals) {
				vs := f.vals[raw]
				usual := vs.n*2 >= f.Values || f.Values < 2
				switch {
				case !usual && raw[0] == '"' && len(raw) < 120 && vs.errWord > 0 && errExc && !placeNames.MatchString(f.Path) && !filePathValue(raw):
					// (a file named error.go is no error)
					label := f.Path + "=" + cell(raw, 40)
					flag(label, PrioAnomaly, vs.n, vs, fmt.Sprintf("%s=%s (%s of %s)", k.short(f), cell(raw, 40), commas(vs.n), commas(f.Values)), k.innerRef(f, raw), f, raw)
				case exit && vs.exitValue:
					label := f.Path + "=" + raw
					flag(label, PrioAnomaly, vs.n, vs, k.short(f)+"="+raw+" (not 0)", k.innerRef(f, raw), f, raw)
				case !usual && f.Values >= 10 && f.Distinct <= 24 && f.Distinct < f.Values/2 && vs.n <= max(1, f.Values/20) && rareField(vs.n):
					// (a rare column or line number says nothing)
					label := f.Path + "=" + cell(raw, 40)
					prio := PrioRare
					if few == 0 {
						// Rare among many values: after the profile's
						// other lines, before the index.
						prio = PrioRare2
					}
					flag(label, prio, vs.n, vs, fmt.Sprintf("rare %s (%s of %s)", k.valueWhy(f, raw), commas(vs.n), commas(f.Values)), k.innerRef(f, raw), f, raw)
					// Rarer among more values first; values of long
					// strings without spaces (URLs, paths) after the
					// others: their rarity tells less.
					kr := byLabel[label]
					kr.share = min(kr.share, float64(vs.n)/float64(f.Values))
					kr.urlish = f.Long*4 >= (f.Values-f.Nulls)*3 && f.Spaced*10 < f.Long
				}
			}
		} else if exit && f.sel.exitVals != nil {
			for _, raw := range sortedKeys(f.sel.exitVals) {
				label := f.Path + "=" + raw
				flag(label, PrioAnomaly, 0, f.sel.exitVals[raw], k.short(f)+"="+raw+" (not 0)", k.innerRef(f, raw), nil, "")
			}
		}
		if f.ownNumbers() >= 8 && f.StdDev() > 0 && f != p.Identity && !refNumber(f.Path) && !codeNumber(f.Path) && k.codeOf(f) == nil &&
			!strings.Contains(f.Path, "[][]") {
			// (an offset, a position, a depth or a code far from the
			// mean is no outlier: they are no measures; nor the
			// numbers of pairs in lists of lists, line numbers)
			outl[f] = stat{f.Mean(), f.StdDev()}
		}
		if f.Present > 0 && p.Records >= 10 && f.Present*10 <= p.Records && !strings.Contains(f.Path, "[]") && !(f.ownNumbers() > 0 && refNumber(f.Path)) {
			// (a position a few records have, a multi-line command's
			// line_end, tells nothing of them)
			parent := f.Path
			if i := strings.LastIndexByte(parent, '.'); i >= 0 {
				parent = parent[:i]
				if pf := p.Field(parent); pf != nil && pf.Present*10 <= p.Records {
					continue // its parent is rare already
				}
			}
			lack = append(lack, f)
		}
	}
	for _, list := range [][]*keyed{anomalies, rares} {
		sort.SliceStable(list, func(a, b int) bool {
			if list[a].first != list[b].first {
				return list[a].first < list[b].first
			}
			return list[a].seq < list[b].seq
		})
	}

	// Extremes of the main numeric and time fields (outside arrays,
	// in at least half the records), and of the longest arrays of
	// scalars: the first record holding each, found by the profile.
	type extreme struct {
		f    *Field
		word string
		rec  int
		raw  []byte
	}
	var exts, itemExts []extreme
	for _, f := range p.Fields {
		if f.MapLike && !f.inArr && !k.hidden(f) && f.Present*4 >= p.Records && p.Records >= 3 && f.MaxEntries > f.MinEntries {
			itemExts = append(itemExts, extreme{f, fmt.Sprintf("most %s entries (%d%s)", k.short(f), f.MaxEntries, tiedRows(f.maxEntriesN)), f.maxEntriesRec, f.maxEntriesRaw})
			continue
		}
		if f == p.Identity || k.hidden(f) || f.Present < p.Records/2 || p.Records < 3 {
			continue
		}
		if strings.HasSuffix(f.Path, "[]") && f.scalar() && !strings.Contains(strings.TrimSuffix(f.Path, "[]"), "[]") {
			if a := p.Field(strings.TrimSuffix(f.Path, "[]")); a != nil && a.MaxItems > a.MinItems {
				itemExts = append(itemExts, extreme{f, fmt.Sprintf("most %s items (%d%s)", k.short(a), a.MaxItems, tiedRows(a.maxItemsN)), a.maxItemsRec, a.maxItemsRaw})
			}
			continue
		}
		if strings.Contains(f.Path, "[]") {
			continue
		}
		if f.NumN > 0 && f.Min != f.Max && f.NumN == f.Values-f.Nulls && !(f.NumStrings > 0 && (refNumber(f.Path) || codeNumber(f.Path) || identityScore(f.Path) >= 50)) {
			// (An id or a code written as a string, a script's
			// "scriptId": "876", has no extremes worth a row.)
			exts = append(exts, extreme{f, "largest " + k.short(f), f.maxRec, f.maxRaw}, extreme{f, "smallest " + k.short(f), f.minRec, f.minRaw})
		} else if f.TimeN > 1 && f.earliestText != f.latestText {
			exts = append(exts, extreme{f, "latest " + k.short(f), f.latestRec, f.latestRaw}, extreme{f, "earliest " + k.short(f), f.earliestRec, f.earliestRaw})
		}
	}
	raws := t.raws
	extra := func(rec int, raw []byte) {
		if _, ok := raws[rec]; !ok && raw != nil {
			raws[rec] = raw
		}
	}
	extAt := map[int]bool{}
	for _, e := range append(append([]extreme(nil), exts...), itemExts...) {
		extAt[e.rec] = true
		extra(e.rec, e.raw)
	}
	// Outliers: the candidates are the largest and smallest numbers of
	// each field; a record's deviation is its largest over the fields.
	// Only records holding a number beyond 2σ are read again: a record
	// whose farthest number (in field g, say) is beyond 2σ but not among
	// g's kept largest or smallest ranks after the maxPerWhy records
	// that are (each has a number of g at least as far, the kept
	// numbers of a field are of distinct records, and among equal
	// numbers the earlier record is kept), so it is never chosen.
	beyond := func(st stat, e numEnt) bool { return math.Abs(e.x-st.mean)/st.sd > 2 }
	every := readEveryKept
	devAt := map[int]bool{}
	// Only the maxPerWhy farthest records are outliers. A record's
	// deviation is at least that of its farthest kept number (least),
	// and a number of it not kept lies between the least kept largest
	// and the greatest kept smallest of its field (the kept numbers of a
	// field are its largest and smallest, of distinct records, when its
	// heaps are full; all of them otherwise): a record whose bound is
	// below the maxPerWhy-th largest least deviation is not among them,
	// and is not read again.
	least := map[int]float64{}
	notKept := 0.0
	for f, st := range outl {
		f.sel.hi.settle(k.t)
		f.sel.lo.settle(k.t)
		for _, h := range [2]numHeap{f.sel.hi, f.sel.lo} {
			if len(h.ents) >= maxPerWhy {
				notKept = max(notKept, math.Abs(h.ents[0].x-st.mean)/st.sd)
			}
			for _, e := range h.ents {
				if every || beyond(st, e) {
					devAt[e.rec] = true
					extra(e.rec, e.raw)
					least[e.rec] = max(least[e.rec], math.Abs(e.x-st.mean)/st.sd)
				}
			}
		}
	}
	if !every && len(least) > maxPerWhy {
		ds := make([]float64, 0, len(least))
		for _, d := range least {
			ds = append(ds, d)
		}
		sort.Float64s(ds)
		if th := ds[len(ds)-maxPerWhy]; notKept < th {
			for i, d := range least {
				if d < th {
					delete(devAt, i)
				}
			}
		}
	}
	type dev struct {
		rec int
		d   float64
		why string
	}
	var devs []dev // (in no order: sorted below)
	type endHit struct{ rec, seq, ext int }
	var endHits []endHit
	var looked []*Field
	for _, e := range exts {
		looked = append(looked, e.f)
	}
	for f := range outl {
		looked = append(looked, f)
	}
	mask := p.mask(looked...)
	// The records whose farthest number the kept ones tell are not
	// read again for it.
	toRead := devAt
	if !every {
		known := outliersKnown(outl, devAt)
		toRead = map[int]bool{}
		for i := range devAt {
			if d, ok := known[i]; ok {
				devs = append(devs, dev{i, d.d, k.sigmaWhy(d.f, numExact(d.x), d.d, outl[d.f].mean)})
			} else {
				toRead[i] = true
			}
		}
	}
	again := sortedSet(extAt, toRead)
	k.readAgain = len(again)
	for _, i := range again {
		raw := raws[i]
		var bestDev float64
		whyOut := ""
		seq := 0
		p.leavesOf(raw, mask, func(f *Field, v []byte) {
			seq++
			if extAt[i] {
				for ei, e := range exts {
					if e.f == f && e.rec == i && !slices.ContainsFunc(endHits, func(h endHit) bool { return h.ext == ei }) {
						endHits = append(endHits, endHit{i, seq, ei})
					}
				}
			}
			if st, ok := outl[f]; ok && toRead[i] && len(v) > 0 && v[0] != '"' && v[0] != 'n' {
				if x, err := strconv.ParseFloat(string(v), 64); err == nil {
					if d := math.Abs(x-st.mean) / st.sd; d > 2 && d > bestDev {
						bestDev = d
						whyOut = k.sigmaWhy(f, numExact(x), d, st.mean)
					}
				}
			}
		})
		for ei, e := range itemExts {
			if e.rec == i {
				endHits = append(endHits, endHit{i, math.MaxInt, len(exts) + ei})
			}
		}
		if whyOut != "" {
			devs = append(devs, dev{i, bestDev, whyOut})
		}
	}
	// Extremes in record order, then value order in the record.
	sort.SliceStable(endHits, func(a, b int) bool {
		if endHits[a].rec != endHits[b].rec {
			return endHits[a].rec < endHits[b].rec
		}
		return endHits[a].seq < endHits[b].seq
	})
	for _, h := range endHits {
		word := ""
		if h.ext < len(exts) {
			word = exts[h.ext].word
		} else {
			word = itemExts[h.ext-len(exts)].word
		}
		ends.recs = append(ends.recs, h.rec)
		ends.text[h.rec] = joinWhy(ends.text[h.rec], word)
	}
	// Anomalies and rare values: the rarest kind first (rare values by
	// their share of the field's values: 1 of 409 before 1 of 60).
	sort.SliceStable(anomalies, func(a, b int) bool { return anomalies[a].count < anomalies[b].count })
	sort.SliceStable(rares, func(a, b int) bool {
		x, y := rares[a], rares[b]
		if x.urlish != y.urlish {
			return y.urlish
		}
		if x.count != y.count && x.share == y.share {
			return x.count < y.count
		}
		return x.share < y.share
	})
	for _, list := range [][]*keyed{anomalies, rares} {
		for _, kr := range list {
			if len(kr.r.recs) > maxPerWhy {
				sort.Ints(kr.r.recs)
				kr.r.recs = kr.r.recs[:maxPerWhy]
			}
			k.why = append(k.why, kr.r)
		}
	}
	// Outliers, most extreme first.
	sort.SliceStable(devs, func(a, b int) bool {
		if devs[a].d != devs[b].d {
			return devs[a].d > devs[b].d
		}
		return devs[a].rec < devs[b].rec
	})
	for _, d := range devs {
		if len(outliers.recs) < maxPerWhy {
			outliers.recs = append(outliers.recs, d.rec)
			outliers.text[d.rec] = d.why
		}
	}
	// The largest of each kind: per value of the kind field (a trace
	// event's name, a file's type), the record with the largest value
	// of a main measure among the records of that kind ("largest dur
	// among name=InstantiateFunction"): the slowest instantiation, the
	// slowest included file (TestLargestOfEachKind).
	kindMax := &reason{prio: PrioEnds, text: map[int]string{}}
	k.largestOfKinds(kindMax, extra)
	// The last record of each kind, whole (json_last.go).
	lastKinds := &reason{prio: PrioEnds2, text: map[int]string{}}
	k.endRows = map[int]bool{}
	for _, i := range k.lastOfKinds(lastKinds, extra) {
		k.endRows[i] = true
	}
	// Records with a field most lack, each with the first such field it
	// has: first one record per field, an error-like field first (an
	// Error object in 1 of 90 module records, exiftool's Warning in 2
	// of 337 files), then the fields of fewest records (a camera Model
	// of 2 files before the colour profile of 29), each field's first
	// record (records of many kinds lack most fields: in record order,
	// the first records would stand for them all); then the other
	// records, in record order (TestLackingRarestFieldFirst).
	errLack := map[*Field]bool{}
	for _, f := range lack {
		errLack[f] = errorLike.MatchString(f.name)
	}
	sort.SliceStable(lack, func(a, b int) bool {
		x, y := lack[a], lack[b]
		if errLack[x] != errLack[y] {
			return errLack[x]
		}
		return x.Present < y.Present
	})
	taken := map[int]bool{}
	take := func(r *reason, i int, f *Field) {
		taken[i] = true
		r.recs = append(r.recs, i)
		r.text[i] = fmt.Sprintf("has %s (%s of %s)", k.short(f), commas(f.Present), commas(p.Records))
		r.field[i] = f
	}
	// A field named like an error or a warning that at most a quarter
	// of the records have marks each of them as an anomaly (the
	// records exiftool warned about), with the failed states.
	for _, f := range lack {
		if !errLack[f] || f.Present*4 > p.Records {
			continue
		}
		for _, i := range f.sel.firstRecs {
			if !taken[i] && len(lackErr.recs) < maxPerWhy {
				take(lackErr, i, f)
			}
		}
	}
	for _, f := range lack {
		if len(lacking.recs) >= maxPerWhy {
			break
		}
		for _, i := range f.sel.firstRecs {
			if !taken[i] {
				take(lacking, i, f)
				break
			}
		}
	}
	lackAt := map[int]bool{}
	for _, f := range lack {
		for _, i := range f.sel.firstRecs {
			lackAt[i] = true
		}
	}
	for _, i := range sortedSet(lackAt) {
		if len(lacking.recs) >= maxPerWhy {
			break
		}
		if taken[i] {
			continue
		}
		for _, f := range lack {
			if slices.Contains(f.sel.firstRecs, i) {
				take(lacking, i, f)
				break
			}
		}
	}
	// Relevant rows: the most relevant first (BM25's idf, one hit per
	// term).
	if len(t.hits) > 0 {
		terms, df := t.terms, t.df
		idf := make([]float64, len(terms))
		for i := range terms {
			idf[i] = math.Log(1 + (float64(n)-float64(df[i])+0.5)/(float64(df[i])+0.5))
		}
		score := func(m uint32) float64 {
			s := 0.0
			for i := range terms {
				if m&(1<<i) != 0 {
					s += idf[i]
				}
			}
			return s
		}
		hits := t.hits
		sort.SliceStable(hits, func(a, b int) bool { return score(hits[a].mask) > score(hits[b].mask) })
		for _, h := range hits {
			if len(relevant.recs) >= maxPerWhy {
				break
			}
			var ws []string
			for i, term := range terms {
				if h.mask&(1<<i) != 0 {
					ws = append(ws, term)
				}
			}
			relevant.recs = append(relevant.recs, h.rec)
			relevant.text[h.rec] = "matches the request: " + strings.Join(ws, ", ")
		}
	}
	// The first and the last record lead the ends, before the extremes.
	if n > 0 {
		lead := []int{0}
		ends.text[0] = joinWhy("first", ends.text[0])
		if n > 1 {
			lead = append(lead, n-1)
			ends.text[n-1] = joinWhy("last", ends.text[n-1])
			k.endRows[n-1] = true
		}
		// A stream's end (a log, a build's events) is where it failed:
		// the records before the last one too, as head+tail shows them.
		for i := n - 2; i >= max(1, n-1-tailRows(k)); i-- {
			lead = append(lead, i)
			ends.text[i] = joinWhy(ordinal(n-i)+" from last", ends.text[i])
		}
		ends.recs = append(lead, ends.recs...)
	}
	for _, i := range spreadOrder(n, maxSpread) {
		spread.recs = append(spread.recs, i)
		spread.text[i] = "spread"
	}
	k.why = append(k.why, outliers, lackErr, k.lacksField(raws), kindMax, lastKinds, lacking, relevant, k.changePoints(), ends, spread)
	k.fillGroups()
	k.kindMax = k.kindMaxLines()   // (json_kinds.go)
	k.groupMax = k.groupMaxLines() // (groupmax.go)

	// The rows of every record a reason chose, and of the probes.
	nshow := len(t.probes)
	for _, r := range k.why {
		nshow += len(r.recs)
	}
	show := make(map[int]bool, nshow)
	for _, r := range k.why {
		for _, i := range r.recs {
			show[i] = true
		}
	}
	for _, i := range t.probes {
		show[i] = true
	}
	// A row is rendered when first needed (row): the fill reads again
	// only the records it reaches, not every record a reason chose.
	k.colMask = p.mask(k.cols...)
	if len(k.rows) == 0 {
		k.rows = make(map[int]*row, len(show))
	}
	for _, i := range sortedSet(show) {
		raw, ok := raws[i]
		if !ok {
			continue // not kept: cannot happen, but a row is never invented
		}
		r := &row{raw: raw}
		if p.Map {
			r.ident = mapKey(raw)
		}
		k.rows[i] = r
	}
	for _, i := range t.probes {
		if r := k.row(i); r != nil && r.ident != "" {
			k.probe = append(k.probe, probe{i, r.ident})
		}
	}
}

// stat is a field's mean and standard deviation (outliers).
type stat struct{ mean, sd float64 }

// farthest is a record's farthest number from its field's mean: x of f,
// d standard deviations away.
type farthest struct {
	f    *Field
	x, d float64
}

// outliersKnown returns, of the records at, those whose farthest number
// beyond 2σ of the fields of outl (the number an outlier row names) the
// kept largest and smallest numbers tell, without reading the record
// again. A field's numbers in a record are known when the record holds
// a kept largest and a kept smallest one of it (a record's largest and
// smallest under an array; its one value otherwise, kept in either), or
// none: a field whose largest or smallest are not all kept (fewer than
// maxPerWhy) keeps every record's. Any other number of the record lies
// between its field's least kept largest and greatest kept smallest (the
// kept numbers rank first, the earlier record first among equal ones),
// no farther than the farther of the two: the farthest kept number is
// the record's farthest when it is farther than every such bound, and
// no other of its numbers is as far (the record's read would name the
// first of those in its text: such a record is read again, and so is
// one holding a field twice, or a number beyond no bound).
func outliersKnown(outl map[*Field]stat, at map[int]bool) map[int]farthest {
	best := map[int]farthest{}
	tie := map[int]bool{}
	bound := map[int]float64{}
	unknown := map[int]bool{}
	dev := func(st stat, x float64) float64 { return math.Abs(x-st.mean) / st.sd }
	for f, st := range outl {
		hi, lo := &f.sel.hi, &f.sel.lo
		inHi, inLo := map[int]bool{}, map[int]bool{}
		for _, h := range [2]*numHeap{hi, lo} {
			in := inHi
			if h == lo {
				in = inLo
			}
			for _, e := range h.ents {
				if !at[e.rec] {
					continue
				}
				if in[e.rec] {
					unknown[e.rec] = true // the field twice in a record
				}
				in[e.rec] = true
				d := dev(st, e.x)
				b, ok := best[e.rec]
				switch {
				case !ok || d > b.d:
					best[e.rec], tie[e.rec] = farthest{f, e.x, d}, false
				case d == b.d && (b.f != f || b.x != e.x):
					tie[e.rec] = true
				}
			}
		}
		full := len(hi.ents) >= maxPerWhy && len(lo.ents) >= maxPerWhy
		var fb float64
		if full {
			fb = max(dev(st, hi.ents[0].x), dev(st, lo.ents[0].x))
		}
		for i := range at {
			known := inHi[i] && inLo[i] || !f.inArr && (inHi[i] || inLo[i])
			switch {
			case known:
			case full:
				bound[i] = max(bound[i], fb)
			case inHi[i] || inLo[i]:
				unknown[i] = true // (cannot be: every number is kept)
			}
		}
	}
	out := map[int]farthest{}
	for i, b := range best {
		if b.d > 2 && b.d > bound[i] && !tie[i] && !unknown[i] {
			out[i] = b
		}
	}
	return out
}

// maxTail is the most records before the last one tailRows asks for
// (kept by the tracker for every collection: k.text is not known while
// the records are read).
const maxTail = 4

// tailRows is how many records before the last one are rows of the
// end: for a stream of events or log records (jsonl, concat) and
// records with a text of their own (a log as a JSON array), where the
// end is what went wrong last; none for other collections (a list of
// objects whose last record is no outcome).
func tailRows(k *coll) int {
	if k.c.Kind == "jsonl" || k.c.Kind == "concat" || k.text != nil && !k.p.Map {
		return 4
	}
	return 0
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// filePathValue reports whether the JSON string raw is a file name or a path
// (no space; a "/" or a file extension): a word in it ("error.go",
// "cli/failover.c") names a file, not a state.
func filePathValue(raw string) bool {
	body := []byte(raw[1 : len(raw)-1])
	return bytes.IndexByte(body, ' ') < 0 && (bytes.IndexByte(body, '/') >= 0 || extOf(body) != nil)
}

// fewValued reports whether f's values are few: its three commonest
// values cover at least two thirds of them, so that the others are rare
// (license=Python-2.0 beside MIT, ISC and BSD), unlike a field of many
// values each in a few records (funding URLs), where no value stands out.
func fewValued(f *Field) bool {
	var top [3]int
	for _, vs := range f.vals {
		n := vs.n
		for j := range top {
			if n > top[j] {
				top[j], n = n, top[j]
			}
		}
	}
	return (top[0]+top[1]+top[2])*3 >= f.Values*2
}

// medianCount is the count of the value the median value of f has: the
// count of a typical value. A value eight times rarer stands out even
// among many values (a check code of 1 among 111 findings whose typical
// code has 15), unlike one among values that each have a few (funding
// URLs).
func medianCount(f *Field) int {
	ns := make([]int, 0, len(f.vals))
	for _, vs := range f.vals {
		ns = append(ns, vs.n)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ns)))
	sum := 0
	for _, n := range ns {
		if sum += n; sum*2 >= f.Values {
			return n
		}
	}
	return 0
}

// keyed is the reason of one field's value (an anomaly, a rare value):
// its count and where it was first seen.
type keyed struct {
	r          *reason
	count      int
	first, seq int
	// share is the value's share of its field's values, urlish that
	// they are long strings without spaces (rare values only).
	share  float64
	urlish bool
}

// cellsOf returns the values of the columns in the record raw (at most 4
// of each); mask reaches the columns.
func (k *coll) cellsOf(raw []byte, mask []bool) [][][]byte {
	cells := make([][][]byte, len(k.cols))
	p := k.p
	p.leavesOf(raw, mask, func(f *Field, v []byte) {
		if j, ok := k.colIdx[f]; ok && (len(cells[j]) < 4 || censusCell(f)) {
			cells[j] = append(cells[j], v)
		}
	})
	return cells
}

// censusCell reports whether a column's cell counts the record's values
// by value ("attr-quotes×250,no-deprecated-attr×120,…") rather than
// listing its first ones: a field of few values (at most 24, counted)
// inside arrays, records holding several of them. The first values of
// a page's 1,311 messages say which rules it breaks first; the census
// says which it breaks and how often (TestCensusCell).
func censusCell(f *Field) bool {
	return f.inArr && f.Types == tString && f.Counts != nil && f.Distinct >= 2 && f.Distinct <= 24 && f.Values > f.Present
}

// repeats reports whether a value occurs twice in vs (a census of
// values each seen once would only list them).
func repeats(vs [][]byte) bool {
	seen := make(map[string]bool, len(vs))
	for _, v := range vs {
		if seen[string(v)] {
			return true
		}
		seen[string(v)] = true
	}
	return false
}

// maxCensusItems is the most values a census cell names; the others are
// counted ("+3 more values").
const maxCensusItems = 6

// census renders the values vs of one record as a census cell: each
// distinct value with its count, the commonest first (ties in value
// order), at most maxCensusItems, then how many values are left out.
func census(vs [][]byte, width int) string {
	n := map[string]int{}
	for _, v := range vs {
		n[string(v)]++
	}
	keys := make([]string, 0, len(n))
	for v := range n {
		keys = append(keys, v)
	}
	sort.Slice(keys, func(a, b int) bool {
		if n[keys[a]] != n[keys[b]] {
			return n[keys[a]] > n[keys[b]]
		}
		return keys[a] < keys[b]
	})
	var parts []string
	for i, v := range keys {
		if i == maxCensusItems {
			parts = append(parts, fmt.Sprintf("+%d more values", len(keys)-i))
			break
		}
		parts = append(parts, cell(v, width)+"×"+strconv.Itoa(n[v]))
	}
	return strings.Join(parts, ",")
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]*valState) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sortedSet returns the members of the sets in order.
func sortedSet(sets ...map[int]bool) []int {
	var out []int
	for _, s := range sets {
		for i := range s {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// inCell reports whether a row shows field f's value whole in a cell of
// its own: f is a column and a record has at most one value of it. A
// reason then names the field without its value: the cell beside it
// says the value, and a row says each thing once (a row's tokens are
// what decides how many records a view shows).
func (k *coll) inCell(f *Field) bool {
	_, col := k.colIdx[f]
	return col && f.Values <= f.Present
}

// valueWhy names field f with its value raw in a row's reason: the field
// alone when the row's cell shows the value (inCell), "f=value"
// otherwise.
func (k *coll) valueWhy(f *Field, raw string) string {
	if k.inCell(f) {
		return k.short(f)
	}
	return k.short(f) + "=" + cell(raw, 40)
}

// sigmaWhy is an outlier row's reason: field f's number x lies d
// standard deviations from the mean (the profile line states the mean;
// a reason names it where no cell shows x).
func (k *coll) sigmaWhy(f *Field, x string, d, mean float64) string {
	if k.inCell(f) {
		return fmt.Sprintf("%s %.1fσ", k.short(f), d)
	}
	return fmt.Sprintf("%s=%s is %.1fσ from the mean %s", k.short(f), x, d, num(mean))
}

func joinWhy(a, b string) string {

	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "; " + b
}

// row returns the row of record i (nil when it has none), its cells
// rendered on first use.
func (k *coll) row(i int) *row {
	r := k.rows[i]
	if r == nil {
		return nil
	}
	k.rowMu.Lock()
	defer k.rowMu.Unlock()
	if !r.done {
		r.cells, r.ident = k.renderRow(r.raw, k.cellsOf(r.raw, k.colMask))
		r.done = true
	}
	return r
}

// errorLike names the members of a record that say something failed.
var errorLike = mustPathRe(`(?i)err|fail|fault|exception|panic|warn`)

// valuesOf renders field f's values in record i (kept for its row):
// at most two, each cut at 100 characters, "," between.
func (k *coll) valuesOf(i int, f *Field) string {
	r := k.rows[i]
	if r == nil {
		return "-"
	}
	if f.Types == tObject {
		// An object (an Error with its Err message): its scalar
		// members as name: value, within 200 characters.
		var leaves []*Field
		var walk func(g *Field)
		walk = func(g *Field) {
			for _, kid := range g.kids {
				if kid.scalar() && !kid.inArr {
					leaves = append(leaves, kid)
				} else if kid.Types&tObject != 0 {
					walk(kid)
				}
			}
		}
		walk(f)
		sort.Slice(leaves, func(a, b int) bool { return leaves[a].Path < leaves[b].Path })
		var parts []string
		k.p.leavesOf(r.raw, k.p.mask(leaves...), func(g *Field, v []byte) {
			parts = append(parts, strings.TrimPrefix(g.Path, f.Path+".")+": "+cellEnds(string(v), 160))
		})
		if len(parts) == 0 {
			return "{}"
		}
		return cut("{"+strings.Join(parts, ", ")+"}", 240)
	}
	var parts []string
	k.p.leavesOf(r.raw, k.p.mask(f), func(g *Field, v []byte) {
		if g == f && len(parts) < 2 {
			parts = append(parts, cell(string(v), 100))
		}
	})
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

// otherCell is the row's "other" cell: the fields of otherCols record i
// has, as name=value, at most 4 (each value cut at 40 characters, an
// opaque one's head and end kept within 80), "-" for none.
func (k *coll) otherCell(i int) string {
	r := k.rows[i]
	if r == nil {
		return "-"
	}
	vals := map[*Field]string{}
	k.p.leavesOf(r.raw, k.p.mask(k.otherCols...), func(f *Field, v []byte) {
		if _, ok := vals[f]; !ok && !emptyValue(v) {
			if k.opaque(f) {
				// A path's or a URL's end names it: kept.
				vals[f] = cellEnds(string(v), 80)
			} else if freeText(f) {
				vals[f] = cell(string(v), msgWidth) // a log's detail
			} else {
				vals[f] = cell(string(v), 40)
			}
		}
	})
	// The record's rarest members first: what tells it apart from
	// the records of its kind (a PDF's Warning of 2 files before its
	// Producer of 59: TestOtherCellRarestFirst).
	var has []*Field
	for _, f := range k.otherCols {
		if _, ok := vals[f]; ok {
			has = append(has, f)
		}
	}
	sort.SliceStable(has, func(a, b int) bool { return has[a].Present < has[b].Present })
	var parts []string
	for _, f := range has[:min(4, len(has))] {
		parts = append(parts, k.short(f)+"="+vals[f])
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// renderRow renders the cells of the record raw and returns them with
// its identity.
func (k *coll) renderRow(raw []byte, vals [][][]byte) (cells []string, ident string) {
	r := &row{}
	if k.p.Map {
		r.cells = append(r.cells, cut(mapKey(raw), 80))
		r.ident = mapKey(raw)
	}
	for j, f := range k.cols {
		vs := vals[j]
		width := cellWidth
		if f == k.p.Identity {
			width = 100
		}
		if f == k.text {
			width = msgWidth
		}
		var parts []string
		for _, v := range vs[:min(4, len(vs))] {
			parts = append(parts, cell(string(v), width))
		}
		s := strings.Join(parts, ",")
		if f.Values > f.Present && len(vs) >= 4 {
			s += ",…"
		}
		if censusCell(f) && len(vs) > 1 && repeats(vs) {
			s = census(vs, 40)
		}
		if len(vs) == 0 {
			s = "-"
		}
		r.cells = append(r.cells, s)
		if f == k.p.Identity && len(vs) == 1 {
			r.ident = string(vs[0])
		}
	}
	return r.cells, r.ident
}

// addRows adds one candidate per selected record, at the priority of its
// best reason: each reason's first rows in the first round, its others
// in the second; records are interleaved across reasons (the first of
// every reason, then the second of every reason, ...).
func (k *coll) addRows(v *View, sec int) {
	type pick struct {
		rec, prio, rank, why int
	}
	best := map[int]*pick{}
	texts := map[int][]string{}
	extras := map[int][]*Field{}
	inners := map[int][]innerRef{}
	for wi, r := range k.why {
		for rank, i := range r.recs {
			if in, ok := r.inner[i]; ok && len(inners[i]) < 2 && !slices.Contains(inners[i], in) && rank < maxPerWhy {
				inners[i] = append(inners[i], in)
			}
			if f := r.field[i]; f != nil && (f.scalar() || f.Types == tObject) {
				if _, col := k.colIdx[f]; !col && !slices.Contains(extras[i], f) && !slices.Contains(k.otherCols, f) {
					extras[i] = append(extras[i], f)
				}
			}
			prio := r.prio
			quota := firstRound
			switch prio {
			case PrioAnomaly:
				quota = 2 * firstRound
				if r.many {
					quota = firstRound
				}
			case PrioPinned:
				quota = roundRows
			}
			// Pinned rows too: past the first round they wait for the
			// profile's other lines and the index (71 pinned open
			// issues would take every token a profile line or an index
			// line could have).
			if rank >= quota && prio < PrioSecond && prio != PrioEnds {
				prio = PrioSecond
			}
			if prio == PrioEnds && rank >= 2*firstRound+2 {
				// The other extremes: before the index (index.go).
				prio = PrioEnds2
			}
			pk := &pick{i, prio, rank, wi}
			if b := best[i]; b == nil || pk.prio < b.prio || pk.prio == b.prio && pk.rank < b.rank {
				best[i] = pk
			}
			if t := r.text[i]; t != "" && !contains(texts[i], t) && (len(texts[i]) < 3 || t == "last" || strings.HasPrefix(t, "last; ")) {
				texts[i] = append(texts[i], t)
			}
		}
	}
	var picks []*pick
	for _, pk := range best {
		if k.rows[pk.rec] != nil {
			picks = append(picks, pk)
		}
	}
	sort.Slice(picks, func(a, b int) bool {
		x, y := picks[a], picks[b]
		if x.prio != y.prio {
			return x.prio < y.prio
		}
		if x.rank != y.rank {
			return x.rank < y.rank
		}
		if x.why != y.why {
			return x.why < y.why
		}
		return x.rec < y.rec
	})
	// A round holds at most roundRows rows of one priority, whatever the
	// number of reasons (a hundred issues with a rare reaction count
	// each are a hundred reasons): the rest wait for the second round,
	// after the profile's other lines and the index.
	perPrio := map[int]int{}
	later := 0
	for _, pk := range picks {
		if pk.prio == PrioRare {
			perPrio[pk.prio]++
			if perPrio[pk.prio] > roundRows {
				pk.prio = PrioSecond
			}
		}
		if pk.prio == PrioSecond && pk.why == 0 && len(k.c.Pinned) > 0 {
			// The pinned rows past the first round take turns with
			// the index's lines: one after every indexPerPinned of
			// them (index.go ranks its lines by their position).
			pk.prio, pk.rank = PrioIndex, indexPerPinned*(later+1)-1
			later++
		}
	}
	for _, pk := range picks {
		why := texts[pk.rec]
		// The spread is a reason only when there is no other.
		if len(why) > 1 {
			why = remove(why, "spread")
		}
		rec, reason, extra, inner := pk.rec, strings.Join(why, "; "), extras[pk.rec], inners[pk.rec]
		whyOf := func() string {
			why := reason
			var seen []string
			for _, in := range inner {
				// The element the value is in (a failed test among a
				// file's tests), by its own members.
				if e := k.innerOf(rec, in); e != "" && !slices.Contains(seen, e) {
					seen = append(seen, e)
					why += "; " + e
				}
			}
			for _, f := range extra {
				// The value of the field the row is there for, which
				// no column shows: "has configFilePath=… (only 2 of …)".
				short := k.short(f)
				why = strings.Replace(why, "has "+short+" (", "has "+short+"="+k.valuesOf(rec, f)+" (", 1)
			}
			return why
		}
		text := func() string {
			cells := k.row(rec).cells
			why := whyOf()
			if len(k.otherCols) > 0 {
				return strconv.Itoa(rec) + "\t" + strings.Join(cells, "\t") + "\t" + k.otherCell(rec) + "\t" + why
			}
			return strconv.Itoa(rec) + "\t" + strings.Join(cells, "\t") + "\t" + why
		}
		v.Add(Candidate{Section: sec, Key: rec, Record: rec, Prio: pk.prio, Rank: pk.rank, Reason: reason, lazy: &lazyText{make: text}})
		if k.endRows[rec] {
			// An end: the members no cell shows, on a line of their
			// own after the row (json_last.go), so that the row fits
			// where the members do not.
			if rest := k.restLine(rec, whyOf()); rest != "" {
				v.Add(Candidate{Section: sec, Key: rec, Record: -1, Prio: pk.prio, Rank: pk.rank, Reason: "its other members", Text: rest})
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func remove(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// groupSum is the records of one value of the group field and the sums of
// the measures over them.
type groupSum struct {
	n   int
	sum [4]float64
	has [4]int
}

// chooseGroups picks the group field (a state-like field of 2 to 12
// values, outside arrays, in every record) and up to 3 measures (numeric
// fields outside arrays with many values) for the sums per group.
func (k *coll) chooseGroups() {
	p := k.p
	k.groupSums = map[string]*groupSum{}
	for _, f := range p.Fields {
		if f.Counts != nil && f.Distinct >= 2 && f.Distinct <= 12 && f.Present == p.Records && !strings.Contains(f.Path, "[]") && stateNames.MatchString(f.Path) && !k.hidden(f) {
			k.group = f
			break
		}
	}
	if k.group == nil {
		return
	}
	for _, f := range p.Fields {
		if len(k.measures) < 3 && f != p.Identity && f.ownNumbers() > 0 && f.ownNumbers() == f.Values-f.Nulls && f.Distinct > 12 && !strings.Contains(f.Path, "[]") && !k.hidden(f) &&
			!strings.HasSuffix(strings.ToLower(f.Path), "id") && !epochField(f) && !refNumber(f.Path) && !codeNumber(f.Path) {
			// (the sums of lines, offsets or codes per group say
			// nothing)
			k.measures = append(k.measures, f)
		}
	}
	if len(k.measures) == 0 {
		k.group = nil
	}
}

// groupLines are the sums of each measure per value of the group field.
func (k *coll) groupLines() []string {
	if k.group == nil || len(k.groupSums) == 0 {
		return nil
	}
	keys := make([]string, 0, len(k.groupSums))
	for v := range k.groupSums {
		keys = append(keys, v)
	}
	sort.Slice(keys, func(i, j int) bool {
		if k.groupSums[keys[i]].n != k.groupSums[keys[j]].n {
			return k.groupSums[keys[i]].n > k.groupSums[keys[j]].n
		}
		return keys[i] < keys[j]
	})
	var out []string
	for mi, m := range k.measures {
		if k.groupMaxOf[m] {
			continue // (with its extremes: groupmax.go)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "  %s by %s:", m.Path, k.group.Path)
		// A value whose records never have the measure has no sum
		// ("verbose 3,831 records sum 0" of yarn's progress counter,
		// which only its progressTick records carry): those values
		// are named after the sums. A value some of whose records
		// lack it says how many have it.
		var none []string
		n := 0
		for _, v := range keys {
			g := k.groupSums[v]
			if g.has[mi] == 0 {
				none = append(none, cell(v, 30))
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			if g.has[mi] < g.n {
				fmt.Fprintf(&b, " %s %s records (%s have it) sum %s", cell(v, 30), commas(g.n), commas(g.has[mi]), sumText(g.sum[mi]))
			} else {
				fmt.Fprintf(&b, " %s %s records sum %s", cell(v, 30), commas(g.n), sumText(g.sum[mi]))
			}
		}
		if n == 0 {
			continue
		}
		if len(none) > 0 {
			fmt.Fprintf(&b, "; no record of %s has it", strings.Join(none, ", "))
		}
		out = append(out, b.String())
	}
	return out
}

// fieldSel is what the selection of rows gathers about one field during
// the profile's pass (fields the rules drop have none).
type fieldSel struct {
	// firstRecs are the first records that have the field (outside
	// arrays): the candidates for "has a field most records lack".
	firstRecs []int
	// lackRecs are the first records (at most maxLack) that lack the
	// field and that are kept (noteLack): the candidates for "lacks a
	// field nearly every record has" (lacksField).
	lackRecs []int
	// hi and lo are the largest and the smallest numbers (of a field
	// under an array, each record's largest and smallest): the
	// candidates for outliers, whose mean is known only at the end.
	hi, lo numHeap
	// recMax and recMin are the current record's (recAt-1) largest and
	// smallest numbers of a field under an array.
	recMax, recMin float64
	recAt          int
	// exit: the name says a value other than 0 is a failure; exitVals
	// are its non-zero values once it has too many to count each.
	exit     bool
	exitVals map[string]*valState
	// gslot and mslot index the field among the group and measure
	// candidates (-1: not one).
	gslot, mslot int
	// gcap is groupValuesCap of a group candidate, decided once (by
	// its name) when the field is first seen, not at every record.
	gcap int
	// idName: the field's name ends in "id" (no measure).
	idName bool
	// lastKind: a group field named like a kind, whose values' last
	// records are noted (groupValue, json_last.go).
	lastKind bool
}

// maxExitValues caps the non-zero values of an exit-code field followed
// past maxValues.
const maxExitValues = 256

// numEnt is a number and the record holding it.
type numEnt struct {
	x   float64
	rec int
	raw []byte
}

// numHeap keeps the maxPerWhy numbers that rank first (the largest, or
// the smallest when low), the earlier record first among equal numbers.
// While the records are read it gathers candidates, up to 2*maxPerWhy,
// then keeps the maxPerWhy that rank first (cut) and raises its bar to
// the last of them: a number is one comparison, and one append when it
// passes, even in a field whose every record holds a new largest (an id,
// a time). settle leaves the maxPerWhy first, ents[0] ranking last.
type numHeap struct {
	low  bool
	full bool    // a cut kept maxPerWhy numbers
	bar  float64 // then the last of them: a new number must pass it
	ents []numEnt
	// spare are the texts of cut numbers, copies of records (not
	// slices of the input), to reuse.
	spare [][]byte
}

// worse reports whether a ranks after b.
func (h *numHeap) worse(a, b *numEnt) bool {
	if a.x != b.x {
		return a.x < b.x != h.low
	}
	return a.rec > b.rec
}

// push offers x of record rec (records come in order, so an equal
// number ranks after those kept); t holds the record's text.
func (h *numHeap) push(x float64, rec int, t *tracker) {
	if h.rejects(x) {
		return
	}
	var buf []byte
	if n := len(h.spare); n > 0 && !t.alias {
		buf, h.spare = h.spare[n-1], h.spare[:n-1]
	}
	h.ents = append(h.ents, numEnt{x, rec, t.hold(buf)})
	if len(h.ents) >= 2*maxPerWhy {
		h.cut(t)
	}
}

// rejects reports whether push drops x, as it will whenever x is offered
// again (the bar only rises, for the largest, or falls).
func (h *numHeap) rejects(x float64) bool {
	return h.full && (x == h.bar || x < h.bar != h.low)
}

// cut keeps the maxPerWhy entries that rank first (in no order) and
// sets the bar to the last of them.
func (h *numHeap) cut(t *tracker) {
	if len(h.ents) < maxPerWhy {
		return
	}
	e := h.ents
	last := -1 // (the entry kept that ranks last)
	if w := h.newFirst(e); w >= 0 {
		// The numbers offered since the cut before all rank before
		// those kept (a field whose every record holds a new largest:
		// an id, a time): they are the ones the quickselect keeps (the
		// first maxPerWhy of a strict order: the same ones, in another
		// order, which settle sorts), found with no selection: the
		// old ones' texts are kept to reuse, then the new ones moved
		// over them.
		h.spareOf(t, e[:maxPerWhy])
		copy(e, e[maxPerWhy:])
		last = w - maxPerWhy
	} else {
		h.selectFirst(e)
		last = 0
		for i := 1; i < maxPerWhy; i++ {
			if h.worse(&e[i], &e[last]) {
				last = i
			}
		}
		h.spareOf(t, e[maxPerWhy:])
	}
	h.full, h.bar = true, e[last].x
	clear(e[maxPerWhy:])
	h.ents = e[:maxPerWhy]
}

// spareOf keeps the texts of the entries e, cut, that are copies of
// records (not slices of the input), to reuse.
func (h *numHeap) spareOf(t *tracker, e []numEnt) {
	for _, d := range e {
		if t != nil && d.raw != nil && !within(t.data, d.raw) {
			h.spare = append(h.spare, d.raw[:0])
		}
	}
}

// newFirst returns, when e holds 2*maxPerWhy entries and every one of
// e[maxPerWhy:] ranks before every one of e[:maxPerWhy], the index of
// the one of e[maxPerWhy:] that ranks last; else -1.
func (h *numHeap) newFirst(e []numEnt) int {
	if len(e) != 2*maxPerWhy {
		return -1
	}
	w := maxPerWhy // the new one ranking last
	for i := maxPerWhy + 1; i < len(e); i++ {
		if h.worse(&e[i], &e[w]) {
			w = i
		}
	}
	f := 0 // the old one ranking first
	for i := 1; i < maxPerWhy; i++ {
		if h.worse(&e[f], &e[i]) {
			f = i
		}
	}
	if !h.worse(&e[f], &e[w]) {
		return -1
	}
	return w
}

// selectFirst moves the maxPerWhy entries of e that rank first to
// e[:maxPerWhy] (a quickselect).
func (h *numHeap) selectFirst(e []numEnt) {
	lo, hi, k := 0, len(e)-1, maxPerWhy-1
	for lo < hi {
		m := lo + (hi-lo)/2
		// The median of three as the pivot, moved to hi.
		if h.worse(&e[lo], &e[m]) {
			e[lo], e[m] = e[m], e[lo]
		}
		if h.worse(&e[lo], &e[hi]) {
			e[lo], e[hi] = e[hi], e[lo]
		}
		if h.worse(&e[hi], &e[m]) {
			e[hi], e[m] = e[m], e[hi]
		}
		p := lo
		for i := lo; i < hi; i++ {
			if h.worse(&e[hi], &e[i]) {
				e[i], e[p] = e[p], e[i]
				p++
			}
		}
		e[p], e[hi] = e[hi], e[p]
		switch {
		case p == k:
			lo, hi = k, k
		case p < k:
			lo = p + 1
		default:
			hi = p - 1
		}
	}
}

// settle leaves the maxPerWhy numbers that rank first, in order, the
// one that ranks last first (ents[0]).
func (h *numHeap) settle(t *tracker) {
	h.cut(t)
	sort.Slice(h.ents, func(i, j int) bool { return h.worse(&h.ents[i], &h.ents[j]) })
	h.spare = nil
}

// hit is a record that matches words of the request.
type hit struct {
	rec  int
	mask uint32
}

// gsum is the records of one value of a group candidate and the sums of
// the measure candidates over them (indexed by mslot).
type gsum struct {
	n   int
	sum []float64
	has []int
	// max, maxRec and maxRaw are, per measure, the largest number of
	// the value's records, the first record holding it and its text.
	max    []float64
	maxRec []int
	maxRaw [][]byte
}

// tracker gathers, in the profile's one pass over the records, what the
// selection of rows needs besides the profile: per value of a field with
// few values its first records, the largest and smallest numbers of each
// field with their records, the first records having each field, the
// records matching the request, the sums per group, and the text of
// every record a reason may choose (a slice of the input, or a copy when
// the collection's records are not: members of a map). Everything it
// keeps is bounded by the caps (maxPerWhy per value, field and reason,
// maxFields, maxValues), not by the number of records.
type tracker struct {
	k    *coll
	data []byte
	// The record being added.
	rec   int
	raw   []byte
	alias bool
	kept  bool
	// prevRaw is the record before it (record rec-1) when its text is
	// a slice of the input (free to keep), else nil.
	prevRaw []byte
	// mkey and mvalue are the key (quoted) and the value of a map's
	// record (beginMap), whose text raw is nil when not made yet.
	mkey, mvalue []byte
	// raws are the records kept for the second look.
	raws map[int][]byte
	// want are the records chosen in advance (first, last, spread,
	// pinned, probes), in order; wi is the next.
	want   []int
	wi     int
	probes []int
	// The request's words, their document frequencies, the matches.
	terms []string
	df    []int
	hits  []hit
	lower []byte
	// Group and measure candidates (chooseGroups picks among them);
	// anyGroups counts those not named like a state or a kind.
	anyGroups int
	groups    []*Field
	gactive   []bool
	gon       int // the active groups (gactive)
	gval      [][]byte
	// gvs holds the state of each group's value in the record
	// (Field.lastVal when groupValue was called, nil when the field
	// has too many values): its gsum, once found, is kept with it
	// (valState.gs) and found again with no map lookup.
	gvs      []*valState
	measures []*Field
	mval     []float64
	mset     []int // 1 + the record mval was set in
	mtouched []int
	// arrNums are the fields under arrays with numbers in the record.
	arrNums []*Field
	sums    []map[string]*gsum
}

// newTracker returns the tracker of collection k.
func newTracker(k *coll) *tracker {
	n := k.c.Count
	t := &tracker{k: k, data: k.in.Data, raws: map[int][]byte{}, terms: requestTerms(k.in.Args)}
	t.df = make([]int, len(t.terms))
	want := map[int]bool{}
	if n > 0 {
		want[0], want[n-1] = true, true
		for i := n - 2; i >= max(1, n-1-maxTail); i-- {
			want[i] = true // (tailRows: those of a stream's end)
		}
	}
	for _, i := range spreadOrder(n, maxSpread) {
		want[i] = true
	}
	for _, i := range k.c.Pinned {
		want[i] = true
	}
	probes := map[int]bool{}
	for _, i := range []int{n / 2, n / 3, 2 * n / 3, n / 4, 3 * n / 4} {
		if i < n {
			probes[i], want[i] = true, true
		}
	}
	t.want, t.probes = sortedSet(want), sortedSet(probes)
	return t
}

// keyList keeps the keys of a keyed collection that keysLine shows: all
// while they are short, else the first 25 and the last 25 (a window of
// reused buffers, so that a key allocates nothing).
type keyList struct {
	keys     []string
	n, total int
	// window holds the last keys, oldest first at next: slices of the
	// input, or of own (a reused buffer per place) for a key that is
	// not (escaped, or read from a buffer).
	window [][]byte
	own    [][]byte
	next   int
	// pres counts every key with a "/" by the part before it (media
	// types, paths), exactly, until it has too many kinds (preDone).
	pres    map[string]*int
	preDone bool
	// seg counts the keys by their first one and two segments (up to
	// and with the first or second "_", "." or "-": "HAVE_", "0.19."),
	// exactly, until there are too many kinds (segDone).
	seg     [2]map[string]*int
	segDone [2]bool
	// lastSeg and lastN are the kind each depth counted last and its
	// count: keys in order mostly share their segments ("0.0.0-"), and
	// such a key is counted without a map lookup. pair: both are the
	// last key's (it has two segments).
	lastSeg [2][]byte
	lastN   [2]*int
	pair    bool
	// pairW and pairMask are lastSeg[1] as a little-endian word and the
	// mask of its bytes, when it has at most 8 (else 0).
	pairW, pairMask uint64
	// fed says the keys are those of a fed map (FedColl): past the
	// first keys the window is not kept as they come (stale), but made
	// once from the map's text when the walk has ended (FedColl.take:
	// lastKeys).
	fed, stale bool
}

// segPrefix is key up to and with its d-th "_", "." or "-" (d from 1),
// or nil when it has fewer or starts with one.
func segPrefix(key []byte, d int) []byte {
	for i, c := range key {
		if c == '_' || c == '.' || c == '-' {
			if i == 0 {
				return nil
			}
			if d--; d == 0 {
				return key[:i+1]
			}
		}
	}
	return nil
}

// segments returns the counts of the keys by their first d segments
// (d is 1 or 2), or nil when there are too many kinds.
func (l *keyList) segments(d int) map[string]int { return kindCounts(l.seg[d-1], l.segDone[d-1]) }

// prefixes returns the counts of the keys' parts before the first "/",
// or nil when there are too many kinds to list.
func (l *keyList) prefixes() map[string]int { return kindCounts(l.pres, l.preDone) }

// list returns the keys kept.
func (l *keyList) list() []string {
	if l.window == nil {
		return l.keys
	}
	out := append([]string(nil), l.keys...)
	// The window holds the last keys, some of them among the first
	// ones while there are under twice as many: only those after.
	w := len(l.window)
	for i := w - min(w, l.n-len(l.keys)); i < w; i++ {
		out = append(out, string(l.window[(l.next+i)%w]))
	}
	return out
}

// add adds the key of a map's record: quoted is its text as written,
// with its quotes; stable says it stays unchanged (a slice of the
// input), so that the window may keep it without a copy.
func (l *keyList) add(quoted []byte, stable bool) {
	l.addKey(quoted, bytes.IndexByte(quoted[1:len(quoted)-1], '\\') >= 0, stable)
}

// addKey is add of a key known to hold an escape (esc) or not.
func (l *keyList) addKey(quoted []byte, esc, stable bool) {
	k := quoted[1 : len(quoted)-1]
	if esc {
		k = []byte(unquote(quoted))
		stable = false
	}
	l.n++
	l.total += len(k) + 2
	if !l.preDone {
		if i := bytes.IndexByte(k, '/'); i >= 0 && bytes.IndexByte(k, ' ') < 0 {
			l.pres, l.preDone = countKindBytes(l.pres, k[:i])
		}
	}
	if !l.segDone[0] || !l.segDone[1] {
		if l.pair && l.pairMask != 0 && len(k) >= 8 && (binary.LittleEndian.Uint64(k)^l.pairW)&l.pairMask == 0 {
			// (addSegments' first case, without its call: the two
			// segments of the key before)
			*l.lastN[0]++
			*l.lastN[1]++
		} else {
			l.addSegments(k)
		}
	}
	if l.stale {
		return // (the window is made at the end: fed)
	}
	if l.window == nil {
		if len(l.keys) < 25 || l.total < 1500 {
			l.keys = append(l.keys, string(k))
			return
		}
		if l.fed {
			// The window of the last 25 keys is made when the walk
			// has ended (lastKeys).
			l.window, l.keys, l.next, l.stale = make([][]byte, 25), l.keys[:25], 0, true
			return
		}
		// From now on the first 25 and a window of the last 25.
		for _, k := range l.keys[len(l.keys)-24:] {
			l.window = append(l.window, []byte(k))
		}
		l.window = append(l.window, nil)
		l.own = make([][]byte, len(l.window))
		l.keys = l.keys[:25]
		l.next = len(l.window) - 1
	}
	if !stable {
		l.own[l.next] = append(l.own[l.next][:0], k...)
		k = l.own[l.next]
	}
	l.window[l.next] = k
	if l.next++; l.next == len(l.window) {
		l.next = 0
	}
}

// addSegments counts key by its first one and two segments (segPrefix:
// up to and with its first and second "_", "." or "-"), found in one
// pass; a key that shares its segments with the key before (keys in
// order mostly do: "0.0.0-") is counted without a map.
func (l *keyList) addSegments(key []byte) {
	if l.pair && (l.pairMask != 0 && len(key) >= 8 && (binary.LittleEndian.Uint64(key)^l.pairW)&l.pairMask == 0 ||
		l.pairMask == 0 && len(key) >= len(l.lastSeg[1]) && string(key[:len(l.lastSeg[1])]) == string(l.lastSeg[1])) {
		// The two segments of the key before (pair): the same
		// separators at the same places.
		*l.lastN[0]++
		*l.lastN[1]++
		return
	}
	l.pair = false
	if len(key) == 0 || isSep[key[0]] {
		return
	}
	var end [2]int
	d := 0
	for i := 1; i < len(key); i++ {
		if isSep[key[i]] {
			end[d] = i + 1
			if d++; d == 2 {
				break
			}
		}
	}
	for d := range end {
		if end[d] == 0 || l.segDone[d] {
			continue
		}
		p := key[:end[d]]
		if l.lastN[d] != nil && len(p) == len(l.lastSeg[d]) && string(p) == string(l.lastSeg[d]) {
			*l.lastN[d]++
			continue
		}
		l.seg[d], l.segDone[d] = countKindBytes(l.seg[d], p)
		if !l.segDone[d] {
			l.lastSeg[d], l.lastN[d] = append(l.lastSeg[d][:0], p...), l.seg[d][string(p)]
		}
	}
	l.pair = end[1] != 0 && !l.segDone[0] && !l.segDone[1]
	// The two segments as a word and its mask, when they fit in one
	// (then the next key is compared by its first word).
	l.pairW, l.pairMask = 0, 0
	if p := l.lastSeg[1]; l.pair && len(p) <= 8 {
		for j := len(p) - 1; j >= 0; j-- {
			l.pairW, l.pairMask = l.pairW<<8|uint64(p[j]), l.pairMask<<8|0xff
		}
	}
}

// isSep marks the bytes that end a key's segment.
var isSep = [256]bool{'_': true, '.': true, '-': true}

// begin starts record i, whose text starts raw (see beginRecord).
func (t *tracker) begin(i int, raw []byte) {
	t.mkey = nil
	t.open(i, raw)
}

// beginMap starts record i of a map: the member whose name is key (its
// quoted text) and whose value is val (its JSON text); text is the
// record's whole text when known ({"key": value}), else nil: made from
// key and val only when kept or read (hold).
func (t *tracker) beginMap(i int, key, val, text []byte) {
	k := t.k
	k.keys.add(key, within(t.data, key))
	if m := k.smap; m != nil && !m.off {
		m.add(key, val) // json_map.go
	}
	if m := k.tuples; m != nil && !m.off {
		m.add(key, val) // json_tuple.go
	}
	t.mkey, t.mvalue = key, val
	t.open(i, text)
}

// noEntry notes a record of a map profile that is no map's member (no
// key): the map is not one of scalars or of lists.
func (t *tracker) noEntry() {
	if t.k.smap != nil {
		t.k.smap.off, t.k.smap.entries = true, nil
	}
	if t.k.tuples != nil {
		t.k.tuples.off = true
	}
}

// open starts record i, whose text is raw (nil: a map's, made later).
func (t *tracker) open(i int, raw []byte) {
	if t.rec != i-1 {
		t.prevRaw = nil
	}
	t.rec, t.raw, t.kept = i, raw, false
	t.alias = within(t.data, raw)
	if t.wi < len(t.want) {
		t.wanted(i)
	}
}

// wanted keeps record i, the current one, when it is wanted (want).
func (t *tracker) wanted(i int) {
	for t.wi < len(t.want) && t.want[t.wi] < i {
		t.wi++
	}
	if t.wi < len(t.want) && t.want[t.wi] == i {
		t.keep()
	}
}

// maxLack is the most records lacking a field that lacksField names
// (the records without a license among 800 components: 11).
const maxLack = 12

// noteLack notes that records from to to-1 lack field f (it was seen
// before from, or never, and is seen again in record to), keeping those
// whose text is at hand for free: the record right before (prevRaw, a
// slice of the input) and the records kept already (the first one, the
// ends, the spread). A longer run of records without the field is a
// field of some records only: not noted.
func (t *tracker) noteLack(f *Field, from, to int) {
	if to-from > 2 {
		return
	}
	for i := from; i < to && len(f.sel.lackRecs) < maxLack; i++ {
		if _, ok := t.raws[i]; !ok {
			if i != to-1 || t.prevRaw == nil {
				continue
			}
			t.raws[i] = t.prevRaw
		}
		f.sel.lackRecs = append(f.sel.lackRecs, i)
	}
}

// mapRecord appends to buf the record of a map's member whose name is
// key (quoted) and whose value is val: {"key":value}, as Each makes it.
func mapRecord(buf, key, val []byte) []byte {
	return append(append(append(append(append(buf, '{'), key...), ':'), val...), '}')
}

// end finishes the record, whose whole text is raw (nil: a map's record
// begun by beginMap with no text): the words of the request in it, the
// sums per group.
func (t *tracker) end(raw []byte) {
	t.raw = raw
	if t.alias {
		if t.kept {
			t.raws[t.rec] = raw // begin may have had only its start
		}
		t.prevRaw = raw
		if raw == nil {
			t.prevRaw = nil
		}
	} else {
		t.prevRaw = nil
	}
	if len(t.terms)|t.gon|len(t.mtouched)|len(t.arrNums) == 0 {
		return // (no words asked for, no group, no number under an array)
	}
	t.endMore()
}

// endMore is end's work for the words of the request, the groups' sums
// and the numbers under arrays of the record.
func (t *tracker) endMore() {
	if len(t.terms) > 0 {
		raw := t.raw
		if raw == nil {
			t.lower = t.hold(t.lower)
		} else {
			t.lower = append(t.lower[:0], raw...)
		}
		t.lower = bytes.ToLower(t.lower)
		var mask uint32
		for j, term := range t.terms {
			if bytes.Contains(t.lower, []byte(term)) {
				mask |= 1 << j
				t.df[j]++
			}
		}
		if mask != 0 && len(t.hits) < 2000 {
			t.hits = append(t.hits, hit{t.rec, mask})
			t.keep()
		}
	}
	for g, f := range t.groups {
		if t.gon == 0 {
			break // (no active group left)
		}
		if !t.gactive[g] {
			continue
		}
		if f.lastRec != t.rec || f.tooMany || f.Distinct > f.sel.gcap {
			t.gactive[g], t.sums[g] = false, nil // not a group field
			t.gon--
			continue
		}
		v := t.gval[g]
		if v == nil {
			continue
		}
		var s *gsum
		vs := t.gvs[g]
		if vs != nil {
			s = vs.gs
		}
		if s == nil {
			s = t.sums[g][string(v)]
			if s == nil {
				s = &gsum{}
				t.sums[g][string(v)] = s
			}
			if vs != nil {
				vs.gs = s
			}
		}
		s.n++
		for _, m := range t.mtouched {
			if m >= anyGroupMeasures && f.sel.gcap == maxAnyGroupValues {
				continue // (a group by no state or kind name: its first numbers only)
			}
			for len(s.sum) <= m {
				s.sum, s.has = append(s.sum, 0), append(s.has, 0)
				s.max, s.maxRec, s.maxRaw = append(s.max, 0), append(s.maxRec, -1), append(s.maxRaw, nil)
			}
			s.sum[m] += t.mval[m]
			s.has[m]++
			if s.has[m] == 1 || t.mval[m] > s.max[m] {
				s.max[m], s.maxRec[m] = t.mval[m], t.rec
				s.maxRaw[m] = t.hold(s.maxRaw[m])
			}
		}
		t.gval[g], t.gvs[g] = nil, nil
	}
	t.mtouched = t.mtouched[:0]
	for _, f := range t.arrNums {
		f.sel.hi.push(f.sel.recMax, t.rec, t)
		f.sel.lo.push(f.sel.recMin, t.rec, t)
	}
	t.arrNums = t.arrNums[:0]
}

// profileRecords runs the profile (and the tracker) over every record:
// an array's or a stream's in the profile's own walk when the
// collection's text is known, else through Each.
func (k *coll) profileRecords() error {
	c := k.c
	array := c.Kind == "array"
	if c.Kind == "map" && within(k.in.Data, c.Text) {
		return k.profileMap()
	}
	if !array && c.Kind != "jsonl" && c.Kind != "concat" || !within(k.in.Data, c.Text) {
		return c.Each(func(i int, raw []byte) error { k.p.Add(i, raw); return nil })
	}
	if k.p.Map {
		// Records keyed by their one member's name (KeyedByName).
		n := 0
		err := k.eachRecord(func(i int, raw []byte) error { k.p.Add(i, raw); n++; return nil })
		if err == nil && n != c.Count {
			err = fmt.Errorf("%s records read, the collection has %s", commas(n), commas(c.Count))
		}
		return err
	}
	// Read in the whole output, not only the collection's text: a record
	// begun holds the text from its start to the output's end, as when
	// level 1's walk feeds the profile (feed.go).
	off := offsetIn(k.in.Data, c.Text)
	s := jscan{d: k.in.Data, pos: off}
	end := off + len(c.Text)
	s.ws()
	if array {
		if s.peek() != '[' {
			return fmt.Errorf("the collection's text is not an array")
		}
		s.pos++
	}
	k.p.startCapture(k.in.Data) // leafcap.go
	n := 0
	for {
		s.ws()
		if s.pos >= end || array && s.peek() == ']' {
			break
		}
		k.p.addAt(n, &s)
		n++
		s.ws()
		if array && s.peek() == ',' {
			s.pos++
		}
	}
	if n != c.Count {
		return fmt.Errorf("%s records read, the collection has %s", commas(n), commas(c.Count))
	}
	return nil
}

// profileMap is profileRecords for a map whose text is known (one
// object): its members are read from the text in one walk, each the
// record {"key": value} Each would make (EachRecord walked the whole
// input again to find them), made only when kept.
func (k *coll) profileMap() error {
	c := k.c
	s := jscan{d: c.Text}
	s.ws()
	if s.peek() != '{' {
		return fmt.Errorf("the collection's text is not an object")
	}
	s.pos++
	if k.smap != nil && c.Count > maxMapEntries {
		// A map of more entries is never shown as a map of scalars
		// (json_map.go): its entries are not gathered.
		k.smap.off = true
	}
	n := 0
	s.eachEntry(func(key []byte) bool {
		k.p.addMapRecord(n, key, &s)
		n++
		return true
	})
	if n != c.Count {
		return fmt.Errorf("%s records read, the collection has %s", commas(n), commas(c.Count))
	}
	return nil
}

// addMapRecord is Profile.Add for the record i of a map: the member
// whose name is key (quoted) and whose value is at s, read in place (no
// record {"key":value} is made unless kept); s moves past it. (Keep it
// in step with Add.)
func (p *Profile) addMapRecord(i int, key []byte, s *jscan) {
	vs := s.pos
	s.skipValue()
	p.beginMapRecord(i, key, s.d[vs:s.pos], nil)
	v := jscan{d: s.d, pos: vs}
	p.value(&v, p.root, i, 0)
	p.endRecord(nil)
}

// eachRecord calls fn with every record: an array's or a stream's read
// from the collection's text when it is known, else through Each.
func (k *coll) eachRecord(fn func(i int, raw []byte) error) error {
	c := k.c
	array := c.Kind == "array"
	if !array && c.Kind != "jsonl" && c.Kind != "concat" || !within(k.in.Data, c.Text) {
		return c.Each(fn)
	}
	return k.walkRecords(func(i int, s *jscan) error {
		start := s.pos
		s.skipValue()
		return fn(i, s.d[start:s.pos])
	})
}

// eachRecordLeaves calls, for every record in order, begin(i) (false:
// stop before record i), leaf with each of its scalar values in mask
// and their fields (as leavesOf), and end(i, raw) with its whole text
// (an error stops the walk and is returned; errStop is not). An array's
// or a stream's records are read from the collection's text in one walk
// that finds each record's end as it reads its values; others come
// through Each (a map's records in a reused buffer).
func (k *coll) eachRecordLeaves(mask []bool, begin func(i int) bool, leaf func(*Field, []byte), end func(i int, raw []byte) error) error {
	c := k.c
	array := c.Kind == "array"
	var err error
	if !array && c.Kind != "jsonl" && c.Kind != "concat" || !within(k.in.Data, c.Text) {
		err = c.Each(func(i int, raw []byte) error {
			if !begin(i) {
				return errStop
			}
			k.p.leavesOf(raw, mask, leaf)
			return end(i, raw)
		})
	} else if ok, rerr := k.replayLeaves(mask, begin, leaf, end); ok {
		err = rerr // the leaves the profile's pass kept (leafcap.go)
	} else {
		err = k.walkRecords(func(i int, s *jscan) error {
			if !begin(i) {
				return errStop
			}
			start := s.pos
			if k.p.Map {
				// Records keyed by their one member's name
				// (KeyedByName): their values' leaves.
				s.skipValue()
				k.p.leavesOf(s.d[start:s.pos], mask, leaf)
			} else {
				k.p.walk(s, k.p.root, mask, leaf)
			}
			return end(i, s.d[start:s.pos])
		})
	}
	if err == errStop {
		return nil
	}
	return err
}

// walkRecords calls fn with s at the start of each record of an array's
// or a stream's text (c.Text); fn moves s past the record.
func (k *coll) walkRecords(fn func(i int, s *jscan) error) error {
	array := k.c.Kind == "array"
	s := jscan{d: k.c.Text}
	s.ws()
	if array {
		s.pos++ // '['
	}
	for i := 0; ; i++ {
		s.ws()
		if s.pos >= len(s.d) || array && s.peek() == ']' {
			return nil
		}
		start := s.pos
		if err := fn(i, &s); err != nil {
			return err
		}
		if s.pos == start {
			s.skipValue()
		}
		s.ws()
		if array && s.peek() == ',' {
			s.pos++
		}
	}
}

// keep keeps the current record for the second look.
func (t *tracker) keep() {
	if !t.kept {
		t.kept = true
		t.raws[t.rec] = t.hold(nil)
	}
}

// hold returns the current record's text: the record itself when it is a
// slice of the input, else a copy in buf.
func (t *tracker) hold(buf []byte) []byte {
	if t.alias {
		return t.raw
	}
	if t.raw == nil && t.mkey != nil {
		return mapRecord(buf[:0], t.mkey, t.mvalue) // (a map's record)
	}
	return append(buf[:0], t.raw...)
}

// within reports whether b is a slice of data (then it stays valid and
// unchanged while data does).
func within(data, b []byte) bool {
	if len(b) == 0 || len(data) == 0 {
		return false
	}
	d, p := uintptr(unsafe.Pointer(unsafe.SliceData(data))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p >= d && p+uintptr(len(b)) <= d+uintptr(len(data))
}

// readEveryKept makes selectRows read again every record kept among the
// largest and smallest numbers, as it did before it read only those
// beyond 2σ (TestOutliersReadOnlyBeyond compares the two).
var readEveryKept = false

// offsetIn returns the offset of b in data, or -1 when b is not a
// non-empty slice of data.
func offsetIn(data, b []byte) int {
	if !within(data, b) {
		return -1
	}
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(data))))
}

// newField sets up the selection state of a new field.
func (t *tracker) newField(f *Field) {
	if t.k.dropped(f) {
		// Nothing of its values is shown (hidden), unless it is the
		// identity the registry names.
		f.bare = !slices.ContainsFunc(t.k.in.Identity, func(id string) bool { return strings.TrimPrefix(id, ".") == f.Path })
		return
	}
	f.sel = &fieldSel{gslot: -1, mslot: -1, exit: exitName(f.Path),
		hi: numHeap{}, lo: numHeap{low: true}, idName: strings.HasSuffix(strings.ToLower(f.Path), "id")}
	// A group field is in every record, so it appears in the first:
	// one named like a state or a kind, and the first maxAnyGroups
	// other members of the record itself (groupmax.go), each followed
	// while it has few values.
	named := stateNames.MatchString(f.Path) || kindNames.MatchString(f.Path) || kindGroup(f)
	if !f.inArr && t.k.p.Records == 1 && (named || t.anyGroups < maxAnyGroups && f.parent == t.k.p.root) {
		if !named {
			t.anyGroups++
		}
		f.sel.gslot, f.sel.gcap, f.group = len(t.groups), groupValuesCap(f), true
		f.sel.lastKind = kindNames.MatchString(f.Path)
		t.groups = append(t.groups, f)
		t.gactive = append(t.gactive, true)
		t.gon++
		t.gval = append(t.gval, nil)
		t.gvs = append(t.gvs, nil)
		t.sums = append(t.sums, map[string]*gsum{})
	}
}

// newValue notes a new value of a field with few values.
func (t *tracker) newValue(f *Field, vs *valState, raw []byte) {
	if raw[0] == '"' && len(raw) < 120 && errWord(string(raw)) {
		vs.errWord = 1
	}
	vs.exitValue = f.sel.exit && nonZero(raw)
	// Past 24 values none of the field's values is rare: only those
	// that say an error (or are non-zero exit codes) keep records (the
	// values seen before are looked at once, then each new one).
	if len(f.vals) > 24 {
		if len(f.vals) == 25 {
			for _, o := range f.vals {
				if o.errWord <= 0 && !o.exitValue && !o.noRecs {
					o.noRecs, o.recsDone, o.recs = true, true, nil
				}
			}
		} else if vs.errWord <= 0 && !vs.exitValue {
			vs.noRecs, vs.recsDone, vs.recs = true, true, nil
		}
	}
}

// tooMany notes that f has too many values to count each: an exit-code
// field keeps following its non-zero values.
func (t *tracker) tooMany(f *Field) {
	if !f.sel.exit {
		return
	}
	f.sel.exitVals = map[string]*valState{}
	for k, vs := range f.vals {
		if vs.exitValue {
			f.sel.exitVals[k] = vs
		}
	}
}

// exitValue notes a value of an exit-code field with many values.
func (t *tracker) exitValue(f *Field, raw []byte) {
	vs := f.sel.exitVals[string(raw)]
	if vs == nil {
		if len(f.sel.exitVals) >= maxExitValues || !nonZero(raw) {
			return
		}
		vs = &valState{first: t.rec, seq: t.k.p.seq, exitValue: true}
		f.sel.exitVals[string(raw)] = vs
	}
	if vs.last != t.rec+1 && len(vs.recs) < maxPerWhy {
		vs.recs = append(vs.recs, t.rec)
		vs.last = t.rec + 1
		t.keep()
	}
}

// number notes the number x of f in the current record.
func (t *tracker) number(f *Field, x float64) {
	s := f.sel
	if f.inArr {
		// A record's largest and smallest numbers of a field under an
		// array are offered at its end (tracker.end), so that the kept
		// numbers are of distinct records.
		if s.recAt != t.rec+1 {
			s.recAt, s.recMax, s.recMin = t.rec+1, x, x
			t.arrNums = append(t.arrNums, f)
		} else {
			s.recMax, s.recMin = max(s.recMax, x), min(s.recMin, x)
		}
	} else {
		// (push's test first, without its call: most numbers are
		// dropped by both)
		if !s.hi.rejects(x) {
			s.hi.push(x, t.rec, t)
		}
		if !s.lo.rejects(x) {
			s.lo.push(x, t.rec, t)
		}
	}
	if s.mslot < 0 && !f.inArr && !s.idName {
		s.mslot = len(t.measures)
		t.measures = append(t.measures, f)
		t.mval = append(t.mval, 0)
		t.mset = append(t.mset, 0)
	}
	if m := s.mslot; m >= 0 {
		t.mval[m] = x
		if t.mset[m] != t.rec+1 {
			t.mset[m] = t.rec + 1
			t.mtouched = append(t.mtouched, m)
		}
	}
}

// groupValue notes the value of a group candidate in the current record.
func (t *tracker) groupValue(f *Field, raw []byte) {
	if f.sel.lastKind {
		t.lastOf(f.lastVal) // (json_last.go: f.lastVal is raw's state)
	}
	if g := f.sel.gslot; t.gactive[g] {
		// (f.lastVal is raw's state, or nil: Profile.scalar calls this
		// after distinct)
		t.gval[g], t.gvs[g] = raw, f.lastVal
	}
}

// nonZero reports whether raw is a number other than 0.
func nonZero(raw []byte) bool {
	if len(raw) == 0 || raw[0] == 'n' || string(raw) == "0" || raw[0] == '"' {
		return false
	}
	x, err := strconv.ParseFloat(string(raw), 64)
	return err == nil && x != 0
}

// fillGroups sets the sums per group of the group and measures
// chooseGroups picks, from the sums the tracker kept.
func (k *coll) fillGroups() {
	k.chooseGroups()
	if k.group == nil {
		return
	}
	g := k.group.sel.gslot
	if g < 0 || !k.t.gactive[g] {
		k.group, k.measures = nil, nil // cannot happen: a group field is followed from the first record
		return
	}
	for v, s := range k.t.sums[g] {
		gs := &groupSum{n: s.n}
		for mi, m := range k.measures {
			if j := m.sel.mslot; j >= 0 && j < len(s.sum) {
				gs.sum[mi], gs.has[mi] = s.sum[j], s.has[j]
			}
		}
		k.groupSums[v] = gs
	}
}

// innerRef returns the reference to value raw of field f when f is a
// member of objects inside an array of the records
// (testResults[].assertionResults[].status), else a zero innerRef.
func (k *coll) innerRef(f *Field, raw string) innerRef {
	if k.p.Map || raw == "" || !(raw[0] == '"' || raw == "true" || raw == "false") {
		return innerRef{} // (a state, not a measure: a number's rows say it)
	}
	segs := pathSegments(f.Path)
	last := len(segs) - 2
	if last < 0 || !strings.HasSuffix(segs[last], "[]") {
		return innerRef{} // not a member of an array's elements
	}
	if el := k.p.Field(strings.Join(segs[:last+1], ".")); el == nil || el.Types&tObject == 0 {
		return innerRef{}
	}
	return innerRef{f, raw}
}

// innerOf renders the elements of record i that hold in's value (the
// first three), when the record has several elements: "in assertionResults[]: {fullName: …, status: failed,
// …}", each by its scalar members and the first string of its arrays
// of strings, within 400 characters; "" when none is found.
func (k *coll) innerOf(i int, in innerRef) string {
	r := k.rows[i]
	if r == nil {
		return ""
	}
	segs := pathSegments(in.f.Path)
	elemPath, member := segs[:len(segs)-1], segs[len(segs)-1]
	var found []string
	elems := 0
	var walk func(raw []byte, segs []string)
	walk = func(raw []byte, segs []string) {
		if len(found) == 3 || len(raw) == 0 {
			return
		}
		if len(segs) == 0 {
			elems++
			// raw is an element: does its member hold the value?
			s := jscan{d: raw}
			hit := false
			s.members(func(name string, v []byte) {
				if name == member && string(bytes.TrimSpace(v)) == in.raw {
					hit = true
				}
			})
			if hit {
				found = append(found, k.renderElement(raw, strings.Join(elemPath, ".")))
			}
			return
		}
		name, arr := strings.CutSuffix(segs[0], "[]")
		name = strings.Trim(name, `"`)
		s := jscan{d: raw}
		s.members(func(m string, v []byte) {
			if m != name {
				return
			}
			if !arr {
				walk(v, segs[1:])
				return
			}
			e := jscan{d: v}
			e.elements(func(el []byte) { walk(el, segs[1:]) })
		})
	}
	walk(r.raw, elemPath)
	if len(found) == 0 || elems < 2 {
		return "" // (the record's only element: its columns show it)
	}
	return "in " + strings.Join(elemPath, ".") + ": " + strings.Join(found, "; ")
}

// renderElement renders an object at path (the element of an array:
// "assertionResults[]") by its scalar members (not null or empty, not
// dropped by the rules, not opaque, not of one value everywhere) and the
// first string of each array of strings, as {name: value, ...} within
// 400 characters.
func (k *coll) renderElement(raw []byte, path string) string {
	var parts []string
	s := jscan{d: raw}
	s.members(func(name string, v []byte) {
		v = bytes.TrimSpace(v)
		if len(v) == 0 || emptyValue(v) {
			return
		}
		m := k.p.Field(path + "." + name)
		if m == nil {
			m = k.p.Field(path + "." + jsonQuote(name))
		}
		if m == nil || k.hidden(m) || k.opaque(m) || m.Counts != nil && m.Distinct == 1 {
			// (a member the profile has under another name, one the
			// rules drop, a hash, or one value everywhere: the profile
			// says it)
			return
		}
		switch v[0] {
		case '{':
			return
		case '[':
			e := jscan{d: v}
			first := ""
			e.elements(func(el []byte) {
				if first == "" && len(el) > 0 && el[0] == '"' {
					first = string(el)
				}
			})
			if first != "" {
				parts = append(parts, name+"[0]: "+cellEnds(first, 160))
			}
		default:
			parts = append(parts, name+": "+cellEnds(string(v), 100))
		}
	})
	return cut("{"+strings.Join(parts, ", ")+"}", 400)
}

// kindNames are names of fields whose values are kinds of records: an
// event's name (a record's own name only: a trace event's, not a
// license's), its type, a file's type, a repository's language.
var kindNames = mustPathRe(`(?i)^name$|(^|[._])(type|kind|category|class|cat|group|event|op|operation|method|cmd|command|language|lang|level|severity|role|filetype|mediatype|media_type|codec_type)$`)

// groupValuesCap is the most values a group candidate of the tracker
// may have and still be followed: a state (phase, status) 12, a kind (an
// event's name) 64.
func groupValuesCap(f *Field) int {
	if stateNames.MatchString(f.Path) {
		return 12
	}
	if !kindNames.MatchString(f.Path) && !kindGroup(f) {
		return maxAnyGroupValues // (groupmax.go)
	}
	return 64
}

// timeStampNames are names of numbers that are points in time or a
// running position, not measures of the record (a trace's ts, a
// frame's pts).
var timeStampNames = mustPathRe(`(?i)(^|[._])(ts|timestamp|time_stamp|pts|dts|time|t|epoch|created|updated)$`)

// largestOfKinds adds to r, per value of the kind field (a string field
// of the records' own, in every record, of 2 to 64 values, the
// commonest under two thirds of them, named like a kind or an event's
// name, followed by the tracker as a group candidate) held by at least
// 3 records, commonest first, the record with the largest number of a
// main measure (a number of its own in most records, neither a place, a
// code, an id nor a time stamp) among the records of that value: exact,
// from the sums per value the tracker keeps. At most 2*firstRound rows;
// extra keeps each row's text.
func (k *coll) largestOfKinds(r *reason, extra func(int, []byte)) {
	p, t := k.p, k.t
	var kf *Field
	for _, f := range p.Fields {
		if f == p.Identity || f.inArr || f.Types != tString || f.Counts == nil || f.Distinct < 2 || f.Distinct > 64 || f.Present != p.Records ||
			f.sel == nil || f.sel.gslot < 0 || !t.gactive[f.sel.gslot] || k.hidden(f) || k.dupOf[f] != nil || !kindNames.MatchString(f.Path) {
			continue
		}
		top := 0
		for _, n := range f.Counts {
			top = max(top, n)
		}
		if top*3 < f.Values*2 {
			kf = f
			break
		}
	}
	if kf == nil {
		return
	}
	var ms []*Field
	for _, f := range p.Fields {
		if f.inArr || f.sel == nil || f.sel.mslot < 0 || f.ownNumbers() == 0 || f.ownNumbers() != f.Values-f.Nulls || f.Distinct <= 12 || f.Present*2 < p.Records ||
			k.hidden(f) || refNumber(f.Path) || codeNumber(f.Path) || k.codeOf(f) != nil || timeStampNames.MatchString(f.Path) || epochField(f) {
			continue
		}
		if ms = append(ms, f); len(ms) == 2 {
			break
		}
	}
	vals := make([]string, 0, len(kf.Counts))
	for v, n := range kf.Counts {
		if n >= 3 {
			vals = append(vals, v)
		}
	}
	sort.Slice(vals, func(a, b int) bool {
		if kf.Counts[vals[a]] != kf.Counts[vals[b]] {
			return kf.Counts[vals[a]] > kf.Counts[vals[b]]
		}
		return vals[a] < vals[b]
	})
	sums := t.sums[kf.sel.gslot]
	for _, m := range ms {
		j := m.sel.mslot
		for _, v := range vals {
			s := sums[v]
			if s == nil || j >= len(s.maxRec) || s.maxRec[j] < 0 || len(r.recs) >= 2*firstRound {
				continue
			}
			i := s.maxRec[j]
			if _, ok := r.text[i]; ok {
				continue
			}
			extra(i, s.maxRaw[j])
			r.recs = append(r.recs, i)
			r.text[i] = fmt.Sprintf("largest %s among %s=%s", k.short(m), k.short(kf), cell(v, 40))
		}
	}
}

// lacksField returns the reason of the records that lack a field
// nearly every record has (9 in 10, at most maxLack lack it, of 10
// records or more): a package with no repository among 235 that have
// one, a component with no license among 800. The one record without
// what the others have is an anomaly a user asks for, and the profile's
// "missing in 1" does not say which (F15 of held12). A field inside an
// array, or whose parent object the same records lack, is passed over
// (the parent's reason names them); so are the pinned records (the
// registry's predicate says why they differ: a pending pod has no node
// yet). A record lacking several such fields (a document's header
// record, the main module among its dependencies) names the first
// three. Only records kept in the profile's pass are named (noteLack):
// the record before the one that has the field again, the first and
// the last records.
func (k *coll) lacksField(raws map[int][]byte) *reason {
	p := k.p
	r := &reason{prio: PrioAnomaly, text: map[int]string{}}
	n := p.Records
	if n < 10 || p.Map && k.keyedStream() {
		return r
	}
	pinned := map[int]bool{}
	for _, i := range k.c.Pinned {
		pinned[i] = true
	}
	lacks := map[int][]*Field{}
	for _, f := range p.Fields {
		miss := n - f.Present
		if miss < 1 || miss > maxLack || f.Present*10 < n*9 || f.inArr || f.sel == nil || k.hidden(f) || k.dupOf[f] != nil {
			continue
		}
		if par := f.parent; par != nil && par != p.root && par.Present == f.Present {
			continue
		}
		recs := f.sel.lackRecs
		for i := f.lastRec + 1; i < n && len(recs) < miss; i++ {
			if _, ok := raws[i]; ok {
				recs = append(recs, i) // (after the last record that has it)
			}
		}
		for _, i := range recs {
			if _, ok := raws[i]; !ok || pinned[i] || slices.Contains(lacks[i], f) {
				continue
			}
			if lacks[i] == nil {
				if len(r.recs) >= maxPerWhy {
					continue
				}
				r.recs = append(r.recs, i)
			}
			lacks[i] = append(lacks[i], f)
		}
	}
	for i, fs := range lacks {
		var names []string
		for _, f := range fs[:min(3, len(fs))] {
			names = append(names, k.short(f))
		}
		more := ""
		if len(fs) > 3 {
			more = fmt.Sprintf(" and %d more fields", len(fs)-3)
		}
		r.text[i] = fmt.Sprintf("no %s%s (%s of %s have it)", strings.Join(names, ", "), more, commas(fs[0].Present), commas(n))
	}
	sort.Ints(r.recs)
	return r
}

// tiedRows is tiedWith for a row's reason: ", as 59 more" when 60 hold
// the most.
func tiedRows(n int) string {
	if n <= 1 {
		return ""
	}
	return ", as " + commas(n-1) + " more"
}
