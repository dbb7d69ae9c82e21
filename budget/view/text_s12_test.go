package view

import (
	"os"
	"strings"
	"testing"
)

// TestColumnOfMeasuresInWordsNotListed: a text column of up to 24
// values lists every value only when the values of one row are
// categories (a man page section of one page), not numbers written in a
// word. redis-benchmark (testdata/redis-benchmark-14.txt, a real run of
// 14 tests against a local redis-server 7.0.15 from Debian) has one
// progress line per test whose words fall in the latency rows' columns:
// "rps=10043.8", "12138.3)", "avg_msec=2.107". On the old code columns
// 2, 4 and 5 listed those 15 one-row values each and the head of the
// output (the first test's clients and payload) was left out at 2,000.
func TestColumnOfMeasuresInWordsNotListed(t *testing.T) {
	data, err := os.ReadFile("testdata/redis-benchmark-14.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := fillText(t, data, 2000)
	for _, want := range []string{
		`column 2: 16 distinct values; most frequent: "<=" 777; 15 other values in 15 rows`,
		`column 4: 16 distinct values; most frequent: "milliseconds" 777; 15 other values in 15 rows`,
		`column 5: 16 distinct values; most frequent: "(cumulative" 777; 15 other values in 15 rows`,
		"50 parallel clients",
		"3 bytes payload",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// TestNumberForm: the values a column lists one by one only when none
// of its one-row values is a number form.
func TestNumberForm(t *testing.T) {
	for v, want := range map[string]bool{
		"rps=10043.8": true, "12138.3)": true, "(10": true, "0.5": true,
		"(2type)": false, "(5ssl)": false, "int64": false, "spf13": false,
		"(needed": false, "avg_msec=-nan": false, "v2": false,
	} {
		if got := numberForm(v); got != want {
			t.Errorf("numberForm(%q) = %v, want %v", v, got, want)
		}
	}
}
