package view

import (
	"fmt"
	"strings"
	"testing"
)

// biomeText is a linter's report shaped as biome prints it: each
// diagnostic a record whose first line is "file:line:col group/rule",
// then its message, an excerpt of the source and hints (18 non-blank
// lines), so that under a tenth of the lines have a source location.
func biomeText() []byte {
	var b strings.Builder
	rules := []string{"lint/suspicious/noExplicitAny", "lint/style/useImportType", "lint/style/useImportType", "lint/suspicious/noExplicitAny", "lint/complexity/noUselessConstructor"}
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "src/internal/mod%02d.ts:%d:%d %s  FIXABLE  ━━━━━━━━━━━━━━━━━━━━\n\n", i%13, 10+i, 3+i%5, rules[i%5])
		b.WriteString("  ! Unexpected any. Specify a different type.\n  \n")
		for k := 0; k < 14; k++ {
			fmt.Fprintf(&b, "    %d │   const value%d: any = compute(%d);\n", 8+k, k, k)
		}
		b.WriteString("  \n  i any disables many type checking rules. Its use should be avoided.\n  \n\n")
	}
	b.WriteString("Checked 13 files in 18ms. No fixes applied.\nFound 40 warnings.\n")
	return []byte(b.String())
}

// TestLocatedRecordHeaders: diagnostics that each start a record above
// their source excerpt (biome: under a tenth of the non-blank lines have
// a location) are counted by file and by rule, and the census is shown
// at a small budget, before the records; rustc's and clippy's "-->"
// lines are locations. On the old code the located lines were counted
// only when a tenth of the lines had one, with the templates (after the
// records), and "-->" lines and biome's rules were not read.
func TestLocatedRecordHeaders(t *testing.T) {
	data := biomeText()
	p := analyzeText(data, nil)
	if p.locs.lines != 40 {
		t.Fatalf("%d located lines, want 40", p.locs.lines)
	}
	if n := p.locs.codes["lint/style/useImportType"]; n != 16 {
		t.Errorf("lint/style/useImportType counted %d times, want 16 (codes %v)", n, p.locs.codes)
	}
	got := fillText(t, data, 1500)
	for _, want := range []string{
		"lines with a source location (file:line[:col] or file(line,col)): 40, in 13 files",
		"src/internal/mod00.ts 4 (highest line 49)",
		"lines by code (exact): lint/style/useImportType 16, lint/suspicious/noExplicitAny 16, lint/complexity/noUselessConstructor 8",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view at 1,500 lacks %q:\n%s", want, got)
		}
	}
	for line, want := range map[string][3]string{
		" --> src/unicode_tables/age.rs:9:21":   {"src/unicode_tables/age.rs", "9", ""},
		"   --> src/hir/mod.rs:120:5":           {"src/hir/mod.rs", "120", ""},
		"  --> src/main.rs:3: unused":           {"src/main.rs", "3", "unused"},
		"--> not a location":                    {},
		" --> 12:30 later":                      {},
		"src/a.ts:4:2 lint/style/useImportType": {"src/a.ts", "4", "lint/style/useImportType"},
	} {
		f, n, m, ok := location(line)
		if got := [3]string{f, fmt.Sprint(n), m}; ok != (want[0] != "") || ok && got != want {
			t.Errorf("location(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
	for msg, want := range map[string]string{
		"lint/suspicious/noExplicitAny  FIXABLE  ━━━━": "lint/suspicious/noExplicitAny",
		"lint/style/useImportType ━━━━":                "lint/style/useImportType",
		"src/pkg/util is imported twice":               "",
		"see docs/guide/setup for more":                "",
	} {
		if got := diagCode(msg); got != want {
			t.Errorf("diagCode(%q) = %q, want %q", msg, got, want)
		}
	}
}
