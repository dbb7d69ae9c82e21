package view_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// ansible-inventory --list holds its groups and, under _meta.hostvars,
// the variables of every host: 25 of 26 KB. The member is no summary of
// the groups: the hosts are a collection of their own, profiled (the
// counts of each kernel, the one host with drain), whatever the budget.
func TestBigMemberHoldsCollection(t *testing.T) {
	data := readFile(t, "testdata/ansible-inventory-list-lab.json")
	var doc struct {
		Meta struct {
			Hostvars map[string]map[string]any `json:"hostvars"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	hv := doc.Meta.Hostvars
	kernels := map[string]int{}
	drained := ""
	for h, vars := range hv {
		kernels[vars["kernel"].(string)]++
		if vars["drain"] != nil {
			drained = h
		}
	}
	v, _ := viewOfData(t, data)
	for _, b := range []int{2000, 4000, 8000} {
		text := fillAt(t, v, b).Text
		if strings.Contains(text, "summary member") {
			t.Errorf("at %d: _meta is called a summary:\n%s", b, text)
		}
		want := fmt.Sprintf("collection ._meta.hostvars (map): %d hostvars", len(hv))
		if !strings.Contains(text, want) {
			t.Errorf("at %d: no %q:\n%s", b, want, text)
		}
		for k, n := range kernels {
			if !strings.Contains(text, fmt.Sprintf("%s %d", k, n)) {
				t.Errorf("at %d: kernel %s is held by %d hosts; the view does not say so:\n%s", b, k, n, text)
			}
		}
		if b >= 4000 && !strings.Contains(text, drained) {
			t.Errorf("at %d: the one host with drain (%s) is not shown:\n%s", b, drained, text)
		}
	}
}

// A collection's count is stated with the words of its key too: node's
// V8 coverage holds scripts under .result, each with its functions; the
// functions are counted as "functions", the scripts (.result) as records.
func TestCountInKeyWords(t *testing.T) {
	data := readFile(t, "testdata/node-v8-coverage-app.json")
	var doc struct {
		Result []struct {
			Functions []json.RawMessage `json:"functions"`
		} `json:"result"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range doc.Result {
		n += len(s.Functions)
	}
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 4000).Text
	want := fmt.Sprintf("collection .result[].functions (array): %s functions;", commas(n))
	if !strings.Contains(text, want) {
		t.Errorf("no %q:\n%s", want, text)
	}
	if !strings.Contains(text, "collection .result (array): 62 records;") {
		t.Errorf(".result is no plural noun:\n%s", text)
	}
}

// eachObject calls fn with every object of the decoded JSON value v.
func eachObject(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		fn(x)
		for _, m := range x {
			eachObject(m, fn)
		}
	case []any:
		for _, e := range x {
			eachObject(e, fn)
		}
	}
}

// MariaDB's optimizer trace nests its considered plans in each other
// (rest_of_plan) and its access paths in every plan's tables, at a dozen
// depths: level 1 finds only the trace's two steps. The plans and the
// access paths are collections of their own, counted and profiled (how
// many plans were pruned by cost, how many access paths are of type
// ref).
func TestFamiliesThroughTree(t *testing.T) {
	data := readFile(t, "testdata/mariadb-optimizer-trace-shop.json")
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	plans, pruned, paths, refs := 0, 0, 0, 0
	eachObject(doc, func(o map[string]any) {
		if _, ok := o["plan_prefix"]; ok {
			plans++
			if o["pruned_by_cost"] == true {
				pruned++
			}
		}
		if at, ok := o["access_type"]; ok {
			paths++
			if at == "ref" {
				refs++
			}
		}
	})
	v, _ := viewOfData(t, data)
	for _, b := range []int{4000, 8000} {
		text := fillAt(t, v, b).Text
		for _, want := range []string{
			fmt.Sprintf("%d objects with plan_prefix (%d records)", plans, plans),
			fmt.Sprintf("pruned_by_cost (bool, in %d of %d records): true %d", pruned, plans, pruned),
			fmt.Sprintf("%d objects with access_type (%d records)", paths, paths),
			fmt.Sprintf("ref %d", refs),
			`[.. | objects | select(has("plan_prefix")) | del(.[] | select(type == "object" or type == "array" and any(.[]; type == "object")))]`,
		} {
			if !strings.Contains(text, want) {
				t.Errorf("at %d: no %q:\n%s", b, want, text)
			}
		}
	}
}
