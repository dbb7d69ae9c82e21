package view

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readTestdata reads a capture kept beside the view's tests.
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBuildLogIsNoList: a failing tsc build (npm run build, tsc
// --listFiles --extendedDiagnostics) is 4 errors, the 163 files tsc read
// one a line, then its statistics. 83% of its lines are one word, but it
// is a log that holds a list, not a list (on the old code: "a list of 199
// values"). TestBuildLogEndInView checks its view.
func TestBuildLogIsNoList(t *testing.T) {
	data := readTestdata(t, "tsc-build-list.txt") // testdata/gen/capture.sh tsc-build-list
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	path := regexp.MustCompile(`^/\S+$`)
	last := -1
	for i, l := range lines {
		if path.MatchString(l) {
			last = i
		}
	}
	stats := lines[last+1:]
	if last < 100 || len(stats) < 10 || !strings.HasPrefix(stats[0], "Files:") {
		t.Fatalf("the capture's last path line is %d, then %d lines: not the one this test was written for", last, len(stats))
	}
	p := analyzeText(data, nil)
	if p.cols != nil && p.cols.split.mode == byLine {
		t.Errorf("read as a list of %d values", p.cols.rows)
	}
}
