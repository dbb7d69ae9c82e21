package host

import "bytes"

// The line templates of ABI v1 (schemas/ABI.md, "Grouping lines,
// verifiably"): the template of a line is the line with its variable
// tokens (timestamps, clock times, UUIDs, IPv4 addresses, hexadecimal
// ids, numbers, digit-bearing ids) replaced by placeholders. This is the
// definition the host checks a "[×N] template" line against; the
// first-party logs plugin (plugins/logs/mask.go) computes the same
// function, and the conformance tests over the bundled corpus keep the
// two in step.

// Placeholders that stand for the variable parts of a line in a template.
const (
	phTimestamp = "<ts>"
	phClock     = "<time>"
	phUUID      = "<uuid>"
	phIP        = "<ip>"
	phHex       = "<hex>"
	phID        = "<id>"
	phNumber    = "<n>"
)

func tmplDigit(c byte) bool  { return c >= '0' && c <= '9' }
func tmplLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func tmplAlnum(c byte) bool  { return tmplDigit(c) || tmplLetter(c) }
func tmplHex(c byte) bool    { return tmplDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

// digits returns how many ASCII digits s starts with.
func tmplDigits(s []byte) int {
	n := 0
	for n < len(s) && tmplDigit(s[n]) {
		n++
	}
	return n
}

// tmplHexRun returns how many hex digits s starts with.
func tmplHexRun(s []byte) int {
	n := 0
	for n < len(s) && tmplHex(s[n]) {
		n++
	}
	return n
}

// boundary reports whether position i of s ends a token: the end, or a
// byte that is not a letter or digit.
func tmplBoundary(s []byte, i int) bool { return i >= len(s) || !tmplAlnum(s[i]) }

// tmplFixedDigits reports whether s has exactly n digits at i.
func tmplFixedDigits(s []byte, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for _, c := range s[i : i+n] {
		if !tmplDigit(c) {
			return false
		}
	}
	return true
}

// tmplClock matches hh:mm[:ss[.frac]] at the start of s (one or two
// hour digits) and returns its length, or 0.
func tmplClock(s []byte) int {
	h := tmplDigits(s)
	if h < 1 || h > 2 || h+3 > len(s) || s[h] != ':' || !tmplFixedDigits(s, h+1, 2) {
		return 0
	}
	i := h + 3
	if i+3 <= len(s) && s[i] == ':' && tmplFixedDigits(s, i+1, 2) {
		i += 3
		if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && tmplDigit(s[i+1]) {
			i++
			i += tmplDigits(s[i:])
		}
	}
	return i
}

// tmplTimestamp matches an ISO 8601 / RFC 3339 date with an optional time
// and zone at the start of s: 2006-01-02, 2006-01-02T15:04:05.000Z,
// 2006-01-02 15:04:05+07:00, 2006/01/02 15:04:05.
func tmplTimestamp(s []byte) int {
	if !tmplFixedDigits(s, 0, 4) || len(s) < 10 || (s[4] != '-' && s[4] != '/') || s[7] != s[4] ||
		!tmplFixedDigits(s, 5, 2) || !tmplFixedDigits(s, 8, 2) {
		return 0
	}
	i := 10
	// Some logs (apt's history) put two spaces between date and time.
	j := i
	for j < len(s) && j < i+2 && (s[j] == 'T' || s[j] == ' ') {
		j++
	}
	if j > i {
		if n := tmplClock(s[j:]); n > 0 {
			i = j + n
			switch {
			case i < len(s) && s[i] == 'Z':
				i++
			case i+3 <= len(s) && (s[i] == '+' || s[i] == '-') && tmplFixedDigits(s, i+1, 2):
				k := i + 3
				if k < len(s) && s[k] == ':' {
					k++
				}
				if tmplFixedDigits(s, k, 2) {
					i = k + 2
				}
			}
		}
	}
	return i
}

// tmplUUID matches 8-4-4-4-12 hex digits at the start of s.
func tmplUUID(s []byte) int {
	if len(s) < 36 {
		return 0
	}
	for i, c := range s[:36] {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return 0
			}
		default:
			if !tmplHex(c) {
				return 0
			}
		}
	}
	return 36
}

// tmplIPv4 matches a dotted quad with an optional :port at the start of s.
func tmplIPv4(s []byte) int {
	i := 0
	for part := 0; part < 4; part++ {
		if part > 0 {
			if i >= len(s) || s[i] != '.' {
				return 0
			}
			i++
		}
		n := tmplDigits(s[i:])
		if n < 1 || n > 3 {
			return 0
		}
		i += n
	}
	if i+1 < len(s) && s[i] == ':' && tmplDigit(s[i+1]) {
		i++
		i += tmplDigits(s[i:])
	}
	return i
}

// appendLineTemplate appends the template of line to dst: the line with its
// variable tokens replaced by placeholders. Two lines with the same
// template differ only in timestamps, clock times, UUIDs, IPv4 addresses,
// hexadecimal ids, numbers and digit-bearing ids.
func appendLineTemplate(dst, line []byte) []byte {
	s := line
	for i := 0; i < len(s); {
		c := s[i]
		if !tmplAlnum(c) {
			dst = append(dst, c)
			i++
			continue
		}
		// i starts a token: either 0 or after a non-alphanumeric byte.
		// Each matcher is tried only when a cheap look at the next bytes
		// allows it: inside WebAssembly every call costs (RATIONALE.md).
		if tmplDigit(c) {
			if i+10 <= len(s) && (s[i+4] == '-' || s[i+4] == '/') {
				if n := tmplTimestamp(s[i:]); n > 0 && tmplBoundary(s, i+n) {
					dst = append(dst, phTimestamp...)
					i += n
					continue
				}
			}
			if i+7 <= len(s) && (s[i+1] == '.' || s[i+2] == '.' || s[i+3] == '.') {
				if n := tmplIPv4(s[i:]); n > 0 && tmplBoundary(s, i+n) {
					dst = append(dst, phIP...)
					i += n
					continue
				}
			}
			if i+4 <= len(s) && (s[i+1] == ':' || s[i+2] == ':') {
				if n := tmplClock(s[i:]); n > 0 && tmplBoundary(s, i+n) {
					dst = append(dst, phClock...)
					i += n
					continue
				}
			}
		}
		if i+36 <= len(s) && s[i+8] == '-' && tmplHex(c) {
			if n := tmplUUID(s[i:]); n > 0 && tmplBoundary(s, i+n) {
				dst = append(dst, phUUID...)
				i += n
				continue
			}
		}
		if c == '0' && i+2 < len(s) && s[i+1]|0x20 == 'x' {
			if n := tmplHexRun(s[i+2:]); n > 0 && tmplBoundary(s, i+2+n) {
				dst = append(dst, phHex...)
				i += 2 + n
				continue
			}
		}
		j := i
		nd := 0
		allHex := true
		for j < len(s) && tmplAlnum(s[j]) {
			if tmplDigit(s[j]) {
				nd++
			} else if !tmplHex(s[j]) {
				allHex = false
			}
			j++
		}
		word := s[i:j]
		switch {
		case nd == 0:
			dst = append(dst, word...)
		case nd == len(word):
			// A number, with any decimal parts (3.14, 1.2.3).
			for j+1 < len(s) && s[j] == '.' && tmplDigit(s[j+1]) {
				j++
				j += tmplDigits(s[j:])
			}
			dst = append(dst, phNumber...)
		case tmplDigit(word[0]) && tmplAllLetters(word[tmplDigits(word):]) && len(word)-tmplDigits(word) <= 3:
			// A number with a short unit: 12ms, 3s, 512MB.
			dst = append(dst, phNumber...)
			dst = append(dst, word[tmplDigits(word):]...)
		case len(word) >= 6 && allHex:
			dst = append(dst, phHex...)
		case len(word) >= 5:
			dst = append(dst, phID...)
		default:
			// Short words with digits (v1, utf8, ipv6, x86) are kept.
			dst = append(dst, word...)
		}
		i = j
	}
	return dst
}

func tmplAllLetters(s []byte) bool {
	for _, c := range s {
		if !tmplLetter(c) {
			return false
		}
	}
	return true
}

// importantWords are the words (matched whole and case-insensitively) that
// make a line important: it is always kept verbatim. Words ending in
// "error" or "exception" (ValueError, NullPointerException) count too.
var importantWords = []string{
	"error", "errors", "err", "fatal", "panic", "panicked", "warn", "warning", "warnings",
	"exception", "exceptions", "traceback", "failed", "failure", "failures", "fail",
	"critical", "crit", "severe", "emerg", "emergency", "alert", "abort", "aborted",
	"killed", "oom", "segfault", "denied", "refused", "unhealthy",
}

// firstStamp returns the first timestamp or clock time of a line, as
// appendLineTemplate finds them, or nil.
func firstStamp(s []byte) []byte {
	for i := 0; i < len(s); i++ {
		if !tmplDigit(s[i]) || (i > 0 && tmplAlnum(s[i-1])) {
			continue
		}
		if n := tmplTimestamp(s[i:]); n > 0 && tmplBoundary(s, i+n) {
			return s[i : i+n]
		}
		if n := tmplClock(s[i:]); n > 0 && tmplBoundary(s, i+n) {
			return s[i : i+n]
		}
	}
	return nil
}

// importantLine reports whether the host classifies line as an error or
// a warning: it holds one of importantWords as a whole word (any case),
// a word ending in "error" or "exception", or starts with a klog/glog
// severity prefix for warning, error or fatal (W1122, E1122, F1122).
// Such a line must appear verbatim in a text payload, never only inside
// a template.
func importantLine(line []byte) bool {
	if len(line) >= 5 && (line[0] == 'W' || line[0] == 'E' || line[0] == 'F') && tmplFixedDigits(line, 1, 4) {
		return true
	}
	var buf [16]byte
	for i := 0; i < len(line); {
		if !tmplLetter(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && tmplLetter(line[j]) {
			j++
		}
		w := line[i:j]
		i = j
		if len(w) < 3 {
			continue
		}
		if len(w) <= len(buf) {
			low := buf[:len(w)]
			for k, c := range w {
				low[k] = c | 0x20
			}
			if importantWord[string(low)] {
				return true
			}
		}
		if (len(w) > 5 && bytes.EqualFold(w[len(w)-5:], []byte("error"))) ||
			(len(w) > 9 && bytes.EqualFold(w[len(w)-9:], []byte("exception"))) {
			return true
		}
	}
	return false
}

var importantWord = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range importantWords {
		m[w] = true
	}
	return m
}()
