package view

import (
	"fmt"
	"testing"
)

// TestRowSamplerEvenAndBounded: a template of 10,000 lines keeps at
// most maxRowSample of them, the lines whose index among the
// template's lines is a multiple of a power-of-two stride (an even
// spread over all of them, the first included), and the lines kept over
// all templates are counted exactly.
func TestRowSamplerEvenAndBounded(t *testing.T) {
	r := newRowSampler()
	a, b := &cluster{}, &cluster{}
	for i := 0; i < 10000; i++ {
		r.add(a, 2*i, fmt.Sprintf("[ %ds ] thds: 12 tps: %d", i, i%97))
		if i%10 == 0 {
			r.add(b, 2*i+1, "other")
		}
	}
	s := r.by[a]
	if len(s.pos) > maxRowSample || len(s.pos) < maxRowSample/2 || s.seen != 10000 {
		t.Fatalf("kept %d of %d lines (stride %d)", len(s.pos), s.seen, s.stride)
	}
	if s.stride&(s.stride-1) != 0 {
		t.Fatalf("stride %d is no power of two", s.stride)
	}
	for k, p := range s.pos {
		if p != 2*k*s.stride || s.lines[k] != fmt.Sprintf("[ %ds ] thds: 12 tps: %d", k*s.stride, k*s.stride%97) {
			t.Fatalf("line %d kept is %d %q, want the line of index %d", k, p, s.lines[k], k*s.stride)
		}
	}
	if r.kept != len(s.pos)+len(r.by[b].pos) {
		t.Fatalf("kept %d, the samples hold %d", r.kept, len(s.pos)+len(r.by[b].pos))
	}
}

// TestSpreadIndexesPrefixEven: any prefix of spreadIndexes(n) is spread
// over 0..n-1 (its largest gap at most twice the even one) and the whole
// order is each index once.
func TestSpreadIndexesPrefixEven(t *testing.T) {
	for _, n := range []int{1, 2, 7, 150, 512} {
		order := spreadIndexes(n)
		seen := map[int]bool{}
		for _, i := range order {
			if seen[i] || i < 0 || i >= n {
				t.Fatalf("n=%d: index %d twice or out of range", n, i)
			}
			seen[i] = true
		}
		if len(seen) != n {
			t.Fatalf("n=%d: %d indexes", n, len(seen))
		}
		for k := 2; k <= n; k *= 2 {
			marks := make([]bool, n)
			for _, i := range order[:k] {
				marks[i] = true
			}
			gap, last := 0, -1
			for i, m := range marks {
				if m {
					gap, last = max(gap, i-last), i
				}
			}
			gap = max(gap, n-last)
			if gap > 2*((n+k-1)/k)+1 {
				t.Fatalf("n=%d: the first %d indexes leave a gap of %d", n, k, gap)
			}
		}
	}
}
