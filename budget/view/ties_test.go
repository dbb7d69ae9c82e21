package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestMostItemsSaysItsTie: "most in X (N)" of an array's items names one
// record; when others hold as many, the line says how many ("most in
// ... and 59 more (1)": 60 issues have one assignee, the most any has).
// On the code before, it named the first as if it alone had the most.
func TestMostItemsSaysItsTie(t *testing.T) {
	const name = "../../testdata/captured/github-issues.json"
	data := readFile(t, name)
	v, _ := viewOf(t, name)
	text := fillAt(t, v, 8000).Text
	for _, f := range []string{"assignees", "labels"} {
		most := jqAll(t, data, `[.[] | .`+f+` | length] | max`)[0].(int)
		n := jqAll(t, data, `[.[] | select((.`+f+` | length) == `+fmt.Sprint(most)+`)] | length`)[0].(int)
		if n < 2 {
			t.Fatalf("%s: %d records hold the most items: no tie to test", f, n)
		}
		want := fmt.Sprintf(" and %d more (%d)", n-1, most)
		line := ""
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "  "+f+" (array)") {
				line = l
			}
		}
		if !strings.Contains(line, want) {
			t.Errorf("the profile line of %s does not say %q: %q", f, want, line)
		}
	}
}
