package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestNumberProfileExactOrAbout: a field's min and max are values of the
// output, written as jq prints them (final second read F6: "min
// 0.00405622" for 0.004056220604842231); its sum is exact when it is
// an integer or has few digits (eighths: "sum 2212.5"), else says
// "about" (a sum of long fractions carries each addition's rounding).
func TestNumberProfileExactOrAbout(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 600; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		long := 0.004056220604842231 + float64(i)*1.6180339887498949
		fmt.Fprintf(&b, `{"id":"r%03d","short":%g,"long":%v,"count":%d}`, i, float64(i%40)*0.125+1.25, long, i*3)
	}
	b.WriteString("]")
	v, data := viewOfData(t, []byte(b.String()))
	text := fillAt(t, v, 4000).Text
	get := func(q string) string { return fmt.Sprint(jq(t, data, q)[0]) }
	for _, want := range []string{
		"long (number): min " + get(`map(.long) | min`) + ", max " + get(`map(.long) | max`) + " (" + get(`max_by(.long) | .id`) + "), mean ",
		", sum about ",
		"short (number): min 1.25, max " + get(`map(.short) | max`) + ", mean ",
		", sum " + get(`map(.short) | add`) + ",",
		"count (number): min 0, max 1797 (" + get(`max_by(.count) | .id`) + "), mean 898.5, sum " + get(`map(.count) | add`),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "0.00405622,") {
		t.Errorf("a minimum rounded to 6 digits:\n%s", text)
	}
}
