package view_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// TestGroupSumsAgainstJQ: the sums per group the view states ("total_cents
// by status: delivered 1,488 records sum 56089416") are what jq computes
// over the original.
func TestGroupSumsAgainstJQ(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captured/sqlite-orders.json")
	if err != nil {
		t.Fatal(err)
	}
	sh, err := budget.DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := view.Input{Tool: "t", ContentType: sh.ContentType, Format: sh.Format, Data: data, Handle: "0123456789ab", Budget: 8000}
	for _, c := range sh.Collections {
		in.Collections = append(in.Collections, view.Collection{Path: c.Path, Kind: c.Kind, Count: c.Count,
			Each: func(fn func(int, []byte) error) error { return budget.EachRecord(data, sh, c.Path, fn) }})
	}
	v, err := view.Build(in)
	if err != nil {
		t.Fatal(err)
	}
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

func commas(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
