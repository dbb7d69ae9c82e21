package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestNumberProfileBigIntegers: an integer past 2^53 is read as a float64
// that may not be the value written (2^53+1 reads as 2^53, 2^64-1 as
// 18446744073709552000), while jq keeps the written integer. The view
// must not print such a reading as an exact min, max or outlier value
// (a select on it finds no record); it says "about".
func TestNumberProfileBigIntegers(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		big := fmt.Sprint(9007199254740993 + 2*uint64(i))
		if i == 1700 {
			big = "18446744073709551615"
		}
		fmt.Fprintf(&b, `{"id":"r%04d","big":%s,"small":%d}`, i, big, i%7)
	}
	b.WriteString("]")
	v, _ := viewOfData(t, []byte(b.String()))
	for _, budget := range []int{2000, 8000} {
		text := fillAt(t, v, budget).Text
		for _, bad := range []string{"min 9007199254740992", "max 18446744073709552000", "max 1.8446744073709552e+19", "=18446744073709552000 "} {
			if strings.Contains(text, bad) {
				t.Errorf("at %d: the view prints the float64 reading %s of an integer past 2^53 as a value:\n%s", budget, bad, text)
			}
		}
		if !strings.Contains(text, "max about 1.844674407370955e+19") {
			t.Errorf("at %d: the view lacks the maximum stated as rounded (\"max about 1.844674407370955e+19\"):\n%s", budget, text)
		}
		// The outlier's reason states no value where its cell shows it
		// as written ("big 54.8σ"), or the rounded value.
		if !strings.Contains(text, "min about 9007199254740992,") || !strings.Contains(text, "big=about 1.844674407370955e+19 is ") && !strings.Contains(text, "\tbig 54.8σ") {
			t.Errorf("at %d: the minimum or the outlier's value is not stated as rounded:\n%s", budget, text)
		}
		if !strings.Contains(text, "\t18446744073709551615\t") {
			t.Errorf("at %d: the outlier's row does not show the integer as written:\n%s", budget, text)
		}
	}
}
