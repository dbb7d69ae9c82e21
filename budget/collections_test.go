package budget

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func collSummary(s Shape) string {
	var parts []string
	for _, c := range s.Collections {
		parts = append(parts, fmt.Sprintf("%s %s %d", c.Path, c.Kind, c.Count))
	}
	return s.Format + ": " + strings.Join(parts, "; ")
}

func TestDetectShape(t *testing.T) {
	versions := map[string]any{}
	times := map[string]any{"created": "2011-01-01T00:00:00Z"}
	for i := 0; i < 12; i++ {
		v := fmt.Sprintf("1.%d.0", i)
		versions[v] = map[string]any{"name": "pkg", "version": v, "dist": map[string]any{"shasum": "x"}}
		times[v] = "2012-01-01T00:00:00Z"
	}
	npm, _ := json.Marshal(map[string]any{"name": "pkg", "versions": versions, "time": times, "dist-tags": map[string]any{"latest": "1.0.0"}})
	// A flat object of build variables (python's sysconfig): numbers,
	// strings, a null, 48 of them; with 47, or with one object among
	// them, it is a record's fields.
	vars, fewer, nested := map[string]any{}, map[string]any{}, map[string]any{}
	flags := map[string]any{}
	for i := 0; i < 48; i++ {
		var x any = i % 2
		if i%3 == 0 {
			x = fmt.Sprintf("-O%d", i)
		}
		if i == 5 {
			x = nil
		}
		vars[fmt.Sprintf("HAVE_%d", i)] = x
		nested[fmt.Sprintf("HAVE_%d", i)] = x
		flags[fmt.Sprintf("f%d", i)] = i%2 == 0
		if i > 0 {
			fewer[fmt.Sprintf("HAVE_%d", i)] = x
		}
	}
	nested["sub"] = map[string]any{"a": 1}
	sysconfig, _ := json.Marshal(vars)
	sysconfig47, _ := json.Marshal(fewer)
	sysconfigNested, _ := json.Marshal(map[string]any{"vars": vars, "with": nested})
	flagMap, _ := json.Marshal(flags)
	cases := []struct {
		name, in string
		records  []string
		want     string
	}{
		{"empty", "", nil, "empty: "},
		{"space", " \n\t", nil, "empty: "},
		{"root array", `[{"a":1},{"a":2},{"b":3}]`, nil, "json: . array 3"},
		{"root scalars", `[1,2,3]`, nil, "json: . array 3"},
		{"envelope", `{"total_count":2,"items":[{"id":1,"labels":[{"n":"x"}]},{"id":2,"labels":[]}]}`, nil, "json: .items array 2"},
		{"nested", `{"data":{"rows":[{"x":1},{"x":2},{"x":3}]},"meta":{"pages":[{"p":1}]}}`, nil, "json: .data.rows array 3; .meta.pages array 1"},
		{"npm", string(npm), nil, "json: .time map 13; .versions map 12"},
		{"mixed scalars", string(sysconfig), nil, "json: . map 48"},
		{"mixed scalars, 47", string(sysconfig47), nil, "json: "},
		{"mixed scalars nested", string(sysconfigNested), nil, "json: .vars map 48"},
		{"booleans", string(flagMap), nil, "json: . map 48"},
		{"scalar lists", `{"versions":["1","2","3","4","5","6","7","8"],"tags":["a","b"],"nums":[1,2,3,4,5,6,7,8,9]}`, nil, "json: .versions array 8; .nums array 9"},
		// npm pack --json: one record around the real list.
		{"one record holding the list", `[{"name":"p","files":[{"path":"a","size":1},{"path":"b","size":2}],"bundled":[]}]`, nil, "json: . array 1; .[].files array 2"},
		{"two records", `[{"name":"p","files":[{"path":"a"}]},{"name":"q","files":[]}]`, nil, "json: . array 2"},
		{"jsonl", "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", nil, "jsonl: . jsonl 3"},
		{"concat", "{\n \"a\": 1\n}\n{\n \"a\": 2\n}\n", nil, "concat: . concat 2"},
		{"text", "line one\nline two\nline three", nil, "text: . lines 3"},
		{"text final newline", "a\nb\n", nil, "text: . lines 2"},
		{"invalid json", `{"a":1,`, nil, "text: . lines 1"},
		{"scalar", `"hello"`, nil, "json: "},
		{"explicit", `{"data":[{"rows":[1,2]},{"rows":[3]}]}`, []string{".data[].rows"}, "json: .data[].rows array 3"},
		{"explicit map", `{"m":{"a":1,"b":2}}`, []string{".m"}, "json: .m map 2"},
		{"explicit quoted", `{"odd key":[1,2]}`, []string{`."odd key"`}, `json: ."odd key" array 2`},
		{"explicit bracket", `{"odd key":[1,2]}`, []string{`.["odd key"]`}, `json: ."odd key" array 2`},
		{"jsonl path", "{\"xs\":[1,2]}\n{\"xs\":[3]}\n", []string{".xs"}, "jsonl: .xs array 3"},
		{"binary", "\x00\x01\x02\x03abc", nil, "binary: "},
		{"deep", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), nil, "text: . lines 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := DetectShape([]byte(c.in), c.records)
			if err != nil {
				t.Fatal(err)
			}
			if got := collSummary(s); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestDetectShapeErrors(t *testing.T) {
	cases := []struct{ in, path, want string }{
		{`{"items":[1]}`, ".itemz", "records path .itemz does not exist: the input has no .itemz"},
		{`{"a":{"b":[1]}}`, ".a.c", "records path .a.c does not exist: .a has no .c"},
		{`{"a":"x"}`, ".a", "records path .a holds string, not an array or an object"},
		{`hello`, ".items", "the input is text"},
		{`{"a":[1]}`, ".a[", "unexpected"},
	}
	for _, c := range cases {
		_, err := DetectShape([]byte(c.in), []string{c.path})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DetectShape(%s, %s) = %v, want error containing %q", c.in, c.path, err, c.want)
		}
	}
}

func TestFields(t *testing.T) {
	s, err := DetectShape([]byte(`[{"a":1,"b":"x","c":null},{"a":2,"b":"x"},{"a":"3","b":"x"}]`), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(s.Collections[0].Fields)
	want := "[{a [string number] 3} {b [string] 3} {c [null] 1}]"
	if got != want {
		t.Errorf("fields %s, want %s", got, want)
	}
	if len(s.stats[0].consts) != 1 || s.stats[0].consts[0].name != "b" {
		t.Errorf("constant fields %v, want b", s.stats[0].consts)
	}
}

func TestEachRecord(t *testing.T) {
	cases := []struct {
		in, path string
		records  []string
		want     string
	}{
		{`{"items":[{"a":1}, {"a":2}]}`, ".items", nil, `{"a":1}|{"a":2}`},
		{`{"data":[{"rows":[1,2]},{"rows":[3]}]}`, ".data[].rows", []string{".data[].rows"}, `1|2|3`},
		{`{"m":{"a":1,"b":2}}`, ".m", []string{".m"}, `{"a":1}|{"b":2}`},
		{"{\"a\":1}\n{\"a\":2}\n", ".", nil, `{"a":1}|{"a":2}`},
		{"x\ny\n", ".", nil, `x|y`},
		{"{\n  \"a\": {\"b\": 1},\n  \"items\": [\n    {\"a\": 1},\n    [2]\n  ]\n}", ".items", []string{".items"}, `{"a": 1}|[2]`},
		{"[1,2]\n[3]\n", ".", nil, `[1,2]|[3]`},
	}
	for _, c := range cases {
		s, err := DetectShape([]byte(c.in), c.records)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		err = EachRecord([]byte(c.in), s, c.path, func(i int, raw []byte) error {
			if i != len(got) {
				t.Errorf("index %d, want %d", i, len(got))
			}
			got = append(got, string(raw))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("EachRecord(%s, %s) = %s, want %s", c.in, c.path, strings.Join(got, "|"), c.want)
		}
	}
}

// TestDetectShapeEnvelope: the records path "." of an envelope (scalars
// and one array of objects) names the array's elements; a map of
// name -> object, or an object with two lists, keeps "." as a map.
func TestDetectShapeEnvelope(t *testing.T) {
	for _, tc := range []struct {
		in        string
		path      string
		kind      string
		wantCount int
	}{
		{`{"total_count":3,"incomplete_results":false,"items":[{"a":1},{"a":2},{"a":3}]}`, ".items", "array", 3},
		{`{"object":"list","data":[{"id":"ch_1"},{"id":"ch_2"}],"has_more":true,"url":"/v1/charges"}`, ".data", "array", 2},
		{`{"left-pad":{"version":"1.3.0"},"express":{"version":"5.0.0"}}`, ".", "map", 2},
		{`{"items":[{"a":1}],"more":[{"b":2}],"n":1}`, ".", "map", 3},
		{`{"items":[{"a":1}]}`, ".", "map", 1},
		{`[{"a":1},{"a":2}]`, ".", "array", 2},
	} {
		s, err := DetectShape([]byte(tc.in), []string{"."})
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if len(s.Collections) != 1 || s.Collections[0].Path != tc.path || s.Collections[0].Kind != tc.kind || s.Collections[0].Count != tc.wantCount {
			t.Errorf("%s: collections %+v, want %s (%s) with %d", tc.in, s.Collections, tc.path, tc.kind, tc.wantCount)
		}
	}
}

// TestDeclaredTextIsNeverBinary: data declared as text (text/*, JSON,
// NDJSON) is text whatever bytes it holds; undeclared, a NUL byte in the
// first 8 KiB still makes it binary. On the old code the declared type
// was ignored: an MCP text block with a NUL became a hex dump.
func TestDeclaredTextIsNeverBinary(t *testing.T) {
	data := []byte("line 0\nline 1 with a NUL \x00 byte\nline 2 \a\x01\x02\n")
	if s, err := DetectShape(data, nil); err != nil || s.Format != FormatBinary {
		t.Fatalf("undeclared: %v %v, want binary", s.Format, err)
	}
	for _, ct := range []string{"text/plain", "text/plain; charset=utf-8", "application/json", "application/vnd.api+json", "application/x-ndjson"} {
		s, err := DetectShapeAs(data, nil, ct)
		if err != nil || s.Format != FormatText || len(s.Collections) != 1 || s.Collections[0].Count != 3 {
			t.Errorf("declared %s: %+v %v, want 3 lines of text", ct, s, err)
		}
	}
	if s, _ := DetectShapeAs(data, nil, "image/png"); s.Format != FormatBinary {
		t.Errorf("declared image/png: %v, want binary", s.Format)
	}
	if !IsBinary(data) || IsBinary([]byte("plain text\n")) {
		t.Error("IsBinary")
	}
}
