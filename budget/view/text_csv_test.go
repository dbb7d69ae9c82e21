package view

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestQuotedCellsAsJQ: the cells of every line of a CSV engine's data
// file (MariaDB's general_log.CSV: quoted cells holding commas) and of
// lines made to break the rules are the same in Go and in the jq the
// view suggests, and a line that is no row is no row in both.
func TestQuotedCellsAsJQ(t *testing.T) {
	data := readTestdata(t, "mariadb-general-log.csv")
	odd := strings.Join([]string{
		`,a,,"b,c"`,
		`"x""y",'it\'s, ok' , plain text ,"",''`,
		`"open, never closed`,
		`"closed" junk,after`,
		`  "padded"  ,  7  `,
		`a;b,c`,
		`'a'`,
		`é,"ü,ß",日本`,
		``,
	}, "\n") + "\n"
	for _, in := range [][]byte{data, []byte(odd)} {
		q := jqQuotedCells(",")
		var lines []string
		textLines(in, func(_ int, l string) { lines = append(lines, l) })
		for i, l := range lines {
			want := sepQuotedCells(l, ",")
			got := runJQ(t, l, q)
			switch {
			case want == nil && len(got) != 0:
				t.Errorf("line %d %q: no row in Go, jq gives %v", i, l, got)
			case want != nil && len(got) != 1:
				t.Errorf("line %d %q: Go cells %q, jq gives %d results", i, l, want, len(got))
			case want != nil:
				var g []string
				for _, c := range got[0].([]any) {
					g = append(g, c.(string))
				}
				if !reflect.DeepEqual(g, want) {
					t.Errorf("line %d %q: Go cells %q, jq cells %q", i, l, want, g)
				}
			}
		}
	}
	if c := sepQuotedCells(`"x""y",'it\'s, ok' , plain text ,"",''`, ","); !reflect.DeepEqual(c, []string{`x""y`, `it\'s, ok`, "plain text", "", ""}) {
		t.Errorf("cells %q", c)
	}
	for _, l := range []string{`"open, never closed`, `"closed" junk,after`} {
		if c := sepQuotedCells(l, ","); c != nil {
			t.Errorf("%q: cells %q, want no row", l, c)
		}
	}
}

// TestQuotedCSVIsATable: MariaDB's general_log.CSV (no header; its
// statements quoted, with commas inside) is a table of all its 1,470
// lines, 6 columns; its command column (field 5) is counted over every
// line, as jq counts it from the raw lines. On main the text was no
// table at all (a split at every comma disagrees).
func TestQuotedCSVIsATable(t *testing.T) {
	data := readTestdata(t, "mariadb-general-log.csv")
	p := analyzeText(data, nil)
	if p.cols == nil || !p.cols.split.quoted || p.cols.rows != 1470 || p.cols.split.k != 6 || p.cols.other != 0 {
		t.Fatalf("table: %+v", p.cols)
	}
	text := fillText(t, data, 4000)
	counts := runJQ(t, jqTextLines(data), `[.[] | `+p.cols.split.jqField(4)+`] | group_by(.) | map("\"\(.[0])\" \(length)") | join(", ")`)
	// The view lists the values most frequent first, as the counts are.
	want := `column 5: "Execute" 617, "Query" 259, "Connect" 258, "Quit" 256, "Close stmt" 40, "Prepare" 40`
	if !strings.Contains(text, want) {
		t.Errorf("view lacks %q (jq: %v):\n%s", want, counts, text)
	}
	for _, v := range []string{`"Execute" 617`, `"Prepare" 40`, `"Quit" 256`} {
		if !strings.Contains(fmt.Sprint(counts), v) {
			t.Errorf("jq counts %v lack %s", counts, v)
		}
	}
}

// jqTextLines is data as compact artifact query reads a text: an array
// of its lines.
func jqTextLines(data []byte) []any {
	var lines []any
	textLines(data, func(_ int, l string) { lines = append(lines, l) })
	return lines
}

// TestFewQuotedCellsCSVWithNamesHeader: psql --csv of pg_settings quotes
// only the cells that hold a comma (20 of 355 lines) and has no column of
// numbers under its header of names. Before, quotes were tried only when
// a tenth of the lines had a quoted cell: those 20 rows fell out of the
// table ("335 rows ... 20 other lines"), and the header, taken for a row
// (no column of numbers to tell it apart), made "unit" and "context" rare
// values of unnamed columns. Now every row is read, the first line is the
// header, and the counts of a column are jq's over the raw lines.
func TestFewQuotedCellsCSVWithNamesHeader(t *testing.T) {
	data := readTestdata(t, "psql-csv-pg-settings.csv")
	p := analyzeText(data, nil)
	if p.cols == nil || !p.cols.split.quoted || p.cols.split.k != 13 || p.cols.other != 0 || p.cols.rows != 354 {
		t.Fatalf("table: %+v", p.cols)
	}
	if h := p.cols.split.header; len(h) != 13 || h[0] != "name" || h[5] != "context" || p.cols.split.headPos != 0 {
		t.Fatalf("header %q at %d", h, p.cols.split.headPos)
	}
	counts := runJQ(t, jqTextLines(data), `[.[1:][] | `+p.cols.split.jqField(5)+`] | group_by(.) | map({key: .[0], value: length}) | sort_by(-.value) | map("\"\(.key)\" \(.value)") | join(", ")`)
	want := `context: "user" 136, "sighup" 92, "postmaster" 55, "superuser" 45, "internal" 20, "superuser-backend" 4, "backend" 2`
	if len(counts) != 1 || "context: "+counts[0].(string) != want {
		t.Fatalf("jq counts %v, want %s", counts, want)
	}
	text := fillText(t, data, 4000)
	if !strings.Contains(text, want) {
		t.Errorf("view lacks %q:\n%s", want, text)
	}
	if strings.Contains(text, `"unit" is rare`) || strings.Contains(text, "column 6:") {
		t.Errorf("the header is read as a row:\n%s", text)
	}
}

// TestNamesHeaderNeedsOwnValues: a CSV whose first line is a row of
// words like every other (no numbers anywhere) keeps it as a row: its
// cells are the columns' common values, not values of their own.
func TestNamesHeaderNeedsOwnValues(t *testing.T) {
	var b strings.Builder
	states := []string{"open", "closed", "merged"}
	kinds := []string{"bug", "feature"}
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "item%c%c,%s,%s,owner%c\n", 'a'+i%26, 'a'+i/26, states[i%3], kinds[i%2], 'a'+i%5)
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.cols == nil || p.cols.split.k != 4 {
		t.Fatalf("table: %+v", p.cols)
	}
	if p.cols.split.header != nil || p.cols.rows != 40 {
		t.Errorf("first row taken as a header %q; rows %d", p.cols.split.header, p.cols.rows)
	}
}

// TestNamesHeaderNotARowWithCommonValues: a CSV with no header whose
// first row holds, in two of its few-valued columns, values no other row
// holds (a team and an owner seen once) but common ones in the others
// ("prod", "running") is a row: all 601 lines are rows and no column is
// named by the first row's cells (a second read found the rule of two
// columns took it for a header).
func TestNamesHeaderNotARowWithCommonValues(t *testing.T) {
	teams := []string{"billing", "search", "auth", "ledger", "mail", "infra", "data", "web"}
	envs := []string{"prod", "staging", "dev"}
	owners := []string{"bob", "carol", "dave", "erin", "frank", "grace", "heidi"}
	var b strings.Builder
	b.WriteString("api-gateway,payments,prod,alice,running\n")
	for i := 0; i < 600; i++ {
		state := "running"
		if i%5 == 0 {
			state = "stopped"
		}
		fmt.Fprintf(&b, "svc-%03d-worker,%s,%s,%s,%s\n", i, teams[i%8], envs[i%3], owners[i%7], state)
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.cols == nil || p.cols.split.k != 5 {
		t.Fatalf("table: %+v", p.cols)
	}
	if p.cols.split.header != nil || p.cols.rows != 601 {
		t.Errorf("first row taken as a header %q; rows %d, want 601", p.cols.split.header, p.cols.rows)
	}
}
