package view

import (
	"fmt"
	"strings"
	"testing"
)

// TestValueIndexCutsLongNames: the names of a group line of the index
// by value are cut as a single row's name is (rev14 R1): one name of
// 20,000 characters made its group line longer than any budget, the
// fill stopped there, and a 2,000-token view used 781 tokens with a
// 12-name index.
func TestValueIndexCutsLongNames(t *testing.T) {
	var b strings.Builder
	states := []string{"ok", "stale", "gone"}
	for i := 0; i < 400; i++ {
		name := fmt.Sprintf("n%d", i)
		if i == 5 {
			name = strings.Repeat("x", 20000)
		}
		fmt.Fprintf(&b, "%s %s\n", name, states[(i*7+i/3)%3])
	}
	text := fillText(t, []byte(b.String()), 2000)
	if !strings.Contains(text, "x…[+19900 chars]") {
		t.Errorf("the long name is not cut with its length stated:\n%s", text)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "(names ") && strings.Contains(l, strings.Repeat("x", 101)) {
			t.Errorf("a group line of the index writes a name of more than 100 characters whole: %.300s", l)
		}
	}
	listed := 0
	for i := 0; i < 400; i++ {
		if strings.Contains(text, fmt.Sprintf(" n%d ", i)) || strings.Contains(text, fmt.Sprintf(" n%d\n", i)) {
			listed++
		}
	}
	if listed < 100 {
		t.Errorf("the view names %d of the 400 rows at 2,000 tokens (the fill stopped at a long line?):\n%s", listed, text)
	}
}
