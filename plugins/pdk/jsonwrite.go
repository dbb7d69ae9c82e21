package pdk

import (
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// Writer builds JSON into a byte buffer without reflection. It inserts the
// commas and colons itself; the caller only has to call the methods in an
// order that forms valid JSON (Key before each object member value).
// The zero value is ready to use.
type Writer struct {
	buf       []byte
	needComma bool
}

// NewWriter returns a Writer that appends to buf (which may be nil).
func NewWriter(buf []byte) *Writer { return &Writer{buf: buf} }

// Bytes returns the JSON written so far. It aliases the writer's buffer.
func (w *Writer) Bytes() []byte { return w.buf }

// Len returns the number of bytes written so far.
func (w *Writer) Len() int { return len(w.buf) }

// Reset empties the buffer, keeping its capacity.
func (w *Writer) Reset() { w.buf = w.buf[:0]; w.needComma = false }

func (w *Writer) sep() {
	if w.needComma {
		w.buf = append(w.buf, ',')
	}
}

// BeginObject writes '{'.
func (w *Writer) BeginObject() { w.sep(); w.buf = append(w.buf, '{'); w.needComma = false }

// EndObject writes '}'.
func (w *Writer) EndObject() { w.buf = append(w.buf, '}'); w.needComma = true }

// BeginArray writes '['.
func (w *Writer) BeginArray() { w.sep(); w.buf = append(w.buf, '['); w.needComma = false }

// EndArray writes ']'.
func (w *Writer) EndArray() { w.buf = append(w.buf, ']'); w.needComma = true }

// Key writes an object key and its colon.
func (w *Writer) Key(k string) {
	w.sep()
	w.buf = AppendQuote(w.buf, k)
	w.buf = append(w.buf, ':')
	w.needComma = false
}

// KeyBytes is Key for a byte slice.
func (w *Writer) KeyBytes(k []byte) {
	w.sep()
	w.buf = appendQuote(w.buf, k)
	w.buf = append(w.buf, ':')
	w.needComma = false
}

// String writes a string value.
func (w *Writer) String(s string) { w.sep(); w.buf = AppendQuote(w.buf, s); w.needComma = true }

// StringBytes writes a string value from bytes.
func (w *Writer) StringBytes(s []byte) { w.sep(); w.buf = appendQuote(w.buf, s); w.needComma = true }

// Int writes an integer value.
func (w *Writer) Int(n int64) { w.sep(); w.buf = strconv.AppendInt(w.buf, n, 10); w.needComma = true }

// Bool writes true or false.
func (w *Writer) Bool(b bool) { w.sep(); w.buf = strconv.AppendBool(w.buf, b); w.needComma = true }

// Null writes null.
func (w *Writer) Null() { w.sep(); w.buf = append(w.buf, "null"...); w.needComma = true }

// Raw writes an already encoded JSON value (for example one returned by
// Reader.RawValue) as it is.
func (w *Writer) Raw(v []byte) { w.sep(); w.buf = append(w.buf, v...); w.needComma = true }

// Token writes a token read by a Reader, so that a token stream can be
// copied (and filtered) from a Reader to a Writer.
func (w *Writer) Token(t Token) {
	switch t.Kind {
	case BeginObject:
		w.BeginObject()
	case EndObject:
		w.EndObject()
	case BeginArray:
		w.BeginArray()
	case EndArray:
		w.EndArray()
	case Key:
		w.sep()
		w.buf = append(w.buf, t.Raw...)
		w.buf = append(w.buf, ':')
		w.needComma = false
	case Null, True, False, Number, String:
		w.Raw(t.Raw)
	}
}

// AppendQuote appends s to dst as a JSON string literal. Control
// characters, '"' and '\\' are escaped; invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func AppendQuote(dst []byte, s string) []byte {
	// Read-only view of the string's bytes: appendQuote never writes to it.
	return appendQuote(dst, unsafe.Slice(unsafe.StringData(s), len(s)))
}

func appendQuote(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		i = skipQuotePlain(s, i) // plain ASCII a word at a time
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\u202`...)
			dst = append(dst, "0123456789abcdef"[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}
