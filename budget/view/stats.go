package view

import (
	"cmp"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// The profile's per-value statistics, worked out once per distinct value.
//
// A field's values repeat: states, kinds, images, nodes, the same few
// numbers. What a value adds to its field's statistics (the number it
// is, whether it is a time and of which year, its pattern, its prefix,
// its extension, its length class) depends on the value alone, so it is
// worked out the first time the value is seen (Profile.firstSight) and
// kept with the value's count (valStat, in the field's valState while it
// has few values, in its valTable past them); a value seen again adds
// the kept statistics (Profile.again): a lookup and a few increments,
// no parsing, no search, no map lookup by string. Values never seen
// before (ids, unique names, past maxDistinct) take the first-sight path
// every time, made cheap on its own: kinds compared with the field's last
// kind before any map (kindCount), plain integers and short decimals
// read without strconv (parseNumber), RFC 3339 times without the time
// package (fastTime).

// valStat is what one value adds to its field's statistics (16 bytes:
// a table of them is read at every value).
type valStat struct {
	// x is the value as a number (stNum), or the year of a time
	// (stTime) as written.
	x float64
	// n counts the value (in a valTable; a valState has its own).
	n int32
	// pat, pre and ext index the value's pattern, prefix and extension
	// in the field's kindCounts (-1: none, or not counted per value).
	pat, pre, ext int8
	fl            uint8
}

// Flags of a valStat.
const (
	stNum      = 1 << iota // a number (x)
	stTime                 // a time (year)
	stLong                 // a string of over 20 bytes between its quotes
	stSpaced               // ... that holds a space
	stUnshaped             // a string of over 100 bytes: no pattern
	stTop                  // (in a valTable) among the field's top values
	stAny                  // it adds more than its count (settle)
	stStrNum               // a string that holds a JSON number (x)
)

// settle marks st when the value adds more than its count to its
// field's statistics (a value seen again that adds nothing else costs no
// call).
func (st *valStat) settle() {
	if st.fl&^(stTop|stAny) != 0 || st.pat >= 0 || st.pre >= 0 || st.ext >= 0 {
		st.fl |= stAny
	}
}

// noKinds is a valStat that counts no kind.
var noKinds = valStat{pat: -1, pre: -1, ext: -1}

// kindCount counts strings by a kind (a pattern, a prefix, an
// extension), exactly, up to maxValues kinds; past them it is done and
// counts nothing more (its counts are not shown). A kind is found by
// comparing it with the last one counted, then the few kinds in turn,
// then a map: most fields have one or two kinds.
type kindCount struct {
	names []string
	n     []int
	idx   map[string]int8
	last  int8
	done  bool
}

// kindScan is how many kinds are compared in turn before the map.
const kindScan = 8

// add counts kind by more and returns its index (-1 when done).
func (k *kindCount) add(kind []byte, more int) int8 {
	if k.done {
		return -1
	}
	i := k.find(kind)
	if i < 0 {
		if len(k.names) >= maxValues {
			k.done, k.names, k.n, k.idx = true, nil, nil, nil
			return -1
		}
		i = int8(len(k.names))
		k.names = append(k.names, string(kind))
		k.n = append(k.n, 0)
		if k.idx != nil || len(k.names) > kindScan {
			if k.idx == nil {
				k.idx = make(map[string]int8, 2*kindScan)
				for j, nm := range k.names {
					k.idx[nm] = int8(j)
				}
			}
			k.idx[k.names[i]] = i
		}
	}
	k.last = i
	k.n[i] += more
	return i
}

// find returns the index of kind, or -1.
func (k *kindCount) find(kind []byte) int8 {
	if int(k.last) < len(k.names) && k.names[k.last] == string(kind) {
		return k.last
	}
	if k.idx != nil {
		if i, ok := k.idx[string(kind)]; ok {
			return i
		}
		return -1
	}
	for j, nm := range k.names {
		if nm == string(kind) {
			return int8(j)
		}
	}
	return -1
}

// lastIs reports whether kind is the kind counted last (not done): most
// strings of a field share their prefix, their extension, which the
// caller then counts with addAt(k.last), without add's call.
func (k *kindCount) lastIs(kind []byte) bool {
	i := int(k.last)
	return i < len(k.names) && k.names[i] == string(kind)
}

// addAt counts once more the kind at index i (from add, while not
// done), as add of that kind would.
func (k *kindCount) addAt(i int8) {
	k.last = i
	k.n[i]++
}

// shapeMemo is a string whose pattern and shape are known: a string of
// the same length that differs from it only where both hold digits has
// the same pattern (its runs of digits, of letters and of both are the
// same, the letters and other bytes too) and the same shape (its spaces,
// slashes, dots and non-ASCII bytes are the same bytes), so neither is
// worked out again (ids, numbered names, URLs and times of a field).
type shapeMemo struct {
	text []byte
	sh   strShape
	pat  int8 // the pattern's index in the field's kindCount
	// plain: what plainString added for text (its flags fl, its prefix
	// and extension kinds pre and ext, -1 for none) is what it adds for
	// any string of the same shape (again): text is no time, and its
	// prefix and extension hold no digit, so that a string of its
	// shape has the same ones (its other bytes are its length, its
	// spaces and slashes: the same).
	plain        bool
	fl           uint8
	pre, ext     int8
	hasPre, hasE bool
}

// keep remembers body (copied), its shape and the index of its pattern.
func (m *shapeMemo) keep(body []byte, sh strShape, pat int8) {
	m.text, m.sh, m.pat, m.plain = append(m.text[:0], body...), sh, pat, false
}

// keepPlain remembers, after plainString of body (the text kept) gave
// st, what it added, when a string of the same shape adds the same
// (plain).
func (m *shapeMemo) keepPlain(body []byte, st *valStat) {
	sh := &m.sh
	if st.fl&stTime != 0 || len(body) >= 19 && len(body) <= 40 && body[4] == '-' {
		return // (a time, or a string that may be one: read each)
	}
	m.hasPre = sh.space < 0 && sh.slash >= 0
	if m.hasPre && hasDigit(body[:sh.slash]) {
		return
	}
	i := sh.lastDot
	m.hasE = i > 0 && sh.lastSlash < i && sh.space < 0 && body[i-1] != '/'
	if m.hasE && hasDigit(body[i+1:]) {
		return
	}
	m.plain, m.fl, m.pre, m.ext = true, st.fl&(stLong|stSpaced), st.pre, st.ext
}

// again adds what plainString adds for a string of m's shape (plain):
// its flags, its prefix and extension while they are counted (their
// kinds keep their indexes until done). Its length is text's, counted.
func (m *shapeMemo) again(f *Field, st *valStat) {
	if m.fl&stLong != 0 {
		f.Long++
		if m.fl&stSpaced != 0 {
			f.Spaced++
		}
	}
	st.fl |= m.fl
	if m.hasPre && !f.pres.done && m.pre >= 0 {
		f.pres.addAt(m.pre)
		st.pre = m.pre
	}
	if m.hasE && !f.exts.done && m.ext >= 0 {
		f.exts.addAt(m.ext)
		st.ext = m.ext
	}
}

// hasDigit reports whether b holds an ASCII digit.
func hasDigit(b []byte) bool {
	for _, c := range b {
		if c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

// same reports whether b has m's pattern and shape: the same length, and
// where a byte differs, a digit in both.
func (m *shapeMemo) same(b []byte) bool {
	a := m.text
	if len(a) != len(b) {
		return false
	}
	if len(b) < 8 {
		for i := range b {
			if a[i] != b[i] && (patClass[a[i]] != patDigit || patClass[b[i]] != patDigit) {
				return false
			}
		}
		return true
	}
	// Word by word (the last one overlapping the one before), read in
	// place: both have len(b) >= 8 bytes (no bounds checks per word).
	pa, pb := unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b))
	last := len(b) - 8
	for i := 0; i < last; i += 8 {
		if x, y := loadWord(pa, i), loadWord(pb, i); x != y && !digitsApart(x, y) {
			return false
		}
	}
	x, y := loadWord(pa, last), loadWord(pb, last)
	return x == y || digitsApart(x, y)
}

// bytesString returns b's bytes as a string, uncopied: for a string
// that lives no longer than b stays unchanged.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// loadWord returns the 8 bytes at p+i as a word (in the machine's byte
// order: its users compare words, test bytes by bit masks that do not
// carry across bytes, or hash them within one process); the caller knows
// they are in one slice.
func loadWord(p unsafe.Pointer, i int) uint64 {
	return *(*uint64)(unsafe.Add(p, i))
}

// digitsApart reports whether the words x and y differ only in bytes
// that are digits in both (eight bytes at once).
func digitsApart(x, y uint64) bool {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	d := x ^ y
	differ := ((d & low7) + low7 | d) & high // the bytes that differ
	return differ&^(digitBytes(x)&digitBytes(y)) == 0
}

// digitBytes marks (by their high bit) the bytes of x that are ASCII
// digits: at least '0' ((c&0x7f)+0x50 carries into the high bit), not
// above '9' ((c&0x7f)+0x46 does not), not above 0x7f.
func digitBytes(x uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	l := x & low7
	return (l + 0x5050505050505050) &^ (l + 0x4646464646464646) &^ x & high
}

// again counts once more the kind at index i (from add).
func (k *kindCount) again(i int8) { k.againN(i, 1) }

// againN counts n more times the kind at index i (from add).
func (k *kindCount) againN(i int8, n int) {
	if i >= 0 && !k.done {
		k.n[i] += n
	}
}

// counts returns the counts, or nil when there are none or too many
// kinds were seen.
func (k *kindCount) counts() map[string]int {
	if k.done || len(k.names) == 0 {
		return nil
	}
	out := make(map[string]int, len(k.names))
	for i, nm := range k.names {
		out[nm] = k.n[i]
	}
	return out
}

// yearCount counts a field's times by their year, up to maxYears years.
type yearCount struct {
	ys   []int32
	n    []int
	last int
	over bool
}

// add counts year y once.
func (c *yearCount) add(y int32) { c.addN(y, 1) }

// addN counts year y k times.
func (c *yearCount) addN(y int32, k int) {
	if c.over {
		return
	}
	if c.last < len(c.ys) && c.ys[c.last] == y {
		c.n[c.last] += k
		return
	}
	for i, x := range c.ys {
		if x == y {
			c.last = i
			c.n[i] += k
			return
		}
	}
	if len(c.ys) >= maxYears {
		c.over, c.ys, c.n = true, nil, nil
		return
	}
	c.last = len(c.ys)
	c.ys = append(c.ys, y)
	c.n = append(c.n, k)
}

// counts returns the counts by year, nil when there are none or too
// many years.
func (c *yearCount) counts() map[int]int {
	if c.over || len(c.ys) == 0 {
		return nil
	}
	out := make(map[int]int, len(c.ys))
	for i, y := range c.ys {
		out[int(y)] = c.n[i]
	}
	return out
}

// valEnt is one value of a field past its maxValues counted ones: its
// hash, and its count (st.n) and statistics (24 bytes).
type valEnt struct {
	h  uint64
	st valStat
}

// valTable holds a field's values by hash, up to maxDistinct+1 of them:
// open addressing with linear probing over a power-of-two array of the
// entries themselves (a lookup reads one place of memory), at most half
// full. A hash of 0 marks an empty place: the value hashed to 0 counts
// as hashed to 1. Values are matched by their hash alone: exact up to
// 64-bit collisions (about 2^-41 per field at 4,096 values; see
// hashBytes), as Distinct.
type valTable struct {
	slots []valEnt
	n     int
	// full is half the places: at n == full the table grows before
	// the next value is added.
	full int
}

// get returns the entry of hash h, added (with count 0) when new. The
// entry moves when the table grows: it is valid until the next get.
func (t *valTable) get(h uint64) (e *valEnt, isNew bool) {
	if h == 0 {
		h = 1
	}
	if t.n >= t.full { // (2*(t.n+1) > len(t.slots))
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &t.slots[i]
		if e.h == h {
			return e, false
		}
		if e.h == 0 {
			*e = valEnt{h: h}
			t.n++
			return e, true
		}
	}
}

// find returns the entry of hash h, or nil.
func (t *valTable) find(h uint64) *valEnt {
	if h == 0 {
		h = 1
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch e := &t.slots[i]; e.h {
		case h:
			return e
		case 0:
			return nil
		}
	}
}

// grow doubles the array (at least 128 places).
func (t *valTable) grow() {
	old := t.slots
	t.slots = make([]valEnt, max(128, 2*len(old)))
	t.full = len(t.slots) / 2
	mask := uint64(len(t.slots) - 1)
	for _, e := range old {
		if e.h == 0 {
			continue
		}
		i := e.h & mask
		for t.slots[i].h != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = e
	}
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNumber reads a JSON number as strconv.ParseFloat does (ok false
// when it would fail): an integer or a decimal of at most 15 digits
// without an exponent is read directly (its digits and the power of ten
// are exact in a float64, so one division rounds correctly, as strconv's
// own exact path does); anything else goes to strconv.
func parseNumber(raw []byte) (float64, bool) {
	i, neg := 0, false
	if len(raw) > 0 && raw[0] == '-' {
		i, neg = 1, true
	}
	// The integer's digits, then those after a dot (one digit a step:
	// a byte below '0' wraps past 9).
	var m uint64
	start := i
	for ; i < len(raw); i++ {
		d := raw[i] - '0'
		if d > 9 {
			break
		}
		m = m*10 + uint64(d)
	}
	digits, frac := i-start, 0
	if i < len(raw) {
		if raw[i] != '.' {
			return parseFloat(raw)
		}
		i++
		fs := i
		for ; i < len(raw); i++ {
			d := raw[i] - '0'
			if d > 9 {
				return parseFloat(raw)
			}
			m = m*10 + uint64(d)
		}
		if frac = i - fs; frac == 0 {
			return parseFloat(raw) // ("1.")
		}
		digits += frac
	}
	if digits == 0 || digits > 15 || neg && m == 0 {
		return parseFloat(raw) // (-0 keeps its sign there)
	}
	x := float64(m)
	if frac > 0 {
		x /= pow10[frac]
	}
	if neg {
		x = -x
	}
	return x, true
}

func parseFloat(raw []byte) (float64, bool) {
	x, err := strconv.ParseFloat(string(raw), 64)
	return x, err == nil
}

// timeKey orders times: seconds since 1970 in UTC, then nanoseconds.
type timeKey struct {
	sec  int64
	nsec int32
}

// before reports whether a is earlier than b.
func (a timeKey) before(b timeKey) bool {
	return a.sec < b.sec || a.sec == b.sec && a.nsec < b.nsec
}

// fastTime reads the RFC 3339 times time.Parse(time.RFC3339Nano) reads
// on its own fast path ("2024-05-01T12:00:00Z", with a fraction of a
// second and an offset): their instant and their year as written. It
// accepts exactly what that path accepts (the same ranges: a day within
// its month, hours to 23, minutes and seconds to 59, an offset's hours to
// 23); ok is false for anything else, which parseTime then reads.
func fastTime(s []byte) (k timeKey, year int32, ok bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return k, 0, false
	}
	d2 := func(i int) int {
		a, b := s[i]-'0', s[i+1]-'0'
		if a > 9 || b > 9 {
			return -1
		}
		return int(a)*10 + int(b)
	}
	hi, lo := d2(0), d2(2)
	mo, d, h, mi, sec := d2(5), d2(8), d2(11), d2(14), d2(17)
	if hi < 0 || lo < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 {
		return k, 0, false
	}
	y := hi*100 + lo
	if d > daysIn(mo, y) {
		return k, 0, false
	}
	rest := s[19:]
	var nsec int
	if len(rest) >= 2 && rest[0] == '.' && rest[1] >= '0' && rest[1] <= '9' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			if n <= 9 {
				nsec = nsec*10 + int(rest[n]-'0')
			}
			n++
		}
		for j := min(n, 10); j < 10; j++ {
			nsec *= 10
		}
		rest = rest[n:]
	}
	off := 0
	switch {
	case len(rest) == 1 && rest[0] == 'Z':
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, om := -1, -1
		if a, b := rest[1]-'0', rest[2]-'0'; a <= 9 && b <= 9 {
			oh = int(a)*10 + int(b)
		}
		if a, b := rest[4]-'0', rest[5]-'0'; a <= 9 && b <= 9 {
			om = int(a)*10 + int(b)
		}
		if oh < 0 || oh > 23 || om < 0 || om > 59 {
			return k, 0, false
		}
		off = (oh*60 + om) * 60
		if rest[0] == '-' {
			off = -off
		}
	default:
		return k, 0, false
	}
	days := daysFromCivil(y, mo, d)
	k.sec = days*86400 + int64(h*3600+mi*60+sec-off)
	k.nsec = int32(nsec)
	return k, int32(y), true
}

// daysIn is the number of days of month m of year y.
func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// skipWS returns the index of the first byte at or after i in d that is
// not JSON white space; indentation is stepped over eight spaces at a
// time.
func skipWS(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\n', '\t', '\r':
			i++
			for i+8 <= len(d) && binary.LittleEndian.Uint64(d[i:]) == 0x2020202020202020 {
				i += 8
			}
		default:
			return i
		}
	}
	return i
}

// plainJSON reports whether name is written in JSON as it is, between
// quotes (no quote, backslash or control character to escape).
func plainJSON(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// numSum accumulates numbers as a text writes them (a column's values,
// a Key: value key's): their sum, exact as written (integers summed as
// integers; with fraction digits, printed with the most of them), and
// the least and the greatest with their text and how many values equal
// each. text_columns.go and text_kvrecords.go keep one each.
type numSum struct {
	n              int
	frac           bool // a value has fraction digits: the sum is sumF
	decimals       int  // the most fraction digits of a value
	sumI           int64
	sumF           float64
	min, max       float64
	minRaw, maxRaw string
	minN, maxN     int
	// minI and maxI are the extremes as integers when minInt and
	// maxInt: integers past 2^53 (19-digit ids) are compared as
	// integers, not as the floats they round to.
	minI, maxI     int64
	minInt, maxInt bool
}

// cmpNum compares x (iv when isInt) with y (jv when yInt): as integers
// when both are, else as floats.
func cmpNum(x float64, iv int64, isInt bool, y float64, jv int64, yInt bool) int {
	if isInt && yInt {
		return cmp.Compare(iv, jv)
	}
	return cmp.Compare(x, y)
}

// How a number compares with the extremes so far (numSum.add).
const (
	notExtreme = iota
	newExtreme // the first, or beyond the extreme so far
	atExtreme  // equal to the extreme so far
)

// add adds the number written num (sign, digits, fraction) in the value
// v, whose value is fv (iv as an integer) and which compares with the
// others as x (fv in its family's unit: 1.2s and 10ms as seconds). lo and
// hi say how it compares with the least and the greatest so far.
func (a *numSum) add(num string, iv int64, fv, x float64, v string) (lo, hi int) {
	a.n++
	if k := strings.IndexByte(num, '.'); k >= 0 {
		a.frac = true
		a.decimals = max(a.decimals, len(num)-k-1)
	} else {
		a.sumI += iv
	}
	a.sumF += fv
	isInt := strings.IndexByte(num, '.') < 0 && fv == float64(iv) && x == fv
	var cLo, cHi int
	if a.n > 1 {
		cLo = cmpNum(x, iv, isInt, a.min, a.minI, a.minInt)
		cHi = cmpNum(x, iv, isInt, a.max, a.maxI, a.maxInt)
	}
	switch {
	case a.n == 1 || cLo < 0:
		a.min, a.minI, a.minInt, a.minRaw, a.minN, lo = x, iv, isInt, v, 1, newExtreme
	case cLo == 0:
		a.minN++
		lo = atExtreme
	}
	switch {
	case a.n == 1 || cHi > 0:
		a.max, a.maxI, a.maxInt, a.maxRaw, a.maxN, hi = x, iv, isInt, v, 1, newExtreme
	case cHi == 0:
		a.maxN++
		hi = atExtreme
	}
	return lo, hi
}

// allInt reports whether every number was an integer.
func (a *numSum) allInt() bool { return !a.frac }

// format prints a sum (the numbers' own, f and i, or a group's) exactly
// as the numbers were written: an integer, or with their most fraction
// digits.
func (a *numSum) format(f float64, i int64) string {
	if !a.frac {
		return strconv.FormatInt(i, 10)
	}
	return strconv.FormatFloat(f, 'f', a.decimals, 64)
}

// valIndex finds a field's values while they are few (at most
// maxValues, past the maxFew compared in turn) by a quick hash of their
// words: a string map would hash each value with its generic machinery;
// this one mixes three words of it, which with its length are the whole
// of a text of up to 24 bytes (most values: states, times, versions,
// small numbers), so that such a text is found with no call to compare
// it (a longer one's middle bytes are compared).
type valIndex struct {
	slots []*valState // a power of two, at most half full; nil is empty
	n     int
}

// add adds vs (a new value).
func (x *valIndex) add(vs *valState) {
	b := unsafe.Slice(unsafe.StringData(vs.key), len(vs.key)) // (not kept, not written)
	w0, w1 := keyWords(b)
	vs.qw = [3]uint64{w0, w1, midWord(b)}
	vs.qh = quickHash(w0, w1, vs.qw[2], len(b))
	if 2*(x.n+1) > len(x.slots) {
		old := x.slots
		x.slots = make([]*valState, max(16, 2*len(old)))
		for _, o := range old {
			if o != nil {
				x.put(o)
			}
		}
	}
	x.put(vs)
	x.n++
}

// put places vs in a free slot.
func (x *valIndex) put(vs *valState) {
	mask := uint64(len(x.slots) - 1)
	i := vs.qh & mask
	for x.slots[i] != nil {
		i = (i + 1) & mask
	}
	x.slots[i] = vs
}

// find returns the value whose text is raw, whose words are w0 and w1
// (keyWords), or nil.
func (x *valIndex) find(raw []byte, w0, w1 uint64) *valState {
	if x.slots == nil {
		return nil
	}
	n := len(raw)
	m := midWord(raw)
	h := quickHash(w0, w1, m, n)
	mask := uint64(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		vs := x.slots[i]
		if vs == nil {
			return nil
		}
		if vs.qh == h && vs.qw[0] == w0 && vs.qw[1] == w1 && vs.qw[2] == m && len(vs.key) == n &&
			(n <= 24 || vs.key[8:n-8] == string(raw[8:n-8])) {
			return vs
		}
	}
}

// midWord returns the eight bytes in the middle of a text of more than
// 16 bytes, else 0: with its first and last eight (keyWords) and its
// length, they tell a text of up to 24 bytes from any other.
func midWord(b []byte) uint64 {
	if n := len(b); n > 16 {
		return binary.LittleEndian.Uint64(b[n/2-4:])
	}
	return 0
}

// quickHash mixes the length and the words of a text (keyWords, then
// midWord): a hash for a table whose keys are compared, where a
// collision costs a comparison, not a count.
func quickHash(a, c, m uint64, n int) uint64 {
	h := (a^0x9e3779b97f4a7c15)*0xbf58476d1ce4e5b9 ^ (c+uint64(n))*0x94d049bb133111eb ^ m*0xff51afd7ed558ccd
	// (The low bits of a product depend on the low bits of its factors
	// only: the high ones are folded down.)
	h ^= h >> 32
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>32
}

// sameText reports whether key is the text raw, its length and second
// byte (a string's first character) compared before the call that
// compares the rest (most values compared in turn differ there: true and
// false, "Running" and "Pending").
func sameText(key string, raw []byte) bool {
	return len(key) == len(raw) && (len(raw) < 2 || key[1] == raw[1]) && key == string(raw)
}

// nameWords returns the first 16 bytes of name as two little-endian
// words and the masks of the bytes name has.
func nameWords(name string) (w, m [2]uint64) {
	for i := 0; i < len(name) && i < 16; i++ {
		w[i/8] |= uint64(name[i]) << (8 * (i % 8))
		m[i/8] |= 0xff << (8 * (i % 8))
	}
	return w, m
}

// nameAt reports whether d holds f's member name at i: up to 16 bytes
// compared as two words, longer names by a call.
func (f *Field) nameAt(d []byte, i int) bool {
	if len(f.name) > 16 || i+16 > len(d) {
		return string(d[i:i+len(f.name)]) == f.name
	}
	return binary.LittleEndian.Uint64(d[i:])&f.nameM[0] == f.nameW[0] &&
		binary.LittleEndian.Uint64(d[i+8:])&f.nameM[1] == f.nameW[1]
}

// strNumStats are the statistics of the strings of a field that hold a
// JSON number, kept apart from its numbers (Field.strNums).
type strNumStats struct {
	n              int
	sum, sumSq     float64
	min, max       float64
	minRec, maxRec int
	minRaw, maxRaw []byte
}

// add counts k more strings holding x (seen before: no new extreme).
func (s *strNumStats) add(x float64, k int) {
	s.n += k
	s.sum += x * float64(k)
	s.sumSq += x * x * float64(k)
}

// numberText reports whether b (a string's body) is a JSON number as
// written: an optional minus, an integer part without leading zeros, an
// optional fraction and exponent ("74", "-0.5", "1e3"; not "007", "1.",
// "0x10", "NaN", "1.2.3").
func numberText(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == j {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == j {
			return false
		}
	}
	return i == len(b)
}

// strNumber notes the string body of f in record rec, seen for the
// first time, when it holds a JSON number: its flag and number in st
// (for the times it is seen again), its statistics in f.strNums.
func (p *Profile) strNumber(f *Field, body []byte, rec int, st *valStat) {
	if !numberText(body) {
		return
	}
	x, ok := parseNumber(body)
	if !ok || math.IsInf(x, 0) {
		return
	}
	st.fl |= stStrNum
	st.x = x
	s := f.strNums
	if s == nil {
		s = &strNumStats{}
		f.strNums = s
	}
	p.noteExtreme(s.n == 0, true, x, rec, &s.min, &s.minRec, &s.minRaw)
	p.noteExtreme(s.n == 0, false, x, rec, &s.max, &s.maxRec, &s.maxRaw)
	s.add(x, 1)
}

// numStrings makes the strings of f that hold numbers its numbers when
// every value of f is a number or such a string (at Finish).
func (f *Field) numStrings() {
	s := f.strNums
	f.strNums = nil
	if s == nil || s.n == 0 || f.Types&^(tString|tNumber|tNull) != 0 || f.NumN+s.n != f.Values-f.Nulls {
		return
	}
	if f.NumN == 0 || s.min < f.Min {
		f.Min, f.minRec, f.minRaw = s.min, s.minRec, s.minRaw
	}
	if f.NumN == 0 || s.max > f.Max {
		f.Max, f.maxRec, f.maxRaw = s.max, s.maxRec, s.maxRaw
	}
	f.NumN += s.n
	f.Sum += s.sum
	f.SumSquares += s.sumSq
	f.NumStrings = s.n
}

// ownNumbers counts the field's values written as JSON numbers (NumN
// less the numbers written as strings): the choice of columns, index
// fields, outliers and measures reads a field by how it is written; its
// statistics and extremes are over all its numbers.
func (f *Field) ownNumbers() int { return f.NumN - f.NumStrings }
