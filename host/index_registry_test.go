package host

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/registry"
)

// TestRegistryIndexAndSort: a registry entry's index and sort keys reach
// the artifact level's view: the index of 2,400 orders shows the named
// fields in the named order, largest total first, and its first line is
// the order with the largest total (jq: max_by(.total_cents), the last
// of the ties as sort_by | reverse puts it).
func TestRegistryIndexAndSort(t *testing.T) {
	ctx := context.Background()
	reg, err := registry.Parse([]byte(`version: 1
tools:
  - name: orders
    index: [total_cents, country]
    sort: [-total_cents]
`), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := rulesFromEntry(reg.Lookup("orders"))
	if fmt.Sprint(r.Index, r.Sort) != "[total_cents country] [-total_cents]" {
		t.Fatalf("rules: index %v, sort %v", r.Index, r.Sort)
	}
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(ctx, WithRegistry(reg), WithStore(st), WithCompilationCache(""), quiet, WithPluginDir(t.TempDir()), WithLazyPlugins())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	data, err := os.ReadFile("../testdata/captured/sqlite-orders.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Compact(ctx, Request{Tool: "orders", Input: data, Budget: 8000})
	if err != nil {
		t.Fatal(err)
	}
	head := "index of ., the first "
	i := strings.Index(res.Content, head)
	if i < 0 {
		t.Fatalf("no index:\n%s", res.Content)
	}
	lines := strings.SplitN(res.Content[i:], "\n", 3)
	if !strings.Contains(lines[0], "records in order of total_cents, largest first, one per line (tab-separated: order_id, total_cents, country):") {
		t.Fatalf("index head %q", lines[0])
	}
	// The largest total not already shown as a row (the index leaves out
	// the records whose rows come first); of equal totals, the last in
	// record order.
	rows := map[int]bool{}
	if r := strings.Index(res.Content, "\n#\torder_id\t"); r >= 0 {
		for _, l := range strings.Split(res.Content[r+1:], "\n")[1:] {
			f := strings.Split(l, "\t")
			if len(f) < 2 || strings.HasPrefix(l, " ") {
				break
			}
			id, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatalf("row %q: %v", l, err)
			}
			rows[id] = true
		}
	}
	if len(rows) == 0 {
		t.Fatalf("no rows:\n%s", res.Content)
	}
	var top struct {
		ID    int    `json:"order_id"`
		Total int    `json:"total_cents"`
		C     string `json:"country"`
	}
	var all []map[string]any
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	best := -1.0
	for _, o := range all {
		id := int(o["order_id"].(float64))
		if v := o["total_cents"].(float64); v >= best && !rows[id] {
			best = v
			top.ID, top.Total, top.C = id, int(v), o["country"].(string)
		}
	}
	if want := fmt.Sprintf("%d\t%d\t%s", top.ID, top.Total, top.C); lines[1] != want {
		t.Errorf("first index line %q, want %q", lines[1], want)
	}
}
