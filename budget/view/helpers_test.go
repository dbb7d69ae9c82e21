package view_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// The scaffolding of the view's tests, once: an output's view.Input as
// level 2 builds it (budget/level2.go), its View, and the view filled at
// a budget with the pipeline's default counter.

// inputOf returns the view.Input of data as level 2 builds it: the shape
// budget.DetectShape finds, each collection's records read by
// budget.EachRecord, tool "t", handle "0123456789ab", budget b. A test
// sets other fields (Tool, Index, Sort, Identity, ...) before buildView.
func inputOf(t testing.TB, data []byte, b int) view.Input {
	t.Helper()
	sh, err := budget.DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := view.Input{Tool: "t", ContentType: sh.ContentType, Format: sh.Format, Data: data, Handle: "0123456789ab", Budget: b}
	for _, c := range sh.Collections {
		in.Collections = append(in.Collections, view.Collection{Path: c.Path, Kind: c.Kind, Count: c.Count,
			Each: func(fn func(int, []byte) error) error { return budget.EachRecord(data, sh, c.Path, fn) }})
	}
	return in
}

// buildView builds the view of in; an error fails the test.
func buildView(t testing.TB, in view.Input) *view.View {
	t.Helper()
	v, err := view.Build(in)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// readFile returns the content of file; an error fails the test.
func readFile(t testing.TB, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// viewOf builds the view of a file with the shape DetectShape finds
// (inputOf at 8,000 tokens).
func viewOf(t testing.TB, file string) (*view.View, []byte) {
	t.Helper()
	return viewOfData(t, readFile(t, file))
}

// viewOfData builds the view of data with the shape DetectShape finds
// (inputOf at 8,000 tokens).
func viewOfData(t testing.TB, data []byte) (*view.View, []byte) {
	t.Helper()
	return buildView(t, inputOf(t, data, 8000)), data
}

// newCounter returns the pipeline's default counter (o200k_base); an
// error fails the test.
func newCounter(t testing.TB) budget.Counter {
	t.Helper()
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fillAt fills v at b tokens with the default counter. An error fails
// the test, and so does a view over b tokens or whose Tokens is not the
// exact count of its text.
func fillAt(t testing.TB, v *view.View, b int) *view.Filled {
	t.Helper()
	c := newCounter(t)
	fl, err := v.Fill(c, b)
	if err != nil {
		t.Fatalf("at %d tokens: %v (bare view %d tokens)", b, err, fl.Minimum)
	}
	if n := c.Count(fl.Text); fl.Tokens > b || fl.Tokens != n {
		t.Fatalf("at %d tokens: %d tokens (counted %d)", b, fl.Tokens, n)
	}
	return fl
}

// commas formats a non-negative n as the view does, written here apart
// from the view's own: 1234567 -> "1,234,567".
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
