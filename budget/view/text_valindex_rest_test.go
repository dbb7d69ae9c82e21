package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestValueIndexRest: an index by value that lists only some rows says
// how many it leaves out and gives the query of exactly those (rev14
// R2): run over the lines as compact artifact query reads them, it
// returns rows none of which the index lists, and they with the listed
// ones are every row of the table (rows found by an independent
// pattern), in line order. On captured gcc -Q --help=optimizers and
// getconf -a, at 1,500-12,000 tokens. Fails on 2a389e3: the index
// said "showing N of M rows" and gave no such query.
func TestValueIndexRest(t *testing.T) {
	foot := regexp.MustCompile(`(?m)^the ([0-9,]+) rows not in this index, in line order: compact artifact query 0123456789ab --jq '(.*)'$`)
	for _, tc := range valueIndexCases {
		data := readCapture(t, tc.file)
		lines := rawLines(data)
		rows := map[string]int{} // name -> line
		for i, l := range lines {
			if m := tc.row.FindStringSubmatch(l); m != nil && !strings.HasPrefix(l, "The following") {
				rows[m[1]] = i
			}
		}
		cut := 0
		for _, b := range []int{1500, 3000, 6000, 12000} {
			name := fmt.Sprintf("%s at %d", tc.file, b)
			text := fillText(t, data, b)
			i := strings.Index(text, "index of the rows by column 2 (")
			if i < 0 {
				t.Fatalf("%s: no index by value", name)
			}
			var shown, total int
			fmt.Sscanf(strings.ReplaceAll(text[i+strings.Index(text[i:], "showing "):], ",", ""), "showing %d of %d rows", &shown, &total)
			listed := map[string]bool{}
			for _, l := range strings.Split(text[i:], "\n")[1:] {
				if strings.HasPrefix(l, "the ") && strings.Contains(l, "rows not in this index") {
					continue
				}
				if !strings.HasPrefix(l, "  ") {
					break
				}
				if m := valueGroupLine.FindStringSubmatch(l); m != nil {
					for _, n := range strings.Fields(m[5]) {
						listed[n] = true
					}
				} else {
					listed[strings.Fields(l)[0]] = true
				}
			}
			if len(listed) != shown || total != len(rows) {
				t.Fatalf("%s: %d names listed, %d rows found; the head says %d of %d", name, len(listed), len(rows), shown, total)
			}
			f := foot.FindStringSubmatch(text)
			if f == nil {
				if shown < total {
					t.Errorf("%s: the index lists %d of %d rows and gives no query for the rest", name, shown, total)
				}
				continue
			}
			cut++
			rest := jqLines(t, data, strings.ReplaceAll(f[2], `'\''`, `'`))
			if n, _ := strconv.Atoi(strings.ReplaceAll(f[1], ",", "")); n != len(rest) || len(rest)+shown != total {
				t.Errorf("%s: %d listed, the query returns %d (its line says %s) of %d rows", name, shown, len(rest), f[1], total)
			}
			prev := -1
			for _, r := range rest {
				p := strings.SplitN(r.(string), "\t", 2)
				pos, _ := strconv.Atoi(p[0])
				m := tc.row.FindStringSubmatch(p[1])
				if m == nil || rows[m[1]] != pos || lines[pos] != p[1] {
					t.Errorf("%s: the query returns %q, no row of the table", name, r)
					continue
				}
				if listed[m[1]] {
					t.Errorf("%s: the query returns %q, which the index lists", name, r)
				}
				if pos <= prev {
					t.Errorf("%s: the query's rows are not in line order at %q", name, r)
				}
				prev = pos
			}
		}
		if cut == 0 {
			t.Errorf("%s: no budget lists only some of the rows", tc.file)
		}
	}
}
