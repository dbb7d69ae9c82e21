package view_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestShortNestedFactsComeEarly: the short scalars of an object near the
// top of a document (npm view's dist.shasum and dist.tarball, where an
// API document keeps info.title and info.version) are shown at 2,000
// tokens with the other facts; before, they waited behind every profile
// line and row and were never shown at that budget. They are stated
// once: in their object's summary line (dist: object of 3 members:
// ..., shasum=..., tarball=...), which comes first, and not again on
// lines of their own (TestFactsNotRestated).
func TestShortNestedFactsComeEarly(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/npm-view-react.json")
	f := fillAt(t, v, 2000)
	summary := regexp.MustCompile(`(?m)^  dist: object of 3 members .*$`).FindString(f.Text)
	for _, q := range []string{".dist.shasum", ".dist.tarball"} {
		name := strings.TrimPrefix(q, ".dist.")
		val := jq(t, data, q)[0].(string)
		if !strings.Contains(summary, ", "+name+"="+val) {
			t.Errorf("no %s=%s in dist's summary at 2,000 tokens:\n%s", name, val, f.Text)
		}
		if strings.Contains(f.Text, "\n  dist."+name+": ") {
			t.Errorf("dist.%s stated twice:\n%s", name, f.Text)
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
