package prompt_test

import (
	"context"
	"fmt"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/prompt"
	"github.com/toolcompact/compact/schemas"
)

// A prompt over budget loses its lowest-priority hint first, then the
// tail of the conversation, at a line boundary, with a marker.
func ExampleFitter_Fit() {
	counter, err := budget.NewCounter("o200k_base")
	if err != nil {
		panic(err)
	}
	blocks := []schemas.Block{
		{ID: "sys", Kind: schemas.BlockSystem, Content: "Answer in one sentence."},
		{ID: "style", Kind: schemas.BlockHint, Priority: 1, Content: "The user prefers metric units and short answers without preamble."},
		{ID: "q", Kind: schemas.BlockUser, Content: "How far is the Moon from the Earth, on average, in kilometres?\n" +
			"How long does light take to travel that distance?\n" +
			"How long did Apollo 11 take to get there in July 1969?\n" +
			"Which crew member stayed in lunar orbit during the landing?\n" +
			"How many people have walked on the Moon since then?\n"},
	}
	f := prompt.New(counter, nil) // no tool results here, so no compactor
	res, err := f.Fit(context.Background(), blocks, 60)
	if err != nil {
		panic(err)
	}
	fmt.Println("level:", res.Level, "tokens:", res.Tokens.Before, "->", res.Tokens.After)
	for _, a := range res.Actions {
		fmt.Printf("%s %s: %d -> %d tokens\n", a.Kind, a.Block, a.TokensBefore, a.TokensAfter)
	}
	fmt.Print(res.Blocks[len(res.Blocks)-1].Content)
	// Output:
	// level: truncate tokens: 80 -> 59
	// drop_hint style: 12 -> 0 tokens
	// cut_lines q: 63 -> 54 tokens
	// How far is the Moon from the Earth, on average, in kilometres?
	// How long does light take to travel that distance?
	// [compact: the prompt was cut here to fit its token budget: the last 3 lines of this block (38 tokens) were removed]
}

// Two tool results share 100 tokens: the small one keeps its 30, the
// large ones split the remaining 70.
func ExampleFairShares() {
	fmt.Println(prompt.FairShares([]int{500, 30, 900}, 100))
	// Output: [35 30 35]
}

// A prompt is read from JSON, as an array of blocks or {"blocks": [...]}.
func ExampleDecodeBytes() {
	blocks, err := prompt.DecodeBytes([]byte(`{"blocks": [
		{"kind": "system", "content": "Be brief."},
		{"kind": "hint", "priority": 2, "content": "The user is on call."},
		{"kind": "tool_result", "tool": "kubectl.pods", "content": "[]"}
	]}`))
	if err != nil {
		panic(err)
	}
	for _, b := range blocks {
		fmt.Printf("%s priority=%d tool=%q\n", b.Kind, b.Priority, b.Tool)
	}
	_, err = prompt.DecodeBytes([]byte(`[{"kind": "tool", "content": "x"}]`))
	fmt.Println(err)
	// Output:
	// system priority=0 tool=""
	// hint priority=2 tool=""
	// tool_result priority=0 tool="kubectl.pods"
	// invalid prompt: blocks[0].kind: unknown kind "tool"; want one of system, hint, user, assistant, tool_result
}
