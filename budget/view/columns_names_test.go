package view_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// typedocCommander is `typedoc --json` over commander's typings: records
// nested through children[], with numeric ids and targets, source lines
// and characters beside the reflections' names.
const typedocCommander = "testdata/typedoc-json-commander.json"

// placeNames are leaf names of numbers that are places or references.
var placeNames = regexp.MustCompile(`(^|[.\]])(id|target|line|character|column|position|offset|start|end)$`)

// TestColumnsNameBeforePlaces: a row shows the names of a record and of
// its nested records (type.name, signatures[].name) before numbers that
// are places or references (sources[].line, sources[].character), and no
// line states the sum of ids: their sums and means say nothing. On the
// old code the rows of typedoc's reflections showed sources[].character
// third and its profile "every depth: id ...: min 1, max 545, sum 4771"
// (heldout13w's typedoc and jscpd: positions as measures, names left out).
func TestColumnsNameBeforePlaces(t *testing.T) {
	v, _ := viewOf(t, typedocCommander)
	fl := fillAt(t, v, 4000)
	header := ""
	for _, l := range strings.Split(fl.Text, "\n") {
		if strings.HasPrefix(l, "#\tname\t") {
			header = l
			break
		}
	}
	if header == "" {
		t.Fatalf("no rows of .children:\n%s", fl.Text)
	}
	cols := strings.Split(header, "\t")[2:]
	firstName, firstPlace := -1, -1
	for i, col := range cols {
		if strings.HasSuffix(col, ".name") && firstName < 0 {
			firstName = i
		}
		if placeNames.MatchString(col) && firstPlace < 0 {
			firstPlace = i
		}
	}
	if firstName < 0 || firstPlace >= 0 && firstPlace < firstName {
		t.Errorf("a place or reference comes before the first name column: %q", header)
	}
	if m := regexp.MustCompile(`(?m)^  (every depth: )?(\S+\.)?id \([^)]*\): min [^\n]*sum`).FindString(fl.Text); m != "" {
		t.Errorf("the sum of ids is stated: %q", m)
	}
}

// TestExtremeNamedByName: when a collection's identity is a number (an
// issue's number), the record holding an extreme is named by its name
// field too ("most in Support for TLS reload... [number 4208]"), computed
// again with jq. On the old code it was "most in 4208".
func TestExtremeNamedByName(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/github-issues.json")
	fl := fillAt(t, v, 4000)
	// (the first record holding the most)
	// (and how many more hold as many: TestMostItemsSaysItsTie)
	rec := jq(t, data, `([.[].assignees | length] | max) as $m | [.[] | select((.assignees | length) == $m)] | [first.title, first.number, $m, length - 1]`)[0].([]any)
	want := fmt.Sprintf("most in %s [number %d] and %d more (%d)", rec[0], toInt(rec[1]), toInt(rec[3]), toInt(rec[2]))
	if !strings.Contains(fl.Text, want) {
		t.Errorf("view lacks %q:\n%s", want, fl.Text)
	}
}
