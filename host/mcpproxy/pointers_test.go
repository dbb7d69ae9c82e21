package mcpproxy

import (
	"context"
	"encoding/json"
	"errors"
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
		out, n, err := resolvePointers(ctx, a, args, func(budget.Handle) bool { return true })
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
	if _, _, err := resolvePointers(ctx, a, args, func(budget.Handle) bool { return true }); err == nil {
		t.Error("an index past the last value resolved; want a PointerError")
	}
}

// TestLookalikesReachTheUpstream: strings that merely look like handles
// (git SHAs short and long, md5 sums, container ids, a millisecond
// timestamp, a hex file name with .json) pass unchanged even when an
// artifact with that handle is stored, unless the proxy handed that
// handle out; an explicit artifact: reference always resolves. On the
// old code each lookalike was refused with a PointerError, or replaced.
func TestLookalikesReachTheUpstream(t *testing.T) {
	ctx := context.Background()
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := st.Put(ctx, strings.NewReader(`{"items":[1,2]}`), budget.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	a := newStoreArtifacts(t, st)
	issued := map[budget.Handle]bool{}
	handedOut := func(x budget.Handle) bool { return issued[x] }
	lookalikes := []string{
		"a94a8fe5ccb1", // git short SHA (12)
		"a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",                         // git SHA-1 (40)
		"9e107d9d372bb6826bd81d3542a419d6",                                 // md5 (32)
		"4f7c1e2d9a3b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f", // container id (64)
		"1732550400123",             // a millisecond timestamp
		"0123456789abcdef0123.json", // a hex file name
		string(h),                   // stored, but not handed out by this proxy
		string(h) + ".items[0]",
		"artifact: not a reference",
	}
	for _, s := range lookalikes {
		args, _ := json.Marshal(map[string]any{"v": s, "n": json.Number("12345678901234567890")})
		out, n, err := resolvePointers(ctx, a, args, handedOut)
		if err != nil || n != 0 || string(out) != string(args) {
			t.Errorf("%q: got %s, %d replacements, %v; want it unchanged", s, out, n, err)
		}
	}
	// Explicit, and handed out: resolved.
	for _, s := range []string{RefPrefix + string(h) + ".items[1]", string(h) + ".items[1]"} {
		if !strings.HasPrefix(s, RefPrefix) {
			issued[h] = true
		}
		args, _ := json.Marshal(map[string]string{"v": s})
		out, n, err := resolvePointers(ctx, a, args, handedOut)
		if err != nil || n != 1 || string(out) != `{"v":2}` {
			t.Errorf("%q: got %s, %d replacements, %v; want {\"v\":2}", s, out, n, err)
		}
	}
	// A handed-out handle that is gone is an error naming the argument.
	gone := budget.Handle("0123456789ab")
	issued[gone] = true
	args, _ := json.Marshal(map[string]string{"v": string(gone)})
	var pe *PointerError
	if _, _, err := resolvePointers(ctx, a, args, handedOut); !errors.As(err, &pe) || pe.Arg != "$.v" {
		t.Errorf("a handed-out handle that is not stored: %v, want a PointerError for $.v", err)
	}
}
