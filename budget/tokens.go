package budget

import (
	"fmt"

	"github.com/toolcompact/compact/budget/internal/bpe"
)

// Encodings NewCounter knows.
const (
	EncodingO200k  = "o200k_base"
	EncodingCL100k = "cl100k_base"
	// DefaultEncoding is used when none is named.
	DefaultEncoding = EncodingO200k
)

// NewCounter returns an exact token counter for encoding ("o200k_base",
// the default when encoding is "", or "cl100k_base"). The vocabularies are
// compiled into the binary: nothing is downloaded, and nothing is loaded
// until a text needs it. Counters are safe for concurrent use.
//
// The counts are those of tiktoken's ordinary encoding (special-token
// text counted as ordinary text), computed by package budget/internal/bpe
// without a regular-expression engine; the tests compare them with the
// reference tokenizer, github.com/pkoukk/tiktoken-go, on the captured
// outputs and fuzzed text, and with js-tiktoken.
func NewCounter(encoding string) (Counter, error) {
	if encoding == "" {
		encoding = DefaultEncoding
	}
	enc := bpe.Get(encoding)
	if enc == nil {
		return nil, fmt.Errorf("token encoding %q: unknown (want %s or %s)", encoding, EncodingO200k, EncodingCL100k)
	}
	return bpeCounter{enc}, nil
}

type bpeCounter struct{ enc *bpe.Encoding }

// Count counts text's tokens, with special-token text counted as
// ordinary text. It is exact for any text, however long its runs of one
// character, and allocates only for pieces that are not tokens.
func (c bpeCounter) Count(text string) int { return c.enc.Count(text) }

// CountUpTo counts text's tokens like Count, pre-token by pre-token, and
// stops as soon as the running total exceeds limit. When over is false,
// n is the exact count (equal to Count(text)); when it is true, n is the
// count of a prefix of text: more than limit and at most Count(text). Its
// cost grows with limit, not with the length of text.
func (c bpeCounter) CountUpTo(text string, limit int) (n int, over bool) {
	return c.enc.CountUpTo(text, limit)
}

// Encoding names the encoding.
func (c bpeCounter) Encoding() string { return c.enc.Name() }

// PiecesAddUp reports that counts add up over the pieces of a text cut
// where a line starts a piece (view.AdditiveCounter): no pre-token spans
// such a cut, so the view's fill counts each piece once.
func (c bpeCounter) PiecesAddUp() bool { return true }

// safeCut reports whether no pre-token of o200k_base or cl100k_base spans
// the point between the bytes a and b: after a newline that is followed
// by a character other than white space or '/', and between an ASCII
// digit and a printable ASCII character that is not a digit (either way
// round; no pre-token holds a digit and a non-digit, and neither side is
// white space, whose pre-tokens look ahead). Counts of texts cut there add
// up to the count of the whole (FuzzTokenBounds checks it).
func safeCut(a, b byte) bool {
	if a == '\n' {
		return safeStart(b)
	}
	return isDigit(a) != isDigit(b) && printable(a) && printable(b)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// printable reports whether b is printable ASCII other than the space.
func printable(b byte) bool { return b > ' ' && b < 0x7f }

// BoundedCounter is a Counter that can stop counting once a limit is
// passed. The counters of NewCounter implement it; use the CountUpTo
// function to count with any Counter.
type BoundedCounter interface {
	Counter
	// CountUpTo returns the exact count and false when text has at most
	// limit tokens; otherwise a number greater than limit and at most
	// Count(text), and true.
	CountUpTo(text string, limit int) (n int, over bool)
}

// CountUpTo counts text with c, stopping once the count exceeds limit
// when c is a BoundedCounter; other counters count the whole text. over
// reports n > limit; when over is false, n is exact.
func CountUpTo(c Counter, text string, limit int) (n int, over bool) {
	if b, ok := c.(BoundedCounter); ok {
		return b.CountUpTo(text, limit)
	}
	n = c.Count(text)
	return n, n > limit
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

// LowerBound returns a number of tokens that data has at least, in
// o200k_base and cl100k_base, at memory speed and without allocating: a
// text whose LowerBound exceeds a budget cannot fit it, and needs no
// exact count to know.
//
// It counts pieces of ASCII text that the pre-tokenizers of both
// encodings must put in different pre-tokens (each pre-token is at least
// one token):
//
//   - a run of letters not preceded by a non-ASCII byte or an apostrophe
//     (a letter pre-token holds letters, one leading non-letter and a
//     contraction such as 's, so two such runs never share one);
//   - a run of L digits: ceil(L/3) (a number pre-token holds at most
//     three digits and nothing else); floor(L/3) next to non-ASCII bytes,
//     which may be digits of another script;
//   - a run of printable symbols not preceded by a non-ASCII byte, a
//     control character, or a line break when it starts with '/', and
//     either two or more long or followed by an ASCII character other
//     than a letter (a single symbol before letters may be their leading
//     character);
//   - two or more spaces or tabs followed by a printable ASCII character
//     (all but the last form a white-space pre-token);
//   - a run of line breaks right after a letter or digit.
//
// TestLowerBound checks that it is at most the exact count on the
// captured outputs, the repository's sources and adversarial text; it is
// about 0.6–0.9 of the exact count on JSON and logs (figures in
// docs/level1.md) and far lower on base64 or non-ASCII text.
func LowerBound(data []byte) int {
	n, _ := lowerBound(data, -1)
	return n
}

// lowerBound is LowerBound that stops, when limit >= 0, as soon as the
// bound exceeds limit: over reports n > limit, and n is then the bound of
// a prefix of data (still at most the exact count of data, since the
// bound only grows along the text). A text over a budget is usually
// proved so within its first few KB, so this costs a fraction of a full
// scan where only the comparison matters.
func lowerBound(data []byte, limit int) (n int, over bool) {
	for i := 0; i < len(data); {
		if limit >= 0 && n > limit {
			return n, true
		}
		b := data[i]
		j := i + 1
		var before byte // the byte before the run; 0 at the start
		if i > 0 {
			before = data[i-1]
		}
		switch {
		case b < 0x80 && byteClass[b] == clsLetter:
			for j < len(data) && data[j] < 0x80 && byteClass[data[j]] == clsLetter {
				j++
			}
			if before < 0x80 && before != '\'' {
				n++
			}
		case isDigit(b):
			for j < len(data) && isDigit(data[j]) {
				j++
			}
			l := j - i
			if before >= 0x80 || j < len(data) && data[j] >= 0x80 {
				n += l / 3
			} else {
				n += (l + 2) / 3
			}
		case printable(b):
			// A symbol: printable, not a letter or digit.
			for j < len(data) && printable(data[j]) && byteClass[data[j]] == clsPunct {
				j++
			}
			okBefore := i == 0 || before >= ' ' && before < 0x7f || (before == '\n' || before == '\r' || before == '\t') && b != '/'
			okAfter := j-i >= 2 || j == len(data) || data[j] < 0x80 && byteClass[data[j]] != clsLetter
			if okBefore && okAfter {
				n++
			}
		case b == ' ' || b == '\t':
			for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
				j++
			}
			if j-i >= 2 && j < len(data) && printable(data[j]) {
				n++
			}
		case b == '\n' || b == '\r':
			for j < len(data) && (data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if i > 0 && before < 0x80 && (byteClass[before] == clsLetter || isDigit(before)) {
				n++
			}
		}
		i = j
	}
	return n, limit >= 0 && n > limit
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

// lowerBoundOver reports LowerBound(data) > limit, reading only as much
// of data as it takes to know.
func lowerBoundOver(data []byte, limit int) bool {
	_, over := lowerBound(data, limit)
	return over
}

// LowerBound returns LowerBound of text (view.LowerBounder: the view's
// fill bounds the renderings it need not count).
func (c bpeCounter) LowerBound(text string) int { return LowerBound([]byte(text)) }
