package budget

import (
	"fmt"
	"strings"
	"testing"
)

func TestNewCounter(t *testing.T) {
	for _, enc := range []string{"", EncodingO200k, EncodingCL100k} {
		c, err := NewCounter(enc)
		if err != nil {
			t.Fatal(err)
		}
		want := enc
		if want == "" {
			want = EncodingO200k
		}
		if c.Encoding() != want {
			t.Errorf("Encoding() = %s, want %s", c.Encoding(), want)
		}
		if n := c.Count("hello world"); n != 2 {
			t.Errorf("%s: Count(hello world) = %d, want 2", want, n)
		}
		// Special-token text is ordinary text: no panic, several tokens.
		if n := c.Count("a <|endoftext|> b"); n < 5 {
			t.Errorf("%s: Count with <|endoftext|> = %d, want it counted as ordinary text", want, n)
		}
	}
	if _, err := NewCounter("p50k_base"); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("NewCounter(p50k_base) = %v, want an unknown-encoding error", err)
	}
}

// TestCountChunked checks that counting a long text in pieces gives the
// same count as the tokenizer on the whole text.
func TestCountChunked(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*countChunk; i++ {
		fmt.Fprintf(&b, "line %d: {\"path\": \"/usr/lib/x\", \"v\": %d}\n/leading slash\n  indented\n\n", i, i*7)
	}
	text := b.String()
	for _, enc := range []string{EncodingO200k, EncodingCL100k} {
		c, _ := NewCounter(enc)
		whole := len(c.(*tikCounter).enc.EncodeOrdinary(text))
		if got := c.Count(text); got != whole {
			t.Errorf("%s: chunked count %d, whole %d", enc, got, whole)
		}
	}
}

// TestCountLongRun checks that a long run of one character class is
// counted quickly (it used to take 84 s for 100,000 "[").
func TestCountLongRun(t *testing.T) {
	c, _ := NewCounter("")
	n := c.Count(strings.Repeat("[", 100000) + strings.Repeat(" ", 100000) + strings.Repeat("a", 100000))
	if n < 100 || n > 100000 {
		t.Errorf("count %d out of range", n)
	}
}
