package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// packets are records whose numbers are written as strings, as tshark
// -T json writes every field ("frame.len": "74"), beside a field of
// strings of which only some are numbers.
func packets() []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 40; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		n := 66
		switch i {
		case 17:
			n = 15307
		case 3:
			n = 54
		default:
			n += 7 * i
		}
		ver := fmt.Sprintf("%d", i%3)
		if i%5 == 0 {
			ver = fmt.Sprintf("1.%d.2", i)
		}
		fmt.Fprintf(&b, `{"frame": {"frame.number": "%d", "frame.len": "%d", "frame.protocols": "eth:ip:tcp"}, "ver": %q}`, i+1, n, ver)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// TestNumbersWrittenAsStrings: a field whose every value is a string
// holding a JSON number has the number statistics (min, max, sum, what
// jq computes with tonumber) and its largest is a row; a field whose
// strings are only in part numbers ("1.5.2" beside "1") gets none.
// Before, such fields were strings: no min, no max, no largest row.
func TestNumbersWrittenAsStrings(t *testing.T) {
	data := packets()
	v := buildView(t, inputOf(t, data, 8000))
	text := fillAt(t, v, 8000).Text
	lo := jqAll(t, data, `[.[].frame."frame.len" | tonumber] | min`)[0]
	hi := jqAll(t, data, `[.[].frame."frame.len" | tonumber] | max`)[0]
	sum := jqAll(t, data, `[.[].frame."frame.len" | tonumber] | add`)[0]
	// (the largest's record is named: numbers written as strings
	// are not counted by value, so as the first holding it)
	want := fmt.Sprintf(`frame."frame.len" (string): min %v, max %v (first in `, lo, hi)
	if !strings.Contains(text, want) || !strings.Contains(text, fmt.Sprintf("sum %v", sum)) {
		t.Errorf("want %q and sum %v in the view:\n%s", want, sum, text)
	}
	largest := jqAll(t, data, `max_by(.frame."frame.len" | tonumber) | .frame."frame.number"`)[0].(string)
	found := false
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, `largest "frame.len"`) && strings.Contains(l, `"`+largest+`"`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no row of the largest frame (number %s) in the view:\n%s", largest, text)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "  ver (") && strings.Contains(l, "min ") {
			t.Errorf("a field of strings only some of which are numbers has number statistics: %s", l)
		}
	}
}

// series are records in the shape of prometheus' /api/v1/query result:
// a label set (metric: __name__, job, instance in every series, one of
// 40 other labels in some) and a value.
func series() []byte {
	var b strings.Builder
	b.WriteString(`{"status": "success", "data": {"resultType": "vector", "result": [`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		job, inst := "node", "127.0.0.1:9100"
		if i%4 == 0 {
			job, inst = "prometheus", "127.0.0.1:9090"
		}
		extra := ""
		if i%2 == 1 {
			extra = fmt.Sprintf(`, "label_%d": "v%d"`, i%80, i)
		}
		fmt.Fprintf(&b, `{"metric": {"__name__": "metric_%d", "instance": %q, "job": %q%s}, "value": [1795711963.186, "%d"]}`, i/2, inst, job, extra, i)
	}
	b.WriteString("]}}")
	return []byte(b.String())
}

// TestLabelSetIsFields: an object whose few names are in every record
// and hold most of its entries, its other names each in a few records
// (a label set), is read as fields: the job of every series is counted
// (what jq counts), and the name is the records' identity. Before, its
// 43 names made it a map: no count per job, no name in the rows.
func TestLabelSetIsFields(t *testing.T) {
	data := series()
	v := buildView(t, inputOf(t, data, 8000))
	text := fillAt(t, v, 8000).Text
	node := jqAll(t, data, `[.data.result[] | select(.metric.job == "node")] | length`)[0].(int)
	prom := jqAll(t, data, `[.data.result[] | select(.metric.job == "prometheus")] | length`)[0].(int)
	if want := fmt.Sprintf("metric.job (string): node %d, prometheus %d", node, prom); !strings.Contains(text, want) {
		t.Errorf("want %q in the view:\n%s", want, text)
	}
	if !strings.Contains(text, "identity: metric.__name__") {
		t.Errorf("the series are not named by metric.__name__:\n%s", text)
	}
}
