package main

import "bytes"

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

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnum(c byte) bool  { return isDigit(c) || isLetter(c) }
func isHex(c byte) bool    { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

// digits returns how many ASCII digits s starts with.
func digits(s []byte) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// hexRun returns how many hex digits s starts with.
func hexRun(s []byte) int {
	n := 0
	for n < len(s) && isHex(s[n]) {
		n++
	}
	return n
}

// boundary reports whether position i of s ends a token: the end, or a
// byte that is not a letter or digit.
func boundary(s []byte, i int) bool { return i >= len(s) || !isAlnum(s[i]) }

// fixedDigits reports whether s has exactly n digits at i.
func fixedDigits(s []byte, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for _, c := range s[i : i+n] {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// matchClock matches hh:mm[:ss[.frac]] at the start of s (one or two
// hour digits) and returns its length, or 0.
func matchClock(s []byte) int {
	h := digits(s)
	if h < 1 || h > 2 || h+3 > len(s) || s[h] != ':' || !fixedDigits(s, h+1, 2) {
		return 0
	}
	i := h + 3
	if i+3 <= len(s) && s[i] == ':' && fixedDigits(s, i+1, 2) {
		i += 3
		if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && isDigit(s[i+1]) {
			i++
			i += digits(s[i:])
		}
	}
	return i
}

// matchTimestamp matches an ISO 8601 / RFC 3339 date with an optional time
// and zone at the start of s: 2006-01-02, 2006-01-02T15:04:05.000Z,
// 2006-01-02 15:04:05+07:00, 2006/01/02 15:04:05.
func matchTimestamp(s []byte) int {
	if !fixedDigits(s, 0, 4) || len(s) < 10 || (s[4] != '-' && s[4] != '/') || s[7] != s[4] ||
		!fixedDigits(s, 5, 2) || !fixedDigits(s, 8, 2) {
		return 0
	}
	i := 10
	// Some logs (apt's history) put two spaces between date and time.
	j := i
	for j < len(s) && j < i+2 && (s[j] == 'T' || s[j] == ' ') {
		j++
	}
	if j > i {
		if n := matchClock(s[j:]); n > 0 {
			i = j + n
			switch {
			case i < len(s) && s[i] == 'Z':
				i++
			case i+3 <= len(s) && (s[i] == '+' || s[i] == '-') && fixedDigits(s, i+1, 2):
				k := i + 3
				if k < len(s) && s[k] == ':' {
					k++
				}
				if fixedDigits(s, k, 2) {
					i = k + 2
				}
			}
		}
	}
	return i
}

// matchUUID matches 8-4-4-4-12 hex digits at the start of s.
func matchUUID(s []byte) int {
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
			if !isHex(c) {
				return 0
			}
		}
	}
	return 36
}

// matchIPv4 matches a dotted quad with an optional :port at the start of s.
func matchIPv4(s []byte) int {
	i := 0
	for part := 0; part < 4; part++ {
		if part > 0 {
			if i >= len(s) || s[i] != '.' {
				return 0
			}
			i++
		}
		n := digits(s[i:])
		if n < 1 || n > 3 {
			return 0
		}
		i += n
	}
	if i+1 < len(s) && s[i] == ':' && isDigit(s[i+1]) {
		i++
		i += digits(s[i:])
	}
	return i
}

// appendTemplate appends the template of line to dst: the line with its
// variable tokens replaced by placeholders. Two lines with the same
// template differ only in timestamps, clock times, UUIDs, IPv4 addresses,
// hexadecimal ids, numbers and digit-bearing ids.
func appendTemplate(dst, line []byte) []byte {
	s := line
	for i := 0; i < len(s); {
		c := s[i]
		if !isAlnum(c) {
			dst = append(dst, c)
			i++
			continue
		}
		// i starts a token: either 0 or after a non-alphanumeric byte.
		// Each matcher is tried only when a cheap look at the next bytes
		// allows it: inside WebAssembly every call costs (RATIONALE.md).
		if isDigit(c) {
			if i+10 <= len(s) && (s[i+4] == '-' || s[i+4] == '/') {
				if n := matchTimestamp(s[i:]); n > 0 && boundary(s, i+n) {
					dst = append(dst, phTimestamp...)
					i += n
					continue
				}
			}
			if i+7 <= len(s) && (s[i+1] == '.' || s[i+2] == '.' || s[i+3] == '.') {
				if n := matchIPv4(s[i:]); n > 0 && boundary(s, i+n) {
					dst = append(dst, phIP...)
					i += n
					continue
				}
			}
			if i+4 <= len(s) && (s[i+1] == ':' || s[i+2] == ':') {
				if n := matchClock(s[i:]); n > 0 && boundary(s, i+n) {
					dst = append(dst, phClock...)
					i += n
					continue
				}
			}
		}
		if i+36 <= len(s) && s[i+8] == '-' && isHex(c) {
			if n := matchUUID(s[i:]); n > 0 && boundary(s, i+n) {
				dst = append(dst, phUUID...)
				i += n
				continue
			}
		}
		if c == '0' && i+2 < len(s) && s[i+1]|0x20 == 'x' {
			if n := hexRun(s[i+2:]); n > 0 && boundary(s, i+2+n) {
				dst = append(dst, phHex...)
				i += 2 + n
				continue
			}
		}
		j := i
		nd := 0
		allHex := true
		for j < len(s) && isAlnum(s[j]) {
			if isDigit(s[j]) {
				nd++
			} else if !isHex(s[j]) {
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
			for j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
				j++
				j += digits(s[j:])
			}
			dst = append(dst, phNumber...)
		case isDigit(word[0]) && allLetters(word[digits(word):]) && len(word)-digits(word) <= 3:
			// A number with a short unit: 12ms, 3s, 512MB.
			dst = append(dst, phNumber...)
			dst = append(dst, word[digits(word):]...)
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

func allLetters(s []byte) bool {
	for _, c := range s {
		if !isLetter(c) {
			return false
		}
	}
	return true
}

// levelWords are the words (matched whole and case-insensitively) that
// make a line important: it is always kept verbatim. Words ending in
// "error" or "exception" (ValueError, NullPointerException) count too.
var levelWords = []string{
	"error", "errors", "err", "fatal", "panic", "panicked", "warn", "warning", "warnings",
	"exception", "exceptions", "traceback", "failed", "failure", "failures", "fail",
	"critical", "crit", "severe", "emerg", "emergency", "alert", "abort", "aborted",
	"killed", "oom", "segfault", "denied", "refused", "unhealthy",
}

// levelMatcher decides which lines are important.
type levelMatcher struct {
	words map[string]bool
	// builtin is set when words is exactly levelWords: then isLevelWord
	// (a string switch, no hashing) answers instead of the map, which is
	// several times faster inside WebAssembly.
	builtin bool
}

// isLevelWord reports whether a lower-case word is one of levelWords.
func isLevelWord(w string) bool {
	switch w {
	case "error", "errors", "err", "fatal", "panic", "panicked", "warn", "warning", "warnings",
		"exception", "exceptions", "traceback", "failed", "failure", "failures", "fail",
		"critical", "crit", "severe", "emerg", "emergency", "alert", "abort", "aborted",
		"killed", "oom", "segfault", "denied", "refused", "unhealthy":
		return true
	}
	return false
}

func newLevelMatcher(extra, ignore []string) *levelMatcher {
	m := &levelMatcher{words: make(map[string]bool, len(levelWords)+len(extra)), builtin: len(extra) == 0 && len(ignore) == 0}
	for _, w := range levelWords {
		m.words[w] = true
	}
	for _, w := range extra {
		m.words[string(bytes.ToLower([]byte(w)))] = true
	}
	for _, w := range ignore {
		delete(m.words, string(bytes.ToLower([]byte(w))))
	}
	return m
}

// important reports whether line holds a level word, or starts with a
// klog/glog severity prefix for warning, error or fatal (W1122, E1122,
// F1122).
func (m *levelMatcher) important(line []byte) bool {
	if len(line) >= 5 && (line[0] == 'W' || line[0] == 'E' || line[0] == 'F') && fixedDigits(line, 1, 4) {
		return true
	}
	var buf [10]byte // the longest built-in level word has 10 letters
	var long []byte  // for longer custom words
	for i := 0; i < len(line); {
		if !isLetter(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && isLetter(line[j]) {
			j++
		}
		w := line[i:j]
		i = j
		if len(w) < 3 {
			continue
		}
		if len(w) <= len(buf) || !m.builtin {
			var low []byte
			if len(w) <= len(buf) {
				low = buf[:len(w)]
			} else {
				long = append(long[:0], w...)
				low = long
			}
			for k, c := range w {
				low[k] = c | 0x20
			}
			if m.builtin {
				if isLevelWord(string(low)) {
					return true
				}
			} else if m.words[string(low)] {
				return true
			}
		}
		switch w[len(w)-1] | 0x20 {
		case 'r':
			if len(w) > 5 && hasSuffixFold(w, "error") && (m.builtin || m.words["error"]) {
				return true
			}
		case 'n':
			if len(w) > 9 && hasSuffixFold(w, "exception") && (m.builtin || m.words["exception"]) {
				return true
			}
		}
	}
	return false
}

func hasSuffixFold(w []byte, suffix string) bool {
	return len(w) >= len(suffix) && bytes.EqualFold(w[len(w)-len(suffix):], []byte(suffix))
}
