package budget

import (
	"context"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget/view"
)

// viewInput is the view's input for data as level 2 builds it.
func viewInput(data []byte, sh Shape, budget int) view.Input {
	in := view.Input{Tool: "bench", ContentType: TypeJSON, Format: sh.Format, Data: data,
		Handle: "0123456789ab", Budget: budget, TokensBefore: len(data) / 3, BeforeEstimated: true}
	for _, c := range sh.Collections {
		in.Collections = append(in.Collections, view.Collection{Path: c.Path, Kind: c.Kind, Count: c.Count,
			Each: func(fn func(int, []byte) error) error { return EachRecord(data, sh, c.Path, fn) }})
	}
	return in
}

// BenchmarkViewOverLevel1 measures what the view (profile, candidates and
// the fill by exact counts) costs on top of level 1 (the declarative
// rules) on a 10 MB array of records, both timed in the same loop; the
// "view/L1" metric is the ratio (issue 11: at most 0.25).
//
//	go test ./budget -run '^$' -bench ViewOverLevel1 -benchtime 3x
func BenchmarkViewOverLevel1(b *testing.B) {
	data := benchRecords(10 << 20)
	c, err := NewCounter(EncodingO200k)
	if err != nil {
		b.Fatal(err)
	}
	var l1, vw time.Duration
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		t0 := time.Now()
		sh, err := DetectShape(data, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Declarative().Compact(context.Background(), Request{Input: data, Budget: 4000, Shape: &sh, Rules: Rules{Defaults: true}}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		v, err := view.Build(viewInput(data, sh, 4000))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := v.Fill(c, 4000); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		l1 += t1.Sub(t0)
		vw += t2.Sub(t1)
	}
	b.ReportMetric(float64(vw)/float64(l1), "view/L1")
}

// TestViewMemoryBoundedByView: the candidates the view keeps (their
// text) do not grow with the input: a four times larger output of the
// same kind gives about as much candidate text.
func TestViewMemoryBoundedByView(t *testing.T) {
	size := func(n int) int {
		data := benchRecords(n)
		sh, err := DetectShape(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := view.Build(viewInput(data, sh, 4000))
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, c := range v.Candidates() {
			total += len(c.Text)
		}
		return total
	}
	small, large := size(1<<20), size(4<<20)
	if float64(large) > 1.25*float64(small) {
		t.Errorf("candidate text grows with the input: %d bytes at 1 MB, %d at 4 MB", small, large)
	}
}
