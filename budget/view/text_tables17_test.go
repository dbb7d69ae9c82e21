package view

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// atof is the number v is, or 0.
func atof(v string) float64 {
	f, _ := strconv.ParseFloat(v, 64)
	return f
}

// readFixture reads a file of testdata (the captures of
// testdata/README.md).
func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDelimitedTableHeaderless: a CSV with no header row, whose cells
// hold spaces (stat -c '%n,%F,%s,%U,%G,%a,%y' /etc/*: "regular file",
// "2026-11-26 16:28:07.49 +0000"), is a table of its comma-separated
// cells, named "column N"; every count is the count of the cells split at
// the commas, and the query of the rows yields every line. On the old
// code it was split at runs of spaces (4 to 7 pieces: "file,4096,root,…"
// in one column, the owner never a column of its own).
func TestDelimitedTableHeaderless(t *testing.T) {
	data := readFixture(t, "stat-csv-etc.txt")
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	types, owners := map[string]int{}, map[string]int{}
	for _, l := range lines {
		f := strings.Split(l, ",")
		types[f[1]]++
		owners[f[3]]++
	}
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.mode != byBar || cp.split.sep != "," || cp.split.k != 7 || cp.split.header != nil {
		t.Fatalf("not a table of 7 comma-separated columns: %+v", cp)
	}
	if cp.rows != len(lines) {
		t.Errorf("%d rows, want %d", cp.rows, len(lines))
	}
	got := fillText(t, data, 4000)
	for _, want := range []string{
		fmt.Sprintf(`column 2: "directory" %d, "regular file" %d, "symbolic link" %d, "regular empty file" %d`, types["directory"], types["regular file"], types["symbolic link"], types["regular empty file"]),
		fmt.Sprintf(`column 4: "root" %d, "postgres" %d, "redis" %d`, owners["root"], owners["postgres"], owners["redis"]),
		`split at ",", cells trimmed`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
	// The rows as the view's queries split them: every line, 7 cells.
	rows := jqLines(t, data, fmt.Sprintf(`[.[] | %s] | length`, cp.split.jqFields()))
	if len(rows) != 1 || fmt.Sprint(rows[0]) != fmt.Sprint(len(lines)) {
		t.Errorf("the query's rows: %v, want %d", rows, len(lines))
	}
	owner := jqLines(t, data, fmt.Sprintf(`[.[] | %s] | map(select(. == "postgres")) | length`, cp.split.jqField(3)))
	if len(owner) != 1 || fmt.Sprint(owner[0]) != "1" {
		t.Errorf("column 4's query: %v postgres rows, want 1", owner)
	}
}

// TestDelimitedNotAtClocks: a colon separates the cells of lines of
// colon-separated records (/etc/passwd's form) but not of a table whose
// lines start with a time of day, where each line would split into the
// same three pieces ("07", "30", "07 all 61.69 …"); a comma inside free
// text makes no table either.
func TestDelimitedNotAtClocks(t *testing.T) {
	var passwd, clocks, prose strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&passwd, "user%02d:x:%d:%d:User %d,,,:/home/user%02d:/bin/bash\n", i, 1000+i, 1000+i, i, i)
		fmt.Fprintf(&clocks, "07:30:%02d     all   %d.50    0.00   %d.25\n", i, 40+i, 30-i)
		fmt.Fprintf(&prose, "line %d of a log, with %s words, and a comma or two\n", i, strings.Repeat("more ", i%4))
	}
	sp := detectColumns([]byte(passwd.String()), textPlain)
	if sp == nil || sp.mode != byBar || sp.sep != ":" || sp.k != 7 {
		t.Errorf("passwd-like lines: %+v, want 7 columns split at \":\"", sp)
	}
	if sp := detectColumns([]byte(clocks.String()), textPlain); sp == nil || sp.mode != bySpaces || sp.k != 5 {
		t.Errorf("lines of times: %+v, want 5 columns split at spaces", sp)
	}
	if sp := detectColumns([]byte(prose.String()), textPlain); sp != nil && sp.mode == byBar {
		t.Errorf("prose with commas split at %q", sp.sep)
	}
}

// TestRepeatedHeaderNamesColumns: sar -P ALL prints its header line (the
// interval's time, then CPU %user %nice …) above every interval's rows.
// The header names the columns (the time is no name: "column 1"), its
// repetitions are no rows (in the view and in its queries), nor are the
// rows of the Average block at the end (a word where every row has its
// time: a summary), and the counts are of the intervals' rows only; each
// numeric column states its least and greatest value per CPU (the rows
// at the least, the time at the greatest), not a sum of percentages. On
// the old code every header line
// was a row ("CPU" a value of column 2, "%user" one of column 3) and the
// columns had no names.
func TestRepeatedHeaderNamesColumns(t *testing.T) {
	data := readFixture(t, "sar-P-ALL-8.txt")
	rowRe := regexp.MustCompile(`^(\d\d:\d\d:\d\d) +(all|\d+) +`)
	rows, all, heads := 0, 0, 0
	steal := map[string]map[string]int{} // %steal's values per CPU
	for _, l := range strings.Split(string(data), "\n") {
		if m := rowRe.FindStringSubmatch(l); m != nil {
			rows++
			if m[2] == "all" {
				all++
			}
			f := strings.Fields(l)
			if steal[f[1]] == nil {
				steal[f[1]] = map[string]int{}
			}
			steal[f[1]][f[6]]++
		} else if regexp.MustCompile(`^\d\d:\d\d:\d\d +CPU `).MatchString(l) {
			heads++ // (not the Average block's: another line)
		}
	}
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.header == nil || strings.Join(cp.split.header, ",") != ",CPU,%user,%nice,%system,%iowait,%steal,%idle" {
		t.Fatalf("header not found: %+v", cp)
	}
	if cp.rows != rows {
		t.Errorf("%d rows, want %d (%d header lines are none)", cp.rows, rows, heads)
	}
	// Per CPU, %steal's least and greatest value (the rows at the least).
	var ranges []string
	for _, cpu := range []string{"0", "1", "all"} {
		lo, hi := "", ""
		for v := range steal[cpu] {
			if lo == "" || atof(v) < atof(lo) {
				lo = v
			}
			if hi == "" || atof(v) > atof(hi) {
				hi = v
			}
		}
		r := fmt.Sprintf("%q %s", cpu, lo)
		if n := steal[cpu][lo]; n > 1 {
			r += fmt.Sprintf(" (%d rows)", n)
		}
		if hi != lo {
			r += " to " + hi + " (at "
		}
		ranges = append(ranges, r)
	}
	got := fillText(t, data, 4000)
	for _, want := range append([]string{
		fmt.Sprintf(`CPU: "0" %d, "1" %d, "all" %d`, all, all, all),
		"header at line 2",
		"column 1:",
		"; by CPU (min, rows at it, to max, at its first row's column 1): ",
	}, ranges...) {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"%user"`) || strings.Contains(got, `"CPU" `) {
		t.Errorf("a header line is counted as a row:\n%s", got)
	}
	q := jqLines(t, data, fmt.Sprintf(`[.[] | %s] | length`, cp.split.jqFields()))
	if len(q) != 1 || fmt.Sprint(q[0]) != fmt.Sprint(rows) {
		t.Errorf("the query's rows: %v, want %d", q, rows)
	}
}

// TestRepeatedHeaderTwoLines: vmstat repeats its two header lines (the
// groups "procs -----memory----- …" and the names "r b swpd free …")
// every 21 rows. The names are the header (the widest repeated line, not
// the groups above it), and neither line is a row. On the old code the
// rows were split into the 7 groups' columns.
func TestRepeatedHeaderTwoLines(t *testing.T) {
	data := readFixture(t, "vmstat-1-46.txt")
	rows := 0
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 17 && f[0] != "r" {
			rows++
		}
	}
	cp := analyzeText(data, nil).cols
	if cp == nil || cp.split.header == nil || cp.split.header[0] != "r" || cp.split.k != 17 {
		t.Fatalf("header not found: %+v", cp)
	}
	if cp.rows != rows {
		t.Errorf("%d rows, want %d", cp.rows, rows)
	}
	q := jqLines(t, data, fmt.Sprintf(`[.[] | %s] | length`, cp.split.jqFields()))
	if len(q) != 1 || fmt.Sprint(q[0]) != fmt.Sprint(rows) {
		t.Errorf("the query's rows: %v, want %d", q, rows)
	}
}

// TestRepeatedHeaderRangesNeedNumbers: a column of a series with a cell
// that is no number ("-" late in %steal) states no ranges per CPU: they
// would be those of the rows before that cell (rev17 R8: the ranges were
// kept, frozen there, while the sums were dropped).
func TestRepeatedHeaderRangesNeedNumbers(t *testing.T) {
	data := readFixture(t, "sar-P-ALL-8.txt")
	lines := strings.Split(string(data), "\n")
	done := false
	for i := len(lines) - 1; i >= 0 && !done; i-- {
		if f := strings.Fields(lines[i]); len(f) == 8 && f[1] == "1" && strings.Contains(f[0], ":") && !strings.HasPrefix(f[0], "Average") {
			f[6] = "-"
			lines[i] = strings.Join(f, "      ")
			done = true
		}
	}
	if !done {
		t.Fatal("no row of CPU 1 to change")
	}
	got := fillText(t, []byte(strings.Join(lines, "\n")), 4000)
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "%steal:") && strings.Contains(l, "; by CPU") {
			t.Errorf("a column with a \"-\" cell states ranges per CPU:\n%s", l)
		}
		if strings.HasPrefix(strings.TrimSpace(l), "%user:") && !strings.Contains(l, "; by CPU") {
			t.Errorf("a column of numbers states no ranges per CPU:\n%s", l)
		}
	}
}
