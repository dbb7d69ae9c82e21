package view_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// TestGroupSumsAgainstJQ: the sums per group the view states ("total_cents
// by status: delivered 1,488 records sum 56089416") are what jq computes
// over the original.
func TestGroupSumsAgainstJQ(t *testing.T) {
	data := readFile(t, "../../testdata/captured/sqlite-orders.json")
	v := buildView(t, inputOf(t, data, 8000))
	var line string
	for _, c := range v.Candidates() {
		if strings.HasPrefix(c.Text, "  total_cents by status:") {
			line = c.Text
		}
	}
	if line == "" {
		t.Fatal("no sums of total_cents by status")
	}
	q, err := gojq.Parse(`group_by(.status)[] | "\(.[0].status) \(length) records sum \(map(.total_cents) | add)"`)
	if err != nil {
		t.Fatal(err)
	}
	code, _ := gojq.Compile(q)
	var doc any
	if err := jsonUnmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	iter := code.Run(doc)
	n := 0
	for {
		x, ok := iter.Next()
		if !ok {
			break
		}
		s := fmt.Sprint(x)
		// The view writes counts with thousands separators.
		var status string
		var count int
		var sum float64
		fmt.Sscanf(s, "%s %d records sum %g", &status, &count, &sum)
		want := fmt.Sprintf("%s %s records sum %d", status, commas(count), int64(sum))
		if !strings.Contains(line, want) {
			t.Errorf("jq says %q; the view: %s", want, line)
		}
		n++
	}
	if n < 2 {
		t.Fatalf("jq found %d groups", n)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
