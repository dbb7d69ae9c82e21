package view

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestStatsAcrossStates: a field's statistics are the same whether its
// values are few (counted one by one), many (counted by hash, each
// value's statistics kept with it) or too many to remember (worked out
// at every value): records whose field v cycles through n distinct
// values (numbers, times, paths, words, escaped strings) for n from 5 to
// 6,000, each statistic checked against a plain count over the values.
func TestStatsAcrossStates(t *testing.T) {
	kinds := map[string]func(i int) string{
		"number": func(i int) string { return strconv.Itoa(i*7-300) + []string{"", ".5", ".25", "e2"}[i%4] },
		"time": func(i int) string {
			return fmt.Sprintf(`"20%02d-%02d-%02dT%02d:04:05.%03d+0%d:00"`, i%30, 1+i%12, 1+i%28, i%24, i%1000, i%3)
		},
		"path": func(i int) string {
			return fmt.Sprintf(`"src/pkg%d/file%d.%s"`, i%7, i, []string{"go", "json", "md"}[i%3])
		},
		"words": func(i int) string {
			return fmt.Sprintf(`"a longer sentence number %d, with spaces and words in it"`, i)
		},
		"escaped time": func(i int) string {
			// Times whose first character is escaped, in both layouts
			// parseTime reads, among plain ones: a table's entry reads
			// its year again from the text (valEnt.stat).
			switch i % 3 {
			case 0:
				return fmt.Sprintf(`"\u003202%d-%02d-%02d %02d:%02d:05"`, i%5, 1+i%12, 1+i%28, i%24, i%60)
			case 1:
				return fmt.Sprintf(`"\u003201%d-%02d-%02dT%02d:%02d:05Z"`, i%7, 1+i%12, 1+i%28, i%24, i%60)
			}
			return fmt.Sprintf(`"20%02d-%02d-%02dT%02d:%02d:05Z"`, i%40, 1+i%12, 1+i%28, i%24, i%60)
		},
		"escaped": func(i int) string { return fmt.Sprintf(`"line %d\nnext\u00e9 %s"`, i, strings.Repeat("x", i%130)) },
		"varied": func(i int) string {
			forms := []string{`"https://example.com/users/%d"`, `"u%d@example.com"`, `"v1.%d.0"`, `"café %d"`, `"café-%d.tar.gz"`,
				`"dir/%d sub/file.txt"`, `"/usr/lib/x%d.so"`, `"./a.%d"`, `"x.%dabc"`, `"%d"`, `"a\/b%d/c.json"`,
				`"%d ` + strings.Repeat("long text ", 12) + `"`, `"2024-01-%02dT00:00:00Z"`, `"name.with.dots.%d.md"`}
			f := forms[i%len(forms)]
			if strings.Contains(f, "%02d") {
				return fmt.Sprintf(f, 1+i%28)
			}
			return fmt.Sprintf(f, i)
		},
		"mixed": func(i int) string {
			switch i % 5 {
			case 0:
				return "null"
			case 1:
				return strconv.Itoa(i)
			case 2:
				return "true"
			}
			return fmt.Sprintf(`"v%d"`, i%97)
		},
	}
	kinds["int"] = func(i int) string { return strconv.Itoa(i%301 - 100) }
	kinds["alike"] = func(i int) string {
		// Long values that differ only in their middle, and short
		// ones of one length (the last value's words, Field.lastW).
		if i%2 == 0 {
			return fmt.Sprintf(`"%s%05d%s"`, strings.Repeat("a", 9+i%11), i, strings.Repeat("b", 9))
		}
		return fmt.Sprintf(`"%03d"`, i%1000)
	}
	for name, gen := range kinds {
		for _, n := range []int{5, 50, 500, 6000} {
			// run: each value in run records in a row (the last value
			// again: Field.quiet).
			for _, run := range []int{1, 4} {
				t.Run(fmt.Sprintf("%s/%d/run%d", name, n, run), func(t *testing.T) {
					const records = 7000
					p := NewProfile(false)
					var vals []string
					for i := 0; i < records; i++ {
						// A few values far more often than the others, so
						// that Top has values to name.
						j := (i / run * 7919) % n
						if i/run%10 == 0 {
							j = i / run % 3
						}
						v := gen(j)
						vals = append(vals, v)
						p.Add(i, []byte(`{"v":`+v+`}`))
					}
					p.Finish()
					f := p.Field("v")
					checkField(t, f, vals)
				})
			}
		}
	}
}

// TestKeyWords: two value texts of the same length up to 16 bytes have
// different words (keyWords), so that a value is the field's last one
// again exactly when its length and words are the last one's.
func TestKeyWords(t *testing.T) {
	alphabet := []byte("ab\"0")
	for n := 1; n <= 16; n++ {
		seen := map[[2]uint64]string{}
		b := make([]byte, n)
		// Every text over a small alphabet for short lengths, texts
		// differing in one byte for longer ones.
		var try func(i int)
		try = func(i int) {
			if i == n || n > 6 && i > 0 {
				for j := i; j < n; j++ {
					b[j] = 'x'
				}
				for j := 0; j <= n; j++ {
					c := append([]byte(nil), b...)
					if j < n {
						c[j] = 'y'
					}
					w0, w1 := keyWords(c)
					if o, ok := seen[[2]uint64{w0, w1}]; ok && o != string(c) {
						t.Fatalf("keyWords(%q) = keyWords(%q)", c, o)
					}
					seen[[2]uint64{w0, w1}] = string(c)
				}
				return
			}
			for _, c := range alphabet {
				b[i] = c
				try(i + 1)
			}
		}
		try(0)
	}
}

// checkField checks f's statistics against the values it was given (their
// JSON text, one per record).
func checkField(t *testing.T, f *Field, vals []string) {
	t.Helper()
	counts := map[string]int{}
	var nums []float64
	var times []time.Time
	var timeTexts []string
	years := map[int]int{}
	pats, pres, exts := map[string]int{}, map[string]int{}, map[string]int{}
	maxLen, long, spaced, unshaped, nulls := 0, 0, 0, 0, 0
	for _, v := range vals {
		counts[v]++
		if v == "null" {
			nulls++
		}
		switch v[0] {
		case '"':
			s, err := strconv.Unquote(v)
			if err != nil {
				var u string
				u = unquote([]byte(v))
				s = u
			}
			maxLen = max(maxLen, utf8.RuneCountInString(s))
			body := v[1 : len(v)-1]
			if len(body) > 20 {
				long++
				if strings.Contains(body, " ") {
					spaced++
				}
			}
			if len(body) > 100 {
				unshaped++
			} else {
				pats[string(appendPattern(nil, []byte(body)))]++
			}
			if !strings.ContainsAny(s, " \t\n") {
				if i := strings.IndexByte(s, '/'); i >= 0 {
					pres[s[:i]]++
				}
			}
			if !strings.Contains(body, `\`) && len(body) <= 200 {
				if e := extOf([]byte(body)); e != nil {
					exts[string(e)]++
				}
			}
			if tm, ok := parseTime(s); ok {
				times = append(times, tm)
				timeTexts = append(timeTexts, s)
				years[tm.Year()]++
			}
		case 'n', 't', 'f':
		default:
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				nums = append(nums, x)
			}
		}
	}
	want := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
	}
	want("Values", f.Values, len(vals))
	want("Nulls", f.Nulls, nulls)
	if len(counts) > maxDistinct {
		want("ManyDistinct", f.ManyDistinct, true)
	} else {
		want("Distinct", f.Distinct, len(counts))
	}
	if len(counts) <= maxValues {
		want("Counts", f.Counts, counts)
	} else if !f.ManyDistinct {
		// Top: the most common values with their exact counts.
		for _, tv := range f.Top {
			want("Top "+tv.Value, tv.Count, counts[tv.Value])
		}
		if len(f.Top) == 0 {
			t.Errorf("no Top of %d values", len(counts))
		}
	}
	want("NumN", f.NumN, len(nums))
	if len(nums) > 0 {
		sum, sq, lo, hi := 0.0, 0.0, math.Inf(1), math.Inf(-1)
		for _, x := range nums {
			sum += x
			sq += x * x
			lo, hi = min(lo, x), max(hi, x)
		}
		want("Sum", f.Sum, sum)
		want("SumSquares", f.SumSquares, sq)
		want("Min", f.Min, lo)
		want("Max", f.Max, hi)
	}
	want("TimeN", f.TimeN, len(times))
	if len(times) > 0 {
		e, l := 0, 0
		for i, tm := range times {
			if tm.Before(times[e]) {
				e = i
			}
			if tm.After(times[l]) {
				l = i
			}
		}
		want("Earliest", f.Earliest.Equal(times[e]), true)
		want("Latest", f.Latest.Equal(times[l]), true)
		want("earliestText", f.earliestText, timeTexts[e])
		want("latestText", f.latestText, timeTexts[l])
		if len(years) <= maxYears {
			want("Years", f.Years, years)
		}
	}
	want("MaxLen", f.MaxLen, maxLen)
	want("Long", f.Long, long)
	want("Spaced", f.Spaced, spaced)
	want("Unshaped", f.Unshaped, unshaped)
	orNil := func(m map[string]int) map[string]int {
		if len(m) == 0 || len(m) > maxValues {
			return nil
		}
		return m
	}
	want("Patterns", f.Patterns, orNil(pats))
	want("Prefixes", f.Prefixes, orNil(pres))
	want("Exts", f.Exts, orNil(exts))
}

// TestTopAcrossStates: Top names the most common values of a field with
// many, in order, ties by value, each with its exact count.
func TestTopAcrossStates(t *testing.T) {
	p := NewProfile(false)
	counts := map[string]int{}
	rec := 0
	for round := 0; round < 40; round++ {
		for v := 0; v < 300; v++ {
			if v < 12 && round%(v+1) != 0 {
				continue // the first 12 values are rarer
			}
			if v >= 280 && round > 0 {
				continue
			}
			raw := fmt.Sprintf(`"value %d"`, v)
			times := 1
			if v >= 12 && v < 20 {
				times += v - 11 // (eight values more common than the rest, by their own counts)
			}
			for range times {
				counts[raw]++
				p.Add(rec, []byte(`{"v":`+raw+`}`))
				rec++
			}
		}
	}
	p.Finish()
	f := p.Field("v")
	type kc struct {
		k string
		n int
	}
	var all []kc
	for k, n := range counts {
		all = append(all, kc{k, n})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].k < all[j].k
	})
	if len(f.Top) != 8 {
		t.Fatalf("Top %v, want the 8 values more common than the rest", f.Top)
	}
	for i, tv := range f.Top {
		if tv.Count != counts[tv.Value] {
			t.Errorf("Top %d: %s %d, counted %d", i, tv.Value, tv.Count, counts[tv.Value])
		}
		if tv.Count < all[i].n {
			t.Errorf("Top %d: %s %d, but %s has %d", i, tv.Value, tv.Count, all[i].k, all[i].n)
		}
	}
}

// FuzzFastTime: fastTime reads a time exactly when time.Parse of
// RFC3339Nano's own fast path does, with the same instant and year.
func FuzzFastTime(f *testing.F) {
	for _, s := range []string{"2024-05-01T12:00:00Z", "2024-02-29T23:59:59.123456789+05:30", "2023-02-29T00:00:00Z",
		"1999-12-31T24:00:00Z", "2024-05-01T12:00:00.5-23:59", "2024-05-01T12:00:00,5Z", "0000-01-01T00:00:00Z",
		"9999-12-31T23:59:59.9999999999Z", "2024-05-01 12:00:00", "2024-5-01T12:00:00Z", "2024-05-01T12:00:60Z",
		"2024-05-01T12:00:00+24:00", "2024-05-01T12:00:00.Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, y, ok := fastTime([]byte(s))
		if !ok {
			return // parseTime reads it (or not): the old path
		}
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatalf("fastTime(%q) ok, time.Parse: %v", s, err)
		}
		if k.sec != tm.Unix() || int(k.nsec) != tm.Nanosecond() || int(y) != tm.Year() {
			t.Fatalf("fastTime(%q) = %d.%09d year %d, time.Parse %d.%09d year %d", s, k.sec, k.nsec, y, tm.Unix(), tm.Nanosecond(), tm.Year())
		}
	})
}

// TestFastTimeReadsWhatParseReads: on the strict RFC 3339 form,
// fastTime accepts what time.Parse accepts (it leaves nothing common to
// the slow path).
func TestFastTimeReadsWhatParseReads(t *testing.T) {
	for _, s := range []string{"2024-05-01T12:00:00Z", "2024-02-29T23:59:59.123456789+05:30", "2024-05-01T12:00:00.5-23:59",
		"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.9999999999Z", "2000-02-29T00:00:00Z", "1970-01-01T00:00:00Z"} {
		if _, _, ok := fastTime([]byte(s)); !ok {
			t.Errorf("fastTime(%q) not read", s)
		}
	}
	for _, s := range []string{"2023-02-29T00:00:00Z", "1999-12-31T24:00:00Z", "2024-05-01T12:00:60Z", "2024-05-01T12:00:00+24:00", "1900-02-29T00:00:00Z"} {
		if _, _, ok := fastTime([]byte(s)); ok {
			t.Errorf("fastTime(%q) read, time.Parse does not", s)
		}
	}
}

// FuzzParseNumber: parseNumber reads a number as strconv.ParseFloat does.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "123", "-123.5", "0.1", "1.7976931348623157e308", "123456789012345", "1234567890123456",
		"0.000001", "9007199254740993", "1e400", "-", ".5", "5.", "00012", "3.14159265358979"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, ok := parseNumber([]byte(s))
		y, err := strconv.ParseFloat(s, 64)
		if ok != (err == nil) || ok && math.Float64bits(x) != math.Float64bits(y) {
			t.Fatalf("parseNumber(%q) = %v %v, strconv %v %v", s, x, ok, y, err)
		}
	})
}

// TestKindCount: kinds are counted exactly up to maxValues kinds, then
// not at all; a kind counted again by its index counts once more.
func TestKindCount(t *testing.T) {
	var k kindCount
	want := map[string]int{}
	for i := 0; i < 500; i++ {
		kind := fmt.Sprintf("k%d", i%maxValues)
		j := k.add([]byte(kind), 1)
		want[kind]++
		if i%3 == 0 {
			k.again(j)
			want[kind]++
		}
	}
	if got := k.counts(); !reflect.DeepEqual(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	if j := k.add([]byte("one more"), 1); j != -1 || k.counts() != nil {
		t.Errorf("kind %d past %d kinds, counts %v", j, maxValues, k.counts())
	}
}

// FuzzAppendPattern: appendPattern (a table of byte classes, one pass)
// gives the pattern of the plain definition: digit runs as #, runs mixing
// letters and digits (or letter runs over 20) as *, the rest as it is.
func FuzzAppendPattern(f *testing.F) {
	for _, s := range []string{"b3d232c3737aa717", "2026-11-20T03:00:01.960Z", "/api/v1/cart/{id}/items/{item}", "orders-7f9c6d5b8-tq7rl",
		"request served", "abcdefghijklmnopqrstuvwxyz", "x\u00e9y12", "", strings.Repeat("a1", 60)} {
		f.Add("prefix", s)
	}
	f.Fuzz(func(t *testing.T, prefix, s string) {
		if got, want := string(appendPattern([]byte(prefix), []byte(s))), string(patternOracle([]byte(prefix), []byte(s))); got != want {
			t.Fatalf("appendPattern(%q) = %q, want %q", s, got, want)
		}
	})
}

// patternOracle is the plain definition of a pattern (appendPattern's
// first version).
func patternOracle(b, s []byte) []byte {
	if len(s) > 100 {
		return b
	}
	for i := 0; i < len(s); {
		j := i
		letters, digits := 0, 0
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
			if s[j] <= '9' {
				digits++
			} else {
				letters++
			}
			j++
		}
		switch {
		case j == i:
			b = append(b, s[i])
			j = i + 1
		case letters == 0:
			b = append(b, '#')
		case digits > 0 || letters > 20:
			b = append(b, '*')
		default:
			b = append(b, s[i:j]...)
		}
		i = j
	}
	return b
}

// TestNumHeapKeepsFirst: the tracker's numbers kept per field are the
// maxPerWhy that rank first (largest, or smallest when low; the earlier
// record among equal numbers), whatever the order they come in: rising
// (an id), falling, random, with many ties; settle puts the one that
// ranks last first.
func TestNumHeapKeepsFirst(t *testing.T) {
	data := []byte("records")
	tr := &tracker{data: data, raw: data, alias: true}
	gens := map[string]func(i int) float64{
		"rising":  func(i int) float64 { return float64(i) },
		"falling": func(i int) float64 { return float64(-i) },
		"random":  func(i int) float64 { return float64((i * 7919) % 1009) },
		"ties":    func(i int) float64 { return float64(i % 7) },
	}
	for name, gen := range gens {
		for _, low := range []bool{false, true} {
			for _, n := range []int{10, 60, 61, 119, 120, 121, 5000} {
				h := numHeap{low: low}
				var all []numEnt
				for i := 0; i < n; i++ {
					h.push(gen(i), i, tr)
					all = append(all, numEnt{x: gen(i), rec: i})
				}
				h.settle(tr)
				sort.Slice(all, func(i, j int) bool { return h.worse(&all[j], &all[i]) })
				want := all[:min(n, maxPerWhy)]
				got := map[int]bool{}
				for _, e := range h.ents {
					got[e.rec] = true
				}
				for _, e := range want {
					if !got[e.rec] {
						t.Errorf("%s low=%v n=%d: record %d (%v) not kept", name, low, n, e.rec, e.x)
					}
				}
				if len(h.ents) != len(want) {
					t.Errorf("%s low=%v n=%d: %d kept, want %d", name, low, n, len(h.ents), len(want))
				}
				if len(h.ents) == maxPerWhy && h.ents[0].rec != want[len(want)-1].rec {
					t.Errorf("%s low=%v n=%d: ents[0] is record %d, want %d (ranks last)", name, low, n, h.ents[0].rec, want[len(want)-1].rec)
				}
			}
		}
	}
}

// FuzzShapeMemo checks shapeMemo.same: a string it takes for the shape
// of the remembered one has the same pattern and shape (shapeOf), and
// one that differs from it only in digits is taken.
func FuzzShapeMemo(f *testing.F) {
	for _, s := range []string{"user number 123", "2026-11-20T03:00:01.960Z", "https://example.com/users/4567", "req-0a1b2c3d",
		"a/b.c d", "x\u00e9y12", "", "12345678901234567", "v1.2.3-rc4"} {
		f.Add(s, s, uint64(0x0123456789))
	}
	f.Add("abc1", "abcd", uint64(7))
	f.Fuzz(func(t *testing.T, a, b string, digits uint64) {
		if len(a) > 100 || len(b) > 100 {
			return
		}
		pa, sa, okA := shapeOf(nil, []byte(a))
		if !okA {
			return
		}
		var m shapeMemo
		m.keep([]byte(a), sa, 0)
		check := func(b []byte) bool {
			if !m.same(b) {
				return false
			}
			pb, sb, okB := shapeOf(nil, b)
			if !okB || string(pb) != string(pa) || sb != sa {
				t.Fatalf("same(%q, %q) but their patterns %q %q, shapes %+v %+v (ok %v)", a, b, pa, pb, sa, sb, okB)
			}
			return true
		}
		check([]byte(b))
		// a with its digits changed: always the same shape.
		c := []byte(a)
		for i := range c {
			if c[i] >= '0' && c[i] <= '9' {
				c[i] = '0' + byte(digits%10)
				digits = digits/10 + uint64(i)
			}
		}
		if !check(c) {
			t.Fatalf("%q and %q differ only in digits: not taken as the same shape", a, c)
		}
	})
}

// TestDigitBytes checks digitBytes and digitsApart against a byte at a
// time.
func TestDigitBytes(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			x := uint64(c) << (8 * pos)
			want := uint64(0)
			if c >= '0' && c <= '9' {
				want = 0x80 << (8 * pos)
			}
			// The other bytes are 'a': no digit.
			for o := 0; o < 8; o++ {
				if o != pos {
					x |= uint64('a') << (8 * o)
				}
			}
			if got := digitBytes(x); got != want {
				t.Fatalf("digitBytes(%#x) = %#x, want %#x", x, got, want)
			}
			for _, d := range []int{'0', '5', '9', 'a', '/', 0x80, 0xb9} {
				y := x&^(0xff<<(8*pos)) | uint64(d)<<(8*pos)
				isD := func(b int) bool { return b >= '0' && b <= '9' }
				want := c == d || isD(c) && isD(d)
				if got := digitsApart(x, y); got != want {
					t.Fatalf("digitsApart(%#x, %#x) = %v, want %v", x, y, got, want)
				}
			}
		}
	}
}

// TestQuietSameAsSlow: a profile with a tracker gathers the same
// statistics and the same candidates for the rows whether a value equal
// to its field's last one takes the quiet path (a count, settled later)
// or the slow one: records with runs of states, small and large
// integers, fractions, nulls and long strings, a group field (status)
// that stops being one half way.
func TestQuietSameAsSlow(t *testing.T) {
	// grouped: a state stays a group field throughout (its records'
	// numbers are summed per state); else the status stops being one
	// half way.
	for _, grouped := range []bool{false, true} {
		var b strings.Builder
		b.WriteByte('[')
		const n = 3000
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			r := i / 7
			status := []string{"ok", "ok", "ok", "failed", "pending"}[r%5]
			if i > n/2 {
				status = fmt.Sprintf("s%d", r%40) // no longer a group
			}
			num := strconv.Itoa(r%6 - 2)
			if r%11 == 3 {
				num = "null"
			}
			big := strconv.Itoa((r % 4) * 40000)
			frac := []string{"1", "2", "2.5", "3"}[r%4]
			if i < n/3 {
				frac = "4"
			}
			state := ""
			if grouped {
				state = fmt.Sprintf(`"state":"%c",`, 'a'+r%3)
			}
			// load: 30 values, past the 24 whose records are kept.
			fmt.Fprintf(&b, `{%s"status":%q,"restarts":%s,"bytes":%s,"ratio":%s,"load":%d,"tags":[%d,%d],"msg":"%s %d","id":%d}`,
				state, status, num, big, frac, r*13%30, r%3, r%5, strings.Repeat("a long message ", 2), r%9, i)
		}
		b.WriteByte(']')
		data := []byte(b.String())
		c := Collection{Path: ".", Kind: "array", Count: n, Text: data}
		profile := func(slow bool) *coll {
			slowOnly = slow
			defer func() { slowOnly = false }()
			return profiledColl(t, Input{Data: data}, c)
		}
		q, s := profile(false), profile(true)
		for _, sf := range s.p.Fields {
			qf := q.p.Field(sf.Path)
			type stats struct {
				Present, Values, Nulls, Types, Distinct, NumN int
				Sum, SumSquares, Min, Max                     float64
				Counts                                        map[string]int
				recSum                                        uint64
				firstRecs                                     []int
				hi, lo                                        []numEnt
			}
			get := func(f *Field) stats {
				st := stats{f.Present, f.Values, f.Nulls, f.Types, f.Distinct, f.NumN, f.Sum, f.SumSquares, f.Min, f.Max, f.Counts, f.recSum, nil, nil, nil}
				if f.sel != nil {
					st.firstRecs = f.sel.firstRecs
					st.hi, st.lo = f.sel.hi.ents, f.sel.lo.ents
				}
				return st
			}
			if !reflect.DeepEqual(get(qf), get(sf)) {
				t.Errorf("grouped %v, %s: quiet %+v\nslow %+v", grouped, sf.Path, get(qf), get(sf))
			}
			for k, vs := range sf.vals {
				if qv := qf.vals[k]; qv == nil || qv.n != vs.n || !reflect.DeepEqual(qv.recs, vs.recs) {
					t.Errorf("grouped %v, %s value %s: quiet %+v, slow %+v", grouped, sf.Path, k, qv, vs)
				}
			}
		}
		if !reflect.DeepEqual(q.t.sums, s.t.sums) || !reflect.DeepEqual(q.t.raws, s.t.raws) {
			t.Errorf("grouped %v: group sums or kept records differ", grouped)
		}
	}
}
