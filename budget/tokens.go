package budget

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encodings NewCounter knows.
const (
	EncodingO200k  = "o200k_base"
	EncodingCL100k = "cl100k_base"
	// DefaultEncoding is used when none is named.
	DefaultEncoding = EncodingO200k
)

var (
	loaderOnce sync.Once
	encMu      sync.Mutex
	encCache   = map[string]*tiktoken.Tiktoken{}
)

// NewCounter returns an exact token counter for encoding ("o200k_base",
// the default when encoding is "", or "cl100k_base"). The vocabularies are
// compiled into the binary: nothing is downloaded. Counters are cached and
// safe for concurrent use.
func NewCounter(encoding string) (Counter, error) {
	if encoding == "" {
		encoding = DefaultEncoding
	}
	if encoding != EncodingO200k && encoding != EncodingCL100k {
		return nil, fmt.Errorf("token encoding %q: unknown (want %s or %s)", encoding, EncodingO200k, EncodingCL100k)
	}
	loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader()) })
	encMu.Lock()
	defer encMu.Unlock()
	enc, ok := encCache[encoding]
	if !ok {
		var err error
		enc, err = tiktoken.GetEncoding(encoding)
		if err != nil {
			return nil, fmt.Errorf("token encoding %s: %w", encoding, err)
		}
		encCache[encoding] = enc
	}
	return &tikCounter{enc: enc, name: encoding}, nil
}

type tikCounter struct {
	enc  *tiktoken.Tiktoken
	name string
}

// countChunk is the size of the pieces Count encodes one at a time, to
// bound the memory the tokenizer takes on long texts.
const countChunk = 64 << 10

// maxRun is the longest run of one byte class (letters, digits, white
// space, line breaks, other ASCII, non-ASCII) Count encodes in one piece.
// tiktoken-go's byte-pair merge is quadratic in the length of a
// pre-token, and a pre-token never extends far beyond such a run: 100,000
// "[" took 84 s to count in one piece, and takes milliseconds in pieces.
const maxRun = 512

// Count counts text's tokens, with special-token text counted as
// ordinary text.
//
// Long text is encoded in pieces, split after a newline that is followed
// by a character other than white space or '/': no pre-token of
// o200k_base or cl100k_base spans such a point, so the sum is exact
// (TestCountChunked checks it). A run of more than 512 bytes of one class
// (100,000 "[", a megabyte of spaces) is encoded in 512-byte slices, cut
// at character boundaries; only for such runs can the count differ from
// the reference tokenizer's, by about a token per slice.
func (c *tikCounter) Count(text string) int {
	n, start, run := 0, 0, 0
	prev := byte(255)
	for i := 0; i < len(text); i++ {
		b := text[i]
		cls := byteClass[b]
		if cls == clsHighCont {
			cls = clsHighStart
		}
		if cls == prev {
			run++
		} else {
			prev, run = cls, 1
		}
		switch {
		case run > maxRun && utf8.RuneStart(b):
			n += len(c.enc.EncodeOrdinary(text[start:i]))
			start, run = i, 1
		case i-start >= countChunk && text[i-1] == '\n' && safeStart(b):
			n += len(c.enc.EncodeOrdinary(text[start:i]))
			start = i
		}
	}
	if start < len(text) {
		n += len(c.enc.EncodeOrdinary(text[start:]))
	}
	return n
}

// safeStart reports whether a pre-token always starts at b when b follows
// a newline.
func safeStart(b byte) bool {
	switch b {
	case ' ', '\t', '\r', '\n', '\v', '\f', '/':
		return false
	}
	return b < 0x80
}

// Encoding names the encoding.
func (c *tikCounter) Encoding() string { return c.name }

// Estimate returns an upper bound of the tokens of data in o200k_base and
// cl100k_base, at memory speed and without allocating. It weighs byte
// classes: ASCII letters and letter runs, digits and digit runs, other
// ASCII symbols, line breaks and non-ASCII characters, with weights fitted
// so that the estimate was at least the exact count of both encodings on
// every chunk (300 B, 4 KB and 60 KB) of the measured corpora: JSON (API
// listings, go list -json, number arrays, hex and base64 ids), logs,
// prose, Go source, CJK, emoji, random punctuation and white space. It
// overestimates JSON and logs about 1.5–2.1×, prose about 2.6× (figures in
// docs/level1.md); TestEstimateUpperBound keeps checking the bound.
func Estimate(data []byte) int {
	var letters, letterRuns, digits, digitRuns, punct, lines, high int
	prev := byte(0)
	for _, c := range data {
		cls := byteClass[c]
		switch cls {
		case clsLetter:
			letters++
			if prev != clsLetter {
				letterRuns++
			}
		case clsDigit:
			digits++
			if prev != clsDigit {
				digitRuns++
			}
		case clsPunct:
			punct++
		case clsLine:
			lines++
		case clsHighStart:
			high++
		}
		prev = cls
	}
	// Weights in twentieths (see the doc comment).
	t := 9*letters + 22*letterRuns + 10*digits + 30*digitRuns + 15*punct + 30*lines + 72*high + 60
	return (t + 19) / 20
}

const (
	clsSpace = iota
	clsLetter
	clsDigit
	clsPunct
	clsLine
	clsHighStart
	clsHighCont
)

var byteClass = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			t[c] = clsLetter
		case c >= '0' && c <= '9':
			t[c] = clsDigit
		case c == ' ' || c == '\t':
			t[c] = clsSpace
		case c == '\n' || c == '\r':
			t[c] = clsLine
		case c >= 0x80 && c < 0xC0:
			t[c] = clsHighCont
		case c >= 0xC0:
			t[c] = clsHighStart
		default:
			t[c] = clsPunct
		}
	}
	return t
}()
