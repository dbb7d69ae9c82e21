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

// parsedTable is a table payload read back with the documented rules,
// independently of the code that wrote it.
type parsedTable struct {
	preamble map[string]string // "same in every record", "fields not shown", ...
	header   []string
	rows     [][]string // raw cells, still escaped
}

// splitUnescaped splits s at every unescaped occurrence of sep.
func splitUnescaped(s, sep string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], sep) {
			out = append(out, s[start:i])
			i += len(sep) - 1
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeCell reads one value: "" is the empty string.
func unescapeCell(s string) string {
	if s == `""` {
		return ""
	}
	return unescape(s)
}

func parseTable(t *testing.T, body []byte) parsedTable {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	p := parsedTable{preamble: map[string]string{}}
	i := 1 // the first line is the legend
	for ; i < len(lines); i++ {
		k, v, ok := strings.Cut(lines[i], ": ")
		if !ok || strings.Contains(k, " | ") || !(strings.HasPrefix(k, "same in") || strings.HasPrefix(k, "null or") || strings.HasPrefix(k, "fields not") || strings.HasPrefix(k, "also in")) {
			break
		}
		p.preamble[k] += v + "\n"
	}
	if lines[i] != "" { // an empty header line: no columns shown
		for _, name := range splitUnescaped(lines[i], " | ") {
			p.header = append(p.header, unescapeCell(name))
		}
	}
	for _, l := range lines[i+1:] {
		cells := splitUnescaped(l, " | ")
		if len(p.header) == 0 && l == "" {
			cells = nil
		}
		if len(cells) != len(p.header) {
			t.Fatalf("row %q has %d cells, header has %d", l, len(cells), len(p.header))
		}
		p.rows = append(p.rows, cells)
	}
	return p
}

// want computes a cell's expected values from the input decoded with
// encoding/json: the values the column path reaches.
func want(rec map[string]any, path string) []any {
	vals := []any{rec}
	for _, part := range strings.Split(path, ".") {
		each := strings.HasSuffix(part, "[]")
		key := strings.TrimSuffix(part, "[]")
		var next []any
		for _, v := range vals {
			m, ok := v.(map[string]any)
			if !ok || m[key] == nil {
				continue
			}
			if each {
				if arr, ok := m[key].([]any); ok {
					next = append(next, arr...)
				}
				continue
			}
			next = append(next, m[key])
		}
		vals = next
	}
	var out []any
	for _, v := range vals {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

// sameValues compares the values read back from a cell with the values
// encoding/json decoded: scalars by their text, objects and arrays (shown
// as compact JSON) by decoding the cell text.
func sameValues(got []string, want []any) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		switch w := w.(type) {
		case string:
			if got[i] != w {
				return false
			}
		case json.Number:
			if got[i] != w.String() {
				return false
			}
		case bool:
			if got[i] != fmt.Sprint(w) {
				return false
			}
		default:
			dec := json.NewDecoder(strings.NewReader(got[i]))
			dec.UseNumber()
			var v any
			if dec.Decode(&v) != nil || !reflect.DeepEqual(v, w) {
				return false
			}
		}
	}
	return true
}

func decodeRecords(t *testing.T, in []byte, path string) []map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		t.Fatal(err)
	}
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
// order, every shown cell equal to the record's values (read back with the
// documented escapes), and every top-level member accounted for.
func checkTable(t *testing.T, name string, in []byte, cfg map[string]string) parsedTable {
	t.Helper()
	o, err := parseOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h, body, err := render(in, o, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if h.ContentType != "text/plain" || len(h.Collections) != 1 {
		t.Fatalf("%s: header %+v", name, h)
	}
	recs := decodeRecords(t, in, h.Collections[0].Path)
	if h.Collections[0].Count != len(recs) {
		t.Fatalf("%s: declared %d records, input has %d", name, h.Collections[0].Count, len(recs))
	}
	if _, again, _ := render(in, o, name); !bytes.Equal(again, body) {
		t.Fatalf("%s: not deterministic", name)
	}
	p := parseTable(t, body)
	if len(p.rows) != len(recs) {
		t.Fatalf("%s: %d rows for %d records", name, len(p.rows), len(recs))
	}
	for i, rec := range recs {
		for j, col := range p.header {
			vals := want(rec, col)
			cell := p.rows[i][j]
			var got []string
			if strings.Contains(col, "[]") {
				if cell != "" {
					for _, item := range splitUnescaped(cell, ", ") {
						got = append(got, unescapeCell(item))
					}
				}
			} else if cell != "" {
				got = []string{unescapeCell(cell)}
			}
			if !sameValues(got, vals) {
				t.Fatalf("%s: record %d column %s: cell %q reads back as %q, want %#v", name, i, col, cell, got, vals)
			}
		}
	}
	// Every top-level member is shown, folded into the preamble, or named
	// as not shown.
	all := strings.Join(p.header, " ") + " " + fmt.Sprint(p.preamble)
	for _, rec := range recs {
		for k := range rec {
			if !strings.Contains(all, k) {
				t.Fatalf("%s: member %q is neither shown nor reported", name, k)
			}
		}
	}
	return p
}

func captured(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../testdata/captured/" + name)
	if os.IsNotExist(err) {
		t.Skipf("%s not captured yet", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGitHubIssues(t *testing.T) {
	in := captured(t, "github-issues.json")
	p := checkTable(t, "github.issues", in, nil)
	wantHeader := []string{"number", "title", "state", "state_reason", "draft", "user.login", "assignees[].login", "labels[].name", "milestone.title", "comments", "created_at", "updated_at", "closed_at"}
	if !reflect.DeepEqual(p.header[:len(wantHeader)], wantHeader) {
		t.Errorf("header %q", p.header)
	}
	for _, noisy := range []string{"node_id", "reactions", "html_url", "body"} {
		if !strings.Contains(p.preamble["fields not shown"], noisy) {
			t.Errorf("%s not reported as not shown: %q", noisy, p.preamble["fields not shown"])
		}
	}
	// Explicit columns, in the order given.
	p = checkTable(t, "github.issues", in, map[string]string{"keep": "title,number,user.login,labels[].name,body"})
	if !reflect.DeepEqual(p.header, []string{"title", "number", "user.login", "labels[].name", "body"}) {
		t.Errorf("keep: header %q", p.header)
	}
	p = checkTable(t, "github.issues", in, map[string]string{"drop": "created_at,*_at,comments"})
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
	p := checkTable(t, "escapes", in, nil)
	if !strings.Contains(p.preamble["fields not shown"], "extra") {
		t.Errorf("nested object without an id not reported: %+v", p.preamble)
	}
	if !strings.Contains(p.preamble["null or absent in every record"], "n") {
		t.Errorf("all-null column not reported: %+v", p.preamble)
	}
}

func TestWrappedList(t *testing.T) {
	in := pad(`{"total_count":2,"incomplete_results":false,"items":[{"number":1,"title":"a"},{"number":2,"title":"b"}]}`)
	p := checkTable(t, "search", in, nil)
	if !strings.Contains(p.preamble["also in the input"], "total_count=2") {
		t.Errorf("wrapper members: %+v", p.preamble)
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

func TestSmallInputReturnedUnchanged(t *testing.T) {
	in := []byte(`[{"a":1}]`)
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
		h, body, err := render(in, o, "fuzz")
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
