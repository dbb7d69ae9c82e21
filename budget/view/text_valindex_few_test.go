package view

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestValueNumbersFewDistinct: when a name/value table's value column
// holds only a few distinct numbers, its numbers line lists them once
// (rev14 R6 on gcc -Q --help=target: "largest 65536, 128, 6, 3, 0;
// smallest 0, 3, 6, 128, 65536"). The capture: `gcc -Q --help=target`,
// gcc 12.2.0 of Debian 12, made by the session 14 review.
func TestValueNumbersFewDistinct(t *testing.T) {
	data := readCapture(t, "testdata/gcc-q-help-target.txt")
	num := regexp.MustCompile(`^ +\S.*?\s+(-?[0-9]+)\s*$`)
	distinct := map[int]bool{}
	for _, l := range rawLines(data) {
		if m := num.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			distinct[n] = true
		}
	}
	var want []string
	for n := range distinct {
		want = append(want, strconv.Itoa(n))
	}
	sort.Slice(want, func(i, j int) bool { a, _ := strconv.Atoi(want[i]); b, _ := strconv.Atoi(want[j]); return a > b })
	text := fillText(t, data, 2000)
	var line string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, ", numbers in ") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no numbers line for the value column:\n%s", text)
	}
	if strings.Contains(line, "smallest") || !strings.Contains(line, "all "+strconv.Itoa(len(want))+" distinct values, largest first: ") {
		t.Fatalf("the %d distinct numbers are not listed once: %s", len(want), line)
	}
	at := 0
	for _, w := range want {
		i := strings.Index(line[at:], " "+w+" (")
		if i < 0 {
			t.Fatalf("number %s missing or out of order (want %v): %s", w, want, line)
		}
		at += i + 1
	}
}
