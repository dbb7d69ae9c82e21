package view

import (
	"fmt"
	"strings"
)

// Records led by their indentation.
//
// Many texts are a list of entries, each a line at one indentation whose
// next line is indented deeper, and the deeper lines below it: node
// --v8-options ("  --hard-abort (abort by crashing)" then "        type:
// bool  default: ..."), gdb's bt full ("#151 0x... in parse_value (...)
// at crash.c:58" then its locals), a help text's options. Its entries
// may sit inside one blank-line block with a preamble before them (so
// that "2 blank-line-separated blocks" of 7 and 1,365 lines says
// nothing), at an indentation other than column 0 (detectIndentRecords
// reads only column 0), and among lines of another kind at the same
// indentation (gdb's registers after the frames, v8's "Options:"
// heading). So a record is told by three things, each visible on its
// first line and the next: the indentation of its first line, the lead
// form of that line's first token (its leading punctuation and whether a
// digit or a letter follows: "--a" of "--hard-abort", "#0" of "#151",
// "a" of a word), and a next line indented deeper. Lines at that
// indentation or less that start no record are no record's (a heading, a
// register); the deeper lines after them are no record's either.
//
// The same form names the record: its first token ("--hard-abort",
// "#151"), listed with its position for a lookup by name.
//
// A severity word inside a record's first line of the common form is a
// word of its description ("--abort-on-uncaught-exception (abort program
// (dump core) when ...)"), not the line's level, unless it marks the line
// (proseMarkerPattern: "error: ...", "Error:"): a text of such records
// is a listing, not a log.

// leadForm is what starts a record of a text of records led by their
// indentation.
type leadForm struct {
	indent int    // blanks (spaces or tabs) before a record's first line
	form   string // the lead form of its first token (leadOf)
	// word is the first word every record's first line has, or "": a
	// lead form alone also starts lines of no record (dumpe2fs's
	// "Inode count:  38400" at column 0 before its "Group 0: (Blocks
	// 1-8192)" records), a word of letters tells them apart.
	word string
}

// maxLeadPunct bounds the leading punctuation a lead form keeps.
const maxLeadPunct = 4

// isASCIIPunct reports whether c is ASCII punctuation.
func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// lineIndent is the number of blanks (spaces or tabs) a line starts with.
func lineIndent(line string) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

// leadOf is the lead form of a line without its indentation: its
// leading ASCII punctuation (at most maxLeadPunct bytes) and "0" when a
// digit follows, "a" when anything else (a letter) does; "" when the
// punctuation is longer or nothing follows it.
func leadOf(t string) string {
	i := 0
	for i < len(t) && isASCIIPunct(t[i]) {
		i++
	}
	if i > maxLeadPunct || i >= len(t) || t[i] == ' ' || t[i] == '\t' {
		return ""
	}
	if isDigitByte(t[i]) {
		return t[:i] + "0"
	}
	return t[:i] + "a"
}

// isLead reports whether line (not blank) is at the record's indentation
// with its lead form.
func (lf *leadForm) isLead(line string) bool {
	d := lineIndent(line)
	return d == lf.indent && leadOf(line[d:]) == lf.form && (lf.word == "" || firstWord(line[d:]) == lf.word)
}

// recordWord is the first word of t (a line without its indentation) when
// it is a word of letters of two or more, else "".
func recordWord(t string) string {
	w := firstWord(t)
	if len(w) < 2 || !letters(w) {
		return ""
	}
	return w
}

// deeper reports whether next is a non-blank line indented deeper than a
// record's first line.
func (lf *leadForm) deeper(next string) bool {
	d := lineIndent(next)
	return d > lf.indent && d < len(next)
}

// leadRecordMin: at least this many records, their first lines at least
// 90% of the lines of their form, the records (first lines and the
// deeper lines below them) at least 60% of the non-blank lines.
const leadRecordMin = 5

// detectLeadRecords finds the records led by their indentation of a text
// (of kind) from its first 4,000 lines, or nil: of the lines of one
// indentation and lead form, those whose next line is deeper; the
// indentation and form with the most such lines.
func detectLeadRecords(data []byte, kind string) *leadForm {
	switch kind {
	case textFields, textGoTest, textTAP, textGoJSON, textCompile, textLog, textReport, textCommits, textDiff:
		return nil
	}
	var lines []string
	sampleLines(data, func(line string) { lines = append(lines, line) })
	total, followed := map[leadForm]int{}, map[leadForm]int{}
	for i, l := range lines {
		d := lineIndent(l)
		if d == len(l) {
			continue
		}
		k := leadForm{indent: d, form: leadOf(l[d:])}
		if k.form == "" {
			continue
		}
		deeper := i+1 < len(lines) && k.deeper(lines[i+1])
		total[k]++
		if deeper {
			followed[k]++
		}
		if w := recordWord(l[d:]); w != "" {
			kw := k
			kw.word = w
			total[kw]++
			if deeper {
				followed[kw]++
			}
		}
	}
	// Of the indentations and forms whose lines are followed by a
	// deeper one nine times in ten, the one with the most; when no
	// form is, of the forms with their first word.
	var best leadForm
	n := 0
	for _, words := range []bool{false, true} {
		for k, c := range followed {
			if (k.word != "") != words || c < leadRecordMin || 10*c < 9*total[k] {
				continue
			}
			if c > n || c == n && (k.indent < best.indent || k.indent == best.indent && (k.form < best.form || k.form == best.form && k.word < best.word)) {
				best, n = k, c
			}
		}
		if n > 0 {
			break
		}
	}
	if n == 0 {
		return nil
	}
	// The lines the records hold.
	nonBlank, in, recs := 0, 0, 0
	inRec := false
	for i, l := range lines {
		d := lineIndent(l)
		if d == len(l) {
			continue
		}
		nonBlank++
		switch {
		case best.isLead(l) && i+1 < len(lines) && best.deeper(lines[i+1]):
			inRec = true
			recs++
		case d <= best.indent:
			inRec = false
		}
		if inRec {
			in++
		}
	}
	if 10*in < 6*nonBlank {
		return nil
	}
	return &best
}

// leadHeader is the jq test of a line that may start a record (its
// indentation and lead form), as a regular expression.
func (lf *leadForm) leadRE() string {
	var b strings.Builder
	b.WriteString("^")
	if lf.indent > 0 {
		fmt.Fprintf(&b, `[ \t]{%d}`, lf.indent)
	}
	p := lf.form[:len(lf.form)-1]
	for i := 0; i < len(p); i++ {
		if strings.IndexByte(`\.+*?()|[]{}^$`, p[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(p[i])
	}
	if lf.word != "" {
		b.WriteString(lf.word + `(\s|$)`) // letters only: nothing to quote
		return b.String()
	}
	if lf.form[len(lf.form)-1] == '0' {
		b.WriteString(`[0-9]`)
	} else {
		b.WriteString(`[^\s!-@\[-` + "`" + `{-~]`)
	}
	return b.String()
}

// headerQuery is the jq of every record's first line with its number:
// a line of the lead form whose next line is deeper.
func (lf *leadForm) headerQuery() string {
	return fmt.Sprintf(`. as $l | range(length) | select(($l[.] | test(%s)) and (($l[. + 1] // "") | test(%s))) | "\(.)\t\($l[.])"`,
		jqString(lf.leadRE()), jqString(lf.deeperRE()))
}

// deeperRE is the regular expression of a line deeper than a record's
// first line (deeper's test).
func (lf *leadForm) deeperRE() string {
	return fmt.Sprintf(`^[ \t]{%d,}\S`, lf.indent+1)
}

// unit is how the view names the records.
func (lf *leadForm) unit() string {
	where := "at column 0"
	if lf.indent > 0 {
		where = fmt.Sprintf("indented %d", lf.indent)
	}
	if lf.word != "" {
		return fmt.Sprintf("records (each a line %s starting with %q whose next line is indented deeper, and the deeper lines below it)", where, lf.word)
	}
	return fmt.Sprintf("records (each a line %s starting like %q whose next line is indented deeper, and the deeper lines below it)", where, lf.example())
}

// example writes the lead form as the view names it: "--x" for "--a",
// "#N" for "#0".
func (lf *leadForm) example() string {
	p := lf.form[:len(lf.form)-1]
	if lf.form[len(lf.form)-1] == '0' {
		return p + "N"
	}
	return p + "x"
}

// sevExempt reports whether a severity word in line is a word of a
// record's first line (its description), not the line's level: the line
// has the records' indentation and lead form, the line after it (next)
// is deeper, and the line has no marker. A line of the lead form with
// no deeper line after it starts no record: its severity word counts.
func (lf *leadForm) sevExempt(line, next string) bool {
	return lf != nil && strings.TrimSpace(line) != "" && lf.isLead(line) && lf.deeper(next) && !proseRe.MatchString(line)
}
