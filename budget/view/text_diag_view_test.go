package view_test

import (
	"regexp"
	"strings"
	"testing"
)

// textViewAt renders the view of a capture kept beside the view's tests
// at budget b, counted exactly; it fails when the view is over b.
func textViewAt(t *testing.T, name string, b int) (text string, data []byte) {
	t.Helper()
	v, data := viewOf(t, "testdata/"+name)
	f := fillAt(t, v, b)
	if f.Tokens > b {
		t.Fatalf("%s: %d tokens over the budget of %d", name, f.Tokens, b)
	}
	return f.Text, data
}

// TestBuildLogEndInView: a failing tsc build (npm run build, tsc
// --listFiles --extendedDiagnostics: 4 errors, the 163 files tsc read
// one a line, then its statistics) shows every error line and the end:
// at 2,000 tokens the last 10 lines, at 4,000 every line after the last
// file (the statistics: "Files: 163", "Lines of TypeScript: 21", ...).
// On the old code it was "a list of 199 values" whose values in line
// order took the budget, and none of the statistics was shown. (The
// first and last lines are the view's ends stream, a quarter of it:
// text_ends.go.)
func TestBuildLogEndInView(t *testing.T) {
	text, data := textViewAt(t, "tsc-build-list.txt", 4000)
	small, _ := textViewAt(t, "tsc-build-list.txt", 2000)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	path := regexp.MustCompile(`^/\S+$`)
	last := -1
	for i, l := range lines {
		if path.MatchString(l) {
			last = i
		}
	}
	if last < 100 || len(lines)-last < 10 {
		t.Fatalf("the capture's last path line is %d of %d: not the one this test was written for", last, len(lines))
	}
	for _, l := range lines[last+1:] {
		if !strings.Contains(text, l) {
			t.Errorf("at 4,000 tokens the view lacks the statistics line %q", l)
		}
	}
	for _, l := range lines[len(lines)-10:] {
		if !strings.Contains(small, l) {
			t.Errorf("at 2,000 tokens the view lacks the statistics line %q", l)
		}
	}
	for _, l := range lines {
		if strings.Contains(l, ": error TS") && !strings.Contains(small, l) {
			t.Errorf("at 2,000 tokens the view lacks the error line %q", l)
		}
	}
}
