package prompt

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// fuzzBlocks turns fuzz bytes into at most 10 blocks: 0x1e separates
// blocks; the first byte of each picks its kind (mod 5) and priority.
func fuzzBlocks(data []byte) []schemas.Block {
	if len(data) > 4096 {
		data = data[:4096]
	}
	var out []schemas.Block
	for i, part := range bytes.Split(data, []byte{0x1e}) {
		if i == 10 {
			break
		}
		if len(part) == 0 {
			continue
		}
		k := kinds[int(part[0])%len(kinds)]
		b := schemas.Block{Kind: k, Content: string(part[1:])}
		if k == schemas.BlockHint {
			b.Priority = int(part[0]/5) % 4
		}
		if k == schemas.BlockToolResult {
			b.Tool = "fuzz"
		}
		out = append(out, b)
	}
	return out
}

func FuzzFit(f *testing.F) {
	sep := string([]byte{0x1e})
	f.Add([]byte("\x00be brief"+sep+"\x01a hint\nwith two lines"+sep+"\x04[{\"a\":1,\"b\":\"x\"},{\"a\":2,\"b\":\"y\"}]"+sep+"\x02what is a?\nand b?"), uint16(12))
	f.Add([]byte("\x02"+lines("q", 30)+sep+"\x03"+lines("a", 30)), uint16(40))
	f.Add([]byte("\x00"+lines("rule", 20)), uint16(5))
	f.Add([]byte("\x02intro\n```\ncode\nmore\n```\nafter\n"+sep+"\x06hint two"), uint16(6))
	f.Add([]byte("\x04"+strings.Repeat(`{"id":1,"state":"open","title":"a long title here"}`+"\n", 20)+sep+"\x02q"), uint16(30))
	c := testCounter(f)
	compact := fuzzCompact(f)
	f.Fuzz(func(t *testing.T, data []byte, budgetTokens uint16) {
		in := fuzzBlocks(data)
		b := int(budgetTokens%2000) + 1
		fitter := New(c, compact)
		res, err := fitter.Fit(context.Background(), in, b)
		if err != nil {
			if !errors.Is(err, budget.ErrCannotFit) {
				t.Fatalf("error is not ErrCannotFit: %v", err)
			}
			var fe *FitError
			if !errors.As(err, &fe) || fe.Budget != b || fe.Best <= b {
				t.Fatalf("FitError without the numbers: %v", err)
			}
			return
		}
		checkInvariants(t, c, in, res, b)
		checkPreserved(t, in, res)
	})
}

// checkPreserved asserts that tool results are never cut, non-hint
// blocks keep their order except for a cut tail, and every input block
// is either shown or named by an action.
func checkPreserved(t *testing.T, in []schemas.Block, res schemas.ContextResult) {
	t.Helper()
	acted := map[string]string{}
	for _, a := range res.Actions {
		acted[a.Block] = a.Kind
	}
	out := map[string]schemas.Block{}
	for _, b := range res.Blocks {
		out[b.ID] = b
	}
	var outIDs []string
	for _, b := range res.Blocks {
		if b.Kind != schemas.BlockHint && acted[b.ID] != "cut_marker" {
			outIDs = append(outIDs, b.ID)
		}
	}
	var want []string
	cut := false
	for i, b := range in {
		id := blockID(b, i)
		o, shown := out[id]
		switch kind := acted[id]; {
		case !shown && kind != "drop_hint" && kind != "cut_block":
			t.Fatalf("block %q vanished without an action", id)
		case shown && kind == "":
			if o.Content != b.Content {
				t.Fatalf("block %q changed without an action", id)
			}
		case b.Kind == schemas.BlockToolResult && kind != "" && kind != "compact":
			t.Fatalf("tool_result %q was %s", id, kind)
		case kind == "cut_lines":
			head := o.Content[:strings.LastIndex(o.Content, "[compact:")]
			if !strings.HasPrefix(b.Content, head) {
				t.Fatalf("block %q: kept part is not a prefix of the original", id)
			}
		case kind == "drop_hint" && b.Kind != schemas.BlockHint:
			t.Fatalf("non-hint block %q dropped as a hint", id)
		}
		if acted[id] == "cut_block" || acted[id] == "cut_lines" {
			cut = true
		} else if cut && b.Kind != schemas.BlockHint {
			t.Fatalf("block %q after the cut survived", id)
		}
		if b.Kind != schemas.BlockHint && acted[id] != "cut_block" {
			want = append(want, id)
		}
	}
	if strings.Join(outIDs, "\x00") != strings.Join(want, "\x00") {
		t.Fatalf("non-hint blocks out of order: got %q, want %q", outIDs, want)
	}
}
