package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestChangePoints: in ordered records a state that changes regime (a run
// of "degraded" in a series of "ok") is a row with its reason; a rare
// value scattered over records in no order is no change point.
func TestChangePoints(t *testing.T) {
	build := func(status func(i int) string) string {
		var b strings.Builder
		b.WriteString("[")
		for i := range 200 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"seq": %d, "status": %q, "latency_ms": %d}`, i, status(i), 10+i%7)
		}
		b.WriteString("]")
		return b.String()
	}
	view1 := func(data string) string {
		v := buildView(t, inputOf(t, []byte(data), 4000))
		fl := fillAt(t, v, 4000)
		return fl.Text
	}
	ordered := view1(build(func(i int) string {
		if i >= 120 && i < 140 {
			return "degraded"
		}
		return "ok"
	}))
	if !strings.Contains(ordered, "\n120\t") || !strings.Contains(ordered, "status from here: a run of 20, records 120-139") {
		t.Errorf("ordered: no change point at 120:\n%s", ordered)
	}
	scattered := view1(build(func(i int) string {
		if i%10 == 3 {
			return "degraded"
		}
		return "ok"
	}))
	if strings.Contains(scattered, "from here") {
		t.Errorf("scattered: a change point:\n%s", scattered)
	}
}
