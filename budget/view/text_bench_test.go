package view

import (
	"bytes"
	"fmt"
	"os"
	"strings"
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

// BenchmarkTextTable10MB measures the text pass and the view (Build:
// columns, name groups, the index) on 10 MB of tables: psql's bar table,
// go tool cover -func's runs of tabs, a list of names, a list of paths
// (counted by directory, extension, name and depth: text_paths.go) and
// git ls-tree's cells of several words with a column of paths, each
// repeated, against the bare split into lines in the same run.
func BenchmarkTextTable10MB(b *testing.B) {
	for _, n := range []string{"psql-pg-class.txt", "go-cover-func-pflag.txt", "apt-cache-rdepends-debconf.txt",
		"find-usr-share-doc.txt", "testdata/git-ls-tree-wazero.txt", "haproxy-httplog-shop.log"} {
		path := "../../testdata/captured/" + n
		if strings.HasPrefix(n, "testdata/") {
			path = n
		}
		d, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		data := bytes.Repeat(d, 10<<20/len(d)+1)[:10<<20]
		data = data[:bytes.LastIndexByte(data, '\n')+1]
		b.Run(n+"/lines", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				n := 0
				textLines(data, func(int, string) { n++ })
			}
		})
		b.Run(n+"/view", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buildText(b, data, 4000)
			}
		})
	}
}

// BenchmarkTextKV10MB measures the text pass and the view of 10 MB of
// key/value lines (gcc -dM's macros, each repetition's names made
// distinct), against the bare split into lines in the same run.
func BenchmarkTextKV10MB(b *testing.B) {
	d, err := os.ReadFile("../../testdata/captured/gcc-dM.txt")
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for r := 0; buf.Len() < 10<<20; r++ {
		buf.Write(bytes.ReplaceAll(d, []byte("#define "), []byte(fmt.Sprintf("#define R%d", r))))
	}
	data := buf.Bytes()
	if f := detectKV(data, detectTextKind(data)); f != kvDefine {
		b.Fatalf("read as form %d", f)
	}
	b.Run("lines", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			n := 0
			textLines(data, func(int, string) { n++ })
		}
	})
	b.Run("view", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buildText(b, data, 4000)
		}
	})
}
