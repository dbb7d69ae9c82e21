package view

import (
	"regexp"
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
type pathRe struct {
	re   *regexp.Regexp
	mu   sync.Mutex
	memo map[string]bool
}

// maxPathMemo bounds the paths a pathRe remembers.
const maxPathMemo = 4096

// mustPathRe compiles expr (regexp.MustCompile) into a pathRe.
func mustPathRe(expr string) *pathRe {
	return &pathRe{re: regexp.MustCompile(expr), memo: map[string]bool{}}
}

// MatchString reports whether path holds a match of the expression.
func (r *pathRe) MatchString(path string) bool {
	r.mu.Lock()
	m, ok := r.memo[path]
	r.mu.Unlock()
	if ok {
		return m
	}
	m = r.re.MatchString(wordsPath(path))
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
