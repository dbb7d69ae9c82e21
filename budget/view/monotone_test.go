package view_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// TestViewMonotoneOnCapturedOutputs builds the view of every captured
// output and fills it at growing budgets with the real token counter:
// every view fits its budget, is counted exactly, and holds every
// candidate the view at a smaller budget holds; the facts it states
// (Filled.Facts) are a prefix of View.Facts, which a result keeping the
// whole output states (budget's TestMonotoneAcrossLevels).
func TestViewMonotoneOnCapturedOutputs(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/captured/*")
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".md") {
			continue
		}
		v, err := view.Build(inputOf(t, readFile(t, f), 8000))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n++
		var prev []view.Candidate
		prevText := ""
		all := v.Facts()
		var prevFacts []string
		for _, b := range []int{1000, 2000, 4000, 8000} {
			fl, err := v.Fill(c, b)
			if err != nil {
				continue // the bare view is over a small budget
			}
			if fl.Tokens > b || fl.Tokens != c.Count(fl.Text) {
				t.Errorf("%s at %d: %d tokens (counted %d)", filepath.Base(f), b, fl.Tokens, c.Count(fl.Text))
			}
			if len(fl.Chosen) < len(prev) {
				t.Errorf("%s: %d candidates at %d tokens, %d at a smaller budget", filepath.Base(f), len(fl.Chosen), b, len(prev))
			}
			for i := range prev {
				if prev[i].Text != fl.Chosen[i].Text {
					t.Errorf("%s at %d: candidate %d differs from the smaller view's", filepath.Base(f), b, i)
					break
				}
				// A row header is shown once its first row is (render).
				if strings.Contains(prevText, prev[i].Text) && !strings.Contains(fl.Text, prev[i].Text) {
					t.Errorf("%s at %d: lost %q", filepath.Base(f), b, prev[i].Text)
					break
				}
			}
			prev, prevText = fl.Chosen, fl.Text
			// The facts a filled view states are a prefix of View.Facts
			// (what a whole result states), growing with the budget.
			facts := fl.Facts(v)
			if len(facts) < len(prevFacts) || len(facts) > len(all) {
				t.Errorf("%s at %d: %d facts, %d at a smaller budget, %d in all", filepath.Base(f), b, len(facts), len(prevFacts), len(all))
			} else {
				for i, x := range facts {
					if x != all[i] || i < len(prevFacts) && x != prevFacts[i] {
						t.Errorf("%s at %d: fact %d %q is not the %d-th of View.Facts", filepath.Base(f), b, i, x, i)
						break
					}
				}
			}
			prevFacts = facts
			// The column names wait for a row.
			for _, sec := range strings.SplitAfter(fl.Text, "\nrows (tab-separated")[1:] {
				if i := strings.Index(sec, "\n"); i >= 0 {
					if j := strings.Index(sec[i+1:], "\n"); j >= 0 && !startsWithDigit(sec[i+1+j+1:]) {
						t.Errorf("%s at %d: a row header without rows: %.200q", filepath.Base(f), b, sec)
					}
				}
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d outputs", n)
	}
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// TestFillLongestPrefixEveryBudget fills the views of captured text
// outputs at every budget of a window and checks that each keeps the
// longest prefix of the candidates that fits, by the exact count of every
// prefix's rendering, and holds the view at one token less. A rendering
// can count fewer tokens than a shorter prefix's (a foot gone, a blank
// line joining the line before it), so a search by halves kept shorter
// prefixes: jest-verbose-lib.txt showed 49 candidates at 1,484 tokens
// and 47 at 1,485; openssl-x509-mozilla.txt 4 at 734 tokens while 10
// fit; dpkg-status.txt 122 at 3,091 while 136 fit.
func TestFillLongestPrefixEveryBudget(t *testing.T) {
	c := newCounter(t)
	for _, tc := range []struct {
		file   string
		lo, hi int
	}{
		{"jest-verbose-lib.txt", 1478, 1492},
		{"openssl-x509-mozilla.txt", 734, 745},
		{"dpkg-status.txt", 3088, 3094},
	} {
		v, _ := viewOf(t, filepath.Join("..", "..", "testdata", "captured", tc.file))
		_, n := v.PrefixForTest(0)
		// The exact count of every prefix's rendering (none depends on
		// the budget).
		counts := make([]int, n+1)
		for k := range counts {
			text, _ := v.PrefixForTest(k)
			counts[k] = c.Count(text)
		}
		var prev *view.Filled
		for b := tc.lo; b <= tc.hi; b++ {
			f, err := v.Fill(c, b)
			if err != nil {
				t.Fatalf("%s at %d: %v", tc.file, b, err)
			}
			longest := 0
			for k, m := range counts {
				if m <= b {
					longest = k
				}
			}
			if len(f.Chosen) != longest || f.Tokens != counts[longest] {
				t.Errorf("%s at %d: %d candidates (%d tokens) kept, the longest prefix that fits has %d (%d tokens)",
					tc.file, b, len(f.Chosen), f.Tokens, longest, counts[longest])
			}
			if prev != nil {
				if len(f.Chosen) < len(prev.Chosen) {
					t.Errorf("%s: %d candidates at %d tokens, %d at %d", tc.file, len(f.Chosen), b, len(prev.Chosen), b-1)
				} else {
					for i, cd := range prev.Chosen {
						if f.Chosen[i].Text != cd.Text {
							t.Errorf("%s at %d: candidate %d is not the one shown at %d", tc.file, b, i, b-1)
							break
						}
					}
				}
			}
			prev = f
		}
	}
}

// TestViewPartsStartPieces: the fill bounds a rendering's count by its
// candidates' lines, which holds when no head or foot joins the piece
// of the line before it (each starts with a title or a count) and a
// section with a line that starts no piece (a blank line of a text)
// writes a head whenever it shows a line. Checked on the views of every
// captured output at 1,000 to 8,000 tokens.
func TestViewPartsStartPieces(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/captured/*")
	c := newCounter(t)
	for _, f := range files {
		if strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".md") {
			continue
		}
		v, _ := viewOf(t, f)
		bad := 0
		v.WatchPartsForTest(func(what, text string) {
			if bad++; bad <= 2 {
				t.Errorf("%s: a %s that does not start a piece: %q", filepath.Base(f), what, text)
			}
		})
		for _, b := range []int{1000, 2000, 4000, 8000} {
			v.Fill(c, b)
		}
	}
}
