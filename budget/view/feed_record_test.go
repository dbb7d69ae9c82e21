package view

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestFedRecordEnds: a fed collection finds a record again from the
// offsets it kept (record: a large stride-th record by its start and its
// kept end, no scan of its text) as the scan from the start finds it
// (recordScan), for every record of an array with white space around
// its records, small and large ones, also past maxFedOffsets records
// (the stride doubles, the kept offsets are halved and the ends of the
// records no longer kept are dropped); a record the walk began but did
// not end is found by the scan.
func TestFedRecordEnds(t *testing.T) {
	for _, n := range []int{1, 7, maxFedOffsets, 3*maxFedOffsets + 5} {
		var b bytes.Buffer
		b.WriteString("[ ")
		var starts, ends []int
		for i := range n {
			if i > 0 {
				b.WriteString(" ,\n ")
			}
			starts = append(starts, b.Len())
			size := i % 5
			if i%3 == 0 {
				size = bigRecord + i%7 // large from the start
			}
			fmt.Fprintf(&b, `{"id":%d,"s":"%s"}`, i, strings.Repeat("x", size))
			ends = append(ends, b.Len())
		}
		b.WriteString(" ]")
		data := b.Bytes()
		fc := NewFeed(Input{Data: data}).Coll("array")
		for i := range n {
			fc.Begin(starts[i])
			fc.End(ends[i])
		}
		direct, big := 0, 0
		for i := range n {
			want := data[starts[i]:ends[i]]
			if got := fc.record(i); !bytes.Equal(got, want) {
				t.Fatalf("%d records: record %d is %q, want %q", n, i, got, want)
			}
			if got := fc.recordScan(i); !bytes.Equal(got, want) {
				t.Fatalf("%d records: record %d scanned is %q, want %q", n, i, got, want)
			}
			if i%fc.stride == 0 && len(want) >= bigRecord {
				big++
				if fc.ends[i] == ends[i] {
					direct++
				}
			}
		}
		if direct != big || big == 0 {
			t.Errorf("%d records (stride %d): %d of the %d large kept records found from their kept ends", n, fc.stride, direct, big)
		}
		if len(fc.offs) > maxFedOffsets || len(fc.ends) > maxFedOffsets {
			t.Errorf("%d records: %d offsets and %d ends kept", n, len(fc.offs), len(fc.ends))
		}
	}
	// Begun, not ended: found by the scan.
	data := []byte(`[{"a":1}, {"a":2}]`)
	fc := NewFeed(Input{Data: data}).Coll("array")
	fc.Begin(1)
	fc.End(8)
	fc.Begin(10)
	if got := string(fc.record(1)); got != `{"a":2}` {
		t.Errorf("a record not ended: %q, want {\"a\":2}", got)
	}
}
