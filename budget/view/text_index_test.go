package view_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// textIndexRows returns the line numbers the index section of a text
// view lists, with each line's text (its cells, space-separated). A line
// of a run of rows, "first-last<TAB>K rows with "c1" "c2": n1 n2 ...",
// is checked against the text's lines (isRow tells its rows): lines
// first-last hold exactly K rows, as many as names, and the names are
// joined by ", " exactly when one holds a space; each row is returned
// as "name c1 c2", for the caller to check its cells.
func textIndexRows(t *testing.T, text string, lines []string, isRow func(string) bool) map[int]string {
	t.Helper()
	rows := map[int]string{}
	i := strings.Index(text, "\nindex of the rows in line order")
	if i < 0 {
		return rows
	}
	for _, l := range strings.Split(text[i+1:], "\n")[1:] {
		pos, rest, ok := strings.Cut(strings.TrimPrefix(l, "  "), "\t")
		if !ok || !strings.HasPrefix(l, "  ") {
			break
		}
		if n, err := strconv.Atoi(pos); err == nil {
			rows[n] = rest
			continue
		}
		var from, to, k int
		if _, err := fmt.Sscanf(pos, "%d-%d", &from, &to); err != nil {
			break
		}
		m := runLineRe.FindStringSubmatch(rest)
		if m == nil {
			t.Fatalf("index line %q: no run of rows", l)
		}
		k, _ = strconv.Atoi(m[1])
		var cells []string
		for _, q := range quotedCellRe.FindAllString(m[2], -1) {
			c, err := strconv.Unquote(q)
			if err != nil {
				t.Fatalf("index line %q: cell %s: %v", l, q, err)
			}
			if c == "" {
				c = `""`
			}
			cells = append(cells, c)
		}
		var at []int
		for p := from; p <= to && p < len(lines); p++ {
			if isRow(lines[p]) {
				at = append(at, p)
			}
		}
		names := strings.Split(m[3], " ")
		if len(names) != k {
			names = strings.Split(m[3], ", ")
		} else if strings.Contains(m[3], ", ") && !strings.Contains(m[3], "…[+") {
			t.Errorf("index line %q: names joined by spaces hold \", \"", l)
		}
		if len(at) != k || len(names) != k || at[0] != from || at[k-1] != to {
			t.Fatalf("index line %q: %d rows in lines %d-%d (first %v), %d names, it says %d", l, len(at), from, to, at, len(names), k)
		}
		for j, p := range at {
			rows[p] = strings.Join(append([]string{names[j]}, cells...), " ")
		}
	}
	return rows
}

var (
	runLineRe    = regexp.MustCompile(`^([0-9]+) rows with ((?:"(?:[^"\\]|\\.)*" ?)+): (.*)$`)
	quotedCellRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
)

// TestTextIndexListsRowsInLineOrder: the index of a long text table
// (dpkg -l, 858 packages in name order) lists its rows in chunks of 20:
// the first right after the first 10 lines, then chunks spread over the
// whole table (the middle first, then the quarters, ...), each read
// again when the fill reaches it, the chosen rows in line order; a larger
// budget lists a superset; every listed line carries the package's
// name, version and architecture as awk's $2, $3, $4 of that line give
// them. At 4,000 tokens the index reaches the middle third of the
// table: on the code before (chunks in line order only), it listed the
// rows after the head and none past the first fifth, and a package
// looked up in the middle was in no index below 8,000 tokens.
func TestTextIndexListsRowsInLineOrder(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captured/dpkg-l.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	first, last := -1, 0 // the table's rows: the lines starting "ii "
	for i, l := range lines {
		if strings.HasPrefix(l, "ii ") {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	v, _ := viewOf(t, "../../testdata/captured/dpkg-l.txt")
	var prev map[int]string
	for _, b := range []int{4000, 6000, 8000} {
		f := fillAt(t, v, b)
		rows := textIndexRows(t, f.Text, lines, func(l string) bool { return strings.HasPrefix(l, "ii ") })
		if len(rows) == 0 {
			t.Fatalf("at %d: no index of the rows:\n%s", b, f.Text)
		}
		for pos := range prev {
			if _, ok := rows[pos]; !ok {
				t.Errorf("at %d: line %d is no longer listed", b, pos)
			}
		}
		prev = rows
		middle := 0
		for pos, text := range rows {
			fs := strings.Fields(lines[pos])
			if want := strings.Join(fs[1:4], " "); text != want {
				t.Errorf("at %d: line %d listed as %q, awk's $2-$4 %q", b, pos, text, want)
			}
			if 3*(pos-first) >= last-first && 3*(pos-first) < 2*(last-first) {
				middle++
			}
		}
		// The rows right after the first 10 lines (the chunk offered
		// first), every one of them.
		for pos := first + 5; pos < first+20; pos++ {
			if _, ok := rows[pos]; !ok {
				t.Errorf("at %d: line %d, among the first rows after the head, is not listed", b, pos)
			}
		}
		if middle < 20 {
			t.Errorf("at %d: the index lists %d rows of the middle third of the table (lines %d-%d), want a chunk of 20 at least", b, middle, first, last)
		}
		t.Logf("at %d: %d rows listed, %d of the middle third", b, len(rows), middle)
	}
}

// TestTableOtherLinesShown: a list whose rows are the lines indented by
// two spaces (apt-cache rdepends libgtk-3-0, captured on Debian 12) has
// a few lines of another shape: the package, "Reverse Depends:" and the
// alternatives " |chromium". The view counts them by how they start
// (the count of alternatives, awk's /^ \|/) and shows each marked one
// with its line number, at 1,500 tokens already. On the old code they were only
// counted ("5 other lines"): which lines are alternatives, and how many,
// was not in the view.
func TestTableOtherLinesShown(t *testing.T) {
	const file = "testdata/apt-cache-rdepends-libgtk3.txt"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	alts, other := 0, 0
	var want []string
	for i, l := range lines {
		if strings.HasPrefix(l, "  ") {
			continue
		}
		other++
		if strings.HasPrefix(l, " |") {
			alts++
			want = append(want, fmt.Sprintf("\n  %d\t%s\n", i, l))
		}
	}
	if alts == 0 {
		t.Fatal("the capture has no alternatives")
	}
	v, _ := viewOf(t, file)
	f := fillAt(t, v, 1500)
	count := fmt.Sprintf("the %d other lines (no rows), by their start before the first letter or digit (exact counts): \" |\" %d, (none) %d\n", other, alts, other-alts)
	if !strings.Contains(f.Text, count) {
		t.Errorf("no line %q in:\n%s", count, f.Text)
	}
	for _, w := range want {
		if !strings.Contains(f.Text, w) {
			t.Errorf("the other line %q is not shown", w)
		}
	}
}

// TestTextIndexByMostlyDistinctName: `go version -m` of three binaries
// (captured here: staticcheck, compact, gofmt) is a table of
// tab-indented rows whose module paths repeat (a module two binaries
// depend on, the build settings of each binary), so no column names
// every row alone; the index lists the rows by the column that nine rows
// in ten have and three in four have their own, each line as awk -F'\t'
// '{print $3, $2, $4}' gives it (the path whole up to 100 characters, the
// others cut at 40). On the old code
// the table had no index: "which version of module X" was answered
// only for the rows near the head and the tail.
func TestTextIndexByMostlyDistinctName(t *testing.T) {
	const file = "testdata/go-version-m-three.txt"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	v, _ := viewOf(t, file)
	f := fillAt(t, v, 3000)
	rows := textIndexRows(t, f.Text, lines, func(l string) bool { return strings.HasPrefix(l, "\t") })
	if len(rows) < 20 {
		t.Fatalf("%d rows in the index:\n%s", len(rows), f.Text)
	}
	// A cell is cut past n characters when more than 12 follow.
	cutN := func(s string, n int) string {
		if r := []rune(s); len(r) > n+12 {
			return fmt.Sprintf("%s…[+%d chars]", string(r[:n]), len(r)-n)
		}
		return s
	}
	for pos, text := range rows {
		fs := strings.Split(lines[pos], "\t")
		var want []string
		for j, i := range []int{2, 1, 3} {
			if i < len(fs) {
				n := 40
				if j == 0 {
					n = 100 // the identity
				}
				want = append(want, cutN(fs[i], n))
			}
		}
		if w := strings.Join(want, " "); text != w {
			t.Errorf("line %d listed as %q, awk %q", pos, text, w)
		}
	}
}

// TestTextLinesMatchTheRequest: a text view offers the lines that hold
// the tool call's arguments, the most relevant first (BM25's idf; a
// name as written, "node-express", weighs more than its words): `apt-cache
// show` of 400 node packages called for node-express shows, at 2,000
// tokens, the line "Package: node-express" (line 8119, grep -n's 8120)
// with its line number, and every line of that section is the text's own
// line and holds a word of the request. On the old code the text view
// ignored the arguments (only JSON rows matched them): the line was not
// in the view.
func TestTextLinesMatchTheRequest(t *testing.T) {
	data := readFile(t, "../../testdata/captured/apt-cache-show-node.txt")
	lines := strings.Split(string(data), "\n")
	pos := slices.Index(lines, "Package: node-express")
	if pos < 0 {
		t.Fatal("no node-express in the capture")
	}
	want := fmt.Sprintf("\n  %d\tPackage: node-express\n", pos)
	in := inputOf(t, data, 2000)
	plain := fillAt(t, buildView(t, in), 2000).Text
	if strings.Contains(plain, want) {
		t.Fatalf("without arguments the view already shows %q", want)
	}
	in.Args = []byte(`{"command": "apt-cache show", "packages": ["node-express"]}`)
	f := fillAt(t, buildView(t, in), 2000)
	if !strings.Contains(f.Text, want) {
		t.Fatalf("no line %q in:\n%s", want, f.Text)
	}
	i := strings.Index(f.Text, "\nlines matching the tool call's arguments")
	n := 0
	for _, l := range strings.Split(f.Text[i+1:], "\n")[1:] {
		p, text, ok := strings.Cut(strings.TrimPrefix(l, "  "), "\t")
		k, err := strconv.Atoi(p)
		if !ok || err != nil || !strings.HasPrefix(l, "  ") {
			break
		}
		n++
		if text != lines[k] && !strings.HasSuffix(text, " chars]") {
			t.Errorf("line %d shown as %q, the text has %q", k, text, lines[k])
		}
		low := strings.ToLower(lines[k])
		if !strings.Contains(low, "node") && !strings.Contains(low, "express") && !strings.Contains(low, "apt") &&
			!strings.Contains(low, "cache") && !strings.Contains(low, "show") {
			t.Errorf("line %d %q holds no word of the request", k, lines[k])
		}
	}
	if n == 0 {
		t.Error("no lines matching the request")
	}
}
