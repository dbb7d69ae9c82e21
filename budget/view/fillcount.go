package view

import "strings"

// pieceCounter counts rendered views by their pieces: a text is cut
// after each newline that a character other than white space or '/'
// follows, where no pre-token of o200k_base or cl100k_base spans (the
// cut budget.safeCut describes; budget's FuzzCountMatchesReference
// checks that the counts of the two sides add up to the whole's). Each
// piece is counted once with the counter and remembered, so the fill's
// search, which renders and counts a dozen prefixes of one candidate
// list, counts each line of them about once instead of once a rendering.
// For a counter whose counts do not add up so, the sum is only an
// estimate: Fill checks its result exactly (exactFill).
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
		if pieceStart(text[i]) {
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

// pieceStart reports whether a pre-token always starts at b when b
// follows a newline (budget.safeStart).
func pieceStart(b byte) bool {
	switch b {
	case ' ', '\t', '\r', '\n', '\v', '\f', '/':
		return false
	}
	return b < 0x80
}
