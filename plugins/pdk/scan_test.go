package pdk

import (
	"bytes"
	"testing"
)

// The simple byte loops the word-at-a-time helpers in scan.go must agree
// with.

func refSkipSpace(d []byte, i int) int {
	for i < len(d) && isSpace(d[i]) {
		i++
	}
	return i
}

func refSkipDigits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

func refSkipPlain(d []byte, i int) int {
	for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= 0x20 {
		i++
	}
	return i
}

func refSkipQuotePlain(d []byte, i int) int {
	for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= 0x20 && d[i] < 0x80 {
		i++
	}
	return i
}

func refIndexControl(s []byte) int {
	for i, c := range s {
		if c < 0x20 || c == 0x7f {
			return i
		}
	}
	return -1
}

// checkScan compares every helper with its byte loop at every start
// offset of d, and every mask with a per-byte test on every word.
func checkScan(t *testing.T, d []byte) {
	t.Helper()
	for i := 0; i <= len(d); i++ {
		if got, want := skipSpace(d, i), refSkipSpace(d, i); got != want {
			t.Fatalf("skipSpace(%q, %d) = %d, want %d", d, i, got, want)
		}
		if got, want := skipDigits(d, i), refSkipDigits(d, i); got != want {
			t.Fatalf("skipDigits(%q, %d) = %d, want %d", d, i, got, want)
		}
		if got, want := skipPlain(d, i), refSkipPlain(d, i); got != want {
			t.Fatalf("skipPlain(%q, %d) = %d, want %d", d, i, got, want)
		}
		if got, want := skipQuotePlain(d, i), refSkipQuotePlain(d, i); got != want {
			t.Fatalf("skipQuotePlain(%q, %d) = %d, want %d", d, i, got, want)
		}
		if got, want := IndexControl(d[i:]), refIndexControl(d[i:]); got != want {
			t.Fatalf("IndexControl(%q) = %d, want %d", d[i:], got, want)
		}
		w := wordAt(d, i)
		for k := 0; k < 8; k++ {
			c := byte(0) // past the end reads as zero
			if i+k < len(d) {
				c = d[i+k]
			}
			if got := byte(w >> (8 * k)); got != c {
				t.Fatalf("wordAt(%q, %d) byte %d = %#x, want %#x", d, i, k, got, c)
			}
			bit := func(m uint64) bool { return m>>(8*k+7)&1 == 1 }
			for name, c2 := range map[string][2]bool{
				"nonzero":    {bit(nonzeroMask(w)), c != 0},
				"below 0x20": {bit(belowMask(w, 0x20)), c < 0x20},
				"below 0x80": {bit(belowMask(w, 0x80)), c < 0x80},
				"below '0'":  {bit(belowMask(w, '0')), c < '0'},
				"stop":       {bit(stringStopMask(w)), c == '"' || c == '\\' || c < 0x20},
				"nonspace":   {bit(nonSpaceMask(w)), !isSpace(c)},
				"nondigit":   {bit(nonDigitMask(w)), c < '0' || c > '9'},
				"quote stop": {bit(quoteStopMask(w)), c == '"' || c == '\\' || c < 0x20 || c >= 0x80},
			} {
				if c2[0] != c2[1] {
					t.Fatalf("%s mask of %#x at byte %d of %q: %v, want %v", name, w, k, d[i:], c2[0], c2[1])
				}
			}
		}
	}
}

func TestScanEveryByte(t *testing.T) {
	// Every byte value at every position of a word, between neighbours
	// that provoke borrows and carries (0x00, 0x80, 0xff) or not.
	for _, fill := range []byte{'a', 0x00, 0x80, 0xff, ' ', '0', '"', 0x7f, '\\'} {
		for c := 0; c < 256; c++ {
			for pos := 0; pos < 9; pos++ {
				d := bytes.Repeat([]byte{fill}, 17)
				d[pos] = byte(c)
				checkScan(t, d)
			}
		}
	}
}

func TestScanShort(t *testing.T) {
	for _, s := range []string{"", " ", "1", "\"", "  \t\n\r x", "12345678901234567890", "abc\\", "日本語\"", "\x00\x7f\x80"} {
		checkScan(t, []byte(s))
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"", "   \n    \"key\": 1234567890123,", "plain text of a string with \\\"escapes\\\" and more\"",
		"\x00\x1f\x20\x7f\x80\xff", "0123456789", "\t\r\n ", "é中😀\"", "9999999999999999x",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		if len(d) > 256 {
			d = d[:256]
		}
		checkScan(t, d)
	})
}
