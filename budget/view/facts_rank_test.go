package view_test

import (
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
)

// TestShortNestedFactsComeEarly: the short scalars of an object near the
// top of a document (npm view's dist.shasum and dist.tarball, where an
// API document keeps info.title and info.version) are shown at 2,000
// tokens with the other facts; before, they waited behind every profile
// line and row and were never shown at that budget.
func TestShortNestedFactsComeEarly(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/npm-view-react.json")
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	f, err := v.Fill(c, 2000)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{".dist.shasum", ".dist.tarball"} {
		want := "\n  " + strings.TrimPrefix(q, ".") + ": " + jq(t, data, q)[0].(string) + "\n"
		if !strings.Contains(f.Text, want) {
			t.Errorf("no %q at 2,000 tokens:\n%s", want, f.Text)
		}
	}
}

// TestFewRecordFieldsAreNotImportant: a field that few records have is
// not among the profile lines chosen before the rows, unless it says
// something went wrong. In 9,000 log records, "error" (179 records) is
// chosen early; in go list -json std, SFiles (37 of 362 packages) is
// not: before, it came before the rows at 2,000 tokens.
func TestFewRecordFieldsAreNotImportant(t *testing.T) {
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := viewOf(t, "../../testdata/captured/app-log.jsonl")
	f, err := v.Fill(c, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Text, "\n  error (string, in 179 of 9,000 records): ") {
		t.Errorf("no profile line of error at 2,000 tokens:\n%s", f.Text)
	}
	v, _ = viewOf(t, "../../testdata/captured/go-list-std.json")
	f, err = v.Fill(c, 2000)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Index(f.Text, "\nrows (")
	if rows < 0 {
		t.Fatalf("no rows at 2,000 tokens:\n%s", f.Text)
	}
	if i := strings.Index(f.Text, "\n  SFiles (array, in 37 of 362 records)"); i >= 0 && i < rows {
		t.Errorf("a field of 37 of 362 packages before the rows:\n%s", f.Text)
	}
}

// TestFewRecordsShownWhole: in compact's own OpenAPI document (22
// collections), the six parameters of GET /v1/artifacts/{handle} are
// shown whole at 2,000 tokens, with the profiles, rather than after the
// rows of every bigger collection (before: showing 0 of 6 even at 3,000).
func TestFewRecordsShownWhole(t *testing.T) {
	v, data := viewOf(t, "../../budget/testdata/compact-openapi.json")
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	f, err := v.Fill(c, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Text, `collection .paths."/v1/artifacts/{handle}".get.parameters (array): 6 records; showing 6 of 6`) {
		t.Errorf("the 6 parameters are not all shown:\n%s", f.Text)
	}
	for _, name := range jq(t, data, `.paths."/v1/artifacts/{handle}".get.parameters[].name`) {
		if !strings.Contains(f.Text, "\t"+name.(string)+"\t") {
			t.Errorf("no row of parameter %v", name)
		}
	}
}
