package view

import (
	"strings"
	"testing"
)

// cellIsCases are raw JSON values for cellIs: strings plain, escaped,
// empty, read as literals, with tabs, long and non-ASCII; numbers and
// literals.
var cellIsCases = []string{`"abc"`, `"a\"b"`, `""`, `"12"`, `"-1"`, `"+x"`, `".5"`, `"true"`, `"false"`, `"null"`, `"nan"`, `"Inf"`,
	`"inline"`, `"tab	in"`, `"new\nline"`, `"é ü"`, `"` + strings.Repeat("x", 70) + `"`, `"` + strings.Repeat("é", 76) + `"`,
	`"` + strings.Repeat("é", 77) + `"`, `12`, `-3.5`, `true`, `null`, strings.Repeat("9", 80), `"fine-name_1"`, `"\u00e9"`, "\"\xff\xfe\""}

// TestCellIs: cellIs(raw, w, s) is cell(string(raw), w) == s, for the
// cell itself and for texts that differ from it by a character.
func TestCellIs(t *testing.T) {
	for _, raw := range cellIsCases {
		for _, w := range []int{1, 8, 64, 100} {
			want := cell(raw, w)
			for _, s := range []string{want, want + "x", strings.TrimSuffix(want, want[len(want)-1:]), raw} {
				if got := cellIs([]byte(raw), w, s); got != (want == s) {
					t.Errorf("cellIs(%q, %d, %q) = %v, cell is %q", raw, w, s, got, want)
				}
			}
		}
	}
}

// FuzzCellIs: cellIs agrees with cell on any raw value.
//
//	go test ./budget/view -run '^$' -fuzz FuzzCellIs -fuzztime 20s
func FuzzCellIs(f *testing.F) {
	for _, raw := range cellIsCases {
		f.Add(raw, 64, raw)
	}
	f.Fuzz(func(t *testing.T, raw string, w int, s string) {
		if w < 1 || w > 200 || len(raw) > 500 {
			return
		}
		if strings.HasPrefix(raw, `"`) && (len(raw) < 2 || !strings.HasSuffix(raw, `"`)) {
			return // a JSON string value always ends in a quote
		}
		want := cell(raw, w)
		for _, x := range []string{want, s} {
			if got := cellIs([]byte(raw), w, x); got != (want == x) {
				t.Fatalf("cellIs(%q, %d, %q) = %v, cell is %q", raw, w, x, got, want)
			}
		}
	})
}
