package bench

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// BenchmarkAnswer measures computing the ground truth of a whole questions
// file (decode once, then every filter) against the baseline of only
// decoding the same output with encoding/json into any.
func BenchmarkAnswer(b *testing.B) {
	for _, name := range []string{"kubectl-pods", "app-log", "dpkg-status"} {
		qf, err := LoadQuestions(filepath.Join(corpusDir, name+QuestionsSuffix))
		if err != nil {
			b.Fatal(err)
		}
		orig, err := qf.ReadOutput()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/answer", func(b *testing.B) {
			b.SetBytes(int64(len(orig)))
			for b.Loop() {
				if _, err := qf.Answer(orig); err != nil {
					b.Fatal(err)
				}
			}
		})
		if qf.Input == InputJSON {
			b.Run(name+"/baseline-json-unmarshal", func(b *testing.B) {
				b.SetBytes(int64(len(orig)))
				for b.Loop() {
					var v any
					if err := json.Unmarshal(orig, &v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(name+"/feed", func(b *testing.B) {
			b.SetBytes(int64(len(orig)))
			for b.Loop() {
				if _, err := Feed(qf.Input, orig); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
