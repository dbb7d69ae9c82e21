// Package linetemplate is the line-template rule of plugin ABI v1
// (schemas/ABI.md §4, "Grouping lines, verifiably"): the template of a line
// is the line with its variable tokens (timestamps, clock times, UUIDs,
// IPv4 addresses, hexadecimal ids, numbers, digit-bearing ids) replaced by
// placeholders. The host checks a plugin's "[×N] template" lines against
// Append, and the first-party logs plugin computes its groups with it, so
// both sides apply one definition. It uses only the standard library and
// has no build tags, so it compiles into the host and into wasip1 plugins.
package linetemplate

// Placeholders that stand for the variable parts of a line in a template.
const (
	// Timestamp stands for an ISO 8601 / RFC 3339 date with optional time.
	Timestamp = "<ts>"
	// Clock stands for a clock time hh:mm[:ss[.frac]].
	Clock = "<time>"
	// UUID stands for an 8-4-4-4-12 hexadecimal UUID.
	UUID = "<uuid>"
	// IP stands for an IPv4 address with optional :port.
	IP = "<ip>"
	// Hex stands for a 0x-prefixed or 6+ digit hexadecimal id.
	Hex = "<hex>"
	// ID stands for a word of 5+ characters holding digits.
	ID = "<id>"
	// Number stands for a number (with decimal parts or a short unit).
	Number = "<n>"
)

// Text is a line as the functions of this package read it: a string or
// a byte slice (the host and plugins hold []byte, the text view strings;
// one definition serves both without copying).
type Text interface{ ~string | ~[]byte }

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsLetter reports whether c is an ASCII letter.
func IsLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// IsAlnum reports whether c is an ASCII letter or digit.
func IsAlnum(c byte) bool { return IsDigit(c) || IsLetter(c) }

func isHex(c byte) bool { return IsDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

// digits returns how many ASCII digits s starts with.
func digits[S Text](s S) int {
	n := 0
	for n < len(s) && IsDigit(s[n]) {
		n++
	}
	return n
}

// hexRun returns how many hex digits s starts with.
func hexRun[S Text](s S) int {
	n := 0
	for n < len(s) && isHex(s[n]) {
		n++
	}
	return n
}

// boundary reports whether position i of s ends a token: the end, or a
// byte that is not a letter or digit.
func boundary[S Text](s S, i int) bool { return i >= len(s) || !IsAlnum(s[i]) }

// FixedDigits reports whether s has exactly n digits at i.
func FixedDigits[S Text](s S, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !IsDigit(s[k]) {
			return false
		}
	}
	return true
}

// MatchClock matches hh:mm[:ss[.frac]] at the start of s (one or two
// hour digits) and returns its length, or 0.
func MatchClock[S Text](s S) int {
	h := digits(s)
	if h < 1 || h > 2 || h+3 > len(s) || s[h] != ':' || !FixedDigits(s, h+1, 2) {
		return 0
	}
	i := h + 3
	if i+3 <= len(s) && s[i] == ':' && FixedDigits(s, i+1, 2) {
		i += 3
		if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && IsDigit(s[i+1]) {
			i++
			i += digits(s[i:])
		}
	}
	return i
}

// MatchTimestamp matches an ISO 8601 / RFC 3339 date with an optional
// time and zone at the start of s and returns its length, or 0:
// 2006-01-02, 2006-01-02T15:04:05.000Z, 2006-01-02 15:04:05+07:00,
// 2006/01/02 15:04:05, 2006-01-02  15:04:05.
func MatchTimestamp[S Text](s S) int {
	if !FixedDigits(s, 0, 4) || len(s) < 10 || (s[4] != '-' && s[4] != '/') || s[7] != s[4] ||
		!FixedDigits(s, 5, 2) || !FixedDigits(s, 8, 2) {
		return 0
	}
	i := 10
	// Some logs (apt's history) put two spaces between date and time.
	j := i
	for j < len(s) && j < i+2 && (s[j] == 'T' || s[j] == ' ') {
		j++
	}
	if j > i {
		if n := MatchClock(s[j:]); n > 0 {
			i = j + n
			switch {
			case i < len(s) && s[i] == 'Z':
				i++
			case i+3 <= len(s) && (s[i] == '+' || s[i] == '-') && FixedDigits(s, i+1, 2):
				k := i + 3
				if k < len(s) && s[k] == ':' {
					k++
				}
				if FixedDigits(s, k, 2) {
					i = k + 2
				}
			}
		}
	}
	return i
}

// matchUUID matches 8-4-4-4-12 hex digits at the start of s.
func matchUUID[S Text](s S) int {
	if len(s) < 36 {
		return 0
	}
	for i := 0; i < 36; i++ {
		c := s[i]
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
func matchIPv4[S Text](s S) int {
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
	if i+1 < len(s) && s[i] == ':' && IsDigit(s[i+1]) {
		i++
		i += digits(s[i:])
	}
	return i
}

// Append appends the template of line to dst: the line with its
// variable tokens replaced by placeholders. Two lines with the same
// template differ only in timestamps, clock times, UUIDs, IPv4 addresses,
// hexadecimal ids, numbers and digit-bearing ids.
func Append[S Text](dst []byte, line S) []byte {
	s := line
	for i := 0; i < len(s); {
		c := s[i]
		if !IsAlnum(c) {
			dst = append(dst, c)
			i++
			continue
		}
		// i starts a token: either 0 or after a non-alphanumeric byte.
		// Each matcher is tried only when a cheap look at the next bytes
		// allows it: inside WebAssembly every call costs (RATIONALE.md).
		if IsDigit(c) {
			if i+10 <= len(s) && (s[i+4] == '-' || s[i+4] == '/') {
				if n := MatchTimestamp(s[i:]); n > 0 && boundary(s, i+n) {
					dst = append(dst, Timestamp...)
					i += n
					continue
				}
			}
			if i+7 <= len(s) && (s[i+1] == '.' || s[i+2] == '.' || s[i+3] == '.') {
				if n := matchIPv4(s[i:]); n > 0 && boundary(s, i+n) {
					dst = append(dst, IP...)
					i += n
					continue
				}
			}
			if i+4 <= len(s) && (s[i+1] == ':' || s[i+2] == ':') {
				if n := MatchClock(s[i:]); n > 0 && boundary(s, i+n) {
					dst = append(dst, Clock...)
					i += n
					continue
				}
			}
		}
		if i+36 <= len(s) && s[i+8] == '-' && isHex(c) {
			if n := matchUUID(s[i:]); n > 0 && boundary(s, i+n) {
				dst = append(dst, UUID...)
				i += n
				continue
			}
		}
		if c == '0' && i+2 < len(s) && s[i+1]|0x20 == 'x' {
			if n := hexRun(s[i+2:]); n > 0 && boundary(s, i+2+n) {
				dst = append(dst, Hex...)
				i += 2 + n
				continue
			}
		}
		j := i
		nd := 0
		allHex := true
		for j < len(s) && IsAlnum(s[j]) {
			if IsDigit(s[j]) {
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
			for j+1 < len(s) && s[j] == '.' && IsDigit(s[j+1]) {
				j++
				j += digits(s[j:])
			}
			dst = append(dst, Number...)
		case IsDigit(word[0]) && allLetters(word[digits(word):]) && len(word)-digits(word) <= 3:
			// A number with a short unit: 12ms, 3s, 512MB.
			dst = append(dst, Number...)
			dst = append(dst, word[digits(word):]...)
		case len(word) >= 6 && allHex:
			dst = append(dst, Hex...)
		case len(word) >= 5:
			dst = append(dst, ID...)
		default:
			// Short words with digits (v1, utf8, ipv6, x86) are kept.
			dst = append(dst, word...)
		}
		i = j
	}
	return dst
}

func allLetters[S Text](s S) bool {
	for k := 0; k < len(s); k++ {
		if c := s[k]; !IsLetter(c) {
			return false
		}
	}
	return true
}

// FirstStamp returns the first timestamp or clock time of a line, as
// Append finds them, or nil.
func FirstStamp(s []byte) []byte {
	for i := 0; i < len(s); i++ {
		if !IsDigit(s[i]) || (i > 0 && IsAlnum(s[i-1])) {
			continue
		}
		if n := MatchTimestamp(s[i:]); n > 0 && boundary(s, i+n) {
			return s[i : i+n]
		}
		if n := MatchClock(s[i:]); n > 0 && boundary(s, i+n) {
			return s[i : i+n]
		}
	}
	return nil
}

// ImportantWords are the words (matched whole and case-insensitively) that
// make a line important, an error or a warning line that is kept verbatim
// and never only inside a template. Words ending in "error" or "exception"
// (ValueError, NullPointerException) count too.
var ImportantWords = []string{
	"error", "errors", "err", "fatal", "panic", "panicked", "warn", "warning", "warnings",
	"exception", "exceptions", "traceback", "failed", "failure", "failures", "fail",
	"critical", "crit", "severe", "emerg", "emergency", "alert", "abort", "aborted",
	"killed", "oom", "segfault", "denied", "refused", "unhealthy",
}
