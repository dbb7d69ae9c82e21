package pdk

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the kind of a JSON token returned by Reader.Next.
type Kind uint8

// The token kinds. A string in key position is reported as Key, not String.
const (
	Invalid Kind = iota // an error occurred; see Reader.Err
	EOF                 // the top-level value is complete and only whitespace follows
	Null
	True
	False
	Number
	String
	Key
	BeginObject
	EndObject
	BeginArray
	EndArray
)

var kindNames = [...]string{"invalid", "end of input", "null", "true", "false", "number", "string", "key", "'{'", "'}'", "'['", "']'"}

// String names the kind for error messages.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Token is one JSON token. Raw aliases the reader's input: for strings and
// keys it is the quoted literal with its escapes intact (decode it with
// Token.Text or AppendUnquote), for numbers the number literal, for the
// other kinds the literal or bracket itself.
type Token struct {
	Kind Kind
	Raw  []byte
	// Offset is the byte offset of the token in the input.
	Offset int
}

// Text decodes a String or Key token. For other kinds it returns Raw as a
// string.
func (t Token) Text() string {
	if t.Kind != String && t.Kind != Key {
		return string(t.Raw)
	}
	if !needsUnquote(t.Raw) {
		return string(t.Raw[1 : len(t.Raw)-1])
	}
	return string(AppendUnquote(nil, t.Raw))
}

// SyntaxError reports malformed JSON with the byte offset where it was
// detected.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error formats the message with its offset.
func (e *SyntaxError) Error() string {
	return "json: " + e.Msg + " at offset " + strconv.Itoa(e.Offset)
}

// MaxDepth is the deepest nesting of objects and arrays a Reader accepts,
// the same limit encoding/json applies.
const MaxDepth = 10000

// reader states: what the grammar allows next.
const (
	stValue      = iota // a value is required
	stValueOrEnd        // just after '[': a value or ']'
	stKeyOrEnd          // just after '{': a key or '}'
	stKey               // after ',' in an object: a key
	stCommaOrEnd        // after a value inside a container
	stDone              // the top-level value is complete
)

// Reader is a streaming, reflection-free JSON tokenizer over a byte slice.
// It validates the input as it goes (the same language json.Valid
// accepts) and does not allocate per token: Token.Raw aliases the input.
// The zero value is not usable; call NewReader.
type Reader struct {
	data  []byte
	pos   int
	stack []byte // '{' or '[' per open container
	state uint8
	err   error
	peek  Token
	has   bool // peek holds the next token
}

// NewReader returns a Reader over data, which must hold exactly one JSON
// value, optionally surrounded by whitespace.
func NewReader(data []byte) *Reader {
	return &Reader{data: data, stack: make([]byte, 0, 16)}
}

// Reset makes r read data from the start, keeping its buffers.
func (r *Reader) Reset(data []byte) {
	*r = Reader{data: data, stack: r.stack[:0]}
}

// Err returns the first error the reader met, or nil.
func (r *Reader) Err() error { return r.err }

// Offset returns the byte offset just after the last token consumed.
func (r *Reader) Offset() int {
	if r.has {
		return r.peek.Offset
	}
	return r.pos
}

// Depth returns how many containers are open.
func (r *Reader) Depth() int {
	d := len(r.stack)
	if r.has {
		switch r.peek.Kind {
		case BeginObject, BeginArray:
			d--
		case EndObject, EndArray:
			d++
		}
	}
	return d
}

func (r *Reader) fail(off int, format string, args ...any) Token {
	if r.err == nil {
		r.err = &SyntaxError{Offset: off, Msg: sprintfMsg(format, args)}
	}
	return Token{Kind: Invalid, Offset: off}
}

// Peek returns the kind of the next token without consuming it.
func (r *Reader) Peek() Kind {
	if !r.has {
		r.peek = r.next()
		r.has = true
	}
	return r.peek.Kind
}

// Next consumes and returns the next token. At the end of the input it
// returns a token of kind EOF; after an error, a token of kind Invalid (and
// Err reports why).
func (r *Reader) Next() Token {
	if r.has {
		r.has = false
		return r.peek
	}
	return r.next()
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func (r *Reader) skipSpace() { r.pos = skipSpace(r.data, r.pos) }

func (r *Reader) next() Token {
	if r.err != nil {
		return Token{Kind: Invalid, Offset: r.pos}
	}
	r.skipSpace()
	if r.pos >= len(r.data) {
		if r.state == stDone {
			return Token{Kind: EOF, Offset: r.pos}
		}
		return r.fail(r.pos, "unexpected end of input")
	}
	c := r.data[r.pos]
	switch r.state {
	case stDone:
		return r.fail(r.pos, "invalid character %q after top-level value", c)
	case stCommaOrEnd:
		top := r.stack[len(r.stack)-1]
		switch {
		case c == ',':
			r.pos++
			r.skipSpace()
			if top == '{' {
				r.state = stKey
				return r.key()
			}
			r.state = stValue
			return r.value()
		case c == '}' && top == '{', c == ']' && top == '[':
			return r.end()
		case top == '{':
			return r.fail(r.pos, "invalid character %q after object member, want ',' or '}'", c)
		default:
			return r.fail(r.pos, "invalid character %q after array element, want ',' or ']'", c)
		}
	case stKeyOrEnd:
		if c == '}' {
			return r.end()
		}
		return r.key()
	case stKey:
		return r.key()
	case stValueOrEnd:
		if c == ']' {
			return r.end()
		}
		return r.value()
	default:
		return r.value()
	}
}

func (r *Reader) end() Token {
	t := Token{Kind: EndObject, Raw: r.data[r.pos : r.pos+1], Offset: r.pos}
	if r.data[r.pos] == ']' {
		t.Kind = EndArray
	}
	r.pos++
	r.stack = r.stack[:len(r.stack)-1]
	r.valueDone()
	return t
}

func (r *Reader) valueDone() {
	if len(r.stack) == 0 {
		r.state = stDone
	} else {
		r.state = stCommaOrEnd
	}
}

func (r *Reader) key() Token {
	if r.pos >= len(r.data) {
		return r.fail(r.pos, "unexpected end of input, want object key")
	}
	if r.data[r.pos] != '"' {
		return r.fail(r.pos, "invalid character %q, want object key string", r.data[r.pos])
	}
	start := r.pos
	end, ok := r.scanString(r.pos)
	if !ok {
		return Token{Kind: Invalid, Offset: start}
	}
	t := Token{Kind: Key, Raw: r.data[start:end], Offset: start}
	r.pos = end
	r.skipSpace()
	if r.pos >= len(r.data) {
		return r.fail(r.pos, "unexpected end of input, want ':'")
	}
	if r.data[r.pos] != ':' {
		return r.fail(r.pos, "invalid character %q after object key, want ':'", r.data[r.pos])
	}
	r.pos++
	r.state = stValue
	return t
}

func (r *Reader) value() Token {
	if r.pos >= len(r.data) {
		return r.fail(r.pos, "unexpected end of input, want a value")
	}
	start := r.pos
	c := r.data[r.pos]
	switch c {
	case '{', '[':
		if len(r.stack) >= MaxDepth {
			return r.fail(r.pos, "nesting deeper than %d", MaxDepth)
		}
		r.stack = append(r.stack, c)
		r.pos++
		if c == '{' {
			r.state = stKeyOrEnd
			return Token{Kind: BeginObject, Raw: r.data[start:r.pos], Offset: start}
		}
		r.state = stValueOrEnd
		return Token{Kind: BeginArray, Raw: r.data[start:r.pos], Offset: start}
	case '"':
		end, ok := r.scanString(r.pos)
		if !ok {
			return Token{Kind: Invalid, Offset: start}
		}
		r.pos = end
		r.valueDone()
		return Token{Kind: String, Raw: r.data[start:end], Offset: start}
	case 't':
		return r.literal("true", True)
	case 'f':
		return r.literal("false", False)
	case 'n':
		return r.literal("null", Null)
	}
	if c == '-' || (c >= '0' && c <= '9') {
		end, ok := r.scanNumber(r.pos)
		if !ok {
			return Token{Kind: Invalid, Offset: start}
		}
		r.pos = end
		r.valueDone()
		return Token{Kind: Number, Raw: r.data[start:end], Offset: start}
	}
	return r.fail(r.pos, "invalid character %q looking for beginning of value", c)
}

func (r *Reader) literal(lit string, k Kind) Token {
	start := r.pos
	if len(r.data)-start < len(lit) || string(r.data[start:start+len(lit)]) != lit {
		return r.fail(start, "invalid literal, want %s", lit)
	}
	r.pos += len(lit)
	r.valueDone()
	return Token{Kind: k, Raw: r.data[start:r.pos], Offset: start}
}

// scanString validates the string starting at start (a '"') and returns
// the offset just past its closing quote.
func (r *Reader) scanString(start int) (int, bool) {
	// Plain strings are skipped 32 bytes per loop iteration, and the
	// first stop byte is found with selects, not branches; a '"' there
	// ends the string. Anything else (an escape, a control byte, the
	// last 32 bytes of the input) is left to scanStringLong.
	d := r.data
	i := start + 1
	for i+32 <= len(d) {
		w := d[i : i+32 : i+32]
		m0 := stringStopMask(le64(w[0:]))
		m1 := stringStopMask(le64(w[8:]))
		m2 := stringStopMask(le64(w[16:]))
		m3 := stringStopMask(le64(w[24:]))
		if m0|m1|m2|m3 != 0 {
			n := 24 + firstByte(m3)
			if m2 != 0 {
				n = 16 + firstByte(m2)
			}
			if m1 != 0 {
				n = 8 + firstByte(m1)
			}
			if m0 != 0 {
				n = firstByte(m0)
			}
			if w[n] == '"' {
				return i + n + 1, true
			}
			break
		}
		i += 32
	}
	return r.scanStringLong(start)
}

// scanStringLong is scanString for long strings, strings with escapes and
// malformed strings.
func (r *Reader) scanStringLong(start int) (int, bool) {
	d := r.data
	i := start + 1
	for {
		// Plain bytes are skipped a word at a time (see scan.go): this
		// loop runs once per escape, not once per byte.
		i = skipPlain(d, i)
		if i >= len(d) {
			break
		}
		switch c := d[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(d) {
				r.fail(i, "unexpected end of input in string escape")
				return 0, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) {
					r.fail(i, "unexpected end of input in \\u escape")
					return 0, false
				}
				for j := i + 2; j < i+6; j++ {
					if unhex(d[j]) < 0 {
						r.fail(j, "invalid character %q in \\u escape", d[j])
						return 0, false
					}
				}
				i += 6
			default:
				r.fail(i, "invalid escape \\%c in string", d[i+1])
				return 0, false
			}
		default:
			r.fail(i, "invalid control character %q in string", c)
			return 0, false
		}
	}
	r.fail(len(d), "unexpected end of input in string")
	return 0, false
}

// scanNumber validates the number starting at start and returns the
// offset just past it.
func (r *Reader) scanNumber(start int) (int, bool) {
	// The common case, an integer of one to seven digits, in one word
	// and no loop.
	d := r.data
	if start+10 <= len(d) {
		i := start
		if d[i] == '-' {
			i++
		}
		n := firstByte(nonDigitMask(le64(d[i:])))
		if c := d[i+n]; uint(n-1) < 7 && (n == 1 || d[i] != '0') && c != '.' && c|0x20 != 'e' {
			return i + n, true
		}
	}
	return r.scanNumberLong(start)
}

// scanNumberLong is scanNumber for every other number, with the errors.
func (r *Reader) scanNumberLong(start int) (int, bool) {
	d := r.data
	i := start
	if d[i] == '-' {
		i++
	}
	if i >= len(d) {
		r.fail(i, "unexpected end of input in number")
		return 0, false
	}
	switch {
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		i = skipDigits(d, i)
	default:
		r.fail(i, "invalid character %q in number", d[i])
		return 0, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.fail(i, "want digit after decimal point")
			return 0, false
		}
		i = skipDigits(d, i)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.fail(i, "want digit in exponent")
			return 0, false
		}
		i = skipDigits(d, i)
	}
	return i, true
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// Skip consumes the next value entirely (a scalar, or a container with all
// it holds). If the next token is a key, it skips the key and its value.
func (r *Reader) Skip() error {
	_, err := r.RawValue()
	return err
}

// RawValue consumes the next value and returns its bytes exactly as they
// appear in the input (aliasing it). If the next token is a key, the key is
// consumed first and the value after it is returned.
func (r *Reader) RawValue() ([]byte, error) {
	t := r.Next()
	if t.Kind == Key {
		t = r.Next()
	}
	switch t.Kind {
	case Invalid:
		return nil, r.err
	case BeginObject, BeginArray:
		if !r.skipContainer(len(r.stack)) {
			return nil, r.err
		}
		return r.data[t.Offset:r.pos], nil
	case EndObject, EndArray, EOF:
		r.fail(t.Offset, "want a value, found %s", t.Kind)
		return nil, r.err
	}
	return t.Raw, nil
}

// skipContainer consumes the rest of the container whose opening bracket
// was just read (the stack then holds depth entries). It accepts exactly
// what next does, with the same errors, but in one loop with no call per
// token: inside WebAssembly every call and loop iteration is paid for
// (see RATIONALE.md), so this is how Skip and RawValue stay cheap.
func (r *Reader) skipContainer(depth int) bool {
	switch r.skipFast(depth) {
	case fastDone:
		return true
	case fastFailed:
		return false
	}
	return r.skipContainerSlow(depth)
}

// skipFast results.
const (
	fastDone   = iota // the container is consumed
	fastFailed        // a malformed string or number: r.err is set
	fastStop          // something the fast loop leaves to skipContainerSlow
)

// skipFast is skipContainer for well-formed input, with as few branches
// per token as it can: a member (key, colon, value, comma) is one loop
// iteration. It commits its state (r.pos, r.state, r.stack) only at token
// boundaries and stops, leaving the rest to skipContainerSlow, at anything
// unusual (an error, the depth limit, the end of the input), so that every
// error is reported by the same code, with the same message and offset,
// as when reading token by token.
func (r *Reader) skipFast(depth int) int {
	// Written for the host's cost model (docs/pdk.md): each `continue` is
	// the one exit an iteration must pay; rare outcomes sit in else
	// branches so that the common ones fall through.
	d := r.data
	i := r.pos
	st := r.state
	for {
		i = skipSpace(d, i)
		if i < len(d) {
		} else {
			break
		}
		c := d[i]
		if st == stCommaOrEnd {
			top := r.stack[len(r.stack)-1]
			if c == ',' {
				j := skipSpace(d, i+1)
				if j < len(d) {
				} else {
					break // the slow loop says what was wanted after the comma
				}
				i, c = j, d[j]
				st = stValue
				if top == '{' {
					st = stKey
				}
			} else if c == top+2 { // '{'+2 == '}', '['+2 == ']'
				i++
				r.stack = r.stack[:len(r.stack)-1]
				if len(r.stack) < depth {
					r.pos = i
					r.valueDone()
					return fastDone
				}
				continue
			} else {
				break
			}
		}
		if st == stKey || st == stKeyOrEnd {
			if c == '"' {
				end, ok := r.scanString(i)
				if ok {
				} else {
					r.pos, r.state = i, st
					return fastFailed
				}
				j := skipSpace(d, end)
				if j < len(d) && d[j] == ':' {
				} else {
					break // the slow loop reads the key again and says what is wrong
				}
				j = skipSpace(d, j+1)
				if j < len(d) {
				} else {
					i, st = j, stValue
					break
				}
				i, c, st = j, d[j], stValue
			} else if c == '}' && st == stKeyOrEnd {
				i++
				r.stack = r.stack[:len(r.stack)-1]
				st = stCommaOrEnd
				if len(r.stack) < depth {
					r.pos = i
					r.valueDone()
					return fastDone
				}
				continue
			} else {
				break
			}
		} else if st == stValueOrEnd && c == ']' {
			i++
			r.stack = r.stack[:len(r.stack)-1]
			st = stCommaOrEnd
			if len(r.stack) < depth {
				r.pos = i
				r.valueDone()
				return fastDone
			}
			continue
		}
		// A value, the most frequent kinds first.
		if c == '"' {
			end, ok := r.scanString(i)
			if ok {
			} else {
				r.pos, r.state = i, st
				return fastFailed
			}
			i, st = end, stCommaOrEnd
			continue
		}
		if c-'0' <= 9 || c == '-' {
			end, ok := r.scanNumber(i)
			if ok {
			} else {
				r.pos, r.state = i, st
				return fastFailed
			}
			i, st = end, stCommaOrEnd
			continue
		}
		if c == '{' || c == '[' {
			if len(r.stack) < MaxDepth {
			} else {
				break
			}
			r.stack = append(r.stack, c)
			i++
			st = stValueOrEnd
			if c == '{' {
				st = stKeyOrEnd
			}
			continue
		}
		if n := literalLen(d[i:]); n > 0 {
			i, st = i+n, stCommaOrEnd
			continue
		}
		break
	}
	r.pos, r.state = i, st
	return fastStop
}

// skipContainerSlow is skipContainer for what skipFast leaves: the
// general state machine with every error message.
func (r *Reader) skipContainerSlow(depth int) bool {
	d := r.data
	for len(r.stack) >= depth {
		r.pos = skipSpace(d, r.pos)
		if r.pos >= len(d) {
			r.fail(r.pos, "unexpected end of input")
			return false
		}
		c := d[r.pos]
		switch r.state {
		case stCommaOrEnd:
			top := r.stack[len(r.stack)-1]
			switch {
			case c == ',':
				r.pos++
				if top == '{' {
					r.state = stKey
				} else {
					r.state = stValue
				}
				r.pos = skipSpace(d, r.pos)
				if r.pos >= len(d) {
					if top == '{' {
						r.fail(r.pos, "unexpected end of input, want object key")
					} else {
						r.fail(r.pos, "unexpected end of input, want a value")
					}
					return false
				}
				continue
			case c == '}' && top == '{', c == ']' && top == '[':
				r.pos++
				r.stack = r.stack[:len(r.stack)-1]
				r.valueDone()
				continue
			case top == '{':
				r.fail(r.pos, "invalid character %q after object member, want ',' or '}'", c)
			default:
				r.fail(r.pos, "invalid character %q after array element, want ',' or ']'", c)
			}
			return false
		case stKeyOrEnd, stKey:
			if c == '}' && r.state == stKeyOrEnd {
				r.pos++
				r.stack = r.stack[:len(r.stack)-1]
				r.valueDone()
				continue
			}
			if c != '"' {
				r.fail(r.pos, "invalid character %q, want object key string", c)
				return false
			}
			end, ok := r.scanString(r.pos)
			if !ok {
				return false
			}
			r.pos = end
			r.pos = skipSpace(d, r.pos)
			if r.pos >= len(d) {
				r.fail(r.pos, "unexpected end of input, want ':'")
				return false
			}
			if d[r.pos] != ':' {
				r.fail(r.pos, "invalid character %q after object key, want ':'", d[r.pos])
				return false
			}
			r.pos++
			r.state = stValue
			continue
		case stValueOrEnd:
			if c == ']' {
				r.pos++
				r.stack = r.stack[:len(r.stack)-1]
				r.valueDone()
				continue
			}
		}
		// A value.
		switch {
		case c == '{' || c == '[':
			if len(r.stack) >= MaxDepth {
				r.fail(r.pos, "nesting deeper than %d", MaxDepth)
				return false
			}
			r.stack = append(r.stack, c)
			r.pos++
			if c == '{' {
				r.state = stKeyOrEnd
			} else {
				r.state = stValueOrEnd
			}
		case c == '"':
			end, ok := r.scanString(r.pos)
			if !ok {
				return false
			}
			r.pos = end
			r.state = stCommaOrEnd
		case c == '-' || (c >= '0' && c <= '9'):
			end, ok := r.scanNumber(r.pos)
			if !ok {
				return false
			}
			r.pos = end
			r.state = stCommaOrEnd
		case c == 't' || c == 'f' || c == 'n':
			if r.literal(literalFor(c), True).Kind == Invalid {
				return false
			}
		default:
			r.fail(r.pos, "invalid character %q looking for beginning of value", c)
			return false
		}
	}
	return true
}

func literalFor(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	}
	return "null"
}

// NextMember reads the next member of the object being read: its key
// token and the exact bytes of its value (as RawValue would return them).
// It returns ok false when the object ends (the closing brace is then
// consumed) or on an error (see Err). It does the work of More, Next and
// RawValue in one call, which matters inside WebAssembly.
func (r *Reader) NextMember() (key Token, value []byte, ok bool) {
	if r.has || r.err != nil || len(r.stack) == 0 || r.stack[len(r.stack)-1] != '{' ||
		(r.state != stKeyOrEnd && r.state != stCommaOrEnd) {
		return r.nextMemberSlow()
	}
	switch key, value, res := r.nextMemberFast(); res {
	case fastDone:
		return key, value, true
	case fastFailed:
		return Token{}, nil, false
	}
	return r.nextMember()
}

// nextMemberFast is NextMember for a well-formed member, in straight-line
// code. It changes nothing and returns fastStop at anything else (the end
// of the object, an error, the depth limit), for nextMember to handle
// with its exact messages; fastFailed means a malformed string, number
// or nested value, with r.err set as nextMember would set it.
func (r *Reader) nextMemberFast() (Token, []byte, int) {
	// The happy path is written as nested positive conditions: inside the
	// host a condition that fails costs an exit to Go, one that holds
	// falls through for free (see docs/pdk.md).
	d := r.data
	i := skipSpace(d, r.pos)
	if r.state == stCommaOrEnd {
		if i < len(d) && d[i] == ',' {
			i = skipSpace(d, i+1)
		} else {
			return Token{}, nil, fastStop
		}
	}
	if i < len(d) && d[i] == '"' {
		ke, ok := r.scanString(i)
		if !ok {
			return Token{}, nil, fastFailed
		}
		if j := skipSpace(d, ke); j < len(d) && d[j] == ':' {
			if vs := skipSpace(d, j+1); vs < len(d) {
				key := Token{Kind: Key, Raw: d[i:ke], Offset: i}
				c := d[vs]
				if c == '"' {
					if ve, ok := r.scanString(vs); ok {
						r.pos, r.state = ve, stCommaOrEnd
						return key, d[vs:ve], fastDone
					}
					return Token{}, nil, fastFailed
				}
				if c-'0' <= 9 || c == '-' {
					if ve, ok := r.scanNumber(vs); ok {
						r.pos, r.state = ve, stCommaOrEnd
						return key, d[vs:ve], fastDone
					}
					return Token{}, nil, fastFailed
				}
				if c == '{' || c == '[' {
					if len(r.stack) >= MaxDepth {
						return Token{}, nil, fastStop
					}
					r.stack = append(r.stack, c)
					r.pos = vs + 1
					r.state = stValueOrEnd
					if c == '{' {
						r.state = stKeyOrEnd
					}
					if r.skipContainer(len(r.stack)) {
						return key, d[vs:r.pos], fastDone
					}
					return Token{}, nil, fastFailed
				}
				if n := literalLen(d[vs:]); n > 0 {
					r.pos, r.state = vs+n, stCommaOrEnd
					return key, d[vs : vs+n], fastDone
				}
			}
		}
	}
	return Token{}, nil, fastStop
}

// literalLen returns the length of the literal null, true or false that d
// starts with, or 0.
func literalLen(d []byte) int {
	if len(d) >= 4 {
		switch string(d[:4]) {
		case "null", "true":
			return 4
		case "fals":
			if len(d) >= 5 && d[4] == 'e' {
				return 5
			}
		}
	}
	return 0
}

// NextElement reads the next element of the array being read and returns
// its exact bytes (as RawValue would). It returns ok false when the array
// ends (the closing bracket is then consumed) or on an error (see Err).
// It does the work of More and RawValue in one call, which matters inside
// the host (see docs/pdk.md).
func (r *Reader) NextElement() (value []byte, ok bool) {
	if r.has || r.err != nil || len(r.stack) == 0 || r.stack[len(r.stack)-1] != '[' ||
		(r.state != stValueOrEnd && r.state != stCommaOrEnd) {
		return r.nextElement()
	}
	switch v, res := r.nextElementFast(); res {
	case fastDone:
		return v, true
	case fastFailed:
		return nil, false
	}
	return r.nextElement()
}

// nextElementFast is NextElement for a well-formed element; like
// nextMemberFast it changes nothing when it returns fastStop.
func (r *Reader) nextElementFast() ([]byte, int) {
	d := r.data
	i := skipSpace(d, r.pos)
	if r.state == stCommaOrEnd {
		if i < len(d) && d[i] == ',' {
			i = skipSpace(d, i+1)
		} else {
			return nil, fastStop
		}
	}
	if i < len(d) {
		c := d[i]
		if c == '"' {
			if ve, ok := r.scanString(i); ok {
				r.pos, r.state = ve, stCommaOrEnd
				return d[i:ve], fastDone
			}
			return nil, fastFailed
		}
		if c == '{' || c == '[' {
			if len(r.stack) >= MaxDepth {
				return nil, fastStop
			}
			r.stack = append(r.stack, c)
			r.pos = i + 1
			r.state = stValueOrEnd
			if c == '{' {
				r.state = stKeyOrEnd
			}
			if r.skipContainer(len(r.stack)) {
				return d[i:r.pos], fastDone
			}
			return nil, fastFailed
		}
		if c-'0' <= 9 || c == '-' {
			if ve, ok := r.scanNumber(i); ok {
				r.pos, r.state = ve, stCommaOrEnd
				return d[i:ve], fastDone
			}
			return nil, fastFailed
		}
		if n := literalLen(d[i:]); n > 0 {
			r.pos, r.state = i+n, stCommaOrEnd
			return d[i : i+n], fastDone
		}
	}
	return nil, fastStop
}

// nextElement is NextElement in general, with every error message.
func (r *Reader) nextElement() ([]byte, bool) {
	if !r.More() {
		return nil, false
	}
	v, err := r.RawValue()
	if err != nil {
		return nil, false
	}
	return v, true
}

// nextMember is NextMember in general, with every error message.
func (r *Reader) nextMember() (key Token, value []byte, ok bool) {
	d := r.data
	r.pos = skipSpace(d, r.pos)
	if r.pos >= len(d) {
		r.fail(r.pos, "unexpected end of input")
		return Token{}, nil, false
	}
	switch c := d[r.pos]; {
	case c == '}':
		r.end()
		return Token{}, nil, false
	case r.state == stCommaOrEnd && c != ',':
		r.fail(r.pos, "invalid character %q after object member, want ',' or '}'", c)
		return Token{}, nil, false
	case r.state == stCommaOrEnd:
		r.pos++
		r.pos = skipSpace(d, r.pos)
	}
	key = r.key()
	if key.Kind == Invalid {
		return Token{}, nil, false
	}
	r.pos = skipSpace(d, r.pos)
	if r.pos >= len(d) {
		r.fail(r.pos, "unexpected end of input, want a value")
		return Token{}, nil, false
	}
	start := r.pos
	switch d[r.pos] {
	case '{', '[':
		if t := r.value(); t.Kind == Invalid {
			return Token{}, nil, false
		}
		if !r.skipContainer(len(r.stack)) {
			return Token{}, nil, false
		}
		return key, d[start:r.pos], true
	case '"':
		end, ok := r.scanString(r.pos)
		if !ok {
			return Token{}, nil, false
		}
		r.pos = end
		r.state = stCommaOrEnd
		return key, d[start:end], true
	}
	t := r.value()
	if t.Kind == Invalid {
		return Token{}, nil, false
	}
	return key, t.Raw, true
}

func (r *Reader) nextMemberSlow() (Token, []byte, bool) {
	if !r.More() {
		return Token{}, nil, false
	}
	key := r.Next()
	if key.Kind != Key {
		if key.Kind != Invalid {
			r.fail(key.Offset, "want key, found %s", key.Kind)
		}
		return Token{}, nil, false
	}
	v, err := r.RawValue()
	if err != nil {
		return Token{}, nil, false
	}
	return key, v, true
}

// expect consumes the next token and checks its kind.
func (r *Reader) expect(k Kind) (Token, error) {
	t := r.Next()
	if t.Kind == Invalid {
		return t, r.err
	}
	if t.Kind != k {
		r.fail(t.Offset, "want %s, found %s", k, t.Kind)
		return t, r.err
	}
	return t, nil
}

// BeginObject consumes a '{'.
func (r *Reader) BeginObject() error { _, err := r.expect(BeginObject); return err }

// BeginArray consumes a '['.
func (r *Reader) BeginArray() error { _, err := r.expect(BeginArray); return err }

// More reports whether the current object or array has another member or
// element. When it returns false, it has consumed the closing bracket (or
// met an error: check Err).
func (r *Reader) More() bool {
	switch r.Peek() {
	case EndObject, EndArray:
		r.Next()
		return false
	case Invalid, EOF:
		return false
	}
	return true
}

// Key consumes an object key and returns it decoded. The returned slice is
// only valid until the next call when the key holds escapes; otherwise it
// aliases the input.
func (r *Reader) Key() ([]byte, error) {
	t, err := r.expect(Key)
	if err != nil {
		return nil, err
	}
	return r.unquoted(t.Raw), nil
}

// String consumes a string value and returns it decoded, aliasing the
// input when it holds no escapes.
func (r *Reader) String() ([]byte, error) {
	t, err := r.expect(String)
	if err != nil {
		return nil, err
	}
	return r.unquoted(t.Raw), nil
}

func (r *Reader) unquoted(raw []byte) []byte {
	if !needsUnquote(raw) {
		return raw[1 : len(raw)-1]
	}
	return AppendUnquote(nil, raw)
}

// Int consumes a number value that must be an integer fitting in int64.
func (r *Reader) Int() (int64, error) {
	t, err := r.expect(Number)
	if err != nil {
		return 0, err
	}
	n, perr := strconv.ParseInt(string(t.Raw), 10, 64)
	if perr != nil {
		r.fail(t.Offset, "number %s is not an int64", t.Raw)
		return 0, r.err
	}
	return n, nil
}

// needsUnquote reports whether a quoted literal holds escapes or bytes that
// decoding changes (invalid UTF-8).
func needsUnquote(raw []byte) bool {
	s := raw[1 : len(raw)-1]
	// A validated literal holds no '"' or control byte inside, so the
	// first byte quoteStopMask marks is a '\\' or a byte >= 0x80.
	return skipQuotePlain(s, 0) < len(s)
}

// AppendUnquote appends the decoded contents of the quoted JSON string
// literal raw (as found in Token.Raw) to dst. Like encoding/json it
// replaces invalid UTF-8 and unpaired surrogates with U+FFFD. raw must
// have been validated by a Reader.
func AppendUnquote(dst, raw []byte) []byte {
	s := raw[1 : len(raw)-1]
	if skipQuotePlain(s, 0) == len(s) {
		return append(dst, s...) // the common case: plain ASCII, a word at a time
	}
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return append(dst, s...)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			switch s[i+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r1 := hex4(s[i+2:])
				i += 6
				if utf16.IsSurrogate(r1) {
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if r2 := hex4(s[i+2:]); utf16.DecodeRune(r1, r2) != utf8.RuneError {
							dst = utf8.AppendRune(dst, utf16.DecodeRune(r1, r2))
							i += 6
							continue
						}
					}
					r1 = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, r1)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, s[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			ru, size := utf8.DecodeRune(s[i:])
			if ru == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size
		}
	}
	return dst
}

func hex4(b []byte) rune {
	return rune(unhex(b[0])<<12 | unhex(b[1])<<8 | unhex(b[2])<<4 | unhex(b[3]))
}
