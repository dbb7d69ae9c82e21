package view

import (
	"fmt"
	"strings"
	"testing"
)

// TestTableRunsPerSection: go test -bench over six packages prints one
// table of benchmark rows per package, each under its "pkg: …" line and
// above its "PASS". The rows of each run are counted in a line of their
// own that names the package (the view on main counted the 429 rows
// only all together: "how many benchmarks does package strconv have?"
// was not in it). The counts are checked against the capture, read
// here line by line.
func TestTableRunsPerSection(t *testing.T) {
	data := readCapture(t, "go-test-bench-count3.txt")
	var want []string
	pkg, first, rows := "", -1, 0
	for i, l := range rawLines(data) {
		switch {
		case strings.HasPrefix(l, "pkg: "):
			pkg = l
		case strings.HasPrefix(l, "Benchmark"):
			if rows == 0 {
				first = i
			}
			rows++
		case rows > 0:
			want = append(want, fmt.Sprintf("  %d-%d\t%d rows under %q", first, i-1, rows, pkg))
			rows = 0
		}
	}
	if len(want) != 6 {
		t.Fatalf("the capture has %d runs of benchmark rows, want 6", len(want))
	}
	text := fillText(t, data, 4000)
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("no line %q in the view:\n%s", w, text)
		}
	}
}
