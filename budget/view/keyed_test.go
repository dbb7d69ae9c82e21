package view_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// goFixStream is a stream shaped like go fix -json's (and go vet
// -json's): one object per package, {} for a package without findings,
// else {"<package path>": {analyzer: [finding, ...]}}. Package i (odd)
// has i%4+1 rangeint findings and, for i%3 == 0, i%5+1 any findings.
func goFixStream(n int) (data []byte, keys []string, items map[string]string) {
	var b strings.Builder
	items = map[string]string{}
	for i := range n {
		if i%2 == 0 {
			b.WriteString("{}\n")
			continue
		}
		key := fmt.Sprintf("example.com/mod/internal/pkg%02d", i)
		keys = append(keys, key)
		an := map[string][]map[string]any{}
		var cell []string
		if i%3 == 0 {
			for j := range i%5 + 1 {
				an["any"] = append(an["any"], map[string]any{"posn": fmt.Sprintf("/src/pkg%02d/a.go:%d:5", i, 10+j), "message": "interface{} can be replaced by any",
					"suggested_fixes": []any{map[string]any{"edits": []any{map[string]any{"start": 100*i + j, "end": 100*i + j + 11, "new": "any"}}}}})
			}
			cell = append(cell, fmt.Sprintf("any %d", i%5+1))
		}
		for j := range i%4 + 1 {
			an["rangeint"] = append(an["rangeint"], map[string]any{"posn": fmt.Sprintf("/src/pkg%02d/b.go:%d:2", i, 20+j), "message": "for loop can be modernized using range over int",
				"suggested_fixes": []any{map[string]any{"edits": []any{map[string]any{"start": 200*i + j, "end": 200*i + j + 5, "new": "range "}}}}})
		}
		cell = append(cell, fmt.Sprintf("rangeint %d", i%4+1))
		items[key] = strings.Join(cell, ",")
		rec, _ := json.MarshalIndent(map[string]any{key: an}, "", "\t")
		b.Write(rec)
		b.WriteByte('\n')
	}
	return []byte(b.String()), keys, items
}

var keyedFoot = regexp.MustCompile(`index: ([\d,]+) of ([\d,]+) keyed records not listed; list exactly them: compact artifact query \S+ --jq '([^\n]*)'`)

// A stream of one-member objects keyed by a package path is a keyed
// collection: the key names the record and the analyzers are its
// fields (not every package path a field, each of one record, as
// before: "rows show 0 of 400 fields"). The index lists the packages in
// record order with the analyzers each has and how many findings, and
// its rest query lists exactly the packages it leaves out.
func TestKeyedStreamOfOneMemberObjects(t *testing.T) {
	data, keys, items := goFixStream(400)
	in := inputOf(t, data, 2500)
	if len(in.Collections) != 1 || in.Collections[0].Count != 400 {
		t.Fatalf("collections %+v", in.Collections)
	}
	v := buildView(t, in)
	fl := fillAt(t, v, 2500)
	text := fl.Text
	// The same with the stream's text known (level 2 passes it: the
	// records are read in the profile's and the index's own walks).
	in.Collections[0].Text = data
	if withText := fillAt(t, buildView(t, in), 2500).Text; withText != text {
		t.Errorf("the view differs with the stream's text known:\n%s\n---\n%s", withText, text)
	}
	for _, want := range []string{
		"; each record is a key and its value",
		fmt.Sprintf("keys (%d; the other %d records are {}, with no member)", len(keys), 400-len(keys)),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("view lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, `"example.com/mod/internal/pkg`) && strings.Contains(text, `".rangeint`) {
		t.Errorf("a package path is profiled as a field:\n%s", text)
	}
	// The total of the lists, stated: 60 packages with rangeint.
	total := 0
	for i := 1; i < 400; i += 2 {
		total += i%4 + 1
	}
	if want := fmt.Sprintf("rangeint (array, in 200 of 400 records, missing in 200): 2-4 items, %d in all", total); !strings.Contains(text, want) {
		t.Errorf("view lacks %q:\n%s", want, text)
	}
	// The index: one line per keyed record, in record order.
	i := strings.Index(text, "\nindex of .")
	if i < 0 {
		t.Fatalf("no index:\n%s", text)
	}
	var listed []string
	for _, l := range strings.Split(text[i+1:], "\n")[1:] {
		if !strings.HasPrefix(l, "example.com/") {
			break
		}
		key, cell, _ := strings.Cut(l, "\t")
		listed = append(listed, key)
		if cell != items[key] {
			t.Errorf("index line %q: want the cell %q", l, items[key])
		}
	}
	if len(listed) == 0 || len(listed) >= len(keys) {
		t.Fatalf("index lists %d of %d keyed records at 2,500 tokens; want a part", len(listed), len(keys))
	}
	for j, k := range listed {
		if k != keys[j] {
			t.Fatalf("index line %d is %s, want %s (record order)", j, k, keys[j])
		}
	}
	m := keyedFoot.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no index foot:\n%s", text)
	}
	if m[1] != fmt.Sprint(len(keys)-len(listed)) || m[2] != fmt.Sprint(len(keys)) {
		t.Errorf("foot %q: want %d of %d", m[0], len(keys)-len(listed), len(keys))
	}
	// The artifact query reads the stream as one array (jq -s).
	doc := []byte("[" + strings.ReplaceAll(strings.TrimSpace(string(data)), "}\n{", "},\n{") + "]")
	rest := jq(t, doc, m[3])
	if len(rest) != 1 {
		t.Fatalf("rest query %s: %d results", m[3], len(rest))
	}
	got := rest[0].([]any)
	if len(got) != len(keys)-len(listed) {
		t.Fatalf("rest query lists %d records, want %d", len(got), len(keys)-len(listed))
	}
	for j, r := range got {
		if k := r.([]any)[0]; k != keys[len(listed)+j] {
			t.Fatalf("rest query's record %d is %v, want %s", j, k, keys[len(listed)+j])
		}
	}
	// The lookup query of the foot fetches one package's value.
	lk := regexp.MustCompile(`one record by its key: compact artifact query \S+ --jq '([^\n]*)'`).FindStringSubmatch(text)
	if lk == nil {
		t.Fatalf("no lookup query:\n%s", text)
	}
	if out := jq(t, doc, lk[1]); len(out) != 1 || out[0].(map[string]any)["rangeint"] == nil {
		t.Errorf("lookup query %s: %v", lk[1], out)
	}
}

// A tagged union ({"Begin": {...}} {"Match": {...}} ...: few member
// names for many records) is no keyed collection: its names are the
// records' fields.
func TestTaggedUnionIsNotKeyed(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		tag := []string{"Begin", "Match", "Match", "End"}[i%4]
		fmt.Fprintf(&b, "{%q: {\"n\": %d}}\n", tag, i)
	}
	text := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 3000)), 3000).Text
	if strings.Contains(text, "each record is a key and its value") || !strings.Contains(text, "Match.n") {
		t.Errorf("a tagged union read as keyed records:\n%s", text)
	}
}
