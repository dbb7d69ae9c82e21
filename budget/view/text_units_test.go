package view

import (
	"strings"
	"testing"
)

// TestUnitsOnlyMeasures: "numbers followed by a word, summed per record
// by the word" sums what the numbers count ("3 files changed, 12
// insertions(+)" of git log --stat), not the next cell of a row: on
// ls -lR (the capture: `ls -lR /usr/share/perl5` of Debian 12, 1,271
// lines, made by s15-numtab) main summed the link counts as "root" (the
// owner after them) and the sizes as "nov" (the month after them). Those
// words are never written in the plural after a number; "insertions"
// and "files" are.
func TestUnitsOnlyMeasures(t *testing.T) {
	text := fillText(t, readCapture(t, "testdata/ls-lR-perl5.txt"), 8000)
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "summed per record by the word") && (strings.Contains(l, " root: ") || strings.Contains(l, " nov: ")) {
			t.Fatalf("ls -lR's owner or month summed as a unit: %s", l)
		}
	}
	text = fillText(t, readCapture(t, "git-log-stat-compact.txt"), 2000)
	if !strings.Contains(text, "summed per record by the word (\"3 files\" as file): file: ") {
		t.Fatalf("git log --stat's insertions are not summed per commit:\n%s", text)
	}
}
