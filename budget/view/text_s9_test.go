package view

import (
	"fmt"
	"strings"
	"testing"
)

// TestLocationForms: every form of a located line is split into its
// file, line and message, and lines that only look like one are not: a
// clock, a colon record, an address. On the old code grep -n's
// "file:line:text" and markdownlint's "file:line[:col] message" were no
// locations, so a grep -rn of 2,648 matches stated neither its files
// nor its highest line.
func TestLocationForms(t *testing.T) {
	for _, c := range []struct {
		line, file string
		n          int
		msg        string
	}{
		{"main.go:12:5: undefined: x", "main.go", 12, "undefined: x"},
		{"main.go:12: undefined: x", "main.go", 12, "undefined: x"},
		{"src/a.ts(3,7): error TS7006: bad", "src/a.ts", 3, "error TS7006: bad"},
		{"./cli/hints/hints.go:11:func Enabled() bool {", "./cli/hints/hints.go", 11, "func Enabled() bool {"},
		{"docs/README.md:3 error MD041/first-line-heading First line", "docs/README.md", 3, "error MD041/first-line-heading First line"},
		{"docs/README.md:5:81 error MD013/line-length Line length", "docs/README.md", 5, "error MD013/line-length Line length"},
		{"x.go:7:34abc", "x.go", 7, "34abc"},
		{"src/Makefile:4:\tgcc -o x", "src/Makefile", 4, "gcc -o x"},
	} {
		f, n, m, ok := location(c.line)
		if !ok || f != c.file || n != c.n || m != c.msg {
			t.Errorf("location(%q) = %q, %d, %q, %v; want %q, %d, %q", c.line, f, n, m, ok, c.file, c.n, c.msg)
		}
	}
	for _, line := range []string{
		"12:30:45 up 3 days",
		"pub:-:4096:1:AA:1:::",
		"10.0.0.1:8080 connected",
		"root:x:0:0:root:/root:/bin/bash",
		"http://example.com:80/x",
		"note:12 remember",
	} {
		if f, n, m, ok := location(line); ok {
			t.Errorf("location(%q) = %q, %d, %q: not a location", line, f, n, m)
		}
	}
}

// TestGrepLinesByFile: the matches of grep -rn are counted by file,
// with each file's highest line, and the text's highest line is named
// with its file.
func TestGrepLinesByFile(t *testing.T) {
	var b strings.Builder
	for f := 0; f < 40; f++ {
		for k := 0; k <= f%5; k++ {
			fmt.Fprintf(&b, "./pkg/dir%d/file%d.go:%d:func Name%d_%d(x int) (int, error) {\n", f%4, f, 10+k*100+f, f, k)
		}
	}
	data := []byte(b.String())
	text := fillText(t, data, 2000)
	for _, want := range []string{"in 40 files", "highest line 449 (in ./pkg/dir3/file39.go)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the view lacks %q:\n%s", want, text)
		}
	}
}

// TestSeverityWordInCode: grep -rn over Go source lists function
// signatures; "error" in "func f() (int, error) {" is a type, "panic(err)"
// a call: no error lines. A line with a level marker is still one (a
// compiler's "file:line:col: error:", a log line that ends with '{' under
// a level column). The profile and the jq query the view prints agree.
// On the old code every signature returning an error was an error line.
func TestSeverityWordInCode(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "./pkg/a%d.go:%d:func load%d(path string) (int, error) {\n", i, 10+i, i)
		fmt.Fprintf(&b, "./pkg/a%d.go:%d:\tif err != nil { panic(err) }\n", i, 20+i)
		fmt.Fprintf(&b, "./pkg/a%d.go:%d:\treturn fmt.Errorf(\"open %%s: failed\", path)\n", i, 30+i)
		fmt.Fprintf(&b, "./pkg/a%d.go:%d:func (e *Error) Fatal(x int) {\n", i, 40+i)
	}
	b.WriteString("./pkg/x.c:3:5: error: expected ';' before '{'\n")
	b.WriteString("2026-11-26T07:00:00Z ERROR request failed, body: {\n")
	data := []byte(b.String())
	p := analyzeText(data, nil)
	if p.errors != 2 {
		var ls []string
		for _, nb := range p.notables {
			ls = append(ls, nb.text)
		}
		t.Errorf("error lines: %d, want 2 (the compiler's error, the log line): %q", p.errors, ls)
	}
	if p.codeSev != 120 {
		t.Errorf("lines of code with a severity word: %d, want 120", p.codeSev)
	}
	if got := len(jqLines(t, data, p.severityQuery(sevError))); got != p.errors {
		t.Errorf("the view's query finds %d error lines, the profile %d", got, p.errors)
	}
}

// TestSummaryAndCodes: markdownlint-cli2's output, a summary line then
// one diagnostic a line "file:line[:col] error MDnnn/alias ...". The
// summary line is stated as a fact and is not counted as an error line
// (2,467 errors counted 2,468 on the old code), the diagnostics are
// counted by their code, and each code keeps its own template (the old
// code masked MD013 as <id>, so no template said which rule it counted).
func TestSummaryAndCodes(t *testing.T) {
	var b strings.Builder
	b.WriteString("markdownlint-cli2 v0.22.1 (markdownlint v0.40.0)\nFinding: **/*.md\nLinting: 9 file(s)\nSummary: 60 error(s)\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "docs/f%d.md:%d:81 error MD013/line-length Line length [Expected: 80; Actual: %d]\n", i%9, i+1, 90+i)
	}
	for i := 0; i < 19; i++ {
		fmt.Fprintf(&b, "docs/f%d.md:%d error MD040/fenced-code-language Fenced code blocks should have a language specified [Context: \"```\"]\n", i%9, 100+i)
	}
	b.WriteString("docs/f1.md:7 error MD030/list-marker-space Spaces after list markers [Expected: 1; Actual: 2]\n")
	data := []byte(b.String())
	p := analyzeText(data, nil)
	if p.errors != 60 || p.nSummaries != 1 {
		t.Errorf("error lines %d, summary lines %d; want 60 and 1", p.errors, p.nSummaries)
	}
	if got := len(jqLines(t, data, p.severityQuery(sevError))); got != p.errors {
		t.Errorf("the view's query finds %d error lines, the profile %d", got, p.errors)
	}
	text := fillText(t, data, 1500)
	for _, want := range []string{
		`summary lines (a count of errors or warnings; not counted as error lines): 1: "Summary: 60 error(s)" (line 3)`,
		"lines by code (exact): MD013 40, MD040 19, MD030 1",
		"[40 lines] <*> error MD013/line-length Line length",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view lacks %q:\n%s", want, text)
		}
	}
}

// TestLinePrefix: valgrind writes "==PID== " before every line. The view
// reads the text without it: the lines that are only the prefix are
// blank lines between records (the loss records), the first line says
// so, and the query the view prints for the records' first lines
// removes the prefix first, so it finds exactly the records counted.
// On the old code the text was "a table" whose first column was the
// prefix in every row, with no records.
func TestLinePrefix(t *testing.T) {
	var b strings.Builder
	pre := "==4242== "
	b.WriteString(pre + "Memcheck, a memory error detector\n" + pre + "Command: ./a.out\n==4242==\n")
	for i := 1; i <= 30; i++ {
		kind := "possibly lost"
		if i%10 == 0 {
			kind = "definitely lost"
		}
		fmt.Fprintf(&b, "%s%d bytes in 1 blocks are %s in loss record %d of 30\n", pre, 8*i, kind, i)
		fmt.Fprintf(&b, "%s   at 0x48417B4: malloc (vg_replace_malloc.c:381)\n", pre)
		fmt.Fprintf(&b, "%s   by 0x10916B: f%d (a.c:%d)\n%s\n", pre, i, i, pre)
	}
	b.WriteString(pre + "ERROR SUMMARY: 3 errors from 3 contexts (suppressed: 0 from 0)\n")
	data := []byte(b.String())
	if got := linePrefix(data); got != pre {
		t.Fatalf("prefix %q, want %q", got, pre)
	}
	for _, s := range []string{"INFO a\nINFO b\n", "+ make\n+ gcc\n"} {
		if got := linePrefix([]byte(strings.Repeat(s, 20))); got != "" {
			t.Errorf("prefix %q of %q: want none (a level, a shell trace)", got, s)
		}
	}
	stripped := stripPrefix(data, pre)
	if countLines(stripped) != countLines(data) {
		t.Fatalf("stripping changed the number of lines")
	}
	jq := jqLines(t, data, jqPrefix(pre)+".[]")
	plain := strings.Split(strings.TrimSuffix(string(stripped), "\n"), "\n")
	if len(jq) != len(plain) {
		t.Fatalf("jq strips to %d lines, stripPrefix to %d", len(jq), len(plain))
	}
	for i := range plain {
		if jq[i] != plain[i] {
			t.Errorf("line %d: jq %q, stripPrefix %q", i, jq[i], plain[i])
		}
	}
	text := fillText(t, data, 3000)
	for _, want := range []string{`every line starts with "==4242== "`, "\n  3\t8 bytes in 1 blocks are possibly lost in loss record 1 of 30"} {
		if !strings.Contains(text, want) {
			t.Errorf("the view lacks %q:\n%s", want, text)
		}
	}
}

// TestColonKeysNotTagsOrAddresses: lintian's "I: pkg: tag" and apt's
// "E: ..." start with a level's letter, valgrind's "by 0x1FF12D: main"
// with an address: neither is a Key: value line (on the old code both
// were, making a section of "keys" I, W and "by 0x1FF12D").
func TestColonKeysNotTagsOrAddresses(t *testing.T) {
	for _, l := range []string{"I: gzip: hardening-no-fortify-functions", "W: bash: spelling-error", "   by 0x1FF12D: Perl_savepvn (in /usr/bin/perl)"} {
		if k, v, ok := kvColon.split(l); ok {
			t.Errorf("%q split as key %q value %q", l, k, v)
		}
	}
	if k, v, ok := kvColon.split("Installed-Size: 1024"); !ok || k != "Installed-Size" || v != "1024" {
		t.Errorf("a field: %q %q %v", k, v, ok)
	}
}

// TestLinePrefixForms: the prefixes of kubectl logs --prefix and docker
// compose are found; a program's name that starts every line is a word
// of the template, not a prefix.
func TestLinePrefixForms(t *testing.T) {
	for s, want := range map[string]string{
		"[pod/web-7/app] GET /health 200\n": "[pod/web-7/app] ",
		"web-1  | listening on :80\n":       "web-1  | ",
		"update-alternatives 2026-11-26 05:51:25: link group a updated to point to /usr/bin/a\n": "",
	} {
		if got := linePrefix([]byte(strings.Repeat(s, 25))); got != want {
			t.Errorf("prefix of %q: %q, want %q", s, got, want)
		}
	}
}

// TestFirstLinesBeforeCensus: a tool's banner and summary are its first
// lines; they come before any census at every budget. On the old code
// the first lines came after the templates and columns, so at a small
// budget the version and the totals were missing while head+tail had
// them.
func TestFirstLinesBeforeCensus(t *testing.T) {
	var b strings.Builder
	b.WriteString("loadgen v2.7.1 (build 9f3c2)\ntarget: https://svc.example:8443\ntotals: 4,000 requests, 37 failed\n\n")
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&b, "req %d GET /api/item/%d status %d in %dms\n", i, i%97, 200+(i%7)/6*300, 3+i%50)
	}
	text := fillText(t, []byte(b.String()), 400)
	for _, want := range []string{"loadgen v2.7.1 (build 9f3c2)", "totals: 4,000 requests, 37 failed"} {
		if !strings.Contains(text, want) {
			t.Errorf("the view at 400 tokens lacks the first line %q:\n%s", want, text)
		}
	}
}

// TestFixedWordsOneLine: the words of the records' first lines that are
// the same in nearly every record (valgrind's "bytes in N blocks are ...
// in loss record") are one line, not a line per column; a column whose
// values differ in more than one record each ("still" 152, "possibly"
// 3) keeps its own line.
func TestFixedWordsOneLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("Memcheck, a memory error detector\n\n")
	for i := 1; i <= 40; i++ {
		kind := "still reachable"
		if i%8 == 0 {
			kind = "possibly lost"
		}
		fmt.Fprintf(&b, "%d bytes in %d blocks are %s in loss record %d of 40\n   at 0x48417B4: malloc (in /usr/lib/vg.so)\n   by 0x%X: f%d (a.c:%d)\n\n", 8*i, 1+i%3, kind, i, 0x1000+i, i, i)
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.recs == nil || p.recs.kv == nil {
		t.Fatal("no records")
	}
	lines := p.recs.kv.headLines(p.recs.n)
	all := strings.Join(lines, "\n")
	if !strings.Contains(all, `first lines, columns of one word in nearly every record (column, word, records; the other records' words are each in one): 2 "bytes" 40, 3 "in" 40, 5 "blocks" 40`) {
		t.Errorf("no line of the fixed words:\n%s", all)
	}
	if !strings.Contains(all, `"still" 35, "possibly" 5`) {
		t.Errorf("the column of kinds is not listed:\n%s", all)
	}
	if strings.Contains(all, "column 5:") || strings.Contains(all, "column 5 (") {
		t.Errorf("a fixed word has its own line:\n%s", all)
	}
}

// TestTagLinesNoKeys: lintian's "I: pkg: tag ..." lines are hints with a
// level's tag, not Key: value lines of keys "I" and "W" (a section of
// two "keys" of 156 distinct values on the old code).
func TestTagLinesNoKeys(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "I: gnulib: bash-term-in-posix-shell '$RANDOM' [usr/share/gnulib/t%d.sh:%d]\n", i, i+3)
		if i%3 == 0 {
			fmt.Fprintf(&b, "W: gnulib: script-not-executable [usr/share/gnulib/tests/s%d.sh]\n", i)
		}
	}
	p := analyzeText([]byte(b.String()), nil)
	for _, f := range p.fields {
		t.Errorf("field %q (%d lines): a level's tag read as a key", f.name, f.present)
	}
}

// TestTagLevels: lintian's and apt's one-letter tags are levels, counted
// like a log's, named as the tool writes them (on the old code a lintian log stated no levels, so how
// many hints, warnings and infos there are was not in the view).
func TestTagLevels(t *testing.T) {
	data := []byte("running with root privileges is not recommended!\nE: a: embedded-library zlib [x]\nW: a: script-not-executable [y]\nW: a: script-not-executable [z]\nI: a: bash-term-in-posix-shell [w:1]\nX: 12\nN: Processing changes file\n")
	p := analyzeText(data, nil)
	want := map[string]int{"E:": 1, "W:": 2, "I:": 1, "N:": 1}
	if fmt.Sprint(p.levels) != fmt.Sprint(want) {
		t.Errorf("levels %v, want %v", p.levels, want)
	}
}

// TestTaggedColonRecords: gpg --with-colons lines are grouped by their
// type tag and each type's fields are counted (a pub's length and
// algorithm), the lines at the extremes of a numeric field (the oldest
// key) are shown, and the counts agree with jq. On the old code the
// text was "a list of N values", one value a line.
func TestTaggedColonRecords(t *testing.T) {
	var b strings.Builder
	b.WriteString("tru::1:1795668081:0:3:1:5\n")
	for i := 0; i < 30; i++ {
		bits, algo := "4096", "1"
		if i%5 == 0 {
			bits, algo = "255", "22"
		}
		fmt.Fprintf(&b, "pub:-:%s:%s:%016X:%d:::-:::scSC::::::23::0:\n", bits, algo, 0xAB00+i, 1600000000+i*1000)
		fmt.Fprintf(&b, "fpr:::::::::%040X:\n", 0xCD00+i)
		fmt.Fprintf(&b, "uid:-::::%d::%040X::Key %d <k%d@example.org>::::::::::0:\n", 1600000000+i*1000, i, i, i)
	}
	data := []byte(b.String())
	p := analyzeText(data, nil)
	if p.tagged == nil {
		t.Fatal("not read as tagged records")
	}
	if got := len(jqLines(t, data, `.[] | select(startswith("pub:")) | select(split(":")[2] == "255")`)); got != 6 {
		t.Fatalf("jq counts %d keys of 255 bits, want 6", got)
	}
	text := fillText(t, data, 1200)
	for _, want := range []string{
		"lines by their type (field 1; exact): pub 30, fpr 30, uid 30, tru 1",
		`pub (30 lines): field 2: "-" 30; field 3: "4096" 24, "255" 6; field 4: "1" 24, "22" 6`,
		"\t[smallest field 6 of pub]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view lacks %q:\n%s", want, text)
		}
	}
}

// TestTemplatePhrases: two varying positions of a template whose values
// go together ("still reachable", "possibly lost") are stated as one
// phrase with its exact count of lines, which jq confirms; on the old
// code each word had its own list, and "still reachable 35" was stated
// nowhere.
func TestTemplatePhrases(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		kind := "still reachable"
		if i%8 == 0 {
			kind = "possibly lost"
		}
		fmt.Fprintf(&b, "%d bytes in %d blocks are %s in loss record %d of 40\n", 8*i, 1+i%3, kind, i)
	}
	data := []byte(b.String())
	p := analyzeText(data, nil)
	var got string
	for _, c := range p.miner.clusters {
		if c.count == 40 {
			got = c.slotValues()
		}
	}
	if !strings.Contains(got, `(2 values): still reachable 35, possibly lost 5`) {
		t.Errorf("template values %q: no phrase", got)
	}
	if n := len(jqLines(t, data, `.[] | select(test(" are still reachable in "))`)); n != 35 {
		t.Errorf("jq finds %d lines still reachable, want 35", n)
	}
}

// TestFewValuesWithTemplate: the values of a top template's position of
// few values (a distribution) come with the template, before the rest of
// the census; on the old code they came at the second priority, after
// the index, and a 4,000-token view of valgrind's 1,090 loss records did
// not say how many were "possibly lost".
func TestFewValuesWithTemplate(t *testing.T) {
	var b strings.Builder
	b.WriteString("Memcheck, a memory error detector\n\n")
	for i := 1; i <= 300; i++ {
		kind := "possibly lost"
		switch {
		case i%50 == 0:
			kind = "definitely lost"
		case i%7 == 0:
			kind = "still reachable"
		}
		fmt.Fprintf(&b, "%d bytes in %d blocks are %s in loss record %d of 300\n   at 0x48417B4: malloc (in /usr/lib/vg.so)\n   by 0x%X: f%d (a.c:%d)\n\n", 8*i, 1+i%3, kind, i, 0x1000+i, i%40, i)
	}
	text := fillText(t, []byte(b.String()), 1200)
	if !strings.Contains(text, "possibly lost 252, still reachable 42, definitely lost 6") {
		t.Errorf("the view at 1,200 tokens does not state the kinds of loss records:\n%s", text)
	}
}

// TestSeveritySlotAmongProgress: cppcheck's diagnostics "file:line:col:
// severity: message [id]" among its progress lines: the word after the
// location is the level; style and information are no error lines (the
// one error is), the diagnostics are counted by file, by that word and
// by their checker's id. On the old code every located line was an
// error line and, at under a quarter of the lines, none was counted.
func TestSeveritySlotAmongProgress(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&b, "Checking src/f%d.c ...\n%d/120 files checked %d%% done\n", i, i+1, (i+1)*100/120)
		switch {
		case i%5 == 0:
			fmt.Fprintf(&b, "src/f%d.c:%d:9: style: struct member 'x' is never used. [unusedStructMember]\n", i, i+3)
		case i%7 == 0:
			fmt.Fprintf(&b, "src/f%d.c:%d:1: information: Include file not found. [missingIncludeSystem]\n", i, i+1)
		}
	}
	b.WriteString("src/sig.c:44:5: error: Uninitialized variable: thread_state [uninitvar]\n")
	data := []byte(b.String())
	p := analyzeText(data, nil)
	if p.errors != 1 {
		var ls []string
		for _, nb := range p.notables {
			ls = append(ls, nb.text)
		}
		t.Errorf("error lines %d, want 1: %q", p.errors, ls)
	}
	if got := len(jqLines(t, data, p.severityQuery(sevError))); got != p.errors {
		t.Errorf("the view's query finds %d error lines, the profile %d", got, p.errors)
	}
	text := fillText(t, data, 2500)
	for _, want := range []string{"lines by code (exact): unusedStructMember 24, missingIncludeSystem 14, uninitvar 1", "in 39 files", "by the first words after the location (exact): style: 24, information: 14, error: 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("the view lacks %q:\n%s", want, text)
		}
	}
}

// TestErrorQueryShortWithoutLocations: the query of the error lines
// tests the demotion of "file:line:col: warning:" only when some line
// starts with such a location (every printed query costs the budget;
// on the old code every text's query carried it).
func TestErrorQueryShortWithoutLocations(t *testing.T) {
	plain := []byte(strings.Repeat("E: cannot open lock file\nI: reading package lists\n", 15))
	p := analyzeText(plain, nil)
	if q := p.severityQuery(sevError); strings.Contains(q, jqString(demotePattern)) {
		t.Errorf("the query tests the demotion with no located line: %s", q)
	}
	if got := len(jqLines(t, plain, p.severityQuery(sevError))); got != p.errors || got != 15 {
		t.Errorf("the query finds %d error lines, the profile %d, want 15", got, p.errors)
	}
	located := []byte("a.c:1:2: warning: unused x\na.c:3:4: error: bad y\n" + string(plain))
	p = analyzeText(located, nil)
	if q := p.severityQuery(sevError); !strings.Contains(q, jqString(demotePattern)) {
		t.Errorf("the query lacks the demotion with located lines: %s", q)
	}
	if got := len(jqLines(t, located, p.severityQuery(sevError))); got != p.errors || got != 16 {
		t.Errorf("the query finds %d error lines, the profile %d, want 16", got, p.errors)
	}
}

// TestTaggedDistinctPastCap: a field's distinct values are counted up to
// maxTagDistinct; past it the view says "at least", never a capped count
// as if exact (70,000 distinct fingerprints were "65,536 distinct").
func TestTaggedDistinctPastCap(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 70000; i++ {
		if i%1000 == 0 {
			fmt.Fprintf(&b, "pub:-:4096:1:%016X:%d:::-:::scSC::::::23::0:\n", i, 1600000000+i)
		}
		fmt.Fprintf(&b, "fpr:::::::::%040X:\n", i)
	}
	text := fillText(t, []byte(b.String()), 4000)
	if strings.Contains(text, ": 65,536 distinct") {
		t.Errorf("a capped distinct count stated as exact:\n%s", text)
	}
	if !strings.Contains(text, "at least 65,536 distinct values") {
		t.Errorf("the view lacks the fingerprints' distinct count as a bound:\n%s", text)
	}
}

// TestBigIntegerExtremes: integers past 2^53 (19-digit ids) are compared
// as integers: the largest is the one row that holds it, not every row
// whose value rounds to the same float ("max ... (30 rows)").
func TestBigIntegerExtremes(t *testing.T) {
	var b strings.Builder
	b.WriteString("NAME     SIZE   ID\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "job-%02d   %d   %d\n", i, 100+i*7%13, 1700000000000000000+i)
	}
	text := fillText(t, []byte(b.String()), 4000)
	if strings.Contains(text, "1700000000000000000 (30 rows)") {
		t.Errorf("30 distinct ids stated as one extreme:\n%s", text)
	}
	if !strings.Contains(text, "1700000000000000029") {
		t.Errorf("the view lacks the largest id:\n%s", text)
	}
}
