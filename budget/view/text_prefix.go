package view

import (
	"bytes"
	"strings"
)

// A constant line prefix.
//
// Some tools write the same prefix before every line: valgrind its
// process id ("==11139== "), kubectl logs --prefix and stern the pod
// ("[pod/web-7/app] "), docker compose the container ("web-1  | "). The
// prefix says nothing line by line and hides the text's structure: a
// line that is only the prefix is a blank line between records, the
// words after it are the template. When 98% of the non-blank lines
// among the first 4,000 (and 20 at least) start with the same prefix,
// the view reads the text with the prefix removed (linePrefix), says so
// in its first line, and every query it prints removes it the same way
// first (jqPrefix), so that positions and lines agree with what it
// shows.

// prefixEnds are what may end a line prefix (within its first 64
// bytes), after a word of at least two characters: a bar between spaces
// ("web-1  | "), a closing bracket and a space ("[pod/web-7] "), a colon
// after words ("import time: " of python -X importtime, "debug1: " of
// ssh -v), else the first space ("==11139== ").
var prefixEnds = []string{" | ", "] ", "> ", ": ", " "}

// linePrefix is the constant prefix of the lines of data, or "". A
// prefix has a character of a frame ('=', a bracket, a bar, '#', '@'):
// a plain word ("INFO ", a program's name "update-alternatives ") is a
// level or the first word of a template, not a prefix; and it is not a
// location, a time, a number or a list mark.
func linePrefix(data []byte) string {
	cand := ""
	n, with := 0, 0
	sampleLines(data, func(line string) {
		t := strings.TrimRight(line, " ")
		if t == "" {
			return
		}
		n++
		if n == 1 {
			cand = prefixCandidate(line)
		}
		if cand != "" && (strings.HasPrefix(line, cand) || t == strings.TrimRight(cand, " ")) {
			with++
		}
	})
	if cand == "" || with < 20 || 50*with < 49*n {
		return ""
	}
	return cand
}

// prefixCandidate is the prefix a line may share with the others: its
// start up to the first of prefixEnds, when that is a prefix by the
// rules of linePrefix.
func prefixCandidate(line string) string {
	best := -1
	end := ""
	for _, e := range prefixEnds {
		if e == " " && best >= 0 {
			break // a frame's end first ("web-1  | "), else the first space
		}
		if i := strings.Index(line, e); i >= 2 && i < 64 && (best < 0 || i < best) {
			best, end = i, e
		}
	}
	if best < 0 {
		return ""
	}
	p := line[:best] + end
	word := strings.TrimSpace(strings.TrimRight(p, "|>] "))
	if len(word) < 2 || strings.ContainsAny(word[:1], "+-*#") {
		return "" // a list mark, a diff's or a shell trace's sign
	}
	if end == ": " {
		// A label of words before a colon: not a level ("error: ",
		// "note: "), which is what the lines say, not a frame.
		if !labelWords(strings.TrimSuffix(word, ":")) || lineSeverity(p) != 0 {
			return ""
		}
	} else if !strings.ContainsAny(p, "=[]|<>()#@{}") {
		return ""
	}
	if lineTime(line) != "" || hasLocationPrefix(line) || isDigitByte(word[0]) && end == " " {
		return ""
	}
	if _, _, _, ok := location(line); ok {
		return ""
	}
	return p
}

// stripPrefix returns data with prefix removed from the start of every
// line that has it; a line that is the prefix without its trailing
// spaces becomes empty. Lines keep their positions.
func stripPrefix(data []byte, prefix string) []byte {
	out := make([]byte, 0, len(data))
	bare := []byte(strings.TrimRight(prefix, " "))
	p := []byte(prefix)
	for len(data) > 0 {
		line := data
		var rest []byte
		nl := false
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, rest, nl = data[:j], data[j+1:], true
		}
		cr := bytes.HasSuffix(line, []byte{'\r'})
		body := bytes.TrimSuffix(line, []byte{'\r'})
		switch {
		case bytes.Equal(bytes.TrimRight(body, " "), bare):
			body = nil
		case bytes.HasPrefix(body, p):
			body = body[len(p):]
		}
		out = append(out, body...)
		if cr {
			out = append(out, '\r')
		}
		if nl {
			out = append(out, '\n')
		}
		data = rest
	}
	return out
}

// jqPrefix is the jq filter (over the lines of the text, as compact
// artifact query reads text) that removes the prefix the view read the
// text without, followed by " | "; "" when there is none.
func jqPrefix(prefix string) string {
	if prefix == "" {
		return ""
	}
	return `map(if sub(" +$"; "") == ` + jqString(strings.TrimRight(prefix, " ")) + ` then "" else ltrimstr(` + jqString(prefix) + `) end) | `
}

// labelWords says whether w (a prefix without its colon) is one to
// three words of letters, digits, '-' and '_', starting with a letter,
// none of them a diagnostic's level.
func labelWords(w string) bool {
	f := strings.Fields(w)
	if len(f) == 0 || len(f) > 3 {
		return false
	}
	for _, x := range f {
		if isLevelWord(x) || !isLetterByte(x[0]) {
			return false
		}
		for i := 0; i < len(x); i++ {
			if c := x[i]; !isAlnumByte(c) && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}

// isLetterByte says whether c is an ASCII letter.
func isLetterByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
