package view

import (
	"fmt"
	"github.com/toolcompact/compact/schemas/linetemplate"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Columns of tabular text.
//
// Many tools print a table as text: ps, ls -l, dpkg-query -W with a
// format, go mod graph, apt list, TSV exports. Templates say little about
// such lines (every row has the same form); what a reader asks about is
// the columns: how many rows have each value ("how many packages are
// required?"), the numeric totals and extremes ("the largest package"),
// and the rows whose value is rare ("which package is not installed?").
//
// A text is a table when, in its first 4,000 lines, at least 75% of the
// non-blank lines split into the same number k >= 2 of fields: at tabs
// when most lines have one (every field kept, empty ones too), else at
// runs of spaces and tabs (leading and trailing ones ignored; a line with
// more than k fields is a row whose last column holds the rest, joined by
// single spaces, so a command or a file name with spaces stays one
// value). The first line is a header when it has k fields, none with a
// digit, and some column is numeric in the rows below it. Lines of
// another shape ("total 184", a directory header of ls -R) are counted as
// other lines and profiled as text, like every line.
//
// Per column, over every row, exactly: the number of distinct values;
// while there are at most maxColValues of them, every value's count (the
// view names the most frequent 12 and the count of the rest); numbers
// (a column whose every value is a decimal number): the sum, the minimum
// and maximum with the rows that hold them. Rows whose value is rare in a
// column dominated by few values are candidates with that reason.

const (
	maxColumns     = 24   // columns profiled (the rest of a wider table is not)
	maxColValues   = 4096 // distinct values counted exactly per column
	maxColDistinct = 1 << 16
	maxColExamples = 3   // rows kept per value, for the rare-value rows
	maxHeldRows    = 64  // every row of a value kept while it has at most this many (holderLines)
	maxExampleVals = 64  // values whose rows are kept, per column
	maxExtremeRows = 5   // rows kept at the minimum and at the maximum
	shownColValues = 12  // values named per column
	colRowWidth    = 300 // a row is shown cut to this many characters
)

// colSplit is how a table's lines split into columns.
type colSplit struct {
	mode splitMode // how a line splits into cells (text_split.go)
	k    int       // the number of columns
	// minK is the fewest cells a row has (below k only with a separator:
	// tabs or a bar).
	minK     int
	lead     string    // the indentation every row starts with, removed before the split
	parens   bool      // a line split at spaces had an opening parenthesis on its own (splitSpacesP)
	sep      string    // byBar: the bar
	bordered bool      // byBar: rows start and end with the bar
	barRules bool      // byBar: rule lines hold the bar ("|---|---|"), tested apart
	quoted   bool      // byBar: a cell in quotes may hold the separator (text_csv.go)
	one      [1]string // byLine: the cell fields returns (no allocation per row)
	header   []string  // the header's names, when the first line is one
	headPos  int       // the header's line, or -1
	// words are, for the columns of the cells as split (byTab,
	// byTabRuns), the number of words each splits into again at spaces
	// (0: not split); k and minK count the columns after that split,
	// cellK and cellMinK the cells before it (detectWords).
	starts          []int // byWidth: where each column starts (bytes from 0)
	spaceRules      bool  // bySpaces: rule lines ("-----  ----") are no rows
	words           []int
	cellK, cellMinK int
	// names are the name columns (0-based): columns of names of things
	// (file names, symbols, commands), which a severity word inside is
	// part of, not a level (see nameColumns).
	names []int
	// described: the rows are names, a separator word and a description
	// (separatorWord: apropos); the description column is read like
	// the name columns: words of a description are no level.
	described bool
	// numbers are the columns (bySpaces) whose cell in a row holds no
	// ASCII letter: a line with a word there is no row (a title, the
	// header below it, a summary: cProfile's "604417 function calls …"
	// above "ncalls  tottime …"; see numberGuard). guardOut reports
	// that fields left out the line it read last for such a word alone.
	numbers  []int
	guardOut bool
	// trailer: a line that splits into more words than the table has
	// columns is no row (bySpaces): the table's rows never do, and the
	// text ends, after its last row and a blank line, with a summary
	// whose lines do (rsync's "Number of files: 894 (reg: 836, dir:
	// 58)", "sent 39,318 bytes  received 3,775 bytes ..."; see
	// trailerBelow). trailFrom is the summary's first line; trailOut
	// reports that fields left out the line it read last for its words.
	trailer   bool
	trailFrom int
	trailOut  bool
	// repKey is the key (repHeaderKey) of a header line the table repeats
	// above each block of rows (sar, mpstat, pidstat, vmstat, top -b;
	// see repeatedHeader); headOut reports that fields left out the line
	// it read last as a repetition of it.
	repKey    string
	headOut   bool
	headStart string // the repeated header's first two words
	// fs: byFields, the fields of the lines (text_fields.go).
	fs *fieldSplit
	// peel: bySpaces, the groups in brackets the last column ends
	// with, split off as columns of their own (text_groups.go); k and
	// minK count them.
	peel *groupPeel
}

// colStat is the profile of one column.
type colStat struct {
	name     string
	values   map[string]int // every distinct value and its count, while few
	overflow bool           // more than maxColValues distinct values
	distinct map[uint64]struct{}
	capped   bool // more than maxColDistinct distinct values
	// examples are the rows of each value, while few values: all of
	// them while the value is in at most maxHeldRows rows, else the
	// first maxColExamples.
	examples map[string][]posLine
	numeric  int
	// num sums the numbers (min and max compared in their family's
	// unit); minRows and maxRows are the first rows at the least and the
	// greatest.
	num              numSum
	minRows, maxRows []posLine
	// groupSums are the sums of this (numeric) column per value of each
	// other column, while that column has at most maxGroupValues values.
	groupSums []map[string]float64
	// groupRanges are, in a table with a repeated header (a series of
	// blocks: repKey), this column's least and greatest number per value
	// of each other column, beside groupSums and while it is kept.
	groupRanges []map[string]*groupRange
	// names counts the rows by the name their value starts with: an
	// identifier and the punctuation after it ("openat(", "level=",
	// "Status:"), while at most maxColValues; nameRows rows have one.
	names    map[string]int
	nameRows int
	// after counts the rows by what follows the bracket their name
	// opens, once it closes ("= 0", "= -1 ENOENT (No such file or
	// directory)"; hexadecimal numbers written 0x…), while at most
	// maxColValues; afterRows rows have one.
	after     map[string]int
	afterRows int
	// words counts the rows by their value's first word when it is a
	// word of letters followed by more words (an instruction's mnemonic
	// before its operands: "mov    %rax,%rdi"; "ret" alone is a word
	// too), while at most maxColValues; wordRows rows have one, and
	// wordsMore of them more words after it.
	words     map[string]int
	wordRows  int
	wordsMore int
	// top are the rows of the largest values below the maximum, largest
	// first, at most maxTopRows (one row per value).
	top []topRow
	// bottom are the rows of the smallest values above the minimum,
	// smallest first, at most maxTopRows (one row per value).
	bottom   []topRow
	rows     int    // rows that have this column (a row may have fewer cells)
	empty    int    // rows whose cell is empty
	unit     string // the unit the numbers are written with ("%", "s", "ms", "KB"; see splitUnit)
	mixed    bool   // numbers with and without the unit, or units of different families
	units    bool   // several units of one family (1.20s beside 10ms): compared, not summed
	zeros    int    // bare 0s (no unit), which go with any unit
	sumLen   int    // the lengths of the values, summed (for the index)
	lettered int    // values with an ASCII letter (names; not times or numbers)
	negative bool   // a value below zero
	digits   int    // the digits of every integer value while they agree, else -1
	series   bool   // the table repeats its header: a series of blocks (colSplit.repKey)
	slashed  int    // numbers written "N/M", read as N
	// paths counts the values that are paths by directory, extension
	// and depth (text_paths.go); nil once most values are not.
	paths *pathStat
	// few: a column of field lines, whose values are listed when at
	// most 3 rows have it (lineOf).
	few bool
}

// topRow is a row and its value in a numeric column.
type topRow struct {
	v   float64
	raw string
	l   posLine
}

// maxTopRows bounds the rows kept at the largest values after the
// maximum (the largest file under a total line of du).
const maxTopRows = 4

// noteTop keeps the row if its value is among the largest maxTopRows+1
// distinct values seen (the first of them is the maximum's), and among
// the smallest in bottom.
func (c *colStat) noteTop(v float64, raw string, l posLine) {
	c.top = noteRank(c.top, v, raw, l, func(a, b float64) bool { return a > b })
	c.bottom = noteRank(c.bottom, v, raw, l, func(a, b float64) bool { return a < b })
}

// noteRank keeps the rows of the first maxTopRows+1 distinct values of
// list in the order before (one row per value).
func noteRank(list []topRow, v float64, raw string, l posLine, before func(a, b float64) bool) []topRow {
	for _, t := range list {
		if t.v == v {
			return list
		}
	}
	if len(list) == maxTopRows+1 && !before(v, list[maxTopRows].v) {
		return list
	}
	list = append(list, topRow{v, raw, l})
	sort.SliceStable(list, func(i, j int) bool { return before(list[i].v, list[j].v) })
	if len(list) > maxTopRows+1 {
		list = list[:maxTopRows+1]
	}
	return list
}

// maxGroupValues bounds the values of a column the numeric columns are
// summed by.
const maxGroupValues = 6

// colProfile is the column profile of a table.
type colProfile struct {
	split colSplit
	rows  int     // lines that are rows (the header is not one)
	first posLine // the first row (its name shows how to fetch a row by name)
	other int     // non-blank lines of another shape
	cols  []*colStat
	// starts are the lines of every indexChunk-th row (rows 0, 20,
	// 40, ...): where the chunks of the index start (text_list.go).
	starts []int
	// others are the first maxOthers lines that are no rows, and
	// otherStarts counts every such line by its start (otherStart);
	// nil past maxValues starts.
	others      []posLine
	otherStarts map[string]int
	// guarded counts the other lines that are rows but for a word in a
	// column of numbers (colSplit.numbers); headReps those that repeat
	// the header (colSplit.repKey).
	guarded  int
	headReps int
	// runs counts the runs of rows: rows with no other line between
	// them (a table printed in sections, each under its own header:
	// benchstat's sec/op, B/op and allocs/op per package); afterOther
	// reports that the line read last was no row.
	runs       int
	afterOther bool
	// runList are the runs (text_runs.go), nil past maxRuns.
	runList []tableRun
	// trailBroken: a line above the summary below the table
	// (colSplit.trailer) splits into more words than the table has
	// columns, so the summary's rule does not hold.
	trailBroken bool
	// shallow is the listing of the shallowest paths, once made
	// (text_shallow.go).
	shallow *shallowList
	// last are the last rows of field lines, oldest first from
	// lastNext once full (text_fields.go); shifts are what they show,
	// once found.
	last      []lastRow
	lastNext  int
	shifts    *[]valueShift
	shiftRows int // chosenRows' first rows, the value shifts' (shown with them)
	// otherKeys counts the rows by each key of field lines that has no
	// column (first seen after the first 4,000 lines, or past
	// maxColumns), while at most maxValues keys; otherKeyRows rows have
	// one, otherKeysMore is set once more keys were seen.
	otherKeys     map[string]int
	otherKeyRows  int
	otherKeysMore bool
}

// maxOthers is the most lines that are no rows a table keeps to show.
const maxOthers = 20

// noMark is the start of a line that starts with a letter or a digit.
const noMark = "(none)"

// otherStart is how a line that is no row starts: its run of spaces
// and marks before the first letter or digit (" |" of apt-cache
// rdepends' alternatives, "+++-" of dpkg -l's rule), quoted.
func otherStart(line string) string {
	i := strings.IndexFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
	if i < 0 {
		i = len(line)
	}
	if i == 0 {
		return noMark
	}
	return strconv.Quote(cut(line[:i], 8))
}

// splitSpaces splits s at runs of spaces and tabs, ignoring leading and
// trailing ones (the jq of jqSplitSpaces does the same). An opening
// parenthesis on its own is the start of the next cell: a number padded
// inside its parentheses is one cell ("( 0.00%)" of callgrind_annotate
// is "(0.00%)", as "(47.46%)" of a wider one).
func splitSpaces(s string) []string {
	out, _ := splitSpacesP(s)
	return out
}

// splitSpacesP is splitSpaces, and whether an opening parenthesis on its
// own started a cell.
func splitSpacesP(s string) (out []string, merged bool) {
	i := 0
	open := false
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		switch {
		case open:
			out[len(out)-1] = "(" + s[i:j]
			open, merged = false, true
		default:
			out = append(out, s[i:j])
			open = j == i+1 && s[i] == '('
		}
		i = j
	}
	return out, merged
}

// jqSplitSpaces is the jq of splitSpaces over a string; jqSplitPlain the
// same for a table none of whose lines has an opening parenthesis on its
// own (colSplit.parens).
const (
	jqSplitSpaces = `[gsub("^[ \t]+|[ \t]+$"; "") | gsub("(?<a>^|[ \t])\\([ \t]+"; "\(.a)(") | splits("[ \t]+")]`
	jqSplitPlain  = `[gsub("^[ \t]+|[ \t]+$"; "") | splits("[ \t]+")]`
)

// jqSplit is the jq of the split at spaces of this table's lines.
func (sp *colSplit) jqSplit() string {
	if sp.parens {
		return jqSplitSpaces
	}
	return jqSplitPlain
}

// fields splits a line as the table does: the cells of a row (minK to
// k of them), or nil when the line is not a row.
func (sp *colSplit) fields(line string) []string {
	sp.guardOut, sp.trailOut, sp.headOut = false, false, false
	if sp.lead != "" {
		if !strings.HasPrefix(line, sp.lead) {
			return nil
		}
		line = line[len(sp.lead):]
	}
	if sp.mode != bySpaces {
		f := sp.cells(line)
		lo, hi := sp.minK, sp.k
		if sp.words != nil {
			lo, hi = sp.cellMinK, sp.cellK
		}
		if len(f) < lo || len(f) > hi {
			return nil
		}
		if sp.words != nil {
			return sp.splitWords(f)
		}
		return f
	}
	if sp.spaceRules && isRule(line) {
		return nil // "--------  ------  -------" under a header, above a total
	}
	f, merged := splitSpacesP(line)
	if merged {
		sp.parens = true // its queries split the same way (jqSplit)
	}
	k := sp.spaceK()
	if len(f) < sp.spaceMinK() {
		return nil
	}
	if len(f) < k {
		f = append(f, "") // a row whose last cell is empty (minK = k-1: missingLast)
	}
	if len(f) > k {
		if sp.trailer {
			sp.trailOut = true
			return nil
		}
		f[k-1] = strings.Join(f[k-1:], " ")
		f = f[:k]
	}
	for _, i := range sp.numbers {
		if hasASCIILetter(f[i]) {
			if k, _ := repHeaderKey(splitSpaces(line)); sp.repKey != "" && k == sp.repKey {
				sp.headOut = true
			} else {
				sp.guardOut = true
			}
			return nil
		}
	}
	if sp.peel != nil {
		g, ok := sp.peel.split(f[k-1])
		if !ok {
			return nil
		}
		f = append(f[:k-1], g...)
	}
	return f
}

// guardBroken reports whether the number guard, chosen on the first
// 4,000 lines (numberGuard), left out more lines of all than it allows
// there: more than 5, and more than one in a hundred of the rows and
// those lines. Then the words are no title or summary lines but values
// of the column (a size "missing" from line 5,000 on), and the table is
// read again with no guard.
func (cp *colProfile) guardBroken() bool {
	return len(cp.split.numbers) > 0 && cp.guarded > max(5, (cp.rows+cp.guarded)/100)+repAllowance*cp.headReps
}

// repAllowance is how many lines with a word in a column of numbers the
// guard allows per repetition of a repeated header, besides its own
// max(5, n/100): the summary lines of a block above its header (top -b's
// "top - 07:31:17 up …" and "%Cpu(s): 50.0 us, …" per iteration).
const repAllowance = 3

// maxTrailer is the most non-blank lines of a summary below a table
// (trailerBelow).
const maxTrailer = 32

// trailerBelow sets sp.trailer (a table split at runs of spaces): the
// text ends with a summary of the table, after its last row and a
// blank line, of at most maxTrailer non-blank lines, one or more of
// which split into more words than the table has columns, while no row
// above it does among the first 4,000 lines. Those lines are no rows:
// rsync -i --stats' "Total file size: 7,519,553 bytes" would be a row
// of itemize code "Total" (a value of 4 rows in the index by value).
// A row above the summary with more words, found when every line is
// read, breaks the rule (colProfile.trailBroken): the text is read
// again without it.
func (sp *colSplit) trailerBelow(data, sample []byte) {
	if sp.mode != bySpaces || sp.k < 2 {
		return
	}
	tail := data[max(0, len(data)-1<<16):]
	lines := strings.Split(strings.TrimSuffix(string(tail), "\n"), "\n")
	if len(tail) < len(data) {
		lines = lines[1:] // a line cut by the window
	}
	words := func(l string) int {
		l = strings.TrimSuffix(l, "\r")
		if sp.lead != "" {
			l = strings.TrimPrefix(l, sp.lead)
		}
		f, _ := splitSpacesP(l)
		return len(f)
	}
	last, wide, block := -1, 0, 0
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSuffix(lines[i], "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		isRow := sp.fields(l) != nil
		if isRow && words(l) <= sp.k {
			last = i
			break
		}
		if block++; block > maxTrailer {
			return
		}
		if isRow {
			wide++
		}
	}
	if last < 0 || wide == 0 || last+1 >= len(lines) || strings.TrimSpace(lines[last+1]) != "" {
		return
	}
	from := countLines(data) - (len(lines) - (last + 1))
	ok := true
	firstLines(sample, func(pos int, l string) {
		if ok && pos < from && sp.fields(l) != nil && words(l) > sp.k {
			ok = false
		}
	})
	if ok {
		sp.trailer, sp.trailFrom = true, from
	}
}

// hasASCIILetter reports whether s has a letter a-z or A-Z.
func hasASCIILetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

// numberGuard sets sp.numbers (a whitespace table): the columns that
// hold a number in every row among the first 4,000 lines (20 at least)
// but in at most 5 rows (or one in a hundred), which hold a word (a
// cell with a letter) instead. Those few lines are no rows: a title or summary line above
// the table, its header when prose comes first (cProfile prints "604417
// function calls (586716 primitive calls) in 1.247 seconds", "Ordered
// by: …", then "ncalls  tottime  percall …"), a total below it. A
// number is also "N/M" (cProfile's recursive calls, "3200/3146") and one
// whose thousands are grouped by commas (callgrind_annotate's 16 lines
// of settings above 1,703 rows "47,782,899,833 (2269.5%)  ???:…").
func (sp *colSplit) numberGuard(sample []byte) {
	if sp.mode != bySpaces || sp.header != nil {
		return
	}
	nums := make([]int, sp.k)
	words := make([]int, sp.k)
	n := sp.sampleRows(sample, func(int) bool { return false }, func(f []string) {
		for i, v := range f {
			if i == sp.k-1 {
				break // the last column holds the rest of the line
			}
			switch {
			case hasASCIILetter(v):
				words[i]++
			case isNumberCell(v) || thousands(v):
				nums[i]++
			}
		}
	})
	if n < 20 {
		return
	}
	for i := 0; i < sp.k-1; i++ {
		if words[i] > 0 && words[i] <= max(5, n/100) && nums[i]+words[i] == n {
			sp.numbers = append(sp.numbers, i)
		}
	}
}

// isNumberCell reports whether v is a decimal number or two joined by
// "/" ("3200/3146").
func isNumberCell(v string) bool {
	if _, _, ok := parseDecimal(v); ok {
		return true
	}
	a, b, ok := strings.Cut(v, "/")
	if !ok {
		return false
	}
	_, _, okA := parseDecimal(a)
	_, _, okB := parseDecimal(b)
	return okA && okB
}

// headerAbove finds the header of a whitespace table that has none yet
// and whose rows are guarded (numberGuard): the last non-blank line
// before the first row, among the first 20 non-blank lines, when it
// splits into exactly k words with no digit.
func (sp *colSplit) headerAbove(sample []byte) {
	if sp.header != nil || len(sp.numbers) == 0 {
		return
	}
	prev, prevPos, seen := "", -1, 0
	textLinesWhile(sample, func(pos int, line string) bool {
		if strings.TrimSpace(line) == "" {
			return true
		}
		if seen++; seen > 20 {
			return false
		}
		if sp.fields(line) != nil {
			return false
		}
		prev, prevPos = line, pos
		return true
	})
	if prevPos < 0 || sp.lead != "" && !strings.HasPrefix(prev, sp.lead) {
		return
	}
	h := splitSpaces(prev[len(sp.lead):])
	if len(h) != sp.k || strings.IndexAny(prev, "0123456789") >= 0 {
		return
	}
	sp.header, sp.headPos = h, prevPos
}

// width is the number of fields a line has for the detection of a
// table: its runs of non-blank characters, except that a run opening a
// bracket ('(', '[' or '{') that closes later in the line ends the
// splitting: "execve("/bin/ls", ["ls"]) = 0" is one field, the call and
// its result, not five pieces of an argument list.
func width(s string) int {
	toks := splitSpaces(s)
	// after[j] is the bracket depth after token j. Token j opens when
	// after[j] > after[j-1]; the rest of the line closes it when some
	// later token ends at a depth <= after[j-1]: the least depth after
	// each token, from the end, answers that in one pass (a line of many
	// unclosed brackets is linear, not quadratic: rev16).
	after := make([]int, len(toks))
	depth := 0
	for j, t := range toks {
		for k := 0; k < len(t); k++ {
			switch t[k] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		}
		after[j] = depth
	}
	least := make([]int, len(toks)+1) // least[j]: min of after[j:]
	if len(toks) > 0 {
		least[len(toks)] = after[len(toks)-1] + 1 // (never consulted: j+1 < len)
	}
	for j := len(toks) - 1; j >= 0; j-- {
		least[j] = after[j]
		if j+1 < len(toks) && least[j+1] < least[j] {
			least[j] = least[j+1]
		}
	}
	for j := range toks {
		before := 0
		if j > 0 {
			before = after[j-1]
		}
		if after[j] > before && j+1 < len(toks) && least[j+1] <= before {
			return j + 1
		}
	}
	return len(toks)
}

// jqFields is the jq expression (over one line) that yields the line's
// cells as fields splits them (nothing for a line that is no row).
func (sp *colSplit) jqFields() string {
	if sp.mode != bySpaces {
		lo, hi := sp.minK, sp.k
		if sp.words != nil {
			lo, hi = sp.cellMinK, sp.cellK
		}
		if sp.mode == byFields {
			return sp.jqLead() + sp.jqCells() + sp.jqWords() // (cells of every key: always k)
		}
		if lo == hi {
			return fmt.Sprintf(`%s%s | select(length == %d)%s`, sp.jqLead(), sp.jqCells(), hi, sp.jqWords())
		}
		return fmt.Sprintf(`%s%s | select(length >= %d and length <= %d)%s`, sp.jqLead(), sp.jqCells(), lo, hi, sp.jqWords())
	}
	k := sp.spaceK()
	if sp.peel != nil {
		return fmt.Sprintf(`%s%s%s | %s | %s.[:%d] + (.[%d:] | join(" ") | %s)`, sp.jqLead(), sp.jqNoRule(), sp.jqSplit(), sp.jqWordCount(), sp.jqGuard(), k-1, k-1, sp.peel.jq())
	}
	return fmt.Sprintf(`%s%s%s | %s | %s.[:%d] + [.[%d:] | join(" ")]`, sp.jqLead(), sp.jqNoRule(), sp.jqSplit(), sp.jqWordCount(), sp.jqGuard(), k-1, k-1)
}

// jqWordCount is the jq test of the number of words of a line split at
// spaces that is a row: minK or more, and no more than k when the
// table has a summary below it (trailer).
func (sp *colSplit) jqWordCount() string {
	k, minK := sp.spaceK(), sp.spaceMinK()
	if sp.trailer && minK == k {
		return fmt.Sprintf(`select(length == %d)`, k)
	}
	if sp.trailer {
		return fmt.Sprintf(`select(length >= %d and length <= %d)`, minK, k)
	}
	return fmt.Sprintf(`select(length >= %d)`, minK)
}

// jqGuard is the jq that leaves out, of the cells of a line split at
// spaces, the lines with a word in a column of numbers (numberGuard),
// each test followed by " | "; "" when there is none.
func (sp *colSplit) jqGuard() string {
	guard := ""
	for _, i := range sp.numbers {
		guard += fmt.Sprintf(`select(.[%d] | test("[A-Za-z]") | not) | `, i)
	}
	return guard
}

// jqNoRule is the jq test that leaves out rule lines when they are no
// rows of a whitespace table ("" otherwise).
func (sp *colSplit) jqNoRule() string {
	if !sp.spaceRules {
		return ""
	}
	return fmt.Sprintf(`select(%s | not) | `, jqRuleTest)
}

// splitWords splits the cells of the columns in sp.words again at runs
// of spaces ("100644 3a17…e0 0" of git ls-files -s: mode, hash, stage);
// nil when one of them has another number of words.
func (sp *colSplit) splitWords(f []string) []string {
	out := make([]string, 0, sp.k)
	for i, c := range f {
		if i < len(sp.words) && sp.words[i] > 0 {
			var ws []string
			if sp.mode == byFields {
				ws = splitBlanks(c) // (a request line: no cell in parentheses)
			} else {
				var merged bool
				if ws, merged = splitSpacesP(c); merged {
					sp.parens = true
				}
			}
			if len(ws) != sp.words[i] {
				return nil
			}
			out = append(out, ws...)
			continue
		}
		out = append(out, c)
	}
	return out
}

// jqWords is the jq expression that does what splitWords does to the
// array of cells ("" when no column is split).
func (sp *colSplit) jqWords() string {
	if sp.words == nil {
		return ""
	}
	if sp.mode == byFields {
		return sp.fs.jqWords(sp.words)
	}
	var b strings.Builder
	b.WriteString(` | [. as $c | range(0; length) as $i | `)
	for i, w := range sp.words {
		if w == 0 {
			continue
		}
		fmt.Fprintf(&b, `if $i == %d then ($c[$i] | `+sp.jqSplit()+` | if length == %d then .[] else null end) el`, i, w)
	}
	b.WriteString(`se $c[$i] end] | select(all(.[]; . != null))`)
	return b.String()
}

// detectWords sets sp.words: the columns present in every row whose
// cells, in every row among the first 4,000 lines (10 at least; for
// lines of fields in 98% of them, the others then other lines), split
// at runs of spaces into the same number (2 to 6) of words. A tab table
// whose first cell is "mode hash stage" (git ls-files -s, git ls-tree)
// has those three columns, not one of 1,878 distinct values.
func (sp *colSplit) detectWords(sample []byte) {
	if sp.mode != byTab && sp.mode != byTabRuns && sp.mode != byFields {
		return
	}
	words := make([]int, sp.minK)
	for i := range words {
		words[i] = -1
	}
	// Field lines: per column, the rows by their word count (a request
	// line of an access log is 3 words but for a scanner's garbage).
	var counts []map[int]int
	if sp.mode == byFields {
		counts = make([]map[int]int, sp.fs.pos)
		for i := range counts {
			counts[i] = map[int]int{}
		}
	}
	n := sp.sampleRows(sample, func(int) bool { return false }, func(f []string) {
		for i := range words {
			var w int
			if sp.mode == byFields {
				w = len(splitBlanks(f[i])) // (as splitWords splits them)
			} else {
				w = len(splitSpaces(f[i]))
			}
			if counts != nil && i < len(counts) {
				counts[i][w]++
			}
			switch {
			case words[i] == -1:
				words[i] = w
			case words[i] != w:
				words[i] = 0
			}
		}
	})
	if n < 10 {
		return
	}
	for i, m := range counts {
		// Split when 98% of the rows have the same count: the others
		// are no rows (other lines, counted and shown) wherever they
		// are in the text.
		if w, c := modal(m); c*50 >= n*49 {
			words[i] = w
		}
	}
	extra := 0
	for i, w := range words {
		if sp.mode == byFields && (i >= sp.fs.pos || sp.fs.kinds[i] != tokQuoted) {
			words[i] = 0 // only a quoted positional field (a request line)
			continue
		}
		if w < 2 || w > 6 {
			words[i] = 0
			continue
		}
		extra += w - 1
	}
	if extra == 0 {
		return
	}
	sp.words, sp.cellK, sp.cellMinK = words, sp.k, sp.minK
	sp.k, sp.minK = sp.k+extra, sp.minK+extra
}

// jqField is the jq expression (over one line) that yields field i of a
// row as fields splits it (null when the row has fewer cells), and
// nothing for a line that is no row; the queries the view prints use it.
func (sp *colSplit) jqField(i int) string {
	if sp.mode != bySpaces || sp.peel != nil {
		return sp.jqFields() + fmt.Sprintf(` | .[%d]`, i)
	}
	s := fmt.Sprintf(`%s%s%s | %s | %s`, sp.jqLead(), sp.jqNoRule(), sp.jqSplit(), sp.jqWordCount(), sp.jqGuard())
	if i == sp.k-1 {
		// The last column holds the rest, joined by single spaces.
		return s + fmt.Sprintf(`.[%d:] | join(" ")`, i)
	}
	return s + fmt.Sprintf(`.[%d]`, i)
}

// detectColumns decides whether data (of kind) is a table, from its first
// 4,000 lines; nil when it is not. Separators (bars, tabs: text_split.go)
// are tried first, then runs of spaces, then a list of one value a line.
func detectColumns(data []byte, kind string) *colSplit {
	return detectColumnsGuard(data, kind, true, true)
}

// detectColumnsGuard is detectColumns, with the number guard of a
// whitespace table (numberGuard) or without it.
func detectColumnsGuard(data []byte, kind string, guard, trailer bool) *colSplit {
	switch kind {
	case textFields, textGoTest, textTAP:
		return nil // records of fields, test reports: their own structure
	}
	sample := data
	if len(sample) > 1<<20 {
		sample = sample[:1<<20]
	}
	if sp := detectSeparated(sample); sp != nil {
		if sp.mode != byBar {
			sp.detectWords(sample)
		}
		if sp.header == nil {
			// A first row of words above numbers, with no rule below
			// it (python -X importtime's "self [us] | cumulative |
			// imported package", sqlite3 -header -list).
			sp.firstHeader(sample)
		}
		sp.names = sp.nameColumns(sample)
		return sp
	}
	if mostlyLocated(sample) {
		return nil // diagnostics and grep -n matches: counted by file (text_locations.go), not split at spaces
	}
	if sp := detectFields(sample); sp != nil {
		// (No name columns: a line's severity is read from the whole
		// line, and the query of its error lines need not split it.)
		return sp
	}
	if sp := detectDelimited(sample); sp != nil {
		// Cells separated by commas, semicolons or colons with no
		// padding (text_split.go): a CSV, with a header row or not.
		sp.firstHeader(sample)
		sp.namesHeader(sample)
		sp.names = sp.nameColumns(sample)
		return sp
	}
	sp := detectSpaces(sample)
	if sp != nil && sp.described && kind == textLog {
		sp = nil // a log's lines are no names with descriptions (TestSeparatorWordNotALog)
	}
	if sp != nil {
		sp.missingLast(sample)
		sp.needLead(sample)
		if guard {
			sp.numberGuard(sample)
			sp.headerAbove(sample)
		}
		if trailer {
			sp.trailerBelow(data, sample)
		}
	}
	if w := detectWidth(sample); w != nil && (sp == nil || sp.header == nil && w.k == sp.k && w.lead == sp.lead && sp.countRows(sample) < w.countRows(sample)) {
		// The same columns at fixed positions keep the rows whose
		// cells are empty (a name padded to a width and no value).
		sp = w
		sp.firstHeader(sample)
	}
	if sp == nil {
		sp = detectList(sample, len(sample) == len(data))
	}
	if sp == nil || sp.described && kind == textReport {
		return nil // (a test report's lines: its own structure)
	}
	sp.detectPeel(sample)
	sp.names = sp.nameColumns(sample)
	if d := sp.spaceK() - 1; sp.described && !sp.isName(d) {
		sp.names = append(sp.names, d) // (the description, before the groups split off)
	}
	return sp
}

// detectSpaces finds a table split at runs of spaces, or nil.
func detectSpaces(sample []byte) *colSplit {
	nonBlank := 0
	bySpace, byBracket := map[int]int{}, map[int]int{}
	first, firstPos := "", -1
	lead := rowLead(sample)
	firstLines(sample, func(pos int, line string) {
		if strings.TrimSpace(line) == "" || !strings.HasPrefix(line, lead) {
			return
		}
		if firstPos < 0 {
			first, firstPos = line, pos
		}
		nonBlank++
		bySpace[len(splitSpaces(line))]++
		byBracket[width(line)]++
	})
	if nonBlank < 10 {
		return nil
	}
	if sp := ruledHeader(sample); sp != nil {
		return sp
	}
	sp := &colSplit{headPos: -1, lead: lead}
	counts := bySpace
	if mostLines(byBracket) > mostLines(bySpace) {
		// Lines that are structured (a call and its argument list)
		// agree on their fields only when a bracket that closes
		// later ends the splitting.
		counts = byBracket
	}
	best := 0
	for k, n := range counts {
		if n > counts[best] || n == counts[best] && k > best {
			best = k
		}
	}
	if hs := repeatedHeader(sample, lead, nonBlank, bySpace); hs != nil {
		return hs
	}
	// A header line names the columns even when the last column (a
	// command with its arguments) makes most rows longer.
	if h := splitSpaces(first); len(h) >= 2 && len(h) <= 4*maxColumns && strings.IndexAny(first, "0123456789") < 0 {
		ge := 0
		for k, n := range counts {
			if k >= len(h) {
				ge += n
			}
		}
		hs := &colSplit{k: len(h), minK: len(h), headPos: firstPos, lead: lead}
		if (ge-1)*4 >= (nonBlank-1)*3 && hs.numericColumn(sample, firstPos) {
			hs.header = h
			return hs
		}
	}
	if best < 2 || best > 4*maxColumns {
		return nil
	}
	sp.k, sp.minK = best, best
	if more := ge(counts, best+1); best == 2 && more*10 >= nonBlank && counts[best]*4 >= nonBlank*3 {
		// A name, a value and, in a tenth of the rows or more, more
		// words (getent services' aliases: "discard 9/tcp sink null"):
		// the value is a column of its own, the rest a third (empty in
		// the rows without).
		sp.k = 3
		sp.firstHeader(sample)
		return sp
	}
	if counts[best]*4 < nonBlank*3 {
		// A whitespace table whose last column may hold spaces (ls -l's
		// "name -> target", ps's command lines): most lines have at
		// least k fields, half exactly k, and some column is numeric.
		if counts[best]*2 < nonBlank || ge(counts, best)*4 < nonBlank*3 || !sp.numericColumn(sample, -1) {
			// The rows whose last column holds spaces may be most of
			// them (tar -tv of a package of man pages: 1,371 links
			// "path -> target" of 8 words among 906 files of 6): the
			// narrowest width that a quarter of the lines have
			// exactly and three in four at least, with a numeric
			// column, is the table's.
			for k := 2; k < best; k++ {
				if counts[k]*4 < nonBlank || ge(counts, k)*4 < nonBlank*3 {
					continue
				}
				sp.k, sp.minK = k, k
				if sp.numericColumn(sample, -1) {
					sp.firstHeader(sample)
					return sp
				}
			}
			sp.k, sp.minK = best, best
			if k := separatorWord(sample, lead); k > 0 {
				// Names, then a separator word, then free text:
				// apropos' "name (section) - description".
				sp.k, sp.minK, sp.described = k, k, true
				return sp
			}
			return nil
		}
	}
	sp.firstHeader(sample)
	return sp
}

// repHeaderKey is the key of a line's cells (split at runs of spaces) as a
// header repeated above blocks of rows: the cells joined, a time of day
// or a date (the block's time: mpstat's "07:30:07 CPU %usr …") and a
// leading "#" (pidstat's "# Time UID PID …") masked; ok when at least
// three cells are left and each holds an ASCII letter and is no label
// ending with a colon (names: "%usr", "rxpck/s", "r", "TIME+"; not
// "cpu: Intel(R) Xeon(R)" above each package's benchmarks), so a row of
// numbers has no key.
func repHeaderKey(cells []string) (key string, ok bool) {
	var b strings.Builder
	names := 0
	for i, c := range cells {
		switch {
		case i == 0 && c == "#":
			b.WriteString("#\x00")
		case clockRe.MatchString(c) || isDateCell(c):
			b.WriteString("\x01\x00")
		case hasASCIILetter(c) && !strings.HasSuffix(c, ":"):
			names++
			b.WriteString(c)
			b.WriteByte(0)
		default:
			return "", false
		}
	}
	return b.String(), names >= 3
}

// isDateCell reports whether c is a date: 2026-11-27, 11/27/26.
func isDateCell(c string) bool {
	digits, seps := 0, 0
	for i := 0; i < len(c); i++ {
		switch {
		case isDigitByte(c[i]):
			digits++
		case c[i] == '-' || c[i] == '/':
			seps++
		default:
			return false
		}
	}
	return seps == 2 && digits >= 4
}

// maxRepGuard is the most columns that guard a table with a repeated
// header (repeatedHeader): a few tell its repetitions apart, and each is
// a test in every query of the rows.
const maxRepGuard = 3

// repeatedHeader finds a whitespace table whose header line repeats above
// each block of rows (sar -n DEV and mpstat -P ALL every interval, with
// the interval's time in its first cell; pidstat's "# Time UID PID …";
// vmstat's two header lines every 21 rows; top -b's per iteration): a
// line of names (repHeaderKey) that recurs, with its masked cells, 3 times
// or more among the first 4,000 lines (the widest such line: vmstat's
// "r b swpd …", not the groups "--procs-- ---memory---" above it), each
// time (nine in ten) right above a line that is no such line. Its
// cells name the columns (a masked time is no name: "column 1"; the
// "#" is dropped), 75% of the other non-blank lines have at least as
// many words (the last column holds the rest: pidstat's command lines),
// and the columns that hold a number in the rows hold a name in it: the
// guard (numberGuard) that leaves its repetitions out of the rows, in
// the view and in its queries, with max(5, n/100) other lines and
// repAllowance per repetition (a block's summary lines: top -b's). nil
// when there is none.
func repeatedHeader(sample []byte, lead string, nonBlank int, counts map[int]int) *colSplit {
	type cand struct {
		cells    []string
		pos      int
		n, above int // its lines, and those right above a row
	}
	seen := map[string]*cand{}
	var last *cand // the candidate on the line before, if any
	firstLines(sample, func(pos int, line string) {
		prev := last
		last = nil
		if strings.TrimSpace(line) == "" || !strings.HasPrefix(line, lead) {
			return
		}
		cells := splitSpaces(line[len(lead):])
		key, ok := repHeaderKey(cells)
		if !ok {
			if prev != nil && len(cells) >= len(prev.cells)-1 {
				prev.above++ // a row right below it
			}
			return
		}
		if c := seen[key]; c != nil {
			c.n++
			last = c
		} else if len(seen) < 64 {
			seen[key] = &cand{cells: cells, pos: pos, n: 1}
			last = seen[key]
		}
	})
	var best *cand
	var bestKey string
	for k, c := range seen {
		if c.n < 3 || c.above*10 < c.n*9 {
			continue // a header stands right above rows
		}
		if best == nil || len(c.cells) > len(best.cells) || len(c.cells) == len(best.cells) && (c.n > best.n || c.n == best.n && c.pos < best.pos) {
			best, bestKey = c, k
		}
	}
	if best == nil {
		return nil
	}
	h := make([]string, 0, len(best.cells))
	for i, c := range best.cells {
		switch {
		case i == 0 && c == "#":
			continue
		case clockRe.MatchString(c) || isDateCell(c):
			h = append(h, "")
		default:
			h = append(h, c)
		}
	}
	k := len(h)
	if k < 2 || k > 4*maxColumns || (ge(counts, k)-best.n)*4 < (nonBlank-best.n)*3 {
		return nil
	}
	sp := &colSplit{k: k, minK: k, header: h, headPos: best.pos, lead: lead, repKey: bestKey, headStart: strings.Join(best.cells[:2], " ")}
	// The guard: columns (not the last) with a name in the header and a
	// number in every row. A line with a word in two or more of the
	// columns that hold numbers in nine rows in ten is no row (top -b's
	// "top - 07:31:17 up 15:05, …" per iteration), a line with a word in
	// one of them is (mpstat's "all" in the column of CPU numbers), so
	// that column is no guard. The columns that leave out the most of
	// those lines come first.
	type line struct{ words []bool }
	var lines []line
	nums := make([]int, k)
	reps := 0
	firstLines(sample, func(pos int, l string) {
		f := sp.fields(l)
		if f == nil {
			return
		}
		if key, _ := repHeaderKey(splitSpaces(l[len(lead):])); key == bestKey {
			reps++
			return
		}
		w := make([]bool, k-1)
		for i, v := range f[:k-1] {
			switch {
			case hasASCIILetter(v):
				w[i] = true
			case isNumberCell(v) || thousands(v):
				nums[i]++
			}
		}
		lines = append(lines, line{w})
	})
	n := len(lines)
	if n < 10 || reps < 2 {
		return nil
	}
	junk := make([]bool, n)
	out := 0
	for li, l := range lines {
		c := 0
		for i, w := range l.words {
			if w && nums[i]*10 >= n*9 {
				c++
			}
		}
		if c >= 2 {
			junk[li] = true
			out++
		}
	}
	if out > max(5, n/100)+repAllowance*reps {
		return nil
	}
	caught := make([]int, k-1)
	var cands []int
	for i := 0; i < k-1; i++ {
		if nums[i] == 0 || !hasASCIILetter(h[i]) {
			continue
		}
		ok := true
		for li, l := range lines {
			if l.words[i] {
				if !junk[li] {
					ok = false
					break
				}
				caught[i]++
			}
		}
		if ok {
			cands = append(cands, i)
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return caught[cands[a]] > caught[cands[b]] })
	if len(cands) > maxRepGuard {
		cands = cands[:maxRepGuard]
	}
	if len(cands) == 0 {
		return nil
	}
	// The column of the blocks' times (a masked cell of the header):
	// a row with a word there instead (sar's and mpstat's "Average:"
	// block at the end) is a summary of the rows, no row.
	if t := slices.Index(h, ""); t >= 0 && t < k-1 {
		times, words := 0, 0
		firstLines(sample, func(pos int, l string) {
			if f := sp.fields(l); f != nil {
				switch c := f[t]; {
				case clockRe.MatchString(c) || isDateCell(c):
					times++
				case hasASCIILetter(c):
					words++
				}
			}
		})
		if words > 0 && times+words == n+reps && 4*times >= 3*(n+reps) && out+words <= max(5, n/100)+repAllowance*reps {
			cands = append(cands, t)
		}
	}
	sort.Ints(cands)
	sp.numbers = cands
	return sp
}

// rowLead is the indentation that sets a table's rows apart from the
// lines around them: "\t" of ldconfig -p's 605 rows below the line
// "605 libs found in cache …" and above "Cache generated by: …". It is
// the most frequent indentation of the non-blank lines among the first
// 4,000, shortened until 90% of them start with it, when it is not empty
// and every line without it comes before the first line with it or after
// the last (a title, a header sentence, a footer; not a row in the middle
// whose wider number eats the indentation), the one right above the
// first row not words without a digit (the header of right-aligned
// columns: "  PID USER" above "      1 root"). "" when there is none.
func rowLead(sample []byte) string {
	indents := map[string]int{}
	nonBlank := 0
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		nonBlank++
		indents[line[:len(line)-len(strings.TrimLeft(line, " \t"))]]++
	})
	lead, n := "", 0
	for in, c := range indents {
		if c > n || c == n && in < lead {
			lead, n = in, c
		}
	}
	for lead != "" {
		with := 0
		for in, c := range indents {
			if strings.HasPrefix(in, lead) {
				with += c
			}
		}
		if with*10 >= nonBlank*9 {
			break
		}
		lead = lead[:len(lead)-1]
	}
	if lead == "" || indents[""] == nonBlank {
		return ""
	}
	// The lines without it: only before the first and after the last
	// line with it, and at least one of them.
	firstWith, lastWith, without := -1, -1, 0
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		if strings.HasPrefix(line, lead) {
			if firstWith < 0 {
				firstWith = pos
			}
			lastWith = pos
		}
	})
	inside := false
	above := "" // the non-blank line right above the first line with it
	firstRow := ""
	firstLines(sample, func(pos int, line string) {
		if pos == firstWith {
			firstRow = line
		}
		if trimBlank(line) == "" || strings.HasPrefix(line, lead) {
			return
		}
		without++
		if pos > firstWith && pos < lastWith {
			inside = true
		}
		if pos < firstWith {
			above = line
		}
	})
	if len(splitSpaces(above)) >= 2 && strings.IndexAny(above, "0123456789") < 0 {
		return "" // a header less indented than the rows ("  PID USER" above "      1 root")
	}
	if a, r := splitSpaces(above), splitSpaces(firstRow); len(a) >= 2 && len(a) == len(r) && groupedNumber(a[0]) && groupedNumber(r[0]) {
		// The rows above are rows too, their wider number eating
		// the indentation: a right-aligned first column sorted
		// largest first (callgrind_annotate's "47,782,899,833
		// (2269.5%)  file:function" above "   951,529,144 (45.19%)").
		return ""
	}
	if without == 0 || inside {
		return ""
	}
	return lead
}

// thousands reports whether v is a whole number whose thousands are
// grouped by commas: "1,005,351,759", "-12,345" (not "1,5" nor "12,3456").
func thousands(v string) bool {
	v = strings.TrimPrefix(v, "-")
	i := strings.IndexByte(v, ',')
	if i < 1 || i > 3 {
		return false
	}
	for j := 0; j < i; j++ {
		if !isDigitByte(v[j]) {
			return false
		}
	}
	for rest := v[i:]; rest != ""; rest = rest[4:] {
		if len(rest) < 4 || rest[0] != ',' || !isDigitByte(rest[1]) || !isDigitByte(rest[2]) || !isDigitByte(rest[3]) {
			return false
		}
	}
	return true
}

// groupedNumber reports whether v is a number, its thousands perhaps
// grouped by commas ("1,005,351,759", "12.5").
func groupedNumber(v string) bool {
	return v != "" && isDigitByte(v[0]) && strings.Trim(v, "0123456789,.") == ""
}

// needLead drops the lead of a whitespace table when no line without it
// would be a row anyway (readelf's title has fewer words than the
// columns): the queries the view prints stay shorter.
func (sp *colSplit) needLead(sample []byte) {
	if sp.mode != bySpaces || sp.lead == "" {
		return
	}
	need := false
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" || strings.HasPrefix(line, sp.lead) || need {
			return
		}
		if len(splitSpaces(line)) >= sp.minK && !(sp.spaceRules && isRule(line)) {
			need = true
		}
	})
	if !need {
		sp.lead = ""
	}
}

// countRows is the number of rows among the first 4,000 lines of
// sample.
func (sp *colSplit) countRows(sample []byte) int {
	return sp.sampleRows(sample, func(int) bool { return false }, func([]string) {})
}

// missingLast lets the rows of a whitespace table with a header have an
// empty last cell (minK = k-1): row 0 of readelf -Ws, "0: 0000000000000000
// 0 NOTYPE LOCAL DEFAULT UND" under "Num: Value Size Type Bind Vis Ndx
// Name". It does when, among the first 4,000 lines after the header, the
// lines of k-1 words are at most a tenth of the rows and each has a
// number in every column that is numeric in every row of k words, at
// least one of them.
func (sp *colSplit) missingLast(sample []byte) {
	if sp.mode != bySpaces || sp.header == nil || sp.k < 3 || sp.minK != sp.k {
		return
	}
	numeric := make([]int, sp.k-1)
	rows := sp.sampleRows(sample, func(pos int) bool { return pos <= sp.headPos }, func(f []string) {
		for i := range numeric {
			if _, _, ok := parseDecimal(f[i]); ok {
				numeric[i]++
			}
		}
	})
	var numCols []int
	for i, n := range numeric {
		if rows > 0 && n == rows {
			numCols = append(numCols, i)
		}
	}
	if len(numCols) == 0 {
		return
	}
	short, fit := 0, true
	firstLines(sample, func(pos int, line string) {
		if pos <= sp.headPos || sp.lead != "" && !strings.HasPrefix(line, sp.lead) {
			return
		}
		f := splitSpaces(line)
		if len(f) != sp.k-1 {
			return
		}
		short++
		for _, i := range numCols {
			if _, _, ok := parseDecimal(f[i]); !ok {
				fit = false
			}
		}
	})
	if short > 0 && fit && 10*short <= rows {
		sp.minK = sp.k - 1
	}
}

// wordsOnly reports whether every word has a letter or no digit (a
// header's names: "CRC-32" and dpkg -l's "||/" are, "2024" is not).
func wordsOnly(ws []string) bool {
	for _, w := range ws {
		if !hasLetter(w) && strings.IndexAny(w, "0123456789") >= 0 {
			return false
		}
	}
	return true
}

// ruledHeader finds a whitespace table whose header line is followed by
// a rule line ("||/ Name Version Architecture Description" above
// "+++-====-====" of dpkg -l), among the first 30 non-blank lines: the
// header's words name the columns (no digit in them), and 75% of the
// non-blank lines after the rule have at least as many words (the last
// column holds the rest). nil when there is none.
func ruledHeader(sample []byte) *colSplit {
	prev, prevPos, seen := "", -1, 0
	var sp *colSplit
	rows, after := 0, 0
	firstLines(sample, func(pos int, line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		if sp == nil {
			seen++
			if seen > 30 {
				return
			}
			if isRule(line) && prevPos >= 0 {
				if h := splitSpaces(prev); len(h) >= 2 && len(h) <= 4*maxColumns && wordsOnly(h) {
					sp = &colSplit{k: len(h), minK: len(h), header: h, headPos: prevPos, spaceRules: true}
				}
			}
			prev, prevPos = line, pos
			return
		}
		after++
		if len(splitSpaces(line)) >= sp.k {
			rows++
		}
	})
	if sp == nil || after < 10 || rows*4 < after*3 {
		return nil
	}
	return sp
}

// firstHeader takes the first row (among the first 20 non-blank lines)
// as the header when it has k cells (for runs of spaces: exactly k words), none with a digit
// or empty, and some column is numeric in the rows below it.
func (sp *colSplit) firstHeader(sample []byte) {
	// (A title such as readelf's "Symbol table '.dynsym' contains …" may
	// come before the header.)
	first, firstPos := sp.firstRow(sample)
	hf := sp.fields(first)
	if hf == nil || len(hf) != sp.k || sp.mode == bySpaces && len(splitSpaces(first)) != sp.k {
		return
	}
	for _, f := range hf {
		if strings.IndexAny(f, "0123456789") >= 0 || f == "" {
			return
		}
	}
	if sp.numericColumn(sample, firstPos) {
		sp.header = hf
		sp.headPos = firstPos
	}
}

// firstRow returns the first line of sample that is a row and its
// position, among the first 20 non-blank lines ("", -1: none).
func (sp *colSplit) firstRow(sample []byte) (string, int) {
	first, firstPos, seen := "", -1, 0
	textLinesWhile(sample, func(pos int, line string) bool {
		if strings.TrimSpace(line) == "" {
			return true
		}
		if seen++; seen > 20 {
			return false
		}
		if sp.fields(line) != nil {
			first, firstPos = line, pos
			return false
		}
		return true
	})
	return first, firstPos
}

// namesHeader takes the first row of a delimited table (a CSV) as its
// header when firstHeader did not (no column of numbers below it: psql
// --csv of pg_settings, a table of names and words): its cells are
// names (headerCells: distinct, a letter first, no spaces), there are
// two columns of few values or more (at most 20 distinct, and at most
// one per two rows, in 20 rows or more), and in every one of them its
// cell is a value no other row holds ("context" over user, sighup,
// postmaster, ...: 136, 92, 55 rows). A first data row holds the
// common values of some such column ("prod", "running"), not values
// of its own in all of them.
func (sp *colSplit) namesHeader(sample []byte) {
	if sp.header != nil || sp.mode != byBar {
		return
	}
	line, firstPos := sp.firstRow(sample)
	first := sp.fields(line)
	if len(first) != sp.k || !headerCells(first) {
		return
	}
	values := make([]map[string]int, sp.k)
	for i := range values {
		values[i] = map[string]int{}
	}
	rows := sp.sampleRows(sample, func(pos int) bool { return pos <= firstPos }, func(f []string) {
		for i, v := range f {
			if i < sp.k && len(values[i]) <= 20 {
				values[i][v]++
			}
		}
	})
	if rows < 20 {
		return
	}
	few := 0
	for i, m := range values {
		if len(m) > 20 || 2*len(m) > rows {
			continue
		}
		if m[first[i]] > 0 {
			return // a value other rows hold: a row like them
		}
		few++
	}
	if few >= 2 {
		sp.header, sp.headPos = first, firstPos
	}
}

// nameColumns finds the columns that name things, from the rows among
// the first 4,000 lines: columns whose values are short (at most 3
// words in 90% of the rows: a file name, "name -> target", a symbol, a
// command) and mostly their own (distinct in at least half of the rows),
// not numbers. A level column (ERROR, Warning, Failed) has few distinct
// values; a message column has more words: neither is a name column.
func (sp *colSplit) nameColumns(sample []byte) []int {
	short := make([]int, sp.k)
	numeric := make([]int, sp.k)
	distinct := make([]map[string]struct{}, sp.k)
	for i := range distinct {
		distinct[i] = map[string]struct{}{}
	}
	n := sp.sampleRows(sample, func(pos int) bool { return pos == sp.headPos }, func(f []string) {
		for i, v := range f {
			if strings.Count(strings.TrimSpace(v), " ") < 3 {
				short[i]++
			}
			if _, _, ok := parseDecimal(v); ok {
				numeric[i]++
			}
			distinct[i][v] = struct{}{}
		}
	})
	if n < 2 {
		return nil
	}
	var out []int
	for i := 0; i < sp.k; i++ {
		if short[i]*10 >= n*9 && numeric[i]*10 < n*9 && len(distinct[i])*2 >= n {
			out = append(out, i)
		}
	}
	return out
}

// severityText is what of a line is tested for a severity word (see
// lineSeverity): of a row, its columns other than the name columns,
// joined by one space; any other line whole. A line that starts with an
// exception's name and a colon ("ModuleNotFoundError: No module named
// x", "java.lang.IllegalStateException: ...": the last line of a
// traceback) is whole too: that name is the line's level, not a name of
// the table's.
func (sp *colSplit) severityText(line string) string {
	if len(sp.names) == 0 || exceptionLineRe.MatchString(line) {
		return line
	}
	f := sp.fields(line)
	if f == nil {
		return line
	}
	kept := make([]string, 0, len(f))
	for i, v := range f {
		if !sp.isName(i) {
			kept = append(kept, v)
		}
	}
	return strings.Join(kept, " ")
}

func (sp *colSplit) isName(i int) bool {
	for _, j := range sp.names {
		if j == i {
			return true
		}
	}
	return false
}

// jqSeverityText is the jq expression (over one line) that yields
// severityText's text, for the query of error and warning lines.
func (sp *colSplit) jqSeverityText() string {
	if len(sp.names) == 0 {
		return "."
	}
	var kept []string
	for i := 0; i < sp.k; i++ {
		if !sp.isName(i) {
			kept = append(kept, fmt.Sprintf(`$f[%d]`, i))
		}
	}
	return fmt.Sprintf(`(. as $l | ([$l | %s] | .[0]) as $f | if $f == null or ($l | test(%s)) then $l else [%s] | map(select(. != null)) | join(" ") end)`, sp.jqFields(), jqString(exceptionLinePattern), strings.Join(kept, ", "))
}

// exceptionLinePattern matches a line that starts with an exception's
// name and a colon: the last line of a Python or Java traceback.
const exceptionLinePattern = `^\s*(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception):(?:\s|$)`

var exceptionLineRe = regexp.MustCompile(exceptionLinePattern)

// nameColumnsText names the name columns: "column 4", "columns 1, 4",
// "column NAME".
func (sp *colSplit) nameColumnsText() string {
	var parts []string
	for _, i := range sp.names {
		if sp.header != nil && sp.header[i] != "" {
			parts = append(parts, strconv.Quote(sp.header[i]))
		} else {
			parts = append(parts, strconv.Itoa(i+1))
		}
	}
	s := "columns " + strings.Join(parts, ", ")
	if len(parts) == 1 {
		s = "column " + parts[0]
	}
	if sp.described {
		s += " (names and the description after the separator"
	} else {
		s += " (names"
	}
	return s
}

// separators are the words separatorWord takes for a separator (not
// ">", which joins the parts of a name: "suite > test").
var separators = map[string]bool{"-": true, "--": true, "—": true, "->": true, "=>": true, "=": true, ":": true}

// separatorWord finds the lines that are a few words, a separator word
// and free text: "epoll_wait (2)        - wait for an I/O event" of
// apropos and whatis, "name -> target", "key = value with spaces". It is
// the number of columns (the separator's position plus 2: the words
// before it, the separator, the text after it as the last column) when,
// among the first 4,000 lines with the lead (10 at least), 90% have the
// same separator word ("-", "--", "=", "->", "=>", ":") at the same
// position, 1 to 4, with a word after
// it; 0 otherwise.
func separatorWord(sample []byte, lead string) int {
	type at struct {
		pos  int
		word string
	}
	seen := map[at]int{}
	n, leveled := 0, 0
	firstLines(sample, func(pos int, line string) {
		if strings.TrimSpace(line) == "" || !strings.HasPrefix(line, lead) {
			return
		}
		n++
		f := splitSpaces(line[len(lead):])
		for j := 1; j <= 4 && j+1 < len(f); j++ {
			if w := f[j]; separators[w] {
				seen[at{j, w}]++
				break
			}
		}
		for j := 0; j < len(f) && j < 8; j++ {
			if logLevels[strings.Trim(f[j], "[]():")] {
				leveled++
				break
			}
		}
	})
	if leveled*2 >= n {
		// A log's lines with a level in capitals among their first
		// words (Python logging's "time - name - ERROR - message",
		// "worker-1 = ERROR message"): their levels are counted as a
		// log's, not read as a description (TestSeparatorWordNotALog).
		return 0
	}
	for a, c := range seen {
		if n >= 10 && c*10 >= n*9 {
			return a.pos + 2
		}
	}
	return 0
}

// logLevels are the levels a log writes in capitals.
var logLevels = map[string]bool{"TRACE": true, "DEBUG": true, "INFO": true, "NOTICE": true, "WARN": true, "WARNING": true,
	"ERROR": true, "ERR": true, "CRITICAL": true, "CRIT": true, "FATAL": true, "ALERT": true, "EMERG": true, "PANIC": true}

// ge is the number of lines of at least k fields, of counts (lines by
// their number of fields).
func ge(counts map[int]int, k int) int {
	n := 0
	for w, c := range counts {
		if w >= k {
			n += c
		}
	}
	return n
}

// mostLines is the count of the most frequent width.
func mostLines(m map[int]int) int {
	most := 0
	for _, n := range m {
		most = max(most, n)
	}
	return most
}

// numericColumn reports whether some column is a number in at least 90%
// of the rows among the first 4,000 lines after line skip.
func (sp *colSplit) numericColumn(sample []byte, skip int) bool {
	numeric := make([]int, sp.k)
	n := sp.sampleRows(sample, func(pos int) bool { return pos <= skip }, func(f []string) {
		for i, v := range f {
			if _, _, ok := parseDecimal(v); ok {
				numeric[i]++
			}
		}
	})
	for _, c := range numeric {
		if n > 0 && c*10 >= n*9 {
			return true
		}
	}
	return false
}

// sampleRows calls fn with the cells of each row among the first 4,000
// lines of sample, but the lines at the positions skip names, and
// returns how many rows it read.
func (sp *colSplit) sampleRows(sample []byte, skip func(pos int) bool, fn func(cells []string)) int {
	n := 0
	firstLines(sample, func(pos int, line string) {
		if skip(pos) {
			return
		}
		if f := sp.fields(line); f != nil {
			n++
			fn(f)
		}
	})
	return n
}

// parseDecimal parses a plain decimal number (an optional sign, digits,
// an optional fraction): 12, -20, 0.5. Not 1e5, 0x10, NaN or 1,000.
func parseDecimal(s string) (i int64, f float64, ok bool) {
	if s == "" || len(s) > 30 {
		return 0, 0, false
	}
	j := 0
	if s[0] == '-' || s[0] == '+' {
		j++
	}
	digits, dot := 0, false
	for ; j < len(s); j++ {
		switch c := s[j]; {
		case isDigitByte(c):
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return 0, 0, false
		}
	}
	if digits == 0 || s[len(s)-1] == '.' {
		return 0, 0, false
	}
	if !dot {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return v, float64(v), true
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, 0, false
	}
	return 0, v, true
}

func newColProfile(sp *colSplit) *colProfile {
	cp := &colProfile{split: *sp}
	for i := 0; i < min(sp.k, maxColumns); i++ {
		name := fmt.Sprintf("column %d", i+1)
		if sp.header != nil && sp.header[i] != "" {
			name = sp.header[i]
		}
		cp.cols = append(cp.cols, &colStat{name: name, values: map[string]int{}, distinct: map[uint64]struct{}{},
			examples: map[string][]posLine{}, names: map[string]int{}, after: map[string]int{}, words: map[string]int{}, paths: newPathStat(),
			few: sp.mode == byFields, series: sp.repKey != ""})
	}
	return cp
}

// nameUnits names each column of numbers of a table without a header
// line by the unit every row writes right after it: "column 8 (bytes)",
// "column 10 (allocs)" of GODEBUG=inittrace's "init PKG @52 ms, 0.11
// ms clock, 9008 bytes, 19 allocs", "column 3 (ns/op)" of go test
// -bench. The profile line, the rows chosen by it and the index then
// say what the numbers count (how many inits made 0 allocations:
// "column 10 (allocs): ... min 0 (80 rows)"). A word is a unit when it
// is one of a list of units, a rate ("ns/op", "MB/s") or a word before
// a comma, one of a list of quantities ("9008 bytes, 19 allocs"); not
// any word: ls -l's owner "root" after the link count is none.
func (cp *colProfile) nameUnits() {
	if cp.split.header != nil {
		return
	}
	for i := 0; i+1 < len(cp.cols); i++ {
		c, u := cp.cols[i], cp.cols[i+1]
		if c.rows < 3 || !c.isNumber() || u.overflow || len(u.values) != 1 || u.rows != c.rows {
			continue
		}
		for v := range u.values {
			if w, ok := unitOf(v); ok {
				c.name = fmt.Sprintf("%s (%s)", c.name, w)
			}
		}
	}
}

// units are words that name a unit after a number.
var units = map[string]bool{
	"ms": true, "s": true, "us": true, "µs": true, "ns": true, "sec": true, "secs": true, "seconds": true,
	"B": true, "KB": true, "kB": true, "KiB": true, "MB": true, "MiB": true, "GB": true, "GiB": true,
	"bytes": true, "blocks": true, "pages": true, "lines": true, "files": true, "allocs": true,
	"calls": true, "ops": true, "requests": true, "errors": true, "records": true, "rows": true,
	"entries": true, "items": true, "objects": true, "packets": true, "events": true, "cycles": true,
	"instructions": true,
}

// unitOf is the unit the cell v writes after a number, and whether it
// is one (see nameUnits).
func unitOf(v string) (string, bool) {
	w := strings.TrimRight(v, ",;")
	listed := len(w) < len(v)
	if w == "" || len(w) > 16 {
		return "", false
	}
	letters := 0
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters++
		case r == '/':
		default:
			return "", false
		}
	}
	if letters == 0 {
		return "", false
	}
	return w, listed || units[w] || strings.Contains(w, "/")
}

// add profiles one non-blank line.
func (cp *colProfile) add(pos int, line string) {
	if pos == cp.split.headPos {
		return
	}
	f := cp.split.fields(line)
	if f == nil {
		if cp.split.guardOut {
			cp.guarded++
		}
		if cp.split.headOut {
			// A repetition of the header: counted, never listed
			// nor counted by its start among the other lines.
			cp.headReps++
			cp.other++
			cp.afterOther = true
			return
		}
		if cp.split.trailOut && pos < cp.split.trailFrom {
			cp.trailBroken = true // a row above the summary with more words
		}
		cp.other++
		cp.afterOther = true
		if len(cp.others) < maxOthers {
			cp.others = append(cp.others, posLine{pos, line})
		}
		if cp.otherStarts == nil && cp.other == 1 {
			cp.otherStarts = map[string]int{}
		}
		if m := cp.otherStarts; m != nil {
			if k := otherStart(line); m[k] > 0 || len(m) < maxValues {
				m[k]++
			} else {
				cp.otherStarts = nil
			}
		}
		return
	}
	cp.rows++
	cp.noteRun(pos, cp.rows == 1 || cp.afterOther)
	cp.afterOther = false
	if (cp.rows-1)%indexChunk == 0 {
		cp.starts = append(cp.starts, pos)
	}
	for i, c := range cp.cols {
		if i < len(f) && !cp.split.absentAt(i) {
			c.add(pos, line, f[i], cp.rows)
		}
	}
	if cp.rows == 1 {
		cp.first = posLine{pos, line}
	}
	if cp.split.mode == byFields {
		cp.keepLast(pos, line, f) // text_fields.go
		cp.countOtherKeys()
	}
	for _, c := range cp.cols {
		if c.numeric != cp.rows || len(f) < len(cp.cols) {
			c.groupSums, c.groupRanges = nil, nil // not a numeric column in every row: no sums, no ranges
			continue
		}
		if c.groupSums == nil && cp.rows == 1 {
			c.groupSums = make([]map[string]float64, len(cp.cols))
			for j := range c.groupSums {
				c.groupSums[j] = map[string]float64{}
			}
			if cp.split.repKey != "" {
				c.groupRanges = make([]map[string]*groupRange, len(cp.cols))
				for j := range c.groupRanges {
					c.groupRanges[j] = map[string]*groupRange{}
				}
			}
		}
		if c.groupSums == nil {
			c.groupRanges = nil
			continue
		}
		raw := f[indexOf(cp.cols, c)]
		_, x, _ := parseDecimal(raw)
		for j, g := range c.groupSums {
			if g == nil {
				continue
			}
			if _, ok := g[f[j]]; !ok && len(g) >= maxGroupValues {
				c.groupSums[j] = nil
				if c.groupRanges != nil {
					c.groupRanges[j] = nil
				}
				continue
			}
			g[f[j]] += x
			if c.groupRanges != nil {
				c.groupRanges[j][f[j]] = c.groupRanges[j][f[j]].note(x, raw, f[0])
			}
		}
	}
}

func indexOf(cols []*colStat, c *colStat) int {
	for i, x := range cols {
		if x == c {
			return i
		}
	}
	return -1
}

// groupColumn is the column the numeric columns are summed by: the first
// column that is not numeric and has 2 to maxGroupValues values; -1 when
// none.
func (cp *colProfile) groupColumn() int {
	for j, g := range cp.cols {
		if g.isNumber() || g.overflow || len(g.values) < 2 || len(g.values) > maxGroupValues {
			continue
		}
		return j
	}
	return -1
}

// formatSum prints a column's sum (or a group's) exactly as its values
// were written: an integer, or with the values' most fraction digits.
func (c *colStat) formatSum(f float64, i int64) string { return c.num.format(f, i) }

func (c *colStat) add(pos int, line, v string, row int) {
	if !c.capped {
		if len(c.distinct) < maxColDistinct {
			c.distinct[hashString(v)] = struct{}{}
		} else if _, ok := c.distinct[hashString(v)]; !ok {
			c.capped = true
		}
	}
	if !c.overflow {
		if !countUpTo(c.values, v, maxColValues) {
			c.overflow, c.values = true, nil
		}
	}
	if c.examples != nil {
		ex, ok := c.examples[v]
		if !ok && len(c.examples) >= maxExampleVals {
			c.examples = nil
		} else if len(ex) < maxColExamples || len(ex) < maxHeldRows && c.values != nil && len(ex) == c.values[v]-1 {
			c.examples[v] = append(ex, posLine{pos, line})
		} else if len(ex) == maxHeldRows {
			// More rows than kept: the first ones only (which tells
			// that the value's rows are not all held: heldRows).
			c.examples[v] = slices.Clone(ex[:maxColExamples])
		}
	}
	c.addName(v)
	c.addWord(v)
	c.rows++
	if c.paths != nil {
		c.paths.add(posLine{pos, line}, v)
		if c.rows >= 100 && 2*c.paths.rows < c.rows {
			c.paths = nil // not a column of paths
		}
	}
	c.sumLen += len(v)
	if hasLetter(v) {
		c.lettered++
	}
	if v == "" {
		c.empty++
		return
	}
	num, unit := splitUnit(v)
	iv, fv, ok := parseDecimal(num)
	if !ok {
		// "N/M" (cProfile's calls "3200/3146": all, then primitive) is
		// read as its first number, and said so.
		a, _, cut := strings.Cut(v, "/")
		switch {
		case cut && isNumberCell(v):
			if iv, fv, ok = parseDecimal(a); !ok {
				return
			}
			num, unit = a, ""
			c.slashed++
		case thousands(num):
			// "47,782,899,833" (callgrind_annotate, valgrind): its
			// thousands grouped by commas, read without them.
			if iv, fv, ok = parseDecimal(strings.ReplaceAll(num, ",", "")); !ok {
				return
			}
		default:
			return
		}
	}
	switch fam := unitFamily(unit); {
	case unit == "" && fv == 0 && c.unit != "":
		// a bare 0 beside 0.01s (pprof's flat) is zero in any unit
	case c.numeric == 0 || c.unit == "" && c.numeric == c.zeros && fv != 0:
		c.unit = unit // the first number, or the first after bare 0s
	case fam != unitFamily(c.unit) || fam == "" && unit != c.unit:
		c.mixed = true
	case unit != c.unit:
		c.units = true // 1.20s beside 10ms: comparable, not summed
	}
	if unit == "" && fv == 0 {
		c.zeros++
	}
	scaled := fv * unitScale(unit)
	c.numeric++
	if fv < 0 {
		c.negative = true
	}
	if d := len(strings.TrimLeft(num, "+-")); c.numeric == 1 {
		c.digits = d
	} else if d != c.digits || strings.IndexByte(num, '.') >= 0 {
		c.digits = -1
	}
	// (compared in the unit of its family: seconds, bytes)
	lo, hi := c.num.add(num, iv, fv, scaled, v)
	c.noteTop(scaled, v, posLine{pos, line})
	switch {
	case lo == newExtreme:
		c.minRows = append(c.minRows[:0], posLine{pos, line})
	case lo == atExtreme && len(c.minRows) < maxExtremeRows:
		c.minRows = append(c.minRows, posLine{pos, line})
	}
	switch {
	case hi == newExtreme:
		c.maxRows = append(c.maxRows[:0], posLine{pos, line})
	case hi == atExtreme && len(c.maxRows) < maxExtremeRows:
		c.maxRows = append(c.maxRows, posLine{pos, line})
	}
}

// isNumber reports whether the column is one of numbers: every value
// that is not empty is a number (all with the unit or none), at least 2
// of them, in at least half of the rows that have the column.
func (c *colStat) isNumber() bool {
	return c.numeric >= 2 && !c.mixed && c.numeric == c.rows-c.empty && 2*c.numeric >= c.rows
}

// idLike reports whether a numeric column holds identifiers rather than
// quantities (process ids, ports of one width): integers, none negative,
// either all written with the same number of digits, at least 3, or
// under a header that names an id (PID, TID, UID, id). Their sum means
// nothing. In a table that repeats its header (a series of blocks:
// vmstat's, pidstat's) a column is a measure of each moment, its
// values of one width too (vmstat's interrupts "in" and context
// switches "cs", four digits each), unless its header names an id of
// something (PID, UID, TID: three letters or more; vmstat's "id" is the
// idle percentage) (rev17 R11).
func (c *colStat) idLike() bool {
	if c.series {
		return c.num.allInt() && !c.negative && len(c.name) >= 3 && strings.HasSuffix(strings.ToUpper(c.name), "ID")
	}
	return c.num.allInt() && !c.negative && (c.digits >= 3 || len(c.name) >= 2 && strings.HasSuffix(strings.ToUpper(c.name), "ID"))
}

// leadName is the name value v starts with: an identifier (a letter or
// '_', then letters, digits, '_', '.', '-') and the punctuation right
// after it, one of ( [ { = :; "" when there is none.
func leadName(v string) string {
	if v == "" || !(v[0] == '_' || v[0]|0x20 >= 'a' && v[0]|0x20 <= 'z') {
		return ""
	}
	i := 1
	for i < len(v) && (isAlnumByte(v[i]) || v[i] == '_' || v[i] == '.' || v[i] == '-') {
		i++
	}
	if i == len(v) || i > 64 || strings.IndexByte("([{=:", v[i]) < 0 {
		return ""
	}
	return v[:i+1]
}

// afterBracket is what follows the bracket v opens at position i once
// it closes, trimmed, with hexadecimal numbers written 0x…; ok is false
// when the bracket does not close.
func afterBracket(v string, i int) (string, bool) {
	depth := 0
	for j := i; j < len(v); j++ {
		switch v[j] {
		case '"':
			j = quotedEnd(v, j)
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return maskHex(strings.TrimSpace(v[j+1:])), true
			}
		}
	}
	return "", false
}

// quotedEnd is the position of the quote that ends the quoted string
// starting at v[i] (a '"'), past escapes (an escaped quote, \", is no
// end), or len(v) when none does: the scan of brackets (afterBracket)
// and of metric labels (splitMetric, labelNames) skip quoted text with
// it.
func quotedEnd(v string, i int) int {
	for j := i + 1; j < len(v); j++ {
		switch v[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(v)
}

// maskHex writes every hexadecimal number "0x…" (addresses say nothing
// about the kind of a result).
func maskHex(s string) string {
	if !strings.Contains(s, "0x") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '0' && i+2 < len(s) && s[i+1] == 'x' && isHexByte(s[i+2]) && (i == 0 || !isAlnumByte(s[i-1])) {
			b.WriteString("0x…")
			i += 2
			for i+1 < len(s) && isHexByte(s[i+1]) {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// addName counts value v by its leading name and by what follows the
// bracket the name opens.
func (c *colStat) addName(v string) {
	n := leadName(v)
	if n == "" {
		return
	}
	c.nameRows++
	if c.names != nil {
		if !countUpTo(c.names, n, maxColValues) {
			c.names = nil
		}
	}
	if strings.IndexByte("([{", n[len(n)-1]) < 0 {
		return
	}
	a, ok := afterBracket(v, len(n)-1)
	if !ok || a == "" {
		return
	}
	c.afterRows++
	if c.after != nil {
		if !countUpTo(c.after, a, maxColValues) {
			c.after = nil
		}
	}
}

// leadWord is the word v starts with, when it is a letter then
// letters, digits, '.', '_' or '-' (at most 32), followed by a space, a
// tab or nothing; more says whether more follows.
func leadWord(v string) (w string, more bool) {
	if v == "" || v[0]|0x20 < 'a' || v[0]|0x20 > 'z' {
		return "", false
	}
	i := 1
	for i < len(v) && (isAlnumByte(v[i]) || v[i] == '_' || v[i] == '.' || v[i] == '-') {
		i++
	}
	if i > 32 || i < len(v) && v[i] != ' ' && v[i] != '\t' {
		return "", false
	}
	return v[:i], i < len(v)
}

// addWord counts value v by its first word.
func (c *colStat) addWord(v string) {
	w, more := leadWord(v)
	if w == "" {
		return
	}
	c.wordRows++
	if more {
		c.wordsMore++
	}
	if c.words != nil && !countUpTo(c.words, w, maxColValues) {
		c.words = nil
	}
}

// wordLine is "  column 3 by its first word (exact counts of rows): mov
// 589, call 210, …" for a column of many distinct values of several
// words most of which start with one of a few words (objdump's
// mnemonics: how many calls, jumps, moves); "" otherwise.
func (c *colStat) wordLine(rows int) string {
	if c.words == nil || len(c.words) < 2 || c.isNumber() || !c.overflow && len(c.values) <= shownColValues ||
		2*c.wordRows < rows || 2*c.wordsMore < c.wordRows || 4*len(c.words) > c.wordRows || c.nameLine(rows) != "" {
		return ""
	}
	if !topCover(c.words, c.wordRows) {
		return ""
	}
	return fmt.Sprintf("  %s by its first word (exact counts of rows): %s", c.name, listCounts(c.words, c.wordRows, rows, "words", "without one", false))
}

// topCover reports whether the shownColValues most frequent keys of
// counts cover at least half of rows.
func topCover(counts map[string]int, rows int) bool {
	vs, _ := byCount(counts)
	top := 0
	for _, x := range vs[:min(len(vs), shownColValues)] {
		top += x.n
	}
	return 2*top >= rows
}

// fewNumbers reports whether a numeric column's values are listed with
// their counts: at most shown distinct values, most of which repeat (a
// process id in many lines; not twelve percentages each in one row).
func (c *colStat) fewNumbers(shown int) bool {
	if c.overflow || len(c.values) > shown || len(c.values) < 2 {
		return false
	}
	once := 0
	for _, n := range c.values {
		if n == 1 {
			once++
		}
	}
	return 2*once <= len(c.values)
}

// valuesListed reports whether the column's line names values with their
// counts (not only how many distinct values there are).
func (c *colStat) valuesListed(rows int) bool {
	if c.overflow || len(c.values) == 0 {
		return false
	}
	vs := c.sortedValues()
	return len(vs) <= shownColValues && vs[0].n > 1 || len(vs) > shownColValues && vs[0].n > 1 && 33*vs[0].n >= rows
}

// nameLine is " by the name it starts with (exact counts): openat( 728,
// …" for a column of many distinct values most of which start with a
// name, when the names repeat; "" otherwise.
func (c *colStat) nameLine(rows int) string {
	if c.names == nil || len(c.names) < 2 || c.isNumber() || !c.overflow && len(c.values) <= shownColValues || 2*c.nameRows < rows || 4*len(c.names) > c.nameRows {
		return ""
	}
	// The names shown must cover most rows that have one: a few kinds
	// of calls, not a name per package.
	if !topCover(c.names, c.nameRows) {
		return ""
	}
	return fmt.Sprintf("  %s by the name it starts with (exact counts of rows): %s", c.name, listCounts(c.names, c.nameRows, rows, "names", "without one", false))
}

// afterLine is " after its brackets close (exact counts): "= 0" 1,463,
// …" when most rows have a name that opens a bracket, and what follows
// it repeats; "" otherwise.
func (c *colStat) afterLine(rows int) string {
	if c.after == nil || len(c.after) < 1 || 2*c.afterRows < rows || 2*len(c.after) > c.afterRows || c.nameLine(rows) == "" {
		return ""
	}
	return fmt.Sprintf("  %s by what follows its name's brackets (exact counts of rows; 0x… any hexadecimal number): %s", c.name, listCounts(c.after, c.afterRows, rows, "values", "without it", true))
}

// listCounts is "a 12, b 3; 4 other values in 7 rows; 2 rows without
// one": the shownColValues most frequent keys of m (covering total of
// rows rows) with their counts.
func listCounts(m map[string]int, total, rows int, noun, none string, quote bool) string {
	vs, _ := byCount(m)
	var b strings.Builder
	rest := total
	for i, x := range vs {
		if i == shownColValues {
			fmt.Fprintf(&b, "; %s other %s in %s rows", commas(len(vs)-i), noun, commas(rest))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if quote {
			fmt.Fprintf(&b, "%q %s", cut(x.k, 80), commas(x.n))
		} else {
			fmt.Fprintf(&b, "%s %s", cut(x.k, 80), commas(x.n))
		}
		rest -= x.n
	}
	if rows > total {
		fmt.Fprintf(&b, "; %s rows %s", commas(rows-total), none)
	}
	return b.String()
}

// distinctText is the exact distinct count, or "at least N".
func (c *colStat) distinctText() string {
	if c.capped {
		return fmt.Sprintf("more than %s distinct values", commas(maxColDistinct))
	}
	return fmt.Sprintf("%s distinct values", commas(len(c.distinct)))
}

// sortedValues are the column's values, most frequent first.
func (c *colStat) sortedValues() []keyCount {
	vs, _ := byCount(c.values)
	return vs
}

// groupRange is a column's least and greatest number among the rows of
// one value of another column: how many rows hold the least, and the
// first cell of the first row at the greatest (a series' time).
type groupRange struct {
	min, max       float64
	minRaw, maxRaw string
	minN           int
	maxAt          string
}

// note counts number x (written raw) of a row whose first cell is at;
// r may be nil (the group's first row).
func (r *groupRange) note(x float64, raw, at string) *groupRange {
	if r == nil {
		return &groupRange{min: x, max: x, minRaw: raw, maxRaw: raw, minN: 1, maxAt: at}
	}
	switch {
	case x < r.min:
		r.min, r.minRaw, r.minN = x, raw, 1
	case x == r.min:
		r.minN++
	}
	if x > r.max {
		r.max, r.maxRaw, r.maxAt = x, raw, at
	}
	return r
}

// rangesBy is "; by NAME (min, rows at it, to max, at its first row's
// COLUMN): "a" 0.00 (39 rows) to 99.00 (at 07:30:12), …"
// for a numeric column of a series (a table with a repeated header) and
// the group column g: what each CPU, interface or process did, not a
// sum of its rates. "" for a column of one number, or without ranges.
func (cp *colProfile) rangesBy(c *colStat, g int) string {
	if c.groupRanges == nil || c.groupRanges[g] == nil || cp.cols[g] == c || len(c.values) == 1 && !c.overflow || c.idLike() {
		return ""
	}
	gc := cp.cols[g]
	var parts []string
	for _, x := range gc.sortedValues() {
		r := c.groupRanges[g][x.k]
		if r == nil {
			continue
		}
		p := fmt.Sprintf("%q %s", cut(x.k, 40), r.minRaw)
		if r.minN > 1 {
			p += fmt.Sprintf(" (%s rows)", commas(r.minN))
		}
		if r.max != r.min {
			p += fmt.Sprintf(" to %s (at %s)", r.maxRaw, cut(r.maxAt, 40))
		}
		parts = append(parts, p)
	}
	return fmt.Sprintf("; by %s (min, rows at it, to max, at its first row's %s): %s", gc.name, cp.cols[0].name, strings.Join(parts, ", "))
}

// sumsBy is " (sums by NAME: "a" 12, "b" 30)" for a numeric column and
// the group column g of the profile, or "". A series (a table with a
// repeated header) states each group's range instead (rangesBy).
func (cp *colProfile) sumsBy(c *colStat, g int) string {
	if g >= 0 && cp.split.repKey != "" {
		return cp.rangesBy(c, g)
	}
	if g < 0 || c.groupSums == nil || c.groupSums[g] == nil || cp.cols[g] == c || len(c.distinct) == cp.rows || c.idLike() || c.unit != "" {
		// (a column of distinct numbers is an id: its sums mean nothing)
		return ""
	}
	gc := cp.cols[g]
	var parts []string
	for _, x := range gc.sortedValues() {
		s := c.groupSums[g][x.k]
		// The group's integer sum is exact below 2^53 (float64).
		parts = append(parts, fmt.Sprintf("%q %s", cut(x.k, 40), c.formatSum(s, int64(s))))
	}
	return fmt.Sprintf("; sums by %s: %s", gc.name, strings.Join(parts, ", "))
}

// line is the column's profile line; a column of values most of which
// are numbers (getconf's values beside paths and flags) also states the
// numbers' range.
func (c *colStat) line(rows int) string {
	s := c.lineOf(rows, shownColValues)
	if c.someNumbers() {
		s += fmt.Sprintf("; %s of its values are numbers: min %s%s, max %s%s", commas(c.numeric), c.num.minRaw, rowsAt(c.num.minN), c.num.maxRaw, rowsAt(c.num.maxN))
	}
	return s
}

// someNumbers reports whether the column is not one of numbers but most
// of its values that are not empty are (10 at least, all with the unit
// or none).
func (c *colStat) someNumbers() bool {
	return !c.isNumber() && !c.mixed && c.numeric >= 10 && 2*c.numeric >= c.rows-c.empty && len(c.distinct) > 2
}

// sumText is a numeric column's sum, or for percentages their mean
// (a sum of percentages means nothing).
func (c *colStat) sumText() string {
	if c.unit == "%" {
		return fmt.Sprintf("mean %s%%", strconv.FormatFloat(c.num.sumF/float64(c.numeric), 'f', c.num.decimals+1, 64))
	}
	if c.units {
		return "units of " + unitFamily(c.unit) + ", not summed"
	}
	return "sum " + c.formatSum(c.num.sumF, c.num.sumI) + c.unit
}

// Units a number may be written with (the numbers of go tool pprof,
// unzip -v, npm's timings, du -h): the unit's family and its size in the
// family's base unit. Numbers of one family are compared in that unit;
// they are summed only when all have the same unit.
var unitScales = map[string]struct {
	family string
	scale  float64
}{
	"%": {"%", 1},
	"s": {"time", 1}, "ms": {"time", 1e-3}, "us": {"time", 1e-6}, "µs": {"time", 1e-6}, "ns": {"time", 1e-9},
	"B": {"size", 1}, "K": {"size", 1 << 10}, "KB": {"size", 1 << 10}, "KiB": {"size", 1 << 10}, "kB": {"size", 1 << 10},
	"M": {"size", 1 << 20}, "MB": {"size", 1 << 20}, "MiB": {"size", 1 << 20},
	"G": {"size", 1 << 30}, "GB": {"size", 1 << 30}, "GiB": {"size", 1 << 30},
	"T": {"size", 1 << 40}, "TB": {"size", 1 << 40}, "TiB": {"size", 1 << 40},
}

// splitUnit splits "1.20s" into "1.20" and "s" when the suffix is one
// of unitScales; v and "" otherwise.
func splitUnit(v string) (num, unit string) {
	i := len(v)
	for i > 0 && (v[i-1] >= 'a' && v[i-1] <= 'z' || v[i-1] >= 'A' && v[i-1] <= 'Z' || v[i-1] == '%' || v[i-1] >= 0x80) {
		i--
	}
	if i == len(v) || i == 0 || !isDigitByte(v[i-1]) {
		return v, ""
	}
	if _, ok := unitScales[v[i:]]; !ok {
		return v, ""
	}
	return v[:i], v[i:]
}

func unitFamily(unit string) string { return unitScales[unit].family }

func unitScale(unit string) float64 {
	if u, ok := unitScales[unit]; ok {
		return u.scale
	}
	return 1
}

// present is " (in N of M rows)" for a column some rows lack, and "N
// empty" for one of numbers with empty cells, or "".
func (c *colStat) present(rows int) string {
	var parts []string
	if c.rows < rows {
		parts = append(parts, fmt.Sprintf("in %s of %s rows", commas(c.rows), commas(rows)))
	}
	if c.isNumber() && c.empty > 0 {
		parts = append(parts, fmt.Sprintf("%s empty", commas(c.empty)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// short is the column's profile in a few words: at most 5 values, a
// number's sum and range (for a notice that has little room).
func (c *colStat) short(rows int) string {
	if c.isNumber() && !c.fewNumbers(5) {
		if c.idLike() {
			return fmt.Sprintf("  %s%s: numbers (identifiers), min %s, max %s, %s", c.name, c.present(rows), c.num.minRaw, c.num.maxRaw, c.distinctText())
		}
		return fmt.Sprintf("  %s%s: %s, min %s%s, max %s%s", c.name, c.present(rows), c.sumText(), c.num.minRaw, rowsAt(c.num.minN), c.num.maxRaw, rowsAt(c.num.maxN))
	}
	return c.lineOf(rows, 5)
}

// hasLetter reports whether s has an ASCII letter.
func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z' {
			return true
		}
	}
	return false
}

// rowsAt is " (N rows)" for an extreme held by more than one row.
func rowsAt(n int) string {
	if n > 1 {
		return fmt.Sprintf(" (%s rows)", commas(n))
	}
	return ""
}

// lineOf is the column's profile line naming at most shown values.
func (c *colStat) lineOf(rows, shown int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s%s: ", c.name, c.present(rows))
	if c.slashed > 0 && c.isNumber() {
		fmt.Fprintf(&b, "(%s written N/M: the first number counted) ", commas(c.slashed))
	}
	switch {
	case c.few && c.rows <= 3 && c.rows < rows && !c.overflow:
		// A key of field lines that few rows have (the summary's
		// "dirs=1084"): its values.
		for i, x := range c.sortedValues() {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q %s", cut(x.k, 80), commas(x.n))
		}
	case c.isNumber() && !c.overflow && len(c.values) == 1:
		// One number in every row (git's stage 0): a constant.
		for v, n := range c.values {
			fmt.Fprintf(&b, "%q %s", v, commas(n))
		}
	case c.isNumber() && c.fewNumbers(shown):
		// Few distinct numbers: each with its count, like words (a
		// process id and how many lines it has); a sum only where the
		// numbers are quantities.
		fmt.Fprintf(&b, "numbers, %s distinct values: ", commas(len(c.values)))
		for i, x := range c.sortedValues() {
			if i > 0 {
				b.WriteString(", ")
			}
			k := x.k
			if k == "" {
				k = `""`
			}
			fmt.Fprintf(&b, "%s %s", k, commas(x.n))
		}
		if !c.idLike() {
			fmt.Fprintf(&b, "; %s", c.sumText())
		}
	case c.isNumber():
		if c.idLike() {
			fmt.Fprintf(&b, "numbers (identifiers), min %s", c.num.minRaw)
		} else {
			fmt.Fprintf(&b, "numbers, %s, min %s", c.sumText(), c.num.minRaw)
		}
		if c.num.minN > 1 {
			fmt.Fprintf(&b, " (%s rows)", commas(c.num.minN))
		}
		fmt.Fprintf(&b, ", max %s", c.num.maxRaw)
		if c.num.maxN > 1 {
			fmt.Fprintf(&b, " (%s rows)", commas(c.num.maxN))
		}
		fmt.Fprintf(&b, ", %s", c.distinctText())
	case c.overflow:
		b.WriteString(c.distinctText())
	default:
		vs := c.sortedValues()
		if len(vs) <= 2*shown && vs[0].n > 1 && !singletonNumbers(vs) {
			// Up to twice as many values: every one with its count
			// (the sections of man pages with one page each), when
			// the values of one row are categories, not measures
			// written in a word (redis-benchmark's "rps=10043.8":
			// listing those pushed the output's first lines out).
			shown = len(vs)
		}
		if len(vs) > shown || vs[0].n == 1 {
			b.WriteString(c.distinctText())
			if vs[0].n == 1 {
				b.WriteString(" (each in one row)")
				break
			}
			if 33*vs[0].n < c.rows {
				// Nearly every row its own value: the most frequent
				// one says little.
				fmt.Fprintf(&b, " (the most frequent, %q, in %s rows)", cut(vs[0].k, 80), commas(vs[0].n))
				break
			}
			b.WriteString("; most frequent: ")
		}
		rest := c.rows
		for i, x := range vs {
			if i == shown || x.n == 1 && len(vs) > shown {
				fmt.Fprintf(&b, "; %s other values in %s rows", commas(len(vs)-i), commas(rest))
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q %s", cut(x.k, 80), commas(x.n))
			rest -= x.n
		}
	}
	return b.String()
}

// singletonNumbers says whether a value held by one row only is a number
// form: it holds a number of its own (not after a letter) of two digits
// or more, or with a decimal point ("rps=10043.8", "12138.3)", "(10"),
// where a category holds none or a one-digit code ("(2type)", "(5ssl)").
func singletonNumbers(vs []keyCount) bool {
	for _, x := range vs {
		if x.n == 1 && numberForm(x.k) {
			return true
		}
	}
	return false
}

// numberForm says whether v holds a number of its own of two digits or
// more, or with a decimal point.
func numberForm(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isDigitByte(v[i]) || i > 0 && isAlnumByte(v[i-1]) {
			continue
		}
		j := i
		for j < len(v) && isDigitByte(v[j]) {
			j++
		}
		if j-i >= 2 || j+1 < len(v) && v[j] == '.' && isDigitByte(v[j+1]) {
			return true
		}
		i = j
	}
	return false
}

// rareValue is a value held by few rows of a column.
type rareValue struct {
	c *colStat
	v string
	n int
}

// rareValues are the column's rare values: in a column with at most
// shownColValues distinct values whose most frequent value covers at
// least half the rows, the values held by at most 5% of the rows.
func (c *colStat) rareValues(rows int) []rareValue {
	if c.overflow || c.examples == nil || c.isNumber() && !c.fewNumbers(shownColValues) {
		return nil
	}
	vs := c.sortedValues()
	if len(vs) < 2 || len(vs) > shownColValues || 3*vs[0].n < c.rows {
		return nil
	}
	var out []rareValue
	for _, x := range vs[1:] {
		if 20*x.n <= c.rows {
			out = append(out, rareValue{c, x.k, x.n})
		}
	}
	return out
}

// Bounds of the rows chosen by their columns: the first ones are shown
// at PrioRare, the rest at PrioSecond.
const (
	firstColRows = 12
	maxColRows   = 60
)

// colRow is a row chosen by its columns, with every reason.
type colRow struct {
	l       posLine
	reasons []string
}

// chosenRows are the rows the columns choose, in order: the rows at the
// maximum and then at the minimum of numeric columns (when at most
// maxExtremeRows rows share it), then the rows with a rare value, each
// row once with all its reasons.
func (cp *colProfile) chosenRows() []*colRow {
	var out []*colRow
	at := map[int]*colRow{}
	// The rarest values first, across columns (a value in one row of 851
	// before one in 36), each with its first rows.
	var rare []rareValue
	for _, c := range cp.cols {
		rare = append(rare, c.rareValues(cp.rows)...)
	}
	sort.SliceStable(rare, func(i, j int) bool { return rare[i].n < rare[j].n })
	add := func(l posLine, why string) {
		if r := at[l.pos]; r != nil {
			r.reasons = append(r.reasons, why)
			return
		}
		r := &colRow{l: l, reasons: []string{why}}
		at[l.pos] = r
		out = append(out, r)
	}
	addRare := func(upTo int) {
		for len(rare) > 0 && rare[0].n <= upTo {
			r := rare[0]
			rare = rare[1:]
			why := fmt.Sprintf("%s %q is rare (%s of %s rows)", r.c.name, cut(r.v, 40), commas(r.n), commas(r.c.rows))
			ex := r.c.examples[r.v]
			for _, l := range ex[:min(len(ex), maxColExamples)] {
				add(l, why)
			}
		}
	}
	// The first rows of a value that takes over the end (text_fields.go)
	// come first.
	shifted := map[string]bool{}
	for _, sh := range cp.valueShifts() {
		if shifted[sh.v] || shifted[strconv.Itoa(sh.from)] {
			continue // (the same value's shift, or one from the same row, in another column: its rows are shown)
		}
		shifted[sh.v], shifted[strconv.Itoa(sh.from)] = true, true
		for k, l := range sh.first {
			add(l, fmt.Sprintf("%s row of the last %s, where %s is %q in %s", ordinal1(k+1), commas(sh.span), sh.c.name, sh.v, commas(sh.n)))
		}
	}
	cp.shiftRows = len(out)
	addRare(3)
	for _, c := range cp.cols {
		if !c.isNumber() && !c.someNumbers() || len(c.distinct) < 2 {
			continue
		}
		if c.num.maxN <= maxExtremeRows {
			for _, l := range c.maxRows {
				add(l, fmt.Sprintf("largest %s (%s)", c.name, c.num.maxRaw))
			}
		} else if tiedFew(c.num.maxN, cp.rows) && !c.fewNumbers(shownColValues) {
			add(c.maxRows[0], fmt.Sprintf("largest %s (%s), the first of %s rows at it", c.name, c.num.maxRaw, commas(c.num.maxN)))
		}
	}
	for _, c := range cp.cols {
		if !c.isNumber() && !c.someNumbers() || len(c.distinct) < 2 {
			continue
		}
		if c.num.minN <= maxExtremeRows {
			for _, l := range c.minRows {
				add(l, fmt.Sprintf("smallest %s (%s)", c.name, c.num.minRaw))
			}
		} else if tiedFew(c.num.minN, cp.rows) && !c.fewNumbers(shownColValues) {
			add(c.minRows[0], fmt.Sprintf("smallest %s (%s), the first of %s rows at it", c.name, c.num.minRaw, commas(c.num.minN)))
		}
	}
	// The rows of the next largest values (the largest file under a
	// total line), for quantities.
	for _, c := range cp.cols {
		if !c.isNumber() || len(c.distinct) < 3 || c.idLike() || c.fewNumbers(shownColValues) {
			continue
		}
		for k, t := range c.top {
			if k == 0 {
				continue // the maximum's rows are above
			}
			add(t.l, fmt.Sprintf("%s largest %s (%s)", ordinal(k+1), c.name, t.raw))
		}
	}
	// And of the next smallest values (the least covered function
	// above 0%).
	for _, c := range cp.cols {
		if !c.isNumber() || len(c.distinct) < 3 || c.idLike() || c.fewNumbers(shownColValues) {
			continue
		}
		for k, t := range c.bottom {
			if k == 0 || k > 2 {
				continue // the minimum's rows are above
			}
			add(t.l, fmt.Sprintf("%s smallest %s (%s)", ordinal(k+1), c.name, t.raw))
		}
	}
	addRare(cp.rows)
	// The rows of a directory that holds few beside its siblings (the
	// one file under /usr/sbin/).
	for _, c := range cp.cols {
		for _, n := range c.rareDirRows() {
			add(n.first, fmt.Sprintf("%s: %s of %s rows under %q", c.name, commas(n.under), commas(c.paths.rows), n.path))
		}
	}
	return out
}

// tiedFew reports whether n rows at a column's extreme, more than
// maxExtremeRows, are still few of rows (one in twenty or fewer): the
// first of them is shown, the largest response of a log that asked for
// the same file six times, not the first of 500 rows at a maximum of 1.
func tiedFew(n, rows int) bool {
	return n > maxExtremeRows && 20*n <= rows
}

// ordinal is "2nd", "3rd", "4th", "5th".
func ordinal(n int) string {
	switch n {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// columnCandidates adds the column profile lines (PrioRare, in column
// order) and returns the function that adds the rows the columns choose
// (from the a-th to the b-th); it adds the first firstColRows at once.
func (tc *textCands) columnCandidates(add func(sec, key, rec int, reason, text string)) func(a, b int) {
	if tc.p == nil || tc.p.cols == nil || tc.p.cols.rows == 0 {
		return func(int, int) {}
	}
	cp := tc.p.cols
	g := cp.groupColumn()
	id, val, nv := cp.nameValue(cp.indexColumns())
	shifted := map[*colStat]bool{}
	for _, sh := range cp.valueShifts() {
		shifted[sh.c] = true // (its line is the anomaly's: shiftCandidates)
	}
	for _, i := range cp.columnOrder() {
		c := cp.cols[i]
		if !shifted[c] {
			add(tsColumns, colKeys*i, -1, "column", cut(c.line(cp.rows)+cp.sumsBy(c, g)+cp.timeSpan(i), textWidth))
			if l := c.lastWordLine(cp.rows); l != "" {
				add(tsColumns, colKeys*i+28, -1, "column last words", cut(l, textWidth))
			}
		}
		if nv && i == val {
			if s := cp.valueNumbersLine(id, val); s != "" {
				add(tsColumns, colKeys*i+5, -1, "column numbers", cut(s, 2*textWidth))
			}
		}
		if s := c.nameLine(cp.rows); s != "" {
			add(tsColumns, colKeys*i+1, -1, "column names", cut(s, 2*textWidth))
		}
		if s := c.afterLine(cp.rows); s != "" {
			add(tsColumns, colKeys*i+2, -1, "column results", cut(s, 2*textWidth))
		}
		if s := c.wordLine(cp.rows); s != "" {
			add(tsColumns, colKeys*i+3, -1, "column words", cut(s, 2*textWidth))
		}
		first, _ := c.pathLinesBy()
		for j, l := range first {
			add(tsColumns, colKeys*i+10+j, -1, "column paths", cut(l, 3*textWidth))
		}
		// One key for the listing's lines (after the paths' lines):
		// they render in the order they are chosen, which is line
		// order (text_shallow.go).
		for _, l := range cp.shallowLines(i) {
			add(tsColumns, colKeys*i+20, -1, "shallowest paths", l)
		}
	}
	tc.otherCandidates(add)
	if l := cp.otherKeysLine(); l != "" {
		add(tsColumns, colKeys*len(cp.cols)+maxOthers+2, -1, "keys with no column", cut(l, 2*textWidth))
	}
	rows := cp.chosenRows()
	from := func(a, b int) {
		for k := a; k < b && k < len(rows); k++ {
			r := rows[k]
			text := fmt.Sprintf("  %d\t%s\t[%s]", r.l.pos, cut(cp.split.compactRow(r.l.text), colRowWidth), strings.Join(r.reasons, "; "))
			add(tsColRows, r.l.pos, r.l.pos, "chosen by its columns", text)
		}
	}
	from(cp.shiftRows, firstColRows) // (the value shifts' rows are the anomaly's: shiftCandidates)
	// The holders of rare values, after the first rows (the largest
	// file before the names of the setuid ones): a status's rare value
	// (a column of 2 to 4 values: 404 among 200s) now, the others after
	// the index (a record looked up by name first). Each renders after
	// its column's line.
	for i, c := range cp.cols {
		if shifted[c] {
			continue
		}
		for j, l := range cp.holderLines(i) {
			pr := PrioSpread
			if j == 0 && len(c.values) <= 4 {
				pr = PrioRare
			}
			tc.v.Add(Candidate{Section: tc.sec[tsColumns], Key: colKeys*i + 29 + j, Record: -1, Prio: pr, Reason: "column holders", Text: cut(l, 2*textWidth)})
		}
	}
	// The runs of a table printed in sections (text_runs.go), after
	// the first chosen rows, before the columns' lines in the view.
	for j, l := range tc.runLines() {
		add(tsColumns, runKey+j, -1, "runs of rows", l)
	}
	return from
}

// otherCandidates adds, after the columns' lines, the lines of the text
// that are no rows, when they are few (at most one in four rows) and
// some start with a mark: their count by how they start (the
// alternatives of apt-cache rdepends, " |libfoo", 35 among 22,744 rows),
// then the first of the marked ones (at most maxOthers kept). Such
// lines are what sets the few apart from the many; lines that start as
// words (a log's lines of another form) are only counted by the head.
func (tc *textCands) otherCandidates(add func(sec, key, rec int, reason, text string)) {
	cp := tc.p.cols
	other := cp.other - cp.headReps // (the header's repetitions: stated by the head)
	if other == 0 || 4*other > cp.rows {
		return
	}
	key := colKeys * len(cp.cols)
	if m := cp.otherStarts; m == nil || len(m) == 1 && m[noMark] > 0 {
		return // lines that start as words: a log's lines of another form, not marked ones
	}
	if m := cp.otherStarts; m != nil {
		vs, _ := byCount(m)
		var parts []string
		for _, x := range vs {
			parts = append(parts, x.k+" "+commas(x.n))
		}
		what := "other lines"
		if cp.headReps > 0 {
			what = "other lines besides the header's"
		}
		add(tsColumns, key, -1, "other lines", cut(fmt.Sprintf("  the %s %s (no rows), by their start before the first letter or digit (exact counts): %s", commas(other), what, strings.Join(parts, ", ")), 2*textWidth))
	}
	// (A table's first lines are shown with the head: text.go's headFrom.)
	headShown := cp.split.mode != byLine && (tc.p.recs == nil || !tc.p.recs.short())
	for j, l := range cp.others {
		if otherStart(l.text) == noMark || headShown && slices.ContainsFunc(tc.p.head[:min(10, len(tc.p.head))], func(h posLine) bool { return h.pos == l.pos }) {
			continue // the marked ones: the unmarked are counted
		}
		if cp.split.repKey != "" && slices.ContainsFunc(cp.others[:j], func(o posLine) bool { return o.text == l.text }) {
			continue // a line repeated with the header (vmstat's groups above its names): shown once
		}
		add(tsColumns, key+1+j, l.pos, "other line", fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.text)))
	}
}

// colKeys are the candidate keys of a column in the columns section: its
// profile line, its names line, its results line, its two parts lines,
// its marks, repeats, shared starts, shared ends and forms lines, and
// its lines of paths (text_paths.go).
const colKeys = 32

// columnParts adds the lines of rows by the start and the end of the
// columns' values (partsLines), each after its column's line.
func (tc *textCands) columnParts(add func(sec, key, rec int, reason, text string)) {
	if tc.p == nil || tc.p.cols == nil || tc.p.cols.rows == 0 {
		return
	}
	cp := tc.p.cols
	for i, c := range cp.cols {
		for j, l := range c.partsLines(cp.rows) {
			add(tsColumns, colKeys*i+3+j, -1, "column parts", cut(l, 2*textWidth))
		}
		for j, l := range c.nameExtras() {
			if l != "" {
				add(tsColumns, colKeys*i+5+j, -1, "column groups", cut(l, 2*textWidth))
			}
		}
		_, more := c.pathLinesBy()
		for j, l := range more {
			add(tsColumns, colKeys*i+13+j, -1, "column paths", cut(l, 3*textWidth))
		}
		for j, l := range c.commaPartsLines() {
			add(tsColumns, colKeys*i+24+j, -1, "column parts", cut(l, 2*textWidth))
		}
	}
}

// headerText says where the table's column names come from, and how
// often a repeated header repeats (its repetitions are other lines).
func (cp *colProfile) headerText() string {
	s := cp.split.headerText()
	if cp.headReps > 0 {
		s += fmt.Sprintf(", %s such header lines in all (%q …), one above each block of rows (other lines, no rows)", commas(cp.headReps+1), cp.split.headStart)
	}
	return s
}

// columnsHead is the header of the column profile: how the lines split,
// and a query for the rows with one value of a column.
func (tc *textCands) columnsHead(cs []Candidate) string {
	cp := tc.p.cols
	how := cp.split.howSplit()
	hdr := cp.headerText()
	shown := 0
	var named *colStat
	for _, c := range cs {
		switch c.Reason {
		case "column":
			shown++
		case "column names":
			if named == nil {
				named = cp.cols[c.Key/colKeys]
			}
		}
	}
	if cp.otherKeyRows > 0 {
		more := ""
		if cp.otherKeysMore {
			more = " or more"
		}
		how += fmt.Sprintf("; %s%s more keys have no column, in %s rows", commas(len(cp.otherKeys)), more, commas(cp.otherKeyRows))
	}
	s := fmt.Sprintf("columns of the %s rows (%s, %d columns, %s; %s other lines; showing %s of %d columns; counts are of rows, exact):\n",
		commas(cp.rows), how, cp.split.k, hdr, commas(cp.other), commas(shown), len(cp.cols))
	s += tc.shallowRest(cs)
	if named != nil {
		// The rows whose value starts with a name: the least frequent
		// name shown, as an example.
		vs, _ := byCount(named.names)
		v := vs[min(len(vs), shownColValues)-1].k
		s += fmt.Sprintf("the rows whose %s starts with %q (any name likewise): compact artifact query %s --jq %s\n", named.name, v, tc.in.Handle,
			tc.jq(fmt.Sprintf(`to_entries[] | select(.value | %s | startswith(%s)) | "\(.key)\t\(.value)"`, cp.split.jqField(indexOf(cp.cols, named)), jqString(v))))
	}
	if cp.split.mode != byFields {
		s += tc.valueQuery() // (of field lines: a line of its own, fieldQueryCandidate)
	}
	// A row by its name: the first column whose every value is its own
	// (not a number), shown with the first row's name.
	for i, c := range cp.cols {
		if cp.split.mode == byFields {
			break
		}
		if c.isNumber() || c.capped || len(c.distinct) != cp.rows || cp.rows < 3 {
			continue
		}
		if f := cp.split.fields(cp.first.text); f != nil {
			s += fmt.Sprintf("one row by its %s (here %q): compact artifact query %s --jq %s\n", c.name, f[i], tc.in.Handle,
				tc.jq(fmt.Sprintf(`to_entries[] | select(.value | %s == %s) | "\(.key)\t\(.value)"`, cp.split.jqField(i), jqString(f[i]))))
		}
		break
	}
	return s + tc.runsHead(cs)
}

// valueQuery is the line of a query for the rows with a value: the
// least frequent value of the first column with few values.
func (tc *textCands) valueQuery() string {
	cp := tc.p.cols
	s := ""
	for _, c := range cp.cols {
		if c.overflow || c.isNumber() {
			continue
		}
		vs := c.sortedValues()
		if len(vs) < 2 || len(vs) > shownColValues || cp.split.mode == byFields && allClock(vs) {
			continue
		}
		v := vs[len(vs)-1].k
		i := 0
		for j, x := range cp.cols {
			if x == c {
				i = j
			}
		}
		s += fmt.Sprintf("the rows whose %s is %q (any column, any value likewise): compact artifact query %s --jq %s\n", c.name, v, tc.in.Handle,
			tc.jq(fmt.Sprintf(`to_entries[] | select(.value | %s == %s) | "\(.key)\t\(.value)"`, cp.split.jqField(i), jqString(v))))
		break
	}
	return s
}

// Values by their parts. A column of names or versions has too many
// values to list, but its values often share a start or an end that
// means something: the module of go mod graph's "golang.org/x/sys@v0.30.0"
// (up to the '@'), the kind of a process named "kworker/0:1-events" (up
// to the first '/' or ':'), the major version of "v20.1.0" (up to the
// first '.'), a test file's "_test.go" or a version's "+incompatible"
// (from the last '_' or '+'). partsLines counts the rows (and distinct
// values) of each start and each end, exactly, from the column's value
// counts.

// valueStart is the start of v its values are grouped by, or "".
func valueStart(v string) string {
	if strings.IndexByte(v, ' ') >= 0 {
		return "" // words, not a name
	}
	if i := strings.IndexByte(v, '@'); i > 0 && i < len(v)-1 {
		return v[:i+1]
	}
	if i := strings.IndexAny(v, "/:"); i > 0 && i < len(v)-1 && !linetemplate.FixedDigits(v, 0, i) {
		return v[:i+1] // not the hour of a clock time
	}
	s := strings.TrimPrefix(v, "v")
	if i := strings.IndexByte(s, '.'); i > 0 && i < len(s)-1 && linetemplate.FixedDigits(s, 0, i) && isDigitByte(s[i+1]) {
		return v[:len(v)-len(s)+i+1] // "v20.", "1."
	}
	return ""
}

// valueEnd is the end of v its values are grouped by (from its last '_'
// or '+' followed by a letter, at most 20 bytes), or "". Values with a
// space (words, "name -> target") have neither a start nor an end.
func valueEnd(v string) string {
	i := strings.LastIndexAny(v, "_+")
	if i <= 0 || len(v)-i > 20 || len(v)-i < 3 || strings.ContainsAny(v[i:], "@/: ") || strings.IndexByte(v, ' ') >= 0 {
		return ""
	}
	if c := v[i+1] | 0x20; c < 'a' || c > 'z' {
		return "" // "x86_64", not a suffix
	}
	return v[i:]
}

// partGroup is the rows and distinct values of one start or end.
type partGroup struct {
	k      string
	rows   int
	values []keyCount
}

// partsLines are the column's lines of rows by the start and by the end
// of their values (see valueStart, valueEnd), each when its groups are at
// fewer than the values that have one (some start or end is shared) and
// the largest holds 3
// rows or more; nil for a numeric column, one whose values are not all
// counted, or one of few values (they are listed already).
func (c *colStat) partsLines(rows int) []string {
	if c.overflow || c.isNumber() || len(c.values) <= shownColValues {
		return nil
	}
	vs := c.sortedValues()
	var out []string
	for _, by := range []struct {
		what string
		fn   func(string) string
		end  bool
	}{
		{"start (to the first @, / or :, or a version's major)", valueStart, false},
		{"end (from the last _ or +)", valueEnd, true},
	} {
		if _, wide := c.endsLine(); by.end && wide {
			continue // counted by the end of the file's name (endsLine)
		}
		groups := map[string]*partGroup{}
		var order []*partGroup
		withPart, valuesWith := 0, 0
		for _, x := range vs {
			k := by.fn(x.k)
			if k == "" {
				continue
			}
			g := groups[k]
			if g == nil {
				g = &partGroup{k: k}
				groups[k] = g
				order = append(order, g)
			}
			g.rows += x.n
			g.values = append(g.values, x)
			withPart += x.n
			valuesWith++
		}
		if len(order) == 0 || len(order) == valuesWith {
			continue
		}
		sort.SliceStable(order, func(i, j int) bool {
			if order[i].rows != order[j].rows {
				return order[i].rows > order[j].rows
			}
			return order[i].k < order[j].k
		})
		if order[0].rows < 3 {
			continue
		}
		var parts []string
		shown := 0
		for i, g := range order {
			if i == shownColValues || g.rows == 1 {
				break
			}
			s := fmt.Sprintf("%q %s", cut(g.k, 60), commas(g.rows))
			switch {
			case len(g.values) <= 3 && len(g.values) < g.rows:
				var vals []string
				for _, x := range g.values {
					// The rest of the value beside its start or end.
					v := "…" + strings.TrimPrefix(x.k, g.k)
					if by.end {
						v = strings.TrimSuffix(x.k, g.k) + "…"
					}
					vals = append(vals, fmt.Sprintf("%s %s", cut(v, 60), commas(x.n)))
				}
				s += " (" + strings.Join(vals, ", ") + ")"
			case len(g.values) < g.rows:
				s += fmt.Sprintf(" (%s distinct)", commas(len(g.values)))
			}
			parts = append(parts, s)
			shown += g.rows
		}
		line := fmt.Sprintf("  %s, rows by the value's %s: %s", c.name, by.what, strings.Join(parts, ", "))
		if rest := withPart - shown; rest > 0 {
			line += fmt.Sprintf("; %s other rows with one", commas(rest))
		}
		if without := rows - withPart; without > 0 {
			line += fmt.Sprintf("; %s rows without one", commas(without))
		}
		out = append(out, line)
	}
	return out
}
