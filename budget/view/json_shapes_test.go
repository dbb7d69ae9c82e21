package view_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// coverageMap is an istanbul coverage map (c8's coverage-final.json) of
// n files: each {path, fnMap, f, s} with fnMap and f keyed "0".."k-1"
// (k = 5 + i%4 functions, function j of file i called (i+j)%6 times)
// and s keyed by statement.
func coverageMap(n int) []byte {
	m := map[string]any{}
	for i := range n {
		path := fmt.Sprintf("/src/mod%02d.js", i)
		fnMap, f, s := map[string]any{}, map[string]any{}, map[string]any{}
		for j := range 5 + i%4 {
			fnMap[fmt.Sprint(j)] = map[string]any{"name": fmt.Sprintf("fn%02d_%d", i, j), "line": 10 * j, "loc": map[string]any{"start": map[string]any{"line": 10 * j, "column": 0}}}
			f[fmt.Sprint(j)] = (i + j) % 6
		}
		for j := range 40 + i {
			s[fmt.Sprint(j)] = (i * j) % 3
		}
		m[path] = map[string]any{"path": path, "fnMap": fnMap, "f": f, "s": s}
	}
	data, _ := json.Marshal(m)
	return data
}

// Objects keyed "0".."n-1" are lists: fnMap[].name and f[] are one
// field each, not a field per index filling the profile's cap (before:
// `"0" 18, "1" 18, "10" 18, ...` and "200 more field values are not
// profiled"); a path repeating its record's key is stated once; once
// the rows of a few records are all shown, each record's function
// names are listed with their call counts side by side.
func TestIndexKeyedObjectsAreLists(t *testing.T) {
	data := coverageMap(12)
	in := inputOf(t, data, 6000)
	text := fillAt(t, buildView(t, in), 6000).Text
	// The same with the map's text known (level 2 passes it: the
	// members are read from it, not through Each).
	in.Collections[0].Text = data
	if withText := fillAt(t, buildView(t, in), 6000).Text; withText != text {
		t.Errorf("the view differs with the map's text known:\n%s\n---\n%s", withText, text)
	}
	for _, want := range []string{
		"fnMap (array): 5-8 items, 78 in all",
		"path (string): the same value as the key in every record",
		"f[] (number, 78 values, 6 distinct): ",
		"  /src/mod03.js: fnMap[].name with f[] by position (8): fn03_0 3, fn03_1 4, fn03_2 5, fn03_3 0, fn03_4 1, fn03_5 2, fn03_6 3, fn03_7 4",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("view lacks %q:\n%s", want, text)
		}
	}
	if regexp.MustCompile(`fnMap\."\d+"|not profiled`).MatchString(text) {
		t.Errorf("indices profiled as fields:\n%s", text)
	}
	// Never called: the count of 0 in f[] is stated.
	zero := 0
	for i := range 12 {
		for j := range 5 + i%4 {
			if (i+j)%6 == 0 {
				zero++
			}
		}
	}
	if !regexp.MustCompile(fmt.Sprintf(`f\[\] \(number[^\n]*: [^\n]*\b0 %d\b`, zero)).MatchString(text) {
		t.Errorf("the functions never called (%d) are not counted:\n%s", zero, text)
	}
}

// A list of {name, value} pairs is the record's own fields: the profile
// counts properties.level.value and the rows carry properties.url.value
// (before: properties[].name "url 300, level 300" and
// properties[].value.value, two unrelated lists).
func TestPairListsAreFields(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"nodes":[`)
	for i := range 300 {
		if i > 0 {
			b.WriteByte(',')
		}
		props := fmt.Sprintf(`{"name":"url","value":{"type":"string","value":"/p/%d"}}`, i)
		if i%10 == 0 {
			props += fmt.Sprintf(`,{"name":"level","value":{"type":"integer","value":%d}}`, i%3+1)
		}
		fmt.Fprintf(&b, `{"nodeId":"%d","role":"%s","properties":[%s]}`, i, []string{"link", "text", "text"}[i%3], props)
	}
	b.WriteString(`]}`)
	data := []byte(b.String())
	text := fillAt(t, buildView(t, inputOf(t, data, 4000)), 4000).Text
	for _, want := range []string{
		"properties.level.value (number, in 30 of 300 records): 1 10, 2 10, 3 10, missing 270",
		"properties.url.value (string): 300 distinct",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("view lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "properties[].name") {
		t.Errorf("pairs profiled as a list:\n%s", text)
	}
	// A row shows its url, next to its node id.
	if !regexp.MustCompile(`(?m)^0\t"0"\t[^\n]*/p/0\b`).MatchString(text) {
		t.Errorf("the first row lacks its url:\n%s", text)
	}
}

// A number named like a code (a linter's rule, an HTTP status, an exit
// code) is counted by its values, never summed; a position is not.
func TestCodeNumbersCountedNotSummed(t *testing.T) {
	var b strings.Builder
	b.WriteByte('[')
	codes := []int{2086, 2086, 2086, 2086, 2034, 2034, 1090, 2155, 2162, 2001, 2002, 2003, 2004, 2005}
	for i := range 280 {
		if i > 0 {
			b.WriteByte(',')
		}
		c := codes[i%len(codes)]
		if i%7 == 0 {
			c = 3000 + i // many distinct codes: more than the profile counts one by one
		}
		fmt.Fprintf(&b, `{"file":"f%d.sh","line":%d,"column":%d,"code":%d,"level":%q,"kind":%d,"loc":%d,"message":"m%d"}`, i%9, i*3, i%40, c, []string{"info", "style", "warning", "error"}[i%4], []int{128, 4, 2048}[i%3], 10+i*7%97, i%5)
	}
	b.WriteByte(']')
	text := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 4000)), 4000).Text
	i := strings.Index(text, "\n  code (number")
	if i < 0 {
		t.Fatalf("no code line:\n%s", text)
	}
	line, _, _ := strings.Cut(text[i+1:], "\n")
	n2086 := 0
	for i := range 280 {
		if codes[i%len(codes)] == 2086 && i%7 != 0 {
			n2086++
		}
	}
	if !strings.Contains(line, fmt.Sprintf("most common: 2086 %d,", n2086)) || strings.Contains(line, "sum") || strings.Contains(line, "mean") {
		t.Errorf("code line %q: want its most common values (2086 %d), no sum or mean", line, n2086)
	}
	if regexp.MustCompile(`(?m)^  (line|column|kind) \(number[^\n]*(sum|mean)|(line|column|code) by level`).MatchString(text) {
		t.Errorf("a position summed:\n%s", text)
	}
	// loc counts lines of code (bandit, cloc): a measure.
	if !regexp.MustCompile(`(?m)^  loc \(number\): min 10, max \d+, mean [\d.]+, sum \d+`).MatchString(text) {
		t.Errorf("loc not summed:\n%s", text)
	}
}

// A stream of events told apart by a tag whose one summary record sums
// up the run (rg --json: begin, match, end, then one summary) states the
// summary whole with the profile: its totals are facts about the whole
// output (before: the summary's matches and elapsed time were only in
// its row, when one was chosen).
func TestOneOffRecordStated(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, `{"type":"begin","data":{"path":{"text":"f%d.py"}}}`+"\n", i)
		for j := range 1 + i%3 {
			fmt.Fprintf(&b, `{"type":"match","data":{"path":{"text":"f%d.py"},"line_number":%d}}`+"\n", i, 10+j)
		}
		fmt.Fprintf(&b, `{"type":"end","data":{"path":{"text":"f%d.py"},"stats":{"matches":%d,"bytes_searched":%d}}}`+"\n", i, 1+i%3, 1000+i)
	}
	b.WriteString(`{"type":"summary","data":{"elapsed_total":{"human":"0.178087s"},"stats":{"matches":120,"bytes_searched":61770,"searches":60}}}` + "\n")
	text := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 2000)), 2000).Text
	want := "the only record with type=summary (record 240): data.elapsed_total.human=0.178087s, data.stats.matches=120, data.stats.bytes_searched=61770, data.stats.searches=60"
	if !strings.Contains(text, want) {
		t.Errorf("view lacks %q:\n%s", want, text)
	}
}

// axTree is n accessibility nodes: every 10th a heading (named
// "Heading K"), every 7th a link, the others text; chromeRole.value a
// number coding role.value one for one; nodeId and parentId numbers as
// strings.
func axTree(n int) []byte {
	codes := map[string]int{"heading": 96, "link": 110, "StaticText": 158}
	var b strings.Builder
	b.WriteString(`{"nodes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		role, name := "StaticText", fmt.Sprintf("text %d", i)
		switch {
		case i%10 == 0:
			role, name = "heading", fmt.Sprintf("Heading %d", i/10)
		case i%7 == 0:
			role, name = "link", fmt.Sprintf("Link %d", i/7)
		}
		props := ""
		if role == "heading" {
			props = fmt.Sprintf(`,"properties":[{"name":"level","value":{"type":"integer","value":%d}}]`, i/10%3+1)
		}
		fmt.Fprintf(&b, `{"nodeId":"%d","parentId":"%d","role":{"type":"role","value":%q},"chromeRole":{"type":"internalRole","value":%d},"name":{"type":"computedString","value":%q}%s}`,
			i+2, i/3+1, role, codes[role], name, props)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// The index names its records by their name (name.value, long or
// nested), not by a number that codes another field's values
// (chromeRole.value: 96 for every heading, 110 for every link); and the
// records of the rarer values are listed by name, in order, one line
// per value (the first and the last heading, every link), with the
// values of a field every one of them has (a heading's level), whatever
// part of the records the index reaches.
func TestIndexNamesAndValueGroups(t *testing.T) {
	data := axTree(300)
	text := fillAt(t, buildView(t, inputOf(t, data, 4000)), 4000).Text
	head := regexp.MustCompile(`(?m)^index of \.nodes, [^\n]*\(tab-separated: ([^)]*)\):$`).FindStringSubmatch(text)
	if head == nil || !strings.Contains(head[1], "name.value") || strings.Contains(head[1], "chromeRole.value") {
		t.Errorf("index columns %v: want name.value, not chromeRole.value:\n%s", head, text)
	}
	if strings.Contains(text, "chromeRole.value=") {
		t.Errorf("a code of role.value is a reason:\n%s", text)
	}
	var headings []string
	for i := 0; i < 300; i += 10 {
		headings = append(headings, fmt.Sprintf("Heading %d (level.value=%d)", i/10, i/10%3+1))
	}
	want := "  role.value=heading (30 records), their name.value in order: " + strings.Join(headings, ", ")
	if !strings.Contains(text, want) {
		t.Errorf("view lacks %q:\n%s", want, text)
	}
}

// TestDistinctNumbersAreNoCode: numbers that are all distinct pair one for
// one with any other distinct field (a benchmark's means with its
// commands), so they are measures, not a code of the names: the rows
// show them (hyperfine --export-json lost its mean and median columns).
func TestDistinctNumbersAreNoCode(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"results":[`)
	for i := range 12 {
		if i > 0 {
			b.WriteByte(',')
		}
		m := 0.1 + float64((i*7)%12)*0.21
		fmt.Fprintf(&b, `{"command":"gzip -%d big.tar","mean":%g,"median":%g,"user":%g,"times":[%g,%g],"exit_codes":[0,0]}`,
			i+1, m, m*1.01, m*0.9, m, m+0.001)
	}
	b.WriteString(`]}`)
	text := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 2000)), 2000).Text
	head := regexp.MustCompile(`(?m)^#\t(.*)\twhy$`).FindStringSubmatch(text)
	if head == nil || !strings.Contains(head[1], "mean") || !strings.Contains(head[1], "median") {
		t.Errorf("row columns %v: want mean and median (measures, not codes of command):\n%s", head, text)
	}
}

// TestFewestItemsAfterEmptyArrays: an empty array seen first is the
// fewest items; a later longer array does not replace it (the view said
// "3-3 items, 87 in all, 1 empty", contradicting itself).
func TestFewestItemsAfterEmptyArrays(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[{"id":"r0","a":[]}`)
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, `,{"id":"r%d","a":[1,2,%d]}`, i, i)
	}
	b.WriteString(`]`)
	text := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 4000)), 4000).Text
	if !strings.Contains(text, "a (array): 0-3 items, 87 in all") {
		t.Errorf("want the fewest items 0 (one empty array):\n%s", text)
	}
}
