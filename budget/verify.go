package budget

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcompact/compact/schemas"
)

// checkOutput verifies a level-1 output against the input's shape: the
// content must be valid for its content type, and every input collection
// must still be represented by exactly as many records. The compactor's
// declared counts are checked, never trusted.
func checkOutput(in Shape, out Output) error {
	declared := map[string]schemas.DeclaredCollection{}
	for _, d := range out.Declared {
		declared[d.Path] = d
	}
	for _, c := range in.Collections {
		if d, ok := declared[c.Path]; ok && d.Count != c.Count {
			return fmt.Errorf("%w: collection %s: declared %d records, the input has %d", ErrCountMismatch, c.Path, d.Count, c.Count)
		}
	}
	// Empty means what DetectShape calls empty (isSpace: " \t\r\n"):
	// bytes.TrimSpace also strips "\f", "\v", U+0085 and U+00A0, so an
	// input of one such line was a line of text for DetectShape and its
	// unchanged output "empty" here.
	if in.Format != FormatEmpty && allSpace(out.Content) {
		return errors.New("the output is empty, the input was not")
	}
	ct := out.ContentType
	if ct == "" {
		ct = in.ContentType
	}
	got, err := countOutput(in, out.Content, ct, declared)
	if err != nil {
		return err
	}
	for _, c := range in.Collections {
		if n, ok := got[c.Path]; !ok || n != c.Count {
			if !ok {
				return fmt.Errorf("%w: collection %s (%d records) is missing from the output", ErrCountMismatch, c.Path, c.Count)
			}
			return fmt.Errorf("%w: collection %s: the output has %d records, the input %d", ErrCountMismatch, c.Path, n, c.Count)
		}
	}
	return nil
}

// countOutput validates content as contentType and counts the records of
// each of the input's collections in it.
func countOutput(in Shape, content []byte, contentType string, declared map[string]schemas.DeclaredCollection) (map[string]int, error) {
	got := map[string]int{}
	if !utf8.Valid(content) {
		return nil, errors.New("output is not valid UTF-8")
	}
	switch mediaType(contentType) {
	case TypeTable:
		rows, err := tableRows(content)
		if err != nil {
			return nil, fmt.Errorf("output table: %w", err)
		}
		if len(in.Collections) != 1 {
			return nil, fmt.Errorf("a table can stand for one collection, the input has %d", len(in.Collections))
		}
		got[in.Collections[0].Path] = rows
		return got, nil
	case TypeJSON, TypeNDJSON:
		var paths []string
		for _, c := range in.Collections {
			paths = append(paths, c.Path)
		}
		root, values, _, err := walkJSON(content, nil)
		if err != nil {
			return nil, fmt.Errorf("output is not valid JSON: %w", err)
		}
		inStream := in.Format == FormatJSONL || in.Format == FormatConcat
		if !inStream && values != 1 {
			return nil, fmt.Errorf("output has %d JSON values, the input had one", values)
		}
		if len(paths) == 0 {
			return got, nil
		}
		s, err := shapeFromTree(content, root, values, true, paths)
		if err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		for _, c := range s.Collections {
			d := declared[c.Path]
			if d.CountField == "" {
				got[c.Path] = c.Count
				continue
			}
			n := 0
			err := EachRecord(content, s, c.Path, func(_ int, raw []byte) error {
				k, err := groupCount(raw, d.CountField)
				n += k
				return err
			})
			if err != nil {
				return nil, fmt.Errorf("output collection %s: %w", c.Path, err)
			}
			got[c.Path] = n
		}
		return got, nil
	default:
		// Text: lines, where "[×N] " stands for N lines.
		if len(in.Collections) > 1 {
			return nil, fmt.Errorf("a text output can stand for one collection, the input has %d", len(in.Collections))
		}
		if len(in.Collections) == 0 {
			return got, nil
		}
		n, err := countMarkedLines(content)
		if err != nil {
			return nil, err
		}
		got[in.Collections[0].Path] = n
		return got, nil
	}
}

// allSpace reports whether b is empty or only JSON white space, the
// bytes DetectShape treats as an empty input.
func allSpace(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// mediaType strips parameters from a content type.
func mediaType(ct string) string {
	if i := bytes.IndexByte([]byte(ct), ';'); i >= 0 {
		ct = ct[:i]
	}
	return string(bytes.TrimSpace([]byte(ct)))
}

// groupCount returns how many input records the JSON element raw stands
// for: the integer value of its member field, or 1 when absent.
func groupCount(raw []byte, field string) (int, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return 1, nil
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), jsontext.AllowDuplicateNames(true))
	if _, err := dec.ReadToken(); err != nil {
		return 0, err
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadValue()
		if err != nil {
			return 0, err
		}
		if string(unquoteName(name)) != field {
			if err := dec.SkipValue(); err != nil {
				return 0, err
			}
			continue
		}
		v, err := dec.ReadValue()
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(string(v))
		if err != nil || n < 1 {
			return 0, fmt.Errorf("count field %q is %s, want a positive integer", field, v)
		}
		return n, nil
	}
	return 1, nil
}

// countMarkedLines counts lines, where a line starting "[×N] " stands for
// N lines.
func countMarkedLines(content []byte) (int, error) {
	total := 0
	for ln := 1; len(content) > 0; ln++ {
		line := content
		if j := bytes.IndexByte(content, '\n'); j >= 0 {
			line, content = content[:j], content[j+1:]
		} else {
			content = nil
		}
		n, ok, err := lineMarker(line)
		if err != nil {
			return 0, fmt.Errorf("output line %d: %w", ln, err)
		}
		if !ok {
			n = 1
		}
		total += n
	}
	return total, nil
}

// lineMarker reads a "[×N] " prefix.
func lineMarker(line []byte) (int, bool, error) {
	const open = "[×"
	if !bytes.HasPrefix(line, []byte(open)) {
		return 0, false, nil
	}
	rest := line[len(open):]
	end := bytes.Index(rest, []byte("] "))
	if end <= 0 {
		return 0, false, nil
	}
	n, err := strconv.Atoi(string(rest[:end]))
	if err != nil {
		return 0, false, nil
	}
	if n < 1 {
		return 0, false, fmt.Errorf("marker [×%d] stands for fewer than one line", n)
	}
	return n, true, nil
}
