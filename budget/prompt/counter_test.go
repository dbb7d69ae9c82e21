package prompt

import (
	"testing"

	"github.com/toolcompact/compact/budget"
)

// testCounter is the real o200k_base tokenizer.
func testCounter(t testing.TB) budget.Counter {
	t.Helper()
	c, err := budget.NewCounter(budget.EncodingO200k)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fuzzCompact(t testing.TB) CompactFunc { return nil }
