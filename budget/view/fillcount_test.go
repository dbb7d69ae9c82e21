package view_test

import (
	"fmt"
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

// TestFillByPiecesIsExact: the view Fill chooses with the tokenizer
// (each piece counted once, the count a sum) is the longest prefix of
// the candidates that fits, and its count is the exact count of its
// text, for every captured JSON and text output at budgets from 300 to
// 9,000 tokens: no longer prefix fits (each of the next 64, and all of
// them), counted whole. With a counter whose counts do not add up over
// pieces, every rendering the search tries is counted whole: the count
// is exact and the view fits.
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
				if gerr != nil {
					if got.Minimum <= b || c.Count(got.Text) != got.Minimum {
						t.Fatalf("%s at %d tokens (%T): %v with a bare view of %d tokens (counted %d)", filepath.Base(file), b, c, gerr, got.Minimum, c.Count(got.Text))
					}
					continue
				}
				if got.Tokens > b || c.Count(got.Text) != got.Tokens {
					t.Fatalf("%s at %d tokens (%T): %d tokens claimed, %d counted", filepath.Base(file), b, c, got.Tokens, c.Count(got.Text))
				}
				if c != tok {
					continue
				}
				k := len(got.Chosen)
				text, all := v.PrefixForTest(k)
				if text != got.Text {
					t.Fatalf("%s at %d tokens: the text is not the rendering of its %d candidates", filepath.Base(file), b, k)
				}
				for j := k + 1; j <= all; j++ {
					if j > k+64 && j < all {
						j = all
					}
					text, _ := v.PrefixForTest(j)
					if _, over := budget.CountUpTo(tok, text, b); !over {
						t.Fatalf("%s at %d tokens: %d of %d candidates chosen, %d fit", filepath.Base(file), b, k, all, j)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no captured outputs")
	}
}

// TestFillLongestPrefix: where a longer prefix renders fewer tokens than
// a shorter one (the foot listing what is not shown shortens or is gone
// once every record is shown), Fill keeps the longest prefix that fits,
// so that more budget never shows less: every budget from the bare view
// to the whole view, over arrays of 3 to 40 records, against every
// prefix counted whole. The search by halves kept a shorter one: 3 of
// 14 candidates of 10 records at 257 tokens, where 6 fit.
func TestFillLongestPrefix(t *testing.T) {
	c := newCounter(t)
	drops := 0
	for n := 3; n <= 40; n++ {
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","state":"ok"}`, i, i*7%13)
		}
		b.WriteString("]")
		v, _ := viewOfData(t, []byte(b.String()))
		_, all := v.PrefixForTest(0)
		counts := make([]int, all+1)
		for k := range counts {
			text, _ := v.PrefixForTest(k)
			counts[k] = c.Count(text)
			if k > 0 && counts[k] < counts[k-1] {
				drops++
			}
		}
		prev := -1
		for bud := counts[0]; bud <= counts[all]+1; bud++ {
			want := 0
			for k, m := range counts {
				if m <= bud {
					want = k
				}
			}
			f, err := v.Fill(c, bud)
			if err != nil {
				t.Fatalf("%d records at %d tokens: %v", n, bud, err)
			}
			if len(f.Chosen) != want || f.Tokens != counts[want] {
				t.Fatalf("%d records at %d tokens: %d of %d candidates (%d tokens), the longest prefix that fits is %d (%d tokens)", n, bud, len(f.Chosen), all, f.Tokens, want, counts[want])
			}
			if want < prev {
				t.Fatalf("%d records: %d candidates at %d tokens, %d at one less", n, want, bud, prev)
			}
			prev = want
		}
	}
	if drops == 0 {
		t.Fatal("no longer prefix rendered fewer tokens: the test shows nothing")
	}
}

// FuzzPieceCount: a text's count by pieces is its count, in o200k_base
// and cl100k_base, whatever its lines, indentation, blank lines, slashes,
// symbols, digits and white space, with the pieces cut at lines and also
// between digits and other characters (countFine).
//
//	go test ./budget/view -run '^$' -fuzz FuzzPieceCount -fuzztime 30s
func FuzzPieceCount(f *testing.F) {
	for _, s := range []string{"a\n  b\n\tc\n", "}\n/x\n  /y\n", "x \n \n  y", "a\n  \u00a0\nb", "k:\n\n\n  v", "1\n2\n 3\n",
		"  \n  x\n", "a\r\n  b", "a\n\v b", "é\n  ü\n", "x\n ", "x\n  ", "[\n  {\n    \"a\": 1\n  }\n]\n", "a.\n  .b\n  'll\n  's", "  not shown: 90 of 94 records; del(.[0], .[47:52])\n", "a1b2 c3 x9.5e+3 -7/8 ١٢٣4a"} {
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
			if got, want := view.FinePieceCountForTest(c, s), c.Count(s); got != want {
				t.Fatalf("%s: %q counted by pieces cut at digits too %d, whole %d", c.(budget.Counter).Encoding(), s, got, want)
			}
		}
	})
}
