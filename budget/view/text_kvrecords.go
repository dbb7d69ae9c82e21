package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Records of Key: value lines under a header line: /proc/PID/smaps (a
// mapping's "address perms offset dev inode path" line, then 24 lines
// "Rss:  12 kB"), ethtool, pactl list, upower -d, lspci -v (a line, then
// indented "Key: value" lines). Read as lines, they are thousands of
// "Rss: 12 kB" lines; read as records, each record is a header and its
// values, and the questions are about the records: how many there are,
// the total Rss, the largest mapping and which it is, the mappings by
// permission or by file, the Size of the [heap] mapping. So the view
// states, exactly, over every record:
//
//   - per key: the records holding it; for numbers (a unit after them
//     is kept: "7612 kB"), their sum, min and max, each with the record
//     holding it named by its first line; for few values, each value
//     with its count; else the distinct count. Keys with one value in
//     every record are stated once;
//   - the records' first lines split into columns at runs of spaces,
//     profiled like a table's columns (mappings by permission, by file),
//     when they split evenly;
//
// and the index of the records lists each by its first line with its
// main values ("[Size 7612 kB; Rss 5948 kB; Pss 5948 kB]"), the records
// holding a rare value of a header column and the largest of each main
// key first. Memory: per key a bounded profile, per kept record its
// first kvRecPairs pairs.

const (
	maxKVRecKeys   = 200 // keys profiled (lines of more keys are counted, not profiled)
	kvRecPairs     = 48  // pairs kept per record, for its index line
	kvRecValueLen  = 60  // a value kept per record is cut to this
	kvRecMainKeys  = 3   // keys shown on a record's index line
	kvRecHeadWidth = 120 // a record's first line as a name, cut to this
)

// kvRecLine splits a line of a record's body that is "Key: value"
// (indented or not; /proc/meminfo's spelling: kvColon).
func kvRecLine(line string) (key, val string, ok bool) {
	return kvColon.split(line)
}

// detectKVRecords reports whether a text (of kind) is made of records
// that are a header line that is not "Key: value" and the Key: value
// lines below it (smaps), from its first 4,000 lines: at least 3
// headers, 90% of the lines that are not Key: value followed by one, at
// least twice as many Key: value lines as headers, and keys that recur
// (on average in 3 records at least).
func detectKVRecords(data []byte, kind string) bool {
	switch kind {
	case textPlain, textBlocks:
	default:
		return false
	}
	sample := data
	if len(sample) > 1<<20 {
		sample = sample[:1<<20]
	}
	heads, others, kvs := 0, 0, 0
	keys := map[string]int{}
	prevOther := false
	textLinesWhile(sample, func(pos int, line string) bool {
		if pos >= 4000 {
			return false
		}
		if strings.TrimSpace(line) == "" {
			return true
		}
		if k, _, ok := kvRecLine(line); ok {
			kvs++
			if len(keys) < 1000 {
				keys[k]++
			}
			if prevOther {
				heads++
			}
			prevOther = false
			return true
		}
		others++
		prevOther = true
		return true
	})
	return heads >= 3 && 10*heads >= 9*others && kvs >= 2*heads && 3*len(keys) <= kvs
}

// kvPair is one Key: value pair of a record, kept for its index line.
type kvPair struct{ key, val string }

// kvRecKey is the profile of one key over the records.
type kvRecKey struct {
	name    string
	records int // records holding it (once each)
	lines   int
	numeric int // values that are numbers (with the key's unit, or none)
	unit    string
	mixed   bool // numbers with different units, or numbers beside words
	// num sums the numbers; minR and maxR are the first records at the
	// least and the greatest.
	num        numSum
	minR, maxR *textRecord
	values     map[string]int // distinct values with their counts, while few
	overflow   bool
	distinct   map[uint64]struct{}
	names      fieldNames // records holding each value, while few (rare values named)
	last       int        // the record that last counted it (records are counted once)
}

// kvRecProfile is the Key: value profile of a text's records.
type kvRecProfile struct {
	// headOnly: only the first lines are profiled (records with a
	// header key, ls -lR's directories, big blocks: their Key: value
	// lines, git log's Author:, are loose fields).
	headOnly bool
	keyRuns  bool // the body's lines are "key value" (text_keyruns.go), not Key: value
	// pairs: the body's lines are read for the pairs of a record's
	// summary, several a line (text_blocks.go), not one Key: value
	// a line.
	pairs  bool
	keys   map[string]*kvRecKey
	order  []*kvRecKey // in order of first appearance
	cut    int         // lines of keys past maxKVRecKeys
	lines  int         // Key: value lines in the records' bodies
	body   int         // lines of the records' bodies (after their first line)
	recs   int         // records with a Key: value line
	heads  *colProfile // the records' first lines as columns
	headN  map[int]int // first lines by their number of fields
	n      int         // records whose first line was read
	rareEx map[string][]*textRecord
}

func newKVRecProfile() *kvRecProfile {
	sp := &colSplit{mode: bySpaces, k: maxColumns, minK: 1, headPos: -1}
	heads := newColProfile(sp)
	for i, c := range heads.cols {
		c.name = fmt.Sprintf("first lines, column %d", i+1)
	}
	return &kvRecProfile{keys: map[string]*kvRecKey{}, heads: heads, headN: map[int]int{}, rareEx: map[string][]*textRecord{}}
}

// recName is a record's first line as a name: its runs of spaces as
// one, cut.
func recName(h string) string {
	return cut(strings.Join(strings.Fields(h), " "), kvRecHeadWidth)
}

// kvNumber reads a value that is a number with an optional unit after
// it ("7612 kB", "1000Mb/s", "42", "-1.5 %"): the number as written
// and its unit.
func kvNumber(v string) (num, unit string, ok bool) {
	f := strings.Fields(v)
	switch len(f) {
	case 1:
		i := 0
		for i < len(v) && (isDigitByte(v[i]) || v[i] == '.' || v[i] == '-' || v[i] == '+') {
			i++
		}
		num, unit = v[:i], v[i:]
	case 2:
		num, unit = f[0], f[1]
	default:
		return "", "", false
	}
	if num == "" || len(unit) > 12 {
		return "", "", false
	}
	if _, _, ok := parseDecimal(num); !ok {
		return "", "", false
	}
	for i := 0; i < len(unit); i++ {
		c := unit[i]
		if !(c|0x20 >= 'a' && c|0x20 <= 'z' || c == '%' || c == '/') {
			return "", "", false
		}
	}
	return num, unit, true
}

// header notes a record's first line.
func (kp *kvRecProfile) header(pos int, line string) {
	kp.n++
	kp.headN[len(splitSpaces(line))]++
	kp.heads.add(pos, strings.TrimSpace(line))
}

// add counts one line of record r's body.
func (kp *kvRecProfile) add(r *textRecord, line string) {
	if kp.headOnly {
		return
	}
	kp.body++
	if kp.pairs {
		// The pairs of a record's summary lines (text_blocks.go).
		ps := blockPairs(line)
		if len(ps) == 0 {
			return
		}
		kp.lines++
		if r.kvLines == 0 {
			kp.recs++
		}
		r.kvLines++
		for _, pr := range ps {
			kp.addPair(r, pr.key, pr.val)
		}
		return
	}
	k, v, ok := kp.splitLine(line)
	if !ok {
		return
	}
	kp.lines++
	if r.kvLines == 0 {
		kp.recs++
	}
	r.kvLines++
	kp.addPair(r, k, v)
}

// addPair counts the pair k: v of record r.
func (kp *kvRecProfile) addPair(r *textRecord, k, v string) {
	if len(r.kvs) < kvRecPairs {
		r.kvs = append(r.kvs, kvPair{k, cut(strings.Join(strings.Fields(v), " "), kvRecValueLen)})
	}
	s := kp.keys[k]
	if s == nil {
		if len(kp.keys) >= maxKVRecKeys {
			kp.cut++
			return
		}
		s = &kvRecKey{name: k, values: map[string]int{}, distinct: map[uint64]struct{}{}, last: -1}
		kp.keys[k] = s
		kp.order = append(kp.order, s)
	}
	s.lines++
	if s.last == r.idx {
		return // a key repeated in one record: its first value counts
	}
	s.last = r.idx
	s.records++
	v = strings.Join(strings.Fields(v), " ")
	if len(s.distinct) < maxDistinctTracked {
		s.distinct[hashString(v)] = struct{}{}
	}
	if !s.overflow {
		s.values[v]++
		if len(s.values) > maxFieldValues {
			s.overflow, s.values = true, nil
		}
	}
	s.names.note(v, recName(r.head))
	num, unit, isNum := kvNumber(v)
	if !isNum {
		if s.numeric > 0 {
			s.mixed = true
		}
		return
	}
	iv, fv, _ := parseDecimal(num)
	switch {
	case s.numeric == 0:
		s.unit = unit
		if s.records > 1 {
			s.mixed = true // words before the first number
		}
	case unit != s.unit:
		s.mixed = true
	}
	s.numeric++
	lo, hi := s.num.add(num, iv, fv, fv, v)
	if lo == newExtreme {
		s.minR = r
	}
	if hi == newExtreme {
		s.maxR = r
	}
}

// noteRare keeps record r among the first records of each value of its
// first line's columns (at most recFormKeep a value, while the column
// has at most maxExampleVals values), for the records of rare values.
func (kp *kvRecProfile) noteRare(r *textRecord, line string) {
	f := kp.heads.split.fields(strings.TrimSpace(line))
	for i, v := range f {
		if i >= len(kp.heads.cols) {
			break
		}
		c := kp.heads.cols[i]
		if c.overflow || len(c.values) > maxExampleVals {
			continue
		}
		key := strconv.Itoa(i) + "\x00" + v
		if ex := kp.rareEx[key]; len(ex) < recFormKeep {
			kp.rareEx[key] = append(ex, r)
		}
	}
}

// active reports whether the records are records of Key: value lines:
// at least 3 records hold one, and they are two thirds of the lines of
// the records' bodies.
func (kp *kvRecProfile) active() bool {
	if kp != nil && kp.pairs {
		return kp.recs >= 3 && 4*kp.recs >= kp.n // (text_blocks.go)
	}
	return kp != nil && kp.recs >= 3 && 3*kp.lines >= 2*kp.body
}

// isNumber reports whether the key's values are numbers in every record
// holding it, with one unit (or none).
func (s *kvRecKey) isNumber() bool {
	return s.numeric == s.records && s.numeric >= 2 && !s.mixed
}

// constant reports whether the key has one value in all n records.
func (s *kvRecKey) constant(n int) bool {
	return s.records == n && !s.overflow && len(s.values) == 1
}

// formatNum prints a number of the key as its values are written.
func (s *kvRecKey) formatNum(f float64, i int64, withUnit bool) string {
	t := s.num.format(f, i)
	if withUnit && s.unit != "" {
		t += " " + s.unit
	}
	return t
}

// line is the key's profile line over n records.
func (s *kvRecKey) line(n int) string {
	var b strings.Builder
	b.WriteString("  " + s.name)
	in := fmt.Sprintf("in %s records", commas(s.records))
	if s.records < n {
		in = fmt.Sprintf("in %s of %s records%s", commas(s.records), commas(n), s.names.holdersText(s.records, n))
	}
	few := !s.overflow && len(s.values) <= 6
	switch {
	case s.isNumber():
		what := "numbers"
		if s.unit != "" {
			what = "numbers in " + s.unit
		}
		fmt.Fprintf(&b, " (%s, %s): sum %s", what, in, s.formatNum(s.num.sumF, s.num.sumI, true))
		if few {
			b.WriteString("; values: ")
			vs, _ := byCount(s.values)
			for i, x := range vs {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s %s", x.k, commas(x.n))
			}
			if len(vs) > 1 {
				fmt.Fprintf(&b, "; max %s (%s)", s.num.maxRaw, s.atText(s.num.maxN, s.maxR))
			}
			break
		}
		fmt.Fprintf(&b, ", min %s (%s), max %s (%s), %s distinct values", s.num.minRaw, s.atText(s.num.minN, s.minR), s.num.maxRaw, s.atText(s.num.maxN, s.maxR), commas(len(s.distinct)))
	case !s.overflow && (len(s.values) <= 12 || 2*len(s.values) <= s.records):
		fmt.Fprintf(&b, " (%s): ", in)
		vs, _ := byCount(s.values)
		if len(vs) > 12 {
			fmt.Fprintf(&b, "%d distinct values; ", len(vs))
		}
		rest := s.records
		for i, x := range vs {
			if i == 12 {
				fmt.Fprintf(&b, "; %d other values in %s records", len(vs)-12, commas(rest))
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q %s%s", cut(x.k, 60), commas(x.n), s.names.rareText(x.k, x.n, s.records))
			rest -= x.n
		}
	default:
		fmt.Fprintf(&b, " (%s): %s distinct values", in, commas(len(s.distinct)))
	}
	return b.String()
}

// atText names the record at an extreme: "in \"first line\"", or "N
// records" when several hold it.
func (s *kvRecKey) atText(n int, r *textRecord) string {
	name := ""
	if r != nil {
		name = fmt.Sprintf("%q", recName(r.head))
	}
	if n > 1 {
		return fmt.Sprintf("%s records", commas(n))
	}
	return "in " + name
}

// constLine states the keys with one value in all n records, or "".
func (kp *kvRecProfile) constLine(n int) string {
	var parts []string
	for _, s := range kp.order {
		if s.constant(n) {
			for v := range s.values {
				parts = append(parts, s.name+" "+v)
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("  the same in every record (%d keys): %s", len(parts), strings.Join(parts, ", "))
}

// mainKeys are the keys a record's index line shows: the first
// kvRecMainKeys keys (in order of appearance) in 90% of the records
// that are not constant, numbers or of few short values.
func (kp *kvRecProfile) mainKeys(n int) []string {
	var out []string
	for _, s := range kp.order {
		if len(out) == kvRecMainKeys {
			break
		}
		if 10*s.records < 9*n || s.constant(n) || !s.overflow && len(s.values) < 2 {
			continue
		}
		if s.isNumber() || !s.overflow && len(s.values) <= 24 && s.maxLen() <= 30 {
			out = append(out, s.name)
		}
	}
	return out
}

// maxLen is the length of the key's longest value, while they are few.
func (s *kvRecKey) maxLen() int {
	m := 0
	for v := range s.values {
		m = max(m, len(v))
	}
	return m
}

// pairsText is a record's main values: "Size 7612 kB; Rss 5948 kB".
func (r *textRecord) pairsText(keys []string) string {
	var parts []string
	for _, k := range keys {
		for _, p := range r.kvs {
			if p.key == k {
				parts = append(parts, k+" "+p.val)
				break
			}
		}
	}
	return strings.Join(parts, "; ")
}

// headColumns reports whether the records' first lines split evenly
// into columns: at least 3 fields, 90% of the lines with the most
// fields or one fewer (a mapping without a path); the number of
// columns, or 0.
func (kp *kvRecProfile) headColumns(n int) int {
	k := 0
	for w := range kp.headN {
		k = max(k, w)
	}
	if k < 3 || k > maxColumns || 10*(kp.headN[k]+kp.headN[k-1]) < 9*n {
		return 0
	}
	return k
}

// headLines are the profile lines of the first lines' columns.
func (kp *kvRecProfile) headLines(n int) []string {
	k := kp.headColumns(n)
	if k == 0 {
		return nil
	}
	var out, fixed []string
	for i, c := range kp.heads.cols[:k] {
		if c.rows == 0 || !c.overflow && len(c.values) < 2 || !c.capped && len(c.distinct) == c.rows && !c.isNumber() {
			continue // one value (a package's name), or one a record (an address, a version)
		}
		if w, n := c.fixedWord(); n > 0 {
			fixed = append(fixed, fmt.Sprintf("%d %q %s", i+1, w, commas(n)))
			continue
		}
		if c.isNumber() && !c.fewNumbers(shownColValues) {
			continue // inodes, offsets: numbers of many values name, they do not measure
		}
		s := c.lineOf(n, shownColValues)
		if c.empty > 0 && !c.isNumber() {
			s += fmt.Sprintf(" (\"\": %s records whose first line has no column %d)", commas(c.empty), i+1)
		}
		out = append(out, s)
	}
	if len(fixed) > 0 {
		// A word of the first lines' template: one line for all.
		out = append([]string{"  first lines, columns of one word in nearly every record (column, word, records; the other records' words are each in one): " + strings.Join(fixed, ", ")}, out...)
	}
	return out
}

// fixedWord is the word of a column that is a fixed word of its rows'
// template: a value in 90% of the rows, every other value (but an
// empty cell) in one row only (the words of a banner or a summary line
// among the records); "", 0 otherwise.
func (c *colStat) fixedWord() (string, int) {
	if c.overflow || c.isNumber() {
		return "", 0
	}
	top, n := "", 0
	for v, k := range c.values {
		if k > n || k == n && v < top {
			top, n = v, k
		}
	}
	if top == "" || 10*n < 9*c.rows {
		return "", 0
	}
	for v, k := range c.values {
		if v != top && v != "" && k > 1 {
			return "", 0
		}
	}
	return top, n
}

// rareRecords are the records holding a rare value of a column of the
// first lines (a value of at most 2 records and 5% of them, in a column
// of 2 to 24 values): the rwxp mapping, the [heap]; rarest first.
func (kp *kvRecProfile) rareRecords(n int) []*textRecord {
	k := kp.headColumns(n)
	if k == 0 {
		return nil
	}
	type rv struct {
		col   int
		v     string
		count int
	}
	var rs []rv
	for i, c := range kp.heads.cols[:k] {
		if c.overflow || len(c.values) < 2 || len(c.values) > 24 {
			continue
		}
		for v, cnt := range c.values {
			if cnt <= 2 && 20*cnt <= n {
				rs = append(rs, rv{i, v, cnt})
			}
		}
	}
	sort.Slice(rs, func(a, b int) bool {
		if rs[a].count != rs[b].count {
			return rs[a].count < rs[b].count
		}
		if rs[a].col != rs[b].col {
			return rs[a].col < rs[b].col
		}
		return rs[a].v < rs[b].v
	})
	var out []*textRecord
	for _, x := range rs {
		out = append(out, kp.rareEx[strconv.Itoa(x.col)+"\x00"+x.v]...)
	}
	return out
}

// kvRecCandidates adds the columns of the records' first lines
// (tsRecFacts: of any records, a changelog's "pkg (version) dist;
// urgency=…" by its distribution) and the Key: value profile of the
// records (tsFields).
func (tc *textCands) kvRecCandidates(add func(sec, key, rec, prio int, reason, text string)) {
	rs := tc.p.recs
	kp := rs.kv
	if kp == nil {
		return
	}
	n := rs.n
	for i, s := range kp.headLines(n) {
		add(tsRecFacts, 10+i, -1, PrioRare, "first-line column", cut(s, 2*textWidth))
	}
	if !kp.active() {
		return
	}
	if s := kp.constLine(n); s != "" {
		add(tsFields, -1, -1, PrioRare, "constant keys", cut(s, 3*textWidth))
	}
	k := 0
	for _, s := range kp.order {
		if s.constant(n) {
			continue
		}
		p := PrioRare
		if k >= 6 {
			p = PrioSecond // after the records of rare values (the index)
		}
		add(tsFields, k, -1, p, "key", cut(s.line(n), 2*textWidth))
		k++
	}
}

// kvRecHead is the head of the Key: value profile of the records.
func (tc *textCands) kvRecHead(cs []Candidate) string {
	rs := tc.p.recs
	n := 0
	for _, s := range rs.kv.order {
		if !s.constant(rs.n) {
			n++
		}
	}
	shown := 0
	for _, c := range cs {
		if c.Reason == "key" {
			shown++
		}
	}
	s := fmt.Sprintf("Key: value lines of the %s records, by key (showing %s of %s keys that differ between records; counts are of records; numbers summed over every record, a record named by its first line):\n",
		commas(rs.n), commas(shown), commas(n))
	if kp := rs.kv; kp.cut > 0 {
		s += fmt.Sprintf("(%s lines of keys past the first %s are not profiled)\n", commas(kp.cut), commas(maxKVRecKeys))
	}
	return s
}

// kvRecLineRE is the regular expression of a Key: value line as jq
// tests it (kvColon's split, without its limits on spaces and numbered
// words).
const kvRecLineRE = `^\\s*[A-Za-z][A-Za-z0-9 \t_.()/-]{0,59}:(\\s|$)`
