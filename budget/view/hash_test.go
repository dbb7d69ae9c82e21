package view

import (
	"fmt"
	"strconv"
	"testing"
)

// TestHashBytesDistinct: hashBytes (a value's hash for the distinct
// counts and the fingerprints) gives sequences of values that differ in
// a few bytes (ids, numbered names, versions, times, keys of every
// length up to past 64 bytes) as many hashes as values, and the same
// hash for the same text wherever it lies.
func TestHashBytesDistinct(t *testing.T) {
	seen := map[uint64]string{}
	n := 0
	add := func(s string) {
		n++
		h := hashBytes([]byte(s))
		if o, ok := seen[h]; ok && o != s {
			t.Fatalf("%q and %q have the same hash", o, s)
		}
		seen[h] = s
		if h2 := hashBytes(append([]byte("xx"), s...)[2:]); h2 != h {
			t.Fatalf("%q: two hashes", s)
		}
	}
	for i := 0; i < 300000; i++ {
		add(strconv.Itoa(i))
		add(fmt.Sprintf(`"user number %d"`, i))
		add(fmt.Sprintf(`"0.0.0-%09x"`, i))
		add(fmt.Sprintf(`"2026-%02d-%02dT%02d:%02d:%02d.%03d000+00:00"`, i%12+1, i%28+1, i%24, i%60, i/60%60, i%1000))
	}
	for l := 0; l <= 80; l++ {
		b := make([]byte, l)
		for i := range 256 * min(l, 8) {
			for j := range b {
				b[j] = 'a'
			}
			if l > 0 {
				b[i%l] = byte(i / max(l, 1))
			}
			add(string(b))
		}
	}
	if len(seen) < n/2 {
		t.Fatalf("%d hashes of %d values", len(seen), n)
	}
}

// TestTabValueHashIsHashBytes: tabValue (a value of a field past
// maxValues values) writes hashBytes out for a value of up to 64 bytes;
// the values a field counted before its table (f.vals) enter the table
// by hashBytes' hash, so the two must agree on every text, or a value
// seen before and after would count as two (rev16 R7). Every length from
// 1 to 100 (past hashBytes' maphash bound), at every alignment in a
// larger buffer, strings and numbers.
func TestTabValueHashIsHashBytes(t *testing.T) {
	p := NewProfile(false)
	for i := range maxValues + 10 {
		p.Add(i, []byte(fmt.Sprintf(`"value %d"`, i)))
	}
	f := p.root
	if f.tab == nil {
		t.Fatal("the field has no table of its values")
	}
	rec := maxValues + 10
	for n := 1; n <= 100; n++ {
		for off := range 9 {
			buf := make([]byte, off+n+8)
			raw := buf[off : off+n]
			if n == 1 {
				raw[0] = byte('0' + off)
			} else {
				raw[0], raw[n-1] = '"', '"'
				for j := 1; j < n-1; j++ {
					raw[j] = byte('a' + (j*7+off)%26)
				}
			}
			want := hashBytes(raw)
			if f.tab == nil {
				t.Fatalf("the field lost its table at %d values", f.Distinct)
			}
			if got := p.tabValue(f, raw, rec); got != want {
				t.Fatalf("%d bytes %q: tabValue's hash %x, hashBytes' %x", n, raw, got, want)
			}
			rec++
		}
	}
}

// TestValIndexFindsTheText: valIndex.find matches a value by its words
// and length alone up to 24 bytes (the first, middle and last eight
// bytes cover such a text) and compares the middle of a longer one:
// texts of every length to 40 bytes that differ in one byte anywhere
// (so share most of their words) are each found as themselves, and a
// text not added is not found.
func TestValIndexFindsTheText(t *testing.T) {
	for n := 1; n <= 40; n++ {
		var x valIndex
		added := map[string]*valState{}
		text := func(pos int, c byte) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = 'a' + byte(i%7)
			}
			if pos >= 0 {
				b[pos] = c
			}
			return b
		}
		// Up to maxValues values: the text, then one byte changed at
		// each place (two values per place while room is left).
		add := func(b []byte) {
			if _, ok := added[string(b)]; ok || len(added) == maxValues {
				return
			}
			vs := &valState{key: string(b)}
			added[vs.key] = vs
			x.add(vs)
		}
		add(text(-1, 0))
		for pos := 0; pos < n; pos++ {
			add(text(pos, 'X'))
			add(text(pos, 'Y'))
		}
		for k, vs := range added {
			b := []byte(k)
			w0, w1 := keyWords(b)
			if got := x.find(b, w0, w1); got != vs {
				t.Fatalf("%d bytes: %q found as %v", n, k, got)
			}
		}
		for pos := 0; pos < n; pos++ {
			b := text(pos, 'Z')
			w0, w1 := keyWords(b)
			if got := x.find(b, w0, w1); got != nil {
				t.Fatalf("%d bytes: %q (not added) found as %q", n, b, got.key)
			}
		}
	}
}
