package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

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
		var data []byte
		if name == "tsc-build-codes.txt" {
			data = readCapture(t, name) // in the bench corpus
		} else {
			data = readTestdata(t, name)
		}
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

// TestLocatedDiagnosticsAreData: go build -gcflags=-m prints one
// "file:line:col: note" a line; the location prefix made each an error
// line (1,282 of 1,283 on the old code), and "&Error{...} escapes to
// heap" would be one by its words. They are the text's data: no error
// line, the query for error lines finds none either; the lines are
// counted by directory where the files branch and by file with each
// file's highest line number, as a regular expression counts them; and
// the rare form (every "index bounds check elided" line) is in the view.
func TestLocatedDiagnosticsAreData(t *testing.T) {
	data := readTestdata(t, "go-build-gcflags-registry.txt") // testdata/gen/capture.sh go-build-gcflags-registry
	p := analyzeText(data, nil)
	if !p.locData {
		t.Fatal("not read as a text of located diagnostics")
	}
	if p.errors != 0 || p.warns != 0 {
		t.Errorf("%d error and %d warning lines, want none", p.errors, p.warns)
	}
	for _, sev := range []int{sevError, sevWarn} {
		if n := len(jqLines(t, data, p.severityQuery(sev))); n != 0 {
			t.Errorf("severity %d: the query finds %d lines", sev, n)
		}
	}
	loc := regexp.MustCompile(`^([^\s:]+):(\d+)(?::\d+)?: `)
	fileMax, std := map[string]int{}, 0
	for _, l := range strings.Split(string(data), "\n") {
		if m := loc.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			fileMax[m[1]] = max(fileMax[m[1]], n)
			if strings.HasPrefix(l, "/usr/local/go/src/") {
				std++
			}
		}
	}
	facts := strings.Join(p.locs.facts(p.lines-p.blank), "\n")
	if std < 100 || !strings.Contains(facts, fmt.Sprintf("/usr/local/go/src/ %s,", commas(std))) {
		t.Errorf("the lines in /usr/local/go/src/ (%d) are not stated: %s", std, facts)
	}
	listed := regexp.MustCompile(`(\S+) [\d,]+ \(highest line ([\d,]+)\)`).FindAllStringSubmatch(facts, -1)
	if len(listed) < 10 {
		t.Fatalf("%d files listed with their highest line: %s", len(listed), facts)
	}
	for _, m := range listed {
		if m[2] != commas(fileMax[m[1]]) {
			t.Errorf("%s: highest line %s stated, the lines say %d", m[1], m[2], fileMax[m[1]])
		}
	}
	forms := p.rareForms()
	var elided *cluster
	for _, c := range forms {
		if strings.HasSuffix(c.template(), "index bounds check elided") {
			elided = c
		}
	}
	want := len(jqLines(t, data, `.[] | select(endswith(": index bounds check elided"))`))
	if elided == nil || elided.count != want || len(elided.lines) != want {
		t.Fatalf("the %d lines \"index bounds check elided\" are no rare form: %v", want, forms)
	}
}

// TestLocDataSeverity: in a text of located diagnostics a located line
// is an error (warning) line only when the word after its location
// says so, a line without a location by the usual test; the view's
// queries find exactly the lines the profile counts.
func TestLocDataSeverity(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "pkg/a.go:%d:3: &Error{...} escapes to heap\n", i+1)
	}
	b.WriteString("pkg/b.go:7:1: error: something broke\npkg/b.go:9:2: warning: odd\npkg/c.go:3:4: fatal error: out of memory\npanic: boom\n")
	data := []byte(b.String())
	p := analyzeText(data, nil)
	if !p.locData || p.errors != 3 || p.warns != 1 {
		t.Fatalf("locData %v, %d error lines, %d warning lines; want true, 3, 1", p.locData, p.errors, p.warns)
	}
	for sev, n := range map[int]int{sevError: 3, sevWarn: 1} {
		if got := len(jqLines(t, data, p.severityQuery(sev))); got != n {
			t.Errorf("severity %d: the query finds %d lines, want %d", sev, got, n)
		}
	}
}

// TestLevelInsideName: a severity word inside a name (_POSIX_TRACE,
// _SC_TRACE_LOG) states no level.
func TestLevelInsideName(t *testing.T) {
	for line, want := range map[string]string{
		"_POSIX_TRACE                       200809": "",
		"_SC_TRACE_EVENT_FILTER             -1":     "",
		"2024-01-02 [WARN] disk almost full":        "WARN",
		"ERROR_CODE=5 ERROR something":              "ERROR",
	} {
		if got := lineLevel(line); got != want {
			t.Errorf("lineLevel(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestIndentRecordForms: ldd over the files of /usr/sbin and a
// directory is a record per file ("path:" then its libraries, indented)
// and ldd's own message about the directory, a line at column 0. The
// records are counted by the form of their first line (the files, and
// the one "ldd:" line), every library by the records holding it, and
// the most lines of a record with its lines after the first (the
// libraries), each as the lines count them. On the old code none of
// these was stated.
func TestIndentRecordForms(t *testing.T) {
	data := readTestdata(t, "ldd-usr-sbin.txt") // testdata/gen/capture.sh ldd-usr-sbin
	header := regexp.MustCompile(`^/\S+:$`)
	lib := regexp.MustCompile(`^\s+(lib\S+\.so\.\d+)\s`)
	paths, msgs := 0, 0
	holding := map[string]int{}
	var seen map[string]bool
	most, below := 0, 0
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch {
		case header.MatchString(l):
			paths++
			seen = map[string]bool{}
			below = 0
		case strings.HasPrefix(l, "ldd: "):
			msgs++
			seen = map[string]bool{}
			below = 0
		default:
			below++
			most = max(most, below)
			if m := lib.FindStringSubmatch(l); m != nil && !seen[m[1]] {
				seen[m[1]] = true
				holding[m[1]]++
			}
		}
	}
	if paths < 100 || msgs != 1 {
		t.Fatalf("%d files, %d ldd messages: not the capture this test was written for", paths, msgs)
	}
	p := analyzeText(data, nil)
	rs := p.recs
	if rs == nil || rs.n != paths+msgs {
		t.Fatalf("records %v, want %d", rs, paths+msgs)
	}
	want := fmt.Sprintf(`records by the form of their first line (exact): a path ending with ":" %s, "ldd:" … 1`, commas(paths))
	if l := rs.headLine(); !strings.Contains(l, want) {
		t.Errorf("head line %q, want %q", l, want)
	}
	hold := rs.holdLine()
	listed := regexp.MustCompile(`(lib\S+\.so\.\d+) (\d+(?:,\d{3})*)`).FindAllStringSubmatch(hold, -1)
	if len(listed) < 5 {
		t.Fatalf("holding line %q", hold)
	}
	for _, m := range listed {
		if m[2] != commas(holding[m[1]]) {
			t.Errorf("%s: in %s records stated, the lines say %d", m[1], m[2], holding[m[1]])
		}
	}
	if l := rs.linesLine(); !strings.Contains(l, fmt.Sprintf("most %s (%s after the first line;", commas(most+1), commas(most))) {
		t.Errorf("lines line %q: the most lines after the first are %d", l, most)
	}
}

// TestSlotNumericRange: a template position of more than 8 numbers
// states their range, as the lines have them, not a census of values
// (heldout12w: node --prof-process's tick counts and percentages).
func TestSlotNumericRange(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "fetch GET 200 https://registry.example/pkg%d %dms (cache miss)\n", i, 40+(i*37)%900)
	}
	p := analyzeText([]byte(b.String()), nil)
	var vals string
	for _, cl := range p.miner.clusters {
		vals += cl.slotValues()
	}
	if !strings.Contains(vals, "(30 values from 40ms to 928ms)") {
		t.Errorf("slot values %q", vals)
	}
}

// TestRareCodeLines: every diagnostic whose code is in no other line
// (tsc's one TS18048, TS2307 and TS2584) is offered with the anomalies,
// and no other line is.
func TestRareCodeLines(t *testing.T) {
	data := readCapture(t, "tsc-build-codes.txt")
	codes := codesByRegexp(data, regexp.MustCompile(`^\S+\(\d+,\d+\): \w+ (TS\d+): `))
	want := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if m := regexp.MustCompile(`: \w+ (TS\d+): `).FindStringSubmatch(l); m != nil && codes[m[1]] == 1 {
			want[l] = true
		}
	}
	if len(want) < 2 {
		t.Fatalf("%d codes in one line: not the capture this test was written for", len(want))
	}
	v := buildText(t, data, 4000)
	got := 0
	for _, c := range v.Candidates() {
		if c.Reason != "code in one line" {
			continue
		}
		got++
		if c.Prio != PrioAnomaly {
			t.Errorf("priority %d, want the anomalies'", c.Prio)
		}
		i := strings.IndexByte(c.Text, '\t')
		if !want[c.Text[i+1:]] {
			t.Errorf("offered %q", c.Text)
		}
	}
	if got != len(want) {
		t.Errorf("%d lines offered, want %d", got, len(want))
	}
}

// TestHashTableIsNoCommitList: git cat-file --batch-check ("<hash> blob
// 21912 25") opens every line with a hash, but its "subjects" are typed
// cells: it is no commit list (on the old code: "300 commits").
func TestHashTableIsNoCommitList(t *testing.T) {
	data := readTestdata(t, "git-cat-file-check.txt") // testdata/gen/capture.sh git-cat-file-check
	if p := analyzeText(data, nil); p.kind == textCommits || p.graph != nil {
		t.Errorf("kind %q: %d commits stated", p.kind, p.records)
	}
}
