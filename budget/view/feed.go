package view

import "bytes"

// A profile fed by another walk.
//
// Build profiles every record of a collection in one pass of its own
// (profileRecords). Package budget's level-1 walk reads the same records
// first, to find the output's shape; when a view is expected, that walk
// feeds the profile instead (budget/feed.go), value by value, through a
// FedColl: Begin and End around each record, and for each value of a
// record the event of its kind (Object, Member, Elem, ObjectEnd; Array,
// ArrayEnd; Scalar). The fields are found as the profile's own walk
// finds them (the member expected after the last one, then by name, the
// same caps), and each event calls the one function the profile's walk
// calls there (enter, scalar, objectEnd, arrayEnd), so that a fed profile
// is the one profileRecords makes. Values the profile reads in a way of
// its own (an object keyed "0".."n-1" read as a list, a list of
// name/value pairs) are read by the profile's walk from their offset, and
// the feeding walk goes past them without events.
//
// What the choice of rows keeps of every record it wants whatever the
// values (the first, the last, an even spread, the probes, the pinned
// ones) depends on the collection's count and the pinned rows, which a
// walk before level 2 does not know: a fed collection finds those
// records again after the walk, from the offsets of every stride-th
// record (record).

// Feed gathers the fed profiles of one output.
type Feed struct {
	in Input
}

// NewFeed returns a feed for the output in.Data: in.Args, in.Drop and
// in.Identity are those the view will be built with (the fields the rules
// drop are counted, not profiled, as Build does).
func NewFeed(in Input) *Feed {
	return &Feed{in: in}
}

// FedColl is the profile of one collection being fed: an array's
// elements ("array"), a stream's values ("stream") or an object's
// members ("map").
type FedColl struct {
	k    *coll
	p    *Profile
	kind string
	data []byte
	// n records begun; start is the current record's offset.
	n, start int
	// offs holds the offset of every stride-th record (at most
	// maxFedOffsets: past it, every other one is dropped and the stride
	// doubles), to find the records the rows want after the walk.
	offs   []int
	stride int
	// ends holds where each stride-th record of at least bigRecord
	// bytes ends (End), by its index, so that such a record is found
	// again with no scan of its text (skipping an 8 KB pod of a kubectl
	// list took 110,000 instructions); a smaller one is found by the
	// scan, which costs about what keeping its end would.
	ends map[int]int
	used bool
	// open says a map's record begun has not ended yet.
	open bool
}

// maxFedOffsets bounds the record offsets a fed collection keeps.
const maxFedOffsets = 1 << 14

// Coll starts the profile of a collection of kind "array" (the elements
// of an array), "stream" (the values of a JSON stream) or "map" (the
// members of an object).
func (fd *Feed) Coll(kind string) *FedColl {
	ck := kind
	if kind == "stream" {
		ck = "jsonl"
	}
	k := &coll{in: fd.in, c: Collection{Kind: ck}, p: NewProfile(kind == "map"), rows: map[int]*row{}}
	if kind == "map" {
		// The map of scalars is gathered by take, when the map is
		// small enough to be shown as one (the count is not known
		// yet: gathering up to maxMapEntries entries to drop them
		// cost more than the profile).
		k.smap = &scalarMap{off: true}
		k.tuples = &tupleMap{}
		k.keys.fed = true // (its window: lastKeys, at take)
	}
	// The count is not known yet: no record is wanted before the
	// walk ends (take).
	k.t = newTracker(k)
	k.p.t = k.t
	k.p.startCapture(fd.in.Data) // (not a map's: leafcap.go)
	return &FedColl{k: k, p: k.p, kind: kind, data: fd.in.Data, stride: 1}
}

// Kind is "array" or "stream".
func (fc *FedColl) Kind() string { return fc.kind }

// Begin starts the next record, which starts at offset start of the
// output, and returns the field of its value.
func (fc *FedColl) Begin(start int) *Field {
	i := fc.next(start)
	fc.start = start
	p := fc.p
	// (beginRecord, tracker.begin and tracker.open of a record that
	// is a slice of the output, written out: a fed profile has its
	// tracker; keep them in step)
	p.Records++
	p.rec, p.seq, p.recMul = i, 0, 0
	if len(p.Fields) > 0 {
		p.recMul = recMul(i)
	}
	if p.capLive {
		p.capOn = p.capBegin(i)
	}
	t := p.t
	t.mkey = nil
	if t.rec != i-1 {
		t.prevRaw = nil
	}
	t.rec, t.raw, t.kept = i, fc.data[start:], false
	t.alias = start < len(fc.data) // (within(t.data, t.raw))
	if t.wi < len(t.want) {
		t.wanted(i)
	}
	return p.root
}

// BeginMember starts the next record of a map: the member at offset
// start, whose name is key (quoted, as written) and whose value is
// data[at:end] (valid JSON: the profile reads it before the walk reaches
// it); it returns the field of the value. The map's record before, if
// not ended, ends first: the walk need not end each. The record is
// {"key":value}, as profileMap makes it (addMapRecord), made only when
// kept or read.
func (fc *FedColl) BeginMember(start int, key []byte, at, end int) *Field {
	if fc.open {
		fc.p.endRecord(nil)
	}
	fc.open = true
	i := fc.next(start)
	fc.p.beginMapRecord(i, key, fc.data[at:end], nil)
	return fc.p.root
}

// next counts a record starting at offset start and returns its index,
// keeping its offset when it is a stride-th one.
func (fc *FedColl) next(start int) int {
	i := fc.n
	fc.n++
	if i&(fc.stride-1) == 0 { // (a power of two)
		fc.keepOffset(i, start)
	}
	return i
}

// keepOffset keeps start, the offset of record i, a stride-th one (next),
// halving the offsets kept when they are maxFedOffsets.
func (fc *FedColl) keepOffset(i, start int) {
	if len(fc.offs) == maxFedOffsets {
		for j := 0; j < len(fc.offs)/2; j++ {
			fc.offs[j] = fc.offs[2*j]
		}
		fc.offs = fc.offs[:len(fc.offs)/2]
		fc.stride *= 2
	}
	if i&(fc.stride-1) == 0 {
		fc.offs = append(fc.offs, start)
	}
}

// End ends the record begun last, which ends at offset end (of a map:
// its last record, if not ended yet).
func (fc *FedColl) End(end int) {
	if fc.kind == "map" {
		if fc.open {
			fc.p.endRecord(nil)
			fc.open = false
		}
		return
	}
	if end-fc.start >= bigRecord && (fc.n-1)&(fc.stride-1) == 0 {
		fc.keepEnd(fc.n-1, end)
	}
	p := fc.p
	raw := fc.data[fc.start:end]
	if p.capOn {
		p.capEnd(raw) // (leafcap.go)
	}
	// (endRecord and tracker.end, written out: the record's whole
	// text is read by endMore only, and the next record's Begin sets
	// it again)
	t := p.t
	if t.alias {
		if t.kept {
			t.raws[t.rec] = raw
		}
		t.prevRaw = raw
	} else {
		t.prevRaw = nil
	}
	if len(t.terms)|t.gon|len(t.mtouched)|len(t.arrNums) != 0 {
		t.raw = raw
		t.endMore()
	}
}

// bigRecord is the size from which a fed record's end is kept (ends).
const bigRecord = 1024

// keepEnd keeps end as where record i, a stride-th one, ends; the ends
// of records no longer kept (the stride doubled) are dropped when they
// are as many as the offsets.
func (fc *FedColl) keepEnd(i, end int) {
	if fc.ends == nil {
		fc.ends = map[int]int{}
	}
	if len(fc.ends) >= maxFedOffsets {
		for r := range fc.ends {
			if r&(fc.stride-1) != 0 {
				delete(fc.ends, r)
			}
		}
	}
	fc.ends[i] = end
}

// Looks reports whether the profile reads ahead in a value of f that
// starts with c ('{' or '['), at Object or Array: the walk must have
// checked the whole value first (the profile reads valid JSON only).
func (fc *FedColl) Looks(f *Field, c byte) bool {
	if c == '{' {
		return f.indexed || f.kids == nil && f.Types&tObject == 0
	}
	return !f.noPairs && f != fc.p.root
}

// Object starts an object value of f at offset pos. False means the
// profile read the whole value itself (an object keyed "0".."n-1", read
// as a list): no events for it.
func (fc *FedColl) Object(f *Field, pos int) bool {
	p := fc.p
	if f.indexed || f.kids == nil && f.Types&tObject == 0 {
		s := jscan{d: fc.data, pos: pos}
		if f.indexed || indexKeyed(&s) {
			p.value(&s, f, p.rec, 0)
			return false
		}
	}
	p.enter(f, p.rec)
	return true
}

// Member returns the field of the member of f (an object value begun by
// Object) whose quoted name (as written) is quoted, esc when it holds an
// escape; prev is the field Member returned for the member before in
// this object (nil for the first). A nil field is not profiled: the
// walk goes past its value without events.
func (fc *FedColl) Member(f, prev *Field, quoted []byte, esc bool) *Field {
	p := fc.p
	if esc {
		return p.child(f, unquote(quoted))
	}
	// As value: the member that followed the one before last time
	// first, then by name.
	name := quoted[1 : len(quoted)-1]
	pred := f.firstKid
	if prev != nil {
		pred = prev.nextSib
	}
	if pred != nil && pred.plain && pred.name == string(name) {
		return pred
	}
	kid := f.kids[string(name)]
	if kid == nil {
		kid = p.child(f, string(name))
	}
	if kid != nil && prev == nil {
		f.firstKid = kid
	} else if kid != nil {
		prev.nextSib = kid
	}
	return kid
}

// ObjectEnd ends an object value of f of n members.
func (fc *FedColl) ObjectEnd(f *Field, n int) { fc.p.objectEnd(f, n, fc.p.rec) }

// Array starts an array value of f at offset pos. False means the
// profile read the whole value itself (a list of name/value pairs): no
// events for it.
func (fc *FedColl) Array(f *Field, pos int) bool {
	p := fc.p
	if !f.noPairs && f != p.root {
		s := jscan{d: fc.data, pos: pos}
		if !f.pairs {
			// Decided by the field's first non-empty list (as value).
			if f.pairName, f.pairValue, f.pairs = pairList(&s); !f.pairs && f.elem == nil && !emptyArray(&s) || pairMember(f) != nil {
				f.pairs, f.noPairs = false, true
			}
		}
		if f.pairs {
			p.value(&s, f, p.rec, 0)
			return false
		}
	}
	p.enter(f, p.rec)
	return true
}

// Elem returns the field of the items of f's array (begun by Array),
// before its first item; nil is not profiled.
func (fc *FedColl) Elem(f *Field) *Field { return fc.p.elemOf(f) }

// ArrayEnd ends an array value of f of n items.
func (fc *FedColl) ArrayEnd(f *Field, n int) { fc.p.arrayEnd(f, n, fc.p.rec) }

// Scalar adds the scalar value raw (its JSON text) of f.
func (fc *FedColl) Scalar(f *Field, raw []byte) {
	p := fc.p
	p.scalarEnter(f, raw, p.rec, true) // (enter and scalar)
}

// ScalarKept is Scalar in a record whose leaves the profile keeps for
// the index (Keeping; leafcap.go).
func (fc *FedColl) ScalarKept(f *Field, raw []byte) {
	p := fc.p
	if p.capOn {
		p.lc.add(f, raw)
	}
	p.scalarEnter(f, raw, p.rec, true) // (enter and scalar)
}

// Keeping reports whether the profile keeps the leaves of the record
// begun last for the index (leafcap.go): its scalar values are then
// added by ScalarKept.
func (fc *FedColl) Keeping() bool { return fc.p.capOn }

// ScalarRecord adds the next record of an array, the scalar value raw
// at offset start: what Begin, Scalar (of the record's value) and End
// do, in one call (the tracker's open and end written out).
func (fc *FedColl) ScalarRecord(start int, raw []byte) {
	i := fc.n // (next, inlined)
	fc.n++
	if i&(fc.stride-1) == 0 {
		fc.keepOffset(i, start)
	}
	fc.start = start
	p := fc.p
	// (beginRecord, inlined: a fed profile has its tracker)
	p.Records++
	p.rec, p.seq, p.recMul = i, 0, 0
	if len(p.Fields) > 0 {
		p.recMul = recMul(i)
	}
	if p.capLive {
		p.capOn = p.capBegin(i)
	}
	t := p.t // (an array's: its mkey stays nil, set by maps only)
	// (tracker.open, of a record that is a slice of the output)
	if t.rec != i-1 {
		t.prevRaw = nil
	}
	t.rec, t.raw, t.kept, t.alias = i, fc.data[start:], false, true
	if t.wi < len(t.want) {
		t.wanted(i)
	}
	f := p.root
	if p.capOn {
		p.lc.add(f, raw)
	}
	p.scalarEnter(f, raw, i, true) // (enter and scalar)
	if len(raw) >= bigRecord && i&(fc.stride-1) == 0 {
		fc.keepEnd(i, start+len(raw))
	}
	if p.capOn {
		p.capEnd(raw)
	}
	// (tracker.end, of a record that is a slice of the output: the
	// record's whole text is read by endMore only, and the next
	// record's open sets it again)
	if t.kept {
		t.raws[i] = raw
	}
	t.prevRaw = raw
	if len(t.terms)|t.gon|len(t.mtouched)|len(t.arrNums) != 0 {
		t.raw = raw
		t.endMore()
	}
}

// ScalarEntry starts the next record of a map, the member at offset at
// whose name is key (quoted, as written; esc: it holds an escape) and
// whose value is the scalar raw (its JSON text, a slice of the output),
// and adds its value: what BeginMember and Scalar do (and End of the
// record before), in one call. Most of a map of scalars' cost was the
// calls from one to the next (10 MB of npm's versions by time: 95,000
// records): what beginMapRecord, tracker.beginMap, tracker.open and
// tracker.end do for such a record is written out here.
func (fc *FedColl) ScalarEntry(at int, key []byte, esc bool, raw []byte) {
	p := fc.p
	t := p.t // (a fed profile has its tracker)
	if fc.open {
		// (tracker.end of a map's record, which has no text: a map's
		// records are no slices of the output (t.alias is false), so
		// t.raw and t.prevRaw are nil from their open on, and stay nil)
		if len(t.terms)|t.gon|len(t.mtouched)|len(t.arrNums) != 0 {
			t.end(nil)
		}
	} else {
		// (tracker.open of a record with no text)
		if t.rec != fc.n-1 {
			t.prevRaw = nil
		}
		t.raw = nil
	}
	fc.open = true
	i := fc.n // (next, inlined)
	fc.n++
	if i&(fc.stride-1) == 0 {
		fc.keepOffset(i, at)
	}
	// (beginMapRecord of a scalar: no field in the record)
	p.Records++
	p.rec, p.seq, p.recMul = i, 0, 0
	if len(p.Fields) > 0 {
		p.recMul = recMul(i)
	}
	p.keyless = true
	// (tracker.beginMap)
	k := t.k
	k.keys.addKey(key, esc, true) // (a fed map's: no window kept, stable or not)
	if m := k.smap; m != nil && !m.off {
		m.add(key, raw) // json_map.go
	}
	if m := k.tuples; m != nil && !m.off {
		m.add(key, raw) // json_tuple.go
	}
	t.mkey, t.mvalue = key, raw
	t.rec, t.kept, t.alias = i, false, false
	if t.wi < len(t.want) {
		t.wanted(i)
	}
	f := p.root
	// (a map's records are not kept: leafcap.go)
	p.scalarEnter(f, raw, i, true) // (enter and scalar)
}

// Taken reports whether a Build started from fc's profile.
func (fc *FedColl) Taken() bool { return fc != nil && fc.used }

// take returns the collection c of in as profiled by the feed, with the
// records its rows want (which depend on c's count and pinned rows) found
// again, or nil when fc cannot stand for it (another count, another
// output, taken already): then Build profiles c itself.
func (fc *FedColl) take(in Input, c Collection) *coll {
	if fc == nil || fc.used || fc.n != c.Count || len(in.Data) != len(fc.data) || len(in.Data) == 0 || &in.Data[0] != &fc.data[0] {
		return nil
	}
	switch c.Kind {
	case "array", "map":
		if fc.kind != c.Kind {
			return nil
		}
	default:
		if fc.kind != "stream" {
			return nil
		}
	}
	fc.used = true
	k := fc.k
	k.in, k.c = in, c
	w := newTracker(k)
	t := k.t
	t.want, t.probes = w.want, w.probes
	for _, i := range t.want {
		if _, ok := t.raws[i]; !ok {
			t.raws[i] = fc.record(i)
		}
	}
	if k.keys.stale {
		k.keys.window, k.keys.stale = fc.lastKeys(len(k.keys.window)), false
	}
	if fc.kind == "map" && c.Count <= maxMapEntries {
		// The entries the walk did not gather (Coll), in order.
		k.smap = &scalarMap{}
		fc.each(k.smap.add)
	}
	return k
}

// each calls fn with every record of a fed map, in order: its key
// (quoted) and its value.
func (fc *FedColl) each(fn func(key, val []byte)) {
	if len(fc.offs) == 0 {
		return
	}
	s := jscan{d: fc.data, pos: fc.offs[0]}
	s.eachEntry(func(key []byte) bool {
		start := s.pos
		s.skipValue()
		fn(key, fc.data[start:s.pos])
		return true
	})
}

// lastKeys returns the keys (unquoted) of the last w records of a fed
// map, oldest first: keyList's window, made once the walk has ended
// (from the offset of the stride-th record before them) rather than
// kept key by key.
func (fc *FedColl) lastKeys(w int) [][]byte {
	from := max(0, fc.n-w)
	s := jscan{d: fc.data, pos: fc.offs[from/fc.stride]}
	r := from / fc.stride * fc.stride
	keys := make([][]byte, 0, w)
	s.eachEntry(func(key []byte) bool {
		if r >= from {
			if bytes.IndexByte(key, '\\') >= 0 {
				keys = append(keys, []byte(unquote(key)))
			} else {
				keys = append(keys, key[1:len(key)-1])
			}
		}
		r++
		s.skipValue()
		return r < fc.n
	})
	return keys
}

// record returns the text of record i: from its offsets when its end is
// kept (ends), else found from the offset of the stride-th record before
// it (recordScan).
func (fc *FedColl) record(i int) []byte {
	if end, ok := fc.ends[i]; ok && i%fc.stride == 0 {
		return fc.data[fc.offs[i/fc.stride]:end]
	}
	return fc.recordScan(i)
}

// recordScan is record found by reading the records from the offset of
// the stride-th record before it.
func (fc *FedColl) recordScan(i int) []byte {
	s := jscan{d: fc.data, pos: fc.offs[i/fc.stride]}
	r := i / fc.stride * fc.stride
	if fc.kind == "map" {
		var rec []byte
		s.eachEntry(func(key []byte) bool {
			start := s.pos
			s.skipValue()
			if r == i {
				rec = mapRecord(nil, key, fc.data[start:s.pos])
				return false
			}
			r++
			return true
		})
		return rec
	}
	for ; r <= i; r++ {
		start := s.pos
		s.skipValue()
		if r == i {
			return fc.data[start:s.pos]
		}
		s.ws()
		if s.peek() == ',' {
			s.pos++
		}
		s.ws()
	}
	return nil
}
