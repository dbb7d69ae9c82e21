package view

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// genCollection returns n pod-like records, as slices of one JSON array
// (or, asMap, as {"key": value} members built in a reused buffer, as
// level 2 gives the members of a map), and the input holding them.
func genCollection(n int, asMap bool) (Input, Collection) {
	var data bytes.Buffer
	var spans [][2]int
	data.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			data.WriteByte(',')
		}
		status := "Running"
		switch {
		case i%997 == 3:
			status = "Failed"
		case i%500 == 7:
			status = "Pending"
		}
		restarts := 0
		if i%20 == 0 {
			restarts = 10 // 5% deviate by more than 2σ
		}
		if i == n-10 {
			restarts = 100000 // the most extreme, late
		}
		extra := ""
		if i%300 == 1 {
			extra = `,"note":"rare field"`
		}
		start := data.Len()
		fmt.Fprintf(&data, `{"name":"pod-%d","status":"%s","restarts":%d,"created":"2026-01-%02dT03:04:%02dZ","tags":[%s]%s}`,
			i, status, restarts, 1+i%28, i%60, strings.Repeat(`"t",`, i%4)+`"u"`, extra)
		spans = append(spans, [2]int{start, data.Len()})
	}
	data.WriteByte(']')
	d := data.Bytes()
	in := Input{Format: "json", Data: d, Budget: 4000, Args: []byte(`{"q":"running"}`)}
	c := Collection{Path: ".", Kind: "array", Count: n}
	c.Each = func(fn func(int, []byte) error) error {
		var buf []byte
		for i, s := range spans {
			raw := d[s[0]:s[1]]
			if asMap {
				buf = append(append(append(buf[:0], fmt.Sprintf(`{"k%d":`, i)...), raw...), '}')
				raw = buf
			}
			if err := fn(i, raw); err != nil {
				return err
			}
		}
		return nil
	}
	if asMap {
		c.Kind = "map"
	}
	in.Collections = []Collection{c}
	return in, c
}

// selectOver runs what addRecords runs before the candidates and returns
// the collection with its tracker.
func selectOver(t *testing.T, n int, asMap bool) *coll {
	t.Helper()
	in, c := genCollection(n, asMap)
	k := &coll{in: in, c: c, p: NewProfile(asMap), rows: map[int]*row{}}
	k.t = newTracker(k)
	k.p.t = k.t
	if err := c.Each(func(i int, raw []byte) error { k.p.Add(i, raw); return nil }); err != nil {
		t.Fatal(err)
	}
	k.p.Finish()
	k.chooseColumns()
	k.selectRows()
	return k
}

// TestSelectionBoundedByCaps: the records the selection keeps for its
// second look (and so its memory) follow the caps, not the number of
// records: eight times the records keep about as many, both as slices of
// the input and as copies (members of a map).
func TestSelectionBoundedByCaps(t *testing.T) {
	for _, asMap := range []bool{false, true} {
		small, large := selectOver(t, 10_000, asMap), selectOver(t, 80_000, asMap)
		ns, nl := len(small.t.raws), len(large.t.raws)
		if nl > ns+ns/4 || nl > 3000 {
			t.Errorf("map %v: %d records kept of 10,000, %d of 80,000: grows with the input", asMap, ns, nl)
		}
		bytesKept := 0
		for _, raw := range large.t.raws {
			bytesKept += len(raw)
		}
		if len(large.t.hits) > 2000 {
			t.Errorf("map %v: %d request matches kept, the cap is 2,000", asMap, len(large.t.hits))
		}
		t.Logf("map %v: kept %d records (%d bytes) of 80,000", asMap, nl, bytesKept)
	}
}

// TestOutlierMostExtremeOverAll: the outlier rows are the most extreme
// over every record. The second walk this pass replaced considered only
// the first 1,000 records beyond 2σ, so a far larger value late in a long
// collection (here 2,000 records deviate before it) was never an outlier.
func TestOutlierMostExtremeOverAll(t *testing.T) {
	for _, asMap := range []bool{false, true} {
		const n = 40_000
		k := selectOver(t, n, asMap)
		var out *reason
		for _, r := range k.why {
			for _, i := range r.recs {
				if strings.Contains(r.text[i], "σ") {
					out = r
				}
			}
		}
		if out == nil || len(out.recs) == 0 || out.recs[0] != n-10 {
			t.Fatalf("map %v: the first outlier is not record %d (restarts 100000): %v", asMap, n-10, out)
		}
		// The reason names the field; the row's cell its value.
		if r := k.row(n - 10); !strings.HasPrefix(out.text[n-10], "restarts ") || r == nil || !slices.Contains(r.cells, "100000") {
			t.Errorf("map %v: outlier %q, row %v", asMap, out.text[n-10], r)
		}
	}
}
