package mcpproxy

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// TestPointerPathsReadLikeQueries checks that a reference with a path
// selects the same thing in a tool argument as in read_artifact: the
// values of a JSON Lines artifact and the lines of a text artifact are
// arrays, and a line stays a string even when it looks like JSON.
func TestPointerPathsReadLikeQueries(t *testing.T) {
	ctx := context.Background()
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	put := func(s string) string {
		h, _, err := st.Put(ctx, strings.NewReader(s), budget.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		return string(h)
	}
	jsonl := put("{\"id\":1,\"msg\":\"a\"}\n{\"id\":2,\"msg\":\"b\"}\n{\"id\":3,\"msg\":\"c\"}\n")
	text := put("first line\n42\nthird line\n")
	doc := put(`{"items":[{"id":7,"name":"x"}]}`)
	a := newStoreArtifacts(t, st)

	for _, tc := range []struct {
		arg  string
		want string
	}{
		{jsonl + "[1].msg", `"b"`},
		{jsonl + "[-1]", `{"id":3,"msg":"c"}`},
		{text + "[1]", `"42"`},
		{text + "[2]", `"third line"`},
		{doc + ".items[0].name", `"x"`},
		{doc, `"{\"items\":[{\"id\":7,\"name\":\"x\"}]}"`},
	} {
		args, _ := json.Marshal(map[string]string{"v": tc.arg})
		out, n, err := resolvePointers(ctx, a, args)
		if err != nil {
			t.Fatalf("%s: %v", tc.arg, err)
		}
		if n != 1 {
			t.Fatalf("%s: %d replacements, want 1", tc.arg, n)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if string(got["v"]) != tc.want {
			t.Errorf("%s resolved to %s, want %s", tc.arg, got["v"], tc.want)
		}
	}

	args, _ := json.Marshal(map[string]string{"v": jsonl + "[9]"})
	if _, _, err := resolvePointers(ctx, a, args); err == nil {
		t.Error("an index past the last value resolved; want a PointerError")
	}
}
