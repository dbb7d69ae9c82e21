package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
)

// storeArtifacts is the proxy's view of artifacts over a real store and
// a real querier, without an engine.
type storeArtifacts struct {
	st budget.Store
	q  *query.Querier
}

func newStoreArtifacts(tb testing.TB, st budget.Store) storeArtifacts {
	tb.Helper()
	c, err := budget.NewCounter("")
	if err != nil {
		tb.Fatal(err)
	}
	q, err := query.New(st, c, query.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return storeArtifacts{st: st, q: q}
}

func (s storeArtifacts) Store() budget.Store { return s.st }

func (s storeArtifacts) ArtifactValue(ctx context.Context, ref string) ([]byte, budget.Meta, error) {
	return s.q.Value(ctx, ref)
}

// FuzzResolvePointers: any arguments either come back unchanged (no
// reference), come back as valid JSON with the references replaced, or
// fail with a *PointerError naming the argument; never a panic.
func FuzzResolvePointers(f *testing.F) {
	st, err := artifact.NewDir(f.TempDir(), artifact.Options{})
	if err != nil {
		f.Fatal(err)
	}
	h, _, err := st.Put(context.Background(), strings.NewReader(`{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}`), budget.Meta{})
	if err != nil {
		f.Fatal(err)
	}
	a := newStoreArtifacts(f, st)
	for _, s := range []string{
		`{}`, `{"x":1}`, `{"path":"/tmp/a","content":"` + string(h) + `"}`,
		`{"a":["` + string(h) + `.items[1].name"]}`, `{"a":{"b":"` + string(h) + `.items[9]"}}`,
		`{"sha":"` + strings.Repeat("ab", 20) + `"}`, `{"x":"0123456789abcdef"}`, `[1,2,"` + string(h) + `"]`,
		`{"x":"` + strings.ToUpper(string(h)) + `[\"items\"][0]"}`, `not json`, `{"x":"12345678901"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		if len(args) > 4096 {
			return
		}
		out, n, err := resolvePointers(context.Background(), a, args, func(x budget.Handle) bool { return x == h })
		var pe *PointerError
		switch {
		case err != nil:
			if !errors.As(err, &pe) {
				t.Fatalf("error of an unexpected kind: %v", err)
			}
			if pe != nil && (pe.Arg == "" || !strings.HasPrefix(pe.Arg, "$")) {
				t.Fatalf("pointer error without the argument: %v", err)
			}
		case n == 0:
			if !bytes.Equal(out, args) {
				t.Fatalf("no reference, but the arguments changed: %q -> %q", args, out)
			}
		default:
			if !json.Valid(out) {
				t.Fatalf("resolved arguments are not JSON: %q", out)
			}
		}
	})
}
