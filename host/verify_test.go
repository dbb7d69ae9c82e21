package host

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

func TestVerifyOutput(t *testing.T) {
	arr := []byte(`[{"id":1,"m":"x"},{"id":2,"m":"x"},{"id":3,"m":"y"}]`)
	obj := []byte(`{"total":3,"items":[{"id":1},{"id":2},{"id":3}]}`)
	log := []byte("a\nb\nb\nb\nc\n")
	decl := func(path string, n int, field string) []schemas.DeclaredCollection {
		return []schemas.DeclaredCollection{{Path: path, Count: n, CountField: field}}
	}
	const table = "text/x-compact-table"
	cases := []struct {
		name    string
		in      []byte
		out     budget.Output
		wantErr string // "" for success
	}{
		{"json kept, undeclared", arr, budget.Output{Content: []byte(`[{"id":1},{"id":2},{"id":3}]`), ContentType: "application/json"}, ""},
		{"json dropped, undeclared", arr, budget.Output{Content: []byte(`[{"id":1},{"id":2}]`), ContentType: "application/json"}, "the output has 2 records, the input 3"},
		{"json dropped, declared all", arr, budget.Output{Content: []byte(`[{"id":1},{"id":2}]`), ContentType: "application/json", Declared: decl(".", 3, "")}, "the output has 2 records"},
		{"json grouped with count_field", arr, budget.Output{Content: []byte(`[{"m":"x","n":2},{"m":"y"}]`), ContentType: "application/json", Declared: decl(".", 3, "n")}, ""},
		{"json grouped, wrong sum", arr, budget.Output{Content: []byte(`[{"m":"x","n":3},{"m":"y"}]`), ContentType: "application/json", Declared: decl(".", 3, "n")}, "the output has 4 records"},
		{"json bad count_field", arr, budget.Output{Content: []byte(`[{"m":"x","n":"two"},{"m":"y"}]`), ContentType: "application/json", Declared: decl(".", 3, "n")}, "want a positive integer"},
		{"declared wrong count", arr, budget.Output{Content: []byte("id\n1\n2\n3"), ContentType: table, Declared: decl(".", 4, "")}, "declared 4 records, the input has 3"},
		{"declared unknown path", obj, budget.Output{Content: []byte("id\n1\n2\n3"), ContentType: table, Declared: decl(".rows", 3, "")}, "declares collection .rows, which the input does not have (input collections: .items)"},
		{"table", obj, budget.Output{Content: []byte("id\n1\n2\n3"), ContentType: table, Declared: decl(".items", 3, "")}, ""},
		{"table with a column not in the input", obj, budget.Output{Content: []byte("id\tname\n1\ta\n2\tb\n3\tc"), ContentType: table, Declared: decl(".items", 3, "")}, ".items[0].name: member not in the input record"},
		{"table missing a row", obj, budget.Output{Content: []byte("id\n1\n2"), ContentType: table}, "the output has 2 records, the input 3"},
		{"table ragged", obj, budget.Output{Content: []byte("id\tname\n1\ta\n2\n3\tc"), ContentType: table}, "line 3 has 1 cells, the header has 2"},
		{"text table with a header line", obj, budget.Output{Content: []byte("id\n1\n2\n3"), ContentType: "text/plain", Declared: decl(".items", 3, "")}, "the output has 4 records, the input 3"},
		{"nested kept", obj, budget.Output{Content: []byte(`{"items":[{"id":1},{"id":2},{"id":3}]}`), ContentType: "application/json"}, ""},
		{"nested gone", obj, budget.Output{Content: []byte(`{"total":3}`), ContentType: "application/json"}, "items"},
		{"invalid json", arr, budget.Output{Content: []byte(`[{"id":1},`), ContentType: "application/json"}, "not valid JSON"},
		{"jsonl payload", []byte("{\"a\":1}\n{\"a\":2}\n"), budget.Output{Content: []byte("{}\n{}\n"), ContentType: "application/x-ndjson"}, ""},
		{"lines with markers", log, budget.Output{Content: []byte("a\n[×3] b\nc\n"), ContentType: "text/plain"}, ""},
		{"lines marker miscounted", log, budget.Output{Content: []byte("a\n[×2] b\nc\n"), ContentType: "text/plain"}, "the output has 4 records, the input 5"},
		{"lines dropped, declared all", log, budget.Output{Content: []byte("a\nc\n"), ContentType: "text/plain", Declared: decl(".", 5, "")}, "the output has 2 records"},
		{"not utf-8", log, budget.Output{Content: []byte("a\xff\n"), ContentType: "text/plain"}, "not valid UTF-8"},
	}
	cases = append(cases, contentCases...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := VerifyOutput(c.in, nil, c.out)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, c.wantErr)
			}
		})
	}
	err := VerifyOutput(arr, nil, budget.Output{Content: []byte(`[]`), ContentType: "application/json"})
	if !errors.Is(err, budget.ErrCountMismatch) {
		t.Errorf("a count error does not wrap budget.ErrCountMismatch: %v", err)
	}
}
