package view

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Limits of the profile; none depends on the input's size, so the memory
// of a profile is bounded whatever the number of records.
const (
	// maxValues is how many distinct values of a field are counted one
	// by one ("phase: Running 41, Pending 1"); a field with more has no
	// value counts.
	maxValues = 64
	// maxDistinct is how many distinct values are counted exactly; a
	// field with more is reported as having more.
	maxDistinct = 4096
	// maxFields caps the fields profiled per collection; the others are
	// counted as not profiled.
	maxFields = 400
	// maxDepth is how deep nested objects and arrays are followed.
	maxDepth = 64
	// mapKids is how many member names an object field has before its
	// names may be counted as data (see Profile.child).
	mapKids = 32
	// maxFew is how many values of a field are compared in turn before
	// they are looked up by hash.
	maxFew = 6
	// maxYears is how many years a field's times are counted by.
	maxYears = 64
)

// JSON value kinds as bits.
const (
	tString = 1 << iota
	tNumber
	tBool
	tNull
	tObject
	tArray
)

var typeNames = []string{"string", "number", "bool", "null", "object", "array"}

// Field is the profile of one dot-path field of a collection's records:
// "status.phase", "spec.containers[].image" ([] stands for every element
// of an array), "." for records that are not objects. Every number in it
// is exact over all the records.
type Field struct {
	// The state the profile's walk reads and writes at every value comes
	// first, in the first two cache lines of the struct (a value of a
	// field touches those, not the field's whole kilobyte, nor its
	// value's state and text when it is the field's last value again).

	// lastRec is the last record that had the field.
	lastRec int
	// Present counts the records that have the field (at least one
	// value, for paths through arrays); Values counts every value (more
	// than Present under []).
	Present, Values int
	// recSum sums the hashes of the field's scalar values (outside
	// arrays), each times its record's multiplier (recMul): equal sums,
	// equal values in every record (dupcols.go).
	recSum uint64
	// The last value (lastVal) while it adds nothing but its count
	// (quiet): its hash, the length of its text and its words (keyWords),
	// and lastRun, how many times it was seen again since its count was
	// last brought up to date (settleRun).
	lastH   uint64
	lastW   [2]uint64
	lastLen int32
	lastRun int32

	// Types are the kinds of JSON value seen (bits of tString...).
	Types int
	// lastVal is the value seen last (tried before the map).
	lastVal *valState
	// sel is the state the selection of rows gathers in the same pass
	// (rows.go), nil without a tracker.
	sel *fieldSel
	// Nulls counts the null values.
	Nulls int
	// firstKid and nextSib remember the order of members (the member
	// first in the last record, the member after this one the last
	// time).
	firstKid, nextSib *Field
	// quiet: lastVal is a value seen before that adds nothing but its
	// count (no number, no more records kept): the same text again is
	// counted in lastRun. firstDone: the tracker keeps no more first
	// records of the field (sel.firstRecs), or none.
	quiet, firstDone bool
	// tooMany: past maxValues values (tab counts them). inArr: the path
	// goes through an array ("[]"). bare: the view shows none of the
	// field's values (the rules drop it): its values are counted
	// (Present, Values, Types, Nulls), not profiled.
	tooMany, inArr, bare bool
	// group: the field is a group candidate of the tracker (sel.gslot).
	// fewSettled: settleFew has run.
	group, fewSettled bool
	// plain: name needs no escape in JSON (the text "name" is the name).
	plain bool

	// name is the member name under parent.
	name string
	// nameW and nameM are name's first 16 bytes as two words and their
	// masks (nameAt compares them without a call).
	nameW, nameM [2]uint64
	elem         *Field
	// few are the values while there are at most maxFew (tried in turn
	// instead of the map); fewK their lengths and words (keyWords), in
	// the same order.
	few  []*valState
	fewK []fewKey
	// vals counts the values while there are few (Counts is made of it
	// by Finish); with a tracker, each value also keeps the first
	// records holding it.
	vals map[string]*valState
	// vidx finds the values of vals past the maxFew first.
	vidx valIndex
	// tab counts each value by its hash once the field has too many
	// values for Counts (exact up to 64-bit collisions, as Distinct),
	// with each value's statistics.
	tab *valTable
	// tabBase holds, by hash, the count up to which the statistics of a
	// value counted before tab was made (settleFew) are added: a string
	// seen again in tab adds its counts once, by its count, when tab is
	// settled (settleTab), not at each sighting.
	tabBase map[uint64]int32
	// tabSettled: settleTab has run (at Finish); tabPending: a value
	// seen again in tab left its statistics to settleTab.
	tabSettled, tabPending bool
	// ManyDistinct: past maxDistinct values (Distinct is not exact).
	ManyDistinct bool
	// numFrac: a number with a fraction, or beyond quietNum, was seen:
	// the sums are added in order, one at a time (quiet numbers are
	// added by their count: Field.settleRun).
	numFrac bool
	topMin  int // the least count in top
	// Numbers: how many, min, max, sum, sum of squares.
	NumN                      int
	Sum, SumSquares, Min, Max float64
	// Long counts the strings of over 20 bytes between their quotes;
	// Spaced, those of them holding a space (free text, unlike hashes
	// and URLs).
	Long, Spaced int
	// Unshaped counts the strings whose JSON text is over 100 bytes
	// (they have no pattern).
	Unshaped int
	// Times (strings in RFC 3339): how many, earliest, latest; Years
	// counts them by their year (as written), nil past maxYears years.
	// (Earliest, Latest and Years are set by Finish.)
	TimeN int
	years yearCount
	// Patterns, Prefixes and Exts while counting.
	pats, pres, exts kindCount
	// shape is the last string whose pattern was worked out, past
	// maxValues values (nil before).
	shape *shapeMemo

	// Path is the field's path relative to one record.
	Path string
	// Distinct is the number of distinct scalar values, exact when
	// !ManyDistinct.
	Distinct int
	// Counts holds every scalar value (its JSON text) with its count when
	// the field has at most maxValues distinct values (!tooMany).
	Counts           map[string]int
	Earliest, Latest time.Time
	Years            map[int]int
	earliestText     string
	latestText       string
	// The earliest and latest times while counting, and their text.
	earliestKey, latestKey timeKey
	earliestBuf, latestBuf []byte
	// MaxLen is the longest string in characters.
	MaxLen int
	// Patterns counts the strings by their shape (digit runs as #, runs
	// mixing letters and digits as *: "18.3.0-canary-0e352ea01-20231109"
	// is "#.#.#-canary-*-#"); Prefixes counts strings with a "/" by
	// their first segment. Each is nil past maxValues kinds. Strings
	// whose JSON text is over 100 bytes have no pattern (Unshaped).
	Patterns, Prefixes map[string]int
	// Exts counts the strings that look like file names or paths (no
	// space, a ".ext" of 1 to 8 letters or digits after the last "/")
	// by their extension ("go", "json"); nil past maxValues kinds.
	Exts map[string]int
	// Items: for arrays, the fewest and most items and their total;
	// EmptyArrays counts the arrays with none.
	MinItems, MaxItems, Items int
	EmptyArrays               int
	// Containers counts the object and array values among Values.
	Containers int
	// Entries: for objects, the fewest and most members and their total
	// over the Objects objects.
	MinEntries, MaxEntries, Entries, Objects int
	// NumStrings counts the numbers among NumN that are written as
	// strings: every value of the field is a number or a string that
	// holds one (tshark's "frame.len": "74"), so min, max and sum are
	// over all of them.
	NumStrings int
	// MapLike: the object's member names are data (a package's
	// dependencies or scripts: many distinct names, each in few
	// records), set by Finish. Its members are summarised by the
	// field's own line (KeyCounts) rather than profiled one by one in
	// the view. KeyCounts counts the records holding each member name,
	// exact for each name it holds; ManyKeys says it does not hold every
	// name (past maxDistinct names, or names seen once the profile had
	// maxFields fields).
	MapLike   bool
	KeyCounts map[string]int
	ManyKeys  bool
	// inMap: the field is a member of a map-like field, or under one.
	inMap bool
	// whole: a walk over records (Profile.walk) gives the field's list
	// and object values as their whole JSON text, as it gives its
	// scalars: set for a mostlyScalar field a row or an index shows.
	whole bool
	// indexed: its objects are keyed "0", "1", ...: read as lists, their
	// values the items of its [] field (json_listmap.go).
	indexed bool
	// pairs: its lists hold {pairName: name, pairValue: value} pairs,
	// read as its members (json_pairs.go); noPairs: they do not.
	pairs, noPairs      bool
	pairName, pairValue string
	// keyed: from here on the members without a field are only
	// counted by name (keys), not profiled (see Profile.child).
	// namesLost: a member name got no field (past maxFields).
	keyed, namesLost bool
	keys             map[string]*keyN

	// Top holds a field's most common values past the maxValues it
	// counts one by one (a dependency map's most required module among
	// 1,049), most first, each with its exact count: while the field has
	// at most maxDistinct values, each is counted by its hash (tab),
	// and the topValues with the highest counts so far keep their text
	// (only the counted value changes, by one: the kept ones are always
	// the top ones). Nil with Counts, or past maxDistinct values.
	Top []TopValue
	top []TopValue
	// tops holds the hashes of top's values, in the same order.
	tops   []uint64
	first  int // the order of first appearance
	kids   map[string]*Field
	depth  int
	parent *Field
	// The first record holding each extreme: Min, Max, Earliest,
	// Latest, MaxItems.
	minRec, maxRec, earliestRec, latestRec, maxItemsRec, maxEntriesRec int
	// maxItemsN and maxEntriesN count the arrays with MaxItems items and
	// the objects with MaxEntries members: "most in X" names one of them.
	maxItemsN, maxEntriesN int
	// ...and its text, when the profile has a tracker.
	minRaw, maxRaw, earliestRaw, latestRaw, maxItemsRaw, maxEntriesRaw []byte
	// maxN counts the values written as numbers equal to Max (the
	// records holding it, outside arrays): exact, one comparison a
	// number.
	maxN int
	// kindOf says how a log record's member is counted by kind
	// (json_kinds.go: kindShape, kindFile; 0 none), kindAt the kind of
	// each value of its table by hash while it has one, and Kinds the
	// records per kind (set by Finish; nil when not counted).
	kindOf int8
	kindAt map[uint64]string
	Kinds  map[string]int
	// strNums gathers the strings that hold a JSON number ("74",
	// "0.000055289"), apart from the numbers, until Finish: when every
	// value of the field is a number or such a string, they are its
	// numbers (NumStrings).
	strNums *strNumStats
}

// TopValue is one of a field's most common values (its JSON text) and
// its exact count.
type TopValue struct {
	Value string
	Count int
}

// topValues is how many of a field's most common values are kept past
// the values counted one by one (Top lists those that surely are, at most
// one fewer).
const topValues = 9

// keyN counts the records holding one member name of a keyed field.
type keyN struct{ n, last int }

// valState is one value of a field with few values: its count and, when
// the profile has a tracker, the first records holding it (at most
// maxPerWhy) and where it was first seen (record, leaf).
type valState struct {
	key    string
	h      uint64 // hashBytes of key
	n      int
	recs   []int
	last   int // 1 + the last record in recs
	first  int
	seq    int
	noRecs bool // records no longer kept (it cannot be chosen)
	// recsDone: no more records are kept (no tracker, noRecs, or
	// maxPerWhy of them).
	recsDone  bool
	errWord   int8 // 0 not checked, 1 says an error, -1 does not
	exitValue bool
	// st is what the value adds to the field's statistics.
	st valStat
	// qh is quickHash of key, qw its words (valIndex).
	qh uint64
	qw [3]uint64
	// gs is the tracker's sums of the records holding the value, when
	// the field is a group candidate (tracker.endMore), once found.
	gs *gsum
	// lastAt is 1 + the last record holding the value and lastRaw that
	// record's text (nil when it is no slice of the input), for a
	// value of a group field (json_last.go).
	lastAt  int
	lastRaw []byte
}

// Mean returns the mean of the field's numbers.
func (f *Field) Mean() float64 {
	if f.NumN == 0 {
		return 0
	}
	return f.Sum / float64(f.NumN)
}

// StdDev returns the population standard deviation of the numbers.
func (f *Field) StdDev() float64 {
	if f.NumN == 0 {
		return 0
	}
	m := f.Mean()
	v := f.SumSquares/float64(f.NumN) - m*m
	if v < 0 {
		return 0
	}
	return math.Sqrt(v)
}

// TypeNames lists the field's JSON kinds.
func (f *Field) TypeNames() []string {
	var out []string
	for i, n := range typeNames {
		if f.Types&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// scalar reports whether the field only holds scalars (or null).
func (f *Field) scalar() bool { return f.Types&(tObject|tArray) == 0 && f.Types != 0 }

// mostlyScalar reports whether the field holds a scalar other than null
// in most of its values and a list or an object in the others (not an
// object or null, a GitHub issue's milestone), one value per record, not
// inside arrays: an option's value (meson's buildoptions: "value" a
// string, a number, a bool, or a list of paths; an npm config or an
// ESLint rule likewise). Such a field is a column and an index field as a
// scalar one is, each cell its value, a list or an object as its JSON
// text (Field.whole).
func (f *Field) mostlyScalar() bool {
	return !f.scalar() && f.Types&^(tObject|tArray|tNull) != 0 && !f.inArr && f.Values <= f.Present &&
		(f.Values-f.Containers-f.Nulls)*2 > f.Values && !f.MapLike && !f.indexed && !f.pairs
}

// underMostlyScalar reports whether f is inside the lists or objects of a
// mostlyScalar field (value[] beside value): such a field's values are
// shown whole, its items by no column of their own.
func (f *Field) underMostlyScalar() bool {
	for g := f.parent; g != nil; g = g.parent {
		if g.mostlyScalar() {
			return true
		}
	}
	return false
}

// Constant reports whether every record has the field with one and the
// same scalar value (stated once: "all 288: kind=Pod").
func (f *Field) Constant(records int) bool {
	return f.scalar() && !f.ManyDistinct && f.Distinct == 1 && f.Present == records && f.Values == records
}

// Profile is the profile of one collection.
type Profile struct {
	// Records is the number of records profiled (the collection's count).
	Records int
	// Fields in order of first appearance.
	Fields []*Field
	// Unprofiled counts fields past maxFields (or deeper than maxDepth).
	Unprofiled int
	// Identity is the field that names a record (unique, present in
	// every record), or nil.
	Identity *Field
	// Map is true for a keyed collection (records are {"key": value}):
	// the key is the identity and fields are of the value.
	Map  bool
	root *Field
	byP  map[string]*Field
	pat  []byte
	// t gathers what the selection of rows needs in the same pass
	// (rows.go); nil for a profile alone.
	t *tracker
	// rec is the record being added, seq counts its scalar values.
	rec, seq int
	// keySum sums a keyed collection's keys' hashes (as written,
	// quoted) times their records' multipliers (recMul), as
	// Field.recSum does a field's values: a field with the same sum
	// holds its record's key (dupcols.go).
	keySum uint64
	// keyless: a record's value is a scalar, so that no field is in
	// every record and none can hold its record's key: keySum is no
	// longer summed (nor read).
	keyless bool
	// recMul is the record's multiplier (recMul), 0 while the profile
	// has no field but the root (whose recSum no one reads): a record
	// of one scalar needs none.
	recMul uint64
	// lc keeps the first records' leaves for the index (leafcap.go),
	// nil when not kept; capLive: records are still kept; capOn: the
	// current record's leaves are kept.
	lc             *leafCap
	capLive, capOn bool
}

// NewProfile returns an empty profile; Add each record, then Finish.
func NewProfile(isMap bool) *Profile {
	p := &Profile{Map: isMap, byP: map[string]*Field{}}
	p.root = &Field{Path: ".", lastRec: -1, first: -1, vals: map[string]*valState{}}
	p.byP["."] = p.root
	return p
}

// Field returns the field at path, or nil.
func (p *Profile) Field(path string) *Field { return p.byP[path] }

// Add profiles record i (its JSON text; for a map, the one-member object
// {"key": value}, whose value is profiled).
func (p *Profile) Add(i int, raw []byte) {
	s := jscan{d: raw}
	if p.Map {
		key, ok := s.entryValue()
		if !ok {
			// No member: not a map's record (cannot happen).
			p.beginRecord(i, raw)
			if p.t != nil {
				p.t.noEntry()
			}
			p.endRecord(raw)
			return
		}
		v := s
		v.skipValue()
		p.beginMapRecord(i, key, raw[s.pos:v.pos], raw)
		p.value(&s, p.root, i, 0)
		p.endRecord(raw)
		return
	}
	p.beginRecord(i, raw)
	s.ws()
	p.value(&s, p.root, i, 0)
	if p.capOn {
		p.capEnd(raw) // (leafcap.go)
	}
	p.endRecord(raw)
}

// addAt profiles record i, the value at s (not a map's record), and
// moves s past it: the records of an array or a stream are read in this
// one walk, with no scan before it to find where each ends.
func (p *Profile) addAt(i int, s *jscan) {
	start := s.pos
	// Its end is not known yet: the tracker holds the text from its
	// start, which a walk reads as one value.
	p.beginRecord(i, s.d[start:])
	p.value(s, p.root, i, 0)
	if p.capOn {
		p.capEnd(s.d[start:s.pos]) // (leafcap.go)
	}
	p.endRecord(s.d[start:s.pos])
}

// beginRecord starts record i, whose text starts text (its end may not
// be known yet: a walk that reads the records in one pass gives the
// text from the record's start on). A walk calls, per record,
// beginRecord, then enter and scalar, objectEnd or arrayEnd for each of
// its values (profiled fields only; the walk chooses the fields), then
// endRecord with the record's whole text.
func (p *Profile) beginRecord(i int, text []byte) {
	p.Records++
	p.rec, p.seq, p.recMul = i, 0, 0
	if len(p.Fields) > 0 {
		p.recMul = recMul(i) // (else made with the record's first field: newField)
	}
	if p.capLive {
		p.capOn = p.capBegin(i)
	}
	if p.t != nil {
		p.t.begin(i, text)
	}
	// (FedColl.ScalarRecord does the same: keep them in step)
}

// beginMapRecord is beginRecord for record i of a map (Profile.Map):
// the member whose name is key (quoted, as written) and whose value is
// val (its JSON text); text is the record's whole text when known
// ({"key": value}), else nil (made only when kept or read; its
// endRecord is given nil).
func (p *Profile) beginMapRecord(i int, key, val, text []byte) {
	p.Records++
	p.rec, p.seq, p.recMul = i, 0, 0
	if len(p.Fields) > 0 {
		p.recMul = recMul(i) // (else made with the record's first field: newField)
	}
	if !p.keyless {
		if j := skipWS(val, 0); j < len(val) && val[j] != '{' && val[j] != '[' {
			p.keyless = true // (a scalar: no field in this record)
		} else {
			p.keySum += hashBytes(key) * recMul(i)
		}
	}
	if p.t != nil {
		p.t.beginMap(i, key, val, text)
	}
}

// endRecord ends the record begun by beginRecord, whose whole text is
// raw (nil for a map's record begun with no text). (A record whose
// leaves are kept for the index is ended by capEnd first: leafcap.go.)
func (p *Profile) endRecord(raw []byte) {
	if p.t != nil {
		p.t.end(raw)
	}
}

// child returns the field name under parent, creating it when the cap
// allows.
func (p *Profile) child(parent *Field, name string) *Field {
	if f, ok := parent.kids[name]; ok {
		return f
	}
	if !parent.keyed && len(parent.kids) >= mapKids && parent.Objects >= 8 && parent.Entries*2 <= len(parent.kids)*parent.Objects && !p.recordFields(parent) && !labelSet(parent) {
		// Many member names, a record holding under half of them on
		// average: the names are data (a map such as dependencies).
		// New names are counted, not given fields, so that a map does
		// not take the fields of the records' real members.
		parent.keyed = true
	}
	if parent.keyed {
		p.countKey(parent, name)
		return nil
	}
	if len(p.Fields) >= maxFields || parent.depth >= maxDepth {
		p.Unprofiled++
		parent.namesLost = true
		return nil
	}
	path := joinPath(parent.Path, name)
	f := p.newField(path, parent)
	f.name, f.plain = name, plainJSON(name)
	f.nameW, f.nameM = nameWords(name)

	if parent.kids == nil {
		parent.kids = map[string]*Field{}
	}
	parent.kids[name] = f
	p.Fields = append(p.Fields, f)
	p.byP[path] = f
	return f
}

// labelSet reports whether the member names of object field f are the
// fields of a label set: a few names, each in (nearly) every object,
// hold most of the entries, the others are in some (prometheus' metric
// holds __name__, job and instance in every series, device or cpu in
// some). Such names are fields, present or missing, not data; a map's
// names (dependencies, flags) are each in few of its objects.
func labelSet(f *Field) bool {
	if f.Objects < 4 {
		return false
	}
	core, coreEntries := 0, 0
	for _, kid := range f.kids {
		if kid.scalar() && kid.Values*10 >= f.Objects*9 {
			core++
			coreEntries += kid.Values
		}
	}
	return core >= 2 && coreEntries*2 >= f.Entries
}

// recordFields reports whether the member names of f are the fields of
// records of many kinds, not data: f is the records' own object (not a
// map's values), a record has at least 4 members on average and most
// names are identifiers. exiftool describes each file by the tags it
// found (230 names over 337 files: a PNG's ColorType, a PDF's
// PageCount, a photo's Model, the two files' Warning): each name is a
// field a question asks for, so each gets its field (TestManyKindsOfRecords).
func (p *Profile) recordFields(f *Field) bool {
	if f != p.root || p.Map || f.Objects == 0 || f.Entries < 4*f.Objects {
		return false
	}
	nonIdent := 0
	for name := range f.kids {
		if !plainName(name) && !wordsName(name) {
			nonIdent++
		}
	}
	return nonIdent*2 < len(f.kids)
}

// countKey counts member name of keyed field f in the current record.
func (p *Profile) countKey(f *Field, name string) {
	if f.keys == nil {
		f.keys = map[string]*keyN{}
	}
	k := f.keys[name]
	if k == nil {
		if f.ManyKeys || len(f.kids)+len(f.keys) >= maxDistinct {
			f.ManyKeys = true
			return
		}
		k = &keyN{last: -1}
		f.keys[name] = k
	}
	if k.last != p.rec {
		k.last = p.rec
		k.n++
	}
}

// elemOf returns the [] field of an array field.
func (p *Profile) elemOf(parent *Field) *Field {
	if parent.elem != nil {
		return parent.elem
	}
	if len(p.Fields) >= maxFields || parent.depth >= maxDepth {
		p.Unprofiled++
		return nil
	}
	path := parent.Path + "[]"
	if parent.Path == "." {
		path = "[]"
	}
	f := p.newField(path, parent)
	f.inArr = true
	parent.elem = f
	p.Fields = append(p.Fields, f)
	p.byP[path] = f
	return f
}

// newField returns a new field at path under parent (not yet linked).
func (p *Profile) newField(path string, parent *Field) *Field {
	if p.recMul == 0 {
		// (the profile's first field: the records before had none,
		// and only fields' sums are read, not the root's)
		p.recMul = recMul(p.rec)
	}
	f := &Field{Path: path, lastRec: -1, first: len(p.Fields), depth: parent.depth + 1, inArr: parent.inArr,
		vals: map[string]*valState{}, parent: parent}
	if parent == p.root {
		f.kindOf = kindOfName(path) // json_kinds.go (a member of the record itself: its path is its name)
	}
	if p.t != nil {
		p.t.newField(f)
	}
	return f
}

// joinPath appends a member name to a path: "a" + "b" = "a.b"; names
// that are not plain identifiers are quoted as jq would: a."x-y".
func joinPath(parent, name string) string {
	seg := name
	if !plainName(name) {
		seg = strconv.Quote(name)
	}
	if parent == "." {
		return seg
	}
	return parent + "." + seg
}

// plainName reports whether name can follow a dot in jq unquoted.
func plainName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// value profiles the JSON value at s into field f (nil: not profiled,
// only skipped) of record rec.
func (p *Profile) value(s *jscan, f *Field, rec, depth int) {
	c := s.peek()
	if f == nil {
		s.skipValue()
		return
	}
	p.enter(f, rec)
	if c == '{' && listObject(s, f) {
		f.indexed = true // keyed "0".."n-1": a list (json_listmap.go)
		p.indexedList(s, f, rec, depth)
		return
	}
	if c == '[' && !f.noPairs && f != p.root {
		if !f.pairs {
			// Decided by the field's first non-empty list.
			if f.pairName, f.pairValue, f.pairs = pairList(s); !f.pairs && f.elem == nil && !emptyArray(s) || pairMember(f) != nil {
				f.pairs, f.noPairs = false, true
			}
		}
		if f.pairs {
			p.pairsOf(s, f, rec, depth) // lists of {name, value} (json_pairs.go)
			return
		}
	}
	switch c {
	case '{':
		d := s.d
		i := skipWS(d, s.pos+1)
		if i < len(d) && d[i] == '}' {
			s.pos = i + 1
			p.objectEnd(f, 0, rec)
			return
		}
		var prev *Field // the member before
		n := 0
		for {
			n++
			i = skipWS(d, i)
			// Records mostly list their members in one order: the
			// member that followed the previous one last time is tried
			// first, by comparing its quoted name with the text.
			pred := f.firstKid
			if prev != nil {
				pred = prev.nextSib
			}
			var kid *Field
			if pred != nil && pred.plain && i+len(pred.name)+1 < len(d) && d[i] == '"' && d[i+1+len(pred.name)] == '"' &&
				pred.nameAt(d, i+1) {
				kid = pred
				i += len(pred.name) + 2
			} else {
				s.pos = i
				if b, name := s.memberName(); b != nil {
					kid = f.kids[string(b)] // no allocation when found
					if kid == nil {
						kid = p.child(f, string(b))
					}
					if kid != nil && prev == nil {
						f.firstKid = kid
					} else if kid != nil {
						prev.nextSib = kid
					}
				} else {
					kid = p.child(f, name)
				}
				i = s.pos
			}
			prev = kid
			i = skipWS(d, i) + 1 // ':'
			s.pos = skipWS(d, i)
			p.value(s, kid, rec, depth+1)
			i = skipWS(d, s.pos)
			if i < len(d) && d[i] == ',' {
				i++
				continue
			}
			s.pos = i + 1 // '}'
			p.objectEnd(f, n, rec)
			return
		}
	case '[':
		d := s.d
		i := skipWS(d, s.pos+1)
		n := 0
		if i < len(d) && d[i] == ']' {
			s.pos = i + 1
		} else {
			el := p.elemOf(f)
			for {
				s.pos = skipWS(d, i)
				p.value(s, el, rec, depth+1)
				n++
				i = skipWS(d, s.pos)
				if i < len(d) && d[i] == ',' {
					i++
					continue
				}
				s.pos = i + 1 // ']'
				break
			}
		}
		p.arrayEnd(f, n, rec)
		return
	}
	start := s.pos
	if c == '"' {
		s.skipString()
	} else {
		// A number, true, false or null: up to the next delimiter.
		i := s.pos
		for i < len(s.d) {
			if b := s.d[i]; b == ',' || b == '}' || b == ']' || b == ' ' || b == '\n' || b == '\t' || b == '\r' {
				break
			}
			i++
		}
		s.pos = i
	}
	if p.capOn {
		p.lc.add(f, s.d[start:s.pos])
	}
	p.scalar(f, s.d[start:s.pos], rec)
}

// enter starts a value of f (a scalar, an object or an array) in record
// rec: f's record and value counts, the tracker's first records of f.
// The walk calls it before the value's content (see scalar).
func (p *Profile) enter(f *Field, rec int) {
	if !f.enterQuick(rec) {
		p.enterNew(f, rec)
	}
}

// enterQuick is enter in its usual cases (inlined where it is called at
// every value): a value of f again in record rec, or the first in rec
// when the record before had f and no more of f's first records are
// kept. False: enterNew must do it.
func (f *Field) enterQuick(rec int) bool {
	if f.lastRec == rec {
		f.Values++
		return true
	}
	if rec == f.lastRec+1 && f.firstDone {
		f.lastRec = rec
		f.Present++
		f.Values++
		return true
	}
	return false
}

// enterNew is enter of a value of f in record rec, the first of f in
// rec, when records before rec lack f or f's first records are kept.
func (p *Profile) enterNew(f *Field, rec int) {
	if rec > f.lastRec+1 && p.t != nil && f.sel != nil && len(f.sel.lackRecs) < maxLack {
		// (records before this one lack the field: rows.go's
		// lacksField)
		p.t.noteLack(f, f.lastRec+1, rec)
	}
	f.lastRec = rec
	f.Present++
	if !f.firstDone {
		if p.t != nil && !f.inArr && f.sel != nil && len(f.sel.firstRecs) < maxPerWhy {
			f.sel.firstRecs = append(f.sel.firstRecs, rec)
			p.t.keep()
		} else {
			f.firstDone = true
		}
	}
	f.Values++
}

// objectEnd ends an object value of f (after enter and its n members).
func (p *Profile) objectEnd(f *Field, n, rec int) {
	f.Types |= tObject
	f.Containers++
	p.entries(f, n, rec)
}

// arrayEnd ends a list value of f (an array, or an object or a list of
// pairs read as one) of n items, after enter and the items.
func (p *Profile) arrayEnd(f *Field, n, rec int) {
	f.Types |= tArray
	f.Containers++
	p.noteItems(f, n, rec)
}

// scalar adds the scalar value raw of f in record rec, after enter: its
// JSON text as written (a string with its quotes and escapes, a number,
// true, false or null; not empty). It is the one call a walk makes per
// scalar value (the profile's own walk, value, or another walker): the
// kinds, the null count, the distinct values and every statistic, the
// fingerprint of the field's values by record and the tracker's work
// per value.
func (p *Profile) scalar(f *Field, raw []byte, rec int) { p.scalarEnter(f, raw, rec, false) }

// scalarEnter is scalar, after enter when enter is true: one call for a
// walk that calls both at each scalar (FedColl.Scalar, inlined there).
func (p *Profile) scalarEnter(f *Field, raw []byte, rec int, enter bool) {
	if enter && !f.enterQuick(rec) {
		p.enterNew(f, rec)
	}
	p.seq++
	if f.quiet && len(raw) == int(f.lastLen) {
		// The field's last value again, adding nothing but its count
		// (most records repeat the last one's state, kind, node,
		// flag): two words compared, a count, the fingerprint.
		if w0, w1 := keyWords(raw); w0 == f.lastW[0] && w1 == f.lastW[1] && (len(raw) <= 16 || string(raw[8:len(raw)-8]) == f.lastVal.key[8:len(raw)-8]) {
			if f.lastRun++; f.lastRun == 1<<20 {
				f.settleRun()
			}
			if !f.inArr {
				f.recSum += f.lastH * p.recMul
			}
			if f.group {
				p.t.groupValue(f, raw)
			}
			return
		}
	}
	if len(raw) == 0 {
		f.Types |= tNumber // (cannot happen in valid JSON)
		return
	}
	switch raw[0] {
	case '"':
		f.Types |= tString
	case 'n':
		f.Types |= tNull
		f.Nulls++
	case 't', 'f':
		f.Types |= tBool
	default:
		f.Types |= tNumber
	}
	if f.bare {
		return
	}
	var vh uint64
	if f.tab != nil && f.lastRun == 0 && (p.t == nil || f.sel == nil || f.sel.exitVals == nil) {
		vh = p.tabValue(f, raw, rec) // (distinct's most common case)
	} else {
		vh = p.distinct(f, raw, rec)
	}
	if !f.inArr {
		f.recSum += vh * p.recMul
	}
	if f.group {
		p.t.groupValue(f, raw)
	}
}

// noteExtreme makes x, a number of record rec, the least (low) or the
// greatest number v so far when it is the first or beyond v, with its
// record and the record's text the tracker holds (rows.go): the numbers
// of a field and its strings that hold numbers (strNumber) alike.
func (p *Profile) noteExtreme(first, low bool, x float64, rec int, v *float64, vRec *int, vRaw *[]byte) {
	if first || low && x < *v || !low && x > *v {
		*v, *vRec = x, rec
		if p.t != nil {
			*vRaw = p.t.hold(*vRaw)
		}
	}
}

// firstSight adds the statistics of the scalar value raw of f, seen for
// the first time (or of a field with too many values to remember them),
// and keeps them in st for the next time it is seen (again).
func (p *Profile) firstSight(f *Field, raw []byte, rec int, st *valStat) {
	*st = noKinds
	switch raw[0] {
	case '"':
		p.firstString(f, raw, rec, st)
		if st.fl&stTime == 0 && len(raw) >= 3 && len(raw) <= 34 && (raw[1] >= '0' && raw[1] <= '9' || raw[1] == '-') {
			p.strNumber(f, raw[1:len(raw)-1], rec, st)
		}
	case 'n', 't', 'f':
		// counted by value() and distinct()
	default:
		x, ok := parseNumber(raw)
		if !ok {
			return
		}
		st.fl, st.x = stNum, x
		if x != math.Trunc(x) || math.Abs(x) > quietNum {
			f.numFrac = true
		}
		switch {
		case f.NumN == 0 || x > f.Max:
			f.maxN = 1
		case x == f.Max:
			f.maxN++
		}
		p.noteExtreme(f.NumN == 0, true, x, rec, &f.Min, &f.minRec, &f.minRaw)
		p.noteExtreme(f.NumN == 0, false, x, rec, &f.Max, &f.maxRec, &f.maxRaw)
		f.NumN++
		f.Sum += x
		f.SumSquares += x * x
		if p.t != nil && f.sel != nil {
			p.t.number(f, x)
		}
	}
}

// again adds the statistics st of a value of f seen before (a value
// seen again is no new extreme, no longer string, no new kind).
func (p *Profile) again(f *Field, st *valStat) {
	if st.fl&stNum != 0 {
		// (seen before: no new extreme, but maybe one held again)
		if st.x == f.Max {
			f.maxN++
		}
		f.NumN++
		f.Sum += st.x
		f.SumSquares += st.x * st.x
		if p.t != nil && f.sel != nil {
			p.t.number(f, st.x)
		}
		return
	}
	if st.fl&stStrNum != 0 {
		f.strNums.add(st.x, 1)
	}
	if st.fl&stLong != 0 {
		f.Long++
		if st.fl&stSpaced != 0 {
			f.Spaced++
		}
	}
	if st.fl&stUnshaped != 0 {
		f.Unshaped++
	} else if f.tooMany {
		// (While the field has few values, its patterns come from its
		// value counts: Finish.)
		f.pats.again(st.pat)
	}
	f.pres.again(st.pre)
	f.exts.again(st.ext)
	if st.fl&stTime != 0 {
		f.TimeN++
		f.years.add(int32(st.x))
	}
}

// settleFew adds, while f has few values (at most maxValues: vals),
// what each value other than a number adds every time it is seen again
// (again), by its count: distinct counts such values, and they are added
// here, once, when the field passes maxValues values or at Finish.
func (p *Profile) settleFew(f *Field) {
	if f.fewSettled {
		return
	}
	f.fewSettled = true
	for _, vs := range f.vals {
		if k := vs.n - 1; k > 0 && vs.st.fl&stAny != 0 && vs.st.fl&stNum == 0 {
			p.againN(f, &vs.st, k)
		}
	}
}

// settleTab adds, for each string of f's tab (past maxValues values),
// what it adds every time it is seen again (again: its kinds, lengths
// and times; not a number's nor a string's holding a number, added in
// order at each sighting), by its count since it was counted first or
// since settleFew: distinct does not add them at each sighting. It runs
// when tab is dropped (past maxDistinct values) and at Finish.
func (p *Profile) settleTab(f *Field) {
	if f.tab == nil || f.tabSettled || !f.tabPending {
		return
	}
	for i := range f.tab.slots {
		e := &f.tab.slots[i]
		if e.h == 0 || e.st.fl&stAny == 0 || e.st.fl&(stNum|stStrNum) != 0 {
			continue
		}
		k := e.st.n - 1
		if b, ok := f.tabBase[e.h]; ok {
			k = e.st.n - b
		}
		if k <= 0 {
			continue
		}
		st := &e.st
		if st.fl&stUnshaped == 0 {
			f.pats.againN(st.pat, int(k))
		}
		p.againN(f, st, int(k))
	}
	f.tabBase, f.tabSettled = nil, true
}

// againN adds k times the statistics st of a string of f seen before
// (again, but numbers, which again adds one at a time), while f has few
// values (its patterns come from its value counts).
func (p *Profile) againN(f *Field, st *valStat, k int) {
	if st.fl&stStrNum != 0 {
		f.strNums.add(st.x, k)
	}
	if st.fl&stLong != 0 {
		f.Long += k
		if st.fl&stSpaced != 0 {
			f.Spaced += k
		}
	}
	if st.fl&stUnshaped != 0 {
		f.Unshaped += k
	}
	f.pres.againN(st.pre, k)
	f.exts.againN(st.ext, k)
	if st.fl&stTime != 0 {
		f.TimeN += k
		f.years.addN(int32(st.x), k)
	}
}

// firstString is firstSight of a string.
func (p *Profile) firstString(f *Field, raw []byte, rec int, st *valStat) {
	body := raw[1 : len(raw)-1]
	if len(body) <= 100 && f.tooMany && !f.pats.done {
		// (Past maxValues values, each string's pattern is counted as
		// it is read: the pass that reads it finds the rest.) A string
		// of the shape of the field's last one (ids, names and times
		// that differ in digits) has its pattern and shape.
		if m := f.shape; m != nil && m.same(body) {
			f.pats.addAt(m.pat)
			st.pat = m.pat
			if m.plain {
				m.again(f, st)
			} else {
				p.plainString(f, body, m.sh, rec, st)
			}
			return
		}
		if pat, sh, ok := shapeOf(p.pat[:0], body); ok {
			p.pat = pat
			st.pat = f.pats.add(p.pat, 1)
			var m *shapeMemo
			if st.pat >= 0 {
				if f.shape == nil {
					f.shape = &shapeMemo{}
				}
				m = f.shape
				m.keep(body, sh, st.pat)
			}
			p.plainString(f, body, sh, rec, st)
			if m != nil {
				m.keepPlain(body, st)
			}
			return
		}
	}
	escaped := bytes.IndexByte(body, '\\') >= 0
	var str string
	if escaped {
		// It has at most one character per byte.
		if len(body) > f.MaxLen {
			if n := escapedRunes(body); n > f.MaxLen {
				f.MaxLen = n
			}
		}
		// The prefix before a "/" and the time need the string
		// itself; cheap checks of the text tell when they cannot.
		slash := !f.pres.done && bytes.IndexByte(body, ' ') < 0 && (bytes.IndexByte(body, '/') >= 0 || bytes.Contains(body, []byte(`\u00`)))
		timeLike := len(body) >= 19 && len(body) <= 240 && (body[0] >= '0' && body[0] <= '9' || body[0] == '\\')
		if slash || timeLike {
			str = unquote(raw)
		}
	} else if len(body) > f.MaxLen {
		if n := utf8.RuneCount(body); n > f.MaxLen {
			f.MaxLen = n
		}
	}
	// A plain JSON string holds no control character, so the only
	// white space it can hold is a space (one search).
	space := -2 // not looked for
	if len(body) > 20 {
		st.fl |= stLong
		f.Long++
		if space = bytes.IndexByte(body, ' '); space >= 0 {
			st.fl |= stSpaced
			f.Spaced++
		}
	}
	if len(body) > 100 {
		st.fl |= stUnshaped
		f.Unshaped++
	} else if !f.pats.done && f.tooMany {
		// While the field has few values, its patterns come from
		// its value counts (Finish).
		p.pat = appendPattern(p.pat[:0], body)
		st.pat = f.pats.add(p.pat, 1)
	}
	if !f.pres.done {
		// An escaped string was unquoted above when it may have a
		// prefix; a plain one is its body (counted by its bytes: a
		// new kind is copied, so the counts never alias the input).
		if !escaped {
			if space == -2 {
				space = bytes.IndexByte(body, ' ')
			}
			if space < 0 {
				if i := bytes.IndexByte(body, '/'); i >= 0 {
					st.pre = f.pres.add(body[:i], 1)
				}
			}
		} else if !strings.ContainsAny(str, " \t\n") {
			if i := strings.IndexByte(str, '/'); i >= 0 {
				st.pre = f.pres.add([]byte(str[:i]), 1)
			}
		}
	}
	if !f.exts.done && !escaped && len(body) <= 200 {
		if e := extOf(body); e != nil {
			st.ext = f.exts.add(e, 1)
		}
	}
	p.noteTime(f, body, str, escaped, rec, st)
}

// plainString is firstString of a string of at most 100 bytes with no
// escape, whose pattern is counted (st.pat) and whose shape is sh.
func (p *Profile) plainString(f *Field, body []byte, sh strShape, rec int, st *valStat) {
	if len(body) > f.MaxLen {
		n := len(body)
		if !sh.ascii {
			n = utf8.RuneCount(body)
		}
		f.MaxLen = max(f.MaxLen, n)
	}
	if len(body) > 20 {
		st.fl |= stLong
		f.Long++
		if sh.space >= 0 {
			st.fl |= stSpaced
			f.Spaced++
		}
	}
	// (The prefix and the extension counted last again, most strings
	// of a field share them, are counted without add's call; a kind
	// counted is one extAfter gave, so it needs no look again.)
	if !f.pres.done && sh.space < 0 && sh.slash >= 0 {
		if pre := body[:sh.slash]; f.pres.lastIs(pre) {
			f.pres.addAt(f.pres.last)
			st.pre = f.pres.last
		} else {
			st.pre = f.pres.add(pre, 1)
		}
	}
	if !f.exts.done {
		i := sh.lastDot
		if i > 0 && sh.lastSlash < i && sh.space < 0 && body[i-1] != '/' {
			if f.exts.lastIs(body[i+1:]) {
				f.exts.addAt(f.exts.last)
				st.ext = f.exts.last
			} else if e := extAfter(body, i); e != nil {
				st.ext = f.exts.add(e, 1)
			}
		}
	}
	if len(body) >= 19 && len(body) <= 40 && body[4] == '-' {
		// (noteTime's test of a plain string, before the call)
		p.noteTime(f, body, "", false, rec, st)
	}
}

// noteTime counts the string body (unquoted: str, when escaped) of f
// when it is a time.
func (p *Profile) noteTime(f *Field, body []byte, str string, escaped bool, rec int, st *valStat) {
	var k timeKey
	var year int32
	isTime := false
	var text []byte
	if len(body) >= 19 && len(body) <= 40 && body[4] == '-' && !escaped {
		text = body
		if k, year, isTime = fastTime(body); !isTime {
			if t, ok := parseTime(unsafe.String(&body[0], len(body))); ok {
				k, year, isTime = timeKey{t.Unix(), int32(t.Nanosecond())}, int32(t.Year()), true
			}
		}
	} else if escaped {
		if t, ok := parseTime(str); ok {
			k, year, isTime = timeKey{t.Unix(), int32(t.Nanosecond())}, int32(t.Year()), true
			text = []byte(str)
		}
	}
	if !isTime {
		return
	}
	st.fl |= stTime
	st.x = float64(year)
	f.TimeN++
	f.years.add(year)
	if f.TimeN == 1 || k.before(f.earliestKey) {
		f.earliestKey, f.earliestBuf, f.earliestRec = k, append(f.earliestBuf[:0], text...), rec
		if p.t != nil {
			f.earliestRaw = p.t.hold(f.earliestRaw)
		}
	}
	if f.TimeN == 1 || f.latestKey.before(k) {
		f.latestKey, f.latestBuf, f.latestRec = k, append(f.latestBuf[:0], text...), rec
		if p.t != nil {
			f.latestRaw = p.t.hold(f.latestRaw)
		}
	}
}

// entries counts an object of n members of f in record rec.
func (p *Profile) entries(f *Field, n, rec int) {
	if f.Objects == 0 || n < f.MinEntries {
		f.MinEntries = n
	}
	if n > f.MaxEntries || f.Objects == 0 {
		f.MaxEntries, f.maxEntriesRec, f.maxEntriesN = n, rec, 0
		if p.t != nil {
			f.maxEntriesRaw = p.t.hold(f.maxEntriesRaw)
		}
	}
	if n == f.MaxEntries {
		f.maxEntriesN++
	}
	f.Objects++
	f.Entries += n
}

// recMul is record rec's multiplier of its values' hashes: a field's
// fingerprint (Field.recSum) is the sum of its values' hashes, each
// times its record's multiplier, so that two fields have the same sum
// exactly when they hold the same values in the same records (up to
// 64-bit hash collisions, as the distinct counts: a multiplier is odd,
// so one record's different values never sum alike, and records' own
// multipliers differ). A value adds a multiplication and an addition.
func recMul(rec int) uint64 {
	x := (uint64(rec) + 1) * 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return (x ^ x>>31) | 1
}

// fewKey is the length and the words (keyWords) of a value's text.
type fewKey struct {
	w [2]uint64
	n int
}

// settleRun adds to the count of f's last value the times it was seen
// again since (lastRun): a null's to Nulls too.
func (f *Field) settleRun() {
	if f.lastRun == 0 {
		return
	}
	vs := f.lastVal
	vs.n += int(f.lastRun)
	switch {
	case vs.key[0] == 'n':
		f.Nulls += int(f.lastRun)
	case vs.st.fl&stNum != 0:
		// Integers of at most quietNum, fewer than 1<<22 of them: every
		// sum is an integer below 2^53, exact in any order.
		x, k := vs.st.x, float64(f.lastRun)
		f.NumN += int(f.lastRun)
		f.Sum += x * k
		f.SumSquares += x * x * k
		if f.NumN >= 1<<21 {
			f.quiet = false
		}
	}
	f.lastRun = 0
}

// slowOnly makes every value take the slow path (no Field.quiet): tests
// compare the two (TestQuietSameAsSlow).
var slowOnly = false

// quietNum bounds the integers added by their count (quietNumber).
const quietNum = 1 << 15

// quietNumber reports whether the number x of f, seen again, adds
// nothing but its count and its sums: an integer of at most quietNum
// (and every number of f so far is one), not under an array, that the
// tracker's largest and smallest of f both drop, while no group sums
// its record's numbers (tracker.number); its sums are then added by
// their count (settleRun).
func (p *Profile) quietNumber(f *Field, x float64) bool {
	if f.numFrac || f.NumN >= 1<<21 || f.inArr {
		return false
	}
	t := p.t
	return t == nil || f.sel == nil || t.gon == 0 && f.sel.hi.rejects(x) && f.sel.lo.rejects(x)
}

// keyWords returns two words that, with its length, tell a value's text
// of up to 16 bytes from any other (its first and last 8 bytes, 4 bytes
// or bytes, overlapping); a longer one's first and last 8 bytes.
func keyWords(b []byte) (w0, w1 uint64) {
	switch n := len(b); {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32, 0
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
	return 0, 0
}

// distinct counts the scalar value raw (its JSON text) of f in record
// rec, adds its statistics, and returns its hash: a value among the
// field's counted ones has it from when it was first seen, so a field of
// few values hashes none of its values again, and a value seen before
// adds the statistics kept with it (again; a string's, while the field
// has few values, by its count: settleFew). A field past maxDistinct
// values under an array hashes none (0: its hash only makes recSum,
// which is of the fields outside arrays).
func (p *Profile) distinct(f *Field, raw []byte, rec int) uint64 {
	// (A value of the slow path settles the last value's run first: a
	// number's sums stay in the order the numbers came.)
	if f.lastRun != 0 {
		f.settleRun()
	}
	if !f.tooMany {
		// Values are compared by their length and words first (no
		// look at a value's own text while they differ there).
		w0, w1 := keyWords(raw)
		vs := f.lastVal
		if vs == nil || int(f.lastLen) != len(raw) || f.lastW[0] != w0 || f.lastW[1] != w1 || len(raw) > 16 && vs.key != string(raw) {
			vs = nil
			if len(f.few) == len(f.vals) {
				// A few values (states, flags) are compared in turn,
				// without hashing.
				for i := range f.fewK {
					if k := &f.fewK[i]; k.n == len(raw) && k.w[0] == w0 && k.w[1] == w1 && (len(raw) <= 16 || f.few[i].key == string(raw)) {
						vs = f.few[i]
						break
					}
				}
			} else {
				vs = f.vidx.find(raw, w0, w1)
			}
		}
		if vs != nil {
			if vs.st.fl&stNum != 0 {
				// (A number's sums are added in order, and the
				// tracker sees each; what any other value adds
				// again is added by its count: settleFew.)
				p.again(f, &vs.st)
			}
		} else if len(f.vals) < maxValues {
			vs = &valState{key: string(raw), h: hashBytes(raw), first: p.rec, seq: p.seq, recsDone: p.t == nil}
			p.firstSight(f, raw, rec, &vs.st)
			vs.st.settle()
			f.vals[vs.key] = vs
			if len(f.few) < maxFew {
				f.few = append(f.few, vs)
				f.fewK = append(f.fewK, fewKey{[2]uint64{w0, w1}, len(raw)})
			} else {
				if f.vidx.slots == nil {
					for _, o := range f.few {
						f.vidx.add(o)
					}
				}
				f.vidx.add(vs)
			}
			f.Distinct = len(f.vals)
			if p.t != nil && f.sel != nil {
				p.t.newValue(f, vs, raw)
			}
		}
		if vs != nil {
			if vs != f.lastVal {
				f.lastVal = vs
				f.lastLen = int32(len(raw))
				f.lastW[0], f.lastW[1] = w0, w1
				f.lastH = vs.h
			}
			vs.n++
			if !vs.recsDone && vs.last != p.rec+1 {
				vs.recs = append(vs.recs, p.rec)
				vs.last = p.rec + 1
				vs.recsDone = len(vs.recs) >= maxPerWhy
				p.t.keep()
			}
			f.quiet = vs.recsDone && (vs.st.fl&stNum == 0 || p.quietNumber(f, vs.st.x)) && !slowOnly
			return vs.h
		}
		// Too many values to count each: from here on they are counted
		// by hash, with their statistics, and each string's pattern is
		// counted as it is read (the values counted so far are counted
		// now).
		p.settleFew(f)
		f.tooMany = true
		f.tab = &valTable{}
		f.tabBase = make(map[uint64]int32, len(f.vals))
		for k, vs := range f.vals {
			e, _ := f.tab.get(vs.h)
			e.st = vs.st
			e.st.n = int32(vs.n)
			e.st.pat = p.countPattern(f, k, vs.n)
			e.st.settle()
			f.tabBase[e.h] = e.st.n
			f.noteTop(e, vs.n, k, true)
			if f.kindOf != 0 {
				f.noteKind(e.h, k)
			}
		}
		if p.t != nil && f.sel != nil {
			p.t.tooMany(f)
		}
		f.vals, f.lastVal, f.few, f.fewK, f.vidx, f.quiet = nil, nil, nil, nil, valIndex{}, false
	}
	if p.t != nil && f.sel != nil && f.sel.exitVals != nil {
		p.t.exitValue(f, raw)
	}
	if f.ManyDistinct {
		var st valStat
		p.firstSight(f, raw, rec, &st)
		if f.inArr {
			return 0 // (the hash is only for recSum, outside arrays)
		}
		return hashBytes(raw)
	}
	return p.tabValue(f, raw, rec)
}

// tabValue is distinct of a value of a field with a table of its values
// (f.tab: more than maxValues of them, at most maxDistinct), its last
// value's run settled and no tracker's exit values: the value counted
// by its hash. hashBytes and valTable.get are written out here for a
// value of up to 64 bytes (most of them: the versions and times of npm's
// view of a package count 190,000 in 10 MB); TestTabValueHashIsHashBytes
// fails when the two differ.
func (p *Profile) tabValue(f *Field, raw []byte, rec int) uint64 {
	var vh uint64
	if n := len(raw); n <= 64 {
		// (hashBytes, the same hash)
		k := &hashKeys
		h := k[0]
		var w0, w1 uint64
		if n > 16 {
			// (hashBytes' loop unrolled: its 16-byte blocks below n-16,
			// read in place)
			q := unsafe.Pointer(unsafe.SliceData(raw))
			h = mulMix(loadWord(q, 0)^k[1], loadWord(q, 8)^h)
			if n > 32 {
				h = mulMix(loadWord(q, 16)^k[1], loadWord(q, 24)^h)
				if n > 48 {
					h = mulMix(loadWord(q, 32)^k[1], loadWord(q, 40)^h)
				}
			}
			w0, w1 = loadWord(q, n-16), loadWord(q, n-8)
		} else {
			w0, w1 = keyWords(raw)
		}
		vh = mulMix(mulMix(w0^k[2], w1^k[3])^h, k[4]^uint64(n))
	} else {
		vh = hashBytes(raw)
	}
	// (valTable.get, the table grown only when a value is added: it
	// grows at the same value and to the same places as get's)
	t := f.tab
	h := vh
	if h == 0 {
		h = 1
	}
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	e := &t.slots[i]
	for e.h != h && e.h != 0 {
		i = (i + 1) & mask
		e = &t.slots[i]
	}
	fresh := e.h == 0
	if fresh {
		if t.n >= t.full {
			t.grow()
			mask = uint64(len(t.slots) - 1)
			i = h & mask
			e = &t.slots[i]
			for e.h != 0 {
				i = (i + 1) & mask
				e = &t.slots[i]
			}
		}
		*e = valEnt{h: h}
		t.n++
		p.firstSight(f, raw, rec, &e.st)
		e.st.settle()
		if f.kindOf != 0 {
			f.noteKind(h, unsafe.String(unsafe.SliceData(raw), len(raw)))
		}
	} else if e.st.fl&(stNum|stStrNum) != 0 {
		// (Numbers are added in order, one at a time; what any other
		// value adds again is added by its count: settleTab.)
		p.again(f, &e.st)
	} else if e.st.fl&stAny != 0 {
		f.tabPending = true
	}
	e.st.n++
	if int(e.st.n) > f.topMin || len(f.top) < topValues {
		// (A record that is a slice of the input stays as it is while
		// the profile is made: its values are kept uncopied until
		// Finish.)
		f.noteTop(e, int(e.st.n), unsafe.String(unsafe.SliceData(raw), len(raw)), p.t != nil && p.t.alias)
	}
	if !fresh {
		return vh // (f.Distinct is f.tab.n already)
	}
	f.Distinct = f.tab.n
	if f.Distinct > maxDistinct {
		p.settleTab(f)
		f.kindAt = nil // (too many values to count by kind)
		f.ManyDistinct = true
		f.Distinct = maxDistinct
		f.tab, f.top, f.tops, f.tabBase = nil, nil, nil, nil
	}
	return vh
}

// noteTop records that the value raw (entry e of the field's table) has
// now been seen n times: it joins (or stays among) the field's topValues
// most common ones when it has more than the least of them. raw is copied
// when kept, unless stable (it stays unchanged until Finish, which copies
// the values it keeps).
func (f *Field) noteTop(e *valEnt, n int, raw string, stable bool) {
	if e.st.fl&stTop != 0 {
		i := 0
		for f.tops[i] != e.h {
			i++
		}
		f.top[i].Count = n
		if n-1 <= f.topMin {
			f.topMinOf()
		}
		return
	}
	if len(f.top) < topValues {
		if !stable {
			raw = strings.Clone(raw)
		}
		e.st.fl |= stTop
		f.top = append(f.top, TopValue{raw, n})
		f.tops = append(f.tops, e.h)
	} else {
		i := 0
		for j, t := range f.top {
			if t.Count < f.top[i].Count {
				i = j
			}
		}
		if n <= f.top[i].Count {
			return
		}
		if !stable {
			raw = strings.Clone(raw)
		}
		f.tab.find(f.tops[i]).st.fl &^= stTop
		f.top[i], f.tops[i] = TopValue{raw, n}, e.h
		e.st.fl |= stTop
	}
	f.topMinOf()
}

// topMinOf sets topMin to the least count in top (0 while it has room).
func (f *Field) topMinOf() {
	if len(f.top) < topValues {
		f.topMin = 0
		return
	}
	m := f.top[0].Count
	for _, t := range f.top[1:] {
		m = min(m, t.Count)
	}
	f.topMin = m
}

// hashSeed seeds the hashes of distinct values (maphash: a few bytes per
// nanosecond, where FNV went a byte at a time); hashKeys, drawn from it,
// seed the hash of short values (hashBytes).
var (
	hashSeed = maphash.MakeSeed()
	hashKeys = func() (k [5]uint64) {
		for i := range k {
			k[i] = maphash.Bytes(hashSeed, []byte{byte(i)}) | 1
		}
		return k
	}()
)

// hashBytes hashes a value's text (distinct values, a field's and a
// keyed collection's fingerprints: one function for all). A text of up
// to 64 bytes (most values and keys) is hashed by its 8-byte words,
// multiplied as wyhash does (a 64-bit product's two halves xored, seeded
// by hashKeys): a few multiplications, where maphash's call took about
// 65 instructions; a longer one by maphash.
//
// Its uses compare texts too, except one: valTable (stats.go) matches a
// field's values by this hash alone once the field has more than 64
// distinct values (up to maxDistinct, 4,096). Two values of such a field
// that collide are counted as one: its distinct count is one lower and
// one value's count is added to the other's, with nothing said. For n
// values the chance is about n²/2^65: under 2^-41 (one field in two
// million million) at 4,096 values. The seed is drawn per process
// (maphash.MakeSeed), so no input collides on every run.
func hashBytes(b []byte) uint64 {
	n := len(b)
	if n > 64 {
		return maphash.Bytes(hashSeed, b)
	}
	k := &hashKeys
	h := k[0]
	var w0, w1 uint64
	switch {
	case n > 16:
		// The 16-byte blocks below n-16, then the last 16 bytes (read
		// in place: loadWord; tabValue writes this out, and
		// TestTabValueHashIsHashBytes holds the two to one hash).
		q := unsafe.Pointer(unsafe.SliceData(b))
		h = mulMix(loadWord(q, 0)^k[1], loadWord(q, 8)^h)
		if n > 32 {
			h = mulMix(loadWord(q, 16)^k[1], loadWord(q, 24)^h)
			if n > 48 {
				h = mulMix(loadWord(q, 32)^k[1], loadWord(q, 40)^h)
			}
		}
		w0, w1 = loadWord(q, n-16), loadWord(q, n-8)
	default:
		// (keyWords: with the length, they tell any text of up to 16
		// bytes from any other)
		w0, w1 = keyWords(b)
	}
	// (the length last, in the multiplier: xored into a word, it would
	// cancel a byte of the text)
	return mulMix(mulMix(w0^k[2], w1^k[3])^h, k[4]^uint64(n))
}

// mulMix is the two halves of the 128-bit product of x and y, xored.
func mulMix(x, y uint64) uint64 {
	hi, lo := bits.Mul64(x, y)
	return hi ^ lo
}

// escapedRunes returns the number of characters of the JSON string body
// (with escapes) once unquoted, as encoding/json unquotes it: an escape
// is one character, a surrogate pair one, a lone surrogate or a byte
// that is not UTF-8 one U+FFFD.
func escapedRunes(body []byte) int {
	n := 0
	for len(body) > 0 {
		// The text up to the next escape is counted at once.
		j := bytes.IndexByte(body, '\\')
		if j < 0 {
			return n + utf8.RuneCount(body)
		}
		n += utf8.RuneCount(body[:j]) + 1
		body = body[j:]
		switch {
		case len(body) >= 6 && body[1] == 'u':
			r := hex4(body[2:6])
			if utf16.IsSurrogate(r) && len(body) >= 12 && body[6] == '\\' && body[7] == 'u' &&
				utf16.DecodeRune(r, hex4(body[8:12])) != utf8.RuneError {
				body = body[12:]
			} else {
				body = body[6:]
			}
		case len(body) >= 2:
			body = body[2:]
		default:
			body = body[1:]
		}
	}
	return n
}

// hex4 decodes four hex digits (-1 when they are not).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// parseTime recognises RFC 3339 times ("2024-05-01T12:00:00Z") and
// "2024-05-01 12:00:00" with a cheap check before parsing.
func parseTime(s string) (time.Time, bool) {
	if len(s) < 19 || len(s) > 40 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[0] < '0' || s[0] > '9' {
		return time.Time{}, false
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	if t, err := time.Parse("2006-01-02 15:04:05", s); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// extOf is the extension of a file name or path s ("go" of
// "net/http/server.go"): 1 to 8 letters or digits, one a letter, after
// the last ".",
// itself after the last "/", in a string with no space; else nil.
func extOf(s []byte) []byte {
	i := bytes.LastIndexByte(s, '.')
	if i <= 0 || bytes.IndexByte(s[i:], '/') >= 0 || bytes.IndexByte(s, ' ') >= 0 || s[i-1] == '/' {
		return nil
	}
	return extAfter(s, i)
}

// extAfter is extOf of s whose last "." is at i (after its last "/", in
// a string with no space, not right after a "/"): the 1 to 8 letters or
// digits after it, one a letter; else nil.
func extAfter(s []byte, i int) []byte {
	if len(s)-i-1 < 1 || len(s)-i-1 > 8 {
		return nil
	}
	letter := false
	for _, c := range s[i+1:] {
		l := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(l || c >= '0' && c <= '9') {
			return nil
		}
		letter = letter || l
	}
	if !letter {
		return nil // a version's last number
	}
	return s[i+1:]
}

// Finish finds the identity field after the last record, and the
// patterns of the fields with few values.
func (p *Profile) Finish() {
	defer func() {
		for _, f := range append(p.Fields, p.root) {
			if m := f.pats.counts(); m != nil {
				f.Patterns = m
			}
			if m := f.pres.counts(); m != nil {
				f.Prefixes = m
			}
			if m := f.exts.counts(); m != nil {
				f.Exts = m
			}
			f.pats, f.pres, f.exts = kindCount{}, kindCount{}, kindCount{}
		}
	}()
	for _, f := range append(p.Fields, p.root) {
		f.settleRun()
		if !f.tooMany {
			p.settleFew(f)
		} else {
			p.settleTab(f)
		}
		f.numStrings()
		if f.TimeN > 0 {
			f.earliestText, f.latestText = string(f.earliestBuf), string(f.latestBuf)
			f.Earliest, _ = parseTime(f.earliestText)
			f.Latest, _ = parseTime(f.latestText)
			f.Years = f.years.counts()
		}
		f.earliestBuf, f.latestBuf, f.years = nil, nil, yearCount{}
		if f.kindAt != nil {
			f.kindsOfTab()
		}
		if f.top != nil {
			// A value left out has at most the least kept count: a
			// kept value with that count may tie with one left out, so
			// only those above it are surely the most common.
			for _, t := range f.top {
				if len(f.top) < topValues || t.Count > f.topMin {
					f.Top = append(f.Top, TopValue{strings.Clone(t.Value), t.Count})
				}
			}
			sort.Slice(f.Top, func(i, j int) bool {
				if f.Top[i].Count != f.Top[j].Count {
					return f.Top[i].Count > f.Top[j].Count
				}
				return f.Top[i].Value < f.Top[j].Value
			})
			f.top, f.tops, f.tab = nil, nil, nil
		}
		if f.vals != nil && len(f.vals) > 0 {
			f.Counts = make(map[string]int, len(f.vals))
			for k, vs := range f.vals {
				f.Counts[k] = vs.n
			}
		}
		if p.t == nil {
			f.vals = nil
		}
		if f.Counts == nil {
			continue
		}
		if f.kindOf != 0 {
			f.kindsOfCounts()
		}
		for raw, n := range f.Counts {
			p.countPattern(f, raw, n)
		}
	}
	p.findMaps()
	if p.Map {
		return // the key
	}
	best, bestScore := (*Field)(nil), 0
	for _, f := range p.Fields {
		if f.inMap {
			continue
		}
		if f.Types&^(tString|tNumber) != 0 || f.Types == 0 || f.Present != p.Records || f.Values != p.Records || f.ManyDistinct || f.Distinct != p.Records || strings.Contains(f.Path, "[]") {
			continue
		}
		if f.Types == tString && f.MaxLen > 200 {
			continue
		}
		if f.Types == tNumber && (f.Min != math.Trunc(f.Min) || f.Max != math.Trunc(f.Max) || f.Sum != math.Trunc(f.Sum)) && identityScore(f.Path) < 50 {
			// A measurement (hyperfine's mean: 0.0156813…) is unique
			// by chance: it names no record.
			continue
		}
		numbering := numbersRecords(f, p.Records)
		if refNumber(f.Path) && identityScore(f.Path) < 50 && (f.Types != tString || f.NumStrings > 0) && !numbering {
			// A position (a clone's firstFile.start, a line, a
			// frame's byte offset pkt_pos written as a string) is
			// unique by chance: it names no record. A string that
			// is no number does (terraform's resource address,
			// terraform_data.deployment["api-eu-central-1"]).
			continue
		}
		score := identityScore(f.Path)
		if numbering {
			// The records' own numbers (vegeta's seq 0..539) name
			// them as their reader does: before a time, a URL or a
			// position unique by chance.
			score = max(score, numberingScore)
		}
		if score > bestScore {
			best, bestScore = f, score
		}
	}
	if best == nil && p.Records > 0 {
		// Not unique (or too many to tell): a field named like an id
		// still names its record best, when most records have their
		// own value (a package installed twice in two versions), not
		// when its values are a few kinds (a trace event's name: 22
		// values in 2,864 events).
		for _, f := range p.Fields {
			if f.scalar() && f.Present == p.Records && !strings.Contains(f.Path, "[]") && identityScore(f.Path) >= 50 &&
				(f.ManyDistinct || f.Distinct*2 >= p.Records) {
				if s := identityScore(f.Path); s > bestScore {
					best, bestScore = f, s
				}
			}
		}
	}
	p.Identity = best
}

// numberingScore is the identity score of a field that numbers the
// records (numbersRecords): above a field named like nothing (a time, a
// URL: 10), below a name (97), an id or a key (95) and any field named
// like a name or an id (50 and up).
const numberingScore = 30

// numbersRecords reports whether f numbers the records: whole numbers,
// one per record, every one of 0..n-1 or 1..n (seq, index, frame
// number), in at least 3 records. A position or a counter unique by
// chance (an offset, a line) leaves gaps.
func numbersRecords(f *Field, records int) bool {
	return records >= 3 && f.Types == tNumber && f.NumStrings == 0 && f.NumN == records && f.Distinct == records && !f.ManyDistinct &&
		(f.Min == 0 || f.Min == 1) && f.Max-f.Min+1 == float64(records) && f.Min == math.Trunc(f.Min) && f.Max == math.Trunc(f.Max)
}

// KeyedByName reports whether the records are one-member objects whose
// member names are data, each naming its record ({"<package path>":
// {analyzer: [...]}} of go fix -json and go vet -json, {"<id>": {...}}
// envelopes): every record is an object of at most one member, at least
// 4 records have one, and most names name one record each (a tagged
// union, {"Begin": {...}} {"Match": {...}} ..., has few names for many
// records). Such records are keyed records, profiled as a map's members
// are (the key is the identity, the value the record); profiled as they
// are, every name would be a field.
func (p *Profile) KeyedByName() bool {
	r := p.root
	if p.Map || r.Types != tObject || r.Values != p.Records || r.MaxEntries != 1 || r.Entries < 4 {
		return false
	}
	names := len(r.kids) + len(r.keys)
	return r.ManyKeys || r.namesLost || names*4 >= r.Entries*3
}

// findMaps marks the map-like fields (MapLike, with their KeyCounts)
// and the fields under them (inMap).
func (p *Profile) findMaps() {
	for _, f := range p.Fields {
		if !f.keyed && !mapLike(f) {
			continue
		}
		f.MapLike = true
		f.KeyCounts = make(map[string]int, len(f.kids)+len(f.keys))
		for name, kid := range f.kids {
			f.KeyCounts[name] = kid.Present
		}
		if f.namesLost {
			// A name seen past the field cap was not counted, and may
			// have been counted by name later: only the names with a
			// field (counted from their first record) are exact.
			f.ManyKeys = true
		} else {
			for name, k := range f.keys {
				f.KeyCounts[name] = k.n
			}
		}
		f.keys = nil
	}
	for _, f := range p.Fields {
		for g := f.parent; g != nil; g = g.parent {
			if g.MapLike {
				f.inMap = true
				break
			}
		}
	}
}

// mapLike reports whether the member names of object field f are data
// rather than the names of its fields: it has at least 8 names, and most
// are not identifiers ("graceful-fs", "@babel/core", "./package.json"),
// or its members all hold one kind of value and an object holds under
// half of the names on average (or a quarter of the names are not
// identifiers), or it has at least mapKids names, all of scalars, and an
// object holds under a quarter of them on average or one object holds
// at least twice as many. A struct's members are few, named like
// identifiers and mostly all present; a map's are many, each in few
// records.
func mapLike(f *Field) bool {
	if f.Types&^tNull != tObject || len(f.kids) < 8 || f.Objects < 2 && len(f.kids) < 2*mapKids {
		return false
	}
	nonIdent, kind, scalars := 0, -1, true
	for name, kid := range f.kids {
		if !plainName(name) && !wordsName(name) {
			nonIdent++
		}
		switch {
		case kind == -1:
			kind = kid.Types
		case kind != kid.Types:
			kind = 0
		}
		scalars = scalars && kid.scalar()
	}
	k := len(f.kids)
	if f.Objects >= 4 && !f.namesLost && f.Entries*4 >= k*f.Objects*3 {
		// Nearly every object holds nearly every name (tshark's
		// layers: frame."frame.len", frame."frame.number", ... in
		// each of 160 packets): the names are fields, dotted or not.
		return false
	}
	if nonIdent*2 < k && !f.namesLost && labelSet(f) {
		return false
	}
	if nonIdent*2 >= k {
		return true
	}
	sparse := f.Entries*2 <= k*f.Objects
	if scalars && k >= mapKids && (f.Entries*4 <= k*f.Objects || f.MaxEntries >= 2*mapKids) {
		// Many flags, each in few records, of mixed kinds (lshw's
		// capabilities: "fpu": "mathematical co-processor", "wp":
		// true, 108 names): a map of names, not a struct's fields.
		return true
	}
	return kind > 0 && (sparse || nonIdent*4 >= k)
}

// wordsName reports whether name is words of letters and digits joined
// by single spaces, starting with a letter ("Node Type", "Actual Rows":
// PostgreSQL's EXPLAIN names its fields so). Such names are a struct's
// field names, like identifiers; package names, paths and media types,
// the names of a map's entries, never hold a space.
func wordsName(name string) bool {
	if name == "" || name[0] == ' ' || name[len(name)-1] == ' ' || strings.Contains(name, "  ") {
		return false
	}
	for i, r := range name {
		if !(r == ' ' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// nameLike reports whether a field's name says it holds the record's own
// name a person reads (name, title, metadata.name, displayName,
// name.value), not an id, a key or the name of something else (a pod's
// nodeName).
func nameLike(path string) bool {
	l := strings.ToLower(path)
	leaf := l
	if i := strings.LastIndexByte(l, '.'); i >= 0 {
		leaf = l[i+1:]
	}
	switch leaf {
	case "name", "title", "displayname", "display_name", "fullname", "full_name":
		return true
	}
	return strings.HasSuffix(l, ".name.value") || l == "name.value" || strings.HasSuffix(l, ".name.text") || l == "name.text"
}

// identityScore rates how well a field's name says it names its record.
func identityScore(path string) int {
	l := strings.ToLower(path)
	leaf := l
	if i := strings.LastIndexByte(l, '.'); i >= 0 {
		leaf = l[i+1:]
	}
	// The quotes of a quoted name ("Relation Name") and the underscores
	// around a name (prometheus' __name__) are not the name.
	leaf = strings.Trim(leaf, `_"`)
	depth := strings.Count(l, ".")
	switch l {
	case "metadata.name":
		return 100
	case "name":
		return 97
	case "number":
		return 96 // an issue's number, which people use, before its id
	case "id", "key", "importpath", "path", "package", "full_name", "login", "uid", "arn", "title", "alarmname", "slug":
		return 95 - depth
	}
	switch {
	case strings.HasSuffix(leaf, "name"):
		return 70 - 5*depth
	case strings.HasSuffix(l, "name.value") || strings.HasSuffix(l, "name.text"):
		// A name held in an object of its own (a CDP node's name:
		// {type, value})
		return 65 - 5*depth
	case strings.HasSuffix(leaf, "id") || strings.HasSuffix(leaf, "key"):
		return 60 - 5*depth
	}
	return 10 - depth
}

// sortedCounts returns the field's values by count, most first, ties by
// value text.
func (f *Field) sortedCounts() []keyCount {
	vs, _ := byCount(f.Counts)
	return vs
}

// countKind counts kind in m, up to maxValues kinds; done reports that m
// had too many (and is dropped).
func countKind(m map[string]int, kind string) (map[string]int, bool) {
	if m == nil {
		m = map[string]int{}
	}
	if _, ok := m[kind]; !ok && len(m) >= maxValues {
		return nil, true
	}
	m[kind]++
	return m, false
}

// countKindBytes is countKind for a kind held in a reused buffer; the
// counts are pointers, so that counting a kind seen before allocates
// nothing (Finish makes Patterns of them).
func countKindBytes(m map[string]*int, kind []byte) (map[string]*int, bool) {
	if m == nil {
		m = map[string]*int{}
	}
	if n, ok := m[string(kind)]; ok {
		*n++
		return m, false
	}
	if len(m) >= maxValues {
		return nil, true
	}
	n := 1
	m[string(kind)] = &n
	return m, false
}

// kindCounts returns the counts countKindBytes gathered in m, or nil
// when there are none or too many kinds were seen (done).
func kindCounts(m map[string]*int, done bool) map[string]int {
	if m == nil || done {
		return nil
	}
	out := make(map[string]int, len(m))
	for k, n := range m {
		out[k] = *n
	}
	return out
}

// countPattern counts n strings of f whose JSON text is raw by their
// pattern (Patterns) and returns the pattern's index in f.pats (-1: raw
// is no string of at most 100 bytes, or the field has too many patterns).
func (p *Profile) countPattern(f *Field, raw string, n int) int8 {
	if f.pats.done || len(raw) < 2 || raw[0] != '"' || len(raw) > 102 {
		return -1
	}
	p.pat = appendPattern(p.pat[:0], []byte(raw[1:len(raw)-1]))
	return f.pats.add(p.pat, n)
}

// appendPattern appends the pattern of the JSON string body s (escapes
// are kept as they are) to b: the shape of a string, where digit runs
// become #, runs of letters and digits that mix both (or letter runs over
// 20) become *, and everything else stays. Strings over 100 bytes have
// no pattern (nothing is appended).
func appendPattern(b, s []byte) []byte {
	if len(s) > 100 {
		return b
	}
	o := len(b)
	b = slices.Grow(b, len(s))[:o+len(s)] // (a pattern is never longer)
	for i := 0; i < len(s); {
		c := s[i]
		k := patClass[c]
		if k == 0 {
			b[o] = c
			o++
			i++
			continue
		}
		// A run of letters and digits: k gathers its classes.
		j := i + 1
		for j < len(s) {
			kj := patClass[s[j]]
			if kj == 0 {
				break
			}
			k |= kj
			j++
		}
		switch {
		case k == patDigit:
			b[o] = '#'
			o++
		case k == patDigit|patLetter || j-i > 20:
			b[o] = '*'
			o++
		default:
			o += copy(b[o:], s[i:j])
		}
		i = j
	}
	return b[:o]
}

// strShape is what shapeOf finds in a string besides its pattern: the
// first space and "/", the last "." and "/" (-1: none), and whether every
// byte is ASCII.
type strShape struct {
	space, slash, lastDot, lastSlash int
	ascii                            bool
}

// shapeOf is appendPattern of the JSON string body s (at most 100 bytes)
// that also finds s's shape, in the same pass; ok is false when s holds
// an escape (b is then of no use).
func shapeOf(b, s []byte) (out []byte, sh strShape, ok bool) {
	sh = strShape{-1, -1, -1, -1, true}
	o := len(b)
	b = slices.Grow(b, len(s))[:o+len(s)]
	for i := 0; i < len(s); {
		c := s[i]
		k := patClass[c]
		if k == 0 {
			switch {
			case c == ' ':
				if sh.space < 0 {
					sh.space = i
				}
			case c == '/':
				if sh.slash < 0 {
					sh.slash = i
				}
				sh.lastSlash = i
			case c == '.':
				sh.lastDot = i
			case c == '\\':
				return b, sh, false
			case c >= 0x80:
				sh.ascii = false
			}
			b[o] = c
			o++
			i++
			continue
		}
		j := i + 1
		for j < len(s) {
			kj := patClass[s[j]]
			if kj == 0 {
				break
			}
			k |= kj
			j++
		}
		switch {
		case k == patDigit:
			b[o] = '#'
			o++
		case k == patDigit|patLetter || j-i > 20:
			b[o] = '*'
			o++
		default:
			o += copy(b[o:], s[i:j])
		}
		i = j
	}
	return b[:o], sh, true
}

// Classes of bytes in patterns (appendPattern).
const (
	patDigit  = 1
	patLetter = 2
)

// patClass is the class of each byte: a digit, an ASCII letter, or
// neither (0).
var patClass = func() (c [256]uint8) {
	for b := '0'; b <= '9'; b++ {
		c[b] = patDigit
	}
	for b := 'a'; b <= 'z'; b++ {
		c[b], c[b-'a'+'A'] = patLetter, patLetter
	}
	return c
}()

// Summary states, in at most max short phrases, the value counts of the
// profile's telling fields (few distinct short values, outside arrays or
// named like a state: "state open 71, closed 29"; states first) and the
// range and sum of its numeric fields outside arrays ("comments 0..57,
// sum 412"). Fields drop reports (nil: none) are left out. Level 1's
// notice carries it.
func (p *Profile) Summary(max int, drop func(string) bool) []string {
	return p.SummaryOf(max, drop, nil)
}

// SummaryOf is Summary that, given the records again (each), names the
// record holding each numeric field's largest value by its identity
// ("comments 0..29 (largest: number 4139), sum 1520").
func (p *Profile) SummaryOf(max int, drop func(string) bool, each func(fn func(int, []byte) error) error) []string {
	largest := map[*Field]string{}
	if each != nil && p.Identity != nil {
		want := map[*Field]bool{}
		for _, f := range p.Fields {
			if !strings.Contains(f.Path, "[]") && f.NumN >= 3 && f.Min != f.Max && f.Distinct > 8 && f != p.Identity {
				want[f] = true
			}
		}
		if len(want) > 0 {
			_ = each(func(i int, raw []byte) error {
				var id string
				var hits []*Field
				p.leaves(raw, func(f *Field, v []byte) {
					if f == p.Identity {
						id = string(v)
					} else if want[f] && largest[f] == "" {
						if x, err := strconv.ParseFloat(string(v), 64); err == nil && x == f.Max {
							hits = append(hits, f)
						}
					}
				})
				for _, f := range hits {
					largest[f] = cell(id, 60)
				}
				return nil
			})
		}
	}
	var states, others, nums []string
	for _, f := range p.Fields {
		if f == p.Identity || f.Constant(p.Records) || drop != nil && drop(f.Path) {
			continue
		}
		under := strings.Contains(f.Path, "[]")
		state := stateNames.MatchString(f.Path)
		switch {
		case f.Counts != nil && f.Distinct >= 2 && f.Distinct <= 8 && f.Distinct < f.Values && f.MaxLen <= 30 && (!under || state):
			var b strings.Builder
			b.WriteString(f.Path)
			for i, vc := range f.sortedCounts() {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, " %s %d", cell(vc.k, 30), vc.n)
			}
			if state {
				states = append(states, b.String())
			} else {
				others = append(others, b.String())
			}
		case !under && f.NumN >= 3 && f.NumN == f.Values-f.Nulls && f.Min != f.Max && f.Distinct > 8 && !strings.HasSuffix(strings.ToLower(f.Path), "id"):
			who := ""
			if id := largest[f]; id != "" {
				who = fmt.Sprintf(" (largest: %s %s)", p.Identity.Path, id)
			}
			nums = append(nums, fmt.Sprintf("%s %s..%s%s, sum %s", f.Path, numExact(f.Min), numExact(f.Max), who, sumText(f.Sum)))
		}
	}
	out := append(append(states, nums...), others...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// noteItems adds an array of n items (in record rec) to f's item counts:
// the fewest (an empty array seen first stays the fewest), the most and
// the record holding them, the total and the empty arrays. Every reading
// of a field as a list (arrays, maps keyed "0".."n-1", pair lists) counts
// its items here.
func (p *Profile) noteItems(f *Field, n, rec int) {
	if f.Containers == 1 && f.Types&tObject == 0 || n < f.MinItems || f.MinItems == 0 && f.Items == 0 && f.MaxItems == 0 && f.EmptyArrays == 0 {
		f.MinItems = n
	}
	if n > f.MaxItems {
		f.MaxItems, f.maxItemsRec, f.maxItemsN = n, rec, 0
		if p.t != nil {
			f.maxItemsRaw = p.t.hold(f.maxItemsRaw)
		}
	}
	if n == f.MaxItems {
		f.maxItemsN++
	}
	f.Items += n
	if n == 0 {
		f.EmptyArrays++
	}
}
