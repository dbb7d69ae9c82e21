package pdk

import (
	"math/bits"
)

// Word-at-a-time ("SWAR") byte classification for the tokenizer's hot
// loops. Inside the host every taken branch of a Go guest is an exit from
// wazero's native code into Go (see docs/pdk.md, "Loops cost more inside
// the host"), so these helpers classify eight bytes with straight-line
// arithmetic and say where the first interesting byte is with one
// count-trailing-zeros, instead of a loop iteration per byte.
//
// Every mask helper is exact: bit 7 of byte k of the result is set if and
// only if byte k of the word has the property, independently of the other
// bytes (no borrow or carry crosses a byte), so the lowest set bit names
// the first such byte. FuzzScan checks each against a byte loop.

const (
	lsb  = 0x0101010101010101
	msb  = 0x8080808080808080
	low7 = 0x7f7f7f7f7f7f7f7f
)

// wordAt returns the eight bytes of d starting at i as a little-endian
// word (byte i in the low bits), with the bytes past the end of d read as
// zero. 0 <= i <= len(d).
func wordAt(d []byte, i int) uint64 {
	if i+8 <= len(d) {
		return le64(d[i:])
	}
	if len(d) >= 8 {
		// The last eight bytes, shifted so that byte i comes first; the
		// shift fills the bytes past the end with zeros (a shift of 64,
		// for i == len(d), gives 0).
		return le64(d[len(d)-8:]) >> (uint(8-(len(d)-i)) * 8)
	}
	return shortWord(d[i:])
}

// shortWord assembles fewer than eight bytes (data shorter than a word).
func shortWord(b []byte) uint64 {
	var w uint64
	for k := len(b) - 1; k >= 0; k-- {
		w = w<<8 | uint64(b[k])
	}
	return w
}

// nonzeroMask has bit 7 set in each byte of x that is not zero.
func nonzeroMask(x uint64) uint64 { return ((x & low7) + low7 | x) & msb }

// belowMask has bit 7 set in each byte of w that is less than n
// (1 <= n <= 0x80).
func belowMask(w uint64, n byte) uint64 {
	return ^((w & low7) + (0x80-uint64(n))*lsb | w) & msb
}

// stringStopMask marks the bytes that end a run of plain string content:
// '"', '\\' and control characters (< 0x20, which includes the zero bytes
// wordAt reads past the end).
func stringStopMask(w uint64) uint64 {
	q := w ^ ('"' * lsb)
	b := w ^ ('\\' * lsb)
	plain := ((q & low7) + low7 | q) & ((b & low7) + low7 | b) & ((w & low7) + (0x80-0x20)*lsb | w)
	return ^plain & msb
}

// nonSpaceMask marks the bytes that are not JSON whitespace (' ', '\t',
// '\n', '\r'); zero bytes past the end count as not whitespace.
func nonSpaceMask(w uint64) uint64 {
	return nonzeroMask(w^' '*lsb) & nonzeroMask(w^'\n'*lsb) & nonzeroMask(w^'\r'*lsb) & nonzeroMask(w^'\t'*lsb)
}

// nonDigitMask marks the bytes that are not ASCII digits.
func nonDigitMask(w uint64) uint64 {
	return belowMask(w, '0') | ^belowMask(w, '9'+1)&msb
}

// firstByte returns the index of the lowest marked byte of a mask from
// the helpers above, or 8 when none is marked.
func firstByte(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace, or len(d). It is small enough to be inlined, and the
// usual case, no whitespace (compact JSON, or after a run), falls through
// with no taken branch: inside the host the empty then-branch is what
// keeps it free, while an early return costs an exit (see docs/pdk.md).
func skipSpace(d []byte, i int) int {
	if i < len(d) && d[i] > ' ' {
		// Not whitespace: nothing to skip.
	} else {
		i = skipSpaceRun(d, i)
	}
	return i
}

// skipSpaceRun is skipSpace for runs of whitespace (indentation): eight
// bytes per iteration.
func skipSpaceRun(d []byte, i int) int {
	for i+8 <= len(d) {
		m := nonSpaceMask(le64(d[i:]))
		if m != 0 {
			return i + firstByte(m)
		}
		i += 8
	}
	if i >= len(d) {
		return len(d)
	}
	return min(i+firstByte(nonSpaceMask(wordAt(d, i))), len(d))
}

// skipDigits returns the index of the first byte at or after i that is not
// an ASCII digit, or len(d).
func skipDigits(d []byte, i int) int {
	for i+8 <= len(d) {
		m := nonDigitMask(le64(d[i:]))
		if m != 0 {
			return i + firstByte(m)
		}
		i += 8
	}
	if i >= len(d) {
		return len(d)
	}
	return min(i+firstByte(nonDigitMask(wordAt(d, i))), len(d))
}

// skipPlain returns the index of the first byte at or after i that is
// '"', '\\' or a control character, or len(d). Strings such as URLs and
// text run for dozens of bytes, so it tests four words per iteration
// while it can, with no branch to find which word stopped it.
func skipPlain(d []byte, i int) int {
	for i+32 <= len(d) {
		w := d[i : i+32 : i+32]
		m0 := stringStopMask(le64(w[0:]))
		m1 := stringStopMask(le64(w[8:]))
		m2 := stringStopMask(le64(w[16:]))
		m3 := stringStopMask(le64(w[24:]))
		if m0|m1|m2|m3 != 0 {
			// The first marked byte: selects, not branches.
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
			return i + n
		}
		i += 32
	}
	for i+8 <= len(d) {
		m := stringStopMask(le64(d[i:]))
		if m != 0 {
			return i + firstByte(m)
		}
		i += 8
	}
	if i >= len(d) {
		return len(d)
	}
	return min(i+firstByte(stringStopMask(wordAt(d, i))), len(d))
}

// quoteStopMask marks the bytes appendQuote cannot copy as they are: '"',
// '\\', control characters and every byte of a multi-byte UTF-8 sequence
// (>= 0x80, which may be invalid or U+2028/U+2029).
func quoteStopMask(w uint64) uint64 { return stringStopMask(w) | w&msb }

// skipQuotePlain returns the index of the first byte at or after i that
// quoteStopMask marks, or len(d).
func skipQuotePlain(d []byte, i int) int {
	for i+8 <= len(d) {
		m := quoteStopMask(le64(d[i:]))
		if m != 0 {
			return i + firstByte(m)
		}
		i += 8
	}
	if i >= len(d) {
		return len(d)
	}
	return min(i+firstByte(quoteStopMask(wordAt(d, i))), len(d))
}

// IndexControl returns the index of the first ASCII control character
// (< 0x20 or 0x7f) in s, or -1. It tests eight bytes per loop iteration,
// which inside the host costs an eighth of a byte loop.
func IndexControl(s []byte) int {
	i := 0
	for i+8 <= len(s) {
		w := le64(s[i:])
		if m := belowMask(w, 0x20) | ^nonzeroMask(w^0x7f*lsb)&msb; m != 0 {
			return i + firstByte(m)
		}
		i += 8
	}
	if i < len(s) {
		w := wordAt(s, i)
		// wordAt reads past the end as zero bytes: only the real ones count.
		if m := belowMask(w, 0x20) | ^nonzeroMask(w^0x7f*lsb)&msb; m != 0 && i+firstByte(m) < len(s) {
			return i + firstByte(m)
		}
	}
	return -1
}

// le64 reads d[0:8] as a little-endian word (one load on little-endian
// machines; written out so that the pdk does not need encoding/binary,
// which imports reflect).
func le64(d []byte) uint64 {
	_ = d[7]
	return uint64(d[0]) | uint64(d[1])<<8 | uint64(d[2])<<16 | uint64(d[3])<<24 |
		uint64(d[4])<<32 | uint64(d[5])<<40 | uint64(d[6])<<48 | uint64(d[7])<<56
}

// putLE64 writes v to d[0:8] in little-endian order.
func putLE64(d []byte, v uint64) {
	_ = d[7]
	d[0], d[1], d[2], d[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	d[4], d[5], d[6], d[7] = byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56)
}
