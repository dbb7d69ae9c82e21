package query

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// decodeValue decodes one JSON value (a record of an artifact, which the
// artifact's shape detection has already parsed) into what decodeAll and
// normalize make of it: maps, slices, strings, bools, nil, ints for
// integers that fit, float64 for other numbers with a fraction or an
// exponent that fit, json.Number otherwise. It is a byte scanner, several
// times faster than encoding/json's Decoder on records, which is what a
// streamed jq spends its time on; anything it does not expect (an escape
// in a string, bytes that are not valid UTF-8, malformed text) is
// handed to encoding/json, so the two always agree (FuzzDecodeValue).
func decodeValue(raw []byte) (any, error) {
	d := fastDecoder{b: raw}
	d.ws()
	v, ok := d.value(0)
	d.ws()
	if ok && d.i == len(d.b) {
		return v, nil
	}
	vs, err := decodeAll(raw)
	if err != nil {
		return nil, err
	}
	if len(vs) != 1 {
		return nil, errors.New("not one JSON value")
	}
	return vs[0], nil
}

type fastDecoder struct {
	b []byte
	i int
}

func (d *fastDecoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// maxFastDepth bounds the recursion; deeper values go to encoding/json.
const maxFastDepth = 1000

func (d *fastDecoder) value(depth int) (any, bool) {
	if d.i >= len(d.b) || depth > maxFastDepth {
		return nil, false
	}
	switch c := d.b[d.i]; {
	case c == '{':
		d.i++
		m := map[string]any{}
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == '}' {
			d.i++
			return m, true
		}
		for {
			d.ws()
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			d.ws()
			if d.i >= len(d.b) || d.b[d.i] != ':' {
				return nil, false
			}
			d.i++
			d.ws()
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			m[k] = v
			d.ws()
			if d.i >= len(d.b) {
				return nil, false
			}
			switch d.b[d.i] {
			case ',':
				d.i++
			case '}':
				d.i++
				return m, true
			default:
				return nil, false
			}
		}
	case c == '[':
		d.i++
		a := []any{}
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			return a, true
		}
		for {
			d.ws()
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			a = append(a, v)
			d.ws()
			if d.i >= len(d.b) {
				return nil, false
			}
			switch d.b[d.i] {
			case ',':
				d.i++
			case ']':
				d.i++
				return a, true
			default:
				return nil, false
			}
		}
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.lit("true")
	case c == 'f':
		return false, d.lit("false")
	case c == 'n':
		return nil, d.lit("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.num()
	}
	return nil, false
}

func (d *fastDecoder) lit(s string) bool {
	if len(d.b)-d.i >= len(s) && string(d.b[d.i:d.i+len(s)]) == s {
		d.i += len(s)
		return true
	}
	return false
}

// str reads a string without escapes whose bytes are valid UTF-8; any
// other string makes the caller fall back.
func (d *fastDecoder) str() (string, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", false
	}
	start := d.i + 1
	ascii := true
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			s := d.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			d.i = j + 1
			return string(s), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// num reads a JSON number and converts it as normalize does.
func (d *fastDecoder) num() (any, bool) {
	start := d.i
	j := d.i
	if d.b[j] == '-' {
		j++
	}
	digits := func() int {
		k := j
		for j < len(d.b) && d.b[j] >= '0' && d.b[j] <= '9' {
			j++
		}
		return j - k
	}
	n := digits()
	if n == 0 || n > 1 && d.b[j-n] == '0' {
		return nil, false
	}
	frac := false
	if j < len(d.b) && d.b[j] == '.' {
		j++
		if digits() == 0 {
			return nil, false
		}
		frac = true
	}
	if j < len(d.b) && (d.b[j] == 'e' || d.b[j] == 'E') {
		j++
		if j < len(d.b) && (d.b[j] == '+' || d.b[j] == '-') {
			j++
		}
		if digits() == 0 {
			return nil, false
		}
		frac = true
	}
	d.i = j
	s := string(d.b[start:j])
	if !frac {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return int(i), true
		}
		return json.Number(s), true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, true
	}
	return json.Number(s), true
}
