package registry

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics or hangs, and that it returns
// either a usable registry or a non-empty list of positioned errors that
// name the file and point inside it.
func FuzzParse(f *testing.F) {
	f.Add([]byte("version: 1\ntools: []\n"))
	f.Add([]byte("version: 1\nbuiltin: false\ntools:\n  - name: 'github.*'\n    keep: [id, 'labels[].name']\n    pin: 'select(.state == \"open\")'\n"))
	f.Add([]byte("version: 1\ntools:\n  - {name: x, plugin: {path: a.wasm, timeout: 1s, memory: 64MiB, config: {a: b}}}\n"))
	f.Add([]byte("version: 1\ntools:\n  - name: x\n    kepe: [a]\n    budget: ten\n"))
	f.Add([]byte("version: 1\na: &a [x, x]\nb: [*a, *a]\ntools: []\n"))
	f.Add([]byte("version: 1\ntools: [{name: x, records: ['.\"a\"', '.[]'], drop: ['\"q\"[]']}]\n"))
	f.Add([]byte("- [\n"))
	f.Add(defaultYAML)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		r, err := Parse(data, "f.yaml")
		if err == nil {
			if r == nil {
				t.Fatal("nil registry and nil error")
			}
			_ = r.Lookup("github.issues")
			return
		}
		if r != nil {
			t.Fatal("registry returned with an error")
		}
		var list Errors
		if !errors.As(err, &list) || len(list) == 0 || !errors.Is(err, ErrInvalid) {
			t.Fatalf("error of the wrong kind: %T %v", err, err)
		}
		lines := lineBreaks(data) + 2
		for _, e := range list {
			if e.File != "f.yaml" || e.Line < 0 || e.Line > lines || e.Msg == "" {
				t.Fatalf("bad error: %+v", e)
			}
		}
	})
}

// lineBreaks counts the line breaks YAML (and so the parser's line
// numbers) recognises: "\n", "\r" (a "\r\n" pair counts twice, an
// upper bound is enough), NEL, LS and PS. Counting only "\n" made the
// fuzzer fail on an error reported at a line after a lone "\r".
func lineBreaks(data []byte) int {
	s := string(data)
	return strings.Count(s, "\n") + strings.Count(s, "\r") +
		strings.Count(s, "\u0085") + strings.Count(s, "\u2028") + strings.Count(s, "\u2029")
}
