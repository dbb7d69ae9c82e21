package budget

import (
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
