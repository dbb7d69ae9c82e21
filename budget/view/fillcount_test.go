package view_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// quarterCounter counts a quarter of the bytes, rounded up: its counts
// do not add up over pieces, so Fill's search by pieces is only an
// estimate with it.
type quarterCounter struct{}

func (quarterCounter) Count(s string) int { return (len(s) + 3) / 4 }

// TestFillByPiecesIsExact: the view Fill chooses by counting its
// renderings by pieces is the one the search by whole exact counts
// chooses, with the same exact count, for every captured JSON and text
// output at budgets from 300 to 9,000 tokens: with the tokenizer (whose
// counts add up over the pieces) and with a counter whose counts do not
// (Fill checks and searches again).
func TestFillByPiecesIsExact(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "captured", "*"))
	if err != nil {
		t.Fatal(err)
	}
	tok := newCounter(t)
	n := 0
	for _, file := range files {
		if strings.HasSuffix(file, ".yaml") || strings.HasSuffix(file, ".md") {
			continue
		}
		if st, err := os.Stat(file); err != nil || st.IsDir() || st.Size() > 2<<20 {
			continue
		}
		if testing.Short() && n >= 8 {
			break
		}
		n++
		v, _ := viewOf(t, file)
		for _, c := range []view.Counter{tok, quarterCounter{}} {
			for _, b := range []int{300, 1000, 2000, 4000, 9000} {
				got, gerr := v.Fill(c, b)
				want, werr := v.FillExactForTest(c, b)
				if (gerr != nil) != (werr != nil) || got.Text != want.Text || got.Tokens != want.Tokens || got.Minimum != want.Minimum || len(got.Chosen) != len(want.Chosen) {
					t.Fatalf("%s at %d tokens (%T): Fill chose %d candidates, %d tokens (%v); the exact search %d, %d tokens (%v)",
						filepath.Base(file), b, c, len(got.Chosen), got.Tokens, gerr, len(want.Chosen), want.Tokens, werr)
				}
				if gerr == nil && (got.Tokens > b || c.Count(got.Text) != got.Tokens) {
					t.Fatalf("%s at %d tokens: %d tokens claimed, %d counted", filepath.Base(file), b, got.Tokens, c.Count(got.Text))
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no captured outputs")
	}
}

// FuzzPieceCount: a text's count by pieces is its count, in o200k_base
// and cl100k_base, whatever its lines, indentation, blank lines, slashes,
// symbols and white space.
//
//	go test ./budget/view -run '^$' -fuzz FuzzPieceCount -fuzztime 30s
func FuzzPieceCount(f *testing.F) {
	for _, s := range []string{"a\n  b\n\tc\n", "}\n/x\n  /y\n", "x \n \n  y", "a\n  \u00a0\nb", "k:\n\n\n  v", "1\n2\n 3\n",
		"  \n  x\n", "a\r\n  b", "a\n\v b", "é\n  ü\n", "x\n ", "x\n  ", "[\n  {\n    \"a\": 1\n  }\n]\n", "a.\n  .b\n  'll\n  's"} {
		f.Add(s)
	}
	var cs []view.Counter
	for _, enc := range []string{budget.EncodingO200k, budget.EncodingCL100k} {
		c, err := budget.NewCounter(enc)
		if err != nil {
			f.Fatal(err)
		}
		cs = append(cs, c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4000 {
			return
		}
		for _, c := range cs {
			if got, want := view.PieceCountForTest(c, s), c.Count(s); got != want {
				t.Fatalf("%s: %q counted by pieces %d, whole %d", c.(budget.Counter).Encoding(), s, got, want)
			}
		}
	})
}
