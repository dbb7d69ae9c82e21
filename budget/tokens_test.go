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

// TestCountLongRun checks that long runs of one character class are
// counted exactly and quickly (tiktoken's merge is quadratic in the
// length of a pre-token: 100,000 "[" took 84 s to count): a run is one
// pre-token, so its count is that of the same run counted in a text of
// its own, and a run of n "a" merges like the reference's on shorter runs.
func TestCountLongRun(t *testing.T) {
	for _, enc := range []string{EncodingO200k, EncodingCL100k} {
		c, _ := NewCounter(enc)
		parts := []string{strings.Repeat("[", 100000), strings.Repeat(" ", 100000), strings.Repeat("a", 100000)}
		sum := 0
		for _, p := range parts {
			n := c.Count(p)
			if n < 100 || n > 100000 {
				t.Errorf("%s: count of %d %q: %d, out of range", enc, len(p), p[:1], n)
			}
			sum += n
		}
		// "[" then " " then "a": the spaces' last one goes with the
		// letters, so the total differs from the sum by at most 2.
		if n := c.Count(strings.Join(parts, "")); n < sum-2 || n > sum+2 {
			t.Errorf("%s: whole %d, parts %d", enc, n, sum)
		}
		for _, k := range []int{100, 1000, 4000} {
			s := strings.Repeat("[", k) + strings.Repeat("a", k)
			if got, want := c.Count(s), refCount(t, enc, s); got != want {
				t.Errorf("%s: %d runs of %d: %d tokens, the reference counts %d", enc, 2, k, got, want)
			}
		}
	}
}
