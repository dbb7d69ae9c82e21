package view_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestProfileOnceValues: a number field whose values are mostly each
// held by one record (coverage.py's missing lines per file: 14 values,
// 13 of them in one file each) is stated by the values several records
// hold, with their counts, and the others by their number and range
// ("0 2, 13 more values, each in one record (min 1, max 145)": the
// smallest and largest of those 13), all as jq
// counts them, not as 13 values each followed by "1". On the old code the
// line listed every value.
func TestProfileOnceValues(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/coverage-json-stdlib.json")
	f := fillAt(t, v, 4000)
	line := regexp.MustCompile(`\n  summary\.missing_lines \(number, (\d+) distinct\): ([^\n]*)`).FindStringSubmatch(f.Text)
	if line == nil {
		t.Fatalf("no profile line of summary.missing_lines:\n%s", f.Text)
	}
	vals := `[.files[] | .summary.missing_lines]`
	once := jq(t, data, vals+` | group_by(.) | map(select(length == 1)) | length`)[0]
	several := jq(t, data, vals+` | group_by(.) | map(select(length > 1)) | map("\(.[0]) \(length)") | join(", ")`)[0]
	onceVals := vals + ` | group_by(.) | map(select(length == 1) | .[0])`
	lo, hi := jq(t, data, onceVals+` | min`)[0], jq(t, data, onceVals+` | max`)[0]
	want := fmt.Sprintf("%s, %v more values, each in one record (min %v, max %v)", several, once, lo, hi)
	if !strings.HasPrefix(line[2], want) {
		t.Errorf("summary.missing_lines: %q, want it to start with %q", line[2], want)
	}
}
