package view

import (
	"fmt"
	"sort"
	"strings"
)

// Lines of structured fields.
//
// Access logs (nginx, Apache, lighttpd: "combined" and its variants),
// logfmt (log/slog's TextHandler: `time=… level=INFO msg="walked" n=12`)
// and many application logs write a record a line as fields separated
// by spaces, some of which hold spaces themselves: a "quoted string"
// (with backslash escapes), a [bracketed group] (a time), or a
// key=value pair whose value may be quoted. Split at runs of spaces,
// such a line is a table whose last column holds the rest of the line,
// so the fields a reader asks about (the status, the bytes sent, the
// request's path, a duration after "rt=") are never counted or ranked.
//
// A token of such a line is, tried in this order at each start: a
// quoted string, a bracketed group (up to the first ']'), a key and a
// quoted value (key="…"), else a run of non-blank characters; tokens
// are separated by runs of spaces and tabs (fieldTokenPattern is the
// same as a regular expression, which the view's queries scan with). A
// token that starts with a key and '=' is a key=value pair. A line is a
// record when it is P tokens that are no pairs (its positional fields,
// the same P for the whole text) followed by pairs only (any number,
// any keys). Its cells are the positional fields, then the value of
// each key seen in the first 4,000 lines (the last one of a key
// repeated in a line; none when the line lacks the key), each with the
// quotes or brackets around it removed (escapes kept as written).
//
// A text is read this way when, among its first 4,000 lines (10
// non-blank at least), 75% are records of the same P and the same kinds
// of positional fields (quoted, bracketed, plain), and the fields hold
// what a split at spaces breaks: in half the records a quoted or
// bracketed field with a space in it, or pairs in 75% of them (two at
// least in half). A positional quoted field whose value is, in 98% of
// the sampled records, the same number (2 to 6) of words is split into
// those words (an HTTP request line: method, path, protocol); the other
// records are other lines.

// fieldTokenPattern is the regular expression of a token (jq's scan
// yields the tokens of a line with it; scanFieldTokens does the same).
const fieldTokenPattern = `"(?:[^"\\]|\\.)*"|\[[^\]]*\]|[A-Za-z_][A-Za-z0-9_.-]*="(?:[^"\\]|\\.)*"|[^ \t]+`

// fieldPairPattern matches a token that is a key=value pair.
const fieldPairPattern = `^[A-Za-z_][A-Za-z0-9_.-]*=`

// fieldWrapPattern matches a value wrapped in quotes or brackets whole.
const fieldWrapPattern = `^"(?:[^"\\]|\\.)*"$|^\[[^\]]*\]$`

// Token kinds.
const (
	tokPlain   = 'w'
	tokQuoted  = 'q'
	tokBracket = 'b'
)

// fieldTok is one token of a line: its text, its kind, and for a pair
// where its value starts (after the '='), else -1.
type fieldTok struct {
	s    string
	kind byte
	val  int
}

// quotedEnd returns the end (after the closing quote) of the quoted
// string that starts at s[i] == '"', or -1 when it does not close.
func quotedTokEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '"':
			return j + 1
		case '\\':
			j++ // (past the end when the line ends with a backslash: no match)
		}
	}
	return -1
}

// pairKeyEnd is the index of the '=' after a key that starts s[i:]
// ([A-Za-z_][A-Za-z0-9_.-]*=), or -1.
func pairKeyEnd(s string, i int) int {
	if i >= len(s) || !(isLetterByte(s[i]) || s[i] == '_') {
		return -1
	}
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == '=':
			return j
		case isLetterByte(c) || isDigitByte(c) || c == '_' || c == '.' || c == '-':
		default:
			return -1
		}
	}
	return -1
}

// scanFieldTokens appends the tokens of line to out (fieldTokenPattern).
// A '[' with no ']' after it means no later '[' closes either, so the
// search for ']' stops after the first miss: a line of many unclosed
// brackets costs one pass, not one pass per bracket (rev16 R3).
func scanFieldTokens(line string, out []fieldTok) []fieldTok {
	i := 0
	noClose := false // no ']' after the last '[' searched
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			return out
		}
		end, kind := -1, byte(tokPlain)
		switch line[i] {
		case '"':
			if end = quotedTokEnd(line, i); end > 0 {
				kind = tokQuoted
			}
		case '[':
			if noClose {
				break
			}
			if j := strings.IndexByte(line[i+1:], ']'); j >= 0 {
				end, kind = i+1+j+1, tokBracket
			} else {
				noClose = true
			}
		}
		val := -1
		if end < 0 {
			if eq := pairKeyEnd(line, i); eq > 0 {
				val = eq + 1 - i
				if eq+1 < len(line) && line[eq+1] == '"' {
					end = quotedTokEnd(line, eq+1)
				}
			}
		}
		if end < 0 {
			end = i
			for end < len(line) && line[end] != ' ' && line[end] != '\t' {
				end++
			}
		}
		out = append(out, fieldTok{s: line[i:end], kind: kind, val: val})
		i = end
	}
}

// mergeCommaTokens joins to a token that ends with ',' (and does not
// start with a quote or a bracket) the next token when it has no '=',
// '"' or '[': a list written with ", " is one value ("uct=0.000, 0.000,
// -" of nginx's upstream times after a retry). jqMergeCommas is the same
// in jq.
func mergeCommaTokens(toks []fieldTok) []fieldTok {
	out := toks[:0]
	for _, t := range toks {
		if n := len(out); n > 0 {
			p := &out[n-1]
			if strings.HasSuffix(p.s, ",") && p.s[0] != '"' && p.s[0] != '[' && !strings.ContainsAny(t.s, "=\"[") {
				p.s += " " + t.s
				p.kind = tokPlain
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// jqMergeCommas is mergeCommaTokens over the array of a line's tokens.
const jqMergeCommas = `reduce .[] as $t ([]; if length > 0 and (.[length - 1] | endswith(",") and (test("^[\\[\"]") | not)) and ($t | test("[=\\[\"]") | not) then .[length - 1] += " " + $t else . + [$t] end)`

// unwrapField removes the quotes or the brackets around v when they
// wrap it whole (fieldWrapPattern); any other v as it is.
func unwrapField(v string) string {
	if len(v) < 2 {
		return v
	}
	switch v[0] {
	case '"':
		if quotedTokEnd(v, 0) == len(v) {
			return v[1 : len(v)-1]
		}
	case '[':
		if v[len(v)-1] == ']' && strings.IndexByte(v[1:], ']') == len(v)-2 {
			return v[1 : len(v)-1]
		}
	}
	return v
}

// fieldShape is a record line's shape: its positional fields' count
// and kinds ("wwwbq" …), or ok false when pairs and other tokens mix.
func fieldShape(toks []fieldTok) (kinds string, pairs int, ok bool) {
	p := 0
	for p < len(toks) && toks[p].val < 0 {
		p++
	}
	for _, t := range toks[p:] {
		if t.val < 0 {
			return "", 0, false
		}
	}
	b := make([]byte, p)
	for i := range b {
		b[i] = toks[i].kind
	}
	return string(b), len(toks) - p, true
}

// fieldSplit is the structure of a text of field lines (colSplit's
// byFields).
type fieldSplit struct {
	pos    int      // positional fields a record has
	kinds  string   // their kinds, as most records have them (tokQuoted ...)
	commas bool     // tokens are joined after a ',' (mergeCommaTokens)
	keys   []string // the keys of the pairs, in order of first appearance
	keyAt  map[string]int
	toks   []fieldTok // scratch
	absent []bool     // per key: the record fields read last lacks it
}

// detectFields finds a text of field lines, or nil.
func detectFields(sample []byte) *colSplit {
	nonBlank := 0
	shapes := map[string]int{}
	var toks []fieldTok
	commas := false
	firstLines(sample, func(pos int, line string) {
		toks = scanFieldTokens(line, toks[:0])
		n := len(toks)
		commas = commas || len(mergeCommaTokens(toks)) < n
	})
	scan := func(line string) []fieldTok {
		toks = scanFieldTokens(line, toks[:0])
		if commas {
			toks = mergeCommaTokens(toks)
		}
		return toks
	}
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		nonBlank++
		toks = scan(line)
		if kinds, _, ok := fieldShape(toks); ok {
			shapes[kinds]++
		}
	})
	if nonBlank < 10 {
		return nil
	}
	best, n := "", 0
	for k, c := range shapes {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	if n*4 < nonBlank*3 {
		return nil
	}
	fs := &fieldSplit{pos: len(best), kinds: best, commas: commas, keyAt: map[string]int{}}
	spaced, paired, twoPairs := 0, 0, 0
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		toks = scan(line)
		kinds, pairs, ok := fieldShape(toks)
		if !ok || len(kinds) != fs.pos {
			return
		}
		for _, t := range toks[:fs.pos] {
			if t.kind != tokPlain && strings.ContainsAny(trimBlank(unwrapField(t.s)), " \t") {
				// (not only padding: pytest's "[  0%]")
				spaced++
				break
			}
		}
		if pairs > 0 {
			paired++
		}
		if pairs > 1 {
			twoPairs++
		}
		for _, t := range toks[fs.pos:] {
			k := t.s[:t.val-1]
			if _, ok := fs.keyAt[k]; !ok && fs.pos+len(fs.keys) < maxColumns {
				fs.keyAt[k] = len(fs.keys)
				fs.keys = append(fs.keys, k)
			}
		}
	})
	if !(spaced*2 >= n || paired*4 >= n*3 && twoPairs*2 >= n) {
		return nil
	}
	if fs.pos+len(fs.keys) < 2 {
		return nil
	}
	fs.absent = make([]bool, len(fs.keys))
	k := fs.pos + len(fs.keys)
	sp := &colSplit{mode: byFields, k: k, minK: k, headPos: -1, fs: fs}
	sp.detectWords(sample)
	sp.header = sp.fieldNames(sample, best)
	return sp
}

// fieldCells splits a line into the cells of a field line (see
// detectFields), or nil when it is no record.
func (fs *fieldSplit) cells(line string) []string {
	fs.toks = scanFieldTokens(line, fs.toks[:0])
	if fs.commas {
		fs.toks = mergeCommaTokens(fs.toks)
	}
	toks := fs.toks
	if len(toks) < fs.pos {
		return nil
	}
	for _, t := range toks[:fs.pos] {
		if t.val >= 0 {
			return nil
		}
	}
	for _, t := range toks[fs.pos:] {
		if t.val < 0 {
			return nil
		}
	}
	out := make([]string, fs.pos+len(fs.keys))
	for i, t := range toks[:fs.pos] {
		out[i] = unwrapField(t.s)
	}
	for i := range fs.absent {
		fs.absent[i] = true
	}
	for _, t := range toks[fs.pos:] {
		if j, ok := fs.keyAt[t.s[:t.val-1]]; ok {
			out[fs.pos+j] = unwrapField(t.s[t.val:])
			fs.absent[j] = false
		}
	}
	return out
}

// jqCells is the jq of cells.
func (fs *fieldSplit) jqCells() string {
	var b strings.Builder
	fmt.Fprintf(&b, `[scan(%s)]`, jqString(fieldTokenPattern))
	if fs.commas {
		b.WriteString(" | " + jqMergeCommas)
	}
	fmt.Fprintf(&b, ` | select(length >= %d and (.[:%[1]d] | all(test(%[2]s) | not)) and (.[%[1]d:] | all(test(%[2]s))))`,
		fs.pos, jqString(fieldPairPattern))
	if len(fs.keys) == 0 {
		fmt.Fprintf(&b, ` | map(if test(%s) then .[1:-1] else . end)`, jqString(fieldWrapPattern))
		return b.String()
	}
	fmt.Fprintf(&b, ` | (.[%d:] | map(capture("^(?<key>[^=]*)=(?<value>.*)$")) | from_entries) as $o | .[:%[1]d] + [`, fs.pos)
	for i, k := range fs.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `$o[%s]`, jqString(k))
	}
	fmt.Fprintf(&b, `] | map(if . != null and test(%s) then .[1:-1] else . end)`, jqString(fieldWrapPattern))
	return b.String()
}

// absentCell is how the index shows a key a row lacks.
const absentCell = "(none)"

// absentAt reports whether cell i of the row fields read last is a key
// the row lacks (not an empty value).
func (sp *colSplit) absentAt(i int) bool {
	if sp.mode != byFields {
		return false
	}
	j := i - (sp.k - len(sp.fs.keys))
	return j >= 0 && j < len(sp.fs.absent) && sp.fs.absent[j]
}

// fieldNames names the columns of field lines: a pair's column by its
// key; a positional field by its kind when its values say it (a
// bracketed time: "time"; an address: "ip"; the words of an HTTP request
// line: "method", "path", "protocol"), else "field N" (N counting the
// line's tokens from 1, "field N.W" for word W of a split field).
func (sp *colSplit) fieldNames(sample []byte, kinds string) []string {
	fs := sp.fs
	var names []string
	// The cells as split (before the words) and what each became.
	type src struct{ tok, word, words int }
	var srcs []src
	for i := 0; i < fs.pos; i++ {
		w := 0
		if i < len(sp.words) {
			w = sp.words[i]
		}
		if w == 0 {
			srcs = append(srcs, src{i, 0, 0})
			continue
		}
		for j := 0; j < w; j++ {
			srcs = append(srcs, src{i, j, w})
		}
	}
	// Values of every positional column among the first rows.
	vals := make([][]string, len(srcs))
	n := 0
	firstLines(sample, func(pos int, line string) {
		if n >= 200 {
			return
		}
		f := sp.fields(line)
		if f == nil {
			return
		}
		n++
		for i := range srcs {
			vals[i] = append(vals[i], f[i])
		}
	})
	used := map[string]bool{}
	for _, k := range fs.keys {
		used[k] = true
	}
	all := func(vs []string, ok func(string) bool) bool {
		if len(vs) == 0 {
			return false
		}
		for _, v := range vs {
			if !ok(v) {
				return false
			}
		}
		return true
	}
	name := func(i int) string {
		s := srcs[i]
		vs := vals[i]
		switch {
		case s.words == 3 && s.word == 0 && all(vs, httpMethod) && all(vals[i+2], func(v string) bool { return strings.HasPrefix(v, "HTTP/") }):
			return "method"
		case s.words == 3 && s.word == 1 && i > 0 && srcs[i-1].word == 0 && all(vals[i-1], httpMethod) && all(vals[i+1], func(v string) bool { return strings.HasPrefix(v, "HTTP/") }):
			return "path"
		case s.words == 3 && s.word == 2 && all(vs, func(v string) bool { return strings.HasPrefix(v, "HTTP/") }) && all(vals[i-2], httpMethod):
			return "protocol"
		case s.words == 0 && kinds[s.tok] == tokBracket && all(vs, clockLike):
			return "time"
		case s.words == 0 && all(vs, ipLike):
			return "ip"
		}
		if s.words > 0 {
			return fmt.Sprintf("field %d.%d", s.tok+1, s.word+1)
		}
		return fmt.Sprintf("field %d", s.tok+1)
	}
	for i := range srcs {
		nm := name(i)
		if used[nm] {
			nm = fmt.Sprintf("field %d", srcs[i].tok+1)
			if srcs[i].words > 0 {
				nm = fmt.Sprintf("field %d.%d", srcs[i].tok+1, srcs[i].word+1)
			}
		}
		used[nm] = true
		names = append(names, nm)
	}
	return append(names, fs.keys...)
}

// httpMethod reports whether v is an HTTP method's form: 3 to 10
// capital letters.
func httpMethod(v string) bool {
	if len(v) < 3 || len(v) > 10 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 'A' || v[i] > 'Z' {
			return false
		}
	}
	return true
}

// clockLike reports whether v holds a clock time: two digits, ':', two
// digits, ':', two digits ("01:41:49"; not an address and port).
func clockLike(v string) bool {
	for i := 2; i+6 <= len(v); i++ {
		if v[i] == ':' && v[i+3] == ':' && isDigitByte(v[i-2]) && isDigitByte(v[i-1]) &&
			isDigitByte(v[i+1]) && isDigitByte(v[i+2]) && isDigitByte(v[i+4]) && isDigitByte(v[i+5]) {
			return true
		}
	}
	return false
}

// ipLike reports whether v is an IPv4 address (four numbers and dots)
// or an IPv6 one (hex digits and at least two colons).
func ipLike(v string) bool {
	if v == "" || len(v) > 45 {
		return false
	}
	dots, colons := 0, 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '.':
			dots++
		case c == ':':
			colons++
		case isDigitByte(c):
		case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			if dots > 0 {
				return false
			}
		default:
			return false
		}
	}
	return dots == 3 && colons == 0 && strings.Trim(v, "0123456789.") == "" || colons >= 2 && dots == 0
}

// howSplit says how field lines split, for the columns' head.
func (fs *fieldSplit) howSplit() string {
	s := fmt.Sprintf("lines of fields: %d positional (quoted strings, [brackets] or words, quotes and brackets removed)", fs.pos)
	if len(fs.keys) > 0 {
		s += fmt.Sprintf(", then key=value pairs (%d keys, one column each)", len(fs.keys))
	}
	return s
}

// headerText says where a table's column names come from.
func (sp *colSplit) headerText() string {
	switch {
	case sp.mode == byFields:
		return "columns named by key, by kind or by position"
	case sp.header != nil:
		return fmt.Sprintf("header at line %d", sp.headPos)
	}
	return "no header line"
}

// splitBlanks splits s at runs of spaces and tabs, leading and trailing
// ones ignored (jq: [scan("[^ \t]+")]).
func splitBlanks(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}

// jqWords is the jq of splitWords for field lines: each split cell
// replaced by its words, when it has as many as words says (else the
// line is no row), from the last so the indexes hold.
func (fs *fieldSplit) jqWords(words []int) string {
	var b strings.Builder
	for i := len(words) - 1; i >= 0; i-- {
		if words[i] > 0 {
			fmt.Fprintf(&b, ` | .[:%d] + (.[%[1]d] | [scan("[^ \t]+")] | select(length == %d)) + .[%d:]`, i, words[i], i+1)
		}
	}
	return b.String()
}

// The end of a log of field lines. What went wrong last often shows as
// one value taking over the last rows: a status 502 once the backend is
// gone, level=ERROR once the disk is full. The profile keeps the last
// maxLastRows rows; a value shift is a value of a column of few values
// (not its most frequent) that holds at least half of the rows from
// some row to the last (10 rows at least, that row holding it), while
// before that row it holds at most an eighth as large a share; of such
// runs, the one where the value leads the other rows by the most is
// stated, with its first rows (a column of times is left out: its last
// time holds the last rows).

// maxLastRows bounds the rows kept for the value shifts at the end.
const maxLastRows = 400

// lastRow is one of the last rows: its line and cells.
type lastRow struct {
	l     posLine
	cells []string
}

// valueShift is a value that takes over the last rows of a column.
type valueShift struct {
	c     *colStat
	v     string
	from  int       // the line the run starts at
	span  int       // rows from it to the last
	n     int       // of them with the value
	first []posLine // the first rows of the run with the value (at most 3)
}

// keepLast keeps a row among the last ones.
func (cp *colProfile) keepLast(pos int, line string, f []string) {
	r := lastRow{posLine{pos, line}, f}
	if len(cp.last) < maxLastRows {
		cp.last = append(cp.last, r)
		return
	}
	cp.last[cp.lastNext] = r
	cp.lastNext = (cp.lastNext + 1) % maxLastRows
}

// ordinal1 is "1st", "2nd", "3rd", ...
func ordinal1(n int) string {
	if n == 1 {
		return "1st"
	}
	return ordinal(n)
}

// valueShifts finds the value shifts at the end (at most one a column,
// the longest run first).
func (cp *colProfile) valueShifts() []valueShift {
	if cp.shifts != nil {
		return *cp.shifts
	}
	var out []valueShift
	cp.shifts = &out
	n := len(cp.last)
	if n < 20 {
		return nil
	}
	rows := make([]lastRow, 0, n)
	rows = append(rows, cp.last[cp.lastNext:]...)
	rows = append(rows, cp.last[:cp.lastNext]...)
	whole := n == cp.rows // every row is kept: a run may start at the first
	for i, c := range cp.cols {
		if c.overflow || len(c.values) < 2 || len(c.values) > shownColValues {
			continue
		}
		vs := c.sortedValues()
		if allClock(vs) {
			continue // times: the last one holds the last rows
		}
		best, score := valueShift{}, 0
		for _, x := range vs[1:] {
			cnt := 0
			for j := n - 1; j >= 0; j-- {
				if i >= len(rows[j].cells) || rows[j].cells[i] != x.k {
					continue
				}
				cnt++
				span := n - j
				before, beforeRows := x.n-cnt, cp.rows-span
				// The run from row j leads by the most rows with the
				// value over rows without it.
				if span < 10 || 2*cnt-span <= score || beforeRows <= 0 && !whole {
					continue
				}
				// before/beforeRows <= (cnt/span)/8
				if beforeRows > 0 && 8*before*span > cnt*beforeRows {
					continue
				}
				if j == 0 && !whole {
					continue // the run may start before the rows kept
				}
				best, score = valueShift{c: c, v: x.k, from: rows[j].l.pos, span: span, n: cnt}, 2*cnt-span
			}
		}
		if best.c == nil || best.span >= cp.rows {
			continue
		}
		for j := n - best.span; j < n && len(best.first) < 3; j++ {
			if rows[j].cells[i] == best.v {
				best.first = append(best.first, rows[j].l)
			}
		}
		out = append(out, best)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].span > out[b].span })
	return out
}

// shiftLine states a value shift.
func (sh valueShift) line(rows int) string {
	return fmt.Sprintf("  %s at the end: %q in %s of the last %s rows (from line %d); %s of the %s rows before", sh.c.name, sh.v, commas(sh.n), commas(sh.span), sh.from, commas(sh.c.values[sh.v]-sh.n), commas(rows-sh.span))
}

// shiftCandidates adds the value shifts at the end of a table's rows
// (field lines only: the profile keeps their last rows) and their first
// rows, as the anomaly: each shift's line after its column's, the rows
// with the rows the columns choose.
func (tc *textCands) shiftCandidates(add func(sec, key, rec int, reason, text string)) {
	cp := tc.p.cols
	if cp == nil || cp.rows == 0 || len(cp.valueShifts()) == 0 {
		return
	}
	g := cp.groupColumn()
	for _, sh := range cp.valueShifts() {
		i := indexOf(cp.cols, sh.c)
		// The column's line with it (its counts before the shift's).
		add(tsColumns, colKeys*i, -1, "column", cut(sh.c.line(cp.rows)+cp.sumsBy(sh.c, g)+cp.timeSpan(i), textWidth))
		add(tsColumns, colKeys*i+30, -1, "value shift", sh.line(cp.rows))
	}
	rows := cp.chosenRows()
	for _, r := range rows[:cp.shiftRows] {
		text := fmt.Sprintf("  %d\t%s\t[%s]", r.l.pos, cut(cp.split.compactRow(r.l.text), colRowWidth), strings.Join(r.reasons, "; "))
		add(tsColRows, r.l.pos, r.l.pos, "chosen by its columns", text)
	}
}

// allClock reports whether every value holds a clock time.
func allClock(vs []keyCount) bool {
	for _, x := range vs {
		if !clockLike(x.k) {
			return false
		}
	}
	return true
}

// columnOrder is the order the columns' lines are offered in (they are
// shown in column order): of field lines, the columns of few values and
// of numbers first (the distributions, the extremes), then those of
// many values, then those of one value and of a time; any other table's
// in column order.
func (cp *colProfile) columnOrder() []int {
	order := make([]int, len(cp.cols))
	for i := range order {
		order[i] = i
	}
	if cp.split.mode != byFields {
		return order
	}
	rank := func(c *colStat) int {
		switch {
		case !c.overflow && len(c.values) == 1:
			return 3
		case !c.overflow && allClock(c.sortedValues()):
			return 2
		case c.isNumber() || !c.overflow && len(c.values) <= shownColValues:
			return 0
		}
		return 1
	}
	sort.SliceStable(order, func(a, b int) bool { return rank(cp.cols[order[a]]) < rank(cp.cols[order[b]]) })
	return order
}

// fieldQueryCandidate offers, for field lines, the query for the rows
// with a value as a line of the columns' section (first), not in its
// head: the jq that splits such a line is long, and is worth its tokens
// only once the columns' lines are in.
func (tc *textCands) fieldQueryCandidate(add func(sec, key, rec int, reason, text string)) {
	cp := tc.p.cols
	if cp == nil || cp.rows == 0 || cp.split.mode != byFields {
		return
	}
	if q := strings.TrimSuffix(tc.valueQuery(), "\n"); q != "" {
		add(tsColumns, -1, -1, "columns query", q)
	}
}

// timeSpan states, for a column of times of field lines with more
// values than the profile lists, its values in the first row and in
// the last ("" otherwise): a log's time range.
func (cp *colProfile) timeSpan(i int) string {
	c := cp.cols[i]
	if cp.split.mode != byFields || len(cp.last) == 0 || !c.overflow && len(c.values) <= shownColValues {
		return ""
	}
	f := cp.split.fields(cp.first.text)
	lastRow := cp.last[(cp.lastNext+len(cp.last)-1)%len(cp.last)]
	if f == nil || i >= len(f) || i >= len(lastRow.cells) || cp.split.absentAt(i) {
		return ""
	}
	first, last := f[i], lastRow.cells[i]
	if !clockLike(first) || !clockLike(last) {
		return ""
	}
	return fmt.Sprintf("; first row (line %d) %q, last row (line %d) %q", cp.first.pos, first, lastRow.l.pos, last)
}

// countOtherKeys counts the keys of the row fields read last that have
// no column (fs.toks holds its tokens).
func (cp *colProfile) countOtherKeys() {
	fs := cp.split.fs
	other := false
	for _, t := range fs.toks[fs.pos:] {
		k := t.s[:t.val-1]
		if _, ok := fs.keyAt[k]; ok {
			continue
		}
		if !other {
			other = true
			cp.otherKeyRows++
		}
		if cp.otherKeys == nil {
			cp.otherKeys = map[string]int{}
		}
		if _, ok := cp.otherKeys[k]; ok || len(cp.otherKeys) < maxValues {
			cp.otherKeys[k]++ // (a key twice in a row: counted twice; rare)
		} else {
			cp.otherKeysMore = true
		}
	}
}

// otherKeysLine states the keys that have no column, with the rows that
// have each ("" when there are none).
func (cp *colProfile) otherKeysLine() string {
	if cp.otherKeyRows == 0 {
		return ""
	}
	vs, _ := byCount(cp.otherKeys)
	var parts []string
	for i, x := range vs {
		if i == shownColValues {
			parts = append(parts, fmt.Sprintf("%s more", commas(len(vs)-i)))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", x.k, commas(x.n)))
	}
	more := ""
	if cp.otherKeysMore {
		more = "; more keys than counted"
	}
	return fmt.Sprintf("  keys with no column (first seen after line 4,000 or past %d columns; %s rows have one; occurrences by key, exact): %s%s", maxColumns, commas(cp.otherKeyRows), strings.Join(parts, ", "), more)
}
