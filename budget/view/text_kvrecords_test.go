package view_test

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// smapsRecord is one mapping of /proc/PID/smaps, read independently of
// the view: its header line and its "Key: N kB" values.
type smapsRecord struct {
	pos    int
	header []string // the header split at runs of spaces
	vals   map[string]int64
}

func readSmaps(t *testing.T, data []byte) (lines []string, recs []*smapsRecord) {
	t.Helper()
	head := regexp.MustCompile(`^[0-9a-f]+-[0-9a-f]+ `)
	kb := regexp.MustCompile(`^(\w+):\s+(\d+) kB$`)
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		lines = append(lines, l)
		switch {
		case head.MatchString(l):
			recs = append(recs, &smapsRecord{pos: i, header: strings.Fields(l), vals: map[string]int64{}})
		case len(recs) > 0:
			if m := kb.FindStringSubmatch(l); m != nil {
				n, _ := strconv.ParseInt(m[2], 10, 64)
				recs[len(recs)-1].vals[m[1]] = n
			}
		}
	}
	return lines, recs
}

// TestKVRecordsSmaps checks the view of records of Key: value lines
// under a header line (/proc/PID/smaps of a python process, captured on
// the development machine) against an independent reading of its lines:
// the record count, every key's sum and maximum with the mapping holding
// it, the mappings by permission and by file (the header's columns),
// every record's line in the index with its own values, the query of
// every record's first line (run with gojq), and that a larger budget
// shows every index line a smaller one does. The view before records of
// Key: value lines read the text as a 3-column table of "Rss: 12 kB"
// rows and stated none of these.
func TestKVRecordsSmaps(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captured/proc-smaps-python.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines, recs := readSmaps(t, data)
	if len(recs) < 50 {
		t.Fatalf("%d mappings read", len(recs))
	}
	budgets := []int{2000, 4000, 8000}
	views, _ := kvView(t, data, budgets)
	var prev []string
	for _, b := range budgets {
		text, ok := views[b]
		if !ok {
			t.Fatalf("no view at %d", b)
		}
		name := fmt.Sprintf("at %d", b)
		if want := fmt.Sprintf("; %s records (each a line that is not Key: value and the Key: value lines below it)", commas(len(recs))); !strings.Contains(text, want) {
			t.Fatalf("%s: no %q:\n%s", name, want, text)
		}
		byLine := map[string]string{}
		for _, l := range strings.Split(text, "\n") {
			if i := strings.Index(l, " ("); strings.HasPrefix(l, "  ") && i > 0 {
				byLine[strings.TrimSpace(l[:i])] = l
			}
		}
		// Sums and maxima of every numeric key that differs between
		// records.
		for _, key := range []string{"Size", "Rss", "Pss", "Private_Dirty", "Anonymous"} {
			var sum, mx int64
			var at *smapsRecord
			nAtMax := 0
			for _, r := range recs {
				v := r.vals[key]
				sum += v
				if at == nil || v > mx {
					mx, at, nAtMax = v, r, 1
				} else if v == mx {
					nAtMax++
				}
			}
			l := byLine[key]
			if l == "" {
				if b >= 4000 || key == "Size" || key == "Rss" {
					t.Errorf("%s: no line of %s:\n%s", name, key, text)
				}
				continue
			}
			want := fmt.Sprintf("  %s (numbers in kB, in %d records): sum %d kB, ", key, len(recs), sum)
			if !strings.HasPrefix(l, want) {
				t.Errorf("%s: %q, want it to start %q", name, l, want)
			}
			maxAt := fmt.Sprintf("max %d kB (in %q)", mx, strings.Join(at.header, " "))
			if nAtMax > 1 {
				maxAt = fmt.Sprintf("max %d kB (%d records)", mx, nAtMax)
			}
			if !strings.Contains(l, maxAt) {
				t.Errorf("%s: %q lacks %q", name, l, maxAt)
			}
		}
		// The header's columns: mappings by permission and by file.
		perms, paths := map[string]int{}, map[string]int{}
		for _, r := range recs {
			perms[r.header[1]]++
			if len(r.header) >= 6 {
				paths[strings.Join(r.header[5:], " ")]++
			}
		}
		col2 := ""
		for _, x := range strings.Split(text, "\n") {
			if strings.HasPrefix(x, "  first lines, column 2: ") {
				col2 = x
			}
		}
		for p, n := range perms {
			if !strings.Contains(col2, fmt.Sprintf("%q %d", p, n)) {
				t.Errorf("%s: column 2 does not state %q %d: %q", name, p, n, col2)
			}
		}
		for _, p := range []string{"/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libcrypto.so.3"} {
			if !strings.Contains(text, fmt.Sprintf("%q %d", p, paths[p])) {
				t.Errorf("%s: the mappings of %s (%d) are not counted", name, p, paths[p])
			}
		}
		// Every index line states its record's own values.
		var index []string
		inIndex := false
		for _, l := range strings.Split(text, "\n") {
			if !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "every record's first line: ") {
				inIndex = strings.HasPrefix(l, "records, one line each: ")
			}
			tab := strings.IndexByte(l, '\t')
			if !inIndex || !strings.HasPrefix(l, "  ") || tab < 0 {
				continue
			}
			pos, err := strconv.Atoi(strings.TrimSpace(l[:tab]))
			if err != nil {
				continue
			}
			var r *smapsRecord
			for _, x := range recs {
				if x.pos == pos {
					r = x
				}
			}
			if r == nil {
				t.Errorf("%s: %q names no mapping's line", name, l)
				continue
			}
			want := fmt.Sprintf("%d\t%s [Size %d kB; Rss %d kB; Pss %d kB]", pos, strings.Join(r.header, " "), r.vals["Size"], r.vals["Rss"], r.vals["Pss"])
			if strings.TrimSpace(l) != want {
				t.Errorf("%s: index line %q, want %q", name, l, want)
			}
			index = append(index, l)
		}
		if len(index) == 0 {
			t.Errorf("%s: no record in the index:\n%s", name, text)
		}
		for _, l := range prev {
			if !strings.Contains(text, l+"\n") {
				t.Errorf("%s: lost %q of the smaller view", name, l)
			}
		}
		prev = index
		// The query of every record's first line yields every header.
		if b == budgets[len(budgets)-1] && len(index) < len(recs) {
			q := ""
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(l, "every record's first line: compact artifact query ") {
					q = l[strings.Index(l, "--jq '")+6 : len(l)-1]
				}
			}
			if q == "" {
				t.Fatalf("%s: no query of the records' first lines:\n%s", name, text)
			}
			got := runLinesQuery(t, q, lines)
			if len(got) != len(recs) {
				t.Fatalf("%s: the query yields %d lines, want %d", name, len(got), len(recs))
			}
			for i, r := range recs {
				if want := fmt.Sprintf("%d\t%s", r.pos, lines[r.pos]); got[i] != want {
					t.Errorf("%s: query line %d = %q, want %q", name, i, got[i], want)
				}
			}
		}
	}
}

// runLinesQuery runs a jq query (as the view prints it, shell quoting
// undone) over lines as a JSON array of strings.
func runLinesQuery(t *testing.T, q string, lines []string) []string {
	t.Helper()
	q = strings.ReplaceAll(q, `'\''`, `'`)
	query, err := gojq.Parse(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	arr := make([]any, len(lines))
	for i, l := range lines {
		arr[i] = l
	}
	var out []string
	it := query.Run(arr)
	for {
		v, ok := it.Next()
		if !ok {
			break
		}
		if err, ok := v.(error); ok {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// TestRecordFirstLineColumns checks that the first lines of any records
// (a Debian changelog's "coreutils (9.1-1) unstable; urgency=low",
// captured from this machine's /usr/share/doc) are counted by their
// columns, against a count of the header lines split at spaces, and
// that the records of a rare value (urgency=high) are among the
// records shown. The view before named the records only by their
// first lines: how many went to experimental was not stated.
func TestRecordFirstLineColumns(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captured/debian-changelog-coreutils.txt")
	if err != nil {
		t.Fatal(err)
	}
	cols := map[int]map[string]int{}
	var high []int
	for i, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "coreutils (") {
			continue
		}
		f := strings.Fields(l)
		for j := 2; j < len(f); j++ {
			if cols[j] == nil {
				cols[j] = map[string]int{}
			}
			cols[j][f[j]]++
		}
		if f[len(f)-1] == "urgency=high" {
			high = append(high, i)
		}
	}
	if len(cols[2]) < 2 || len(high) == 0 {
		t.Fatalf("the capture has %d distributions, %d urgent uploads", len(cols[2]), len(high))
	}
	views, _ := kvView(t, data, []int{2000, 4000, 8000})
	for b, text := range views {
		for j, m := range cols {
			line := ""
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(l, fmt.Sprintf("  first lines, column %d: ", j+1)) {
					line = l
				}
			}
			if line == "" {
				t.Errorf("at %d: no line of the first lines' column %d:\n%s", b, j+1, text)
				continue
			}
			for v, n := range m {
				if !strings.Contains(line, fmt.Sprintf("%q %d", v, n)) {
					t.Errorf("at %d: %q lacks %q %d", b, line, v, n)
				}
			}
		}
		if b < 8000 {
			continue
		}
		for _, pos := range high {
			if !strings.Contains(text, fmt.Sprintf("\n  %d\t", pos)) {
				t.Errorf("at %d: the urgent upload at line %d is not shown:\n%s", b, pos, text)
			}
		}
	}
}
