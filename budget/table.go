package budget

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcompact/compact/schemas"
)

// The table format (content type text/x-compact-table; docs/level1.md):
// line 1 is the header, the field names separated by tabs; then one line
// per record, its cells separated by tabs, in header order. A cell is
//
//   - empty: the record has no such field;
//   - JSON text: when it starts with '"', '{' or '[', or is a JSON
//     number, true, false or null;
//   - otherwise the literal text of a string.
//
// A string is written bare when that reads back the same: it is not
// empty, does not start with '"', '{' or '[', is not a JSON literal or
// number, and holds no control character. Otherwise it is JSON-quoted.
// Header names follow the same rule for quoting, except that a bare name
// is always a name. Since JSON text and bare strings never hold a tab or
// a newline, every line is one record and every tab a cell boundary.

// tableable reports whether a table can be made of an output of this
// shape: one collection, at the root.
func tableable(shape *Shape) bool {
	return len(shape.Collections) == 1 && shape.Collections[0].Path == "."
}

// tableIfAsked renders out as a table when format asks for one and the
// shape allows it.
func tableIfAsked(format string, shape *Shape, out Output) (Output, error) {
	if format != "table" && format != "auto" {
		return out, nil
	}
	reason := ""
	switch {
	case !tableable(shape):
		reason = "a table needs the records at the root (an array, JSON Lines or concatenated values)"
	case shape.Collections[0].Count < 1:
		reason = "no records"
	}
	var table []byte
	if reason == "" {
		var err error
		table, reason, err = renderTable(out.Content, shape.Format != FormatJSON)
		if err != nil {
			return out, err
		}
	}
	if reason != "" {
		if format == "table" {
			out.Actions = append(out.Actions, schemas.Action{Level: schemas.LevelFields, Kind: ActTableSkipped, Target: ".", Detail: reason})
		}
		return out, nil
	}
	if format == "auto" && len(table) >= len(out.Content) {
		return out, nil
	}
	out.Actions = append(out.Actions, schemas.Action{Level: schemas.LevelFields, Kind: ActTable, Target: ".",
		Count: shape.Collections[0].Count, Detail: "records shown as a table: header line of field names, one tab-separated line per record (docs/level1.md)"})
	out.Content = table
	out.ContentType = TypeTable
	return out, nil
}

// renderTable turns minified JSON records (a root array, or one value
// per line when stream) into the table format. It returns a reason
// instead when a record is not an object or has a member twice. Two
// passes over content (the header, then the rows) keep no per-record
// state.
func renderTable(content []byte, stream bool) ([]byte, string, error) {
	idx := map[string]int{}
	var header [][]byte
	var seen []int // per column: the last record that had it
	rec := 0
	reason, err := eachObjectMember(content, stream, func(name, _ []byte, newRecord bool) string {
		if newRecord {
			rec++
		}
		if name == nil {
			return "" // an empty record
		}
		j, ok := idx[string(name)]
		if !ok {
			j = len(header)
			idx[string(name)] = j
			header = append(header, append([]byte(nil), name...))
			seen = append(seen, 0)
		}
		if seen[j] == rec {
			return "a record has a duplicate member name"
		}
		seen[j] = rec
		return ""
	})
	if err != nil || reason != "" {
		return nil, reason, err
	}
	if len(header) == 0 {
		return nil, "the records have no fields", nil
	}
	b := make([]byte, 0, len(content))
	for i, h := range header {
		if i > 0 {
			b = append(b, '\t')
		}
		if bareName(h) {
			b = append(b, h...)
		} else {
			b, _ = jsontext.AppendQuote(b, h)
		}
	}
	cells := make([][]byte, len(header))
	flush := func() {
		b = append(b, '\n')
		for i, c := range cells {
			if i > 0 {
				b = append(b, '\t')
			}
			b = appendCell(b, c)
		}
		clear(cells)
	}
	started := false
	_, err = eachObjectMember(content, stream, func(name, raw []byte, newRecord bool) string {
		if newRecord && started {
			flush()
		}
		started = true
		if name != nil {
			cells[idx[string(name)]] = raw
		}
		return ""
	})
	if err != nil {
		return nil, "", err
	}
	if started {
		flush()
	}
	return b, "", nil
}

// eachObjectMember calls fn for each member of each record of content (a
// JSON array, or a stream of values when stream), with newRecord set on
// the first call of a record; an empty object gets one call with a nil
// name. It returns the first reason fn gives, or a reason when a record is
// not an object.
func eachObjectMember(content []byte, stream bool, fn func(name, raw []byte, newRecord bool) string) (string, error) {
	s := scanner{d: content}
	valueDepth := 1 // the nesting depth of member values, as shape detection counts it
	if !stream {
		valueDepth = 2
		if s.peek() != '[' {
			return "a table needs an array of records", nil
		}
		s.pos++
		if s.peek() == ']' {
			return "", nil
		}
	}
	for {
		if stream && s.peek() == 0 {
			return "", nil
		}
		if s.peek() != '{' {
			return "a table needs every record to be an object", nil
		}
		s.pos++
		first := true
		if s.peek() == '}' {
			s.pos++
			if r := fn(nil, nil, true); r != "" {
				return r, nil
			}
		} else {
			for {
				s.ws()
				ns := s.pos
				esc, err := s.str()
				if err != nil {
					return "", fmt.Errorf("table: %w", err)
				}
				name := s.d[ns+1 : s.pos-1]
				if esc {
					name = unquoteName(s.d[ns:s.pos])
				}
				if s.peek() != ':' {
					return "", fmt.Errorf("table: %w", s.fail("want ':'"))
				}
				s.pos++
				s.ws()
				vs := s.pos
				if err := s.skip(valueDepth); err != nil {
					return "", fmt.Errorf("table: %w", err)
				}
				if r := fn(name, s.d[vs:s.pos], first); r != "" {
					return r, nil
				}
				first = false
				more, err := s.next('}')
				if err != nil {
					return "", fmt.Errorf("table: %w", err)
				}
				if !more {
					break
				}
			}
		}
		if !stream {
			more, err := s.next(']')
			if err != nil {
				return "", fmt.Errorf("table: %w", err)
			}
			if !more {
				return "", nil
			}
		}
	}
}

// bareName reports whether a header name can be written without quotes.
func bareName(s []byte) bool {
	if len(s) == 0 || s[0] == '"' {
		return false
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// appendCell appends the cell of the minified JSON value raw (nil: an
// absent field).
func appendCell(b, raw []byte) []byte {
	if raw == nil {
		return b
	}
	if raw[0] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return append(b, raw...)
	}
	s := raw[1 : len(raw)-1]
	if !bareString(s) {
		return append(b, raw...)
	}
	return append(b, s...)
}

// bareString reports whether the string s reads back as itself when
// written bare.
func bareString(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	switch s[0] {
	case '"', '{', '[':
		return false
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return !isJSONScalar(s)
}

// isJSONScalar reports whether s is a JSON number, true, false or null.
func isJSONScalar(s []byte) bool {
	switch string(s) {
	case "true", "false", "null":
		return true
	}
	if s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	return validValue(s)
}

// validValue reports whether b is exactly one JSON value, by the same
// rules as shape detection (duplicate member names are allowed).
func validValue(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	s := scanner{d: b}
	if s.skip(0) != nil {
		return false
	}
	s.ws()
	return s.pos == len(b)
}

// TableToJSON parses the table format back into a JSON array of objects,
// one per row, with the fields in header order and absent cells left
// out. It is the inverse of level 1's table rendering.
func TableToJSON(table []byte) ([]byte, error) {
	lines := strings.Split(string(table), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return nil, errors.New("table: no header line")
	}
	var names [][]byte
	for i, h := range strings.Split(lines[0], "\t") {
		if strings.HasPrefix(h, `"`) {
			u, err := jsontext.AppendUnquote(nil, h)
			if err != nil {
				return nil, fmt.Errorf("table: header cell %d: %w", i+1, err)
			}
			h = string(u)
		}
		q, err := jsontext.AppendQuote(nil, h)
		if err != nil {
			return nil, fmt.Errorf("table: header cell %d: %w", i+1, err)
		}
		names = append(names, q)
	}
	out := []byte{'['}
	for ln, line := range lines[1:] {
		cells := strings.Split(line, "\t")
		if len(cells) != len(names) {
			return nil, fmt.Errorf("table: line %d has %d cells, the header has %d", ln+2, len(cells), len(names))
		}
		if ln > 0 {
			out = append(out, ',')
		}
		out = append(out, '{')
		first := true
		for i, c := range cells {
			if c == "" {
				continue
			}
			if !first {
				out = append(out, ',')
			}
			first = false
			out = append(out, names[i]...)
			out = append(out, ':')
			switch {
			case c[0] == '"' || c[0] == '{' || c[0] == '[' || isJSONScalar([]byte(c)):
				if !validValue([]byte(c)) {
					return nil, fmt.Errorf("table: line %d cell %d: invalid JSON %s", ln+2, i+1, strconv.Quote(c))
				}
				out = append(out, c...)
			default:
				var err error
				out, err = jsontext.AppendQuote(out, c)
				if err != nil {
					return nil, fmt.Errorf("table: line %d cell %d: %w", ln+2, i+1, err)
				}
			}
		}
		out = append(out, '}')
	}
	return append(out, ']'), nil
}

// tableRows counts a table's records (its lines after the header) and
// checks that every row has as many cells as the header.
func tableRows(table []byte) (int, error) {
	if len(table) == 0 {
		return 0, errors.New("table: empty")
	}
	lines := bytes.Split(table, []byte{'\n'})
	want := bytes.Count(lines[0], []byte{'\t'})
	for i, l := range lines[1:] {
		if bytes.Count(l, []byte{'\t'}) != want {
			return 0, fmt.Errorf("table: line %d has %d cells, the header has %d", i+2, bytes.Count(l, []byte{'\t'})+1, want+1)
		}
	}
	return len(lines) - 1, nil
}
