package host

import (
	"bytes"
	"strconv"

	"github.com/toolcompact/compact/schemas/linetemplate"
)

// verifyLines checks a text payload against input lines (ABI.md §4,
// "Grouping lines, verifiably"). Output lines are read in order and input
// lines are taken in order: a plain output line is the next input line,
// byte for byte; a line "[×N] text" opens a group of N input lines, each
// of which is text itself or has text as its line template (the time
// span "  (A … B)" the logs plugin appends to a template holding <ts> or
// <time> is checked too: A and B are the first timestamps of the group's
// first and last lines). An input line that is not the next plain output
// line goes to the earliest open group with room that it matches. Lines
// the host classifies as errors or warnings (importantLine) must appear
// verbatim: as a plain line, or as the text of a group of identical
// lines. Every input line must be accounted for, every group must be
// full, and no output line may be left.
func verifyLines(input, payload []byte) error {
	type group struct {
		text, tmpl []byte
		left       int
		span       bool
		a, b       []byte // the span's ends
		first      []byte // the group's first line
		last       []byte
		line       int // output line number
	}
	outLines := splitText(payload)
	var open []*group
	byKey := map[string][]*group{} // by text and by template
	p := 0
	var tmpl []byte
	for i, l := range splitText(input) {
		// 1. The next output line, when it is this line.
		if p < len(outLines) {
			o := outLines[p]
			n, text, marked := groupMarker(o)
			if !marked && bytes.Equal(o, l) {
				p++
				continue
			}
			if marked && n == 1 && bytes.Equal(text, l) {
				p++
				continue
			}
		}
		tmplDone := false
		important := importantLine(l)
		match := func(g *group) bool {
			if bytes.Equal(g.text, l) {
				return true
			}
			if important {
				return false
			}
			if !tmplDone {
				tmpl = linetemplate.Append(tmpl[:0], l)
				tmplDone = true
			}
			return bytes.Equal(g.tmpl, tmpl)
		}
		// 2. An open group.
		var found *group
		for _, g := range byKey[string(l)] {
			if g.left > 0 {
				found = g
				break
			}
		}
		if found == nil && !important {
			tmpl = linetemplate.Append(tmpl[:0], l)
			tmplDone = true
			for _, g := range byKey[string(tmpl)] {
				if g.left > 0 {
					found = g
					break
				}
			}
		}
		// 3. The next output line opens a group.
		if found == nil && p < len(outLines) {
			n, text, marked := groupMarker(outLines[p])
			if marked {
				g := &group{text: text, tmpl: text, left: n, line: p + 1}
				if !match(g) {
					if t, a, b, ok := cutSpan(text); ok {
						g.tmpl, g.a, g.b, g.span = t, a, b, true
					}
				}
				if !match(g) {
					what := "neither is it nor has it the template"
					if important {
						what = "it is an error or warning line, which must appear verbatim, and is not"
					}
					return contentErr("output line "+strconv.Itoa(p+1), "group %q does not stand for input line %d (%s; %s)",
						clip(string(text), 80), i+1, clip(string(l), 80), what)
				}
				p++
				g.first = l
				open = append(open, g)
				byKey[string(g.text)] = append(byKey[string(g.text)], g)
				if !bytes.Equal(g.tmpl, g.text) {
					byKey[string(g.tmpl)] = append(byKey[string(g.tmpl)], g)
				}
				found = g
			}
		}
		if found == nil {
			where := "the end of the payload"
			if p < len(outLines) {
				where = "output line " + strconv.Itoa(p+1) + " " + strconv.Quote(clip(string(outLines[p]), 80))
			}
			if important {
				return contentErr("input line "+strconv.Itoa(i+1), "error or warning line %q is not in the output verbatim (found %s)", clip(string(l), 80), where)
			}
			return contentErr("input line "+strconv.Itoa(i+1), "%q is not in the output (found %s)", clip(string(l), 80), where)
		}
		found.left--
		found.last = l
		if found.left < 0 {
			return contentErr("output line "+strconv.Itoa(found.line), "group stands for more lines than it says")
		}
	}
	if p < len(outLines) {
		return contentErr("output line "+strconv.Itoa(p+1), "%q stands for no input line (text not in the input, or a group whose lines ran out)", clip(string(outLines[p]), 80))
	}
	for _, g := range open {
		if g.left != 0 {
			return contentErr("output line "+strconv.Itoa(g.line), "group says it stands for %d more lines than the input has", g.left)
		}
		if g.span {
			if a := linetemplate.FirstStamp(g.first); !bytes.Equal(a, g.a) {
				return contentErr("output line "+strconv.Itoa(g.line), "group's span starts %q, its first line's time is %q", g.a, a)
			}
			if b := linetemplate.FirstStamp(g.last); !bytes.Equal(b, g.b) {
				return contentErr("output line "+strconv.Itoa(g.line), "group's span ends %q, its last line's time is %q", g.b, b)
			}
		}
	}
	return nil
}

// splitText cuts text into lines; a final newline ends the last line.
func splitText(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	lines := bytes.Split(b, []byte{'\n'})
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// groupMarker reads "[×N] " at the start of a line.
func groupMarker(line []byte) (int, []byte, bool) {
	rest, ok := bytes.CutPrefix(line, []byte("[×"))
	if !ok {
		return 0, nil, false
	}
	end := bytes.Index(rest, []byte("] "))
	if end <= 0 {
		return 0, nil, false
	}
	n, err := strconv.Atoi(string(rest[:end]))
	if err != nil || n < 1 || rest[0] == '+' || rest[0] == '-' {
		return 0, nil, false
	}
	return n, rest[end+2:], true
}

// cutSpan splits "template  (A … B)" into its parts.
func cutSpan(text []byte) (tmpl, a, b []byte, ok bool) {
	if len(text) == 0 || text[len(text)-1] != ')' {
		return nil, nil, nil, false
	}
	k := bytes.LastIndex(text, []byte("  ("))
	if k < 0 {
		return nil, nil, nil, false
	}
	inner := text[k+3 : len(text)-1]
	a, b, ok = bytes.Cut(inner, []byte(" … "))
	return text[:k], a, b, ok
}
