package view_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestDottedNamesInEveryRecordAreFields: tshark -T json prints each
// packet's layers as objects whose member names hold dots
// ("frame.len", "frame.number", "tcp.srcport"), the same names in every
// packet. Names that are not identifiers made such an object a map
// ("frame (map): 16-16 entries"), and no value of frame.len or
// tcp.srcport was profiled or shown ("rows show 0 of 400 fields"): an
// object whose names are in nearly every record holding it is a
// record's fields, dotted or not.
func TestDottedNamesInEveryRecordAreFields(t *testing.T) {
	var recs []map[string]any
	for i := range 60 {
		frame := map[string]any{}
		for j, n := range []string{"frame.number", "frame.len", "frame.cap_len", "frame.time", "frame.protocols", "frame.encap_type", "frame.marked", "frame.ignored", "frame.time_delta"} {
			frame[n] = fmt.Sprint(i*10 + j)
		}
		frame["frame.protocols"] = []string{"eth:ip:tcp", "eth:ip:tcp:http"}[i%2]
		recs = append(recs, map[string]any{"_source": map[string]any{"layers": map[string]any{"frame": frame}}})
	}
	data, _ := json.Marshal(recs)
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 8000).Text
	if strings.Contains(text, "_source.layers.frame (map") {
		t.Errorf("the frame layer is read as a map:\n%s", text)
	}
	if want := `_source.layers.frame."frame.protocols" (string): eth:ip:tcp 30, eth:ip:tcp:http 30`; !strings.Contains(text, want) {
		t.Errorf("view lacks %q:\n%s", want, text)
	}
}

// TestMeasurementIsNoIdentity: hyperfine's results are unique by their
// mean (a number with a fraction), which names no run: the view named
// the records by their mean ("identity: mean") and its index lists
// showed no command. A number with a fraction, not named like an id,
// is no identity.
func TestMeasurementIsNoIdentity(t *testing.T) {
	var recs []map[string]any
	cmds := []string{"gzip -%d -c in.txt", "xz -%d -c in.txt", "bzip2 -%d -c in.txt", "zstd -%d -c in.txt"}
	for i := range 32 {
		recs = append(recs, map[string]any{"command": fmt.Sprintf(cmds[i%4], (i/4)%2), "level": fmt.Sprint(i / 8), "mean": 0.0131 + float64(i)*0.01713, "stddev": 0.001 * float64(i%5+1)})
	}
	data, _ := json.Marshal(map[string]any{"results": recs})
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 8000).Text
	if strings.Contains(text, "identity: mean") {
		t.Errorf("the mean names the records:\n%s", text)
	}
}
