package budget

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

func compact1(t *testing.T, in string, r Rules) Output {
	t.Helper()
	out, err := Declarative().Compact(context.Background(), Request{Input: []byte(in), Rules: r})
	if err != nil {
		t.Fatalf("Compact(%s): %v", in, err)
	}
	return out
}

func actionSummary(acts []schemas.Action) string {
	var s []string
	for _, a := range acts {
		s = append(s, fmt.Sprintf("%s %s %d", a.Kind, a.Target, a.Count))
	}
	return strings.Join(s, "; ")
}

func TestDeclarativeRules(t *testing.T) {
	issues := `{"total_count":2,"items":[` +
		`{"number":1,"title":"A","user":{"login":"ann","avatar_url":"https://x/a","id":7},"labels":[{"name":"bug","color":"red"}],"comments_url":"https://x/c1","body":null},` +
		`{"number":2,"title":"B","user":{"login":"bob","avatar_url":"https://x/b","id":8},"labels":[],"comments_url":"https://x/c2","body":"text"}]}`
	cases := []struct {
		name  string
		in    string
		rules Rules
		want  string
		acts  string
	}{
		{"minify only", "[ {\"a\" : 1} ,\n {\"a\": 2} ]", Rules{}, `[{"a":1},{"a":2}]`, ""},
		{"keep nested", issues, Rules{Keep: []string{"number", "user.login", "labels[].name"}},
			`{"total_count":2,"items":[{"number":1,"user":{"login":"ann"},"labels":[{"name":"bug"}]},{"number":2,"user":{"login":"bob"},"labels":[]}]}`,
			"drop_field .items[].title 2; drop_field .items[].user.avatar_url 2; drop_field .items[].user.id 2; drop_field .items[].labels[].color 1; drop_field .items[].comments_url 2; drop_field .items[].body 2"},
		{"keep with the collection prefix", issues, Rules{Keep: []string{"items[].number", ".items[].title"}},
			`{"total_count":2,"items":[{"number":1,"title":"A"},{"number":2,"title":"B"}]}`,
			"drop_field .items[].user 2; drop_field .items[].labels 2; drop_field .items[].comments_url 2; drop_field .items[].body 2"},
		{"keep at any depth", issues, Rules{Keep: []string{"login"}},
			`{"total_count":2,"items":[{"user":{"login":"ann"}},{"user":{"login":"bob"}}]}`,
			"drop_field .items[].number 2; drop_field .items[].title 2; drop_field .items[].user.avatar_url 2; drop_field .items[].user.id 2; drop_field .items[].labels 2; drop_field .items[].comments_url 2; drop_field .items[].body 2"},
		{"drop wildcard", issues, Rules{Drop: []string{"*_url", "user.id", "labels"}},
			`{"total_count":2,"items":[{"number":1,"title":"A","user":{"login":"ann"},"body":null},{"number":2,"title":"B","user":{"login":"bob"},"body":"text"}]}`,
			"drop_field .items[].user.avatar_url 2; drop_field .items[].user.id 2; drop_field .items[].labels 2; drop_field .items[].comments_url 2"},
		{"anchored drop", `{"a":{"id":1},"b":{"id":2}}`, Rules{Drop: []string{".a.id"}}, `{"a":{},"b":{"id":2}}`, "drop_field .a.id 1"},
		{"collection protected", issues, Rules{Drop: []string{"items"}}, "", "keep_collection .items 1"},
		{"strings max", `["` + strings.Repeat("é", 50) + `","short"]`, Rules{StringsMax: 10},
			`["` + strings.Repeat("é", 10) + `…[+40 chars]","short"]`, "shorten_strings .[] 1"},
		{"defaults", `[{"id":1,"state":"open","node_id":"MDU6SXNzdWUxMjM0NTY3ODk=","html_url":"https://h/1","events_url":"https://e/1","n":null,"e":"","o":{},"l":[]},` +
			`{"id":2,"state":"open","node_id":"MDU6SXNzdWUxMjM0NTY3ODA=","html_url":"https://h/2","events_url":"https://e/2","n":null,"e":"x","o":{"k":1},"l":[1]}]`,
			Rules{Defaults: true},
			`[{"id":1,"html_url":"https://h/1"},{"id":2,"html_url":"https://h/2","e":"x","o":{"k":1},"l":[1]}]`,
			`drop_constant .[].state 2; drop_id .[].node_id 2; drop_url .[].events_url 2; drop_constant .[].n 2; drop_empty .[].e 1; drop_empty .[].o 1; drop_empty .[].l 1`},
		{"jsonl", "{\"a\":1,\"b\":2}\n{\"a\":3,\"b\":4}\n", Rules{Drop: []string{"b"}}, "{\"a\":1}\n{\"a\":3}", "drop_field .b 2"},
		{"map records kept", `{"versions":{"1":{"x":1,"y":2},"2":{"x":1},"3":{},"4":{},"5":{},"6":{},"7":{},"8":{}}}`,
			Rules{Defaults: true, Drop: []string{"y"}},
			`{"versions":{"1":{"x":1},"2":{"x":1},"3":{},"4":{},"5":{},"6":{},"7":{},"8":{}}}`, "drop_field .versions.\"1\".y 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := compact1(t, c.in, c.rules)
			if c.want != "" && string(out.Content) != c.want {
				t.Errorf("content\n got %s\nwant %s", out.Content, c.want)
			}
			if got := actionSummary(out.Actions); got != c.acts {
				t.Errorf("actions\n got %s\nwant %s", got, c.acts)
			}
			if !json.Valid(out.Content) && !strings.Contains(c.in, "\n{") {
				t.Errorf("output is not valid JSON: %s", out.Content)
			}
			shape, _ := DetectShape([]byte(c.in), c.rules.Records)
			if err := checkOutput(shape, out); err != nil {
				t.Errorf("checkOutput: %v", err)
			}
		})
	}
}

func TestConstantDetail(t *testing.T) {
	out := compact1(t, "[{\"a\":1,\"s\":{\n \"k\": \"open\"\n}},{\"a\":2,\"s\":{\n \"k\": \"open\"\n}},{\"a\":3,\"s\":{\n \"k\": \"open\"\n}}]", Rules{Defaults: true})
	if string(out.Content) != `[{"a":1},{"a":2},{"a":3}]` {
		t.Fatalf("content %s", out.Content)
	}
	if d := out.Actions[0].Detail; !strings.Contains(d, `{"k":"open"}`) || !strings.Contains(d, "3 records") {
		t.Errorf("constant action detail %q should state the value and the record count", d)
	}
}

func TestTableRoundTrip(t *testing.T) {
	in := `[{"a":1,"b":"x y","c":true,"dup":{"k":1,"k":2}},{"a":2,"b":"12","d":null},{"a":3,"b":"","c":{"n":[1,2]}},{"b":"tab\there","a":-4.5},{"b":"\"q","e":"[no]"},{"a":"null"}]`
	out := compact1(t, in, Rules{Format: "table"})
	if out.ContentType != TypeTable {
		t.Fatalf("content type %s, want table: %s", out.ContentType, out.Content)
	}
	want := "a\tb\tc\tdup\td\te\n1\tx y\ttrue\t{\"k\":1,\"k\":2}\t\t\n2\t\"12\"\t\t\tnull\t\n3\t\"\"\t{\"n\":[1,2]}\t\t\t\n-4.5\t\"tab\\there\"\t\t\t\t\n\t\"\\\"q\"\t\t\t\t\"[no]\"\n\"null\"\t\t\t\t\t"
	if string(out.Content) != want {
		t.Errorf("table\n got %q\nwant %q", out.Content, want)
	}
	back, err := TableToJSON(out.Content)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal([]byte(in), &a)
	json.Unmarshal(back, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("round trip\n got %s\nwant %s", back, in)
	}
	// auto picks the table only when it is smaller.
	if out := compact1(t, in, Rules{Format: "auto"}); out.ContentType != TypeTable {
		t.Errorf("auto: want a table for %d records", 6)
	}
	// Empty records are rows of empty cells.
	out = compact1(t, `[{},{"a":1},{}]`, Rules{Format: "table"})
	if string(out.Content) != "a\n\n1\n" {
		t.Errorf("empty records: %q", out.Content)
	}
	// Duplicate member names cannot be a table row: JSON, and the reason.
	out = compact1(t, `[{"a":1,"a":2},{"a":3}]`, Rules{Format: "table"})
	if out.ContentType == TypeTable || !strings.Contains(actionSummary(out.Actions), "table_skipped") {
		t.Errorf("duplicate names: want JSON and a table_skipped action, got %s %v", out.Content, out.Actions)
	}
	out = compact1(t, `{"x":[{"a":1}]}`, Rules{Format: "table"})
	if out.ContentType == TypeTable || !strings.Contains(actionSummary(out.Actions), "table_skipped") {
		t.Errorf("nested collection: want JSON and a table_skipped action, got %s %v", out.Content, out.Actions)
	}
}

func TestTextLevel1(t *testing.T) {
	in := "start\nsame\nsame\nsame\n[×2] looks like a marker\n" + strings.Repeat("x", 100) + "\nend\n"
	out := compact1(t, in, Rules{StringsMax: 20})
	want := "start\n[×3] same\n[×1] [×2] looks like a marker\n" + strings.Repeat("x", 20) + "…[+80 chars]\nend\n"
	if string(out.Content) != want {
		t.Errorf("got %q\nwant %q", out.Content, want)
	}
	n, err := countMarkedLines(out.Content)
	if err != nil || n != 7 {
		t.Errorf("marked lines = %d, %v; want 7", n, err)
	}
	bad := compact1(t, "ok\xff\xfe line\n", Rules{})
	if string(bad.Content) != "ok\uFFFD line\n" || actionSummary(bad.Actions) != "replace_invalid_utf8 . 2" {
		t.Errorf("invalid UTF-8: %q %s", bad.Content, actionSummary(bad.Actions))
	}
	bin := compact1(t, "\x00\x01\x02binary", Rules{})
	if !strings.Contains(string(bin.Content), "00 01 02 62") || actionSummary(bin.Actions) != "hexdump . 9" {
		t.Errorf("binary: %q %s", bin.Content, actionSummary(bin.Actions))
	}
}

// TestDeepestJSON checks level 1 at the scanner's nesting limit: JSON just
// under it stays JSON (and a table), just over it is text.
func TestDeepestJSON(t *testing.T) {
	for d, want := range map[int]string{maxDepth - 2: TypeTable, maxDepth - 1: TypeText} {
		in := "[{\"a\":" + strings.Repeat("[", d) + strings.Repeat("]", d) + "},{\"a\":1}]"
		shape, _ := DetectShape([]byte(in), nil)
		out := compact1(t, in, Rules{Format: "table"})
		if out.ContentType != want {
			t.Errorf("depth %d: %s, want %s", d, out.ContentType, want)
		}
		if err := checkOutput(shape, out); err != nil {
			t.Errorf("depth %d: %v", d, err)
		}
	}
}
