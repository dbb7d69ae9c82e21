package main

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/plugins/pdk"
	lt "github.com/toolcompact/compact/schemas/linetemplate"
)

// options are the plugin's config keys, parsed.
type options struct {
	global   bool // scope=global (the default): groups may span important lines
	minCount int  // smallest group that is collapsed
	levels   *levelMatcher
}

func parseOptions(cfg map[string]string) (options, error) {
	o := options{minCount: 2, global: true}
	switch s := cfg["scope"]; s {
	case "", "global":
	case "segment":
		o.global = false
	default:
		return o, pdk.Errorf("logs: config scope=%q: want segment or global", s)
	}
	if s, ok := cfg["min_count"]; ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 2 {
			return o, pdk.Errorf("logs: config min_count=%q: want an integer ≥ 2", s)
		}
		o.minCount = n
	}
	o.levels = newLevelMatcher(splitList(cfg["keep_words"]), splitList(cfg["ignore_words"]))
	return o, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// verbatim marks a line that is kept as it is.
const verbatim = -1

type group struct {
	text      []byte // the line itself while identical, else the template
	first     int    // index of its first line
	last      int    // index of its last line
	count     int
	bytes     int // bytes of its lines, newlines included
	identical bool
	collapse  bool
}

// lineSpan is one input line without its newline.
type lineSpan struct {
	start, end int
	group      int // index into groups, or verbatim
}

// splitLines cuts payload into lines. A final newline ends the last line
// rather than starting an empty one, so "a\nb\n" and "a\nb" both hold two
// lines and "" holds none.
func splitLines(payload []byte) []lineSpan {
	n := bytes.Count(payload, []byte{'\n'})
	if len(payload) > 0 && payload[len(payload)-1] != '\n' {
		n++
	}
	lines := make([]lineSpan, 0, n)
	for start := 0; start < len(payload); {
		end := bytes.IndexByte(payload[start:], '\n')
		if end < 0 {
			end = len(payload)
		} else {
			end += start
		}
		lines = append(lines, lineSpan{start: start, end: end})
		start = end + 1
	}
	return lines
}

// appendSpan appends to a template that masks a timestamp or clock time
// the first one of the group's first and last lines:
// "  (2026-11-20T03:00:00Z … 2026-11-20T03:33:19Z)", so that a group shown
// where its first line was still says over which time it ran.
func appendSpan(tmpl, first, last []byte) []byte {
	if !bytes.Contains(tmpl, []byte(lt.Timestamp)) && !bytes.Contains(tmpl, []byte(lt.Clock)) {
		return tmpl
	}
	a, b := lt.FirstStamp(first), lt.FirstStamp(last)
	if a == nil || b == nil {
		return tmpl
	}
	tmpl = append(tmpl, "  ("...)
	tmpl = append(tmpl, a...)
	tmpl = append(tmpl, " … "...)
	tmpl = append(tmpl, b...)
	return append(tmpl, ')')
}

// compactLines is the log compactor. It returns the payload and the number
// of input lines it accounts for.
//
// Every input line ends up in exactly one output line: an important line
// (one holding a level word such as error or warning, or an indented
// continuation line right after one, like a stack frame) is copied
// verbatim where it was; the other lines are grouped by template (the line
// with numbers, timestamps, ids and addresses masked). A group of at least
// minCount lines whose collapsed form is shorter than its lines becomes one
// line "[×N] text" at the position of its first line, where text is the
// line itself when all N lines are identical and the template otherwise
// (followed by the group's time span when the template masks a
// timestamp); every other line is copied verbatim where it was. With scope=segment,
// groups never span an important line, so whatever happened before an
// error is still shown before it (at the cost of less compaction when
// errors are frequent).
func compactLines(payload []byte, o options) ([]byte, int) {
	lines := splitLines(payload)
	groups := make([]group, 0, 64)
	index := make(map[string]int, 64)
	var tmpl []byte
	inTrace := false
	for i := range lines {
		ln := payload[lines[i].start:lines[i].end]
		if o.levels.important(ln) || (inTrace && len(ln) > 0 && (ln[0] == ' ' || ln[0] == '\t')) {
			lines[i].group = verbatim
			inTrace = true
			if !o.global {
				clear(index)
			}
			continue
		}
		inTrace = false
		tmpl = lt.Append(tmpl[:0], ln)
		g, ok := index[string(tmpl)]
		if !ok {
			g = len(groups)
			index[string(tmpl)] = g
			groups = append(groups, group{text: ln, first: i, identical: true})
		}
		gr := &groups[g]
		if gr.count > 0 && gr.identical && !bytes.Equal(gr.text, ln) {
			gr.identical = false
			gr.text = bytes.Clone(tmpl)
		}
		gr.count++
		gr.last = i
		gr.bytes += len(ln) + 1
		lines[i].group = g
	}
	var marker [24]byte
	for g := range groups {
		gr := &groups[g]
		if !gr.identical && gr.count >= o.minCount {
			gr.text = appendSpan(gr.text, payload[lines[gr.first].start:lines[gr.first].end], payload[lines[gr.last].start:lines[gr.last].end])
		}
		collapsed := len(pdk.AppendGroupMarker(marker[:0], gr.count)) + len(gr.text) + 1
		gr.collapse = gr.count >= o.minCount && collapsed < gr.bytes
	}
	out := make([]byte, 0, len(payload)/2+64)
	for i, l := range lines {
		ln := payload[l.start:l.end]
		if l.group != verbatim {
			gr := &groups[l.group]
			if gr.collapse {
				if gr.first == i {
					out = pdk.AppendGroupMarker(out, gr.count)
					out = append(out, gr.text...)
					out = append(out, '\n')
				}
				continue
			}
		}
		// A verbatim line that itself starts like a marker is marked as
		// standing for one line, so that it is not read as a group.
		if bytes.HasPrefix(ln, []byte("[×")) {
			out = pdk.AppendGroupMarker(out, 1)
		}
		out = append(out, ln...)
		out = append(out, '\n')
	}
	return out, len(lines)
}

// checkLines declines JSON whose records are not its lines: a JSON
// document (pretty-printed, or an array on one line) or concatenated
// values. JSON Lines, one object per line and no blank line, is accepted:
// there every line is a record. Text is accepted, even when a line starts
// with '[' or '{'.
func checkLines(payload []byte) error {
	i := 0
	for i < len(payload) && isSpaceByte(payload[i]) {
		i++
	}
	if i == len(payload) || (payload[i] != '{' && payload[i] != '[') {
		return nil
	}
	r := pdk.NewReader(payload)
	if r.Skip() == nil && r.Next().Kind == pdk.EOF {
		// One value, even on one line (a registry document as npm caches
		// it, curl's output): the host reads it as one JSON document
		// with its own collections, never as one line of JSON Lines.
		return pdk.Errorf("logs: the input is one JSON document, not lines; use a JSON compactor")
	}
	if payload[i] == '[' {
		return nil // text that starts like "[INFO] ..."
	}
	lines := 0
	for start := 0; start < len(payload); lines++ {
		end := bytes.IndexByte(payload[start:], '\n')
		if end < 0 {
			end = len(payload)
		} else {
			end += start
		}
		line := bytes.TrimRight(payload[start:end], " \t\r")
		if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
			return pdk.Errorf("logs: the input is JSON whose records are not its lines (line %d does not hold one object); use a JSON compactor", lines+1)
		}
		start = end + 1
	}
	return nil
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// compact is the plugin's pdk.Func.
func compact(h pdk.Header, payload []byte) (pdk.OutputHeader, []byte, error) {
	o, err := parseOptions(h.Config)
	if err != nil {
		return pdk.OutputHeader{}, nil, err
	}
	if err := checkLines(payload); err != nil {
		return pdk.OutputHeader{}, nil, err
	}
	out, n := compactLines(payload, o)
	return pdk.OutputHeader{
		ContentType: "text/plain",
		Collections: []pdk.Collection{{Path: ".", Count: n}},
	}, out, nil
}
