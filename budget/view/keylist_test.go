package view

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// plainKeyList is keyList's plain definition: every key kept, the
// counts made by strings functions.
func plainKeyList(keys []string) (list []string, total int, pres map[string]int, segs [2]map[string]int) {
	count := func(m map[string]int, k string) map[string]int {
		if m == nil {
			m = map[string]int{}
		}
		m[k]++
		return m
	}
	switched := false
	for j, k := range keys {
		total += len(k) + 2
		if !switched && j >= 25 && total >= 1500 {
			switched = true
		}
		if before, _, ok := strings.Cut(k, "/"); ok && !strings.Contains(k, " ") {
			pres = count(pres, before)
		}
		if i := strings.IndexAny(k, "_.-"); i > 0 {
			segs[0] = count(segs[0], k[:i+1])
			if r := strings.IndexAny(k[i+1:], "_.-"); r >= 0 {
				segs[1] = count(segs[1], k[:i+1+r+1])
			}
		}
	}
	list = keys
	if switched {
		list = append(slices.Clone(keys[:25]), keys[max(25, len(keys)-25):]...)
	}
	cap := func(m map[string]int) map[string]int {
		if len(m) > maxValues {
			return nil
		}
		return m
	}
	return list, total, cap(pres), [2]map[string]int{cap(segs[0]), cap(segs[1])}
}

// FuzzKeyList checks keyList (the keys, by prefix and by segments, of a
// map's records) against its plain definition, for keys that are slices
// of the input and keys read into a reused buffer.
func FuzzKeyList(f *testing.F) {
	f.Add("0.0.0-00d4f95c2\n18.3.0-canary-0e352ea01\ncreated\nmodified\n_id\n-x", false)
	f.Add("application/json\ntext/plain\na b/c\n\\u002f/x\nx\"y.z", true)
	f.Add(strings.Repeat("a_b_c_d_with_a_long_name_to_pass_the_total\n", 40), false)
	f.Add("k.1\nk.2\nk.3\nk.4\nk.5\nk.6\nk.7\nk.8\nk.9\nk.10\nk.11\n/lead\n.dot\né.ü/x", true)
	f.Fuzz(func(t *testing.T, text string, spaced bool) {
		keys := strings.Split(text, "\n")
		if len(keys) > 2000 {
			keys = keys[:2000]
		}
		// The keys as the walk finds them: slices of the input (stable),
		// or read into one reused buffer.
		var l keyList
		var got []string
		var input, buf []byte
		var at []int
		for _, k := range keys {
			q, _ := json.Marshal(k)
			got = append(got, string(q))
			at = append(at, len(input))
			input = append(input, q...)
		}
		for i, q := range got {
			if spaced {
				buf = append(buf[:0], q...)
				l.add(buf, false)
			} else {
				l.add(input[at[i]:at[i]+len(q)], true)
			}
		}
		for i := range buf {
			buf[i] = 'x' // (a later record's)
		}
		// The keys as JSON decodes them (invalid UTF-8 is replaced).
		for i, q := range got {
			var k string
			if err := json.Unmarshal([]byte(q), &k); err != nil {
				t.Fatal(err)
			}
			keys[i] = k
		}
		list, total, pres, segs := plainKeyList(keys)
		if l.n != len(keys) || l.total != total {
			t.Fatalf("n %d total %d, want %d %d", l.n, l.total, len(keys), total)
		}
		if g := l.list(); !slices.Equal(g, list) {
			t.Fatalf("keys %q, want %q", g, list)
		}
		if g := l.prefixes(); !maps.Equal(g, pres) {
			t.Fatalf("prefixes %v, want %v", g, pres)
		}
		for d := 1; d <= 2; d++ {
			if g := l.segments(d); !maps.Equal(g, segs[d-1]) {
				t.Fatalf("segments(%d) %v, want %v", d, g, segs[d-1])
			}
		}
	})
}
