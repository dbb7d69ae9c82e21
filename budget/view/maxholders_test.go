package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestMaxNamesEveryHolder: a number's largest value held by two or three
// records names every one of them, in record order, as jq's select of
// the max lists them ("max 900 (2 records: t017, t031)"); held by four,
// more than the profile names (holderMost), no record is named (its
// line counts the value instead: "900 4").
func TestMaxNamesEveryHolder(t *testing.T) {
	for _, holders := range [][]int{{17, 31}, {5, 17, 31}, {5, 17, 31, 44}} {
		var parts []string
		for i := 0; i < 60; i++ {
			timeout := 30 + 30*(i%7)
			for _, h := range holders {
				if i == h {
					timeout = 900
				}
			}
			parts = append(parts, fmt.Sprintf(`{"name":"t%03d","suite":"s%d","timeout":%d,"desc":"a test of the %d-th case, run with the default settings"}`, i, i%3, timeout, i))
		}
		data := []byte("[" + strings.Join(parts, ",\n") + "]")
		v := buildView(t, inputOf(t, data, 2000))
		fl := fillAt(t, v, 2000)
		var names []string
		for _, n := range jq(t, data, `(map(.timeout) | max) as $m | [.[] | select(.timeout == $m) | .name]`)[0].([]any) {
			names = append(names, n.(string))
		}
		if len(names) != len(holders) {
			t.Fatalf("jq finds %v", names)
		}
		named := fmt.Sprintf("max 900 (%d records: %s)", len(names), strings.Join(names, ", "))
		switch {
		case len(holders) <= 3 && !strings.Contains(fl.Text, named):
			t.Errorf("%d holders: no %q:\n%s", len(holders), named, fl.Text)
		case len(holders) > 3 && (strings.Contains(fl.Text, "4 records:") || strings.Contains(fl.Text, "the first of 4") || !strings.Contains(fl.Text, ", 900 4;")):
			t.Errorf("%d holders: the max names some of them:\n%s", len(holders), fl.Text)
		}
	}
}
