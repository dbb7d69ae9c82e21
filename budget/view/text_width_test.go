package view

import (
	"math/rand"
	"strings"
	"testing"
)

// widthByRescan is width as first written: for each token that opens a
// bracket, rescan the rest of the line for its close (quadratic on a line
// of many unclosed brackets). It is the oracle the one-pass width is
// checked against.
func widthByRescan(s string) int {
	toks := splitSpaces(s)
	depth := 0
	for j, t := range toks {
		before := depth
		depth += bracketDelta(t)
		if depth > before && j+1 < len(toks) {
			d := depth
			for _, u := range toks[j+1:] {
				d += bracketDelta(u)
				if d <= before {
					return j + 1
				}
			}
		}
	}
	return len(toks)
}

func bracketDelta(t string) int {
	d := 0
	for k := 0; k < len(t); k++ {
		switch t[k] {
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			d--
		}
	}
	return d
}

// TestWidthOnePass checks the one-pass width against the rescanning
// oracle on fixed and random lines, and that a line of 200,000 unclosed
// brackets is read (it took minutes when each bracket rescanned the line).
func TestWidthOnePass(t *testing.T) {
	lines := []string{
		"", "a", "a b c", `execve("/bin/ls", ["ls"]) = 0`, "f( a b ) c", "[ [ ] x", "] [ a ]", "(a (b) c d",
		"{ a } { b", "x ( y ) ) z (", "a) (b c) d",
	}
	lines = append(lines, randomLines(3, 5000, 20, []string{"a", "(", ")", "[", "]", "{", "}", " ", " ", "b"})...)
	for _, l := range lines {
		if got, want := width(l), widthByRescan(l); got != want {
			t.Errorf("width(%q) = %d, the rescan gives %d", l, got, want)
		}
	}
	if mid := strings.Repeat("[x ", 2000) + "]"; width(mid) != widthByRescan(mid) {
		t.Errorf("width of 2,000 [x then ] = %d, the rescan gives %d", width(mid), widthByRescan(mid))
	}
	long := strings.Repeat("[x ", 200000)
	if got := width(long); got != 200000 {
		t.Errorf("width of 200,000 '[x' = %d, want 200,000 fields", got)
	}
}

// randomLines returns n lines of fewer than maxLen pieces each, the
// pieces drawn from alpha by a generator seeded with seed (the same
// lines on every run).
func randomLines(seed int64, n, maxLen int, alpha []string) []string {
	rng := rand.New(rand.NewSource(seed))
	lines := make([]string, 0, n)
	for i := 0; i < n; i++ {
		var b strings.Builder
		for j := rng.Intn(maxLen); j > 0; j-- {
			b.WriteString(alpha[rng.Intn(len(alpha))])
		}
		lines = append(lines, b.String())
	}
	return lines
}
