package budget

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// FuzzRunStored runs the whole pipeline with a store on any input, text
// above all (the text views parse columns, records, templates and test
// reports out of arbitrary lines): it never fails but with ErrCannotFit,
// the content is counted exactly and fits, every collection keeps its
// exact count, and a result at the artifact level names an artifact that
// holds the input byte for byte.
//
//	go test ./budget -run '^$' -fuzz FuzzRunStored -fuzztime 30s
func FuzzRunStored(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), uint16(60))
	}
	f.Add([]byte(strings.Repeat("-rwxr-xr-x 1 root root  39224 2022-09-19 02:54 bzip2\nlrwxrwxrwx 1 root root 1 2021-08-18 11:00 X11 -> .\n", 20)), uint16(150))
	f.Add([]byte(strings.Repeat("2026-11-20T10:00:00Z INFO request served in 12ms path=/api/items\n", 30)+"ERROR the end\n"), uint16(120))
	f.Add([]byte(strings.Repeat("=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- FAIL: TestB (0.01s)\n", 15)+"FAIL\nexit status 1\n"), uint16(100))
	f.Add([]byte(strings.Repeat("Package: a\nVersion: 1.0\n\nPackage: b\nVersion: 2.0\nStatus: install ok\n\n", 10)), uint16(90))
	f.Add([]byte(strings.Repeat("NAME   READY STATUS  RESTARTS\npod-a  1/1   Running 0\npod-b  0/1   Error   3\n", 12)), uint16(110))
	c := counter(f)
	f.Fuzz(func(t *testing.T, data []byte, budget uint16) {
		if len(data) > 4096 {
			return
		}
		st := &memStore{}
		p := NewPipeline(c, WithStore(st))
		b := int(budget%600) + 20
		res, err := p.Run(context.Background(), Input{Tool: "fuzz", Data: data, Budget: b,
			Rules: Rules{Defaults: true, Format: "auto"}})
		if err != nil {
			if !errors.Is(err, ErrCannotFit) {
				t.Fatalf("Run: %v", err)
			}
			return
		}
		if res.Tokens.After != c.Count(res.Content) || res.Tokens.After > b {
			t.Fatalf("tokens %+v, content counts %d (budget %d)", res.Tokens, c.Count(res.Content), b)
		}
		shape, _ := DetectShape(data, nil)
		if len(res.Collections) < len(shape.Collections) {
			t.Fatalf("collections %+v, want at least %+v", res.Collections, shape.Collections)
		}
		for i, col := range shape.Collections {
			if res.Collections[i].Path != col.Path || res.Collections[i].Count != col.Count {
				t.Fatalf("collection %+v, input %+v", res.Collections[i], col)
			}
		}
		if res.Level == "artifact" {
			if res.Artifact == nil {
				t.Fatalf("artifact level without an artifact")
			}
			st.mu.Lock()
			got := st.objs[Handle(res.Artifact.Handle)]
			st.mu.Unlock()
			if string(got) != string(data) {
				t.Fatalf("artifact %s holds %d bytes, not the input's %d", res.Artifact.Handle, len(got), len(data))
			}
			if !strings.Contains(res.Content, RefOf(res.Artifact.Handle)) {
				t.Fatalf("the view does not name %s:\n%s", RefOf(res.Artifact.Handle), res.Content)
			}
		}
	})
}
