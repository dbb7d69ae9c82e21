package view_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/view"
)

// TestShortNestedFactsComeEarly: the short scalars of an object near the
// top of a document (npm view's dist.shasum and dist.tarball, where an
// API document keeps info.title and info.version) are shown at 2,000
// tokens with the other facts; before, they waited behind every profile
// line and row and were never shown at that budget.
func TestShortNestedFactsComeEarly(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/npm-view-react.json")
	f := fillAt(t, v, 2000)
	for _, q := range []string{".dist.shasum", ".dist.tarball"} {
		want := "\n  " + strings.TrimPrefix(q, ".") + ": " + jq(t, data, q)[0].(string) + "\n"
		if !strings.Contains(f.Text, want) {
			t.Errorf("no %q at 2,000 tokens:\n%s", want, f.Text)
		}
	}
}

// TestFewRecordsShownWhole: in compact's own OpenAPI document (22
// collections), the six parameters of GET /v1/artifacts/{handle} are
// shown whole at 3,000 tokens, with the profiles, rather than after the
// rows of every bigger collection (before: showing 0 of 6 at 3,000).
func TestFewRecordsShownWhole(t *testing.T) {
	v, data := viewOf(t, "../../budget/testdata/compact-openapi.json")
	f := fillAt(t, v, 3000)
	if !strings.Contains(f.Text, `collection .paths."/v1/artifacts/{handle}".get.parameters (array): 6 records; showing 6 of 6`) {
		t.Errorf("the 6 parameters are not all shown:\n%s", f.Text)
	}
	for _, name := range jq(t, data, `.paths."/v1/artifacts/{handle}".get.parameters[].name`) {
		if !strings.Contains(f.Text, "\t"+name.(string)+"\t") {
			t.Errorf("no row of parameter %v", name)
		}
	}
}

// TestFewRecordsLongRowsWait: only the short rows (up to 320
// characters) of a few-record collection come with the profiles. A row's
// text is made when the fill reaches it, so the length was read from
// the empty text of a row not made yet, and every row of such a
// collection came with the profiles, 533 characters or more.
func TestFewRecordsLongRowsWait(t *testing.T) {
	var recs []string
	for i := 0; i < 5; i++ {
		fs := []string{fmt.Sprintf(`"id": %d, "name": "item %d"`, i, i)}
		n := 8
		if i == 3 {
			n = 1 // a short row among long ones
		}
		for j := 0; j < n; j++ {
			fs = append(fs, fmt.Sprintf(`"text%d": "word %d of a long and plain sentence that goes on for a while here"`, j, i*10+j))
		}
		recs = append(recs, "{"+strings.Join(fs, ", ")+"}")
	}
	v, _ := viewOfData(t, []byte(`{"items": [`+strings.Join(recs, ",\n")+`], "total": 5}`))
	rows := 0
	for _, c := range v.Candidates() {
		if c.Record < 0 {
			continue
		}
		rows++
		if long := len(c.Text) > 320; long == (c.Prio == view.PrioProfile) {
			t.Errorf("row %d of %d characters has priority %d: %.80q", c.Record, len(c.Text), c.Prio, c.Text)
		}
	}
	if rows != 5 {
		t.Errorf("%d rows, want 5", rows)
	}
}
