// Package bpe counts the tokens of OpenAI's o200k_base and cl100k_base
// encodings exactly, at memory speed and without a regular-expression
// engine.
//
// A count is the number of tokens tiktoken's ordinary encoding (special
// tokens counted as ordinary text) yields: the text is split into
// pre-tokens by a hand-written scanner that matches what each encoding's
// pattern matches under the backtracking semantics of the reference
// (github.com/pkoukk/tiktoken-go over dlclark/regexp2; see pretoken.go),
// and each pre-token is merged by byte-pair encoding with the
// vocabulary's ranks (merge.go). Invalid UTF-8 is counted the way the
// reference counts it: each invalid byte as U+FFFD.
//
// The vocabularies are embedded in a compact form (o200k_base.bin,
// cl100k_base.bin, written by gen.go): the tokens in rank order. The hash
// table for looking tokens up is built the first time an encoding counts
// a text that is not all single-token pieces, in a few milliseconds, so
// start-up costs nothing. The tests in package budget compare every
// count with the reference tokenizer.
package bpe

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed o200k_base.bin
var o200kData string

//go:embed cl100k_base.bin
var cl100kData string

// Encoding is one vocabulary with its pre-tokenizer. It is safe for
// concurrent use.
type Encoding struct {
	name  string
	data  string
	split func(s string, i int) int

	once  sync.Once
	toks  string   // the tokens' bytes, in rank order
	offs  []uint32 // token r is toks[offs[r]:offs[r+1]]
	table []uint32 // open addressing on hash(token): rank+1, 0 when empty
	shift uint     // 64 - log2(len(table))
}

var (
	o200k  = &Encoding{name: "o200k_base", data: o200kData, split: splitO200k}
	cl100k = &Encoding{name: "cl100k_base", data: cl100kData, split: splitCL100k}
)

// Get returns the encoding called name ("o200k_base" or "cl100k_base"),
// or nil.
func Get(name string) *Encoding {
	switch name {
	case o200k.name:
		return o200k
	case cl100k.name:
		return cl100k
	}
	return nil
}

// Name is the encoding's name.
func (e *Encoding) Name() string { return e.name }

// load builds the offsets and the hash table from the embedded data. The
// data is part of the binary: a malformed file is a build defect, so it
// panics.
func (e *Encoding) load() {
	d := e.data
	if len(d) < 4 {
		panic("bpe: " + e.name + ": vocabulary data truncated")
	}
	n := int(binary.LittleEndian.Uint32([]byte(d[:4])))
	if len(d) < 4+n {
		panic("bpe: " + e.name + ": vocabulary data truncated")
	}
	lens := d[4 : 4+n]
	e.toks = d[4+n:]
	e.offs = make([]uint32, n+1)
	off := 0
	for r := 0; r < n; r++ {
		e.offs[r] = uint32(off)
		off += int(lens[r])
	}
	e.offs[n] = uint32(off)
	if off != len(e.toks) {
		panic(fmt.Sprintf("bpe: %s: token lengths add up to %d bytes, data holds %d", e.name, off, len(e.toks)))
	}
	bits := uint(1)
	for 1<<bits < 2*n {
		bits++
	}
	e.table = make([]uint32, 1<<bits)
	e.shift = 64 - bits
	mask := uint64(len(e.table) - 1)
	for r := 0; r < n; r++ {
		t := e.toks[e.offs[r]:e.offs[r+1]]
		for i := hash(t) >> e.shift; ; i = (i + 1) & mask {
			if e.table[i] == 0 {
				e.table[i] = uint32(r + 1)
				break
			}
		}
	}
	for b := 0; b < 256; b++ {
		if _, ok := e.lookup(string([]byte{byte(b)})); !ok {
			panic(fmt.Sprintf("bpe: %s: byte %#x is not a token", e.name, b))
		}
	}
}

// hash mixes the bytes of s, eight at a time.
func hash(s string) uint64 {
	const k = 0x9E3779B97F4A7C15
	h := uint64(len(s)) * k
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ w) * k
		h ^= h >> 29
		s = s[8:]
	}
	if len(s) > 0 {
		var w uint64
		for i := 0; i < len(s); i++ {
			w |= uint64(s[i]) << (8 * i)
		}
		h = (h ^ w) * k
		h ^= h >> 29
	}
	h *= k
	return h ^ h>>32
}

// lookup returns the rank of token t.
func (e *Encoding) lookup(t string) (int, bool) {
	mask := uint64(len(e.table) - 1)
	for i := hash(t) >> e.shift; ; i = (i + 1) & mask {
		v := e.table[i]
		if v == 0 {
			return 0, false
		}
		r := v - 1
		if e.toks[e.offs[r]:e.offs[r+1]] == t {
			return int(r), true
		}
	}
}

// Len returns the number of tokens of the vocabulary.
func (e *Encoding) Len() int {
	e.once.Do(e.load)
	return len(e.offs) - 1
}

// Token returns the bytes of the token of rank r.
func (e *Encoding) Token(r int) string {
	e.once.Do(e.load)
	return e.toks[e.offs[r]:e.offs[r+1]]
}

// Count returns the number of tokens of text.
func (e *Encoding) Count(text string) int {
	n, _ := e.CountUpTo(text, -1)
	return n
}

// CountUpTo counts like Count and, when limit >= 0, stops as soon as the
// running total exceeds limit: over reports n > limit; when over is false
// n is the exact count, when it is true n is the count of a prefix of the
// pre-tokens of text, so limit < n <= Count(text).
func (e *Encoding) CountUpTo(text string, limit int) (n int, over bool) {
	loaded := false
	for i := 0; i < len(text); {
		j := e.split(text, i)
		p := text[i:j]
		i = j
		if len(p) == 1 && p[0] < utf8.RuneSelf {
			n++ // every byte is a token
		} else {
			if !loaded {
				e.once.Do(e.load)
				loaded = true
			}
			n += e.countPiece(p)
		}
		if limit >= 0 && n > limit {
			return n, true
		}
	}
	return n, false
}

// countPiece returns the number of tokens byte-pair encoding merges the
// pre-token p into.
func (e *Encoding) countPiece(p string) int {
	if !validPiece(p) {
		p = replaceInvalid(p)
	}
	if _, ok := e.lookup(p); ok {
		return 1
	}
	if len(p) <= smallPiece {
		return e.mergeSmall(p)
	}
	return e.mergeHeap(p)
}

// validPiece reports whether p is valid UTF-8, quickly for ASCII.
func validPiece(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] >= utf8.RuneSelf {
			return utf8.ValidString(p[i:])
		}
	}
	return true
}

// replaceInvalid replaces each byte of s that is not part of a valid UTF-8
// sequence with U+FFFD, as converting s to []rune does (the reference
// tokenizer matches its pattern on runes and encodes the runes back).
func replaceInvalid(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}
