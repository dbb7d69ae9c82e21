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
