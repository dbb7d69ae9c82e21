package bpe

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers below return the end of the pre-token that starts at
// byte i of s: the match the reference finds there with the encoding's
// pattern. They decode s rune by rune like the reference, which matches
// on []rune(s), so an invalid byte is a rune of its own (U+FFFD, a
// symbol) and pieces cut here are the reference's pieces.
//
// o200k_base's pattern, one alternative a line:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n/]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+
//
// cl100k_base's:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)
//	[^\r\n\p{L}\p{N}]?\p{L}+
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+
//
// The engine is a backtracking one: the alternatives are tried in order,
// an optional prefix first with and then without, and a greedy loop gives
// back one rune at a time until the rest matches. Each function below
// says which backtracking path it stands for. \s is unicode.IsSpace, \p{X}
// Go's unicode tables, and (?i) compares unicode.ToLower of the text
// (only ASCII letters lower to the letters of the contractions).

// Rune classes, as bits.
const (
	fL     = 1 << iota // \p{L}
	fN                 // \p{N}
	fS                 // \s
	fUpper             // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	fLower             // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	fPre               // [^\r\n\p{L}\p{N}]
	fSym               // [^\s\p{L}\p{N}]
	fNL                // [\r\n]
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range rune(utf8.RuneSelf) {
		t[c] = runeClass(c)
	}
	return t
}()

// runeClass computes the classes of r from the unicode tables.
func runeClass(r rune) uint8 {
	var f uint8
	switch {
	case unicode.IsLetter(r):
		f = fL
		switch {
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			f |= fUpper
		case unicode.IsLower(r):
			f |= fLower
		default: // Lm, Lo
			f |= fUpper | fLower
		}
		return f
	case unicode.IsNumber(r):
		return fN
	case unicode.IsSpace(r):
		f = fS
		if r == '\r' || r == '\n' {
			return f | fNL
		}
		return f | fPre
	case unicode.IsMark(r):
		return fUpper | fLower | fPre | fSym
	}
	return fPre | fSym
}

// class returns the classes of the rune at s[i] and its width.
func class(s string, i int) (uint8, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClass[b], 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return runeClass(r), w
}

// run returns the end of the run of runes from i that have one of the
// classes in f.
func run(s string, i int, f uint8) int {
	for i < len(s) {
		c, w := class(s, i)
		if c&f == 0 {
			break
		}
		i += w
	}
	return i
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or i.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	}
	return i
}

// o200kLower matches [upper]*[lower]+ contraction? at i (the first letter
// alternative without its prefix), or returns -1. The greedy [upper]*
// takes the run R of upper runes; when the rune after R is not lower it
// gives R back one rune at a time until [lower]+ matches one, which is
// the last lower rune of R (the next rune of R is then not lower, so
// [lower]+ stops right after it).
func o200kLower(s string, i int) int {
	r, lastLower := i, -1
	for r < len(s) {
		c, w := class(s, r)
		if c&fUpper == 0 {
			break
		}
		r += w
		if c&fLower != 0 {
			lastLower = r
		}
	}
	if r < len(s) {
		if c, _ := class(s, r); c&fLower != 0 {
			return contraction(s, run(s, r, fLower))
		}
	}
	if lastLower < 0 {
		return -1
	}
	return contraction(s, lastLower)
}

// o200kUpper matches [upper]+[lower]* contraction? at i (the second letter
// alternative without its prefix), or returns -1.
func o200kUpper(s string, i int) int {
	r := run(s, i, fUpper)
	if r == i {
		return -1
	}
	return contraction(s, run(s, r, fLower))
}

// symbols matches [^\s\p{L}\p{N}]+ at i (whose rune is known to be one)
// followed by trailing runs of bytes in tail.
func symbols(s string, i int, slash bool) int {
	i = run(s, i, fSym)
	for i < len(s) && (s[i] == '\r' || s[i] == '\n' || slash && s[i] == '/') {
		i++
	}
	return i
}

// spaces matches the white-space alternatives at i, whose rune is white
// space. With W the run of white space from i:
//
//	\s*[\r\n]+  : \s* gives W back until [\r\n]+ matches, at the last
//	              line break of W, which it takes alone (the next rune
//	              is not one): the match ends after the last line break;
//	\s+(?!\S)   : all of W at the end of s, else W but its last rune
//	              (followed by white space) when W has two runes or more;
//	\s+         : W, a single rune.
func spaces(s string, i int) int {
	j, last, lastNL := i, i, -1
	for j < len(s) {
		c, w := class(s, j)
		if c&fS == 0 {
			break
		}
		last = j
		j += w
		if c&fNL != 0 {
			lastNL = j
		}
	}
	switch {
	case lastNL >= 0:
		return lastNL
	case j == len(s):
		return j
	case last > i:
		return last
	}
	return j
}

// splitO200k returns the end of o200k_base's pre-token at i.
func splitO200k(s string, i int) int {
	c0, w0 := class(s, i)
	pre := c0&fPre != 0 && i+w0 < len(s)
	if pre {
		if e := o200kLower(s, i+w0); e >= 0 {
			return e
		}
	}
	if c0&(fUpper|fLower) != 0 {
		if e := o200kLower(s, i); e >= 0 {
			return e
		}
	}
	if pre {
		if e := o200kUpper(s, i+w0); e >= 0 {
			return e
		}
	}
	if c0&fUpper != 0 {
		if e := o200kUpper(s, i); e >= 0 {
			return e
		}
	}
	if c0&fN != 0 {
		return digits(s, i)
	}
	if s[i] == ' ' && i+1 < len(s) {
		if c1, _ := class(s, i+1); c1&fSym != 0 {
			return symbols(s, i+1, true)
		}
	}
	if c0&fSym != 0 {
		return symbols(s, i, true)
	}
	return spaces(s, i)
}

// splitCL100k returns the end of cl100k_base's pre-token at i.
func splitCL100k(s string, i int) int {
	if e := contraction(s, i); e > i {
		return e
	}
	c0, w0 := class(s, i)
	if c0&fPre != 0 && i+w0 < len(s) {
		if c1, _ := class(s, i+w0); c1&fL != 0 {
			return run(s, i+w0, fL)
		}
	}
	if c0&fL != 0 {
		return run(s, i, fL)
	}
	if c0&fN != 0 {
		return digits(s, i)
	}
	if s[i] == ' ' && i+1 < len(s) {
		if c1, _ := class(s, i+1); c1&fSym != 0 {
			return symbols(s, i+1, false)
		}
	}
	if c0&fSym != 0 {
		return symbols(s, i, false)
	}
	return spaces(s, i)
}

// digits matches \p{N}{1,3} at i, whose rune is a number.
func digits(s string, i int) int {
	for k := 0; k < 3 && i < len(s); k++ {
		c, w := class(s, i)
		if c&fN == 0 {
			break
		}
		i += w
	}
	return i
}
