package view

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestSplitSpacesParens checks that an opening parenthesis on its own
// starts the next cell ("( 0.00%)" is one cell, as "(47.46%)" is), that
// the jq the view prints for such a table splits every line the same
// way, and that callgrind_annotate's report (a right-aligned first
// column, widest first) is read as one table of 4 columns over all its
// function lines, not only over those indented by the narrower numbers.
func TestSplitSpacesParens(t *testing.T) {
	lines := []string{
		"47,782,899,833 (2269.5%)  ???:go/printer.(*printer).expr1 [/usr/local/go/bin/gofmt]",
		"             1 ( 0.00%)  ???:runtime.traceLockInit [/usr/local/go/bin/gofmt]",
		"( a (  b ((  c",
		"f( 1, 2)  (",
		"  ( \t x",
	}
	want := [][]string{
		{"47,782,899,833", "(2269.5%)", "???:go/printer.(*printer).expr1", "[/usr/local/go/bin/gofmt]"},
		{"1", "(0.00%)", "???:runtime.traceLockInit", "[/usr/local/go/bin/gofmt]"},
		{"(a", "(b", "((", "c"},
		{"f(", "1,", "2)", "("},
		{"(x"},
	}
	for i, l := range lines {
		got, _ := splitSpacesP(l)
		if fmt.Sprint(got) != fmt.Sprint(want[i]) {
			t.Errorf("%q: split %q, want %q", l, got, want[i])
		}
		jq := runJQ(t, l, jqSplitSpaces)[0]
		if fmt.Sprint(jq) != fmt.Sprint(want[i]) {
			t.Errorf("%q: jq %v, want %q", l, jq, want[i])
		}
	}
	data, err := os.ReadFile("../../testdata/captured/callgrind-annotate-gofmt.txt")
	if err != nil {
		t.Skip(err)
	}
	p := analyzeText(data, nil)
	cp := p.cols
	fnLines := strings.Count(string(data), "???:")
	if cp == nil || cp.split.lead != "" || len(cp.cols) != 4 || cp.rows < fnLines {
		t.Fatalf("callgrind_annotate: not one table of 4 columns over its %d function lines: %+v", fnLines, cp)
	}
}
