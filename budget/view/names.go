package view

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// pathRe is a regular expression over field paths and names (stateNames,
// refNames, ...) that remembers its answer per path: a view asks the
// same few expressions about the same fields again and again (when the
// tracker meets a field, for its profile line, its columns, its index,
// its rows), and each answer of these case-insensitive alternations
// took tens of thousands of instructions (a kubectl pod list's view
// asked 468 times, 23M instructions). The answers are the regular
// expression's; at most maxPathMemo paths are remembered per
// expression (then it starts over), so a long-running server's memory
// stays bounded.
//
// A path is first tried against the expression's words (lits): a match
// in a text of ASCII holds one of them, in any case, so that a path that
// holds none (most paths, for most expressions) is no match with no run
// of the expression (a first answer took 20,000 instructions: 7M of a
// 10 MB GitHub issue list's view, 321 paths).
type pathRe struct {
	re   *regexp.Regexp
	lits []string
	mu   sync.Mutex
	memo map[string]bool
}

// maxPathMemo bounds the paths a pathRe remembers.
const maxPathMemo = 4096

// mustPathRe compiles expr (regexp.MustCompile) into a pathRe.
func mustPathRe(expr string) *pathRe {
	r := &pathRe{re: regexp.MustCompile(expr), memo: map[string]bool{}}
	if t, err := syntax.Parse(expr, syntax.Perl); err == nil {
		r.lits = litsOf(t.Simplify())
	}
	pathRes = append(pathRes, r)
	return r
}

// pathRes are the expressions made by mustPathRe (tests check each
// one's words against it).
var pathRes []*pathRe

// litsOf returns words of which a match of t in a text of ASCII holds at
// least one, in any case (lower-case, ASCII), or nil when it knows none
// (a match may be empty, or made of classes of characters).
func litsOf(t *syntax.Regexp) []string {
	ws, _ := wordsOf(t)
	if ws == nil || shortest(ws) == 0 {
		return nil
	}
	// (a word that holds another is found with it)
	var out []string
	for i, w := range ws {
		keep := true
		for j, o := range ws {
			if j != i && strings.Contains(w, o) && (len(o) < len(w) || j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, w)
		}
	}
	return out
}

// maxWords bounds the words wordsOf makes of a part of an expression.
const maxWords = 256

// wordsOf returns the words of t (litsOf; nil: none known), and whether
// a match of t is exactly one of them (not only holds one).
func wordsOf(t *syntax.Regexp) ([]string, bool) {
	switch t.Op {
	case syntax.OpLiteral:
		b := make([]byte, 0, len(t.Rune))
		for _, c := range t.Rune {
			if c >= 0x80 {
				return nil, false
			}
			b = append(b, lowerASCII(byte(c)))
		}
		return []string{string(b)}, true
	case syntax.OpCharClass:
		// A letter in either case (a one-letter literal folded): the
		// members outside ASCII match no byte of an ASCII text.
		var one byte
		for i := 0; i+1 < len(t.Rune); i += 2 {
			for c := t.Rune[i]; c <= t.Rune[i+1] && c < 0x80; c++ {
				if l := lowerASCII(byte(c)); one == 0 || l == one {
					one = l
				} else {
					return nil, false
				}
			}
		}
		if one == 0 {
			return nil, false
		}
		return []string{string(one)}, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return []string{""}, true // (matches no text)
	case syntax.OpCapture:
		return wordsOf(t.Sub[0])
	case syntax.OpQuest:
		if ws, exact := wordsOf(t.Sub[0]); exact {
			return append(ws, ""), true
		}
	case syntax.OpPlus:
		ws, _ := wordsOf(t.Sub[0])
		return ws, false
	case syntax.OpRepeat:
		if t.Min >= 1 {
			ws, exact := wordsOf(t.Sub[0])
			return ws, exact && t.Min == 1 && t.Max == 1
		}
	case syntax.OpAlternate:
		var all []string
		exact := true
		for _, s := range t.Sub {
			ws, ex := wordsOf(s)
			if ws == nil {
				return nil, false
			}
			all, exact = append(all, ws...), exact && ex
		}
		return all, exact
	case syntax.OpConcat:
		// Adjacent parts matched exactly make the words of their run
		// (each of one with each of the next); of the runs and the
		// other parts with words, the one whose shortest word is the
		// longest.
		var best, run []string
		runOn, exact := false, true
		pick := func(ws []string) {
			if ws != nil && (best == nil || shortest(ws) > shortest(best)) {
				best = ws
			}
		}
		for _, s := range t.Sub {
			ws, ex := wordsOf(s)
			if !ex {
				exact = false
				pick(run)
				run, runOn = nil, false
				pick(ws)
				continue
			}
			if !runOn {
				run, runOn = ws, true
				continue
			}
			if len(run)*len(ws) > maxWords {
				exact = false
				pick(run)
				run = ws
				continue
			}
			var next []string
			for _, a := range run {
				for _, b := range ws {
					next = append(next, a+b)
				}
			}
			run = next
		}
		pick(run)
		return best, exact && best != nil && len(best) == len(run) && &best[0] == &run[0]
	}
	return nil, false
}

// shortest returns the length of the shortest of ws.
func shortest(ws []string) int {
	n := len(ws[0])
	for _, w := range ws {
		n = min(n, len(w))
	}
	return n
}

// lowerASCII is c in lower case when it is an ASCII letter.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// holdsLit reports whether s, when it is ASCII, holds one of lits (lower
// case) in any case; true for any other s.
func holdsLit(s string, lits []string) bool {
	var buf [64]byte
	low := buf[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return true
		}
		low = append(low, lowerASCII(c))
	}
	ls := string(low)
	for _, l := range lits {
		if strings.Contains(ls, l) {
			return true
		}
	}
	return false
}

// MatchString reports whether path holds a match of the expression.
func (r *pathRe) MatchString(path string) bool {
	r.mu.Lock()
	m, ok := r.memo[path]
	r.mu.Unlock()
	if ok {
		return m
	}
	wp := wordsPath(path)
	m = (r.lits == nil || holdsLit(wp, r.lits)) && r.re.MatchString(wp)
	r.mu.Lock()
	if len(r.memo) >= maxPathMemo {
		clear(r.memo)
	}
	r.memo[path] = m
	r.mu.Unlock()
	return m
}

// wordsPath returns path with its names of several words read word by
// word: a member name quoted for its spaces ("Node Type", "Actual Total
// Time" of PostgreSQL's EXPLAIN) becomes its words joined by dots
// (Node.Type), so that the expressions over names see its last word as
// they see a nested member's (a type, a time). Other paths are returned
// as they are.
func wordsPath(path string) string {
	if !strings.Contains(path, `"`) || !strings.Contains(path, " ") {
		return path
	}
	return strings.NewReplacer(`"`, "", " ", ".").Replace(path)
}
