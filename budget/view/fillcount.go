package view

import "strings"

// pieceCounter counts rendered views by their pieces: a text is cut
// after each newline that starts a line whose first character is not
// '/' and whose first character other than a space or a tab is printable
// ASCII (not white space): no pre-token of o200k_base or cl100k_base
// spans such a cut (a run of white space holding a newline is one
// pre-token up to its last newline; a run of symbols takes the newlines
// and slashes right after it; a pre-token of letters or digits takes no
// newline), so the counts of the two sides add up to the whole's
// (budget.safeCut is the same rule without the indentation;
// FuzzPieceCount checks this one against the tokenizers). Each piece is
// counted once with the counter and remembered, so the fill's search,
// which renders and counts several prefixes of one candidate list,
// counts each line of them about once instead of once a rendering. For
// a counter whose counts do not add up so (not an AdditiveCounter), Fill
// counts every rendering whole.
type pieceCounter struct {
	c    Counter
	memo map[string]int
}

func newPieceCounter(c Counter) *pieceCounter {
	return &pieceCounter{c: c, memo: map[string]int{}}
}

// count returns the sum of the counts of text's pieces.
func (pc *pieceCounter) count(text string) int {
	n, start := 0, 0
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 || i+j+1 >= len(text) {
			break
		}
		i += j + 1
		if pieceStart(text, i) {
			n += pc.piece(text[start:i])
			start = i
		}
	}
	return n + pc.piece(text[start:])
}

// countFine is count with the pieces cut also between an ASCII digit and
// a printable ASCII character that is not a digit, either way round (no
// pre-token of o200k_base or cl100k_base holds a digit and a non-digit,
// and neither side is white space: budget.safeCut, checked against the
// reference tokenizer by FuzzCountMatchesReference). The fill counts the
// heads and feet of many prefixes with it: their lines differ in a
// number or a list of record numbers ("not shown: 90 of 94 records ...
// del(.[0], .[47])"), and the parts between the numbers are counted once.
func (pc *pieceCounter) countFine(text string) int {
	n, start := 0, 0
	for i := 1; i < len(text); i++ {
		a, b := text[i-1], text[i]
		if a == '\n' && pieceStart(text, i) || isDigit(a) != isDigit(b) && printable(a) && printable(b) {
			n += pc.piece(text[start:i])
			start = i
		}
	}
	return n + pc.piece(text[start:])
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// printable reports whether b is printable ASCII other than the space.
func printable(b byte) bool { return b > ' ' && b < 0x7f }

// piece returns the count of one piece, counting it the first time.
func (pc *pieceCounter) piece(p string) int {
	if p == "" {
		return 0
	}
	if n, ok := pc.memo[p]; ok {
		return n
	}
	n := pc.c.Count(p)
	pc.memo[p] = n
	return n
}

// pieceStart reports whether a pre-token always starts at text[i], which
// follows a newline: the line is not '/' first, and its first character
// after spaces and tabs is printable ASCII other than the space.
func pieceStart(text string, i int) bool {
	if text[i] == '/' {
		return false
	}
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i < len(text) && text[i] > ' ' && text[i] < 0x7f
}
