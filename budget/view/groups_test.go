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

// TestGroupSumsOnlyWhereMeasured: a progress log of JSON lines ({type,
// data}, as yarn --json writes it) carries its counter data.current in
// its progressTick records only. The sums per type name the types whose
// records have the counter, with the sum jq gives, and say which types
// have none, never "verbose 300 records sum 0" (as on the old code) for
// records that hold no such number.
func TestGroupSumsOnlyWhereMeasured(t *testing.T) {
	var b strings.Builder
	want := 0
	for i := range 600 {
		switch {
		case i%2 == 0:
			fmt.Fprintf(&b, `{"type":"verbose","data":"Copying \"/tmp/cache/pkg-%d/index.js\"."}`+"\n", i)
		case i%50 == 1:
			fmt.Fprintf(&b, `{"type":"step","data":{"message":"Fetching packages","current":%d,"total":12}}`+"\n", i/50+1)
		default:
			fmt.Fprintf(&b, `{"type":"progressTick","data":{"id":2,"current":%d}}`+"\n", i)
			want += i
		}
	}
	v := buildView(t, inputOf(t, []byte(b.String()), 8000))
	var line string
	for _, c := range v.Candidates() {
		if strings.HasPrefix(c.Text, "  data.current by type:") {
			line = c.Text
		}
	}
	if line == "" {
		t.Fatal("no sums of data.current by type")
	}
	if !strings.Contains(line, fmt.Sprintf(" progressTick 288 records sum %d", want)) || !strings.Contains(line, "no record of verbose has it") {
		t.Errorf("want progressTick's 288 records summed to %d and verbose named as having none: %s", want, line)
	}
	if strings.Contains(line, "verbose 300 records") {
		t.Errorf("a sum over verbose records, which have no data.current: %s", line)
	}
}
