package view_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// viewOf builds the view of a file with the shape DetectShape finds.
func viewOf(t *testing.T, file string) (*view.View, []byte) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return viewOfData(t, data)
}

// viewOfData builds the view of data with the shape DetectShape finds.
func viewOfData(t *testing.T, data []byte) (*view.View, []byte) {
	t.Helper()
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
	return v, data
}

// jq runs filter over the JSON document data and returns its outputs.
func jq(t *testing.T, data []byte, filter string) []any {
	t.Helper()
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatalf("%s: %v", filter, err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		t.Fatalf("%s: %v", filter, err)
	}
	var doc any
	if err := jsonUnmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []any
	iter := code.Run(doc)
	for {
		x, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := x.(error); ok {
			t.Fatalf("%s: %v", filter, err)
		}
		out = append(out, x)
	}
	return out
}

var indexFoot = regexp.MustCompile(`index: ([\d,]+) of ([\d,]+) records not listed; list exactly them: compact artifact query \S+ --jq '([^\n]*)'`)

// indexLines returns the index lines of the view text (after its
// "index of" head) and the foot's numbers and query.
func indexLines(t *testing.T, text string) (lines []string, rest, total int, query string) {
	t.Helper()
	i := strings.Index(text, "\nindex of ")
	if i < 0 {
		return nil, 0, 0, ""
	}
	for _, l := range strings.Split(text[i+1:], "\n")[1:] {
		if strings.HasPrefix(l, "  ") || l == "" || strings.HasPrefix(l, "collection ") {
			break
		}
		lines = append(lines, l)
	}
	if m := indexFoot.FindStringSubmatch(text); m != nil {
		fmt.Sscan(strings.ReplaceAll(m[1], ",", ""), &rest)
		fmt.Sscan(strings.ReplaceAll(m[2], ",", ""), &total)
		query = strings.ReplaceAll(m[3], `'\''`, `'`)
	}
	return lines, rest, total, query
}

// TestIndexListsRecordsInTheMiddle: the view of 2,400 orders lists, after
// its rows, one line per order (order_id, status, customer) in record
// order; at 4,000 tokens order 100101, record 100 of 2,400 that no row
// shows, is on its line with the values jq gives; a larger budget lists
// a longer prefix; the foot's query lists exactly the orders not
// listed, in the same form. The view before the index had no such line.
func TestIndexListsRecordsInTheMiddle(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/sqlite-orders.json")
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	status := jq(t, data, `.[] | select(.order_id == 100101) | .status`)[0]
	customer := jq(t, data, `.[] | select(.order_id == 100101) | .customer`)[0]
	want := fmt.Sprintf("100101\t%s\t%s", status, customer)
	ids := jq(t, data, `[.[].order_id]`)[0].([]any)
	prev := 0
	for _, b := range []int{2000, 4000, 8000} {
		f, err := v.Fill(c, b)
		if err != nil {
			t.Fatal(err)
		}
		lines, rest, total, query := indexLines(t, f.Text)
		if b >= 4000 && !strings.Contains(f.Text, "\n"+want+"\n") {
			t.Errorf("at %d: no index line %q", b, want)
		}
		if len(lines) < prev {
			t.Errorf("at %d: %d index lines, %d at a smaller budget", b, len(lines), prev)
		}
		prev = len(lines)
		if len(lines) == 0 {
			continue
		}
		if total != 2400 || rest != total-len(lines) {
			t.Fatalf("at %d: %d lines listed, foot says %d of %d not listed", b, len(lines), rest, total)
		}
		for i, l := range lines {
			if id := ids[i]; !strings.HasPrefix(l, fmt.Sprint(id)+"\t") {
				t.Fatalf("at %d: index line %d is %q, record %d is order %v", b, i, l, i, id)
			}
		}
		out := jq(t, data, query)
		got, _ := out[0].([]any)
		if len(got) != rest {
			t.Fatalf("at %d: %s lists %d orders, the foot says %d", b, query, len(got), rest)
		}
		first, _ := got[0].([]any)
		if wantID := ids[len(lines)]; len(first) != 3 || first[0] != wantID {
			t.Errorf("at %d: the rest starts with %v, want order %v", b, first, wantID)
		}
	}
	if prev == 0 {
		t.Fatal("no index at any budget")
	}
}

// TestIndexOfKeyedCollection: a map of scalars (npm view vite's .time,
// version → date) is indexed in key order, the order a query pages it
// in; the foot's query lists exactly the members not listed.
func TestIndexOfKeyedCollection(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/npm-view-vite.json")
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	f, err := v.Fill(c, 8000)
	if err != nil {
		t.Fatal(err)
	}
	lines, rest, total, query := indexLines(t, f.Text)
	if len(lines) == 0 || !strings.Contains(f.Text, "index of .time, ") {
		t.Fatalf("no index of .time:\n%s", f.Text)
	}
	n := jq(t, data, `.time | length`)[0]
	if fmt.Sprint(total) != fmt.Sprint(n) || rest != total-len(lines) {
		t.Fatalf("%d listed, foot says %d of %d not listed; .time has %v", len(lines), rest, total, n)
	}
	keys := jq(t, data, `.time | keys`)[0].([]any)
	times := jq(t, data, `.time`)[0].(map[string]any)
	for i, l := range lines {
		k, val, _ := strings.Cut(l, "\t")
		if k != keys[i] {
			t.Fatalf("index line %d is %q, key %d in order is %v", i, l, i, keys[i])
		}
		if got := times[k]; fmt.Sprint(got) != val {
			t.Errorf("%s: index says %q, jq %v", k, val, got)
		}
	}
	t.Logf("%d of %d members listed", len(lines), total)
	got := jq(t, data, query)[0].([]any)
	if len(got) != rest {
		t.Fatalf("%s lists %d members, the foot says %d", query, len(got), rest)
	}
	if first := got[0].([]any); first[0] != keys[len(lines)] {
		t.Errorf("the rest starts with %v, want %v", first, keys[len(lines)])
	}
}

// TestIndexSkipsNearlyConstantFields: the index shows the fields that
// tell records apart; a field whose one value covers nine records in ten
// (status.phase Running in 141 of 144 pods, stated by the profile) is not
// one of them: the pod's IP and node are, and a pod in the middle is on
// its line with the values jq gives.
func TestIndexSkipsNearlyConstantFields(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/kubectl-pods-restarts.json")
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	f, err := v.Fill(c, 8000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Text, "(tab-separated: metadata.name, status.podIP, spec.nodeName):\n") {
		t.Fatalf("index fields:\n%s", f.Text)
	}
	pod := jq(t, data, `.items[] | select(.metadata.name == "basket-mwc9hn8gfk-6xnn6") | [.metadata.name, .status.podIP, .spec.nodeName] | join("\t")`)[0].(string)
	if !strings.Contains(f.Text, "\n"+pod+"\n") {
		t.Errorf("no index line %q", pod)
	}
}
