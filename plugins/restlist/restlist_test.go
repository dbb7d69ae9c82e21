package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/toolcompact/compact/plugins/pdk"
)

// parsedTable is a table payload read back with the level-1 table rules
// (budget/table.go), independently of the code that wrote it.
type parsedTable struct {
	header []string
	rows   [][]any // decoded cells; absentCell where a cell is empty
}

type absent struct{}

var absentCell = absent{}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("cell %q: %v", s, err)
	}
	return v
}

// readCell reads one cell: empty is absent, JSON text is decoded, anything
// else is the literal text of a string.
func readCell(t *testing.T, c string) any {
	t.Helper()
	if c == "" {
		return absentCell
	}
	if c[0] == '"' || c[0] == '{' || c[0] == '[' || c == "true" || c == "false" || c == "null" {
		return decodeJSON(t, c)
	}
	if (c[0] == '-' || (c[0] >= '0' && c[0] <= '9')) && json.Valid([]byte(c)) {
		return decodeJSON(t, c)
	}
	return c
}

func parseTable(t *testing.T, body []byte) parsedTable {
	t.Helper()
	lines := strings.Split(string(body), "\n")
	var p parsedTable
	for _, name := range strings.Split(lines[0], "\t") {
		if strings.HasPrefix(name, `"`) {
			var n string
			if err := json.Unmarshal([]byte(name), &n); err != nil {
				t.Fatalf("header %q: %v", name, err)
			}
			name = n
		}
		p.header = append(p.header, name)
	}
	for _, l := range lines[1:] {
		cells := strings.Split(l, "\t")
		if len(cells) != len(p.header) {
			t.Fatalf("row %q has %d cells, header has %d", l, len(cells), len(p.header))
		}
		var row []any
		for _, c := range cells {
			row = append(row, readCell(t, c))
		}
		p.rows = append(p.rows, row)
	}
	return p
}

// want computes a cell's expected value from the input decoded with
// encoding/json: what the column path reaches, a JSON array for list
// columns, absent when the path reaches nothing.
func want(rec map[string]any, path string) any {
	parts := strings.Split(path, ".")
	top, ok := rec[strings.TrimSuffix(parts[0], "[]")]
	if !ok {
		return absentCell
	}
	list := strings.Contains(path, "[]")
	if list && top == nil {
		return nil
	}
	vals := []any{rec}
	for i, part := range parts {
		each := strings.HasSuffix(part, "[]")
		key := strings.TrimSuffix(part, "[]")
		var next []any
		for _, v := range vals {
			m, ok := v.(map[string]any)
			if !ok {
				continue
			}
			x, ok := m[key]
			if !ok || (x == nil && (each || i < len(parts)-1)) {
				continue
			}
			if each {
				if arr, ok := x.([]any); ok {
					next = append(next, arr...)
				}
				continue
			}
			next = append(next, x)
		}
		vals = next
	}
	if list {
		if vals == nil {
			vals = []any{}
		}
		return vals
	}
	if len(vals) == 0 {
		return absentCell
	}
	return vals[0]
}

func decodeRecords(t *testing.T, in []byte, path string) []map[string]any {
	t.Helper()
	root := decodeJSON(t, string(in))
	if path != "." {
		key := strings.TrimPrefix(path, ".")
		if q, ok := strings.CutPrefix(key, "["); ok {
			if err := json.Unmarshal([]byte(strings.TrimSuffix(q, "]")), &key); err != nil {
				t.Fatalf("path %s: %v", path, err)
			}
		}
		root = root.(map[string]any)[key]
	}
	var recs []map[string]any
	for _, r := range root.([]any) {
		recs = append(recs, r.(map[string]any))
	}
	return recs
}

// checkTable verifies a table against its input: one row per record in
// order, every cell read back equal to the record's value, and every
// top-level member shown or reported in the header's actions.
func checkTable(t *testing.T, name string, in []byte, cfg map[string]string) (parsedTable, pdk.OutputHeader) {
	t.Helper()
	o, err := parseOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h, body, err := render(in, o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if h.ContentType != "text/x-compact-table" || len(h.Collections) != 1 {
		t.Fatalf("%s: header %+v", name, h)
	}
	recs := decodeRecords(t, in, h.Collections[0].Path)
	if h.Collections[0].Count != len(recs) {
		t.Fatalf("%s: declared %d records, input has %d", name, h.Collections[0].Count, len(recs))
	}
	if _, again, _ := render(in, o); !bytes.Equal(again, body) {
		t.Fatalf("%s: not deterministic", name)
	}
	p := parseTable(t, body)
	if len(p.rows) != len(recs) {
		t.Fatalf("%s: %d rows for %d records", name, len(p.rows), len(recs))
	}
	for i, rec := range recs {
		for j, col := range p.header {
			if w := want(rec, col); !reflect.DeepEqual(p.rows[i][j], w) {
				t.Fatalf("%s: record %d column %s: cell reads back as %#v, want %#v", name, i, col, p.rows[i][j], w)
			}
		}
	}
	reported := strings.Join(p.header, " ")
	for _, a := range h.Actions {
		reported += " " + a.Target
	}
	for _, rec := range recs {
		for k := range rec {
			if !strings.Contains(reported, k) {
				t.Fatalf("%s: member %q is neither shown nor reported (%s)", name, k, reported)
			}
		}
	}
	return p, h
}

func targets(h pdk.OutputHeader, kind string) string {
	var ts []string
	for _, a := range h.Actions {
		if a.Kind == kind {
			ts = append(ts, a.Target)
		}
	}
	return strings.Join(ts, " ")
}

func captured(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../testdata/captured/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGitHubIssues(t *testing.T) {
	in := captured(t, "github-issues.json")
	p, h := checkTable(t, "github.issues", in, nil)
	wantHeader := []string{"number", "title", "state", "state_reason", "draft", "user.login", "assignees[].login", "labels[].name", "milestone.title", "comments", "created_at", "updated_at", "closed_at"}
	if !reflect.DeepEqual(p.header[:len(wantHeader)], wantHeader) {
		t.Errorf("header %q", p.header)
	}
	for _, noisy := range []string{".[].node_id", ".[].reactions", ".[].html_url", ".[].body"} {
		if !strings.Contains(targets(h, "drop_field"), noisy) {
			t.Errorf("%s not reported as not shown: %q", noisy, targets(h, "drop_field"))
		}
	}
	if !strings.Contains(targets(h, "drop_empty"), ".[].type") {
		t.Errorf("type (null everywhere) not reported: %q", targets(h, "drop_empty"))
	}
	// Explicit columns, in the order given.
	p, _ = checkTable(t, "github.issues", in, map[string]string{"keep": "title,number,user.login,labels[].name,body"})
	if !reflect.DeepEqual(p.header, []string{"title", "number", "user.login", "labels[].name", "body"}) {
		t.Errorf("keep: header %q", p.header)
	}
	p, _ = checkTable(t, "github.issues", in, map[string]string{"drop": "created_at,*_at,comments"})
	for _, col := range p.header {
		if col == "created_at" || col == "updated_at" || col == "closed_at" || col == "comments" {
			t.Errorf("drop: header %q", p.header)
		}
	}
}

func TestOtherCapturedLists(t *testing.T) {
	for _, f := range []string{"sqlite-orders.json", "cloudwatch-alarms.json", "kubectl-pods.json"} {
		t.Run(f, func(t *testing.T) { checkTable(t, f, captured(t, f), nil) })
	}
}

// pad makes a small test list larger than its table by giving every
// record a long "url", a member dropped by default.
func pad(s string) []byte {
	return []byte(strings.ReplaceAll(s, `{"`, `{"url":"https://api.example.com/`+strings.Repeat("x", 200)+`","`))
}

func TestTableEscapes(t *testing.T) {
	in := pad(`[
		{"id":1,"title":"pipes | and \\ backslash","q":"\"\"","e":"","tags":["a, b","c","x,y"],"note":"line1\nline2\ttab","n":null},
		{"id":2,"title":"","tags":[],"owner":{"login":"ada","id":7,"url":"u"},"dims":[{"Name":"k","Value":"v"}]},
		{"id":3,"title":"plain","tags":["d"],"owner":null,"extra":{"deep":{"x":1},"more":2}}
	]`)
	_, h := checkTable(t, "escapes", in, nil)
	if !strings.Contains(targets(h, "drop_field"), ".[].extra") {
		t.Errorf("nested object without an id not reported: %+v", h.Actions)
	}
	if !strings.Contains(targets(h, "drop_empty"), ".[].n") {
		t.Errorf("all-null column not reported: %+v", h.Actions)
	}
}

func TestWrappedList(t *testing.T) {
	in := pad(`{"total_count":2,"incomplete_results":false,"items":[{"number":1,"title":"a"},{"number":2,"title":"b"}]}`)
	_, h := checkTable(t, "search", in, nil)
	if !strings.Contains(fmt.Sprint(h.Actions), "{drop_field .total_count 1 member of the object around the records: 2}") {
		t.Errorf("wrapper members: %+v", h.Actions)
	}
	h, _, err := compact(pdk.Header{Config: map[string]string{"records": ".items"}}, in)
	if err != nil || h.Collections[0].Path != ".items" {
		t.Errorf("records=.items: %+v %v", h, err)
	}
	if _, _, err := compact(pdk.Header{Config: map[string]string{"records": ".nope"}}, in); err == nil || !strings.Contains(err.Error(), "records=.nope") {
		t.Errorf("records=.nope: %v", err)
	}
	tree := []byte(`{"name":"/","children":[{"name":"a","children":[]},{"name":"b"}]}`)
	if _, _, err := compact(pdk.Header{}, tree); err == nil || !strings.Contains(err.Error(), "holds a tree") {
		t.Errorf("tree: %v", err)
	}
	if _, _, err := compact(pdk.Header{Config: map[string]string{"records": ".children"}}, pad(string(tree))); err != nil {
		t.Errorf("tree with records=.children: %v", err)
	}
	two := []byte(`{"a":[{"x":1}],"b":[{"y":2}]}`)
	if _, _, err := compact(pdk.Header{}, two); err == nil || !strings.Contains(err.Error(), "set config records to choose") {
		t.Errorf("two lists: %v", err)
	}
	if got := jqMember("a b"); got != `.["a b"]` {
		t.Errorf("jqMember = %s", got)
	}
}

func TestFormatJSON(t *testing.T) {
	in := captured(t, "github-issues.json")
	h, body, err := compact(pdk.Header{Config: map[string]string{"format": "json"}}, in)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	recs := decodeRecords(t, in, ".")
	if h.ContentType != "application/json" || h.Collections[0].Count != len(recs) || len(out) != len(recs) {
		t.Fatalf("header %+v, %d objects", h, len(out))
	}
	for i, o := range out {
		if o["title"] != recs[i]["title"] || fmt.Sprint(o["user.login"]) != fmt.Sprint(recs[i]["user"].(map[string]any)["login"]) {
			t.Fatalf("record %d: %v", i, o)
		}
	}
}

func TestEmptyListReturnedUnchanged(t *testing.T) {
	in := []byte(`[]`)
	h, body, err := compact(pdk.Header{Config: map[string]string{}}, in)
	if err != nil || !bytes.Equal(body, in) || len(h.Collections) != 0 || h.ContentType != "application/json" {
		t.Errorf("got %+v %q %v", h, body, err)
	}
}

func TestErrors(t *testing.T) {
	cases := map[string]string{
		`{"a":1}`:          "not a JSON array of objects",
		`"x"`:              "not a JSON array of objects",
		`[{"a":1},2]`:      "element 1 of . is number, not an object",
		`[{"a":1},{"a":}]`: "offset 14",
		`[{"a":1}] [`:      "after top-level value",
		``:                 "unexpected end of input",
	}
	for in, msg := range cases {
		if _, _, err := compact(pdk.Header{}, []byte(in)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: err %v, want %q", in, err, msg)
		}
	}
	for _, cfg := range []map[string]string{{"format": "xml"}, {"keep": "a..b"}, {"keep": "a[]x"}, {"records": "items"}} {
		if _, err := parseOptions(cfg); err == nil || !strings.Contains(err.Error(), "restlist: config") {
			t.Errorf("%v: %v", cfg, err)
		}
	}
}

func FuzzCompact(f *testing.F) {
	f.Add([]byte(`[{"number":1,"title":"a|b","user":{"login":"x"},"labels":[{"name":"l, m"}]},{"number":2}]`), "")
	f.Add([]byte(`{"items":[{"a":[1,2]},{"a":"x\ny"}],"n":3}`), "a[]")
	f.Add([]byte(`[{"a":{"b":{"c":1}}},{"a":null}]`), "a.b.c")
	f.Fuzz(func(t *testing.T, in []byte, keep string) {
		if len(in) > 2048 {
			return
		}
		cfg := map[string]string{}
		if keep != "" {
			cfg["keep"] = keep
		}
		o, err := parseOptions(cfg)
		if err != nil {
			return
		}
		h, body, err := render(in, o)
		if err != nil {
			return
		}
		if !json.Valid(in) {
			t.Fatalf("accepted invalid JSON %q", in)
		}
		recs := decodeRecords(t, in, h.Collections[0].Path)
		if h.Collections[0].Count != len(recs) {
			t.Fatalf("declared %d, input has %d", h.Collections[0].Count, len(recs))
		}
		if keep == "" {
			checkTable(t, "fuzz", in, nil) // cells read back exactly
			return
		}
		if p := parseTable(t, body); len(p.rows) != len(recs) {
			t.Fatalf("%d rows for %d records:\n%s", len(p.rows), len(recs), body)
		}
	})
}

func BenchmarkCompactGitHubIssues(b *testing.B) {
	in, err := os.ReadFile("../../testdata/captured/github-issues.json")
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, _, err := compact(pdk.Header{Config: map[string]string{}}, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeAnyBaseline is the baseline: encoding/json into any.
func BenchmarkDecodeAnyBaseline(b *testing.B) {
	in, err := os.ReadFile("../../testdata/captured/github-issues.json")
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		var v any
		if err := json.Unmarshal(in, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompactSQLiteOrders(b *testing.B) {
	in, err := os.ReadFile("../../testdata/captured/sqlite-orders.json")
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, _, err := compact(pdk.Header{Config: map[string]string{}}, in); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLooksNumeric(t *testing.T) {
	for _, s := range []string{"0", "-1", "1.5", "1e9", "-0.5E-3", " 7 ", "12\t"} {
		if !looksNumeric([]byte(s)) || !json.Valid([]byte(s)) {
			t.Errorf("%q: not numeric", s)
		}
	}
	for _, s := range []string{"", "-", "01", "1.", ".5", "1e", "2026-01-01", "1,000", "0x10", "1 2"} {
		if looksNumeric([]byte(s)) {
			t.Errorf("%q: numeric", s)
		}
	}
}

// keyEquals settles most keys by length; escaped keys still match what
// they decode to, and only that.
func TestKeyEquals(t *testing.T) {
	for _, c := range []struct {
		obj, name string
		want      bool
	}{
		{`{"login":1}`, "login", true},
		{`{"log\u0069n":1}`, "login", true},
		{`{"logi":1}`, "login", false},
		{`{"logins":1}`, "login", false},
		{`{"a\\b":1}`, `a\b`, true},
		{`{"a\\b":1}`, `a\\b`, false},
		{`{"\u00e9":1}`, "é", true},
		{`{"\ud83d\ude00":1}`, "😀", true},
		{`{"x\n":1}`, "x\n", true},
		{`{"x\\n":1}`, "x\n", false},
		{`{"x\n":1}`, `x\n`, false},
	} {
		r := pdk.NewReader([]byte(c.obj))
		r.BeginObject()
		k, _, ok := r.NextMember()
		if !ok {
			if c.want {
				t.Errorf("%s: %v", c.obj, r.Err())
			}
			continue
		}
		if got := keyEquals(k, c.name); got != c.want {
			t.Errorf("keyEquals(%s, %q) = %v, want %v", k.Raw, c.name, got, c.want)
		}
	}
}
