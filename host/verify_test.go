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
	cases := []struct {
		name    string
		in      []byte
		out     budget.Output
		wantErr string // "" for success
	}{
		{"json kept, undeclared", arr, budget.Output{Content: []byte(`[{"id":1},{"id":2},{"id":3}]`), ContentType: "application/json"}, ""},
		{"json dropped, undeclared", arr, budget.Output{Content: []byte(`[{"id":1},{"id":2}]`), ContentType: "application/json"}, "payload holds 2 records of ., the input has 3"},
		{"json dropped, declared all", arr, budget.Output{Content: []byte(`[{"id":1},{"id":2}]`), ContentType: "application/json", Declared: decl(".", 3, "")}, "payload holds 2 records"},
		{"json grouped with count_field", arr, budget.Output{Content: []byte(`[{"m":"x","n":2},{"m":"y"}]`), ContentType: "application/json", Declared: decl(".", 3, "n")}, ""},
		{"json grouped, wrong sum", arr, budget.Output{Content: []byte(`[{"m":"x","n":3},{"m":"y"}]`), ContentType: "application/json", Declared: decl(".", 3, "n")}, "payload holds 4 records"},
		{"json bad count_field", arr, budget.Output{Content: []byte(`[{"m":"x","n":"two"},{"m":"y"}]`), ContentType: "application/json", Declared: decl(".", 3, "n")}, "want an integer"},
		{"declared wrong count", arr, budget.Output{Content: []byte("id\n1\n2\n3\n"), ContentType: "text/plain", Declared: decl(".", 4, "")}, "declares 4 records for ., the input has 3"},
		{"declared unknown path", obj, budget.Output{Content: []byte("x"), ContentType: "text/plain", Declared: decl(".rows", 3, "")}, "declares collection .rows, which the input does not have (input collections: .items)"},
		{"table declared", obj, budget.Output{Content: []byte("id\n1\n2\n3\n"), ContentType: "text/plain", Declared: decl(".items", 3, "")}, ""},
		{"table undeclared", obj, budget.Output{Content: []byte("id\n1\n2\n3\n"), ContentType: "text/plain"}, "is not declared and a text/plain payload cannot be counted"},
		{"nested kept", obj, budget.Output{Content: []byte(`{"items":[{"id":1},{"id":2},{"id":3}]}`), ContentType: "application/json"}, ""},
		{"nested gone, undeclared", obj, budget.Output{Content: []byte(`{"total":3}`), ContentType: "application/json"}, "neither in the payload nor declared"},
		{"invalid json", arr, budget.Output{Content: []byte(`[{"id":1},`), ContentType: "application/json"}, "is not valid"},
		{"jsonl payload", []byte("{\"a\":1}\n{\"a\":2}\n"), budget.Output{Content: []byte("{}\n{}\n"), ContentType: "application/x-ndjson"}, ""},
		{"lines with markers", log, budget.Output{Content: []byte("a\n[×3] b\nc\n"), ContentType: "text/plain"}, ""},
		{"lines marker miscounted", log, budget.Output{Content: []byte("a\n[×2] b\nc\n"), ContentType: "text/plain"}, "stand for 4 input lines"},
		{"lines dropped", log, budget.Output{Content: []byte("a\nc\n"), ContentType: "text/plain", Declared: decl(".", 5, "")}, "stand for 2 input lines"},
		{"not utf-8", log, budget.Output{Content: []byte("a\xff\n"), ContentType: "text/plain"}, "not valid UTF-8"},
	}
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

func TestGroupWeight(t *testing.T) {
	for line, want := range map[string]int{
		"[×3] x": 3, "[×1] x": 1, "[×03] x": 1, "[×] x": 1, "[×3]x": 1, "[×3]": 1,
		"x [×3] y": 1, "[×123456789] x": 123456789, "[×1234567890] x": 1, "": 1,
	} {
		if got := groupWeight([]byte(line)); got != want {
			t.Errorf("groupWeight(%q) = %d, want %d", line, got, want)
		}
	}
}
