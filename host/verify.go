package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// VerifyOutput checks a compactor's output against its input the way the
// host checks every plugin call (ABI.md, section 4), without trusting the
// declared counts:
//
//   - every declared collection exists in the input and its count equals
//     the input's exact count;
//   - every input collection is accounted for: declared, or still in a
//     JSON payload where the host counts it (summing count_field);
//   - a text payload of a text input accounts for every input line,
//     counting a line marked "[×N] " as N;
//   - the payload is valid for its content type (JSON parses, text is
//     UTF-8).
//
// records are the registry's record paths for the tool (nil to detect
// them). The error wraps budget.ErrCountMismatch when a count is wrong.
func VerifyOutput(input []byte, records []string, out budget.Output) error {
	in, err := budget.DetectShape(input, records)
	if err != nil && len(records) > 0 {
		in, err = budget.DetectShape(input, nil)
	}
	if err != nil {
		return fmt.Errorf("input: %w", err)
	}
	inCount := map[string]int{}
	for _, c := range in.Collections {
		inCount[c.Path] = c.Count
	}
	declared := map[string]schemas.DeclaredCollection{}
	for _, d := range out.Declared {
		n, ok := inCount[d.Path]
		if !ok {
			return fmt.Errorf("%w: declares collection %s, which the input does not have (input collections: %s)",
				budget.ErrCountMismatch, d.Path, pathList(in.Collections))
		}
		if d.Count != n {
			return fmt.Errorf("%w: declares %d records for %s, the input has %d", budget.ErrCountMismatch, d.Count, d.Path, n)
		}
		declared[d.Path] = d
	}

	isJSON := isJSONType(out.ContentType)
	switch {
	case isJSON:
		if err := validJSON(out.Content); err != nil {
			return fmt.Errorf("payload declared %s is not valid: %w", out.ContentType, err)
		}
	case !utf8.Valid(out.Content):
		return fmt.Errorf("payload declared %s is not valid UTF-8", out.ContentType)
	}

	// Count what can be counted in the payload.
	for _, c := range in.Collections {
		d, isDeclared := declared[c.Path]
		switch {
		case isJSON && in.Format != budget.FormatText:
			n, found, err := countJSON(out.Content, c.Path, d.CountField)
			if err != nil {
				return fmt.Errorf("payload collection %s: %w", c.Path, err)
			}
			if !found {
				if !isDeclared {
					return fmt.Errorf("%w: collection %s (%d records) is neither in the payload nor declared",
						budget.ErrCountMismatch, c.Path, c.Count)
				}
				continue
			}
			if n != c.Count {
				return fmt.Errorf("%w: payload holds %d records of %s, the input has %d",
					budget.ErrCountMismatch, n, c.Path, c.Count)
			}
		case c.Kind == "lines" && !isJSON:
			if n := countMarkedLines(out.Content); n != c.Count {
				return fmt.Errorf("%w: payload lines stand for %d input lines (counting [×N] markers), the input has %d",
					budget.ErrCountMismatch, n, c.Count)
			}
		case !isDeclared:
			return fmt.Errorf("%w: collection %s (%d records) is not declared and a %s payload cannot be counted",
				budget.ErrCountMismatch, c.Path, c.Count, out.ContentType)
		}
	}
	return nil
}

func pathList(cs []schemas.Collection) string {
	if len(cs) == 0 {
		return "none"
	}
	ps := make([]string, len(cs))
	for i, c := range cs {
		ps[i] = c.Path
	}
	return strings.Join(ps, ", ")
}

func isJSONType(ct string) bool {
	ct, _, _ = strings.Cut(ct, ";")
	ct = strings.TrimSpace(strings.ToLower(ct))
	return ct == budget.TypeJSON || ct == budget.TypeNDJSON || strings.HasSuffix(ct, "+json") || ct == "application/jsonl"
}

// validJSON checks one JSON value, or one value per line for JSON Lines.
func validJSON(b []byte) error {
	if json.Valid(b) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for n := 0; ; n++ {
		var v json.RawMessage
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) && n > 1 {
			return nil
		}
		if errors.Is(err, io.EOF) {
			return errors.New("not one JSON value nor a stream of them")
		}
		if err != nil {
			return fmt.Errorf("at byte %d: %w", dec.InputOffset(), err)
		}
	}
}

// countJSON counts the records of the collection at path in a JSON
// payload, summing the member countField of each record when it is set.
func countJSON(payload []byte, path, countField string) (n int, found bool, err error) {
	s, err := budget.DetectShape(payload, []string{path})
	if err != nil {
		return 0, false, nil // not in the payload
	}
	if len(s.Collections) == 0 {
		return 0, false, nil
	}
	if countField == "" {
		return s.Collections[0].Count, true, nil
	}
	err = budget.EachRecord(payload, s, s.Collections[0].Path, func(i int, raw []byte) error {
		var rec map[string]json.RawMessage
		if json.Unmarshal(raw, &rec) != nil {
			n++
			return nil
		}
		v, ok := rec[countField]
		if !ok {
			n++
			return nil
		}
		var k int
		if err := json.Unmarshal(v, &k); err != nil || k < 1 {
			return fmt.Errorf("record %d: %s is %s, want an integer ≥ 1", i, countField, v)
		}
		n += k
		return nil
	})
	return n, true, err
}

// countMarkedLines counts the input lines a text payload stands for: a
// line starting "[×N] " counts N, any other line 1; a final newline does
// not start a line.
func countMarkedLines(b []byte) int {
	n := 0
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		n += groupWeight(line)
	}
	return n
}

// groupWeight parses the "[×N] " marker (ABI.md): N ≥ 1, no leading zero.
func groupWeight(line []byte) int {
	const open = "[×"
	if !bytes.HasPrefix(line, []byte(open)) {
		return 1
	}
	i := len(open)
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' && j-i < 9 {
		j++
	}
	if j == i || line[i] == '0' || j+1 >= len(line) || line[j] != ']' || line[j+1] != ' ' {
		return 1
	}
	k := 0
	for _, c := range line[i:j] {
		k = k*10 + int(c-'0')
	}
	return k
}
