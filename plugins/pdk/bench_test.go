package pdk

import (
	"encoding/json"
	"os"
	"testing"
)

func benchInput(b *testing.B) []byte {
	in, err := os.ReadFile("../../testdata/captured/github-issues.json")
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(in)))
	return in
}

// BenchmarkReaderTokens reads every token of a 0.9 MB REST list.
func BenchmarkReaderTokens(b *testing.B) {
	in := benchInput(b)
	r := NewReader(in)
	for b.Loop() {
		r.Reset(in)
		for k := r.Next().Kind; k != EOF; k = r.Next().Kind {
			if k == Invalid {
				b.Fatal(r.Err())
			}
		}
	}
}

// BenchmarkEncodingJSONAny is the baseline: encoding/json into any.
func BenchmarkEncodingJSONAny(b *testing.B) {
	in := benchInput(b)
	for b.Loop() {
		var v any
		if err := json.Unmarshal(in, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSONValid is a second baseline: json.Valid, which
// checks the same language without building anything.
func BenchmarkEncodingJSONValid(b *testing.B) {
	in := benchInput(b)
	for b.Loop() {
		if !json.Valid(in) {
			b.Fatal("invalid")
		}
	}
}
