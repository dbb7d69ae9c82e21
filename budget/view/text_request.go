package view

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Lines relevant to the request: the words of the tool call's arguments
// (requestTerms: `apt-cache show node-express`, a grep pattern, a
// package or a file named in the call) found in the text's lines, the
// most relevant first (BM25's idf of the words a line holds, a word
// found whole before one found inside another word), as the rows of a
// JSON collection are (rows.go). The line a user asked about is then in
// the view however deep in the text it is.

// maxRequestLines is the most lines matching the request a view offers.
const maxRequestLines = 40

// requestLine is one line that holds some of the request's words.
type requestLine struct {
	pos   int
	text  string
	mask  uint32 // the words it holds
	whole uint32 // the words it holds whole (not inside a longer word)
}

// requestLines returns the lines of data holding words of the request
// (terms), the most relevant first, at most maxRequestLines: one pass
// counts the lines holding each word (for its idf), a second keeps the
// best lines.
func requestLines(data []byte, terms []string) []requestLine {
	if len(terms) == 0 {
		return nil
	}
	df := make([]int, len(terms))
	n := 0
	textLines(data, func(pos int, line string) {
		n++
		lower := strings.ToLower(line)
		for j, term := range terms {
			if strings.Contains(lower, term) {
				df[j]++
			}
		}
	})
	idf := make([]float64, len(terms))
	for j, term := range terms {
		idf[j] = math.Log(1 + (float64(n)-float64(df[j])+0.5)/(float64(df[j])+0.5))
		if strings.IndexFunc(term, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
			idf[j] *= 3 // a name as written ("node-express"), not one of its words
		}
	}
	type scored struct {
		requestLine
		score float64
	}
	var best []scored // the best lines so far, best first
	textLines(data, func(pos int, line string) {
		lower := strings.ToLower(line)
		h := scored{requestLine: requestLine{pos: pos, text: line}}
		for j, term := range terms {
			i := strings.Index(lower, term)
			if i < 0 {
				continue
			}
			h.mask |= 1 << j
			h.score += idf[j]
			for ; i >= 0; i = nextIndex(lower, term, i) {
				if !wordByte(lower, i-1) && !wordByte(lower, i+len(term)) {
					h.whole |= 1 << j
					h.score += idf[j] // a word found whole counts twice
					break
				}
			}
		}
		if h.mask == 0 || len(best) == maxRequestLines && h.score <= best[len(best)-1].score {
			return
		}
		k := sort.Search(len(best), func(i int) bool { return best[i].score < h.score })
		best = slices.Insert(best, k, h)
		if len(best) > maxRequestLines {
			best = best[:maxRequestLines]
		}
	})
	out := make([]requestLine, len(best))
	for i, h := range best {
		out[i] = h.requestLine
	}
	return out
}

// nextIndex is the next occurrence of term in s after the one at i, or -1.
func nextIndex(s, term string, i int) int {
	j := strings.Index(s[i+1:], term)
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// wordByte reports whether s[i] is a letter or a digit (false outside s).
func wordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// requestCandidates returns the function that adds the lines matching
// the request, [a, b) of them in relevance order (section tsRequest).
func (tc *textCands) requestCandidates(add func(sec, key, rec int, reason, text string)) func(a, b int) {
	if tc.json || tc.p == nil {
		return func(int, int) {}
	}
	terms := requestTerms(tc.in.Args)
	tc.reqTerms = terms
	hits := requestLines(tc.in.Data, terms)
	return func(a, b int) {
		for k := a; k < b && k < len(hits); k++ {
			h := hits[k]
			add(tsRequest, h.pos, h.pos, "matches the request", fmt.Sprintf("  %d\t%s", h.pos, cutLine(h.text)))
		}
	}
}

// requestHead is the head of the section of lines matching the request.
func (tc *textCands) requestHead(cs []Candidate) string {
	return fmt.Sprintf("lines matching the tool call's arguments (words: %s; the most relevant first by BM25's idf, shown in line order; showing %s), line<TAB>text:\n",
		strings.Join(tc.reqTerms, ", "), commas(len(cs)))
}
