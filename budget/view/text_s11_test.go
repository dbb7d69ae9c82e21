package view

import (
	"fmt"
	"strings"
	"testing"
)

// biomeText is a linter's report shaped as biome prints it: each
// diagnostic a record whose first line is "file:line:col group/rule",
// then its message, an excerpt of the source and hints (18 non-blank
// lines), so that under a tenth of the lines have a source location.
func biomeText() []byte {
	var b strings.Builder
	rules := []string{"lint/suspicious/noExplicitAny", "lint/style/useImportType", "lint/style/useImportType", "lint/suspicious/noExplicitAny", "lint/complexity/noUselessConstructor"}
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "src/internal/mod%02d.ts:%d:%d %s  FIXABLE  ━━━━━━━━━━━━━━━━━━━━\n\n", i%13, 10+i, 3+i%5, rules[i%5])
		b.WriteString("  ! Unexpected any. Specify a different type.\n  \n")
		for k := 0; k < 14; k++ {
			fmt.Fprintf(&b, "    %d │   const value%d: any = compute(%d);\n", 8+k, k, k)
		}
		b.WriteString("  \n  i any disables many type checking rules. Its use should be avoided.\n  \n\n")
	}
	b.WriteString("Checked 13 files in 18ms. No fixes applied.\nFound 40 warnings.\n")
	return []byte(b.String())
}

// TestLocatedRecordHeaders: diagnostics that each start a record above
// their source excerpt (biome: under a tenth of the non-blank lines have
// a location) are counted by file and by rule, and the census is shown
// at a small budget, before the records; rustc's and clippy's "-->"
// lines are locations. On the old code the located lines were counted
// only when a tenth of the lines had one, with the templates (after the
// records), and "-->" lines and biome's rules were not read.
func TestLocatedRecordHeaders(t *testing.T) {
	data := biomeText()
	p := analyzeText(data, nil)
	if p.locs.lines != 40 {
		t.Fatalf("%d located lines, want 40", p.locs.lines)
	}
	if n := p.locs.codes["lint/style/useImportType"]; n != 16 {
		t.Errorf("lint/style/useImportType counted %d times, want 16 (codes %v)", n, p.locs.codes)
	}
	got := fillText(t, data, 1500)
	for _, want := range []string{
		"lines with a source location (file:line[:col] or file(line,col)): 40, in 13 files",
		"src/internal/mod00.ts 4 (highest line 49)",
		"lines by code (exact): lint/style/useImportType 16, lint/suspicious/noExplicitAny 16, lint/complexity/noUselessConstructor 8",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view at 1,500 lacks %q:\n%s", want, got)
		}
	}
	for line, want := range map[string][3]string{
		" --> src/unicode_tables/age.rs:9:21":   {"src/unicode_tables/age.rs", "9", ""},
		"   --> src/hir/mod.rs:120:5":           {"src/hir/mod.rs", "120", ""},
		"  --> src/main.rs:3: unused":           {"src/main.rs", "3", "unused"},
		"--> not a location":                    {},
		" --> 12:30 later":                      {},
		"src/a.ts:4:2 lint/style/useImportType": {"src/a.ts", "4", "lint/style/useImportType"},
	} {
		f, n, m, ok := location(line)
		if got := [3]string{f, fmt.Sprint(n), m}; ok != (want[0] != "") || ok && got != want {
			t.Errorf("location(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
	for msg, want := range map[string]string{
		"lint/suspicious/noExplicitAny  FIXABLE  ━━━━": "lint/suspicious/noExplicitAny",
		"lint/style/useImportType ━━━━":                "lint/style/useImportType",
		"src/pkg/util is imported twice":               "",
		"see docs/guide/setup for more":                "",
	} {
		if got := diagCode(msg); got != want {
			t.Errorf("diagCode(%q) = %q, want %q", msg, got, want)
		}
	}
}

// aproposText is apropos -l output: "name (section) - description",
// the names padded to 20 columns, some longer; descriptions are prose
// with words such as "error".
func aproposText() []byte {
	var b strings.Builder
	sections := []string{"3", "3", "3", "3pm", "3pm", "8", "2", "7", "5"}
	descs := []string{"print a system error message", "formatted error messages", "wait for an I/O event on an epoll file descriptor", "low-level error handlers", "Perl YAML Serialization using XS and libyaml"}
	for i := 0; i < 90; i++ {
		name := fmt.Sprintf("page_%02d (%s)", i, sections[i%len(sections)])
		if i%10 == 3 {
			name = fmt.Sprintf("Some::Long::Perl::Module%02d (%s)", i, sections[i%len(sections)])
		}
		fmt.Fprintf(&b, "%-20s - %s\n", name, descs[i%len(descs)])
	}
	for _, sec := range []string{"3t", "3const", "5ssl", "7ssl", "3type", "3perl", "3head", "3readline", "2type", "7edit"} {
		fmt.Fprintf(&b, "%-20s - a page of its own section\n", "one_"+sec+" ("+sec+")")
	}
	b.WriteString("ldattach (8)         - attach a line discipline to a serial line\n")
	b.WriteString("ed (5edit)           - - line-oriented text editor\n")
	return []byte(b.String())
}

// TestSeparatorWordTable: lines of a few names, a separator word and a
// description (apropos, whatis) are a table: the section column is
// counted with every value (17 values: up to 24 are listed whole,
// where 12 were before), and
// the words of a description ("print a system error message") are no
// error lines. On the old code such lines were no table (no numeric
// column) and 36 descriptions were error lines.
func TestSeparatorWordTable(t *testing.T) {
	data := aproposText()
	p := analyzeText(data, nil)
	if p.cols == nil || p.cols.split.k != 4 || !p.cols.split.described {
		t.Fatalf("not read as a table of 4 columns: %+v", p.cols)
	}
	if p.errors != 0 || p.warns != 0 {
		t.Errorf("%d error and %d warning lines counted in descriptions", p.errors, p.warns)
	}
	if p.cols.rows != 102 {
		t.Errorf("%d rows, want 102", p.cols.rows)
	}
	got := fillText(t, data, 2000)
	for _, want := range []string{
		`column 2: "(3)" 30, "(3pm)" 20, "(8)" 11, "(2)" 10, "(5)" 10, "(7)" 10, `,
		`"(2type)" 1, "(3const)" 1, "(3head)" 1, "(3perl)" 1, "(3readline)" 1, "(3t)" 1, "(3type)" 1, "(5edit)" 1, "(5ssl)" 1, "(7edit)" 1, "(7ssl)" 1`,
		"a table of 102 rows, 4 columns",
		"have a severity word only in their columns",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// cprofileText is python -m cProfile -s tottime output: a summary line
// and a sort line above the header, then rows whose first cell is a
// count or "all/primitive" calls (wider than its column: no leading
// space).
func cprofileText() []byte {
	var b strings.Builder
	b.WriteString("         1369 function calls (1327 primitive calls) in 0.247 seconds\n\n   Ordered by: internal time\n\n")
	b.WriteString("   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n")
	for i := 0; i < 40; i++ {
		calls := fmt.Sprintf("%d", 1+i%7)
		switch i {
		case 3:
			calls = "40/10"
		case 9:
			calls = "1200/1180"
		}
		fmt.Fprintf(&b, "%9s    0.%03d    0.000    0.%03d    0.000 mod%d.py:%d(func%d)\n", calls, 40-i, 41-i, i%4, 10+i, i)
	}
	b.WriteString("\n\n")
	return []byte(b.String())
}

// TestTableHeaderBelowProse: a table whose header comes after prose
// (cProfile: a summary line whose words fall in numeric columns, then
// "Ordered by", then the header) is read under that header, the lines
// with a word where every row has a number are no rows, and a count
// written "N/M" is read as N (and said so). On the old code the summary
// and the header were rows ("no header line"), the summary's 1369 the
// largest value of column 1, and "1200/1180" no number.
func TestTableHeaderBelowProse(t *testing.T) {
	data := cprofileText()
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || strings.Join(cp.split.header, ",") != "ncalls,tottime,percall,cumtime,percall,filename:lineno(function)" || cp.split.headPos != 4 {
		t.Fatalf("header not found: %+v", cp)
	}
	if cp.rows != 40 {
		t.Errorf("%d rows, want 40", cp.rows)
	}
	got := fillText(t, data, 2000)
	for _, want := range []string{
		"ncalls: (2 written N/M: the first number counted) numbers, 9 distinct values: 1 6, 2 6, 5 6, 3 5, 4 5, 6 5, 7 5, 1200/1180 1, 40/10 1; sum 1388",
		"[largest ncalls (1200/1180)]",
		"header at line 4",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
	// The rows as the view's queries split them: the same 40.
	rows := jqLines(t, data, fmt.Sprintf(`[.[] | %s] | length`, cp.split.jqFields()))
	if len(rows) != 1 || fmt.Sprint(rows[0]) != "40" {
		t.Errorf("the query's rows: %v, want 40", rows)
	}
}

// TestGoTestRunsOnceNotListed: in go test -v text whose tests each ran
// once with no subtests, the "top-level tests by their runs" lines are
// not spent listing every name with "1"; a test run more often or with
// subtests is listed, and the others are counted in the head. On the
// old code all 60 names were listed with their 1.
func TestGoTestRunsOnceNotListed(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "=== RUN   TestCase%03d\n--- PASS: TestCase%03d (0.00s)\n", i, i)
	}
	b.WriteString("=== RUN   TestTable\n=== RUN   TestTable/a\n=== RUN   TestTable/b\n--- PASS: TestTable (0.00s)\n    --- PASS: TestTable/a (0.00s)\n    --- PASS: TestTable/b (0.00s)\n")
	b.WriteString("PASS\nok  \texample.com/pkg\t0.012s\n")
	got := fillText(t, []byte(b.String()), 4000)
	if !strings.Contains(got, "showing 1 of 1 tests run more than once or with subtests; 60 other tests ran at most once, with no subtests, not listed") {
		t.Errorf("the runs' head does not count the tests run once:\n%s", got)
	}
	if !strings.Contains(got, "  TestTable 1 (subtest runs: 2)") {
		t.Errorf("TestTable is not listed with its subtests:\n%s", got)
	}
	if strings.Contains(got, "TestCase007 1") {
		t.Errorf("a test run once is listed:\n%s", got)
	}
}

// TestSeverityNotInIdentifiers: a symbol named with ERR_ or ending in
// Error inside a longer identifier (readelf's relocations of OpenSSL's
// ERR_peek_error, zstd's ZSTD_isError) is no error line; an ERR_ code in
// capitals, an exception's name and a Java error at the end of a line
// still are. On the old code the first two were error lines (11 of
// readelf -a's relocation and symbol rows, shown first).
func TestSeverityNotInIdentifiers(t *testing.T) {
	for line, want := range map[string]int{
		"00000000000aafb8  0000001800000007 R_X86_64_JUMP_SLOT     0000000000000000 ERR_peek_error@OPENSSL_3.0.0 + 0": sevNone,
		"   512: 0000000000000000     0 FUNC    GLOBAL DEFAULT  UND ZSTD_isError":                                     sevNone,
		"   513: 0000000000000000     0 FUNC    GLOBAL DEFAULT  UND ERR_get_error@OPENSSL_3.0.0 (6)":                  sevNone,
		"npm ERR! code ERR_SOCKET_TIMEOUT":                          sevError,
		"  code: 'ERR_MODULE_NOT_FOUND',":                           sevError,
		"Exception in thread \"main\" java.lang.StackOverflowError": sevError,
		"TypeError: Cannot read properties of undefined":            sevError,
		"raise ValueError:":                                         sevError,
	} {
		if got := lineSeverity(line); got != want {
			t.Errorf("%q: severity %d, want %d", line, got, want)
		}
	}
}

// TestTableHeaderBelowProseFieldQueries: every column's query (jqField)
// yields the column's values over the rows the view counts, the lines
// with a word in a column of numbers left out as in jqFields.
func TestTableHeaderBelowProseFieldQueries(t *testing.T) {
	data := cprofileText()
	sp := analyzeText(data, nil).cols.split
	for i := 0; i < sp.k; i++ {
		got := jqLines(t, data, fmt.Sprintf(`[.[] | %s] | length`, sp.jqField(i)))
		if len(got) != 1 || fmt.Sprint(got[0]) != "40" {
			t.Errorf("column %d's query yields %v values, want 40", i+1, got)
		}
	}
}

// TestPytestFailureDetails: pytest -v prints a failed test's details in
// the FAILURES section under "____ Class.test ____", its source first
// and the error last ("E   AttributeError: …", "file:10:
// AttributeError"); the failed test's row shows those lines. On the old
// code the heading was not linked to the test ("Class.test" against
// "test") and the rows showed no details at all.
func TestPytestFailureDetails(t *testing.T) {
	var b strings.Builder
	b.WriteString("============================= test session starts ==============================\nplatform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0\ncollected 30 items\n\n")
	for i := 0; i < 30; i++ {
		st := "PASSED"
		if i%10 == 3 {
			st = "FAILED"
		}
		fmt.Fprintf(&b, "tests/test_codec.py::TestCodec::test_case%02d %s [%3d%%]\n", i, st, 3*i)
	}
	b.WriteString("\n=================================== FAILURES ===================================\n")
	for _, i := range []int{3, 13, 23} {
		fmt.Fprintf(&b, "____________________________ TestCodec.test_case%02d ____________________________\n\nself = <tests.test_codec.TestCodec object at 0x7f>\n\n    def test_case%02d(self):\n        data = self.build(%d)\n>       rval = self.loads(data)\nE       AttributeError: 'TestCodec' object has no attribute 'loads'\n\ntests/test_codec.py:%d: AttributeError\n", i, i, i, 10*i)
	}
	b.WriteString("=========================== short test summary info ============================\nFAILED tests/test_codec.py::TestCodec::test_case03 - AttributeError\n========================= 3 failed, 27 passed in 0.12s =========================\n")
	got := fillText(t, []byte(b.String()), 4000)
	for _, want := range []string{
		"tests/test_codec.py::TestCodec::test_case13 FAILED [ 39%]\n      E       AttributeError: 'TestCodec' object has no attribute 'loads'\n      tests/test_codec.py:130: AttributeError\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// TestNameValueRestColumns: lines of a name, a value and, in a tenth of
// them or more, further words (getent services: "discard 9/tcp sink
// null") are three columns, so the value's census is of the value
// alone ("#/tcp"); on the old code the aliases were glued to the value
// ("#/tcp sink null" a form of its own) and tcp was counted only in the
// rows without aliases.
func TestNameValueRestColumns(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		proto := "tcp"
		if i%3 == 2 {
			proto = "udp"
		}
		alias := ""
		if i%4 == 1 {
			alias = fmt.Sprintf(" alias%d other%d", i, i)
		}
		fmt.Fprintf(&b, "%-21s %d/%s%s\n", fmt.Sprintf("svc%d", i), 100+i, proto, alias)
	}
	data := []byte(b.String())
	p := analyzeText(data, nil)
	if p.cols == nil || p.cols.split.k != 3 || p.cols.split.minK != 2 || p.cols.rows != 60 {
		t.Fatalf("not 3 columns of 2 to 3 cells: %+v", p.cols)
	}
	got := fillText(t, data, 4000)
	if want := `column 2, rows by the value's form (each number written #): "#/tcp" 40, "#/udp" 20`; !strings.Contains(got, want) {
		t.Errorf("the view lacks %q:\n%s", want, got)
	}
	for i := 0; i < 3; i++ {
		n := jqLines(t, data, fmt.Sprintf(`[.[] | %s] | length`, p.cols.split.jqField(i)))
		if fmt.Sprint(n[0]) != "60" {
			t.Errorf("column %d's query: %v values, want 60", i+1, n)
		}
	}
}

// TestSeparatorWordNotALog: a log whose lines have a separator word among
// their first words (Python logging's default "time - name - LEVEL -
// message", "worker-1 = LEVEL message") is a log: its ERROR lines are
// error lines, counted and shown, not the descriptions of a table of
// names (the second read found every error line of such logs lost to the
// separator-word table of apropos).
func TestSeparatorWordNotALog(t *testing.T) {
	for _, form := range []string{
		"2024-03-01 12:%02d:%02d,%03d - myapp - %s - %s\n",
		"worker-%d%d%d = %s %s\n",
	} {
		var b strings.Builder
		errs := 0
		for i := 0; i < 200; i++ {
			lvl, msg := "INFO", []string{"request handled", "cache miss for key user", "connection reset by peer", "retrying job"}[i%4]
			if i%20 == 7 {
				lvl, msg = "ERROR", fmt.Sprintf("failed to write record %d: disk full", i)
				errs++
			}
			fmt.Fprintf(&b, form, i/60, i%60, i, lvl, msg)
		}
		p := analyzeText([]byte(b.String()), nil)
		if p.errors != errs {
			t.Errorf("%q: %d error lines, want %d", form, p.errors, errs)
		}
		if p.cols != nil && p.cols.split.described {
			t.Errorf("%q: read as a table of names and descriptions", form)
		}
	}
}
