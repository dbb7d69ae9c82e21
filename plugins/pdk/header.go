package pdk

import (
	"bytes"
	"math/bits"
	"strconv"
	"unsafe"
)

// The tiny-call path: parsing the ABI input header and writing the output
// header with as few taken branches and calls as possible. Inside the host
// every Go call and every taken branch of a Go guest is an exit from
// wazero's native code to check the deadline (docs/pdk.md, "The cost of a
// tiny call"), and the generic Reader spends several hundred of them on a
// 100-byte header. parseHeaderFast handles the header as hosts write it
// (compact JSON, plain ASCII strings, small integers); on anything else it
// gives up and parseHeader runs the generic Reader over the line from the
// start, so what is accepted, what is returned and every error message are
// exactly the generic parser's (FuzzHeaderFast checks both ways).

// hdrStopMask marks the bytes that end a run of plain ASCII string
// content: '"', '\\', control bytes (< 0x20) and bytes >= 0x80.
func hdrStopMask(w uint64) uint64 {
	q := w ^ ('"' * lsb)
	b := w ^ ('\\' * lsb)
	plain := ((q & low7) + low7 | q) & ((b & low7) + low7 | b) & ((w & low7) + (0x80-0x20)*lsb | w)
	return (^plain | w) & msb
}

// hdrNewlineMask marks the '\n' bytes of w.
func hdrNewlineMask(w uint64) uint64 {
	x := w ^ '\n'*lsb
	return ^((x & low7) + low7 | x) & msb
}

// indexNewline is bytes.IndexByte(b, '\n') four words per loop iteration
// (the standard library's loop inside WebAssembly takes a byte per
// iteration).
func indexNewline(b []byte) int {
	i := 0
	for ; i+32 <= len(b); i += 32 {
		w := b[i : i+32 : i+32]
		if hdrNewlineMask(le64(w))|hdrNewlineMask(le64(w[8:]))|hdrNewlineMask(le64(w[16:]))|hdrNewlineMask(le64(w[24:])) != 0 {
			break
		}
	}
	for ; i+8 <= len(b); i += 8 {
		if m := hdrNewlineMask(le64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if k := bytes.IndexByte(b[i:], '\n'); k >= 0 {
		return i + k
	}
	return -1
}

// hdrDigits parses the JSON integer at d[i:] when it is 1 to 8 ASCII
// digits without a leading zero (unless it is "0") followed by ',' or '}'.
// It returns the value and the index after the digits, or ok false.
func hdrDigits(d []byte, i, n int) (v int, end int, ok bool) {
	w := le64(d[i:])
	// Bytes that are not digits: below '0' or above '9'.
	nd := (^((w & low7) + (0x80-'0')*lsb | w) | ((w & low7) + (0x80-('9'+1))*lsb | w)) & msb
	nd |= w & msb
	k := bits.TrailingZeros64(nd) >> 3 // digits in this word
	end = i + k
	if k == 0 || k == 8 || end >= n || (k > 1 && d[i] == '0') || (d[end] != ',' && d[end] != '}') {
		return 0, 0, false
	}
	// Eight digits at once (the first in the low byte), padded with
	// leading zeros in the low bytes.
	x := (w & 0x0f0f0f0f0f0f0f0f) << (uint(8-k) * 8)
	x = (x * (1 + 10<<8)) >> 8 & 0x00ff00ff00ff00ff
	x = (x * (1 + 100<<16)) >> 16 & 0x0000ffff0000ffff
	x = (x * (1 + 10000<<32)) >> 32
	return int(x), end, true
}

// hdrRaw consumes the JSON value at d[i:n] with a Reader and returns the
// index after it. A value nested nearly as deep as the Reader allows is
// refused, because the generic parser reads it one level deeper.
func hdrRaw(d []byte, i, n int) (int, []byte, bool) {
	if i >= n || d[i] <= ' ' {
		return 0, nil, false
	}
	var r Reader
	r.Reset(d[i:n])
	raw, err := r.RawValue()
	if err != nil || len(raw) >= 9000 {
		return 0, nil, false
	}
	return i + len(raw), raw, true
}

// Key words of the header, as little-endian words: the first and the last
// eight bytes of the two long keys.
var (
	kwContent1 = le64([]byte("content_"))
	kwContent2 = le64([]byte("ent_type"))
	kwBudget1  = le64([]byte("budget_t"))
	kwBudget2  = le64([]byte("t_tokens"))
)

// parseHeaderFast parses the header line d[:n] into h, or reports false
// when the line is anything but compact JSON whose keys and string values
// are plain ASCII without escapes and whose integers are small; h is then
// in an unspecified state. s holds the same bytes as d[:n]: the strings in
// h are slices of it. d must extend at least eight bytes past n, and d[n]
// must not be plain string content ('\n' or 0 will do): every word is
// loaded without a length check, and a word loaded at i <= n either lies
// inside d[:n] or holds d[n], which stops every scan.
//
// It is one function with the scans written out in place (a call, like a
// taken branch, is an exit to the host), and the usual header falls
// through most tests.
func parseHeaderFast(d []byte, n int, s string, h *Header) bool {
	if n < 2 || n+8 > len(d) || len(s) != n || d[0] != '{' {
		return false
	}
	i := 1
	if d[1] == '}' {
		i = 2
	} else {
		for {
			// A key: '"', plain content, '"', ':'.
			if i >= n || d[i] != '"' {
				return false
			}
			ks := i + 1
			ke := ks
			kw := le64(d[ks:])
			m := hdrStopMask(kw)
			for m == 0 {
				ke += 8
				m = hdrStopMask(le64(d[ke:]))
			}
			ke += bits.TrailingZeros64(m) >> 3
			if ke+1 >= n || d[ke] != '"' || d[ke+1] != ':' {
				return false
			}
			i = ke + 2
			var c byte
			switch ke - ks {
			case 3:
				if kw&0xffffff == 'a'|'b'<<8|'i'<<16 {
					c = 'a'
				}
			case 4:
				switch uint32(kw) {
				case 't' | 'o'<<8 | 'o'<<16 | 'l'<<24:
					c = 't'
				case 'a' | 'r'<<8 | 'g'<<16 | 's'<<24:
					c = 'r'
				}
			case 6:
				if kw&0xffffffffffff == 'c'|'o'<<8|'n'<<16|'f'<<24|'i'<<32|'g'<<40 {
					c = 'c'
				}
			case 12:
				if kw == kwContent1 && le64(d[ke-8:]) == kwContent2 {
					c = 'y'
				}
			case 13:
				if kw == kwBudget1 && le64(d[ke-8:]) == kwBudget2 {
					c = 'b'
				}
			}
			switch c {
			case 'a', 'b':
				v, end, ok := hdrDigits(d, i, n)
				if !ok {
					return false
				}
				if c == 'a' {
					h.ABI = v
				} else {
					h.BudgetTokens = v
				}
				i = end
			case 't', 'y':
				if d[i] != '"' {
					return false
				}
				e := i + 1
				m := hdrStopMask(le64(d[e:]))
				for m == 0 {
					e += 8
					m = hdrStopMask(le64(d[e:]))
				}
				e += bits.TrailingZeros64(m) >> 3
				if e >= n || d[e] != '"' {
					return false
				}
				if c == 't' {
					h.Tool = s[i+1 : e]
				} else {
					h.ContentType = s[i+1 : e]
				}
				i = e + 1
			case 'c':
				if d[i] == 'n' && i+4 < n && uint32(le64(d[i:])) == 'n'|'u'<<8|'l'<<16|'l'<<24 {
					i += 4
					break
				}
				if i+1 >= n || d[i] != '{' {
					return false
				}
				end, ok := hdrConfig(d, i+1, n, s, h)
				if !ok {
					return false
				}
				i = end
			default: // "args" and members the pdk does not know
				end, raw, ok := hdrRaw(d, i, n)
				if !ok {
					return false
				}
				if c == 'r' && string(raw) != "null" {
					h.Args = raw
				}
				i = end
			}
			if i >= n {
				return false
			}
			if d[i] != ',' {
				if d[i] != '}' {
					return false
				}
				i++
				break
			}
			i++
		}
	}
	if i != n {
		return false
	}
	if h.Config == nil {
		h.Config = map[string]string{}
	}
	return true
}

// hdrConfig parses the members of the config object after its '{' at
// d[i:], all plain strings, into h.Config, and returns the index after the
// closing '}'.
func hdrConfig(d []byte, i, n int, s string, h *Header) (int, bool) {
	if d[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= n || d[i] != '"' {
			return 0, false
		}
		cks := i + 1
		cke := cks
		m := hdrStopMask(le64(d[cke:]))
		if m != 0 {
			cke += bits.TrailingZeros64(m) >> 3
		} else {
			cke = hdrScanLong(d, cke)
		}
		if cke+2 >= n || d[cke] != '"' || d[cke+1] != ':' || d[cke+2] != '"' {
			return 0, false
		}
		vs := cke + 3
		ve := vs
		m = hdrStopMask(le64(d[ve:]))
		if m != 0 {
			ve += bits.TrailingZeros64(m) >> 3
		} else {
			ve = hdrScanLong(d, ve)
		}
		if ve+1 >= n || d[ve] != '"' {
			return 0, false
		}
		if h.Config == nil {
			h.Config = make(map[string]string, 1)
		}
		h.Config[s[cks:cke]] = s[vs:ve]
		i = ve + 2
		if d[ve+1] != ',' {
			if d[ve+1] != '}' {
				return 0, false
			}
			return i, true
		}
	}
}

// hdrScanLong continues a scan of plain string content whose first word,
// at i, held no stop byte (see parseHeaderFast for what d must hold).
func hdrScanLong(d []byte, i int) int {
	for {
		i += 8
		if m := hdrStopMask(le64(d[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
}

// Literal parts of the header as hosts write it (encoding/json's order of
// schemas.InputHeader), as little-endian words.
var (
	litABI     = le64([]byte("{\"abi\":\x00"))
	litTool    = le64([]byte(`,"tool":`))
	litBudget1 = le64([]byte(`,"budget`))
	litBudget2 = le64([]byte(`_tokens"`))
	litType1   = le64([]byte(`,"conten`))
	litType2   = le64([]byte(`t_type":`))
	litConfig  = le64([]byte(`,"config`))
	litArgs    = le64([]byte(`,"args":`))
)

// parseHeaderCanonical parses the header line d[:n] when it has exactly
// the form and member order hosts write (abi, tool, budget_tokens,
// content_type, config and optionally args, compact, plain strings): a
// straight line of word comparisons with no loop over members. It reports
// false for anything else, with h then in an unspecified state; d and s
// are as for parseHeaderFast.
func parseHeaderCanonical(d []byte, n int, s string, h *Header) bool {
	if n < 8 || n+8 > len(d) || len(s) != n || le64(d)&0x00ffffffffffffff != litABI {
		return false
	}
	v, i, ok := hdrDigits(d, 7, n)
	if !ok || d[i] != ',' || le64(d[i:]) != litTool || d[i+8] != '"' {
		return false
	}
	h.ABI = v
	e := i + 9
	m := hdrStopMask(le64(d[e:]))
	if m != 0 {
		e += bits.TrailingZeros64(m) >> 3
	} else {
		e = hdrScanLong(d, e)
	}
	if e >= n || d[e] != '"' {
		return false
	}
	h.Tool = s[i+9 : e]
	i = e + 1
	if le64(d[i:]) != litBudget1 || le64(d[i+8:]) != litBudget2 || d[i+16] != ':' {
		return false
	}
	v, i, ok = hdrDigits(d, i+17, n)
	if !ok || d[i] != ',' || le64(d[i:]) != litType1 || le64(d[i+8:]) != litType2 || d[i+16] != '"' {
		return false
	}
	h.BudgetTokens = v
	e = i + 17
	m = hdrStopMask(le64(d[e:]))
	if m != 0 {
		e += bits.TrailingZeros64(m) >> 3
	} else {
		e = hdrScanLong(d, e)
	}
	if e >= n || d[e] != '"' {
		return false
	}
	h.ContentType = s[i+17 : e]
	i = e + 1
	if le64(d[i:]) != litConfig || uint32(le64(d[i+8:]))&0xffffff != '"'|':'<<8|'{'<<16 {
		return false
	}
	i, ok = hdrConfig(d, i+11, n, s, h)
	if !ok || i >= n {
		return false
	}
	if d[i] != '}' {
		if le64(d[i:]) != litArgs {
			return false
		}
		end, raw, ok := hdrRaw(d, i+8, n)
		if !ok || end >= n || d[end] != '}' {
			return false
		}
		if string(raw) != "null" {
			h.Args = raw
		}
		i = end
	}
	if i+1 != n {
		return false
	}
	if h.Config == nil {
		h.Config = map[string]string{}
	}
	return true
}

// parseHeader parses the header line, the first n bytes of d, where d[n]
// is the newline after it if d is longer. The header's strings are slices
// of one copy of the line (Input reuses its buffer from call to call, so
// they cannot alias it).
func parseHeader(d []byte, n int, h *Header) error {
	s := string(d[:n])
	fd := d
	if len(d) < n+8 {
		// The fast path reads a word past the line: pad a copy.
		fd = make([]byte, n+8)
		copy(fd, d[:n])
	}
	if parseHeaderCanonical(fd, n, s, h) {
		return nil
	}
	*h = Header{}
	if parseHeaderFast(fd, n, s, h) {
		return nil
	}
	*h = Header{}
	return parseHeaderGeneric(d[:n], h)
}

// outScratch holds the output header of WriteOutput and Run: a guest runs
// one call at a time, and the bytes are copied to the host before the
// call returns.
var outScratch [512]byte

// plainASCII reports whether b holds only ASCII bytes that a JSON string
// holds as they are (no '"', '\\' or control character).
func plainASCII(b []byte) bool {
	var m uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		m |= hdrStopMask(le64(b[i:]))
	}
	if i < len(b) {
		var w uint64
		if len(b) >= 8 {
			w = le64(b[len(b)-8:])
		} else {
			// The bytes past the end read as zero: make them plain.
			pad := ^uint64(0) << (uint(len(b)-i) * 8)
			w = wordAt(b, i)&^pad | 'a'*lsb&pad
		}
		m |= hdrStopMask(w)
	}
	return m == 0
}

// appendPlainQuote appends s as a JSON string literal: the bytes as they
// are when s is plain ASCII without '"', '\\' or control characters (what
// AppendQuote would write too), else AppendQuote.
func appendPlainQuote(dst []byte, s string) []byte {
	if plainASCII(unsafe.Slice(unsafe.StringData(s), len(s))) {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return AppendQuote(dst, s)
}

// appendOutputHeader appends h's JSON line (without the newline), byte
// for byte what the Writer-based encoding writes (TestOutputHeaderBytes).
func appendOutputHeader(dst []byte, h *OutputHeader) []byte {
	if len(h.Actions) > 0 {
		return appendOutputHeaderWriter(dst, h)
	}
	dst = append(dst, `{"abi":1,"content_type":`...)
	dst = appendPlainQuote(dst, h.ContentType)
	dst = append(dst, `,"collections":[`...)
	for k := range h.Collections {
		c := &h.Collections[k]
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"path":`...)
		dst = appendPlainQuote(dst, c.Path)
		dst = append(dst, `,"count":`...)
		dst = strconv.AppendInt(dst, int64(c.Count), 10)
		if c.CountField != "" {
			dst = append(dst, `,"count_field":`...)
			dst = appendPlainQuote(dst, c.CountField)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']', '}')
}

// appendOutputHeaderWriter is the general encoding of the output header
// with the Writer, used when there are actions.
func appendOutputHeaderWriter(dst []byte, h *OutputHeader) []byte {
	w := NewWriter(dst)
	w.BeginObject()
	w.Key("abi")
	w.Int(ABIVersion)
	w.Key("content_type")
	w.String(h.ContentType)
	w.Key("collections")
	w.BeginArray()
	for _, c := range h.Collections {
		w.BeginObject()
		w.Key("path")
		w.String(c.Path)
		w.Key("count")
		w.Int(int64(c.Count))
		if c.CountField != "" {
			w.Key("count_field")
			w.String(c.CountField)
		}
		w.EndObject()
	}
	w.EndArray()
	if len(h.Actions) > 0 {
		w.Key("actions")
		w.BeginArray()
		for _, a := range h.Actions {
			w.BeginObject()
			w.Key("level")
			w.String("fields")
			w.Key("kind")
			w.String(a.Kind)
			if a.Target != "" {
				w.Key("target")
				w.String(a.Target)
			}
			if a.Detail != "" {
				w.Key("detail")
				w.String(a.Detail)
			}
			if a.Count != 0 {
				w.Key("count")
				w.Int(int64(a.Count))
			}
			w.EndObject()
		}
		w.EndArray()
	}
	w.EndObject()
	return w.Bytes()
}

// frameOutput returns the framed output of h and payload as two parts to
// be written one after the other: head (the header line, the newline and
// the first bytes of the payload, in outScratch unless it is too small)
// and rest (the remaining payload, aliasing it). Unless rest is empty,
// len(head) is a multiple of eight and len(rest) >= 8, so that both can
// be copied out a word at a time.
func frameOutput(h *OutputHeader, payload []byte) (head, rest []byte) {
	head = appendOutputHeader(outScratch[:0], h)
	head = append(head, '\n')
	k := len(payload)
	if k > cap(head)-len(head) {
		k = -len(head) & 7
		if len(payload)-k < 8 {
			k = len(payload)
		}
	}
	return append(head, payload[:k]...), payload[k:]
}
