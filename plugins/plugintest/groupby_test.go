package plugintest

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func groupBy(t *testing.T) string {
	return BuildNPM(t, filepath.Join("..", "..", ExampleGroupBy))
}

// sumGroups checks a groupby payload: a JSON array of objects whose
// count members add up to want.
func sumGroups(t *testing.T, body []byte, countField string) (groups []map[string]any, sum int) {
	t.Helper()
	if err := json.Unmarshal(body, &groups); err != nil {
		t.Fatalf("payload is not a JSON array of objects: %v\n%s", err, firstBytes(body, 300))
	}
	for _, g := range groups {
		n, ok := g[countField].(float64)
		if !ok || n < 1 {
			t.Fatalf("group %v has no count %q", g, countField)
		}
		sum += int(n)
	}
	return groups, sum
}

func TestGroupByExample(t *testing.T) {
	in := newInstance(t, groupBy(t))
	if v := in.abiVersion(); v != 1 {
		t.Fatalf("abi version %d", v)
	}
	issues := capturedFile(t, "github-issues.json")

	h, body := in.mustCall("application/json", map[string]string{"by": "state"}, issues)
	if len(h.Collections) != 1 || h.Collections[0].Count != 100 || h.Collections[0].CountField != "n" || h.Collections[0].Path != "." {
		t.Fatalf("header %+v", h)
	}
	groups, sum := sumGroups(t, body, "n")
	if sum != 100 || len(groups) != 2 {
		t.Errorf("by state: %d groups summing to %d: %s", len(groups), sum, body)
	}
	// Groups in the order of their first record, as the host checks.
	var recs []map[string]any
	if err := json.Unmarshal(issues, &recs); err != nil {
		t.Fatal(err)
	}
	if groups[0]["state"] != recs[0]["state"] {
		t.Errorf("first group %v, but the first record's state is %v: groups not in the order of their first record", groups[0], recs[0]["state"])
	}

	// Two keys, one of them a number; "n" is a key, so the count moves
	// to "_n".
	orders := capturedFile(t, "sqlite-orders.json")
	h, body = in.mustCall("application/json", map[string]string{"by": "status, country"}, orders)
	if h.Collections[0].CountField != "n" {
		t.Fatalf("header %+v", h)
	}
	if _, sum := sumGroups(t, body, "n"); sum != 2400 {
		t.Errorf("by status,country: sum %d, want 2400", sum)
	}

	// No config: the first member with few distinct values.
	h, body = in.mustCall("application/json", nil, orders)
	if _, sum := sumGroups(t, body, h.Collections[0].CountField); sum != 2400 {
		t.Errorf("automatic key: sum %d, want 2400: %s", sum, firstBytes(body, 300))
	}

	const small = `[{"n":1,"k":"a\u00e9"},{"n":2,"k":"a\u00e9"},{"n":3,"k":"b"},{"n":4,"k":"b"},{"n":5,"k":"b"},{"n":6,"k":"b"},{"n":7,"k":"b"}]`
	h, body = in.mustCall("application/json", map[string]string{"by": "n"}, []byte(small))
	if h.Collections[0].CountField != "_n" {
		t.Errorf("count field with a key named n: %+v", h)
	}
	// A small input that would not shrink comes back byte for byte.
	h, body = in.mustCall("application/json", map[string]string{"by": "n"}, []byte(`[{"n":1}]`))
	if len(h.Collections) != 0 || string(body) != `[{"n":1}]` {
		t.Errorf("tiny input: %+v %s", h, body)
	}

	// Bad input is a clear failure with an offset, not a crash.
	for payload, msg := range map[string]string{
		`{"a":1}`:       "want a JSON array of objects at offset 0",
		`[{"a":1},2]`:   "element 1 is not an object at offset 9",
		`[{"a":1}] x`:   "unexpected data after the array",
		`[{"a":"x}]`:    "unterminated string",
		"[{\"a\":tru}]": "invalid literal",
	} {
		exit, _, err := in.call(callTimeout, "application/json", map[string]string{"by": "a"}, []byte(payload))
		if exit == 0 || err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: exit %d err %v, want %q", payload, exit, err, msg)
		}
	}
}
