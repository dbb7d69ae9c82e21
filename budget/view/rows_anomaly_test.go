package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// lintLike is a linter's findings as JSON, one record a finding: 480
// findings, 50 of them missing-docstring and 40 invalid-name (values
// with a word of errors, each held by many records), and two kinds held
// by one finding each, far into the list: too-many-arguments (record
// 430) and abstract-method (record 470).
func lintLike() []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range 480 {
		if i > 0 {
			b.WriteString(",")
		}
		sym, msg := "line-too-long", fmt.Sprintf("Line too long (%d/100)", 101+i%37)
		switch {
		case i == 430:
			sym, msg = "too-many-arguments", "Too many arguments (7/5)"
		case i == 470:
			sym, msg = "abstract-method", "Method 'language' is abstract in class 'Prober' but is not overridden in child class 'Latin1Prober'"
		case i%9 == 1 && i < 450:
			sym, msg = "missing-docstring", "Missing function or method docstring for a function of this module that has no docstring"
		case i%11 == 2 && i < 440:
			sym, msg = "invalid-name", fmt.Sprintf("Variable name \"v%d\" doesn't conform to snake_case naming style", i)
		}
		fmt.Fprintf(&b, `{"type":"convention","path":"pkg/mod%02d.py","obj":"Thing%d.run","line":%d,"column":%d,"symbol":%q,"message":%q}`,
			i/8, i, 10+i*3%500, i%13, sym, msg)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// TestRareKindsBeforeManyErrorRows: a value with a word of errors held
// by more records than the rows' first round shows of it (50
// missing-docstring findings) gives the first round its first four
// rows, not eight, so that the kinds held by one finding each
// (too-many-arguments, abstract-method) are rows at a budget that shows
// about twenty (1,500 tokens here): a question about the one finding of
// a kind is answered. The view still shows four rows of each error
// value. On the old code the two error values took sixteen rows before
// any rare kind, and neither was shown at 1,500 tokens.
func TestRareKindsBeforeManyErrorRows(t *testing.T) {
	v, _ := viewOfData(t, lintLike())
	f := fillAt(t, v, 1500)
	rows := map[string]int{}
	for _, l := range strings.Split(f.Text, "\n") {
		for _, sym := range []string{"too-many-arguments", "abstract-method", "missing-docstring", "invalid-name"} {
			if strings.Contains(l, "\t"+sym+"\t") {
				rows[sym]++
			}
		}
	}
	for _, sym := range []string{"too-many-arguments", "abstract-method"} {
		if rows[sym] != 1 {
			t.Errorf("%d rows of %s, want 1:\n%s", rows[sym], sym, f.Text)
		}
	}
	for _, sym := range []string{"missing-docstring", "invalid-name"} {
		if rows[sym] < 4 {
			t.Errorf("%d rows of %s, want 4 or more:\n%s", rows[sym], sym, f.Text)
		}
	}
}
