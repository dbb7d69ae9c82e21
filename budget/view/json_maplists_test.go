package view_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// madgeFile is a map of module -> the modules it requires, captured with
// `npx madge --json src/` over moment 2.19.1's sources (223 modules).
const madgeFile = "testdata/madge-moment.json"

// TestMapOfListsIsCollection: an object whose members are all lists of
// scalars is one keyed collection, and its view states the lists' sizes
// (how many in all, how many empty, the longest) computed over every
// record. On the old code the object was "outside the collections", its
// members listed in order with no count at all.
func TestMapOfListsIsCollection(t *testing.T) {
	data := readFile(t, madgeFile)
	var m map[string][]string
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	total, empty, most, mostKey := 0, 0, -1, ""
	for k, deps := range m {
		total += len(deps)
		if len(deps) == 0 {
			empty++
		}
		if len(deps) > most || len(deps) == most && k < mostKey {
			most, mostKey = len(deps), k
		}
	}
	in := inputOf(t, data, 2000)
	in.Tool = "madge"
	if len(in.Collections) != 1 || in.Collections[0].Kind != "map" || in.Collections[0].Count != len(m) {
		for _, c := range in.Collections {
			t.Logf("collection %s (%s): %d", c.Path, c.Kind, c.Count)
		}
		t.Fatalf("%d collections, want one map of %d", len(in.Collections), len(m))
	}
	v := buildView(t, in)
	fl := fillAt(t, v, 2000)
	text := fl.Text
	for _, want := range []string{
		fmt.Sprintf("(map): %d records", len(m)),
		fmt.Sprintf("items, %d in all, %d empty, most in %s (%d)", total, empty, mostKey, most),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("view lacks %q:\n%s", want, text)
		}
	}
}
