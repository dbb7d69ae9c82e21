package view_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestIndexThirdFieldIsAState: the index of a small collection, listed
// whole, shows a third field only when it is a state, a field of few
// values (rev17 R5). jest --json's 17 test files (testdata/jest-json-lib.json)
// were listed with name, status, endTime and startTime, an epoch in ms
// beside another, before the rows: at 2,000 tokens no row was left, not
// the failed file's row with its failure message ("router case 31:
// rounds cents") nor the 10.6σ duration's. The index now lists name,
// status and endTime, and both rows are back; `ip -details -json addr`'s
// interfaces keep their operstate (TestIndexSmallThirdField).
func TestIndexThirdFieldIsAState(t *testing.T) {
	v, data := viewOf(t, "testdata/jest-json-lib.json")
	text := fillAt(t, v, 2000).Text
	head := indexHead(t, text, ".testResults")
	if slices.Contains(head, "startTime") || len(head) != 3 || head[1] != "status" {
		t.Errorf("index fields %q, want name, status and one more (no startTime: a time beside endTime)", head)
	}
	if !strings.Contains(text, "router case 31: rounds cents") {
		t.Errorf("at 2,000 tokens no row of the failed test file (router case 31):\n%s", text)
	}
	// The slowest test's file: its row, or the profile line naming the
	// record of the largest duration (groupmax.go's holder).
	if !regexp.MustCompile(`duration=518 is 10\.6σ|\t518\t.*duration 10\.6σ`).MatchString(text) && !strings.Contains(text, "max 518 (first in /tmp/jestlib/mtest/queue.spec.js)") {
		t.Errorf("at 2,000 tokens neither the row nor the file of the slowest test (duration 518):\n%s", text)
	}
	// Each line is the record's own name, status and endTime (jq's).
	want := jq(t, data, `[.testResults[] | "\(.name)\t\(.status)\t\(.endTime)"]`)[0].([]any)
	lines, rest, _, _ := indexLines(t, text)
	if rest != 0 || len(lines) != len(want) {
		t.Fatalf("%d index lines, %d not listed; want every one of %d", len(lines), rest, len(want))
	}
	for i, l := range lines {
		if l != want[i] {
			t.Errorf("index line %d %q, want %q", i, l, want[i])
		}
	}
}
