package view

import (
	"fmt"
	"strings"
	"testing"
)

// TestGoTestVerboseFailureOutput: go test -v prints a test's output
// before its --- FAIL line; the failed test's lines in the view are its
// own, never the output of the tests that ran after it (they were taken
// until the package's line: "TestB ... checking order 2, 3, 4").
func TestGoTestVerboseFailureOutput(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "=== RUN   TestCase%02d\n    m_test.go:%d: checking order %d\n", i, i+5, i)
		if i == 7 {
			fmt.Fprintf(&b, "    m_test.go:%d: order %d: total = 21, want 22\n--- FAIL: TestCase%02d (0.00s)\n", i+5, i, i)
			continue
		}
		fmt.Fprintf(&b, "--- PASS: TestCase%02d (0.00s)\n", i)
	}
	b.WriteString("FAIL\nFAIL\texample.com/m\t0.011s\nFAIL\n")
	v := buildText(t, []byte(b.String()), 2000)
	var failed string
	for _, c := range v.Candidates() {
		if strings.Contains(c.Text, "TestCase07 (at ") {
			failed = c.Text
		}
	}
	if !strings.Contains(failed, "order 7: total = 21, want 22") || !strings.Contains(failed, "checking order 7") {
		t.Fatalf("the failed test's own output is missing:\n%s", failed)
	}
	if strings.Contains(failed, "checking order 8") || strings.Contains(failed, "more output lines") {
		t.Fatalf("the failed test shows the output of tests after it:\n%s", failed)
	}
}
