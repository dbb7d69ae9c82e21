package view

import (
	"fmt"
	"os"
	"strconv"
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

// TestLabelPrefixShowsColumns: a constant prefix of words and a colon
// (python -X importtime writes "import time: " before every line) is a
// line prefix like valgrind's "==11139== ": the text is read without it,
// so the first column is the numbers it holds and the first line the
// header. On the old code column 1 was "import time:        53", 179
// distinct strings with no sum, and the header a row.
func TestLabelPrefixShowsColumns(t *testing.T) {
	data, err := os.ReadFile("testdata/python-importtime.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := linePrefix(data); got != "import time: " {
		t.Fatalf("prefix %q", got)
	}
	// The sums and extremes, read here from the lines.
	self, cum, maxSelf, maxCum := 0, 0, 0, 0
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(strings.TrimPrefix(l, "import time:"), "|")
		a, _ := strconv.Atoi(strings.TrimSpace(f[0]))
		b, _ := strconv.Atoi(strings.TrimSpace(f[1]))
		self, cum, maxSelf, maxCum = self+a, cum+b, max(maxSelf, a), max(maxCum, b)
	}
	got := fillText(t, data, 2000)
	for _, want := range []string{
		`every line starts with "import time: "`,
		"a table of 190 rows, 3 columns",
		fmt.Sprintf("self [us]: numbers, sum %d, min 49, max %d,", self, maxSelf),
		fmt.Sprintf("cumulative: numbers, sum %d, min 49, max %d,", cum, maxCum),
		"40147 | 46833 | socket\t[largest self [us] (40147)]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
	for _, s := range []string{"error: x\n", "note: y\n", "warning: z\n", "src/a.go: x\n"} {
		if got := linePrefix([]byte(strings.Repeat(s, 25))); got != "" {
			t.Errorf("prefix %q of %q: want none (a level, a path)", got, s)
		}
	}
}
