package view

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readTestdata reads a capture kept beside the view's tests.
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBuildLogIsNoList: a failing tsc build (npm run build, tsc
// --listFiles --extendedDiagnostics) is 4 errors, the 163 files tsc read
// one a line, then its statistics. 83% of its lines are one word, but it
// is a log that holds a list, not a list (on the old code: "a list of 199
// values"). TestBuildLogEndInView checks its view.
func TestBuildLogIsNoList(t *testing.T) {
	data := readTestdata(t, "tsc-build-list.txt") // testdata/gen/capture.sh tsc-build-list
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	path := regexp.MustCompile(`^/\S+$`)
	last := -1
	for i, l := range lines {
		if path.MatchString(l) {
			last = i
		}
	}
	stats := lines[last+1:]
	if last < 100 || len(stats) < 10 || !strings.HasPrefix(stats[0], "Files:") {
		t.Fatalf("the capture's last path line is %d, then %d lines: not the one this test was written for", last, len(stats))
	}
	p := analyzeText(data, nil)
	if p.cols != nil && p.cols.split.mode == byLine {
		t.Errorf("read as a list of %d values", p.cols.rows)
	}
}

// codesByRegexp counts the lines of data by the first group of re.
func codesByRegexp(data []byte, re *regexp.Regexp) map[string]int {
	m := map[string]int{}
	for _, l := range strings.Split(string(data), "\n") {
		if g := re.FindStringSubmatch(l); g != nil {
			m[g[1]]++
		}
	}
	return m
}

// TestDiagnosticCodes: the diagnostics of a failing tsc build (114
// errors of 8 TS codes) and of gcc (115 warnings of 6 -W codes) are
// counted by their code exactly as a regular expression over the lines
// counts them, and the view's fact line states every code with its
// count. On the old code no code was counted.
func TestDiagnosticCodes(t *testing.T) {
	for name, re := range map[string]*regexp.Regexp{
		"tsc-build-codes.txt": regexp.MustCompile(`^\S+\(\d+,\d+\): \w+ (TS\d+): `),
		"gcc-wcodes.txt":      regexp.MustCompile(`^\S+:\d+:\d+: \w+: .*\[(-W[\w=-]+)\]$`),
	} {
		data := readTestdata(t, name)
		want := codesByRegexp(data, re)
		if len(want) < 6 {
			t.Fatalf("%s: %d codes: not the capture this test was written for", name, len(want))
		}
		p := analyzeText(data, nil)
		if len(p.locs.codes) != len(want) {
			t.Errorf("%s: %d codes counted, the lines have %d: %v", name, len(p.locs.codes), len(want), p.locs.codes)
		}
		sum := 0
		for c, n := range want {
			sum += n
			if p.locs.codes[c] != n {
				t.Errorf("%s: code %s counted %d times, the lines have it %d times", name, c, p.locs.codes[c], n)
			}
		}
		if p.locs.coded != sum {
			t.Errorf("%s: %d lines with a code, the lines say %d", name, p.locs.coded, sum)
		}
		fact := p.locs.codeFact()
		for c, n := range want {
			if !strings.Contains(fact, c+" "+commas(n)) {
				t.Errorf("%s: the fact line lacks %q: %s", name, c+" "+commas(n), fact)
			}
		}
		found := false
		for _, f := range (&textCands{p: p}).factLines() {
			found = found || f == fact
		}
		if !found {
			t.Errorf("%s: the code line is not among the text's facts", name)
		}
	}
}

// TestDiagCode: the code of a diagnostic message in the forms of the
// common tools (the text after the source location).
func TestDiagCode(t *testing.T) {
	for msg, want := range map[string]string{
		"error TS7006: Parameter 'x' implicitly has an 'any' type.":               "TS7006",
		"warning: unused variable ‘spare0’ [-Wunused-variable]":                   "-Wunused-variable",
		"error: unused variable 'x' [-Werror,-Wunused-variable]":                  "",
		"E501 line too long (88 > 79 characters)":                                 "E501",
		"C0114: Missing module docstring (missing-module-docstring)":              "C0114",
		"SA1019: strings.Title has been deprecated (staticcheck)":                 "SA1019",
		"should not use strings.Title (SA1019)":                                   "SA1019",
		"error: Item \"None\" of \"Optional[str]\" has no attribute [union-attr]": "union-attr",
		"'x' is assigned a value but never used. [Error/no-unused-vars]":          "no-unused-vars",
		"error[E0308]: mismatched types":                                          "E0308",
		"warning C4996: 'strcpy': This function may be unsafe.":                   "C4996",
		"note: SC2086 (info): Double quote to prevent globbing.":                  "",
		"can inline foo with cost 4 as: func() int { return 4 }":                  "",
		"moved to heap: x":                                              "",
		"error: expected ';' before '}' token":                          "",
		"Type 'string' is not assignable to type 'number'. (lines 1-2)": "",
	} {
		if got := diagCode(msg); got != want {
			t.Errorf("diagCode(%q) = %q, want %q", msg, got, want)
		}
	}
}

// TestSlotTopValues: a template position with more than 8 values lists
// its 8 most frequent values with their exact counts, then how many
// more values there are and their lines (gcc's "unused parameter ‘X’":
// ‘s’ in 20 lines, ‘n’ in 6, 30 parameters in one line each). On the old
// code a position past 8 values listed none.
func TestSlotTopValues(t *testing.T) {
	data := readTestdata(t, "gcc-wcodes.txt")
	want := codesByRegexp(data, regexp.MustCompile(`: warning: unused parameter (‘[^’]+’) \[-Wunused-parameter\]$`))
	if len(want) <= shownSlotValues {
		t.Fatalf("%d parameters: not the capture this test was written for", len(want))
	}
	p := analyzeText(data, nil)
	var vals string
	for _, cl := range p.miner.clusters {
		if strings.Contains(cl.template(), "unused parameter") {
			vals = cl.slotValues()
		}
	}
	m := regexp.MustCompile(`\((\d+) values\): ((?:‘[^’]+’ \d+, )*‘[^’]+’ \d+) \((\d+) more values in (\d+) lines\)`).FindStringSubmatch(vals)
	if m == nil {
		t.Fatalf("no top values with counts: %q", vals)
	}
	if m[1] != strconv.Itoa(len(want)) {
		t.Errorf("%s values stated, the lines have %d", m[1], len(want))
	}
	shown, lines, least := 0, 0, 1<<30
	for _, x := range strings.Split(m[2], ", ") {
		i := strings.LastIndexByte(x, ' ')
		v, n := x[:i], x[i+1:]
		if strconv.Itoa(want[v]) != n {
			t.Errorf("%s: %s lines stated, the lines have %d", v, n, want[v])
		}
		shown++
		lines += want[v]
		least = min(least, want[v])
		delete(want, v)
	}
	rest := 0
	for v, n := range want {
		rest += n
		if n > least {
			t.Errorf("%s in %d lines is not listed, one in %d is", v, n, least)
		}
	}
	if shown != shownSlotValues || m[3] != strconv.Itoa(len(want)) || m[4] != strconv.Itoa(rest) {
		t.Errorf("%d shown, %s more in %s lines stated; the lines have %d more in %d lines", shown, m[3], m[4], len(want), rest)
	}
}
