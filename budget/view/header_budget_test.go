package view_test

import (
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// TestHeaderBudgetMonotone: the header states the budget, and "1,000"
// costs more tokens than "999"; a view at a larger budget still holds
// every candidate the view at a smaller one holds, at every budget from
// 960 to 1,040 (npm install's failed log, whose view at 999 tokens
// filled its budget to the token and lost a candidate at 1,000, where
// the header's number costs two tokens more).
func TestHeaderBudgetMonotone(t *testing.T) {
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	data := readFile(t, "../../testdata/captured/npm-install-fail.txt")
	var prev []view.Candidate
	for b := 960; b <= 1040; b++ {
		in := inputOf(t, data, b)
		in.Tool, in.Handle = "default", "artifact:441d98cb44ff"
		in.TokensBefore, in.BeforeEstimated = budget.Estimate(data), true
		fl, err := buildView(t, in).Fill(c, b)
		if err != nil {
			t.Fatalf("at %d: %v", b, err)
		}
		if fl.Tokens > b {
			t.Fatalf("at %d: %d tokens", b, fl.Tokens)
		}
		if len(fl.Chosen) < len(prev) {
			t.Errorf("%d candidates at %d tokens, %d at %d", len(fl.Chosen), b, len(prev), b-1)
		}
		for i := range min(len(prev), len(fl.Chosen)) {
			if prev[i].Text != fl.Chosen[i].Text {
				t.Errorf("at %d: candidate %d differs from the view's at %d", b, i, b-1)
				break
			}
		}
		prev = fl.Chosen
	}
}
