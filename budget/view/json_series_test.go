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
	texts := map[string]map[string]bool{} // each measure's values as written
	note := func(path string, raw string, at string) {
		x, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return
		}
		if texts[path] == nil {
			texts[path] = map[string]bool{}
		}
		texts[path][raw] = true
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
		// The only sample holding the extreme is named "at"; when the
		// profile did not count the field's values (more than 64) it is
		// named "first at" (true whether or not others hold it); when
		// several hold it and the profile knows, none is named.
		counted := len(texts[path]) <= 64
		want := func(word string, e *ext) []string {
			exact := fmt.Sprintf("%s %s,", word, e.raw)
			if e.n == 1 {
				exact = fmt.Sprintf("%s %s at %s,", word, e.raw, e.at)
			}
			if counted {
				return []string{exact, exact}
			}
			return []string{fmt.Sprintf("%s %s first at %s,", word, e.raw, e.at), exact}
		}
		for _, w := range [][]string{want("min", l2), want("max", h)} {
			if !strings.Contains(l, w[0]) && !strings.Contains(l, w[1]) {
				t.Errorf("%s: want %q or %q in\n%s", path, w[0], w[1], l)
			}
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

// TestSeriesTiedExtremeNotCalledOnly: a measure of many values (the
// profile does not count them) whose least value five samples hold: the
// view must not name one of them as if it were the only one (rev17 R3).
func TestSeriesTiedExtremeNotCalledOnly(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"host":"db1","statistics":[`)
	for i := range 100 {
		busy := fmt.Sprintf("%.2f", 3+float64(i)*0.75+float64(i%7)*0.13)
		switch i {
		case 7, 30, 55, 70, 91:
			busy = "0.00"
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"timestamp":"07:%02d:%02d","busy":%s,"queue":%d}`, i/60, i%60, busy, i%5+1)
	}
	b.WriteString("]}")
	v, _ := viewOfData(t, []byte(b.String()))
	fl := fillAt(t, v, 4000)
	if strings.Contains(fl.Text, "min 0.00 at ") {
		t.Errorf("one of five samples holding 0.00 is named as the only one:\n%s", fl.Text)
	}
	if !strings.Contains(fl.Text, "min 0.00 first at 07:00:07,") {
		t.Errorf("want the first sample holding the least value, 07:00:07, named as the first:\n%s", fl.Text)
	}
}

// TestLogWithUniqueTimesIsNoSeries: JSON lines of events, each named by
// its own millisecond time, with a level and a message: a log, not a
// series of samples. Its sizes keep their sum and distinct count (rev17
// R6: read as a series, the total bytes were gone).
func TestLogWithUniqueTimesIsNoSeries(t *testing.T) {
	var b strings.Builder
	sum := 0
	levels := []string{"info", "info", "warn", "error"}
	for i := range 300 {
		size := 100 + (i*7919)%90000
		sum += size
		fmt.Fprintf(&b, `{"ts":"2026-11-27T07:%02d:%02d.%03dZ","level":%q,"msg":"request handled","status":200,"size":%d}`+"\n",
			i/60, i%60, (i*37)%1000, levels[i%4], size)
	}
	v, _ := viewOfData(t, []byte(b.String()))
	fl := fillAt(t, v, 4000)
	if want := fmt.Sprintf("sum %d", sum); !strings.Contains(fl.Text, want) {
		t.Errorf("want the sizes' total %q in the view:\n%s", want, fl.Text)
	}
	if strings.Contains(fl.Text, " at 2026-11-27T") {
		t.Errorf("a log's sizes are read as a series' measures:\n%s", fl.Text)
	}
}

// TestSeriesWithDateAndStrayStringStaysSeries: samples that cross
// midnight carry a date of one shape beside their time, and one sample
// writes a measure as "n/a": still a series of samples, not a log of
// events (its busiest second is named).
func TestSeriesWithDateAndStrayStringStaysSeries(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"host":"db1","statistics":[`)
	for i := range 100 {
		date, clock := "11/27/26", fmt.Sprintf("23:%02d:%02d", 59-(99-i)/60, (i+20)%60)
		if i >= 40 {
			date, clock = "11/28/26", fmt.Sprintf("00:00:%02d", i-40)
		}
		temp := fmt.Sprintf("%.1f", 41+float64(i%13)*0.3)
		if i == 5 {
			temp = `"n/a"`
		}
		busy := fmt.Sprintf("%.2f", 3+float64((i*37)%100)*0.61)
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"date":%q,"timestamp":%q,"temp":%s,"busy":%s}`, date, clock, temp, busy)
	}
	b.WriteString("]}")
	v, _ := viewOfData(t, []byte(b.String()))
	fl := fillAt(t, v, 4000)
	if !strings.Contains(fl.Text, "max 63.39 at ") && !strings.Contains(fl.Text, "max 63.39 first at ") {
		t.Errorf("the busiest sample is not named: read as a log, not a series:\n%s", fl.Text)
	}
}

// TestNestedLogIsNoSeries: a real JSON-lines access log whose top-level
// strings are constant (log/slog's JSON handler: level "INFO", msg
// "request") and whose varying strings are all in its groups (req.method,
// req.path), each record named by its own nanosecond time
// (testdata/slog-json-nested-docs.jsonl, 400 requests): a log, not a
// series of samples. Its bytes and durations keep their sum (equal to
// the records' own, summed here) and distinct count; on the old code
// they were "min 10 first at 2026-…, max …, mean …" with no sum.
func TestNestedLogIsNoSeries(t *testing.T) {
	data := readFile(t, "testdata/slog-json-nested-docs.jsonl")
	bytesSum, durSum := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Res struct {
				Bytes int `json:"bytes"`
			} `json:"res"`
			Dur int `json:"dur_us"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		bytesSum += r.Res.Bytes
		durSum += r.Dur
	}
	v, _ := viewOf(t, "testdata/slog-json-nested-docs.jsonl")
	fl := fillAt(t, v, 4000)
	for _, want := range []string{fmt.Sprintf("sum %d, ", bytesSum), fmt.Sprintf("sum %d, ", durSum)} {
		if !strings.Contains(fl.Text, want) {
			t.Errorf("no %q in the view:\n%s", want, fl.Text)
		}
	}
	if strings.Contains(fl.Text, " at 2026-11-27T") {
		t.Errorf("the log's measures are read as a series':\n%s", fl.Text)
	}
}
