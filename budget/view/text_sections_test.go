package view

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// sectionEntries counts, in the raw lines, the lines matching row
// between the line that equals head and the next blank line.
func sectionEntries(t *testing.T, lines []string, head string, row *regexp.Regexp) int {
	t.Helper()
	for i, l := range lines {
		if l != head {
			continue
		}
		n := 0
		for _, e := range lines[i+1:] {
			if strings.TrimSpace(e) == "" {
				break
			}
			if row.MatchString(e) {
				n++
			}
		}
		return n
	}
	t.Fatalf("no line %q", head)
	return 0
}

// TestSectionsCountEntriesByHeading: node --prof-process
// (testdata/node-prof-process-fib.txt, node 20.20.2 on a script of
// fib(20), a regexp and JSON.stringify) lists its ticks in sections
// under bracketed headings, "[JavaScript]:", "[C++]:", each with a
// column header line and rows of one template shared by all the
// sections. "How many entries does the [C++] section list?" was stated
// nowhere: the view states every section's entries, named by its
// heading, its column header not counted.
func TestSectionsCountEntriesByHeading(t *testing.T) {
	data, err := os.ReadFile("testdata/node-prof-process-fib.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	row := regexp.MustCompile(`^ +[0-9]+ +[0-9.]+%`)
	for _, b := range []int{8000, 16000} {
		got := fillText(t, data, b)
		for _, h := range []string{"JavaScript", "C++", "Shared libraries", "Summary"} {
			n := sectionEntries(t, lines, " ["+h+"]:", row)
			if want := fmt.Sprintf("\t[%s]: %d lines\n", h, n); !strings.Contains(got, want) {
				t.Errorf("at %d the view lacks %q:\n%s", b, want, got)
			}
		}
	}
}

// TestLoneHeadingSections: perf trace -s
// (testdata/perf-trace-s-gcc-python.txt, perf 6.1 on gcc, ls and a
// python3 pyenv shim) writes one section per thread: a line alone
// between blank lines ("python3 (30412), 4911 events, 10.6%") and a
// table of its syscalls with two header lines and a rule. The view
// counts the sections, names each with its syscall rows, and counts the
// sections by their heading's first word (34 bash threads).
func TestLoneHeadingSections(t *testing.T) {
	data, err := os.ReadFile("testdata/perf-trace-s-gcc-python.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	head := regexp.MustCompile(`^ ([a-z0-9]+) \([0-9]+\), [0-9]+ events, [0-9.]+%$`)
	row := regexp.MustCompile(`^   [a-z_0-9]+ +[0-9]+ +[0-9]+ `)
	threads, bash := 0, 0
	for _, l := range lines {
		if m := head.FindStringSubmatch(l); m != nil {
			threads++
			if m[1] == "bash" {
				bash++
			}
		}
	}
	// python3's section: its heading, a blank line, then its table.
	py := 0
	for i, l := range lines {
		if strings.HasPrefix(l, " python3 (") {
			py = sectionEntries(t, lines[i+2:], lines[i+2], row)
			if row.MatchString(lines[i+2]) {
				py++
			}
			break
		}
	}
	got := fillText(t, data, 4000)
	for _, want := range []string{
		fmt.Sprintf("of %d sections", threads),
		fmt.Sprintf("(exact counts of sections): bash %d,", bash),
		fmt.Sprintf("\tpython3 (30412), 4911 events, 10.6%%: %d lines\n", py),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// TestSectionHeading: the forms of a heading line.
func TestSectionHeading(t *testing.T) {
	for s, want := range map[string]bool{
		"[JavaScript]:": true, "SQL statistics:": true, "Latency (ms):": true, "[Summary]": true,
		"== Results ==": true, "./dir:": false, "key: value:": false, "http://x:": false,
		"[ 1s ]": false, "12:": false, "total: 3": false,
	} {
		if got := sectionHeading(s); got != want {
			t.Errorf("sectionHeading(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestTemplateNumbersNamed: gcov -b -c (testdata/gcov-b-zstd-decompress.txt,
// GCC 12.2's gcov of zstd 1.5.6's zstd_decompress.c after a test program
// ran it) writes "function NAME called N returned P% blocks executed Q%"
// before each function and "branch N taken C" after a source line. A
// number's values were listed bare ("<n> (4 values): 0 79, 7 15"), so
// "how many functions were called 0 times" named no "called 0"; a
// measure of many values said only its range. The view names a
// number by the words before it ("called 0 79") and states a measure's
// extremes (with how many lines hold each, as no one line does here)
// and its mean.
func TestTemplateNumbersNamed(t *testing.T) {
	data, err := os.ReadFile("testdata/gcov-b-zstd-decompress.txt")
	if err != nil {
		t.Fatal(err)
	}
	fn := regexp.MustCompile(`^function \S+ called ([0-9]+) `)
	br := regexp.MustCompile(`^branch +([0-9]+) taken ([0-9]+)$`)
	called := map[string]int{}
	maxTaken, nMax, minTaken, nMin, sum, n := -1, 0, -1, 0, 0, 0
	for _, l := range strings.Split(string(data), "\n") {
		if m := fn.FindStringSubmatch(l); m != nil {
			called[m[1]]++
		}
		if m := br.FindStringSubmatch(l); m != nil {
			var c int
			fmt.Sscan(m[2], &c)
			switch {
			case c > maxTaken:
				maxTaken, nMax = c, 1
			case c == maxTaken:
				nMax++
			}
			switch {
			case minTaken < 0 || c < minTaken:
				minTaken, nMin = c, 1
			case c == minTaken:
				nMin++
			}
			sum += c
			n++
		}
	}
	got := fillText(t, data, 30000)
	for _, want := range []string{
		fmt.Sprintf("called 0 %d, called 7 %d,", called["0"], called["7"]),
		// (a value many lines hold names no line: the count of them)
		fmt.Sprintf("taken min %d (%d lines), max %d (%d lines), mean %s", minTaken, nMin, maxTaken, nMax, formatMean(float64(sum)/float64(n))),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// TestHistogramStated: sysbench cpu --histogram=on
// (testdata/sysbench-cpu-histogram.txt, sysbench 1.0.20, 2 threads for
// 3 s) draws its latency histogram as rows "value |**** count". How many
// buckets it has and how many events they count in all was stated
// nowhere; the view states both, with the buckets at the ends and the
// fullest one.
func TestHistogramStated(t *testing.T) {
	data, err := os.ReadFile("testdata/sysbench-cpu-histogram.txt")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`^ +([0-9.]+) \|[*]* +([0-9]+)$`)
	n, sum, events := 0, 0, ""
	for _, l := range strings.Split(string(data), "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			var c int
			fmt.Sscan(m[2], &c)
			n++
			sum += c
		}
		if strings.Contains(l, "total number of events:") {
			events = strings.TrimSpace(l[strings.LastIndex(l, ":")+1:])
		}
	}
	if fmt.Sprint(sum) != events {
		t.Fatalf("the histogram's counts add up to %d, the run's events are %s", sum, events)
	}
	got := fillText(t, data, 3000)
	want := fmt.Sprintf(": %d buckets (rows value |bar count), %s counted in all;", n, commas(sum))
	if !strings.Contains(got, want) {
		t.Errorf("the view lacks %q:\n%s", want, got)
	}
}
