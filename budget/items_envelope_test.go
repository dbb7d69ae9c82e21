package budget

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestItemsCollectionInEnvelope: records that are arrays of objects
// (gcc's JSON diagnostics, 13 translation units of 1,098 diagnostics)
// are shown by their items, a collection of its own (".[]"); the
// envelope states what the view states: the items collection with its
// count and the items shown ("showing N of 1,098" in the view), and the
// records' collection, none of them shown whole, with an omit_records
// action for each that names the other.
func TestItemsCollectionInEnvelope(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "captured", "gcc-json-limited-api-fail.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []int{2000, 4000, 8000} {
		p := NewPipeline(counter(t), WithStore(&memStore{}))
		res, err := p.Run(context.Background(), Input{Tool: "gcc.json", Data: data, Budget: b})
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`collection \.\[\] \(array\): 1,098 records; showing (\d+) of 1,098`).FindStringSubmatch(res.Content)
		if m == nil {
			t.Fatalf("at %d: the view states no items collection:\n%.600s", b, res.Content)
		}
		shown, _ := strconv.Atoi(m[1])
		var recs, items bool
		for _, c := range res.Collections {
			switch c.Path {
			case ".":
				recs = c.Kind == "jsonl" && c.Count == 13 && c.Shown == 0
			case ".[]":
				items = c.Kind == "array" && c.Count == 1098 && c.Shown == shown
			}
		}
		if !recs || !items {
			t.Errorf("at %d: collections %+v, want . (jsonl, 13, shown 0) and .[] (array, 1,098, shown %d)", b, res.Collections, shown)
		}
		omits := map[string]string{}
		for _, a := range res.Actions {
			if a.Kind == "omit_records" {
				omits[a.Target] = a.Detail
				if a.Target == ".[]" && a.Count != 1098-shown {
					t.Errorf("at %d: omit_records .[] counts %d, want %d", b, a.Count, 1098-shown)
				}
			}
		}
		if !strings.Contains(omits["."], "items are the collection .[]") || !strings.Contains(omits[".[]"], "showing "+strconv.Itoa(shown)+" of 1,098") {
			t.Errorf("at %d: omit_records %q", b, omits)
		}
	}
}
