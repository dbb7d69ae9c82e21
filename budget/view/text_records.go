package view

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Whole records of a text made of records.
//
// A text whose records each start with a line of the same kind ("# " of
// go mod why -m all, "commit " of git log, "Log started: " of apt's term
// log: see detectHeaderKey) is read record by record: "which package
// needs module X" is the line after X's header, "who wrote commit Y" a
// line below it. Single lines out of their record answer neither, so
// the view shows whole records, each on one line (its lines trimmed and
// joined by " | ", blank lines left out, cut at recordWidth characters
// with the rest's length stated), chosen like the rows of a JSON
// collection: the first and the last records, the records holding an
// error or warning line, the records whose form (the first word of
// their second line) is rare, then an even spread over all records,
// coarse to fine, so that a larger budget shows a superset. What is
// counted over every record, exactly: how many there are, their lines
// (fewest, most, and the first record holding each), and their forms.
//
// Memory is bounded by the view: the first and last recEnds records, at
// most maxRecSpread records of an even stride (when more come, every
// other one is dropped and the stride doubles), the first records of
// each rare form and the records with error lines, each at most
// recordWidth characters.

const (
	recordWidth  = 600 // a record is shown cut to this many characters
	recEnds      = 8   // records kept at each end
	maxRecSpread = 512 // records kept for the even spread
	maxRecForms  = 64  // forms whose first records are kept
	recFormKeep  = 3   // records kept per form
	maxRecNotes  = 40  // records with an error or warning line kept
)

// textRecord is one record as the view shows it.
type textRecord struct {
	idx     int              // its number, from 0
	start   int              // the line of its header
	end     int              // its last line (blank lines after it not counted)
	text    string           // its lines joined by " | ", at most recordWidth characters
	full    int              // lines whose text is whole in text (from start)
	rest    int              // characters left out of text
	lines   int              // its non-blank lines
	sev     int              // the highest severity of its lines
	form    string           // the first word of its second line with its digits as 0, or "" (a record of one line)
	formRaw string           // that word as the line has it
	nums    map[string]int64 // its "N word" numbers summed by word ("insertion" 12)
	kinds   map[string]int   // its lines by their kind (lineKind), while it is read
	kind    map[string]int   // the kinds shown per record (shownKinds), kept after it is read
	sums    []float64        // per table column, the sum of its rows' numbers (nil: no table)
	rows    int              // its lines that are table rows
	head    string           // its first line (records of Key: value lines: text_kvrecords.go)
	kvs     []kvPair         // its first Key: value pairs, for its index line
	kvLines int              // its Key: value lines
}

// recordStats are the records of a text, counted and sampled.
type recordStats struct {
	key   string // the header key, as detectHeaderKey found it
	n     int    // records
	cur   *textRecord
	first []*textRecord // the first recEnds records
	last  []*textRecord // a ring of the last recEnds records
	// spread are the records whose number is a multiple of stride.
	spread  []*textRecord
	stride  int
	forms   map[string]int           // records by their form, while few
	formRaw map[string]string        // per form its word as the data has it, "\x00" when records differ
	formEx  map[string][]*textRecord // the first records of each form
	// leads are the records by the lead form of their first line
	// (recLeadWord: its first word, runs of digits as one 0), while few;
	// leadEx the first records of each.
	leads  map[string]int
	leadEx map[string][]*textRecord
	notes  []*textRecord // records with an error or warning line
	// Lines per record, exactly.
	minLines, maxLines int
	minRec, maxRec     string // the header of the first record with the fewest, the most lines
	minR, maxR         *textRecord
	maxTies            []string // the first records with the most lines (at most maxTies), of maxN
	maxN               int
	sumLines           int
	// units are the per-record sums of "N word" numbers, by word.
	units map[string]*unitStat
	// plural are the words after numbers seen in the plural ("files"
	// of "3 files"): count nouns (lineNumbers), at most maxUnits.
	plural map[string]bool
	// kinds are the per-record counts of lines by their kind
	// (lineKind: "Setting up", "-rw-r--r--"), by kind.
	kinds    map[string]*unitStat
	kindsCut bool // kinds past maxRecKinds were not counted
	// heads are the records by the form of their first line
	// (headForm), while few.
	heads map[string]int
	// colon: records start with a line at column 0 that ends with ':'
	// after a blank line (ls -lR: "./dir:"); prevBlank is that state.
	colon, prevBlank bool
	// blocks: every blank-line-separated block is a record (a few big
	// ones: detectBigBlocks).
	blocks bool
	// cols is the table the lines of the records are rows of (ls -lR's
	// entries), or nil; colMax per column the record with the largest
	// sum of its rows' numbers.
	cols     *colSplit
	colMax   []unitStat
	rowLines int // lines of the records that are rows of cols
	// kvHead: records are a line that is not Key: value and the Key:
	// value lines below it (detectKVRecords); kv profiles the Key:
	// value lines of records without a header key (text_kvrecords.go).
	kvHead bool
	kv     *kvRecProfile
	// lead: records led by their indentation (text_lead.go); pend is
	// the line read last, whose record is known at the next line.
	lead  *leadForm
	brace *braceForm // braced records (text_blocks.go)
	// nested: the line being added is inside a record nested in its
	// record (braced records): its pairs are the inner record's.
	nested bool
	keys   *keyRuns // records of "key value" runs (text_keyruns.go)
	pend   *pendLine
	// spans are where the first maxIndexRows records are, for the
	// index of the records by name (text_recindex.go).
	spans []recSpan
}

// pendLine is a line whose place in the records waits for the next line.
type pendLine struct {
	pos   int
	text  string
	blank bool
	sev   int
}

// feed reads one line: add, with the header test of the records' kind
// (records led by their indentation: one line later, when the next line
// tells whether it starts one).
func (rs *recordStats) feed(pos int, line string, blank bool, sev int) {
	if rs.brace != nil {
		// Braced records (text_blocks.go).
		nested := rs.brace.depth > 1 // a line of a record nested in the record
		h, in, end := rs.brace.step(line)
		if !in {
			rs.finish()
			rs.prevBlank = blank
			return
		}
		rs.nested = nested
		rs.add(pos, line, blank, h, sev)
		rs.nested = false
		if end {
			rs.finish()
		}
		return
	}
	if rs.lead == nil && rs.keys == nil {
		rs.add(pos, line, blank, rs.isHeader(line), sev)
		return
	}
	rs.flushPend(line)
	rs.pend = &pendLine{pos, line, blank, sev}
}

// flushPend reads the pending line of records led by their indentation,
// next being the line after it ("" at the end): a record's first line,
// one of its deeper lines, or no record's line (at the records'
// indentation or less, starting none: a heading, a register).
func (rs *recordStats) flushPend(next string) {
	pl := rs.pend
	if pl == nil {
		return
	}
	rs.pend = nil
	if rs.keys != nil {
		rs.feedKeyRun(pl, next)
		return
	}
	if !pl.blank && rs.lead.isLead(pl.text) && rs.lead.deeper(next) {
		rs.add(pl.pos, pl.text, pl.blank, true, pl.sev)
		return
	}
	if !pl.blank && lineIndent(pl.text) <= rs.lead.indent {
		rs.finish()
		rs.prevBlank = false
		return
	}
	rs.add(pl.pos, pl.text, pl.blank, false, pl.sev)
}

// unitStat is one word that follows numbers in records ("3 files
// changed", "12 insertions(+)"): how many records have it, its total,
// and the record with the largest sum.
type unitStat struct {
	records int
	total   int64
	max     int64
	maxR    *textRecord
	maxRec  string
}

// maxUnits bounds the words counted after numbers.
const maxUnits = 64

// letters reports whether s is ASCII letters only.
func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 < 'a' || s[i]|0x20 > 'z' {
			return false
		}
	}
	return true
}

// lineNumbers adds the "N word" pairs of a line to m: a whole decimal
// integer followed by a word of letters (a plural's "s", a trailing
// "(+)", "(-)", ",", ";" or "." dropped), "insertion" for "12
// insertions(+),"; a word seen in the plural is noted in plural (at
// most maxUnits words).
func lineNumbers(line string, m map[string]int64, plural map[string]bool) map[string]int64 {
	toks := strings.Fields(line)
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if len(t) > 15 || !isDigitByte(t[0]) {
			continue
		}
		v, _, ok := parseDecimal(t)
		if !ok || strings.IndexByte(t, '.') >= 0 || t[0] == '+' {
			continue
		}
		w := strings.TrimRight(toks[i+1], ",;.")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "(+)"), "(-)")
		if len(w) < 3 || len(w) > 30 || !letters(w) {
			continue
		}
		w = strings.ToLower(w)
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
			if plural != nil && len(plural) < maxUnits {
				plural[w] = true
			}
		}
		if m == nil {
			m = map[string]int64{}
		}
		m[w] += v
	}
	return m
}

func newRecordStats(key string) *recordStats {
	return &recordStats{key: key, stride: 1, forms: map[string]int{}, formEx: map[string][]*textRecord{}, formRaw: map[string]string{},
		leads: map[string]int{}, leadEx: map[string][]*textRecord{}, prevBlank: true}
}

// maxKinds bounds the kinds of lines counted per record; maxRecKinds
// the kinds counted over all records (a kind first seen past it is not
// counted: kindsCut).
const (
	maxKinds    = 256
	maxRecKinds = 4096
)

// lineKind is the kind of a record's line: its first two tokens when
// both are words of letters ("Setting up", "Processing triggers"), else
// its first token ("-rw-r--r--", "total", "libz.so.1"), when it is at
// most 24 characters, no path and no number; else "".
func lineKind(t string) string {
	f := strings.Fields(t)
	if len(f) == 0 {
		return ""
	}
	if len(f) > 1 && letters(f[0]) && letters(f[1]) {
		return f[0] + " " + f[1]
	}
	k := f[0]
	if len(k) > 24 || strings.ContainsAny(k, "/\\") || isDigitByte(k[0]) {
		return "" // a path, a long name or a number is no kind of line
	}
	return k
}

// isHeader reports whether line starts a record: a line with the header
// key, or (with no key) any line at column 0, or (colon) a line at
// column 0 that ends with ':' after a blank line.
func (rs *recordStats) isHeader(line string) bool {
	if rs.colon {
		return rs.prevBlank && line != "" && line[0] != ' ' && line[0] != '\t' && strings.HasSuffix(strings.TrimSpace(line), ":")
	}
	if rs.blocks {
		return rs.prevBlank && strings.TrimSpace(line) != ""
	}
	if rs.kvHead {
		if strings.TrimSpace(line) == "" {
			return false
		}
		_, _, kv := kvRecLine(line)
		return !kv
	}
	if rs.key == "" {
		return line != "" && line[0] != ' ' && line[0] != '\t' && strings.TrimSpace(line) != ""
	}
	return strings.HasPrefix(line, rs.key) && headerKey(line) == rs.key
}

// detectIndentRecords reports whether a text (of kind) is made of
// records that are a line at column 0 and the indented lines below it
// (apt-cache policy: "curl:" then "  Installed: ..."; go version -m: a
// binary then its TAB-indented path, mod and dep lines), from its first
// 4,000 lines: at least 3 lines at column 0, at least as many indented
// lines, and at least 90% of the lines at column 0 followed by an
// indented line.
func detectIndentRecords(data []byte, kind string) bool {
	switch kind {
	case textFields, textGoTest, textTAP, textGoJSON, textCompile, textLog, textReport, textCommits, textDiff:
		return false
	}
	col0, indented, followed := 0, 0, 0
	prevCol0 := false
	sampleLines(data, func(line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		if line[0] == ' ' || line[0] == '\t' {
			indented++
			if prevCol0 {
				followed++
			}
			prevCol0 = false
			return
		}
		col0++
		prevCol0 = true
	})
	return col0 >= 3 && indented >= col0 && 10*followed >= 9*col0
}

// detectColonRecords reports whether a text is made of blank-line-
// separated blocks whose first line ends with ':' (ls -lR's "./dir:"),
// from its first 4,000 lines: at least 3 such blocks, and at least 90%
// of the blocks that start at column 0.
func detectColonRecords(data []byte, kind string) bool {
	switch kind {
	case textFields, textGoTest, textTAP, textGoJSON, textCompile, textLog, textReport, textCommits, textDiff:
		return false
	}
	starts, colon := 0, 0
	prevBlank := true
	sampleLines(data, func(line string) {
		blank := strings.TrimSpace(line) == ""
		if !blank && prevBlank && line[0] != ' ' && line[0] != '\t' {
			starts++
			if strings.HasSuffix(strings.TrimSpace(line), ":") {
				colon++
			}
		}
		prevBlank = blank
	})
	return colon >= 3 && colon*10 >= starts*9
}

// detectBigBlocks reports whether a text with no other record structure
// is made of a few big blank-line-separated blocks (npm explain: one
// block per installed version, of 17 to 12,000 lines), from its first
// 4,000 lines: at least 2 blocks, of 24 non-blank lines or more on
// average. Such blocks are its records (their first lines, sizes and
// counts per block), whatever their number. unequal reports that one
// block holds 90% of the non-blank lines or more (node --v8-options: a
// preamble of 7 lines, then 1,365): such blocks are no records when
// the lines hold records of another kind (text_lead.go). spaced reports
// that the blocks are blocks only because lines of white space (a TAB
// alone) count as blank: with empty lines alone as separators there
// would be none. git blame --porcelain writes an empty source line as
// a content line of one TAB; such a text is key runs (text_keyruns.go),
// not blocks.
func detectBigBlocks(data []byte, kind string) (big, unequal, spaced bool) {
	switch kind {
	case textPlain, textBlocks:
	default:
		return false, false, false
	}
	blocks, nonBlank, cur, most := 0, 0, 0, 0
	eBlocks, eNonBlank := 0, 0 // the same with empty lines alone as blank
	prevBlank, prevEmpty := true, true
	sampleLines(data, func(line string) {
		blank := strings.TrimSpace(line) == ""
		if !blank {
			nonBlank++
			if prevBlank {
				blocks++
				cur = 0
			}
			cur++
			most = max(most, cur)
		}
		empty := line == ""
		if !empty {
			eNonBlank++
			if prevEmpty {
				eBlocks++
			}
		}
		prevBlank, prevEmpty = blank, empty
	})
	big = blocks >= 2 && nonBlank >= maxRecMean*blocks
	spaced = big && !(eBlocks >= 2 && eNonBlank >= maxRecMean*eBlocks)
	return big, big && 10*most >= 9*nonBlank, spaced
}

// add reads one line (before anything else counts it); header reports
// whether it starts a record.
func (rs *recordStats) add(pos int, line string, blank, header bool, sev int) {
	if header {
		rs.finish()
		rs.cur = &textRecord{idx: rs.n, start: pos, end: pos}
		rs.n++
		if rs.kv != nil {
			rs.cur.head = line
			if rs.brace != nil {
				rs.cur.head = braceName(line) // its name, not gdb's "/* offset | size */"
			}
			rs.kv.header(pos, line)
		}
	}
	rs.prevBlank = blank
	r := rs.cur
	if r == nil || blank {
		return // lines before the first record are no record's
	}
	if r.lines > 0 && rs.kv != nil && !rs.nested {
		rs.kv.add(r, line) // (not the summary of a nested record: gdb's inner "total size")
	}
	if r.lines > 0 {
		// Its lines after the first (the header): by kind, and as rows.
		t := strings.TrimSpace(line)
		if k := lineKind(t); k != "" {
			if _, ok := r.kinds[k]; ok || len(r.kinds) < maxKinds {
				if r.kinds == nil {
					r.kinds = map[string]int{}
				}
				r.kinds[k]++
			}
		}
		if rs.cols != nil {
			if f := rs.cols.fields(line); f != nil {
				if r.sums == nil {
					r.sums = make([]float64, len(f))
				}
				r.rows++
				for i, v := range f {
					if _, x, ok := parseDecimal(v); ok && i < len(r.sums) {
						r.sums[i] += x
					}
				}
			}
		}
	}
	r.lines++
	r.end = pos
	r.sev = max(r.sev, sev)
	t := strings.TrimSpace(line)
	if r.lines > 1 && strings.IndexAny(t, "0123456789") >= 0 {
		if rs.plural == nil {
			rs.plural = map[string]bool{}
		}
		r.nums = lineNumbers(t, r.nums, rs.plural)
	}
	if r.lines == 2 {
		r.form = formWord(t)
		r.formRaw = firstWord(t)
	}
	if r.rest > 0 || r.lines > 1 && len(r.text)+3+len(t) > recordWidth {
		if r.rest == 0 && r.lines > 1 {
			// The part of this line that fits, then the rest's length.
			room := recordWidth - len(r.text) - 3
			if room > 40 {
				cutAt := runeStart(t, room)
				r.text += " | " + t[:cutAt]
				r.rest += len([]rune(t[cutAt:]))
				return
			}
		}
		r.rest += len([]rune(t)) + 3
		return
	}
	if r.lines > 1 {
		r.text += " | "
	}
	if len(t) > recordWidth {
		cutAt := runeStart(t, recordWidth)
		r.text += t[:cutAt]
		r.rest += len([]rune(t[cutAt:]))
		return
	}
	r.text += t
	r.full = pos - r.start + 1
}

// runeStart is the largest i <= n at the start of a rune of s.
func runeStart(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

// firstWord is the first word of a line, at most 60 bytes.
func firstWord(t string) string {
	if i := strings.IndexAny(t, " \t"); i >= 0 {
		t = t[:i]
	}
	return t[:runeStart(t, 60)]
}

// formText is a form as the view states it: the word itself, quoted,
// when every record of the form has the same word (linux-vdso.so.1), or
// the form with its runs of digits written <n> (never a word that is in
// no record: formWord writes every digit as 0).
func (rs *recordStats) formText(form string) string {
	if form == "" {
		return `"(one line)"`
	}
	if raw, ok := rs.formRaw[form]; ok && raw != "\x00" {
		return fmt.Sprintf("%q", raw)
	}
	var b strings.Builder
	for i := 0; i < len(form); i++ {
		if form[i] == '0' {
			for i+1 < len(form) && form[i+1] == '0' {
				i++
			}
			b.WriteString("<n>")
			continue
		}
		b.WriteByte(form[i])
	}
	return fmt.Sprintf("%q", b.String())
}

// formWord is the first word of a line with its digits written as 0: the
// form of a record whose second line it is.
func formWord(t string) string {
	if i := strings.IndexAny(t, " \t"); i >= 0 {
		t = t[:i]
	}
	if len(t) > 60 {
		t = t[:runeStart(t, 60)]
	}
	b := []byte(t)
	for i, c := range b {
		if isDigitByte(c) {
			b[i] = '0'
		}
	}
	return string(b)
}

// finish counts the current record and keeps it where a reason does.
func (rs *recordStats) finish() {
	r := rs.cur
	if r == nil {
		return
	}
	rs.cur = nil
	if rs.kv != nil {
		rs.kv.noteRare(r, r.head)
	}
	head := r.text
	if i := strings.Index(head, " | "); i >= 0 {
		head = head[:i]
	}
	if rs.brace != nil && r.head != "" {
		head = r.head // its name (braceName): gdb's first line holds " | " itself
	}
	if r.idx == 0 || r.lines < rs.minLines {
		rs.minLines, rs.minRec, rs.minR = r.lines, head, r
	}
	if r.idx == 0 || r.lines >= rs.maxLines {
		better := r.idx == 0 || r.lines > rs.maxLines
		if better {
			rs.maxLines, rs.maxRec, rs.maxR = r.lines, head, r
		}
		rs.maxTies = tie(rs.maxTies, &rs.maxN, cut(head, 80), better)
	}
	for w, v := range r.nums {
		if rs.units == nil {
			rs.units = map[string]*unitStat{}
		}
		u := rs.units[w]
		if u == nil {
			if len(rs.units) >= maxUnits {
				continue
			}
			u = &unitStat{}
			rs.units[w] = u
		}
		u.records++
		u.total += v
		if u.records == 1 || v > u.max {
			u.max, u.maxR, u.maxRec = v, r, head
		}
	}
	r.nums = nil
	for k, v := range r.kinds {
		if rs.kinds == nil {
			rs.kinds = map[string]*unitStat{}
		}
		u := rs.kinds[k]
		if u == nil {
			if len(rs.kinds) >= maxRecKinds {
				rs.kindsCut = true
				continue
			}
			u = &unitStat{}
			rs.kinds[k] = u
		}
		u.records++
		u.total += int64(v)
		if u.records == 1 || int64(v) > u.max {
			u.max, u.maxR, u.maxRec = int64(v), r, head
		}
	}
	if len(r.kinds) > 0 {
		// Kept for the record's line: the kinds that could be shown
		// (the most frequent few of this record).
		ks, _ := byCount(r.kinds)
		r.kind = map[string]int{}
		for _, x := range ks[:min(len(ks), 8)] {
			r.kind[x.k] = x.n
		}
	}
	r.kinds = nil
	if r.sums != nil {
		if rs.colMax == nil {
			rs.colMax = make([]unitStat, len(r.sums))
		}
		for i, v := range r.sums {
			if i >= len(rs.colMax) {
				break
			}
			u := &rs.colMax[i]
			u.records++
			u.total += int64(v)
			if u.maxR == nil || int64(v) > u.max {
				u.max, u.maxR, u.maxRec = int64(v), r, head
			}
		}
	}
	rs.sumLines += r.lines
	rs.rowLines += r.rows
	if len(rs.spans) < maxIndexRows {
		rs.spans = append(rs.spans, recSpan{r.start, r.end})
	}
	if rs.heads != nil || r.idx == 0 {
		if rs.heads == nil {
			rs.heads = map[string]int{}
		}
		f := headForm(head)
		if _, ok := rs.heads[f]; !ok && len(rs.heads) >= maxRecForms {
			rs.heads = nil // too many forms: none stated
		} else {
			rs.heads[f]++
		}
	}
	if len(rs.first) < recEnds {
		rs.first = append(rs.first, r)
	}
	if len(rs.last) < recEnds {
		rs.last = append(rs.last, r)
	} else {
		rs.last[r.idx%recEnds] = r
	}
	if r.idx%rs.stride == 0 {
		rs.spread = append(rs.spread, r)
		if len(rs.spread) > maxRecSpread {
			// Keep every other one: the stride doubles.
			rs.stride *= 2
			kept := rs.spread[:0]
			for _, x := range rs.spread {
				if x.idx%rs.stride == 0 {
					kept = append(kept, x)
				}
			}
			rs.spread = kept
		}
	}
	if rs.forms != nil {
		if _, ok := rs.forms[r.form]; !ok && len(rs.forms) >= maxRecForms {
			rs.forms, rs.formEx, rs.formRaw = nil, nil, nil
		} else {
			rs.forms[r.form]++
			// The word as the data has it, while every record of the
			// form has the same one.
			if raw, ok := rs.formRaw[r.form]; !ok {
				rs.formRaw[r.form] = r.formRaw
			} else if raw != r.formRaw {
				rs.formRaw[r.form] = "\x00"
			}
			if ex := rs.formEx[r.form]; len(ex) < recFormKeep {
				rs.formEx[r.form] = append(ex, r)
			}
		}
	}
	if rs.leads != nil {
		f := recLeadWord(head)
		if _, ok := rs.leads[f]; !ok && len(rs.leads) >= maxRecForms {
			rs.leads, rs.leadEx = nil, nil
		} else {
			rs.leads[f]++
			if ex := rs.leadEx[f]; len(ex) < recFormKeep {
				rs.leadEx[f] = append(ex, r)
			}
		}
	}
	if r.sev != sevNone && len(rs.notes) < maxRecNotes {
		rs.notes = append(rs.notes, r)
	}
}

// done ends the last record and puts the tail ring in order.
func (rs *recordStats) done() {
	if rs.lead != nil || rs.keys != nil {
		rs.flushPend("")
	}
	rs.finish()
	if len(rs.last) == recEnds {
		k := rs.n % recEnds
		rs.last = append(rs.last[k:], rs.last[:k]...)
	}
}

// indentLine is "  indentation: deepest 34 spaces (first at line
// 5,921)", of a text of records whose lines are indented by spaces
// (npm explain's chains of dependents), or "".
func (p *textProfile) indentLine() string {
	if p.maxIndent < 2 {
		return ""
	}
	return fmt.Sprintf("  indentation: deepest %s spaces (first at line %s)", commas(p.maxIndent), commas(p.maxIndentPos))
}

// headForm is the form of a record's first line: "a path ending with
// \":\"" (ldd's "/usr/bin/jq:"), "a path" or "a line ending with \":\"",
// else its first word, quoted ("\"ldd:\" …", a line of another kind among
// the headers).
func headForm(h string) string {
	t := strings.TrimSpace(h)
	first := firstWord(t)
	colon := strings.HasSuffix(t, ":")
	switch {
	case strings.HasPrefix(first, "/") || strings.HasPrefix(first, "./") || strings.HasPrefix(first, "../") ||
		strings.TrimSuffix(first, ":") == "." || strings.TrimSuffix(first, ":") == "..":
		if colon {
			return `a path ending with ":"`
		}
		return "a path"
	case colon && !strings.HasSuffix(first, ":"):
		return `a line ending with ":"`
	}
	return fmt.Sprintf("%q …", first)
}

// headLine is "records by the form of their first line (exact): a path
// ending with ":" 1,143, "ldd:" … 1", when there are two forms or more
// and the most frequent covers 90% of the records (the others are
// records of another kind: a tool's own message among them); "" else.
func (rs *recordStats) headLine() string {
	if len(rs.heads) < 2 {
		return ""
	}
	s, shown, more, rest := topCounts(rs.heads, 8, 80)
	ks, _ := byCount(rs.heads)
	if 10*ks[0].n < 9*shown+9*rest {
		return ""
	}
	if more > 0 {
		s += fmt.Sprintf("; %s more forms in %s records", commas(more), commas(rest))
	}
	return "  records by the form of their first line (exact): " + s
}

// holdLine is "records by the first words of their other lines (records
// holding each, exact): linux-vdso.so.1 858, libc.so.6 857, ...": the
// kinds of line (lineKind) in 3 records or more but not in all, one
// line in each record that holds it (an item a record lists: ldd's
// libraries; not a word of prose, nor a field every record has), the
// 16 in most records; "" when there are fewer than 3 or their lines
// are less than a third of the lines after the records' first.
func (rs *recordStats) holdLine() string {
	m := map[string]int{}
	items := 0
	for k, u := range rs.kinds {
		if u.records >= 3 && u.records < rs.n && u.total == int64(u.records) {
			m[k] = u.records
			items += u.records
		}
	}
	if len(m) < 3 || 3*items < rs.sumLines-rs.n {
		return "" // a few words among many lines: prose, not items
	}
	s, _, more, _ := topCounts(m, 16, 60)
	if more > 0 {
		s += fmt.Sprintf("; %s more kinds in 3 records or more", commas(more))
	}
	what := "  records by the first words of their other lines (records holding each, exact"
	if rs.kindsCut {
		what += fmt.Sprintf("; of the first %s kinds seen", commas(maxRecKinds))
	}
	return what + "): " + s
}

// rareForms are the records of a rare form: with at most shownColValues
// forms, the most frequent covering at least a third of the records,
// the forms of at most 5% of them; rarest first.
func (rs *recordStats) rareForms() []*textRecord {
	if rs.forms == nil || len(rs.forms) < 2 || len(rs.forms) > shownColValues {
		return nil
	}
	fs, _ := byCount(rs.forms)
	if 3*fs[0].n < rs.n {
		return nil
	}
	var out []*textRecord
	for i := len(fs) - 1; i > 0; i-- {
		if 20*fs[i].n <= rs.n {
			out = append(out, rs.formEx[fs[i].k]...)
		}
	}
	return out
}

// recLeadWord is the first word of a record's first line with each run of
// digits (and the ',' and '.' between them) written as one 0: "0" of
// "1,035 bytes in 1 blocks ...", "Invalid" of "Invalid read of size 4".
func recLeadWord(h string) string {
	w := firstWord(strings.TrimSpace(h))
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if isDigitByte(w[i]) {
			for i+1 < len(w) && (isDigitByte(w[i+1]) || (w[i+1] == ',' || w[i+1] == '.') && i+2 < len(w) && isDigitByte(w[i+2])) {
				i++
			}
			b.WriteByte('0')
			continue
		}
		b.WriteByte(w[i])
	}
	return b.String()
}

// rareLeads are the records whose first line starts with a rare word
// (recLeadWord): with at least 3 words, the most frequent covering at
// least half of the records, the words of at most 5% of them; rarest
// first (memcheck's "Invalid read", "Conditional jump" and its banner
// among 123 loss records that start with a number).
func (rs *recordStats) rareLeads() []*textRecord {
	if rs.leads == nil || len(rs.leads) < 3 {
		return nil
	}
	fs, _ := byCount(rs.leads)
	if 2*fs[0].n < rs.n {
		return nil
	}
	var out []*textRecord
	for i := len(fs) - 1; i > 0; i-- {
		if 20*fs[i].n <= rs.n {
			out = append(out, rs.leadEx[fs[i].k]...)
		}
	}
	return out
}

// formLine is "records by the first word of their second line (exact
// counts): (main 72, github.com/x 77, ...", when the forms are few and
// repeat; "" otherwise.
func (rs *recordStats) formLine() string {
	if rs.forms == nil || len(rs.forms) < 2 || len(rs.forms) > shownColValues {
		return ""
	}
	fs, _ := byCount(rs.forms)
	if 3*fs[0].n < rs.n || fs[0].n < 3 {
		return ""
	}
	var parts []string
	for _, f := range fs {
		parts = append(parts, fmt.Sprintf("%s %s", rs.formText(f.k), commas(f.n)))
	}
	return "  records by the first word of their second line (exact counts; <n> stands for digits that differ between records): " + strings.Join(parts, ", ")
}

// shownUnits are the words after numbers worth a line: in at least a
// third of the records (and 3), the 5 in most records, by word. Only
// what the numbers count or measure: a word seen in the plural after a
// number (a count noun: "3 files", "12 insertions", "4096 bytes") or
// a participle ("2 failed", "21 upgraded"). Not a word that follows a
// number as the next cell of a row: ls -l's owner after the link count
// ("1 root") and month after the size ("4096 Nov"), whose sums are
// true but mean nothing.
func (rs *recordStats) shownUnits() []string {
	units := map[string]*unitStat{}
	for w, u := range rs.units {
		if rs.plural[w] || strings.HasSuffix(w, "ed") {
			units[w] = u
		}
	}
	return shownStats(units, rs.n, math.MinInt64, func(u *unitStat) int64 { return int64(u.records) })
}

// shownStats are the keys of m worth a line: in at least a third of the
// n records (and 3), whose most in one record is at least minMax, the
// 5 with the largest by, then by key.
func shownStats(m map[string]*unitStat, n int, minMax int64, by func(*unitStat) int64) []string {
	var ks []string
	for k, u := range m {
		if u.records >= 3 && 3*u.records >= n && u.max >= minMax {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool {
		a, b := by(m[ks[i]]), by(m[ks[j]])
		return a > b || a == b && ks[i] < ks[j]
	})
	return ks[:min(len(ks), 5)]
}

// unitsLine is the per-record numbers: "numbers in records, summed per
// record by the word after them: insertion: 1,234 in 280 records, most
// 456 (in "commit ..."); ...", or "".
func (rs *recordStats) unitsLine() string {
	if rs.tabular() {
		return "" // a table's numbers are summed by column (colSumsLine)
	}
	ws := rs.shownUnits()
	if len(ws) == 0 {
		return ""
	}
	var parts []string
	for _, w := range ws {
		u := rs.units[w]
		parts = append(parts, fmt.Sprintf("%s: %s in %s records, most %s (in %q)", w, commas(int(u.total)), commas(u.records), commas(int(u.max)), cut(u.maxRec, 80)))
	}
	return "  numbers followed by a word, summed per record by the word (\"3 files\" as file): " + strings.Join(parts, "; ")
}

// shownKinds are the kinds of lines worth a line: in at least a third
// of the records (and 3), repeated inside a record (the most in one
// record at least 2), the 5 with the most lines.
func (rs *recordStats) shownKinds() []string {
	return shownStats(rs.kinds, rs.n, 2, func(u *unitStat) int64 { return u.total })
}

// kindsLine is the lines per record by their kind: "lines per record by
// their first words: "Setting up": 1,234 in 50 records, most 300 (in
// "Log started: ..."); ...", or "".
func (rs *recordStats) kindsLine() string {
	ks := rs.shownKinds()
	if len(ks) == 0 {
		return ""
	}
	var parts []string
	for _, k := range ks {
		u := rs.kinds[k]
		parts = append(parts, fmt.Sprintf("%q: %s lines in %s records, most %s (in %q)", k, commas(int(u.total)), commas(u.records), commas(int(u.max)), cut(u.maxRec, 80)))
	}
	return "  lines after each record's first, counted per record by their first words (exact): " + strings.Join(parts, "; ")
}

// sumColumns are the table's columns whose per-record sums are shown:
// numbers in every row, not identifiers (cp: the table's profile).
func (rs *recordStats) sumColumns(cp *colProfile) []int {
	if cp == nil || rs.colMax == nil {
		return nil
	}
	var out []int
	for i, c := range cp.cols {
		if i < len(rs.colMax) && c.isNumber() && !c.idLike() && rs.colMax[i].maxR != nil {
			out = append(out, i)
		}
	}
	return out
}

// colSumsLine is the records' sums of a table's numeric columns: "column
// 5 summed per record: most 342,934 (in "./modload:")", or "".
func (rs *recordStats) colSumsLine(cp *colProfile) string {
	var parts []string
	for _, i := range rs.sumColumns(cp) {
		u := rs.colMax[i]
		parts = append(parts, fmt.Sprintf("column %d: %s in all, most %s (in %q)", i+1, commas(int(u.total)), commas(int(u.max)), cut(u.maxRec, 80)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "  the table's numbers summed per record (its rows' cells): " + strings.Join(parts, "; ")
}

// summary is what a record's line states of it, counted over its lines:
// "[12 lines; -rw-r--r-- 9; column 5: 45,678]": its non-blank lines,
// the shown kinds it has, its sums of the shown columns.
func (rs *recordStats) summary(r *textRecord, kinds []string, cols []int) string {
	if rs.kv.active() {
		// Records of Key: value lines: their main values.
		var parts []string
		if rs.maxLines > rs.minLines {
			parts = append(parts, fmt.Sprintf("%s lines", commas(r.lines)))
		}
		if s := r.pairsText(rs.kv.mainKeys(rs.n)); s != "" {
			parts = append(parts, s)
		}
		if len(parts) == 0 {
			return ""
		}
		return "[" + strings.Join(parts, "; ") + "]"
	}
	parts := []string{fmt.Sprintf("%s lines", commas(r.lines))}
	var ks []string
	for _, k := range kinds {
		if n := r.kind[k]; n > 0 {
			ks = append(ks, fmt.Sprintf("%s %s", k, commas(n)))
		}
	}
	if len(ks) > 0 {
		parts = append(parts, strings.Join(ks, ", "))
	}
	for _, i := range cols {
		if i < len(r.sums) {
			parts = append(parts, fmt.Sprintf("column %d: %s", i+1, commas(int(r.sums[i]))))
		}
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// linesLine is the lines per record: fewest, most, mean.
func (rs *recordStats) linesLine() string {
	if rs.n == 0 {
		return ""
	}
	if rs.minLines == rs.maxLines && rs.n > 1 {
		return fmt.Sprintf("  non-blank lines per record: %s in every record, %s in all", commas(rs.minLines), commas(rs.sumLines))
	}
	below := ""
	if rs.maxLines > 1 {
		below = fmt.Sprintf("%s after the first line; ", commas(rs.maxLines-1))
	}
	most := fmt.Sprintf("most %s (%sfirst in %q)", commas(rs.maxLines), below, cut(rs.maxRec, 80))
	if rs.maxN > 1 {
		// Name the records at the maximum: which has the most is
		// otherwise a guess among them.
		var qs []string
		for _, h := range rs.maxTies {
			qs = append(qs, fmt.Sprintf("%q", h))
		}
		most = fmt.Sprintf("most %s (%sin %s records: %s", commas(rs.maxLines), below, commas(rs.maxN), strings.Join(qs, ", "))
		if rs.maxN > len(qs) {
			most += fmt.Sprintf(" and %s more", commas(rs.maxN-len(qs)))
		}
		most += ")"
	}
	return fmt.Sprintf("  non-blank lines per record: fewest %s (first in %q), %s, %s in all",
		commas(rs.minLines), cut(rs.minRec, 80), most, commas(rs.sumLines))
}

// maxRecMean bounds the mean non-blank lines of the records shown whole:
// longer records (an apt session of hundreds of lines) are read by their
// lines.
const maxRecMean = 24

// short reports whether the text's records are shown whole: there are
// records, and they have at most maxRecMean non-blank lines on average.
func (rs *recordStats) short() bool {
	return rs != nil && rs.n > 0 && rs.sumLines <= maxRecMean*rs.n && !rs.tabular()
}

// tabular reports whether most lines of the records are rows of a table
// (ls -lR's directories): such records are read by their rows and
// columns, and an index of the records with their counts and sums, not
// whole (600 characters of a directory are its first few entries).
func (rs *recordStats) tabular() bool {
	return rs.cols != nil && 2*rs.rowLines > rs.sumLines
}

// recordOrder is every kept record once, in the order the view offers
// them, each with its priority and reason: the ends and the records
// with a reason, then the even spread coarse to fine, then the rest.
func (rs *recordStats) recordOrder() (out []*textRecord, prio []int, why []string) {
	seen := map[int]bool{}
	add := func(r *textRecord, p int, w string) {
		if seen[r.idx] {
			return
		}
		seen[r.idx] = true
		out, prio, why = append(out, r), append(prio, p), append(why, w)
	}
	ends := func(k int) {
		if k < len(rs.first) {
			add(rs.first[k], PrioRare, "first records")
		}
		if j := len(rs.last) - 1 - k; j >= 0 {
			add(rs.last[j], PrioRare, "last records")
		}
	}
	ends(0)
	ends(1)
	// The records at the extremes of what is counted per record.
	if rs.maxR != nil && rs.maxLines > rs.minLines {
		add(rs.maxR, PrioRare, "most lines")
	}
	if rs.kv != nil {
		// Those of a rare value of a column of their first lines
		// (the rwxp mapping, the one security upload).
		for i, r := range rs.kv.rareRecords(rs.n) {
			p := PrioRare
			if i >= 16 {
				p = PrioSecond
			}
			add(r, p, "rare first-line value")
		}
	}
	if rs.kv.active() {
		// Records of Key: value lines: the largest of each main key.
		for _, k := range rs.kv.mainKeys(rs.n) {
			if s := rs.kv.keys[k]; s.isNumber() && s.maxR != nil {
				add(s.maxR, PrioRare, "largest "+k)
			}
		}
	}
	for _, w := range rs.shownUnits() {
		if u := rs.units[w]; u.maxR != nil {
			add(u.maxR, PrioRare, "most "+w)
		}
	}
	for i, r := range rs.notes {
		p := PrioRare
		if i >= 10 {
			p = PrioSecond
		}
		add(r, p, "holds an error or warning line")
	}
	for i, r := range rs.rareLeads() {
		p := PrioRare
		if i >= 10 {
			p = PrioSecond
		}
		add(r, p, "rare first word")
	}
	for i, r := range rs.rareForms() {
		p := PrioRare
		if i >= 10 {
			p = PrioSecond
		}
		add(r, p, "rare form")
	}
	order := spreadOrder(len(rs.spread), len(rs.spread))
	for i, k := range order {
		p := PrioSecond
		if i >= 32 {
			p = PrioSpread
		}
		add(rs.spread[k], p, "spread")
	}
	for k := 2; k < recEnds; k++ {
		ends(k)
	}
	for _, r := range rs.spread {
		add(r, PrioRemaining, "spread")
	}
	return out, prio, why
}

// recordCandidates adds the records of a record text (section tsRecords)
// and their facts (tsRecFacts).
func (tc *textCands) recordCandidates() {
	rs := tc.p.recs
	if rs == nil || rs.n == 0 {
		return
	}
	add := func(sec, key, rec, prio int, reason, text string) {
		tc.v.Add(Candidate{Section: tc.sec[sec], Key: key, Record: rec, Prio: prio, Reason: reason, Text: text})
	}
	kinds, cols := rs.shownKinds(), rs.sumColumns(tc.p.cols)
	if !rs.short() {
		// Long records (an apt session of hundreds of lines): their
		// counts, and an index of them, one line each.
		if s := rs.headLine(); s != "" {
			add(tsRecFacts, 0, -1, PrioRare, "record heads", s)
		}
		if s := rs.linesLine(); s != "" {
			add(tsRecFacts, 1, -1, PrioRare, "record lines", s)
		}
		if s := rs.kindsLine(); s != "" {
			add(tsRecFacts, 3, -1, PrioRare, "record line kinds", cut(s, 2*textWidth))
		}
		if s := rs.holdLine(); s != "" {
			add(tsRecFacts, 5, -1, PrioSecond, "records holding", cut(s, 2*textWidth))
		}
		if s := tc.p.indentLine(); s != "" {
			add(tsRecFacts, 6, -1, PrioRare, "indentation", s)
		}
		if s := rs.colSumsLine(tc.p.cols); s != "" {
			add(tsRecFacts, 4, -1, PrioRare, "record sums", cut(s, 2*textWidth))
		}
		tc.kvRecCandidates(add)
		recs, prio, _ := rs.recordOrder()
		for i, r := range recs {
			head := r.text
			width := 160
			if rs.blocks {
				// A block of its own kind (rs.blocks) is named by its
				// first three lines (npm explain: the package, where
				// it is installed, who asks for it at which range).
				if parts := strings.SplitN(head, " | ", 4); len(parts) == 4 {
					head = strings.Join(parts[:3], " | ")
				}
				width = 240
			} else if rs.kv.active() {
				head = recName(r.head) // smaps' padding between its columns costs tokens
			} else if j := strings.Index(head, " | "); j >= 0 {
				head = head[:j]
			}
			p := prio[i]
			if p == PrioRare && !rs.kv.active() {
				p = PrioSecond // after the lines at the ends (records of Key: value lines are their own ends)
			}
			sum := rs.summary(r, kinds, cols)
			if v := tc.recValues(r); v != "" && strings.HasSuffix(sum, "]") {
				sum = strings.TrimSuffix(sum, "]") + v + "]" // the rows by value (text_valindex.go)
			}
			add(tsRecIndex, r.start, r.start, p, "record", fmt.Sprintf("  %d\t%s %s", r.start, cut(head, width), sum))
		}
		return
	}
	if s := rs.formLine(); s != "" {
		add(tsRecFacts, 0, -1, PrioRare, "record forms", s)
	}
	if s := rs.headLine(); s != "" {
		add(tsRecFacts, 0, -1, PrioRare, "record heads", s)
	}
	if s := rs.linesLine(); s != "" {
		add(tsRecFacts, 1, -1, PrioRare, "record lines", s)
	}
	if s := rs.holdLine(); s != "" {
		add(tsRecFacts, 5, -1, PrioRare, "records holding", cut(s, 2*textWidth))
	}
	if s := tc.p.indentLine(); s != "" {
		add(tsRecFacts, 6, -1, PrioRare, "indentation", s)
	}
	if s := rs.unitsLine(); s != "" {
		add(tsRecFacts, 2, -1, PrioRare, "record numbers", cut(s, 2*textWidth))
	}
	if s := rs.kindsLine(); s != "" {
		add(tsRecFacts, 3, -1, PrioRare, "record line kinds", cut(s, 2*textWidth))
	}
	if s := rs.colSumsLine(tc.p.cols); s != "" {
		add(tsRecFacts, 4, -1, PrioRare, "record sums", cut(s, 2*textWidth))
	}
	tc.recSpan = map[int]*textRecord{}
	tc.kvRecCandidates(add)
	// The index of the records by name (text_recindex.go) comes before
	// the second screen of the spread of whole records.
	tc.recIndexN = map[int]int{}
	indexed := tc.recIndexCandidates(PrioSecond)
	recs, prio, why := rs.recordOrder()
	for i, r := range recs {
		if indexed && why[i] == "spread" && prio[i] == PrioSecond {
			prio[i] = PrioSpread
		}
		tc.recSpan[r.start] = r
		text := r.text
		if len(kinds) > 0 || len(cols) > 0 {
			text = rs.summary(r, kinds, cols) + " " + text
		}
		if r.rest > 0 {
			text += fmt.Sprintf(" …[+%s chars]", commas(r.rest))
		}
		add(tsRecords, r.start, r.start, prio[i], "record", fmt.Sprintf("  %d\t%s", r.start, text))
	}
}

// recordsHead is the header of the records section.
func (tc *textCands) recordsHead(cs []Candidate) string {
	rs := tc.p.recs
	s := fmt.Sprintf("records, each on one line (its lines trimmed and joined by \" | \", blank lines left out; showing %s of %s records: the first and the last, those at the extremes counted above, with error lines or a rare form, an even spread), line<TAB>record:\n",
		commas(len(cs)), commas(rs.n))
	if len(cs) < rs.n {
		s += fmt.Sprintf("every record's first line: compact artifact query %s --jq %s\n", tc.in.Handle, tc.jq(rs.headerQuery()))
		s += fmt.Sprintf("one record (here the first, lines %d-%d): compact artifact slice %s --offset %d --limit %d\n",
			rs.first[0].start, rs.first[0].end, tc.in.Handle, rs.first[0].start, rs.first[0].end-rs.first[0].start+1)
	}
	return s
}

// recIndexHead is the header of the index of long records.
func (tc *textCands) recIndexHead(cs []Candidate) string {
	rs := tc.p.recs
	first := "its first line"
	if rs.blocks {
		first = "its first three lines, joined by \" | \","
	}
	what := "[its non-blank lines; lines by the kinds counted above; the table's sums]"
	if vi := tc.nameValueIndex(); vi != nil {
		what = fmt.Sprintf("[its non-blank lines; lines by the kinds counted above; the table's sums; its rows with the %d most frequent values of %s]", len(vi.top), tc.p.cols.cols[vi.val].name)
	}
	chosen := "the first and the last, those at the extremes counted above, an even spread"
	if rs.kv.active() {
		first = "its first line (runs of spaces as one)"
		what = "[its values of " + strings.Join(rs.kv.mainKeys(rs.n), ", ") + "]"
		if rs.maxLines > rs.minLines {
			what = "[its non-blank lines; its values of " + strings.Join(rs.kv.mainKeys(rs.n), ", ") + "]"
		}
		chosen = "the first and the last, those of a rare first-line value, the largest of each, an even spread"
	}
	s := fmt.Sprintf("records, one line each: %s and %s (showing %s of %s: %s), line<TAB>record:\n",
		first, what, commas(len(cs)), commas(rs.n), chosen)
	if len(cs) < rs.n {
		s += fmt.Sprintf("every record's first line: compact artifact query %s --jq %s\n", tc.in.Handle, tc.jq(rs.headerQuery()))
	}
	return s
}

// headerQuery is the jq of every record's first line with its number.
func (rs *recordStats) headerQuery() string {
	sel := fmt.Sprintf(`startswith(%s)`, jqString(rs.key))
	switch {
	case rs.lead != nil:
		return rs.lead.headerQuery()
	case rs.brace != nil:
		return rs.brace.headerQuery()
	case rs.keys != nil:
		return rs.keys.headerQuery()
	case rs.colon:
		return `. as $l | range(length) | select(($l[.] | test("^[^ \t].*:\\s*$")) and (. == 0 or ($l[. - 1] | test("^\\s*$")))) | "\(.)\t\($l[.])"`
	case rs.blocks:
		return `. as $l | range(length) | select(($l[.] | test("\\S")) and (. == 0 or ($l[. - 1] | test("^\\s*$")))) | "\(.)\t\($l[.])"`
	case rs.kvHead:
		sel = `test("\\S") and (test("` + kvRecLineRE + `") | not)`
	case rs.key == "":
		sel = `test("^[^ \t]")`
	}
	return fmt.Sprintf(`to_entries[] | select(.value | %s) | "\(.key)\t\(.value)"`, sel)
}

// markRecord marks the lines a shown record shows whole.
func (tc *textCands) markRecord(start int) {
	r := tc.recSpan[start]
	if r == nil {
		return
	}
	for l := r.start; l < r.start+r.full; l++ {
		tc.shown[l] = true
	}
}
