package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// How the lines of a table split into cells.
//
// Besides runs of spaces and every tab (text_columns.go), a table's cells
// may be separated by:
//
//   - a bar, '|' or '│', with the cells padded by spaces: psql's aligned
//     output (a header, a "----+----" rule, a "(N rows)" footer), sqlite3's
//     -table, -box and -markdown modes, Markdown tables. Rule lines (only
//     '-', '=', '+', ':', bars and box-drawing characters, with a run of
//     three dashes) are not rows; a table whose every row starts and ends
//     with the bar is "bordered": the empty cells outside the bars are no
//     columns. The header is the first row when a rule follows it.
//   - runs of tabs, leading ones ignored, cells trimmed of the spaces that
//     pad them: text aligned to tab stops (go tool cover -func:
//     "file.go:12:\tName\t\t\t85.7%"; gcc -Q --help=...: a name padded with
//     spaces, then one or two tabs to the next stop, then its state), when
//     more lines agree on the number of cells split at runs than at every
//     tab. A tab run at the end of a line leaves an empty last cell.
//
// With a separator (tabs or a bar), a row may have fewer cells than the
// widest rows (go version -m: "\tdep\tpath\tversion\th1:…" beside
// "\tpath\tpath" and "\tbuild\tkey=value"): such rows count, and each
// column states the rows that have it. When every row starts with the
// same indentation (a TAB in go version -m), it is removed before the
// split, so it makes no empty first column.
//
// A list (one value a line: apt-cache rdepends, find, a list of package
// names, often indented under a header line) is a table of one column:
// the line trimmed of spaces; with an indentation that 90% of its
// one-word lines share, only the lines that have it are its rows (the
// header lines above are other lines).

// splitMode is how a table's lines split into cells.
type splitMode int

const (
	bySpaces  splitMode = iota // at runs of spaces and tabs; the last column holds the rest
	byTab                      // at every tab, empty cells kept
	byTabRuns                  // at runs of tabs, leading and trailing tabs ignored
	byBar                      // at a bar ('|' or '│'), cells trimmed of spaces and tabs
	byLine                     // one cell: the line trimmed of spaces and tabs (a list)
	byWidth                    // at fixed positions (starts), cells trimmed of spaces
	byFields                   // quoted strings, [brackets], key=value pairs (text_fields.go)
)

// ruleChars are the characters of a rule line between a table's header
// and rows ("----+----", "|---|---|", "+----+", "├────┼────┤").
const ruleChars = "-=+|:─━═┼┬┴├┤┌┐└┘╞╪╡╤╧│ \t"

// jqRuleTest is the jq test of isRule.
const jqRuleTest = `(test("^[-=+|:─━═┼┬┴├┤┌┐└┘╞╪╡╤╧│ \t]*$") and test("---|===|───|═══|━━━"))`

// isRule reports whether line is a rule line of a table: only ruleChars,
// with a run of three '-', '=', '─', '═' or '━'.
func isRule(line string) bool {
	run, prev, long := 0, rune(0), false
	for _, r := range line {
		if !strings.ContainsRune(ruleChars, r) {
			return false
		}
		switch r {
		case '-', '=', '─', '═', '━':
			if r == prev {
				run++
			} else {
				run = 1
			}
			if run >= 3 {
				long = true
			}
		default:
			run = 0
		}
		prev = r
	}
	return long
}

// trimBlank trims spaces and tabs (not other white space: jq's
// gsub("^[ \t]+|[ \t]+$"; "") does the same).
func trimBlank(s string) string { return strings.Trim(s, " \t") }

// splitTabRunsOf splits s at runs of tabs after trimming the tabs at
// its start; a run at the end leaves an empty last cell (an option
// without a value), and each cell is trimmed of the spaces that pad it to
// a tab stop (jq: sub("^\t+"; "") | [splits("\t+")] | map(gsub("^ +| +$"; ""))).
// "  -Wabi     \t\t[disabled]" and "  -Waggressive-loop-optimizations \t[enabled]"
// are both the cells "-Wabi"/"-Waggressive-loop-optimizations" and their state.
func splitTabRunsOf(s string) []string {
	s = strings.TrimLeft(s, "\t")
	out := make([]string, 0, strings.Count(s, "\t")+1)
	for {
		i := strings.IndexByte(s, '\t')
		if i < 0 {
			return append(out, strings.Trim(s, " "))
		}
		out = append(out, strings.Trim(s[:i], " "))
		j := i
		for j < len(s) && s[j] == '\t' {
			j++
		}
		s = s[j:]
	}
}

// pipeCells splits a line at the bar sep, or nil when it is a rule line
// (tested only when rules hold the bar: another rule is no row anyway)
// or (bordered) does not start and end with the bar.
func pipeCells(line, sep string, bordered, rules bool) []string {
	if rules && isRule(line) {
		return nil
	}
	s := trimBlank(line)
	if bordered {
		if len(s) < 2*len(sep) || !strings.HasPrefix(s, sep) || !strings.HasSuffix(s, sep) {
			return nil
		}
		s = s[len(sep) : len(s)-len(sep)]
	}
	f := strings.Split(s, sep)
	for i := range f {
		f[i] = trimBlank(f[i])
	}
	return f
}

// cells splits a line (its lead removed) by the split's mode, without
// checking the number of cells.
func (sp *colSplit) cells(line string) []string {
	switch sp.mode {
	case byTab:
		return strings.Split(line, "\t")
	case byTabRuns:
		return splitTabRunsOf(line)
	case byBar:
		if sp.quoted {
			return sepQuotedCells(line, sp.sep)
		}
		return pipeCells(line, sp.sep, sp.bordered, sp.barRules)
	case byLine:
		if s := trimBlank(line); s != "" {
			// One cell, in the split's own slice: callers keep the
			// value, not the slice.
			sp.one[0] = s
			return sp.one[:]
		}
		return nil
	case byWidth:
		return widthCells(line, sp.starts)
	case byFields:
		return sp.fs.cells(line)
	}
	return splitSpaces(line)
}

// widthCells cuts an ASCII line without tabs at the starts of its
// columns, each cell trimmed of spaces (empty past the line's end); nil
// when the line has another character than a space right before a start
// (it does not keep to the columns) or is not ASCII or has a tab.
func widthCells(line string, starts []int) []string {
	for i := 0; i < len(line); i++ {
		if line[i] >= 0x80 || line[i] == '\t' {
			return nil
		}
	}
	out := make([]string, len(starts))
	for i, a := range starts {
		if i > 0 && a-1 < len(line) && line[a-1] != ' ' {
			return nil
		}
		b := len(line)
		if i+1 < len(starts) {
			b = min(b, starts[i+1])
		}
		if a < b {
			out[i] = strings.Trim(line[a:b], " ")
		}
	}
	return out
}

// jqCells is the jq expression (over one line, its lead removed) that
// yields the array cells makes.
func (sp *colSplit) jqCells() string {
	switch sp.mode {
	case byTab:
		return `split("\t")`
	case byTabRuns:
		return `(sub("^\t+"; "") | [splits("\t+")] | map(gsub("^ +| +$"; "")))`
	case byBar:
		if sp.quoted {
			return jqQuotedCells(sp.sep)
		}
		s := `gsub("^[ \t]+|[ \t]+$"; "")`
		if sp.barRules {
			s = fmt.Sprintf(`select(%s | not) | `, jqRuleTest) + s
		}
		if sp.bordered {
			s += fmt.Sprintf(` | select(startswith(%[1]s) and endswith(%[1]s) and length >= 2) | .[1:-1]`, jqString(sp.sep))
		}
		return s + fmt.Sprintf(` | split(%s) | map(gsub("^[ \t]+|[ \t]+$"; ""))`, jqString(sp.sep))
	case byLine:
		return `gsub("^[ \t]+|[ \t]+$"; "") | select(. != "") | [.]`
	case byWidth:
		var conds, cuts []string
		for i, a := range sp.starts {
			if i > 0 {
				conds = append(conds, fmt.Sprintf(`(.[%d:%d] | . == "" or . == " ")`, a-1, a))
			}
			if i+1 < len(sp.starts) {
				cuts = append(cuts, fmt.Sprintf(`.[%d:%d]`, a, sp.starts[i+1]))
			} else {
				cuts = append(cuts, fmt.Sprintf(`.[%d:]`, a))
			}
		}
		return fmt.Sprintf(`select(test("^[\\x00-\\x7f]*$") and (test("\t") | not) and %s) | [%s] | map(gsub("^ +| +$"; ""))`,
			strings.Join(conds, " and "), strings.Join(cuts, ", "))
	case byFields:
		return sp.fs.jqCells()
	}
	return sp.jqSplit()
}

// jqLead is the jq expression that keeps the lines with the split's lead
// and removes it ("" when there is none).
func (sp *colSplit) jqLead() string {
	if sp.lead == "" {
		return ""
	}
	return fmt.Sprintf(`select(startswith(%[1]s)) | ltrimstr(%[1]s) | `, jqString(sp.lead))
}

// howSplit says how the lines split, for the columns' head.
func (sp *colSplit) howSplit() string {
	var s string
	switch sp.mode {
	case byTab:
		s = "split at tabs"
	case byTabRuns:
		s = "split at runs of tabs"
	case byBar:
		s = fmt.Sprintf("split at %q, cells trimmed", sp.sep)
		if sp.quoted {
			s = fmt.Sprintf("split at %q outside quotes, cells trimmed, a cell's quotes removed", sp.sep)
		}
		if sp.bordered {
			s += fmt.Sprintf(", rows start and end with %q", sp.sep)
		}
	case byLine:
		s = "one value a line, trimmed"
	case byWidth:
		var at []string
		for _, a := range sp.starts {
			at = append(at, strconv.Itoa(a))
		}
		s = fmt.Sprintf("fixed-width columns starting at characters %s (from 0), cells trimmed", strings.Join(at, ", "))
	case byFields:
		s = sp.fs.howSplit()
	default:
		s = "split at runs of spaces"
	}
	if sp.lead != "" {
		s = fmt.Sprintf("rows are the lines indented by %q, %s", sp.lead, s)
	}
	if sp.minK < sp.k {
		s += fmt.Sprintf("; rows have %d to %d cells", sp.minK, sp.k)
	}
	for i, w := range sp.words {
		if w > 0 {
			s += fmt.Sprintf("; cell %d split again at spaces into %d columns", i+1, w)
		}
	}
	return s
}

// compactRow is a row as the view shows it beside a line number: a bar
// table's cells joined by " | " and a tab table's by one tab, without the
// padding; any other line as it is.
func (sp *colSplit) compactRow(line string) string {
	switch sp.mode {
	case byBar, byTabRuns:
		f := sp.fields(line)
		if f == nil {
			return line
		}
		if sp.mode == byBar {
			return strings.Join(f, " | ")
		}
		return strings.Join(f, "\t")
	}
	return line
}

// sepStats are what detectSeparated counts over the first lines.
type sepStats struct {
	nonBlank int
	rules    int
	// per bar: lines with it, their cell counts (bordered or not), and
	// lines that start and end with it
	piped    map[string]int
	pipeW    map[string]map[int]int
	bordered map[string]int
	barRules map[string]bool // rule lines with the bar
	// lines with a tab; with the lead TAB: lines starting with one
	tabbed, tabLead int
	tabW, runW      map[int]int // cell counts at every tab and at runs of tabs, the lead TAB removed when all have it
	tabW0, runW0    map[int]int // the same with the lead kept
	// one-word lines, and their indentation
	oneWord int
	indents map[string]int
}

var bars = []string{"|", "│"}

func newSepStats() *sepStats {
	s := &sepStats{piped: map[string]int{}, pipeW: map[string]map[int]int{}, bordered: map[string]int{}, barRules: map[string]bool{},
		tabW: map[int]int{}, runW: map[int]int{}, tabW0: map[int]int{}, runW0: map[int]int{}, indents: map[string]int{}}
	for _, b := range bars {
		s.pipeW[b] = map[int]int{}
	}
	return s
}

// add counts one non-blank line.
func (s *sepStats) add(line string) {
	s.nonBlank++
	if isRule(line) {
		s.rules++
		for _, b := range bars {
			if strings.Contains(line, b) {
				s.barRules[b] = true
			}
		}
		return
	}
	for _, b := range bars {
		if strings.Contains(line, b) {
			s.piped[b]++
			t := trimBlank(line)
			if strings.HasPrefix(t, b) && strings.HasSuffix(t, b) && len(t) >= 2*len(b) {
				s.bordered[b]++
			}
		}
	}
	if strings.IndexByte(line, '\t') >= 0 {
		s.tabbed++
		if line[0] == '\t' {
			s.tabLead++
		}
		s.tabW0[strings.Count(line, "\t")+1]++
		s.runW0[len(splitTabRunsOf(line))]++
		if l := strings.TrimPrefix(line, "\t"); len(l) < len(line) {
			s.tabW[strings.Count(l, "\t")+1]++
			s.runW[len(splitTabRunsOf(l))]++
		}
	}
	t := trimBlank(line)
	if strings.IndexAny(t, " \t") < 0 {
		s.oneWord++
		s.indents[line[:len(line)-len(strings.TrimLeft(line, " \t"))]]++
	}
}

// modal is the most frequent count of m (the larger on a tie) and its
// lines.
func modal(m map[int]int) (k, n int) {
	for w, c := range m {
		if c > n || c == n && w > k {
			k, n = w, c
		}
	}
	return k, n
}

// raggedFrom reports whether the lines of m (cell count -> lines) make a
// table of at most k cells a row: 75% of the nonBlank lines have 2 to k
// cells, half of them exactly k.
func raggedFrom(m map[int]int, k, nonBlank int) (minK int, ok bool) {
	if k < 2 {
		return 0, false
	}
	in, minK := 0, k
	for w, c := range m {
		if w >= 2 && w <= k {
			in += c
			minK = min(minK, w)
		}
	}
	return minK, in*4 >= nonBlank*3 && m[k]*2 >= in
}

// detectSeparated finds a table of explicit separators (bars, tabs) or a
// list in the first 4,000 lines of sample; nil when there is none. Tabs
// split at every tab are left to detectColumns when every line agrees.
func detectSeparated(sample []byte) *colSplit {
	s := newSepStats()
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		s.add(line)
	})
	if s.nonBlank < 10 {
		return nil
	}
	rows := s.nonBlank - s.rules
	// Bars: 75% of the lines that are no rule have one, most of them the
	// same number of cells.
	for _, b := range bars {
		if s.piped[b]*4 < rows*3 {
			continue
		}
		sp := &colSplit{mode: byBar, sep: b, bordered: s.bordered[b]*10 >= s.piped[b]*9, barRules: s.barRules[b], headPos: -1}
		w := map[int]int{}
		firstLines(sample, func(pos int, line string) {
			if trimBlank(line) != "" {
				if f := sp.cells(line); f != nil {
					w[len(f)]++
				}
			}
		})
		k, _ := modal(w)
		minK, ok := raggedFrom(w, k, rows)
		if !ok || k > 4*maxColumns {
			continue
		}
		sp.k, sp.minK = k, minK
		if sp.emptyCells(sample) {
			continue // a graph of bars ("| * |") or a mark before a name ("  |libfoo"), not a table
		}
		sp.pipeHeader(sample)
		return sp
	}
	// Tabs: at every tab when the lines agree, else at runs of tabs;
	// rows may have fewer cells.
	if s.tabbed*4 >= s.nonBlank*3 {
		lead := ""
		tabW, runW := s.tabW0, s.runW0
		if s.tabLead*10 >= s.tabbed*9 {
			lead, tabW, runW = "\t", s.tabW, s.runW
		}
		order := []struct {
			mode splitMode
			w    map[int]int
		}{{byTab, tabW}, {byTabRuns, runW}}
		_, nTab := modal(tabW)
		_, nRun := modal(runW)
		if nRun > nTab {
			// More lines agree at runs of tabs: tab stops are layout
			// (a name padded to a stop by one tab or by two).
			order[0], order[1] = order[1], order[0]
		}
		for _, c := range order {
			k, n := modal(c.w)
			if k < 2 || k > 4*maxColumns {
				continue
			}
			minK, ok := raggedFrom(c.w, k, s.nonBlank)
			if n*4 >= s.nonBlank*3 && !ok {
				minK, ok = k, true
			}
			if ok {
				return &colSplit{mode: c.mode, k: k, minK: minK, lead: lead, headPos: -1}
			}
		}
	}
	return nil
}

// delimiters are the characters that may separate a table's cells with
// no padding (CSV, semicolon-separated values, colon-separated records
// such as /etc/passwd's), tried in this order.
var delimiters = []string{",", ";", ":"}

// clockRe matches a time of day (07:30:07, 9:05): a colon in it
// separates no cells.
var clockRe = regexp.MustCompile(`(^|[^0-9])[0-9]{1,2}:[0-9]{2}([^0-9]|$)`)

// detectDelimited finds a table whose cells are separated by one of the
// delimiters (read like a bar: cells trimmed of spaces and tabs), with or
// without a header row: checksec --format=csv's "Full RELRO,Canary
// found,NX enabled,…,/usr/bin/zstd", stat -c '%n,%F,%s,…'. Nine lines
// in ten (of the non-blank lines, 10 at least) split into the same number of cells,
// three or more, and more lines agree so than at runs of spaces (or as
// many, into more cells): the cells hold spaces ("Full RELRO", "regular
// file", a time "2026-04-27 20:14:33 +0000"), so the lines split at
// spaces disagree or split a cell in two; nine cells in ten have at most
// three words (not sentences with commas). A colon separates no cells in
// a text where half the lines hold a time of day (a table of times split
// at spaces), nor where half the colons are followed by a space: labels
// ("E: pkg: tag", "file:12: message", "52 ms: Scavenge"), not a
// record's fields.
func detectDelimited(sample []byte) *colSplit {
	spaceW := map[int]int{}
	nonBlank, clocks, colons, spaced := 0, 0, 0, 0
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		nonBlank++
		spaceW[len(splitSpaces(line))]++
		if clockRe.MatchString(line) {
			clocks++
		}
		colons += strings.Count(line, ":")
		spaced += strings.Count(line, ": ")
	})
	if nonBlank < 10 {
		return nil
	}
	spaceK, spaceN := modal(spaceW)
	for _, d := range delimiters {
		if d == ":" && (clocks*2 >= nonBlank || spaced*2 >= colons) {
			continue
		}
		sp := &colSplit{mode: byBar, sep: d, headPos: -1}
		w := map[int]int{}
		firstLines(sample, func(pos int, line string) {
			if trimBlank(line) != "" {
				w[len(sp.cells(line))]++
			}
		})
		k, n := modal(w)
		if d != ":" && quotedLines(sample, d) {
			// Quoted cells may hold the separator (text_csv.go): split
			// so when more lines agree.
			if _, qk, qn := quotedShare(sample, d); qn > n {
				k, n, sp.quoted = qk, qn, true
			}
		}
		if k < 3 || k > 4*maxColumns || n*10 < nonBlank*9 || n < spaceN || n == spaceN && k <= spaceK || sp.longCells(sample) {
			continue
		}
		sp.k, sp.minK = k, k
		if sp.emptyCells(sample) {
			continue
		}
		return sp
	}
	return nil
}

// longCells reports whether more than one cell in ten of the lines
// split has four words or more: sentences with commas, not a table's
// cells ("Full RELRO", "regular file", a time with its zone). Under a
// header row of names (headerCells), the cells of one column that holds
// sentences in most rows (a linter's message: bandit's "Use of assert
// detected. The enclosed code ..." beside its file, test id, severity
// and line) are that column's values, not a split sentence, and are not
// counted.
func (sp *colSplit) longCells(sample []byte) bool {
	cells, long := 0, 0
	var marks []bool
	var header []string
	perCol := map[int]int{}
	rows := 0
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		var cs []string
		if sp.quoted {
			marks = marks[:0]
			cs = quotedCellsMark(line, sp.sep, &marks)
		} else {
			cs = sp.cells(line)
		}
		if header == nil {
			header = cs
			if !headerCells(cs) {
				header = []string{}
			}
		}
		rows++
		for i, c := range cs {
			cells++
			// A quoted cell is one value, whatever its words.
			if (!sp.quoted || !marks[i]) && strings.Count(c, " ") >= 3 {
				long++
				perCol[i]++
			}
		}
	})
	if long*10 <= cells {
		return false
	}
	if len(header) >= 4 {
		// One column of sentences under a header of names.
		best := 0
		for _, n := range perCol {
			best = max(best, n)
		}
		if best*2 >= rows && (long-best)*10 <= cells {
			return false
		}
	}
	return true
}

// headerCells reports whether cells are a header row's: every cell a
// name (letters, digits, '_', '-', '.', at most 40 characters, starting
// with a letter), no two the same.
func headerCells(cells []string) bool {
	seen := map[string]bool{}
	for _, c := range cells {
		if c == "" || len(c) > 40 || seen[c] || !(c[0] >= 'a' && c[0] <= 'z' || c[0] >= 'A' && c[0] <= 'Z') {
			return false
		}
		seen[c] = true
		for _, r := range c {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
				return false
			}
		}
	}
	return len(cells) > 0
}

// detectList finds a list (one value a line) in the first 4,000 lines of
// sample: 75% of the non-blank lines (at least 10) are one word, and the
// text (when the sample is whole) does not end with 3 or more lines of
// several words; nil
// otherwise. A text that ends so (a failing tsc build: its errors, the
// files it read one a line, then its statistics) is a log that holds a
// list, not a list: its end and its other lines are what is asked, and
// a list's view shows neither (its values take their place).
func detectList(sample []byte, whole bool) *colSplit {
	s := newSepStats()
	trailing := 0 // lines of several words since the last one-word line
	textLines(sample, func(pos int, line string) {
		if pos >= 4000 {
			whole = false
			return
		}
		t := trimBlank(line)
		if t == "" {
			return
		}
		s.add(line)
		if strings.IndexAny(t, " \t") < 0 {
			trailing = 0
		} else {
			trailing++
		}
	})
	if s.nonBlank < 10 || s.oneWord*4 < s.nonBlank*3 {
		return nil
	}
	if whole && trailing >= 3 {
		return nil
	}
	// The indentation: the most frequent one, shortened until 90% of the
	// one-word lines start with it (" " of " |alt" beside "  name").
	lead, n := "", 0
	for in, c := range s.indents {
		if c > n || c == n && in < lead {
			lead, n = in, c
		}
	}
	for lead != "" {
		with := 0
		for in, c := range s.indents {
			if strings.HasPrefix(in, lead) {
				with += c
			}
		}
		if with*10 >= s.oneWord*9 {
			break
		}
		lead = lead[:len(lead)-1]
	}
	return &colSplit{mode: byLine, k: 1, minK: 1, lead: lead, headPos: -1}
}

// emptyCells reports whether half or more of the cells of the rows
// among the first 4,000 lines are empty, or (not bordered) the first
// cell of 90% of them: the bars are then marks, not separators.
func (sp *colSplit) emptyCells(sample []byte) bool {
	cells, empty, rows, firstEmpty := 0, 0, 0, 0
	firstLines(sample, func(pos int, line string) {
		f := sp.fields(line)
		if f == nil {
			return
		}
		rows++
		if f[0] == "" {
			firstEmpty++
		}
		for _, c := range f {
			cells++
			if c == "" {
				empty++
			}
		}
	})
	return 2*empty >= cells || !sp.bordered && 10*firstEmpty >= 9*rows
}

// pipeHeader takes the first row as the header when the next non-blank
// line is a rule (psql, Markdown, sqlite3 -table), and its cells have no
// digit-only names.
func (sp *colSplit) pipeHeader(sample []byte) {
	first, firstPos, ruleNext, done := []string(nil), -1, false, false
	textLines(sample, func(pos int, line string) {
		if done || trimBlank(line) == "" {
			return
		}
		if first == nil {
			if f := sp.fields(line); f != nil {
				first, firstPos = f, pos
			} else if !isRule(line) || pos > 20 {
				done = true // something else before the first row
			}
			return
		}
		ruleNext, done = isRule(line), true
	})
	if first == nil || !ruleNext || len(first) != sp.k {
		return
	}
	for _, h := range first {
		if h == "" {
			return
		}
	}
	sp.header, sp.headPos = first, firstPos
}

// factLine is what the table is, in one line of the text's facts: "a
// table of 410 rows, 8 columns (split at "|", …; 2 other lines)", "a list
// of 878 values (…)".
func (cp *colProfile) factLine() string {
	other := ""
	if cp.other > 0 {
		other = fmt.Sprintf("; %s other lines", commas(cp.other))
	}
	if cp.split.mode == byLine {
		return fmt.Sprintf("a list of %s values (%s%s)", commas(cp.rows), cp.split.howSplit(), other)
	}
	return fmt.Sprintf("a table of %s rows, %d columns (%s%s)", commas(cp.rows), cp.split.k, cp.split.howSplit(), other)
}

// detectWidth finds a table of fixed-width columns in the first 4,000
// lines of sample, where runs of spaces cannot tell the cells apart:
// empty cells (getconf -a: a name padded to a width, then its value or
// nothing) or cells of several words. A column starts where, in 98% of
// the non-blank lines, the character before is a space or past the
// line's end, in half of those with a character there the two before are
// spaces (padding, not the space between two words), and 30% of them
// have another character than a space. nil
// unless there are 2 columns or more, 90% of the non-blank lines (10
// at least) are rows (ASCII, no tab, a space before each start), and
// every column but the last is padded (cells of different lengths).
func detectWidth(sample []byte) *colSplit {
	var lines []string
	nonBlank := 0
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		nonBlank++
		for i := 0; i < len(line); i++ {
			if line[i] >= 0x80 || line[i] == '\t' {
				return
			}
		}
		lines = append(lines, line)
	})
	n := len(lines)
	if nonBlank < 10 || 10*n < 9*nonBlank {
		return nil
	}
	width := 0
	for _, l := range lines {
		width = max(width, len(l))
	}
	if width > 4000 {
		return nil
	}
	chars := make([]int, width+1) // lines with a character other than a space at each position
	for _, l := range lines {
		for i := 0; i < len(l); i++ {
			if l[i] != ' ' {
				chars[i]++
			}
		}
	}
	gap := func(p int) bool { return 50*chars[p] <= n }
	// wide counts the lines with two spaces (or the end) before p: a
	// column's cells are padded, words of a sentence are not.
	wide := func(p int) bool {
		w, at := 0, 0
		for _, l := range lines {
			if p < len(l) && l[p] != ' ' {
				at++
				if p >= 2 && l[p-1] == ' ' && l[p-2] == ' ' {
					w++
				}
			}
		}
		return 2*w >= at
	}
	// The first position where three lines in ten have a character
	// starts a column however few spaces are before it (a gap still):
	// a table indented by one space (gcc's -ftime-report, " phase
	// setup   :   0.00 ( 0%)") has its names there.
	first := 0
	for first < width && 10*chars[first] < 3*n {
		first++
	}
	var starts []int
	for p := 0; p < width; p++ {
		if (p == 0 || gap(p-1) && (p == first || wide(p))) && !gap(p) && 10*chars[p] >= 3*n {
			starts = append(starts, p)
		}
	}
	if len(starts) < 2 || len(starts) > maxColumns {
		return nil
	}
	sp := &colSplit{mode: byWidth, starts: starts, k: len(starts), minK: len(starts), headPos: -1}
	rows := 0
	// Each column but the last is padded: its cells have different
	// lengths ("npm " before every line of a log is no column).
	lens := make([]map[int]bool, len(starts)-1)
	for i := range lens {
		lens[i] = map[int]bool{}
	}
	for _, l := range lines {
		f := sp.cells(l)
		if f == nil {
			continue
		}
		rows++
		for i := range lens {
			lens[i][len(f[i])] = true
		}
	}
	if 10*rows < 9*nonBlank {
		return nil
	}
	for _, m := range lens {
		if len(m) < 2 {
			return nil
		}
	}
	return sp
}
