package view

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Histograms drawn in text: runs of rows "value |**** count" (sysbench's
// latency histogram), "[lo, hi) count |@@@@|" (bpftrace) or "lo -> hi :
// count |****|" (bcc). How many buckets, how many were counted in all,
// where the mass is: no line states these, and a bucket's row out of
// its run says little. The view states each histogram in one line,
// exactly: its buckets, the sum of its counts, its smallest and largest
// bucket, the fullest bucket, and the buckets at or below which half,
// 95% and 99% of the count lie.

const (
	minHistRows = 5 // consecutive rows that make a histogram
	maxHists    = 8 // histograms stated (past them, counted)
)

// histBucket is one row: its value (the lower bound of a range) as
// written, as a number, and its count.
type histBucket struct {
	raw   string
	value float64
	count int64
}

// textHistogram is one run of histogram rows.
type textHistogram struct {
	first, last int    // its first and last line
	before      string // the line before its first row (its caption or column header), trimmed
	form        string // how its rows are written
	buckets     []histBucket
}

// histRow parses trimmed line t as a histogram row: its bucket and the
// form of the row ("value |bar count"), ok false when it is none.
func histRow(t []byte) (b histBucket, form string, ok bool) {
	bar := bytes.IndexByte(t, '|')
	if bar < 0 {
		return b, "", false
	}
	num := func(s []byte) (string, float64, bool) {
		s = bytes.TrimSpace(s)
		f, err := strconv.ParseFloat(string(s), 64)
		return string(s), f, err == nil && len(s) > 0
	}
	bars := func(s []byte) bool {
		for _, c := range s {
			switch c {
			case '*', '#', '@', '=', ' ', 'o':
			default:
				return false
			}
		}
		return true
	}
	switch {
	case t[0] == '[':
		// bpftrace: "[4, 8)   12 |@@@@   |"
		r := bytes.IndexAny(t, ")]")
		if r < 0 || r > bar || bytes.IndexByte(t[:r], ',') < 0 || !bytes.HasSuffix(t, []byte("|")) {
			return b, "", false
		}
		lo, v, ok1 := num(t[1:bytes.IndexByte(t, ',')])
		_, c, ok2 := num(t[r+1 : bar])
		if !ok1 || !ok2 || !bars(t[bar+1:len(t)-1]) {
			return b, "", false
		}
		return histBucket{lo, v, int64(c)}, "[lo, hi) count |bar|", true
	case bytes.Contains(t[:bar], []byte("->")):
		// bcc: "4 -> 7 : 12 |****   |"
		a := bytes.Index(t, []byte("->"))
		colon := bytes.IndexByte(t, ':')
		if colon < a || colon > bar || !bytes.HasSuffix(t, []byte("|")) {
			return b, "", false
		}
		lo, v, ok1 := num(t[:a])
		_, c, ok2 := num(t[colon+1 : bar])
		if !ok1 || !ok2 || !bars(t[bar+1:len(t)-1]) {
			return b, "", false
		}
		return histBucket{lo, v, int64(c)}, "lo -> hi : count |bar|", true
	default:
		// sysbench: "9.734 |*******      1724"
		lo, v, ok1 := num(t[:bar])
		rest := t[bar+1:]
		k := len(rest)
		for k > 0 && isDigitByte(rest[k-1]) {
			k--
		}
		if k == len(rest) || !ok1 || !bars(rest[:k]) {
			return b, "", false
		}
		c, err := strconv.ParseInt(string(rest[k:]), 10, 64)
		if err != nil {
			return b, "", false
		}
		return histBucket{lo, v, c}, "value |bar count", true
	}
}

// histStats are the histograms of a text.
type histStats struct {
	hists []*textHistogram // the first maxHists
	n     int              // histograms in all
}

// detectHistograms finds the histograms of a text: a look at its first
// 4,000 lines for a row, then one pass over all of it.
func detectHistograms(data []byte) *histStats {
	seen := 0
	sampleLines(data, func(line string) {
		if strings.IndexByte(line, '|') >= 0 {
			if _, _, ok := histRow(bytes.TrimSpace([]byte(line))); ok {
				seen++
			}
		}
	})
	if seen < minHistRows {
		return nil
	}
	hs := &histStats{}
	var cur *textHistogram
	var prev []byte
	flush := func() {
		if cur != nil && len(cur.buckets) >= minHistRows {
			hs.n++
			if len(hs.hists) < maxHists {
				hs.hists = append(hs.hists, cur)
			}
		}
		cur = nil
	}
	pos := 0
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		t := bytes.TrimSpace(line)
		var b histBucket
		var form string
		ok := false
		if len(t) > 0 && bytes.IndexByte(t, '|') >= 0 {
			b, form, ok = histRow(t)
		}
		switch {
		case ok && cur != nil && form == cur.form:
			cur.buckets = append(cur.buckets, b)
			cur.last = pos
		case ok:
			flush()
			cur = &textHistogram{first: pos, last: pos, form: form, before: cut(string(prev), 80), buckets: []histBucket{b}}
		default:
			flush()
		}
		prev = t
		pos++
	}
	flush()
	if hs.n == 0 {
		return nil
	}
	return hs
}

// line is the histogram stated in one line.
func (h *textHistogram) line() string {
	var sum int64
	mode := 0
	lo, hi := 0, 0
	for i, b := range h.buckets {
		sum += b.count
		if b.count > h.buckets[mode].count {
			mode = i
		}
		if b.value < h.buckets[lo].value {
			lo = i
		}
		if b.value > h.buckets[hi].value {
			hi = i
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  lines %d-%d", h.first, h.last)
	if h.before != "" {
		fmt.Fprintf(&b, " (after %q)", h.before)
	}
	fmt.Fprintf(&b, ": %s buckets (rows %s), %s counted in all; buckets %s … %s; the fullest %s (%s)",
		commas(len(h.buckets)), h.form, commas64(sum), h.buckets[lo].raw, h.buckets[hi].raw, h.buckets[mode].raw, commas64(h.buckets[mode].count))
	if sum > 0 && lo == 0 && hi == len(h.buckets)-1 {
		// In order of value: the buckets at or below which a share of
		// the count lies.
		var parts []string
		var run int64
		q := []struct {
			name string
			num  int64
		}{{"half", 50}, {"95%", 95}, {"99%", 99}}
		k := 0
		for _, x := range h.buckets {
			run += x.count
			for k < len(q) && run*100 >= q[k].num*sum {
				parts = append(parts, fmt.Sprintf("%s at or below %s", q[k].name, x.raw))
				k++
			}
		}
		fmt.Fprintf(&b, "; %s", strings.Join(parts, ", "))
	}
	return b.String()
}

// commas64 is commas for an int64.
func commas64(n int64) string { return commas(int(n)) }

// histCandidates offers the histograms, each in one line (PrioRare).
func (tc *textCands) histCandidates() {
	hs := tc.hists
	if hs == nil {
		return
	}
	for i, h := range hs.hists {
		tc.v.Add(Candidate{Section: tc.sec[tsHistograms], Key: i, Record: -1, Prio: PrioRare, Reason: "histogram", Text: h.line()})
	}
}

// histHead is the head of the histograms' part of the view.
func (tc *textCands) histHead(cs []Candidate) string {
	return fmt.Sprintf("histograms drawn as rows (showing %s of %s; exact counts over every row):\n", commas(len(cs)), commas(tc.hists.n))
}
