package view_test

import (
	"strings"
	"testing"
)

// TestOneRecordHoldingTheList: npm pack --json prints one record around
// the real list (its files). The record is stated by its members
// (name=lodash, the file count), not as a profile of one record and a
// row; the files are a collection of their own whose profile is chosen
// before the one record's members (the heavier collection first), with
// an index of paths and sizes.
func TestOneRecordHoldingTheList(t *testing.T) {
	v, _ := viewOf(t, "../../budget/testdata/npm-pack-lodash.json")
	firstFiles, firstRoot := -1, -1
	for i, cand := range v.Candidates() {
		if firstFiles < 0 && strings.HasPrefix(cand.Text, "  path (string): identity, 1,054 distinct") {
			firstFiles = i
		}
		if firstRoot < 0 && strings.Contains(cand.Text, "name=lodash") {
			firstRoot = i
		}
	}
	if firstFiles < 0 || firstRoot < 0 || firstFiles > firstRoot {
		t.Fatalf("the files' profile is candidate %d, the record's members %d", firstFiles, firstRoot)
	}
	f := fillAt(t, v, 2000)
	for _, want := range []string{
		"collection . (array): 1 record; its members:\n",
		"id=lodash@4.17.21, name=lodash, version=4.17.21, size=318961, unpackedSize=1412415",
		"files: array of 1,054 items (",
		"(the collection .[].files)",
		"collection .[].files (array): 1,054 files; showing ",
		"\nindex of .[].files, the first ",
		"(tab-separated: path, size):\n",
	} {
		if !strings.Contains(f.Text, want) {
			t.Errorf("no %q in\n%s", want, f.Text)
		}
	}
	if strings.Contains(f.Text, "unpackedSize (number)") {
		t.Errorf("the one record is profiled:\n%s", f.Text)
	}
}
