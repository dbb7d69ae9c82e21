package budget

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A byte scanner for JSON that is already known to be valid UTF-8. It
// validates the grammar as strictly as jsontext (RFC 8259, with escaped
// surrogates paired), but does nothing else: no token values, no
// allocation. RATIONALE.md ("Level 1 scans bytes") says why it exists.

// maxDepth is the deepest nesting the scanner accepts; deeper JSON is
// treated as text.
const maxDepth = 9000

type scanner struct {
	d   []byte
	pos int
	// lone counts the lone surrogate escapes seen ("\ud800" without
	// its pair): valid JSON text that decodes to U+FFFD.
	lone int
}

// errJSON describes a syntax error at an offset.
type errJSON struct {
	off int
	msg string
}

// Error gives the offset and what was wrong.
func (e *errJSON) Error() string { return fmt.Sprintf("invalid JSON at byte %d: %s", e.off, e.msg) }

func (s *scanner) fail(msg string) error { return &errJSON{off: s.pos, msg: msg} }

// strPlain marks bytes that need no attention inside a string.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (s *scanner) ws() {
	for s.pos < len(s.d) {
		switch s.d[s.pos] {
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.pos < len(s.d) {
		return s.d[s.pos]
	}
	return 0
}

// str scans the string at s.pos (which holds '"') and reports whether it
// has escapes.
func (s *scanner) str() (bool, error) {
	d := s.d
	i := s.pos + 1
	esc := false
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control byte (a SWAR test: it may flag a word that is plain, never
		// miss one that is not), then byte by byte.
		for i+8 <= len(d) {
			x := binary.LittleEndian.Uint64(d[i:])
			if hasLess(x, 0x20)|hasZero(x^(lsb*'"'))|hasZero(x^(lsb*'\\')) != 0 {
				break
			}
			i += 8
		}
		for i < len(d) && strPlain[d[i]] {
			i++
		}
		if i >= len(d) {
			s.pos = i
			return esc, s.fail("unterminated string")
		}
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return esc, nil
		case c == '\\':
			esc = true
			if i+1 >= len(d) {
				s.pos = i
				return esc, s.fail("unterminated escape")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				r, ok := hex4(d, i+2)
				if !ok {
					s.pos = i
					return esc, s.fail("bad \\u escape")
				}
				i += 6
				// A lone surrogate escape ("\ud800", as Python writes
				// one) is valid JSON text (RFC 8259's grammar allows any
				// \uXXXX); decoders turn it into U+FFFD, as Go does.
				// It is counted, so that the change can be stated.
				if r >= 0xD800 && r <= 0xDFFF {
					paired := false
					if r <= 0xDBFF && i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
						if r2, ok := hex4(d, i+2); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
							i += 6
							paired = true
						}
					}
					if !paired {
						s.lone++
					}
				}
			default:
				s.pos = i
				return esc, s.fail("bad escape")
			}
		default:
			s.pos = i
			return esc, s.fail("control character in string")
		}
	}
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// hasZero is non-zero when a byte of x is zero.
func hasZero(x uint64) uint64 { return (x - lsb) & ^x & msb }

// hasLess is non-zero when a byte of x is below n (n <= 128).
func hasLess(x uint64, n uint64) uint64 { return (x - lsb*n) & ^x & msb }

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

// num scans a number.
func (s *scanner) num() error {
	d := s.d
	i := s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && digit(d[i]) {
			i++
		}
	default:
		s.pos = i
		return s.fail("bad number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || !digit(d[i]) {
			s.pos = i
			return s.fail("bad fraction")
		}
		for i < len(d) && digit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !digit(d[i]) {
			s.pos = i
			return s.fail("bad exponent")
		}
		for i < len(d) && digit(d[i]) {
			i++
		}
	}
	s.pos = i
	return nil
}

func (s *scanner) lit(word string) error {
	if len(s.d)-s.pos < len(word) || string(s.d[s.pos:s.pos+len(word)]) != word {
		return s.fail("bad literal")
	}
	s.pos += len(word)
	return nil
}

// scalar scans a string, number or literal starting with c.
func (s *scanner) scalar(c byte) error {
	switch c {
	case '"':
		_, err := s.str()
		return err
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	case 0:
		return s.fail("unexpected end of input")
	}
	if c == '-' || digit(c) {
		return s.num()
	}
	return s.fail(fmt.Sprintf("unexpected %q", c))
}

// skip scans one value (after white space).
func (s *scanner) skip(depth int) error {
	c := s.peek()
	switch c {
	case '{':
		if depth >= maxDepth {
			return s.fail("nested too deep")
		}
		s.pos++
		if s.peek() == '}' {
			s.pos++
			return nil
		}
		for {
			if err := s.name(); err != nil {
				return err
			}
			if err := s.skip(depth + 1); err != nil {
				return err
			}
			more, err := s.next('}')
			if err != nil || !more {
				return err
			}
		}
	case '[':
		if depth >= maxDepth {
			return s.fail("nested too deep")
		}
		s.pos++
		if s.peek() == ']' {
			s.pos++
			return nil
		}
		for {
			if err := s.skip(depth + 1); err != nil {
				return err
			}
			more, err := s.next(']')
			if err != nil || !more {
				return err
			}
		}
	}
	return s.scalar(c)
}

// name scans a member name and its colon; the name's quoted text is
// s.d[start:end].
func (s *scanner) name() error {
	if s.peek() != '"' {
		return s.fail("want a member name")
	}
	if _, err := s.str(); err != nil {
		return err
	}
	if s.peek() != ':' {
		return s.fail("want ':'")
	}
	s.pos++
	return nil
}

// next consumes ',' (more elements: true) or the closing delimiter.
func (s *scanner) next(end byte) (bool, error) {
	switch s.peek() {
	case ',':
		s.pos++
		return true, nil
	case end:
		s.pos++
		return false, nil
	}
	return false, s.fail(fmt.Sprintf("want ',' or '%c'", end))
}

// endOfValue checks what follows a top-level value: white space, the end,
// or (after an object, array or string) another value.
func (s *scanner) endOfValue(last byte) error {
	if s.pos >= len(s.d) {
		return nil
	}
	switch s.d[s.pos] {
	case ' ', '\t', '\r', '\n':
		return nil
	}
	if last == '}' || last == ']' || last == '"' {
		return nil
	}
	return s.fail("want white space after a value")
}

var errNoValue = errors.New("no JSON value")
