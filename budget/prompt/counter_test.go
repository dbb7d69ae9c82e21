package prompt

import (
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
)

// wordCounter is a stand-in until the tiktoken counter lands.
type wordCounter struct{}

func (wordCounter) Count(s string) int { return len(strings.Fields(s)) + strings.Count(s, "\n") }
func (wordCounter) Encoding() string   { return "words" }

func testCounter(t testing.TB) budget.Counter { return wordCounter{} }

func fuzzCompact(t testing.TB) CompactFunc { return nil }
