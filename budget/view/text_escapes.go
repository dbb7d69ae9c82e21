package view

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Terminal escapes.
//
// A tool run on a terminal (under script(1), or told to use colours)
// writes control sequences among its words: colours around a status
// ("[ ESC[1;32mOK ESC[0;39m ]"), cursor moves that align a column of
// statuses ("Checking for prerequisitesESC[31C[ OK ]" of rkhunter and
// lynis), titles and hyperlinks (OSC). Read as they are, the sequences
// glue themselves to the words ("mOK", "31C["): the templates split on
// them, a status is no word of its own, a check's label runs into its
// status. So the view reads such a text as a terminal shows it: every
// sequence removed, a cursor move forward by n columns (ESC[nC) as n
// spaces; lines keep their positions (no sequence holds a newline). Its
// first line says so, and every query it prints removes them the same
// way first (jqEscapes), so that what a query returns is what the view
// showed.

// maxCursorForward caps the spaces written for one cursor move.
const maxCursorForward = 256

// hasTermEscapes reports whether the text is written for a terminal:
// of the first 4,000 lines (sampleLines), at least 3 and one in ten of
// those not blank hold a control sequence (ESC followed by '[' or ']').
// A few sequences in a long text (php -i's banner of a module in bold)
// change little of what the view reads, while every query would carry
// their removal.
func hasTermEscapes(data []byte) bool {
	if bytes.IndexByte(data[:min(len(data), 1<<20)], 0x1b) < 0 {
		return false
	}
	with, nonBlank := 0, 0
	sampleLines(data, func(line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		nonBlank++
		if strings.Contains(line, "\x1b[") || strings.Contains(line, "\x1b]") {
			with++
		}
	})
	return with >= 3 && 10*with >= nonBlank
}

// stripEscapes returns data with its terminal control sequences removed
// and the number of sequences removed. At an ESC: '[' starts a CSI
// sequence (parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, a
// final byte 0x40-0x7E, removed as far as it goes on its line), a
// cursor move forward by n columns (ESC[nC, n digits or none for 1) is
// written as n spaces (at most maxCursorForward); ']' starts an OSC
// sequence, removed up to BEL or ESC '\' (both removed) or up to the
// next ESC or the end of its line; '(' or ')' and the character after
// them choose a character set; another ESC ends it (that ESC starts a
// sequence of its own); any other character after it is removed with
// it. No newline is removed, so lines keep their positions; a line's
// final CR stays (one CR before it, left by a sequence removed, goes:
// the lines of a text lose one final CR). jqEscapes is the same rule
// as one regular expression.
func stripEscapes(data []byte) ([]byte, int) {
	out := make([]byte, 0, len(data))
	n := 0
	one := cursorOne(data)
	for len(data) > 0 {
		line, rest, nl := data, []byte(nil), false
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, rest, nl = data[:j], data[j+1:], true
		}
		if bytes.IndexByte(line, 0x1b) < 0 {
			out = append(out, line...)
		} else {
			cr := bytes.HasSuffix(line, []byte{'\r'})
			var k int
			out, k = stripLineEscapes(out, bytes.TrimSuffix(line, []byte{'\r'}), one)
			n += k
			if cr {
				out = append(bytes.TrimSuffix(out, []byte{'\r'}), '\r')
			}
		}
		if nl {
			out = append(out, '\n')
		} else if len(line) > 0 && (len(out) == 0 || out[len(out)-1] == '\n') {
			// A last line without a newline that was only sequences
			// stays a line (blank), as jqEscapes makes it: the text
			// keeps its number of lines.
			out = append(out, '\n')
		}
		data = rest
	}
	return out, n
}

// cursorSteps is the number of spaces a cursor move forward by the
// columns written in digits stands for: at least 1, at most
// maxCursorForward (a number too long to read is the most).
func cursorSteps(digits []byte) int {
	k := 0
	for _, c := range digits {
		k = min(10*k+int(c-'0'), 10*maxCursorForward)
	}
	return min(max(k, 1), maxCursorForward)
}

// cursorOne reports whether data's cursor moves forward, written as
// their spaces, would more than double it (10 MB of "ESC[999Cx" lines):
// then each is one space, so that what the view reads follows the
// input's size (jqEscapes does the same).
func cursorOne(data []byte) bool {
	extra := 0
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("\x1b["))
		if j < 0 {
			break
		}
		i += j + 2
		k := i
		for k < len(data) && isDigitByte(data[k]) {
			k++
		}
		if k < len(data) && data[k] == 'C' {
			extra += cursorSteps(data[i:k]) - (k + 1 - (i - 2))
		}
	}
	return extra > len(data)
}

// stripLineEscapes appends data (one line without its newline) to out
// with its sequences removed (stripEscapes), a cursor move as one space
// when one; it returns out and the number of sequences.
func stripLineEscapes(out, data []byte, one bool) ([]byte, int) {
	n := 0
	// width is the length of the character at j (past the end: 0).
	width := func(j int) int {
		if j >= len(data) {
			return 0
		}
		_, w := utf8.DecodeRune(data[j:])
		return w
	}
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], 0x1b)
		if j < 0 {
			out = append(out, data[i:]...)
			break
		}
		out = append(out, data[i:i+j]...)
		i += j
		n++
		if i+1 >= len(data) {
			i++
			continue
		}
		switch data[i+1] {
		case '[':
			j := i + 2
			for j < len(data) && data[j] >= 0x30 && data[j] <= 0x3f {
				j++
			}
			params := data[i+2 : j]
			for j < len(data) && data[j] >= 0x20 && data[j] <= 0x2f {
				j++
			}
			if j < len(data) && data[j] >= 0x40 && data[j] <= 0x7e {
				if data[j] == 'C' && j == i+2+len(params) && allDigits(params) {
					k := cursorSteps(params)
					if one {
						k = 1
					}
					out = append(out, bytes.Repeat([]byte{' '}, k)...)
				}
				j++
			}
			i = j
		case ']':
			j := i + 2
			for j < len(data) && data[j] != 0x07 && data[j] != 0x1b {
				j++
			}
			switch {
			case j < len(data) && data[j] == 0x07:
				j++
			case j+1 < len(data) && data[j] == 0x1b && data[j+1] == '\\':
				j += 2
			}
			i = j
		case '(', ')':
			i += 2 + width(i+2)
		case 0x1b:
			i++
		default:
			i += 1 + width(i+1)
		}
	}
	return out, n
}

// allDigits reports whether b is ASCII digits only (or empty).
func allDigits(b []byte) bool {
	for _, c := range b {
		if !isDigitByte(c) {
			return false
		}
	}
	return true
}

// jqEscapesRE is stripEscapes's rule as one regular expression, its
// branches in the order stripEscapes tries them at an ESC (the first
// that matches wins).
const jqEscapesRE = `\u001b\\[(?<n>[0-9]*)C|\u001b\\[[0-?]*[ -/]*[@-~]?|\u001b\\][^\u0007\u001b]*(\u0007|\u001b\\\\)?|\u001b[()].?|\u001b[^\u001b]?`

// jqEscapes is the jq filter (over the lines of the text, as compact
// artifact query reads text) that removes terminal control sequences as
// stripEscapes does (then, in a line that had one, a final CR, as the
// lines of the text lose it), followed by " | "; "" when the view read
// the text as it is.
func jqEscapes(on, one bool) string {
	if !on {
		return ""
	}
	spaces := `" " * ([(.n | if . == "" then 1 else tonumber end), 1] | max | [., ` + strconv.Itoa(maxCursorForward) + `] | min)`
	if one {
		spaces = `" "`
	}
	return `map(if test("\u001b") then gsub("` + jqEscapesRE + `"; if .n then ` + spaces + ` else "" end) | sub("\r$"; "") else . end) | `
}
