package view

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The tests of this file count what the view states about tables with
// their own code over the captured files (regular expressions, string
// prefixes), not with the view's splitting.

// rawLines are the lines of data (no final empty line).
func rawLines(data []byte) []string {
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestTabStopRuns: gcc -Q --help=optimizers pads each option to a tab
// stop with spaces and then one or two tabs ("  -Wfoo    \t\t[enabled]",
// "  -faggressive-loop-optimizations \t[enabled]"). Split at every tab,
// the states fell into column 2 for some rows and column 3 for others;
// split at runs of tabs they are one column, counted right. The header
// sentence is no row. Fails on the old code (a table of 3 columns split
// at every tab).
func TestTabStopRuns(t *testing.T) {
	data := readCapture(t, "testdata/gcc-q-help-optimizers.txt")
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.mode != byTabRuns || cp.split.k != 2 {
		t.Fatalf("split: %+v", cp)
	}
	row := regexp.MustCompile(`^ +(\S+) *\t+(.*)$`)
	states := map[string]int{}
	rows := 0
	for _, l := range rawLines(data) {
		m := row.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rows++
		states[strings.TrimSpace(m[2])]++
	}
	if cp.rows != rows || cp.other != 1 {
		t.Errorf("rows %d (other %d), counted %d (other 1: the header sentence)", cp.rows, cp.other, rows)
	}
	c := cp.cols[1]
	if len(c.values) != len(states) {
		t.Errorf("%d states, counted %d", len(c.values), len(states))
	}
	for v, n := range states {
		if c.values[v] != n {
			t.Errorf("state %q: %d rows, counted %d", v, c.values[v], n)
		}
	}
	if states["[enabled]"] < 10 || !strings.Contains(c.line(cp.rows), fmt.Sprintf(`"[enabled]" %d`, states["[enabled]"])) {
		t.Errorf("column line %q lacks [enabled] %d", c.line(cp.rows), states["[enabled]"])
	}
	if f := cp.split.fields("  -fexceptions                		[disabled]"); strings.Join(f, "|") != "-fexceptions|[disabled]" {
		t.Errorf("cells %q", f)
	}
	if f := cp.split.fields("  -falign-functions=          		"); strings.Join(f, "|") != "-falign-functions=|" {
		t.Errorf("an option without a value: cells %q", f)
	}
}

// TestRowLeadHeaderFooter: go tool pprof -top prints "File:", "Type:",
// "Showing nodes accounting for …" lines above its rows; the rows are the
// lines indented like the rows (numbers right-aligned), counted without
// them (the old code counted 4 of those lines as rows: 204 of 200).
func TestRowLeadHeaderFooter(t *testing.T) {
	data := readCapture(t, "testdata/pprof-top-query.txt")
	p := analyzeText(data, nil)
	rows := 0
	num := regexp.MustCompile(`^ +[0-9.]+m?s? +[0-9.]+% `)
	for _, l := range rawLines(data) {
		if num.MatchString(l) {
			rows++
		}
	}
	if rows != 200 {
		t.Fatalf("capture: %d rows, want the 200 of -nodecount=200", rows)
	}
	if p.cols == nil || p.cols.rows != rows || p.cols.split.lead == "" {
		t.Fatalf("columns %+v, want %d rows set apart by their indentation", p.cols, rows)
	}
	if !strings.Contains(p.cols.factLine(), "a table of 200 rows") {
		t.Errorf("fact line %q", p.cols.factLine())
	}
	// A header less indented than right-aligned rows keeps them one
	// table with it (ps: "  PID USER" above "      1 root").
	var ps strings.Builder
	ps.WriteString("  PID USER STAT\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&ps, "%5d root S\n", i*7)
	}
	if lead := rowLead([]byte(ps.String())); lead != "" {
		t.Errorf("ps-like table: lead %q", lead)
	}
}

// TestMissingLastCell: readelf -Ws's row 0 has no Name (7 cells under 8
// header words); it is a row with an empty last cell, so the counts of
// Ndx UND and of the table are the file's. Fails on the old code (1,211
// rows, UND 16).
func TestMissingLastCell(t *testing.T) {
	data := readCapture(t, "testdata/readelf-ws-libm.txt")
	p := analyzeText(data, nil)
	entry := regexp.MustCompile(`^ *[0-9]+: `)
	rows, und := 0, 0
	for _, l := range rawLines(data) {
		if entry.MatchString(l) {
			rows++
			if strings.Fields(l)[6] == "UND" {
				und++
			}
		}
	}
	cp := p.cols
	if cp == nil || cp.rows != rows || cp.split.minK != 7 {
		t.Fatalf("columns %+v, want %d rows of 7 or 8 cells", cp, rows)
	}
	if n := cp.cols[6].values["UND"]; n != und {
		t.Errorf("Ndx UND %d, counted %d", n, und)
	}
	if n := cp.cols[7].values[""]; n != 1 {
		t.Errorf("empty Name in %d rows, want 1 (row 0)", n)
	}
	// The title line has too few words to be a row: the rows need no
	// lead, and the queries carry none.
	if cp.split.lead != "" {
		t.Errorf("lead %q", cp.split.lead)
	}
}

// TestIndexAfterHead: the index of a table does not list again the rows
// among the first 10 lines, shown before it (ls -l's first chunk was
// lines 1-40 on the old code, beside "first 10 lines").
func TestIndexAfterHead(t *testing.T) {
	data := readCapture(t, "ls-l-usr-bin.txt")
	v := buildText(t, data, 4000)
	p := analyzeText(data, nil)
	head := map[int]bool{}
	for _, l := range p.head[:10] {
		head[l.pos] = true
	}
	rows := 0
	for _, c := range v.cands {
		if c.Reason != "index" {
			continue
		}
		for _, l := range strings.Split(c.text(), "\n") {
			// (a line "first-last<TAB>K rows with ..." lists rows first-last)
			var from, to int
			if n, _ := fmt.Sscanf(strings.SplitN(strings.TrimSpace(l), "\t", 2)[0], "%d-%d", &from, &to); n == 0 {
				t.Fatalf("index line %q", l)
			} else if n == 1 {
				to = from
			}
			for pos := from; pos <= to; pos++ {
				rows++
				if head[pos] {
					t.Errorf("index row %d is among the first 10 lines", pos)
				}
			}
		}
	}
	if rows == 0 {
		t.Error("no index")
	}
}

// TestFixedWidth: dpkg-query -W -f='${binary:Package;-44}${Essential;-6}${Homepage}'
// pads each field to a width; 111 packages have no homepage. Split at
// runs of spaces those lines had 2 cells and were no rows (771 rows of
// 882, Essential "yes" 18 of 23); at the columns' fixed starts every line
// is a row with its empty cell. Fails on the old code.
func TestFixedWidth(t *testing.T) {
	data := readCapture(t, "testdata/dpkg-query-width.txt")
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.mode != byWidth || fmt.Sprint(cp.split.starts) != "[0 44 50]" {
		t.Fatalf("columns %+v", cp)
	}
	lines := rawLines(data)
	essential, noHome := map[string]int{}, 0
	for _, l := range lines {
		essential[strings.TrimSpace(l[44:50])]++
		if len(strings.TrimSpace(l[min(50, len(l)):])) == 0 {
			noHome++
		}
	}
	if cp.rows != len(lines) || cp.cols[2].values[""] != noHome || noHome == 0 {
		t.Errorf("rows %d of %d lines; empty homepage %d, counted %d", cp.rows, len(lines), cp.cols[2].values[""], noHome)
	}
	for v, n := range essential {
		if cp.cols[1].values[v] != n {
			t.Errorf("Essential %q: %d rows, counted %d", v, cp.cols[1].values[v], n)
		}
	}
	// A constant word before every line (npm's log) is no column.
	if sp := detectWidth(readCapture(t, "npm-install-fail.txt")); sp != nil {
		t.Errorf("npm log: fixed-width columns %v", sp.starts)
	}
}

// TestCellWords: git ls-tree -r is "mode type hash<TAB>path"; the first
// cell splits again at spaces, so the mode is a column of its own (the
// executables are its rare value). Fails on the old code (2 columns).
func TestCellWords(t *testing.T) {
	data := readCapture(t, "testdata/git-ls-tree-wazero.txt")
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.k != 4 || cp.rows != len(rawLines(data)) {
		t.Fatalf("columns %+v", cp)
	}
	modes := map[string]int{}
	for _, l := range rawLines(data) {
		modes[l[:strings.IndexByte(l, ' ')]]++
	}
	for m, n := range modes {
		if cp.cols[0].values[m] != n {
			t.Errorf("mode %s: %d rows, counted %d", m, cp.cols[0].values[m], n)
		}
	}
	if modes["100755"] == 0 || !strings.Contains(cp.cols[0].line(cp.rows), fmt.Sprintf("100755 %d", modes["100755"])) {
		t.Errorf("mode line %q", cp.cols[0].line(cp.rows))
	}
	if f := cp.split.fields("100644 blob 0123\tdir/a b.go"); strings.Join(f, "|") != "100644|blob|0123|dir/a b.go" {
		t.Errorf("cells %q", f)
	}
	if f := cp.split.fields("100644 0123\tdir/a.go"); f != nil {
		t.Errorf("a first cell of 2 words is no row: %q", f)
	}
}

// pathCase is a captured column of paths and how to take the path from
// a line.
var pathCases = []struct {
	file string
	col  int
	path func(line string) (string, bool)
}{
	{"testdata/dpkg-L-util-linux.txt", 0, func(l string) (string, bool) { return strings.TrimSpace(l), strings.TrimSpace(l) != "" }},
	{"find-usr-share-doc.txt", 0, func(l string) (string, bool) { return strings.TrimSpace(l), strings.TrimSpace(l) != "" }},
	{"testdata/git-ls-tree-wazero.txt", 3, func(l string) (string, bool) {
		i := strings.IndexByte(l, '\t')
		return l[i+1:], i >= 0
	}},
}

// TestPathLines checks every count of the lines of paths (directories,
// wide directories, names of directories at any depth, names after the
// last /, extensions, depths, the deepest and the longest) against counts
// made here over the paths, and the rows chosen for a rare directory.
func TestPathLines(t *testing.T) {
	pair := regexp.MustCompile(`"((?:[^"\\]|\\.)*)" ([0-9,]+)( \(([^)]*)\))?`)
	for _, pc := range pathCases {
		data := readCapture(t, pc.file)
		p := analyzeText(data, nil)
		c := p.cols.cols[pc.col]
		var paths []string
		for _, l := range rawLines(data) {
			if v, ok := pc.path(l); ok {
				paths = append(paths, v)
			}
		}
		count := func(keep func(string) bool) int {
			n := 0
			for _, v := range paths {
				if keep(v) {
					n++
				}
			}
			return n
		}
		lines := c.pathLines()
		if len(lines) < 4 {
			t.Fatalf("%s: %d path lines:\n%s", pc.file, len(lines), strings.Join(lines, "\n"))
		}
		checked := 0
		for _, l := range lines {
			head, body, _ := strings.Cut(l, ": ")
			for _, m := range pair.FindAllStringSubmatch(body, -1) {
				k, _ := strconv.Unquote(`"` + m[1] + `"`)
				n := atoiCommas(t, m[2])
				var want int
				switch {
				case strings.Contains(head, "rows by directory"), strings.Contains(head, "most rows under them") && !strings.Contains(k, "*"):
					want = count(func(v string) bool { return strings.HasPrefix(v, k) && v != k })
					if m[4] != "" {
						for _, note := range strings.Split(m[4], ", ") {
							switch {
							case strings.HasSuffix(note, " with itself"):
								self := count(func(v string) bool { return v == k || v == strings.TrimSuffix(k, "/") })
								if w := commas(want + self); note != w+" with itself" {
									t.Errorf("%s: %q: %q, counted %s", pc.file, k, note, w)
								}
							case strings.HasSuffix(note, " right in it"):
								in := count(func(v string) bool {
									r := strings.TrimSuffix(strings.TrimPrefix(v, k), "/")
									return strings.HasPrefix(v, k) && r != "" && !strings.Contains(r, "/")
								})
								if w := commas(in); note != w+" right in it" {
									t.Errorf("%s: %q: %q, counted %s", pc.file, k, note, w)
								}
							}
						}
					}
				case strings.Contains(k, "*"):
					re := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(k), `\*`, `[^/]+`) + "$")
					want = count(re.MatchString)
				case strings.Contains(head, "the name of a directory"):
					parts := strings.Split(strings.TrimSuffix(k, "/"), "/")
					want = count(func(v string) bool {
						dir := v[:strings.LastIndexByte(strings.TrimSuffix(v, "/"), '/')+1]
						return strings.HasPrefix(dir, strings.Join(parts, "/")+"/") || strings.Contains(dir, "/"+strings.Join(parts, "/")+"/")
					})
				case strings.Contains(head, "the name after the last /"):
					want = count(func(v string) bool {
						return counted(v) && !strings.HasSuffix(v, "/") && v[strings.LastIndexByte(v, '/')+1:] == k
					})
				case strings.Contains(head, "rows by their last two extensions"):
					want = count(func(v string) bool {
						seg := v[strings.LastIndexByte(v, '/')+1:]
						return counted(v) && pathExt(v) != "" && strings.HasSuffix(seg, k) && len(seg) > len(k) && seg[len(seg)-len(k)-1] != '.'
					})
				case strings.Contains(head, "rows by extension"):
					want = count(func(v string) bool { return counted(v) && pathExt(v) == k })
				default:
					continue
				}
				checked++
				if n != want {
					t.Errorf("%s: %s: %q %d, counted %d", pc.file, head, k, n, want)
				}
			}
			if strings.Contains(head, "rows by path depth") {
				depth := map[int]int{}
				deepest, longest := 0, ""
				for _, v := range paths {
					if !counted(v) {
						continue
					}
					d := len(strings.FieldsFunc(v, func(r rune) bool { return r == '/' }))
					depth[d]++
					deepest = max(deepest, d)
					if len(v) > len(longest) {
						longest = v
					}
				}
				var ds []int
				for d := range depth {
					ds = append(ds, d)
				}
				sort.Ints(ds)
				var parts []string
				for _, d := range ds {
					parts = append(parts, fmt.Sprintf("%d: %s", d, commas(depth[d])))
				}
				want := fmt.Sprintf("rows by path depth (segments between /): %s; deepest %d segments", strings.Join(parts, ", "), deepest)
				if !strings.Contains(l, want) || !strings.Contains(l, fmt.Sprintf("longest %d characters (%q)", len(longest), longest)) {
					t.Errorf("%s: %q, want %q and longest %q", pc.file, l, want, longest)
				}
				checked++
			}
		}
		if checked < 10 {
			t.Errorf("%s: only %d counts checked:\n%s", pc.file, checked, strings.Join(lines, "\n"))
		}
	}
	// The rare directories' rows: dpkg -L util-linux has one file under
	// /usr/lib/… and a few under /lib/… beside hundreds under /usr/share/.
	data := readCapture(t, "testdata/dpkg-L-util-linux.txt")
	p := analyzeText(data, nil)
	var why []string
	for _, r := range p.cols.chosenRows() {
		why = append(why, strings.Join(r.reasons, "; ")+" = "+r.l.text)
	}
	for _, r := range p.cols.cols[0].rareDirRows() {
		if !strings.HasPrefix(r.first.text, r.path) || r.under > 3 {
			t.Errorf("rare directory %q: first row %q, %d rows", r.path, r.first.text, r.under)
		}
	}
	if len(p.cols.cols[0].rareDirRows()) == 0 || !strings.Contains(strings.Join(why, "\n"), " rows under \"") {
		t.Errorf("no row chosen for a rare directory:\n%s", strings.Join(why, "\n"))
	}
}

// TestPathsNotNames: values with a '/' that are no paths get no lines of
// paths: apt list's "adduser/oldstable,now" (one row a "directory"), go
// mod graph's "golang.org/x/sys@v0.30.0" (a version after '@').
func TestPathsNotNames(t *testing.T) {
	for _, name := range []string{"apt-list-installed.txt", "go-mod-graph-compact.txt"} {
		p := analyzeText(readCapture(t, name), nil)
		for _, c := range p.cols.cols {
			if l := c.pathLines(); l != nil {
				t.Errorf("%s %s: %q", name, c.name, l)
			}
		}
	}
	for v, want := range map[string]bool{"/usr/bin/ls": true, "a/b": true, "node_modules/@types/node/x.d.ts": true, "site/img/icon@2x.png": true,
		"golang.org/x/sys@v0.30.0": false, "1/2": false, "a b/c": false} {
		if isPath(v) != want {
			t.Errorf("isPath(%q) = %v", v, !want)
		}
	}
}

// TestSomeNumbers: a column most of whose values are numbers (readelf's
// Ndx: section numbers beside UND and ABS) states the numbers' range,
// and its extremes are chosen rows; counted here with strconv.
func TestSomeNumbers(t *testing.T) {
	data := readCapture(t, "testdata/readelf-ws-libm.txt")
	p := analyzeText(data, nil)
	c := p.cols.cols[6]
	entry := regexp.MustCompile(`^ *[0-9]+: `)
	n, lo, hi := 0, 1<<30, -1
	for _, l := range rawLines(data) {
		if !entry.MatchString(l) {
			continue
		}
		if v, err := strconv.Atoi(strings.Fields(l)[6]); err == nil {
			n++
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	want := fmt.Sprintf("; %s of its values are numbers: min %d", commas(n), lo)
	if !c.someNumbers() || !strings.Contains(c.line(p.cols.rows), want) || !strings.Contains(c.line(p.cols.rows), fmt.Sprintf(", max %d", hi)) {
		t.Errorf("Ndx line %q, want %q … max %d", c.line(p.cols.rows), want, hi)
	}
}

// TestUnits: numbers written with a unit are numbers. go tool pprof
// -top's flat column ("0.21s", a bare "0") sums to the total pprof
// prints itself ("Showing nodes accounting for 3.19s"); du -ah's sizes
// ("4.0K", "4.7M") are compared in bytes, not summed, and the largest is
// the one with the most bytes counted here. Fails on the old code (the
// columns were words: "0.01s" 28, …).
func TestUnits(t *testing.T) {
	data := readCapture(t, "testdata/pprof-top-query.txt")
	p := analyzeText(data, nil)
	total := regexp.MustCompile(`Showing nodes accounting for ([0-9.]+s),`).FindStringSubmatch(string(data))
	if total == nil {
		t.Fatal("no total in the capture")
	}
	if c := p.cols.cols[0]; !c.isNumber() || c.sumText() != "sum "+total[1] {
		t.Errorf("flat: number %v, %q, pprof says %s", c.isNumber(), c.sumText(), total[1])
	}
	data = readCapture(t, "testdata/du-ah-git-doc.txt")
	p = analyzeText(data, nil)
	scale := map[string]float64{"": 1, "K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024}
	best, bestRaw := -1.0, ""
	for _, l := range rawLines(data) {
		size := strings.Split(l, "\t")[0]
		n, err := strconv.ParseFloat(strings.TrimRight(size, "KMG"), 64)
		if err != nil {
			t.Fatal(err)
		}
		if v := n * scale[size[len(strings.TrimRight(size, "KMG")):]]; v > best {
			best, bestRaw = v, size
		}
	}
	c := p.cols.cols[0]
	if !c.isNumber() || !c.units || c.num.maxRaw != bestRaw || !strings.Contains(c.line(p.cols.rows), "max "+bestRaw) {
		t.Errorf("du -ah sizes: %q, want max %s", c.line(p.cols.rows), bestRaw)
	}
}

// TestCommaParts: file(1) over /usr/sbin is a name padded to a width and
// a description of parts between ", "; the view counts the rows by the
// first part and by the last ("ELF 64-bit LSB pie executable", "stripped"),
// counted here with strings.Cut over the lines. The description is one
// column: its single spaces between words are no column boundaries.
func TestCommaParts(t *testing.T) {
	data := readCapture(t, "testdata/file-usr-sbin.txt")
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.mode != byWidth || cp.split.k != 2 {
		t.Fatalf("columns %+v", cp)
	}
	firsts, lasts := map[string]int{}, map[string]int{}
	for _, l := range rawLines(data) {
		_, desc, _ := strings.Cut(l, ": ")
		desc = strings.TrimSpace(desc)
		if i := strings.Index(desc, ", "); i >= 0 {
			firsts[desc[:i]]++
			lasts[desc[strings.LastIndex(desc, ", ")+2:]]++
		}
	}
	lines := cp.cols[1].commaPartsLines()
	if len(lines) != 2 {
		t.Fatalf("lines %q", lines)
	}
	for k, m := range []map[string]int{firsts, lasts} {
		for _, q := range quotedCounts.FindAllStringSubmatch(lines[k], -1) {
			v, _ := strconv.Unquote(`"` + q[1] + `"`)
			if atoiCommas(t, q[2]) != m[v] {
				t.Errorf("%q: %s rows, counted %d", v, q[2], m[v])
			}
		}
	}
	if !strings.Contains(lines[0], fmt.Sprintf(`"ELF 64-bit LSB pie executable" %d`, firsts["ELF 64-bit LSB pie executable"])) {
		t.Errorf("first parts %q", lines[0])
	}
}
