package view

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkTextProfile10MB measures the text pass (kind, records,
// severity, templates, fields) on 10 MB made of captured logs, against
// the bare split into lines in the same run (bytes.Count and a walk).
func BenchmarkTextProfile10MB(b *testing.B) {
	var src []byte
	for _, n := range []string{"dpkg-log.txt", "npm-install-fail.txt", "go-build-fail.txt"} {
		d, err := os.ReadFile("../../testdata/captured/" + n)
		if err != nil {
			b.Fatal(err)
		}
		src = append(src, d...)
	}
	data := bytes.Repeat(src, 10<<20/len(src)+1)[:10<<20]
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	b.Run("lines", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			n := 0
			textLines(data, func(int, string) { n++ })
		}
	})
	b.Run("profile", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			analyzeText(data, nil)
		}
	})
}
