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
