package budget

import (
	"testing"
)

// BenchmarkLowerBoundStop measures what Run pays to prove that a 100 KB
// output (and level 1's output of it) is over a 2,000-token budget: the
// full LowerBound (before) against the bound that stops once past the
// budget (lowerBound with a limit, what Run calls), in the same run.
//
//	go test ./budget -run '^$' -bench LowerBoundStop
func BenchmarkLowerBoundStop(b *testing.B) {
	data := benchRecords(100 << 10)
	const budget = 2000
	b.Run("full", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if LowerBound(data) <= budget {
				b.Fatal("fits")
			}
		}
	})
	b.Run("stop", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if !lowerBoundOver(data, budget) {
				b.Fatal("fits")
			}
		}
	})
}

// BenchmarkMinify measures minify on records that are already minified
// (API output, level 1's JSON): what level 2 does to every row it reads.
// "compact" is the jsontext path every record took before (the
// baseline), "minify" the shortcut, in the same run; "spaced" is a
// pretty-printed record, which still goes through jsontext.
//
//	go test ./budget -run '^$' -bench Minify
func BenchmarkMinify(b *testing.B) {
	data := benchRecords(100 << 10)
	var recs [][]byte
	sh, err := DetectShape(data, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := EachRecord(data, sh, ".", func(_ int, raw []byte) error {
		recs = append(recs, raw)
		return nil
	}); err != nil || len(recs) < 100 {
		b.Fatalf("%d records, %v", len(recs), err)
	}
	spaced := []byte(`{"id": 1, "name": "user number 1", "tags": ["alpha", "beta"], "parent": {"id": 3, "kind": "team"}}`)
	for _, c := range []struct {
		name string
		f    func([]byte) string
		recs [][]byte
	}{
		{"compact", compactJSON, recs}, {"minify", minify, recs},
		{"spaced-compact", compactJSON, [][]byte{spaced}}, {"spaced-minify", minify, [][]byte{spaced}},
	} {
		n := 0
		for _, r := range c.recs {
			n += len(r)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				for _, r := range c.recs {
					c.f(r)
				}
			}
		})
	}
}
