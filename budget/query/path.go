package query

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// subValue returns the exact original bytes of the value at steps. For a
// stream of JSON values (JSON Lines, concatenated JSON), the first step
// must be an index and picks a value of the stream.
func subValue(data []byte, format string, steps []any) ([]byte, error) {
	cur := bytes.TrimSpace(data)
	for i, step := range steps {
		where := artifact.FormatPath(steps[:i])
		if where == "" {
			where = "."
		}
		stream := i == 0 && (format == budget.FormatJSONL || format == budget.FormatConcat)
		next, err := stepInto(cur, step, stream)
		if err != nil {
			return nil, fmt.Errorf("%w: at %s: %v", ErrNoValue, where, err)
		}
		cur = next
	}
	return cur, nil
}

func stepInto(v []byte, step any, stream bool) ([]byte, error) {
	newDec := func() *jsontext.Decoder {
		return jsontext.NewDecoder(bytes.NewBuffer(v), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	}
	switch s := step.(type) {
	case string:
		if stream {
			return nil, fmt.Errorf("the artifact is a stream of JSON values; index it first, as in [0].%s", s)
		}
		dec := newDec()
		if dec.PeekKind() != '{' {
			return nil, fmt.Errorf("key %q: the value is %s, not an object", s, kindName(dec.PeekKind()))
		}
		dec.ReadToken()
		var found []byte // the last of duplicate keys wins, as in jq
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			if tok.String() == s {
				v, err := dec.ReadValue()
				if err != nil {
					return nil, err
				}
				found = v
				continue
			}
			if err := dec.SkipValue(); err != nil {
				return nil, err
			}
		}
		if found == nil {
			return nil, fmt.Errorf("the object has no key %q", s)
		}
		return found, nil
	case int:
		dec := newDec()
		if !stream {
			if dec.PeekKind() != '[' {
				return nil, fmt.Errorf("index %d: the value is %s, not an array", s, kindName(dec.PeekKind()))
			}
			dec.ReadToken()
		}
		n := -1
		if s < 0 {
			c, err := countElems(v, stream)
			if err != nil {
				return nil, err
			}
			n = c
			if s+c < 0 {
				return nil, fmt.Errorf("index %d: the array has %d elements", s, c)
			}
			s += c
		}
		for i := 0; ; i++ {
			if k := dec.PeekKind(); k == ']' || k == jsontext.KindInvalid {
				if n < 0 {
					n = i
				}
				return nil, fmt.Errorf("index %d: the array has %d elements", s, n)
			}
			if i == s {
				return dec.ReadValue()
			}
			if err := dec.SkipValue(); err != nil {
				return nil, err
			}
		}
	}
	return nil, fmt.Errorf("bad step %v", step)
}

func countElems(v []byte, stream bool) (int, error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if !stream {
		dec.ReadToken()
	}
	n := 0
	for {
		if k := dec.PeekKind(); k == ']' || k == jsontext.KindInvalid {
			return n, nil
		}
		if err := dec.SkipValue(); err != nil {
			return n, err
		}
		n++
	}
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "not JSON"
}

// lineAt returns line steps[0] of text (negative counts from the end), as
// its original bytes without the line's "\n" or "\r\n": the reference
// HANDLE[i] of a text artifact, whose jq input is the array of its lines.
func lineAt(data []byte, steps []any) ([]byte, error) {
	i, ok := steps[0].(int)
	if !ok {
		return nil, fmt.Errorf("%w: at .: key %q: the artifact is text, an array of lines; index a line first, as in [0]", ErrNoValue, steps[0])
	}
	if len(steps) > 1 {
		return nil, fmt.Errorf("%w: at %s: the line is a string; a path into text ends at its line", ErrNoValue, artifact.FormatPath(steps[:1]))
	}
	n := 0
	if i < 0 {
		n = bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			n++
		}
		if i+n < 0 {
			return nil, fmt.Errorf("%w: at .: index %d: the text has %d lines", ErrNoValue, i, n)
		}
		i += n
	}
	for k := 0; len(data) > 0; k++ {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		if k == i {
			return bytes.TrimSuffix(line, []byte("\r")), nil
		}
		data = rest
		n = k + 1
	}
	return nil, fmt.Errorf("%w: at .: index %d: the text has %d lines", ErrNoValue, i, n)
}
