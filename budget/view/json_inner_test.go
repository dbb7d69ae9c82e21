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
		want := fmt.Sprintf("collection ._meta.hostvars (map): %d records", len(hv))
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
// functions are counted as "functions".
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
	want := fmt.Sprintf("%s records (%s functions)", commas(n), commas(n))
	if !strings.Contains(text, want) {
		t.Errorf("no %q:\n%s", want, text)
	}
	if strings.Contains(text, "records (62 result") {
		t.Errorf(".result is no plural noun:\n%s", text)
	}
}
