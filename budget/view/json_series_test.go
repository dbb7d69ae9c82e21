package view_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// iostatTx is `iostat -t -x -o JSON 1 45` on a loaded 2-CPU VM (a 300 MB
// dd with fsync in the middle): sysstat.hosts[0].statistics[] holds 45
// samples named by their timestamp, each with avg-cpu and disk[] (vda).
const iostatTx = "testdata/iostat-tx-json.json"

// TestSeriesExtremesNameTheirSample: in a collection of samples named by
// their time, a measure's profile line names the sample of its largest
// value, and of its least when one sample holds it, each written as the
// tool wrote it ("max 81.60 at 11/27/26 07:29:59": when was the disk
// busiest); a value many samples hold (a measure's 0) names none. The expectations are computed here
// from the capture itself.
func TestSeriesExtremesNameTheirSample(t *testing.T) {
	v, data := viewOf(t, iostatTx)
	var doc struct {
		Sysstat struct {
			Hosts []struct {
				Statistics []struct {
					Timestamp string                       `json:"timestamp"`
					AvgCPU    map[string]json.Number       `json:"avg-cpu"`
					Disk      []map[string]json.RawMessage `json:"disk"`
				} `json:"statistics"`
			} `json:"hosts"`
		} `json:"sysstat"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	samples := doc.Sysstat.Hosts[0].Statistics
	// The measures of each sample, as the profile names them.
	type ext struct {
		x   float64
		raw string // as the tool wrote it
		at  string
		n   int // samples holding x
	}
	lo, hi := map[string]*ext{}, map[string]*ext{}
	note := func(path string, raw string, at string) {
		x, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return
		}
		if e := lo[path]; e == nil || x < e.x {
			lo[path] = &ext{x: x, raw: raw, at: at, n: 1}
		} else if x == e.x {
			e.n++
		}
		if e := hi[path]; e == nil || x > e.x {
			hi[path] = &ext{x: x, raw: raw, at: at, n: 1}
		} else if x == e.x {
			e.n++
		}
	}
	for _, s := range samples {
		for k, x := range s.AvgCPU {
			note(`"avg-cpu".`+k, string(x), s.Timestamp)
		}
		for _, d := range s.Disk {
			for k, x := range d {
				name := k
				if strings.ContainsAny(k, "/-") {
					name = strconv.Quote(k)
				}
				note("disk[]."+name, string(x), s.Timestamp)
			}
		}
	}
	lines := map[string]string{}
	for _, c := range v.Candidates() {
		for _, l := range strings.Split(c.Text, "\n") {
			if i := strings.Index(l, " (number"); strings.HasPrefix(l, "  ") && i > 0 {
				lines[strings.TrimSpace(l[:i])] = l
			}
		}
	}
	checked := 0
	for path, h := range hi {
		l, ok := lines[path]
		if !ok || !strings.Contains(l, ": min ") {
			continue // a field of few values, or constant
		}
		checked++
		l2 := lo[path]
		wantLo := fmt.Sprintf("min %s,", l2.raw)
		if l2.n == 1 {
			wantLo = fmt.Sprintf("min %s at %s,", l2.raw, l2.at)
		}
		wantHi := fmt.Sprintf("max %s,", h.raw)
		if h.n == 1 {
			wantHi = fmt.Sprintf("max %s at %s,", h.raw, h.at)
		}
		if !strings.Contains(l, wantLo) || !strings.Contains(l, wantHi) {
			t.Errorf("%s: want %q and %q in\n%s", path, wantLo, wantHi, l)
		}
	}
	if checked < 10 {
		t.Fatalf("%d measures checked, want at least 10 of %d (lines %v)", checked, len(hi), lines)
	}
	// The disk's busiest second, named in the view the model reads.
	fl := fillAt(t, v, 8000)
	if !strings.Contains(fl.Text, "max 81.60 at 11/27/26 07:29:59") {
		t.Errorf("the busiest second of vda is not in the view at 8,000 tokens:\n%s", fl.Text)
	}
}
