package budget_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
)

// TestGraphQueryWithinDeadline: the query a graph's view prints for the
// records it does not list runs within the querier's own deadline (5 s)
// on a graph of 10,000 records, and returns each of them with its edges
// out and the records naming it. The query it replaces (REVIEW18 R12)
// looked up each record's edges in by scanning every record: quadratic,
// past the deadline at 1,000 records under load, "query limit exceeded"
// at 3,000.
func TestGraphQueryWithinDeadline(t *testing.T) {
	const n = 10000
	type mod struct {
		Name string   `json:"name"`
		Deps []string `json:"deps"`
	}
	mods := make([]mod, n)
	name := func(i int) string { return fmt.Sprintf("mod%05d", i%n) }
	for i := range mods {
		mods[i] = mod{name(i), []string{name(i + 1), name(i + 7)}}
	}
	data, err := json.Marshal(map[string]any{"modules": mods})
	if err != nil {
		t.Fatal(err)
	}
	p, counter, st := storePipeline(t)
	querier, err := query.New(st, counter, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(context.Background(), budget.Input{Tool: "graph", Data: data, Budget: 64000})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^  edges: ([\d,]+) of 10,000 records not listed; list exactly them \(name, out, in\): compact artifact query (\S+) --jq '([^\n]*)'$`).FindStringSubmatch(res.Content)
	if m == nil {
		t.Fatalf("no graph foot in the view:\n%s", res.Content)
	}
	rest, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	ans, err := querier.JQ(context.Background(), m[2], m[3], 10_000_000)
	if err != nil {
		t.Fatalf("the printed query fails: %v", err)
	}
	var got []struct {
		Name string   `json:"name"`
		Out  []string `json:"out"`
		In   []string `json:"in"`
	}
	if err := json.Unmarshal([]byte(ans.Content), &got); err != nil {
		t.Fatalf("%v: %.300s", err, ans.Content)
	}
	if len(got) != rest {
		t.Fatalf("the query returns %d records, the view says %d are not listed", len(got), rest)
	}
	for k, r := range got {
		i := n - rest + k
		// mod i is named by mod i-1 and mod i-7, in record order.
		want := []string{name(i + n - 7), name(i + n - 1)}
		if want[0] > want[1] {
			want[0], want[1] = want[1], want[0]
		}
		if r.Name != name(i) || strings.Join(r.Out, ",") != name(i+1)+","+name(i+7) || strings.Join(r.In, ",") != strings.Join(want, ",") {
			t.Fatalf("record %d: %+v, want name %s, out %s,%s, in %v", i, r, name(i), name(i+1), name(i+7), want)
		}
	}
}
