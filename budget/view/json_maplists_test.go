package view_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
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
	data, err := os.ReadFile(madgeFile)
	if err != nil {
		t.Fatal(err)
	}
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
	sh, err := budget.DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sh.Collections) != 1 || sh.Collections[0].Kind != "map" || sh.Collections[0].Count != len(m) {
		t.Fatalf("collections %+v, want one map of %d", sh.Collections, len(m))
	}
	col := sh.Collections[0]
	in := view.Input{Tool: "madge", ContentType: sh.ContentType, Format: sh.Format, Data: data, Handle: "0123456789ab", Budget: 2000,
		Collections: []view.Collection{{Path: col.Path, Kind: col.Kind, Count: col.Count,
			Each: func(fn func(int, []byte) error) error { return budget.EachRecord(data, sh, col.Path, fn) }}}}
	v, err := view.Build(in)
	if err != nil {
		t.Fatal(err)
	}
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	fl, err := v.Fill(c, 2000)
	if err != nil {
		t.Fatal(err)
	}
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
