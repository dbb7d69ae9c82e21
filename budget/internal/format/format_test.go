package format

import "testing"

func TestCommas(t *testing.T) {
	for n, want := range map[int]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 12345: "12,345", 123456: "123,456",
		1234567: "1,234,567", -1: "-1", -999: "-999", -1000: "-1,000", -1234567: "-1,234,567",
	} {
		if got := Commas(n); got != want {
			t.Errorf("Commas(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 fields"}, {1, "1 field"}, {2, "2 fields"}, {2500, "2,500 fields"}} {
		if got := Plural(tc.n, "field"); got != tc.want {
			t.Errorf("Plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestCountLines(t *testing.T) {
	for in, want := range map[string]int{
		"": 0, "\n": 1, "a": 1, "a\n": 1, "a\nb": 2, "a\nb\n": 2, "\n\n": 2, "a\r\nb\r\n": 2,
	} {
		if got := CountLines([]byte(in)); got != want {
			t.Errorf("CountLines(%q) = %d, want %d", in, got, want)
		}
	}
}
