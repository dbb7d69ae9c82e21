package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// valueIndexCases are captured name/value tables, with a pattern that
// splits a row into its name and its value independently of the view:
// gcc -Q --help=optimizers (runs of tabs after the padded option) and
// getconf -a (glibc 2.36; fixed-width columns, an empty value for an
// undefined variable).
var valueIndexCases = []struct {
	file string
	row  *regexp.Regexp
}{
	{"testdata/gcc-q-help-optimizers.txt", regexp.MustCompile(`^ +(\S+) *\t+(.*?)\s*$`)},
	{"testdata/getconf-a.txt", regexp.MustCompile(`^(\S+) *(.*?)\s*$`)},
}

var (
	valueGroupLine  = regexp.MustCompile(`^  (.*) \(names (\d+)-(\d+) of (\d+)\): (.*)$`)
	valueNumberLine = regexp.MustCompile(`^  column 2, numbers in (\d+) of (\d+) rows: largest (\S+) \(([^)]*)\)`)
)

// TestValueIndex: a table of two columns, a name in each row and a value
// many rows share, is indexed by value: each value of 3 rows or more once,
// then the names of its rows in line order; the other rows as "name
// value". Checked against the rows split by an independent pattern: every
// group's count is the value's number of rows, its names are exactly the
// rows a-b of that value in line order, every other line is a row as
// written; the numbers among the values are counted, the largest named by
// its row; a larger budget shows every index line a smaller one does
// (fails on the old code: no index by value).
func TestValueIndex(t *testing.T) {
	for _, tc := range valueIndexCases {
		data := readCapture(t, tc.file)
		var names []string
		byValue := map[string][]string{}
		value := map[string]string{}
		numbers, maxName, maxV := 0, "", -1e300
		for _, l := range rawLines(data) {
			m := tc.row.FindStringSubmatch(l)
			if m == nil || strings.HasPrefix(l, "The following") {
				continue
			}
			names = append(names, m[1])
			byValue[m[2]] = append(byValue[m[2]], m[1])
			value[m[1]] = m[2]
			if f, err := strconv.ParseFloat(m[2], 64); err == nil {
				numbers++
				if f > maxV {
					maxV, maxName = f, m[1]
				}
			}
		}
		prev := map[string]bool{}
		for _, b := range []int{1500, 3000, 6000, 12000} {
			name := fmt.Sprintf("%s at %d", tc.file, b)
			text := fillText(t, data, b)
			head := "index of the rows by column 2 (a value of 3 rows or more once, then the column 1 of the rows that have it, in line order; the other rows as column 1 column 2; showing "
			i := strings.Index(text, head)
			if i < 0 {
				t.Fatalf("%s: no index by value:\n%s", name, text)
			}
			rest := text[i+len(head):]
			var shown, total int
			if _, err := fmt.Sscanf(strings.ReplaceAll(rest, ",", ""), "%d of %d rows", &shown, &total); err != nil || total != len(names) {
				t.Fatalf("%s: header %q: %v (want %d rows)", name, rest[:40], err, len(names))
			}
			listed := 0
			seen := map[string]bool{}
			for _, l := range strings.Split(rest, "\n")[1:] {
				if strings.HasPrefix(l, "the ") && strings.Contains(l, " rows not in this index") {
					continue // the query of the rows not listed (TestValueIndexRest)
				}
				if !strings.HasPrefix(l, "  ") {
					break
				}
				if m := valueGroupLine.FindStringSubmatch(l); m != nil {
					v := m[1]
					if v == "(empty)" {
						v = ""
					}
					a, _ := strconv.Atoi(m[2])
					z, _ := strconv.Atoi(m[3])
					n, _ := strconv.Atoi(m[4])
					rows := byValue[v]
					got := strings.Fields(m[5])
					if n != len(rows) || a < 1 || z > n || len(got) != z-a+1 || strings.Join(got, " ") != strings.Join(rows[a-1:z], " ") {
						t.Errorf("%s: %q: value %q has %d rows %v", name, l, v, len(rows), rows)
					}
					for _, g := range got {
						seen[g] = true
					}
					listed += len(got)
				} else {
					f := strings.SplitN(strings.TrimPrefix(l, "  "), " ", 2)
					v := f[1]
					if v == `""` {
						v = ""
					}
					if got, ok := value[f[0]]; !ok || got != v || len(byValue[v]) >= 3 {
						t.Errorf("%s: %q: the row's value is %q (%d rows)", name, l, got, len(byValue[v]))
					}
					seen[f[0]] = true
					listed++
				}
				if prev[l] {
					delete(prev, l)
				}
			}
			if listed != shown || len(seen) != listed {
				t.Errorf("%s: %d rows listed (%d distinct), the header says %d", name, listed, len(seen), shown)
			}
			for l := range prev {
				t.Errorf("%s: lost %q of the smaller view", name, l)
			}
			prev = map[string]bool{}
			for _, l := range strings.Split(rest, "\n")[1:] {
				if strings.HasPrefix(l, "the ") && strings.Contains(l, " rows not in this index") {
					continue
				}
				if !strings.HasPrefix(l, "  ") {
					break
				}
				prev[l] = true
			}
			if m := regexp.MustCompile(`(?m)^  column 2, numbers in .*$`).FindString(text); m != "" {
				nm := valueNumberLine.FindStringSubmatch(m)
				if nm == nil || nm[1] != strconv.Itoa(numbers) || nm[4] != maxName || value[nm[4]] != nm[3] {
					t.Errorf("%s: %q: %d numbers, the largest %v (%s)", name, m, numbers, maxV, maxName)
				}
			} else if b >= 3000 && numbers >= 10 {
				t.Errorf("%s: no line of the numbers among the values", name)
			}
		}
	}
}

// TestValueIndexPerRecord: a name/value table in sections (gcc -Q -O1
// --help=optimizers --help=common: two blocks, each under its "The
// following options ..." line) states per section the rows of the
// table's most frequent values ("[392 lines; column 2: [disabled] 130,
// [enabled] 67, (empty) 97]"), counted here by an independent pattern;
// a name that "=" ends is a word of the names' shared starts. Fails on
// the old code (no counts of values per record).
func TestValueIndexPerRecord(t *testing.T) {
	data := readCapture(t, "testdata/gcc-q-O1-optimizers-common.txt")
	row := regexp.MustCompile(`^ +(\S.*?) *\t+(.*?)\s*$`) // "-aux-info <file>" is one name
	per := map[int]map[string]int{}
	total := map[string]int{}
	head := -1
	for i, l := range rawLines(data) {
		if strings.HasPrefix(l, "The following") {
			head, per[i] = i, map[string]int{}
			continue
		}
		if m := row.FindStringSubmatch(l); m != nil && head >= 0 {
			v := m[2]
			if v == "" {
				v = "(empty)"
			}
			per[head][v]++
			total[v]++
		}
	}
	if len(per) != 2 {
		t.Fatalf("%d sections", len(per))
	}
	text := fillText(t, data, 3000)
	recLine := regexp.MustCompile(`(?m)^  (\d+)\tThe following .*\[\d+ lines; column 2: (.*)\]$`)
	ms := recLine.FindAllStringSubmatch(text, -1)
	if len(ms) != len(per) {
		t.Fatalf("%d record lines with counts, want %d:\n%s", len(ms), len(per), text)
	}
	for _, m := range ms {
		pos, _ := strconv.Atoi(m[1])
		counts, ok := per[pos]
		if !ok {
			t.Fatalf("line %d heads no section", pos)
		}
		items := strings.Split(m[2], ", ")
		if len(items) != recTopValues {
			t.Errorf("line %d: %d values, want %d", pos, len(items), recTopValues)
		}
		for _, it := range items {
			i := strings.LastIndexByte(it, ' ')
			n, err := strconv.Atoi(it[i+1:])
			if err != nil || counts[it[:i]] != n {
				t.Errorf("line %d: %q, counted %d", pos, it, counts[it[:i]])
			}
		}
	}
}
