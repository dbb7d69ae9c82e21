package view_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestNameOfWordsReadByWord: a member name of several words (PostgreSQL
// EXPLAIN's "Node Type", "Relation Name") is read by its last word, as a
// nested member's name is: its records are listed by their "Node Type"
// (a type, as node.type would be), each with its name.
func TestNameOfWordsReadByWord(t *testing.T) {
	types := []string{"Seq Scan", "Hash Join", "Index Scan", "Sort", "Memoize"}
	var recs []map[string]any
	for i := range 600 {
		typ := types[0]
		if i%10 == 3 {
			typ = types[1+i/10%4]
		}
		recs = append(recs, map[string]any{"name": fmt.Sprintf("rel_%d", i), "Node Type": typ, "Plan Rows": i * 7, "Startup Cost": float64(i) / 4})
	}
	data, _ := json.Marshal(recs)
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 8000).Text
	// (with the largest of each and its record: groupmax.go)
	if !strings.Contains(text, `"Plan Rows" by "Node Type": Seq Scan 540 records sum 1132740 max 4193 (rel_599), Hash Join 15 records sum 29715 max 3941 (rel_563),`) {
		t.Errorf("no sums by \"Node Type\":\n%s", text)
	}
	if !strings.Contains(text, "#\tname\t\"Node Type\"\t") {
		t.Errorf("the \"Node Type\" column is not the first after the name:\n%s", text)
	}
}
