package budget

import "testing"

// counter returns the pipeline's default counter (o200k_base); an error
// fails the test. (helpers_test.go has the external tests' helpers.)
func counter(t testing.TB) Counter {
	t.Helper()
	c, err := NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	return c
}
