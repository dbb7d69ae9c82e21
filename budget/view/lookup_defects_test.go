package view_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestIdentityPastDistinctCap: an identity of more records than the
// profile counts distinct values of (4,096) is not said to have exactly
// 4,096 distinct values: its line says "over 4,096 distinct", as the
// line of any other field past the cap does.
func TestIdentityPastDistinctCap(t *testing.T) {
	var recs []map[string]any
	for i := range 5000 {
		recs = append(recs, map[string]any{"id": fmt.Sprintf("node-%d", i), "hits": i % 7, "state": []string{"ok", "slow"}[i%2]})
	}
	data, _ := json.Marshal(recs)
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 4000).Text
	line := regexp.MustCompile(`(?m)^  id \([^\n]*$`).FindString(text)
	if !strings.Contains(line, "identity") {
		t.Fatalf("no identity line for id:\n%s", text)
	}
	if strings.Contains(line, "identity, 4,096 distinct") || !strings.Contains(line, "over 4,096 distinct") {
		t.Errorf("identity line %q: 5,000 distinct ids, counted up to 4,096: want \"over 4,096 distinct\"", line)
	}
}

// TestIndexKeepsValueMerelyInKey: an index cell is left out when the
// line's key gives its value, as a part of the key between separators
// (a version after "name@"), not when the value merely occurs inside
// the key: "ok" is no part of "broker7", and a record's flag "ok" says
// something the name does not.
func TestIndexKeepsValueMerelyInKey(t *testing.T) {
	var recs []map[string]any
	flags := []string{"ok", "ro", "br", "er"}
	for i := range 40 {
		recs = append(recs, map[string]any{
			"name": fmt.Sprintf("broker%d", i), "flag": flags[i%4],
			"ref": fmt.Sprintf("broker%d@1.%d.0", i, i), "version": fmt.Sprintf("1.%d.0", i),
		})
	}
	data, _ := json.Marshal(recs)
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 30000).Text
	head := indexHead(t, text, ".")
	if !slicesContains(head, "flag") {
		t.Errorf("index head %v: no flag (its values are inside the names, not given by them):\n%s", head, text)
	}
	if !regexp.MustCompile(`\nbroker7\t([^\n]*\t)?er(\t|\n)`).MatchString(text) {
		t.Errorf("no index line for broker7 with its flag er:\n%s", text)
	}
}

func slicesContains(s []string, x string) bool {
	for _, e := range s {
		if e == x {
			return true
		}
	}
	return false
}

// TestIndexNameSharedKeepsPath: the index names npm query's records by
// their name, shorter than their path, only where the name tells the
// record apart. A package installed twice (a copy nested under another
// package) is listed by its path, both copies, and the head says so;
// the foot's query lists the rest by the path too, so every line of the
// rest names one record.
func TestIndexNameSharedKeepsPath(t *testing.T) {
	words := []string{"etag", "debug", "ms", "qs", "send", "accepts", "bytes", "depd"}
	var recs []map[string]any
	for i := range 60 {
		name := fmt.Sprintf("%s-%d", words[i%len(words)], i)
		recs = append(recs, map[string]any{
			"name": name, "version": fmt.Sprintf("%d.%d.%d", i%5, i, i%3),
			"path": "/tmp/p/node_modules/" + name, "license": []string{"MIT", "ISC", "BSD-3-Clause", "Apache-2.0"}[i%4],
		})
		if i%20 == 3 {
			recs = append(recs, map[string]any{
				"name": name, "version": fmt.Sprintf("0.%d.0", i),
				"path": "/tmp/p/node_modules/x/node_modules/" + name, "license": "MIT",
			})
		}
	}
	data, _ := json.Marshal(recs)
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 30000).Text
	if head := indexHead(t, text, "."); head[0] != "name" {
		t.Fatalf("index key %q, want name:\n%s", head[0], text)
	}
	if !strings.Contains(text, "; the 6 records whose name another record has too are listed by their path:\n") {
		t.Errorf("the index head does not say which lines show the path:\n%s", text)
	}
	for _, want := range []string{"\n/tmp/p/node_modules/qs-3\t", "\n/tmp/p/node_modules/x/node_modules/qs-3\t", "\nms-2\t"} {
		if !strings.Contains(text, want) {
			t.Errorf("no index line %q:\n%s", want[1:], text)
		}
	}
	if strings.Contains(text, "\nqs-3\t") {
		t.Errorf("a line names qs-3 alone; two records have that name:\n%s", text)
	}
	small := fillAt(t, v, 1200).Text
	lines, rest, total, query := indexLines(t, small)
	if query == "" || len(lines) == 0 {
		t.Fatalf("no partial index at 1,200 tokens:\n%s", small)
	}
	got := jq(t, data, query)[0].([]any)
	if len(got) != rest || len(lines)+rest != total {
		t.Errorf("rest query %s gives %d, foot says %d of %d (%d listed)", query, len(got), rest, total, len(lines))
	}
	if first := got[0].([]any); first[0] != recs[len(lines)]["path"] {
		t.Errorf("rest starts with %v, want record %d's path %v", first, len(lines), recs[len(lines)]["path"])
	}
}
