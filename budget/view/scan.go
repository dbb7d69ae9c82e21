package view

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
)

// jscan walks JSON text that is already known to be valid (the records
// of a collection DetectShape parsed). On anything unexpected it stops
// at the end of the text rather than fail.
type jscan struct {
	d   []byte
	pos int
}

func (s *jscan) ws() {
	for s.pos < len(s.d) {
		switch s.d[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *jscan) peek() byte {
	if s.pos < len(s.d) {
		return s.d[s.pos]
	}
	return 0
}

// skipString moves past the string at pos: to the next quote that no
// backslash escapes. Eight bytes are tested at a time for a quote or a
// backslash (a SWAR test, as level 1's scanner does: the lowest byte it
// flags is always a real one), so a long string costs a few steps.
func (s *jscan) skipString() {
	s.pos = stringEnd(s.d, s.pos+1)
}

// stringEnd returns the offset just past the closing quote of the string
// whose body starts at i in d (len(d) when it is not closed).
func stringEnd(d []byte, i int) int {
	for {
		i = special(d, i)
		if i >= len(d) {
			return len(d)
		}
		if d[i] == '"' {
			return i + 1
		}
		i += 2 // a backslash and the byte it escapes
	}
}

// special returns the offset of the first quote or backslash in d at or
// after i, or len(d).
func special(d []byte, i int) int {
	for i+8 <= len(d) {
		x := binary.LittleEndian.Uint64(d[i:])
		if m := hasZero(x^(lsb*'"')) | hasZero(x^(lsb*'\\')); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(d) && d[i] != '"' && d[i] != '\\' {
		i++
	}
	return i
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// hasZero is non-zero when a byte of x is zero; its lowest set bit is
// in the lowest zero byte (a borrow only flags bytes above a zero one).
func hasZero(x uint64) uint64 { return (x - lsb) & ^x & msb }

// scalarEnd marks the bytes that end a number or a literal.
var scalarEnd = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\n': true, '\r': true}

// readString returns the string at pos, unquoted.
func (s *jscan) readString() string {
	start := s.pos
	s.skipString()
	return unquote(s.d[start:s.pos])
}

// skipValue moves past the value at pos.
func (s *jscan) skipValue() {
	switch s.peek() {
	case '"':
		s.skipString()
	case '{', '[':
		depth := 0
		for s.pos < len(s.d) {
			switch s.d[s.pos] {
			case '"':
				s.skipString()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos++
					return
				}
			}
			s.pos++
		}
	default:
		i := s.pos
		for i < len(s.d) && !scalarEnd[s.d[i]] {
			i++
		}
		s.pos = i
	}
}

// unquote returns the string a JSON string literal stands for.
func unquote(raw []byte) string {
	if len(raw) >= 2 {
		if body := raw[1 : len(raw)-1]; bytes.IndexByte(body, '\\') < 0 {
			return string(body)
		}
	}
	var out string
	if err := json.Unmarshal(raw, &out); err != nil {
		if u, err := strconv.Unquote(string(raw)); err == nil {
			return u
		}
		return string(raw)
	}
	return out
}

// nameBytes returns the string at pos as raw bytes when it has no escape
// (ok), for map lookups that do not allocate; otherwise it moves past it
// and returns ok false.
func (s *jscan) nameBytes() ([]byte, bool) {
	start := s.pos
	i := special(s.d, start+1)
	if i < len(s.d) && s.d[i] == '"' {
		s.pos = i + 1
		return s.d[start+1 : i], true
	}
	s.pos = stringEnd(s.d, i)
	return nil, false
}

// memberName reads a member name: raw bytes when plain, else unquoted.
func (s *jscan) memberName() (raw []byte, name string) {
	start := s.pos
	if b, ok := s.nameBytes(); ok {
		return b, ""
	}
	return nil, unquote(s.d[start:s.pos])
}

// eachMember reads the object at pos member by member: fn is called with
// each member's name (unquoted) and pos at its value, and moves past the
// value (skipValue, or a walk of its own); a value fn leaves where it
// was is skipped. pos ends past the object. A value that is not an object
// is left as it is (false).
func (s *jscan) eachMember(fn func(name string)) bool {
	return s.eachMemberName(func(name []byte) { fn(string(name)) })
}

// eachMemberName is eachMember with each name as bytes: the text's own
// when the name has no escape (nothing is allocated), else unquoted. fn
// must not keep them.
func (s *jscan) eachMemberName(fn func(name []byte)) bool {
	s.ws()
	if s.peek() != '{' {
		return false
	}
	s.pos++
	for {
		s.ws()
		if s.peek() != '"' {
			if s.peek() == '}' {
				s.pos++
			}
			return true
		}
		raw, name := s.memberName()
		if raw == nil {
			raw = []byte(name)
		}
		s.ws()
		if s.peek() == ':' {
			s.pos++
		}
		s.ws()
		at := s.pos
		fn(raw)
		if s.pos == at {
			s.skipValue()
		}
		s.ws()
		if s.peek() == ',' {
			s.pos++
		}
	}
}

// stepOver moves s past the value at pos when it is the text of one of
// colls (whose end is known: no walk over it) and reports whether it did.
func stepOver(s *jscan, colls []Collection) bool {
	for _, c := range colls {
		if len(c.Text) > 0 && offsetIn(s.d, c.Text) == s.pos {
			s.pos += len(c.Text)
			return true
		}
	}
	return false
}

// entryValue moves s from the start of a map's record ({"key": value})
// past the key and the colon to the value, and returns the key as
// written (quoted); ok is false when the record is no object or has no
// member.
func (s *jscan) entryValue() (key []byte, ok bool) {
	s.ws()
	if s.peek() != '{' {
		return nil, false
	}
	s.pos++
	s.ws()
	if s.peek() != '"' {
		return nil, false // {}: no member
	}
	ks := s.pos
	s.skipString()
	key = s.d[ks:s.pos]
	s.ws()
	s.pos++ // ':'
	s.ws()
	return key, true
}

// eachEntry calls fn with the name (quoted, as written) of each member
// of the object whose members start at pos (after its '{', or after a
// member and its ','), s at the member's value; fn moves s past the
// value, and stops the walk by returning false.
func (s *jscan) eachEntry(fn func(key []byte) bool) {
	for {
		s.ws()
		if s.peek() != '"' {
			return
		}
		ks := s.pos
		s.skipString()
		key := s.d[ks:s.pos]
		s.ws()
		s.pos++ // ':'
		s.ws()
		if !fn(key) {
			return
		}
		s.ws()
		if s.peek() == ',' {
			s.pos++
		}
	}
}

// members is eachMember with each member's value as its raw text.
func (s *jscan) members(fn func(name string, val []byte)) bool {
	return s.eachMember(func(name string) {
		start := s.pos
		s.skipValue()
		fn(name, s.d[start:s.pos])
	})
}

// elements calls fn with the raw text of each element of the array at
// pos, and moves past the array. A value that is not an array is left as
// it is (false).
func (s *jscan) elements(fn func(val []byte)) bool {
	s.ws()
	if s.peek() != '[' {
		return false
	}
	s.pos++
	for {
		s.ws()
		if s.peek() == ']' || s.pos >= len(s.d) {
			if s.peek() == ']' {
				s.pos++
			}
			return true
		}
		start := s.pos
		s.skipValue()
		if s.pos == start {
			// Not a value (a stray comma or colon): step over it.
			s.pos++
			continue
		}
		fn(s.d[start:s.pos])
		s.ws()
		if s.peek() == ',' {
			s.pos++
		}
	}
}
