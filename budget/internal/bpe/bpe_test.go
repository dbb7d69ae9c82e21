package bpe

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMergeHeapMatchesSmall checks that the heap merge counts every piece
// as the scanning merge does (the tests of package budget compare both
// with the reference through Count), on pieces from real text and random
// bytes, up to the length where mergeSmall hands over.
func TestMergeHeapMatchesSmall(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"hello", " world", "ing", "tion", "[[", "]]", "  ", "日本", "é", "\xff", "0", "aaaa", "{\"", "\":"}
	for _, e := range []*Encoding{Get("o200k_base"), Get("cl100k_base")} {
		e.once.Do(e.load)
		for i := 0; i < 3000; i++ {
			var b strings.Builder
			n := 2 + rng.IntN(smallPiece-1)
			for b.Len() < n {
				if rng.IntN(3) == 0 {
					b.WriteByte(byte(rng.IntN(256)))
				} else {
					b.WriteString(words[rng.IntN(len(words))])
				}
			}
			p := b.String()[:n]
			if s, h := e.mergeSmall(p), e.mergeHeap(p); s != h {
				t.Fatalf("%s %q: mergeSmall %d, mergeHeap %d", e.Name(), p, s, h)
			}
		}
	}
}

// TestLoad checks the embedded vocabularies' sizes and that every token
// is found at its own rank.
func TestLoad(t *testing.T) {
	for name, n := range map[string]int{"o200k_base": 199998, "cl100k_base": 100256} {
		e := Get(name)
		if e.Len() != n {
			t.Fatalf("%s: %d tokens, want %d", name, e.Len(), n)
		}
		for r := 0; r < n; r++ {
			if got, ok := e.lookup(e.Token(r)); !ok || got != r {
				t.Fatalf("%s: token %q of rank %d looks up as %d, %v", name, e.Token(r), r, got, ok)
			}
		}
	}
	if Get("p50k_base") != nil {
		t.Error("Get(p50k_base) should be nil")
	}
}
