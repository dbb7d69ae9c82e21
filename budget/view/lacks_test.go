package view_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
)

// TestRowLacksFieldNearlyAllHave: a record without a field nearly every
// record has (the one package of 235 with no repository, the components
// of 800 with no license) is a row, its reason naming the field: the
// profile's "missing in 1" does not say which record (F15 of held12).
// Records lacking the field in the middle, first and last are each
// named; a field of a few records (homepage) names none.
func TestRowLacksFieldNearlyAllHave(t *testing.T) {
	var recs []map[string]any
	for i := range 120 {
		r := map[string]any{
			"name": fmt.Sprintf("pkg-%03d", i), "version": fmt.Sprintf("1.%d.0", i),
			"license": []string{"MIT", "ISC", "Apache-2.0"}[i%3], "repository": fmt.Sprintf("https://git.example/%d", i),
		}
		if i == 57 || i == 0 || i == 119 {
			delete(r, "repository")
		}
		if i == 80 {
			delete(r, "license")
		}
		if i%10 == 3 {
			r["homepage"] = "https://example.org"
		}
		recs = append(recs, r)
	}
	data, _ := json.Marshal(recs)
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 4000).Text
	for _, want := range []string{
		`(?m)^57\tpkg-057\t[^\n]*no repository \(117 of 120 have it\)`,
		`(?m)^0\tpkg-000\t[^\n]*no repository \(117 of 120 have it\)`,
		`(?m)^119\tpkg-119\t[^\n]*no repository \(117 of 120 have it\)`,
		`(?m)^80\tpkg-080\t[^\n]*no license \(119 of 120 have it\)`,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("no row matching %s:\n%s", want, text)
		}
	}
	if regexp.MustCompile(`no homepage`).MatchString(text) {
		t.Errorf("a field of a few records named as lacking:\n%s", text)
	}
}
