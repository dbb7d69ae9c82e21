package view

import (
	"bytes"
	"fmt"
	"strings"
)

// Sections of a text: a heading line and the entries under it.
//
// Reports group their lines under headings: node --prof-process's
// "[JavaScript]:" and "[C++]:" tables, sysbench's "SQL statistics:",
// perf trace -s's one section per thread ("cc1 (30391), 3870 events,
// 7.7%", a blank line, then its table of syscalls). "How many entries
// does the [C++] section list?" is a count no line states and no
// template gives (the rows of all the sections share one template), so
// the view states every section's count of entries, named by its
// heading.
//
// A heading is either a line that ends with ':' or is a bracketed name
// ("[Summary]", "== Results ==") followed directly by its lines, or a
// line alone between blank lines followed by a block, when at least
// two such lone lines share a form (digits aside, the words after the
// first: "<name> (<n>), <n> events, <n>%") and each is followed by a
// block of at least 3 lines. A section runs to the next blank line (one
// blank line right after the heading is allowed) or the next heading.
// Its entries are its lines but the column headers before its first
// line with a digit (when most of its lines have one) and rule lines
// ("-----").
//
// Sections are stated when their entries are at least a fifth of the
// non-blank lines or 4 per section on average. The count is exact over the whole text. Memory is bounded by
// maxSections sections kept (past them, sections are counted).

const (
	maxSections      = 2000 // sections kept with their heading and count
	maxSectionHead   = 80   // a heading longer than this is no heading
	maxColonHeadings = 60   // more colon headings than this (in the first 4,000 lines) are structured data (YAML), not a report's sections
	sectionChunk     = 10   // sections per candidate line group
	firstSections    = 12   // sections offered at PrioRare; the rest later
)

// textSection is one section: its heading and its entries.
type textSection struct {
	pos     int    // line of its heading
	head    string // the heading, trimmed
	entries int    // its entries
}

// sectionStats are the sections of a text.
type sectionStats struct {
	n        int            // sections with at least one entry
	kept     []textSection  // the first maxSections of them
	byWord   map[string]int // sections by the first word of their heading
	entries  int            // entries in all sections
	prose    int            // lines of prose (a sentence: 6 words or more, no digit)
	loneForm string         // the form of the lone headings, or ""
}

// sectionHeading reports whether trimmed line t is a heading by its
// form: "Name:" (a colon at the end, a letter, no ": " inside that
// would make it a key/value line, at most maxSectionHead characters) or
// "[Name]" / "[Name]:" / "== Name ==".
func sectionHeading(t string) bool {
	if len(t) < 2 || len(t) > maxSectionHead || !hasLetter(t) {
		return false
	}
	if isDigitByte(t[0]) {
		return false // "1 errors in context 1 of 95:" is a record's first line
	}
	switch {
	case t[len(t)-1] == ':':
		body := t[:len(t)-1]
		if strings.Contains(body, ": ") || strings.HasSuffix(body, ":") || strings.Contains(body, "://") {
			return false
		}
		// "[JavaScript]:", "SQL statistics:", "Latency (ms):"; not a
		// path ("./dir:" is a record of ls -lR) nor a log line.
		return !strings.ContainsAny(body[:1], "./-*#<>|")
	case t[0] == '[' && t[len(t)-1] == ']':
		return !strings.Contains(t[1:len(t)-1], "[") && !strings.ContainsAny(t, "0123456789")
	case strings.HasPrefix(t, "== ") && strings.HasSuffix(t, " =="):
		return true
	}
	return false
}

// loneForm is the form of a lone line for grouping lone headings: its
// words after the first, runs of digits as one 0.
func loneForm(t string) string {
	f := strings.Fields(t)
	if len(f) < 2 {
		return ""
	}
	var b strings.Builder
	for _, w := range f[1:] {
		b.WriteByte(' ')
		digit := false
		for i := 0; i < len(w); i++ {
			c := w[i]
			if isDigitByte(c) {
				if !digit {
					b.WriteByte('0')
				}
				digit = true
				continue
			}
			digit = false
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ruleLine reports whether trimmed t is a rule: only '-', '=', '_', '+'
// and spaces, at least 3 of them.
func ruleLine(t string) bool {
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '-', '=', '_', '+':
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// detectSections finds the sections of a text (nil when it has fewer
// than 2 with entries). A first look at the first 4,000 lines decides
// whether there are headings at all; only then is the whole text read.
func detectSections(data []byte, kind string) *sectionStats {
	switch kind {
	case textPlain, textBlocks, textReport:
	default:
		return nil
	}
	colon := 0
	lone := map[string]int{}
	// A lone line (blank before and after) followed by a block of 3
	// lines or more: counted by form; prev2/prev1 are the lines before.
	var prev1 string
	prev2Blank, prev1Blank := true, true
	blockAfter := 0 // lines of the block after the lone line being followed
	var pending string
	sampleLines(data, func(line string) {
		t := strings.TrimSpace(line)
		blank := t == ""
		if !blank && prev1Blank && sectionHeading(t) {
			colon++
		}
		// lone: prev1 blank, prev2 a line with blank before it
		if pending != "" {
			if blank {
				if blockAfter > 0 {
					if blockAfter >= 3 {
						lone[pending]++
					}
					pending, blockAfter = "", 0
				}
			} else {
				blockAfter++
			}
		}
		if blank && !prev1Blank && prev2Blank && pending == "" {
			if f := loneForm(strings.TrimSpace(prev1)); f != "" && !sectionHeading(strings.TrimSpace(prev1)) && startsWithLetter(strings.TrimSpace(prev1)) {
				pending = f
			}
		}
		prev2Blank = prev1Blank
		prev1, prev1Blank = line, blank
	})
	if pending != "" && blockAfter >= 3 {
		lone[pending]++
	}
	form := ""
	for f, n := range lone {
		if n >= 2 && (form == "" || n > lone[form] || n == lone[form] && f < form) {
			form = f
		}
	}
	if (colon < 2 || colon > maxColonHeadings) && form == "" {
		return nil
	}
	useColon := colon >= 2 && colon <= maxColonHeadings
	return readSections(data, useColon, form)
}

// readSections reads every line of data into its sections: colon
// headings when useColon, lone headings of form loneFm when not "".
func readSections(data []byte, useColon bool, loneFm string) *sectionStats {
	ss := &sectionStats{byWord: map[string]int{}, loneForm: loneFm}
	var cur *textSection
	digits, nonBlank := 0, 0
	lead := 0           // lines before its first line with a digit (column headers)
	rules := 0          // rule lines
	blankAfter := false // the one blank line allowed right after the heading
	noted := false      // a blank line after the heading's notes was allowed
	// headInd, entInd: the indentation of the heading and of its first
	// entry; a line back at the heading's indentation or less after
	// deeper entries ends the section (sysbench's "queries
	// performed:" and its 4 indented lines, then "transactions:").
	headInd, entInd := 0, -1
	closeSec := func() {
		if cur == nil {
			return
		}
		e := nonBlank - rules
		if digits >= 2 && 2*digits >= nonBlank && lead <= 6 {
			e -= lead
		}
		if e > 0 {
			cur.entries = e
			ss.n++
			ss.entries += e
			if w := strings.Fields(cur.head); len(w) > 0 && hasLetter(w[0]) {
				ss.byWord[strings.TrimSuffix(w[0], ":")]++
			}
			if len(ss.kept) < maxSections {
				ss.kept = append(ss.kept, *cur)
			}
		}
		cur = nil
	}
	open := func(pos int, head string, ind int) {
		closeSec()
		cur = &textSection{pos: pos, head: head}
		digits, nonBlank, lead, rules, blankAfter, noted = 0, 0, 0, 0, false, false
		headInd, entInd = ind, -1
	}
	// Lone headings are known one line late (the blank after them):
	// loneAt is the lone line seen, waiting for its blank.
	prevBlank := true
	var loneCand string
	loneAt, loneInd := -1, 0
	pos, blanks := 0, 0
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		tb := bytes.TrimSpace(line)
		blank := len(tb) == 0
		ind := len(line) - len(bytes.TrimLeft(line, " \t"))
		if blank {
			blanks++
		} else if prose(tb) {
			ss.prose++
		}
		switch {
		case blank:
			if loneAt >= 0 && loneAt == pos-1 {
				// the lone candidate is followed by a blank: a heading
				// of the form?
				if loneForm(loneCand) == loneFm {
					open(loneAt, loneCand, loneInd)
					blankAfter = true
				}
				loneAt = -1
			} else if cur != nil {
				switch {
				case nonBlank == 0 && !blankAfter:
					blankAfter = true
				case 2*digits < nonBlank && rules == 0 && !noted && nonBlank <= 4:
					// Notes under the heading (node's "Note: ..."
					// over its heavy profile): the section goes on
					// over the next block, the notes not counted.
					noted = true
					digits, nonBlank, lead, entInd = 0, 0, 0, -1
				default:
					closeSec()
				}
			}
		default:
			// Only a line that may be a heading is made a string.
			var t string
			isHead := false
			if len(tb) <= maxSectionHead {
				t = string(tb)
				isHead = useColon && sectionHeading(t)
			}
			if isHead {
				open(pos, t, ind)
				loneAt = -1
				break
			}
			if loneFm != "" && prevBlank && t != "" && startsWithLetter(t) && (cur == nil || nonBlank > 0) {
				// may be a lone heading: decided at the next line
				if cur != nil {
					closeSec()
				}
				loneCand, loneAt, loneInd = t, pos, ind
				break
			}
			if loneAt >= 0 {
				loneAt = -1 // the line after it is not blank: no lone heading
			}
			if cur != nil && entInd > headInd && ind <= headInd {
				closeSec()
			}
			if cur != nil {
				nonBlank++
				s := t
				if s == "" {
					s = string(tb)
				}
				switch {
				case ruleLine(s):
					rules++
				case strings.ContainsAny(s, "0123456789"):
					digits++
					if entInd < 0 {
						entInd = ind // the first data line (column headers may be indented otherwise)
					}
				case digits == 0:
					lead++
				}

			}
		}
		prevBlank = blank
		pos++
	}
	closeSec()
	if ss.n < 2 || 5*ss.entries < pos-blanks && ss.entries < 4*ss.n || 4*ss.prose > pos-blanks {
		// Sections of fewer than 4 entries on average that hold less
		// than a fifth of the lines are a report's few notes (lynis'
		// "Steps:" of 3 lines), not its structure: their lines are
		// shown or counted otherwise. In a text of prose (a quarter
		// of its lines or more are sentences: a man page, go doc) a
		// line ending in ':' heads an example, not a section.
		return nil
	}
	return ss
}

// sectionsHead is the head of the sections' part of the view.
func (ss *sectionStats) head(shown int) string {
	return fmt.Sprintf("sections, a heading and the lines under it up to a blank line or the next heading (showing %s of %s sections, %s lines in all; exact counts of each one's lines, its column headers and rule lines not counted), line<TAB>heading: lines:\n",
		commas(shown), commas(ss.n), commas(ss.entries))
}

// wordLine is the census of the sections by the first word of their
// heading ("bash 34, readlink 5, ..."), or "" when no word heads two.
func (ss *sectionStats) wordLine() string {
	ws, _ := byCount(ss.byWord)
	if len(ws) == 0 || ws[0].n < 2 || len(ws) == ss.n {
		return ""
	}
	list, _, more, rest := topCounts(ss.byWord, 16, 60)
	s := fmt.Sprintf("  sections by their heading's first word (exact counts of sections): %s", list)
	if more > 0 {
		s += fmt.Sprintf("; %s other words in %s sections", commas(more), commas(rest))
	}
	return s
}

// sectionCandidates offers the sections: the census by first word and
// the first firstSections sections at PrioSecond (after the rare lines
// and templates: at 2,000 tokens they cost rows), the others at
// PrioSpread.
func (tc *textCands) sectionCandidates() {
	ss := tc.sections
	if ss == nil {
		return
	}
	sec := tc.sec[tsSections]
	if w := ss.wordLine(); w != "" {
		tc.v.Add(Candidate{Section: sec, Key: -1, Record: -1, Prio: PrioSecond, Reason: "section words", Text: w})
	}
	for i, s := range ss.kept {
		pr := PrioSecond
		if i >= firstSections {
			pr = PrioSpread
		}
		tc.v.Add(Candidate{Section: sec, Key: s.pos, Record: -1, Prio: pr, Reason: "section",
			Text: fmt.Sprintf("  %d\t%s: %s lines", s.pos, cutLine(strings.TrimSuffix(s.head, ":")), commas(s.entries))})
	}
}

// sectionsHeadOf is the section head for the chosen candidates cs.
func (tc *textCands) sectionsHeadOf(cs []Candidate) string {
	n := 0
	for _, c := range cs {
		if c.Reason == "section" {
			n++
		}
	}
	return tc.sections.head(n)
}

// prose reports whether trimmed line t reads as a sentence: 6 words or
// more and no digit.
func prose(t []byte) bool {
	words, in := 0, false
	for _, c := range t {
		if isDigitByte(c) {
			return false
		}
		sp := c == ' ' || c == '\t'
		if !sp && !in {
			words++
		}
		in = !sp
	}
	return words >= 6
}

// startsWithLetter reports whether t starts with a letter: a lone
// heading is a name ("cc1 (30391), ..."), not a comment ("/* XXX 4
// bytes hole */") or markup.
func startsWithLetter(t string) bool {
	return t != "" && (t[0]|0x20 >= 'a' && t[0]|0x20 <= 'z')
}
