package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSplitKinds checks how the captured tables of text_split.go split:
// the mode, the lead, the cells of a row, rows with fewer cells, rule
// lines and footers as other lines.
func TestSplitKinds(t *testing.T) {
	for _, c := range []struct {
		name     string
		mode     splitMode
		lead     string
		minK     int
		row      string
		cells    []string
		notARow  []string
		bordered bool
	}{
		{"psql-pg-class.txt", byBar, "", 8, " pg_class                                       | pg_catalog         | r       |      33 |    14 | t         | p           | postgres",
			[]string{"pg_class", "pg_catalog", "r", "33", "14", "t", "p", "postgres"}, []string{"(410 rows)", "------+------"}, false},
		{"sqlite-table-packages.txt", byBar, "", 5, "| jq                             | utils    | optional  | 100     | amd64 |",
			[]string{"jq", "utils", "optional", "100", "amd64"}, []string{"+-----+----+"}, true},
		{"go-cover-func-pflag.txt", byTabRuns, "", 3, "github.com/spf13/pflag/flag.go:1209:\t\tParseAll\t\t\t41.7%",
			[]string{"github.com/spf13/pflag/flag.go:1209:", "ParseAll", "41.7%"}, []string{"no tabs here"}, false},
		{"go-version-m-tools.txt", byTab, "\t", 2, "\tbuild\tCGO_ENABLED=1",
			[]string{"build", "CGO_ENABLED=1"}, []string{"/usr/bin/kpt: go1.23.6"}, false},
		{"apt-cache-rdepends-debconf.txt", byLine, " ", 1, " |tzdata",
			[]string{"|tzdata"}, []string{"Reverse Depends:", "debconf"}, false},
	} {
		data := readCapture(t, c.name)
		sp := detectColumns(data, detectTextKind(data))
		if sp == nil {
			t.Errorf("%s: no table", c.name)
			continue
		}
		if sp.mode != c.mode || sp.lead != c.lead || sp.minK != c.minK || sp.bordered != c.bordered {
			t.Errorf("%s: mode %d lead %q minK %d bordered %v; want %d %q %d %v", c.name, sp.mode, sp.lead, sp.minK, sp.bordered, c.mode, c.lead, c.minK, c.bordered)
		}
		if f := sp.fields(c.row); strings.Join(f, "\x00") != strings.Join(c.cells, "\x00") {
			t.Errorf("%s: %q splits into %q, want %q", c.name, c.row, f, c.cells)
		}
		for _, l := range c.notARow {
			if f := sp.fields(l); f != nil {
				t.Errorf("%s: %q is a row %q", c.name, l, f)
			}
		}
	}
	// A Markdown table: the rule holds the bar, and is no row.
	var md strings.Builder
	md.WriteString("| name | size |\n|------|-----:|\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&md, "| f%02d | %d |\n", i, i*3)
	}
	sp := detectColumns([]byte(md.String()), textPlain)
	if sp == nil || sp.mode != byBar || !sp.bordered || !sp.barRules || strings.Join(sp.header, ",") != "name,size" {
		t.Fatalf("Markdown table: %+v", sp)
	}
	if f := sp.fields("|------|-----:|"); f != nil {
		t.Errorf("the rule is a row: %q", f)
	}
	// Bars that mark names ("  |alt" of apt-cache rdepends) and a graph
	// of bars are no table of bars.
	var alt strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&alt, "  |pkg%d\n", i)
	}
	if sp := detectColumns([]byte(alt.String()), textPlain); sp == nil || sp.mode != byLine {
		t.Errorf("marked names: %+v, want a list", sp)
	}
}

// quotedCounts are the `"value" N` pairs of a view line.
var quotedCounts = regexp.MustCompile(`"((?:[^"\\]|\\.)*)" ([0-9,]+)`)

func atoiCommas(t *testing.T, s string) int {
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNameExtrasAgainstJQ checks every count the marks, repeats, shared
// starts and ends and forms lines state against jq over the column's
// cells (split by the view's own jq expression), and the forms with a
// regular expression of their own.
func TestNameExtrasAgainstJQ(t *testing.T) {
	masked := regexp.MustCompile(`(^|[^0-9A-Za-z])[0-9]+`)
	lines := 0
	for name := range columnCaptures {
		data := readCapture(t, name)
		p := analyzeText(data, nil)
		cp := p.cols
		for i, c := range cp.cols {
			vals := jqLines(t, data, fmt.Sprintf(`[to_entries[] | select(.key != %d) | .value | %s | select(. != null)]`, cp.split.headPos, cp.split.jqField(i)))[0]
			ex := c.nameExtras()
			q := func(filter string) any { return runJQ(t, vals, filter)[0] }
			strip := `map(if test("^[|!*+~^=<>?#%&-][A-Za-z0-9]") then .[1:] else . end)`
			if l := ex[0]; l != "" { // marks
				lines++
				for _, m := range quotedCounts.FindAllStringSubmatch(l, -1) {
					mark, _ := strconv.Unquote(`"` + m[1] + `"`)
					want := q(fmt.Sprintf(`map(select(startswith(%s) and (.[1:2] | test("[A-Za-z0-9]")))) | length`, jqString(mark)))
					if atoiCommas(t, m[2]) != want {
						t.Errorf("%s %s: mark %q in %s rows, jq %v", name, c.name, mark, m[2], want)
					}
				}
				if want := fmt.Sprintf("without the mark, %s distinct names", commas(q(strip+` | unique | length`).(int))); !strings.Contains(l, want) {
					t.Errorf("%s %s: %q lacks %q", name, c.name, l, want)
				}
			}
			if l := ex[1]; l != "" { // repeats
				lines++
				got := q(`group_by(.) | map(select(length > 1)) | "\(length) values in \(map(length) | add) rows"`).(string)
				if re := regexp.MustCompile(`([0-9,]+) values in ([0-9,]+) rows`).FindStringSubmatch(l); re == nil || fmt.Sprintf("%d values in %d rows", atoiCommas(t, re[1]), atoiCommas(t, re[2])) != got {
					t.Errorf("%s %s: %q, jq %s", name, c.name, l, got)
				}
			}
			for k, end := range []bool{false, true} { // shared starts and ends
				l := ex[2+k]
				if l == "" {
					continue
				}
				lines++
				for _, m := range quotedCounts.FindAllStringSubmatch(l, -1) {
					part, _ := strconv.Unquote(`"` + m[1] + `"`)
					test := fmt.Sprintf(`startswith(%s)`, jqString(strings.TrimSuffix(part, "…")))
					if end {
						test = fmt.Sprintf(`endswith(%s)`, jqString(strings.TrimPrefix(part, "…")))
					}
					if want := q(strip + ` | map(select(` + test + `)) | length`); atoiCommas(t, m[2]) != want {
						t.Errorf("%s %s: %q in %s rows, jq %v", name, c.name, part, m[2], want)
					}
				}
			}
			if l := ex[4]; l != "" { // forms
				lines++
				forms := map[string]int{}
				for _, v := range vals.([]any) {
					forms[masked.ReplaceAllString(v.(string), "${1}#")]++
				}
				for _, m := range quotedCounts.FindAllStringSubmatch(l, -1) {
					form, _ := strconv.Unquote(`"` + m[1] + `"`)
					if atoiCommas(t, m[2]) != forms[form] {
						t.Errorf("%s %s: form %q in %s rows, counted %d", name, c.name, form, m[2], forms[form])
					}
				}
			}
		}
	}
	if lines < 8 {
		t.Errorf("only %d lines of marks, repeats, shared parts and forms checked", lines)
	}
}

// TestIndexAgainstJQ checks every entry of the index of the captured
// tables: its line's cells of the index columns, split by jq, cut as the
// index cuts them; a larger budget shows a longer prefix of it. A line of
// a run of rows ("first-last<TAB>K rows with "c1" "c2": n1 n2 ...") holds
// jq's rows of lines first-last: K of them, each with those cells, their
// names in order.
func TestIndexAgainstJQ(t *testing.T) {
	runs := 0 // index lines of a run of rows checked
	for name := range columnCaptures {
		data := readCapture(t, name)
		v := buildText(t, data, 8000)
		p := analyzeText(data, nil)
		cols := p.cols.indexColumns()
		if _, _, ok := p.cols.nameValue(cols); ok {
			continue // indexed by value: TestValueIndex
		}
		entries := 0
		for _, c := range v.cands {
			if c.Reason != "index" {
				continue
			}
			text := c.text()
			if p.cols.split.mode == byLine {
				var from, to int
				var rest string
				if _, err := fmt.Sscanf(strings.SplitN(strings.TrimSpace(text), "\t", 2)[0], "%d-%d", &from, &to); err != nil {
					t.Fatalf("%s: %q: %v", name, text, err)
				}
				rest = strings.SplitN(text, "\t", 2)[1]
				var cells []string
				for _, v := range jqLines(t, data, fmt.Sprintf(`.[%d:%d][] | %s | .[0]`, from, to+1, p.cols.split.jqFields())) {
					cells = append(cells, cut(v.(string), listCellCut))
				}
				if want := strings.Join(cells, " "); rest != want {
					t.Errorf("%s: index %d-%d %q, jq %q", name, from, to, rest, want)
				}
				entries += strings.Count(rest, " ") + 1
				continue
			}
			// jq's cells of a row, cut as the index cuts them.
			want := func(row []any) []string {
				var want []string
				for j, i := range cols {
					if i < len(row) {
						v, ok := row[i].(string)
						if !ok {
							v = absentCell // (null: a key the line lacks)
						}
						if v == "" {
							v = `""`
						}
						w := indexCellCut
						if j == 0 {
							w = indexIDCut // the identity
						}
						want = append(want, cut(v, w))
					}
				}
				return want
			}
			for _, l := range strings.Split(text, "\n") {
				parts := strings.SplitN(strings.TrimSpace(l), "\t", 2)
				var from, to int
				if n, _ := fmt.Sscanf(parts[0], "%d-%d", &from, &to); n == 2 {
					// A run of rows with the same cells: jq's rows of
					// lines from-to, each with those cells after its
					// name, the names in order.
					m := regexp.MustCompile(`^([0-9]+) rows with ((?:"(?:[^"\\]|\\.)*" ?)+): (.*)$`).FindStringSubmatch(parts[1])
					if m == nil {
						t.Fatalf("%s: index line %q", name, l)
					}
					k, _ := strconv.Atoi(m[1])
					rows := jqLines(t, data, fmt.Sprintf(`.[%d:%d][] | %s`, from, to+1, p.cols.split.jqFields()))
					names, join := make([]string, len(rows)), " "
					for r, row := range rows {
						w := want(row.([]any))
						var qs []string
						for _, c := range w[1:] {
							if c == `""` {
								c = ""
							}
							qs = append(qs, strconv.Quote(c))
						}
						if q := strings.Join(qs, " "); q != m[2] {
							t.Errorf("%s: index %d-%d: row %d of %d has cells %s, the line says %s", name, from, to, r, len(rows), q, m[2])
						}
						names[r] = w[0]
						if strings.Contains(row.([]any)[cols[0]].(string), " ") {
							join = ", "
						}
					}
					if len(rows) != k || k < minRunRows || strings.Join(names, join) != m[3] {
						t.Errorf("%s: index line %q: jq has %d rows named %q", name, l, len(rows), strings.Join(names, join))
					}
					entries += k
					runs++
					continue
				}
				pos, _ := strconv.Atoi(parts[0])
				cells := jqLines(t, data, fmt.Sprintf(`.[%d] | %s`, pos, p.cols.split.jqFields()))
				if len(cells) != 1 {
					t.Fatalf("%s: line %d is no row for jq", name, pos)
				}
				if w := strings.Join(want(cells[0].([]any)), " "); parts[1] != w {
					t.Errorf("%s: index line %d %q, jq %q", name, pos, parts[1], w)
				}
				entries++
			}
		}
		if p.cols.rows >= 2*indexChunk && cols != nil && entries == 0 {
			t.Errorf("%s: no index of %d rows", name, p.cols.rows)
		}
	}
	if runs == 0 {
		t.Error("no index line of a run of rows checked")
	}
}

// TestHeaderAfterTitle: a whitespace table whose header comes after a
// title line (readelf -Ws: "Symbol table '.dynsym' contains N entries:"
// above "Num: Value Size Type Bind Vis Ndx Name") is read under that
// header, not with the header as a data row (it was "column 4: Type 1",
// the header chosen as a rare row).
func TestHeaderAfterTitle(t *testing.T) {
	var b strings.Builder
	b.WriteString("\nSymbol table '.dynsym' contains 30 entries:\n   Num:    Value          Size Type    Bind   Vis      Ndx Name\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "%6d: %016x %5d %-7s GLOBAL DEFAULT %4d sym%d@@GLIBC_2.2.5\n", i, 0x1000+i*16, i*8, map[bool]string{true: "FUNC", false: "OBJECT"}[i%3 > 0], 16, i)
	}
	data := []byte(b.String())
	sp := detectColumns(data, detectTextKind(data))
	if sp == nil || sp.k != 8 || sp.headPos != 2 || strings.Join(sp.header, ",") != "Num:,Value,Size,Type,Bind,Vis,Ndx,Name" {
		t.Fatalf("readelf-like table: %+v", sp)
	}
	p := analyzeText(data, nil)
	if c := p.cols.cols[3]; c.values["Type"] != 0 || c.values["FUNC"] != 20 || c.values["OBJECT"] != 10 || !p.cols.cols[2].isNumber() {
		t.Errorf("Type %v, Size numeric %v", c.values, p.cols.cols[2].isNumber())
	}
}
