package view

import (
	"strings"
	"testing"
)

// TestSectionTitleNoWarning: the title of a table's section names what
// its rows are ("The following options control compiler warning
// messages:" above gcc -Q --help=warnings' rows); it is no warning line.
// On a captured gcc -Q -O2 -Wall --help=optimizers --help=warnings
// (gcc 12.2): no warning and no error lines, and the view's severity
// queries find exactly none. A title whose severity word marks it
// ("Compiler warnings:", "warning: ...:") stays a finding. Fails on 2a389e3 (warning lines: 1, the
// title).
func TestSectionTitleNoWarning(t *testing.T) {
	data := readCapture(t, "testdata/gcc-q-O2-Wall-optimizers-warnings.txt")
	p := analyzeText(data, nil)
	if p.cols == nil || p.warns != 0 || p.errors != 0 {
		t.Fatalf("warning lines %d, error lines %d (want 0, 0)", p.warns, p.errors)
	}
	for _, sev := range []int{sevError, sevWarn} {
		if n := len(jqLines(t, data, p.severityQuery(sev))); n != 0 {
			t.Errorf("the severity query %d finds %d lines", sev, n)
		}
	}
	if text := fillText(t, data, 2000); !strings.Contains(text, "warning lines: 0 (0 distinct)") {
		t.Errorf("the view counts a warning line:\n%s", text[:min(len(text), 600)])
	}
	// Titles that are findings, and a sentence no row follows.
	var b strings.Builder
	b.WriteString("Compiler warnings:\n")
	for i := 0; i < 30; i++ {
		b.WriteString("  -Wopt" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + "\t\t[enabled]\n")
	}
	b.WriteString("\nwarning: the next rows are deprecated:\n")
	for i := 0; i < 30; i++ {
		b.WriteString("  -fopt" + strings.Repeat("y", i%5) + string(rune('a'+i%26)) + "\t\t[disabled]\n")
	}
	data = []byte(b.String())
	p = analyzeText(data, nil)
	if p.cols == nil || p.warns != 2 {
		t.Errorf("warning lines %d (want 2: the two marked titles)", p.warns)
	}
	if n := len(jqLines(t, data, p.severityQuery(sevWarn))); n != p.warns {
		t.Errorf("the warning query finds %d lines, the profile %d", n, p.warns)
	}
}
