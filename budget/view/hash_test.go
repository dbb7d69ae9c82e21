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
