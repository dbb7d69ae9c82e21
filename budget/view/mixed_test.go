package view_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestMostlyScalarFieldIsAColumn: a field that is a scalar in most
// records and a list in the others (an option's value: a string, a
// number, a bool, or a list of paths, as meson introspect's buildoptions
// have it) is a column of the rows and a field of the index, each cell
// the record's value, a list as its JSON text. Before, it was no column
// and no index field (only scalar fields were), so "what is option X
// set to" was answered by no row and no index line.
func TestMostlyScalarFieldIsAColumn(t *testing.T) {
	var recs []map[string]any
	for i := range 90 {
		var val any
		switch i % 6 {
		case 0:
			val = []string{}
		case 1:
			val = i%4 == 1
		case 2:
			val = i * 7
		case 5:
			val = []string{fmt.Sprintf("/opt/p%d", i)}
		default:
			val = fmt.Sprintf("mode-%d", i)
		}
		recs = append(recs, map[string]any{"name": fmt.Sprintf("opt_%02d", i), "value": val,
			"section": []string{"core", "base", "user"}[i%3], "description": fmt.Sprintf("option number %d", i)})
	}
	data, err := json.Marshal(map[string]any{"options": recs})
	if err != nil {
		t.Fatal(err)
	}
	text := fillAt(t, buildView(t, inputOf(t, data, 8000)), 8000).Text
	if head := indexHead(t, text, ".options"); !slices.Contains(head, "value") {
		t.Errorf("the index does not list value: %q\n%s", head, text)
	}
	lines, _, _, _ := indexLines(t, text)
	listed := 0
	for _, l := range lines {
		cells := strings.Split(l, "\t")
		var i int
		if _, err := fmt.Sscanf(cells[0], "opt_%d", &i); err != nil {
			t.Fatalf("index line %q", l)
		}
		want, _ := json.Marshal(recs[i]["value"])
		w := string(want)
		if s, ok := recs[i]["value"].(string); ok {
			w = s
		}
		if !slices.Contains(cells, w) {
			t.Errorf("the line of opt_%02d does not say its value %s: %q", i, w, l)
		}
		listed++
	}
	if listed < 40 {
		t.Errorf("%d index lines at 8,000 tokens:\n%s", listed, text)
	}
	// The rows too: their value cell.
	hdr := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "#\t") {
			hdr = l
		}
	}
	if !strings.Contains(hdr, "\tvalue\t") || strings.Contains(hdr, "value[]") {
		t.Errorf("no value column in the rows, or one of its items: %q", hdr)
	}
}
