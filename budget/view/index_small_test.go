package view_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestIndexSmallThirdField: the index of a small collection (at most 128
// records, every one listed) shows a third field beside the two most
// telling: `ip -details -json addr`'s 22 interfaces are listed with
// their address, kind and operstate ("veth7 … veth LOWERLAYERDOWN"), so
// "what state is veth7 in" is answered from its line. Each line's cells
// are the record's own values (jq's, in record order). A collection of
// more records keeps two fields a line: there a third costs records
// listed.
func TestIndexSmallThirdField(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/ip-details-addr-lab.json")
	var recs []map[string]any
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	text := fillAt(t, v, 4000).Text
	head := indexHead(t, text, ".")
	if len(head) != 4 || head[0] != "ifname" || head[3] != "operstate" {
		t.Fatalf("index fields %q, want ifname and three fields, the third operstate:\n%s", head, text)
	}
	lines, rest, total, _ := indexLines(t, text)
	if len(lines) != len(recs) || rest != 0 {
		t.Fatalf("%d index lines (%d of %d not listed), want every one of %d records", len(lines), rest, total, len(recs))
	}
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		if len(cells) != 4 || cells[0] != recs[i]["ifname"] || cells[3] != recs[i]["operstate"] {
			t.Errorf("line %d %q, want %v … %v", i, l, recs[i]["ifname"], recs[i]["operstate"])
		}
	}

	// 200 records of the same shape: two fields a line.
	var big []map[string]any
	for i := range 200 {
		big = append(big, map[string]any{"ifname": fmt.Sprintf("veth%d", i), "address": fmt.Sprintf("02:42:ac:11:%02x:%02x", i/256, i%256),
			"kind": []string{"veth", "bridge", "tun", "vxlan"}[i%4], "operstate": []string{"UP", "DOWN", "UNKNOWN"}[i%3], "mtu": 1500 + i%7*100})
	}
	raw, _ := json.Marshal(big)
	bv, _ := viewOfData(t, raw)
	if head := indexHead(t, fillAt(t, bv, 8000).Text, "."); len(head) != 3 {
		t.Errorf("index of 200 records: fields %q, want the key and two", head)
	}
}
