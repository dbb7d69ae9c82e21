package view

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// requestLog is a load tester's log (siege -v's lines): 400 requests,
// 200 of them answered 200 and the others 404 for a few paths, the
// largest response (9999999 bytes) given 8 times, and per 404 path how
// many times it was asked for.
func requestLog() (data []byte, notFound map[string]int, largestAt, largest int) {
	r := rand.New(rand.NewSource(21))
	missing := []string{"/.env", "/admin/", "/wp-login.php", "/old/README"}
	notFound = map[string]int{}
	largestAt = -1
	var b strings.Builder
	for i := 0; i < 400; i++ {
		status, size, path := 200, 1000+r.Intn(90000), fmt.Sprintf("/pkg%d/copyright", r.Intn(120))
		switch {
		case i%23 == 5:
			status, size, path = 404, 335, missing[r.Intn(len(missing))]
			notFound[path]++
		case i%50 == 17:
			size, path = 9999999, "/gdb/check.log.gz"
			if largestAt < 0 {
				largestAt = i
			}
			largest++
		}
		fmt.Fprintf(&b, "HTTP/1.1 %d     0.%02d secs: %7d bytes ==> GET  %s\n", status, r.Intn(3), size, path)
	}
	return []byte(b.String()), notFound, largestAt, largest
}

// TestRareValueHolders: the rows with a rare value of a column of few
// values (status 404 among 200s) are named by the table's column of
// names, every one counted (which paths got 404, how many times each),
// not only the first three rows. On the code before, the view showed
// three 404 rows and no line named the other paths.
func TestRareValueHolders(t *testing.T) {
	data, notFound, _, _ := requestLog()
	n := 0
	var paths []keyCount
	for p, c := range notFound {
		n += c
		paths = append(paths, keyCount{p, c})
	}
	sort.Slice(paths, func(i, j int) bool {
		if paths[i].n != paths[j].n {
			return paths[i].n > paths[j].n
		}
		return paths[i].k < paths[j].k
	})
	var parts []string
	for _, p := range paths {
		parts = append(parts, fmt.Sprintf("%q %d", p.k, p.n))
	}
	want := fmt.Sprintf(`column 2 "404" (%d rows), by their column 9: %s`, n, strings.Join(parts, ", "))
	got := fillText(t, data, 4000)
	if !strings.Contains(got, want) {
		t.Errorf("the view lacks %q:\n%s", want, got)
	}
}

// TestTiedMaximumRow: the largest response of the log, given 8 times
// (more than the 5 rows shown at an extreme, few of all), is shown by
// its first row. On the code before, no row at the maximum was shown
// when more than 5 shared it.
func TestTiedMaximumRow(t *testing.T) {
	data, _, at, n := requestLog()
	got := fillText(t, data, 4000)
	want := fmt.Sprintf("  %d\t", at)
	i := strings.Index(got, want)
	if i < 0 {
		t.Fatalf("the view lacks the row of line %d:\n%s", at, got)
	}
	line := got[i : i+strings.IndexByte(got[i:], '\n')]
	if !strings.Contains(line, "/gdb/check.log.gz") || !strings.Contains(line, fmt.Sprintf("largest column 5 (bytes) (9999999), the first of %d rows at it", n)) {
		t.Errorf("row %q, want the largest, the first of %d", line, n)
	}
}

// TestPathFileNameEnds: a table of functions with their location
// ("pkg func dir/file_test.go:12:1", gocyclo's) counts its rows by the
// end of the file's name, the location cut ("_test.go"), every row. On
// the code before, the ends were counted on whole values (the location
// made each end its own) and not at all past 4,096 distinct values.
func TestPathFileNameEnds(t *testing.T) {
	var b strings.Builder
	tests, unix := 0, 0
	for i := 0; i < 5000; i++ {
		file := fmt.Sprintf("net/http/f%d.go", i%37)
		switch {
		case i%3 == 0:
			file = fmt.Sprintf("net/http/f%d_test.go", i%41)
			tests++
		case i%17 == 0:
			file = fmt.Sprintf("net/sock%d_unix.go", i%5)
			unix++
		}
		fmt.Fprintf(&b, "%d http F%d %s:%d:1\n", 1+i%30, i, file, 10+i)
	}
	got := fillText(t, []byte(b.String()), 4000)
	want := fmt.Sprintf(`column 4, rows by the end of the file's name (from its last _ or -): "_test.go" %s, "_unix.go" %s; %s rows without one`, commas(tests), commas(unix), commas(5000-tests-unix))
	if !strings.Contains(got, want) {
		t.Errorf("the view lacks %q:\n%s", want, got)
	}
}

// flagsTable is java -XX:+PrintFlagsFinal's form: "type Name = value
// {kinds} {origin}", the value empty for some, the kinds of one or two
// words, then two version lines.
func flagsTable() (data []byte, origins, kinds map[string]int, cmdline []string) {
	origins, kinds = map[string]int{}, map[string]int{}
	var b strings.Builder
	b.WriteString("[Global flags]\n")
	kindsOf := []string{"product", "diagnostic", "C2 product", "C2 diagnostic", "pd product", "manageable"}
	for i := 0; i < 300; i++ {
		typ, val := "intx", fmt.Sprint(i*7%101)
		switch {
		case i%3 == 0:
			typ, val = "bool", []string{"true", "false"}[i%2]
		case i%11 == 0:
			typ, val = "ccstr", ""
		}
		kind := kindsOf[i*7%len(kindsOf)]
		origin := "default"
		switch {
		case i%97 == 5:
			origin = "command line"
			cmdline = append(cmdline, fmt.Sprintf("Flag%03d", i))
		case i%29 == 3:
			origin = "ergonomic"
		}
		origins[origin]++
		kinds[kind]++
		fmt.Fprintf(&b, "%9s %-40s = %-30s {%s} {%s}\n", typ, fmt.Sprintf("Flag%03d", i), val, kind, origin)
	}
	b.WriteString("openjdk version \"17.0.15\" 2025-04-15\nOpenJDK 64-Bit Server VM (build 17.0.15+6, mixed mode, sharing)\n")
	return []byte(b.String()), origins, kinds, cmdline
}

// TestTrailingGroupsAreColumns: the groups in braces a table's rows end
// with are columns of their own (the flag's kinds, its origin), counted
// per value; a group of two words is one value; the lines that do not
// end with them are no rows; the column of kinds is also counted by its
// last word, and the origin's rare value names its flags. On the code
// before, the value and both groups were one column of the rest ("true
// {C2 product} {default}"), and the version lines were rows.
func TestTrailingGroupsAreColumns(t *testing.T) {
	data, origins, kinds, cmdline := flagsTable()
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.peel == nil || cp.split.k != 6 {
		t.Fatalf("not a table of 6 columns with 2 groups split off: %+v", cp)
	}
	if cp.rows != 300 {
		t.Errorf("%d rows, want 300 (not the version lines)", cp.rows)
	}
	got := fillText(t, data, 6000)
	var cmd []string
	for _, f := range cmdline {
		cmd = append(cmd, fmt.Sprintf("%q 1", f))
	}
	diag := kinds["diagnostic"] + kinds["C2 diagnostic"]
	prod := kinds["product"] + kinds["C2 product"] + kinds["pd product"]
	for _, want := range []string{
		fmt.Sprintf(`column 6: "default" %d, "ergonomic" %d, "command line" %d`, origins["default"], origins["ergonomic"], origins["command line"]),
		fmt.Sprintf(`column 6 "command line" (%d rows), by their column 2: %s`, len(cmdline), strings.Join(cmd, ", ")),
		fmt.Sprintf(`column 5 by its last word (exact counts of rows): product %d, diagnostic %d, manageable %d`, prod, diag, kinds["manageable"]),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
	// Go's split and the queries' agree on every line.
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := cp.split.fields(l)
		var q []any
		for _, x := range runJQ(t, l, cp.split.jqFields()) {
			q = append(q, x.([]any)...)
		}
		if fmt.Sprint(f) != fmt.Sprint(q) && !(f == nil && q == nil) {
			t.Errorf("line %q: fields %q, the query %q", l, f, q)
		}
	}
}
