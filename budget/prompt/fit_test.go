package prompt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

func blk(id string, kind schemas.BlockKind, content string) schemas.Block {
	return schemas.Block{ID: id, Kind: kind, Content: content}
}

func lines(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s line %d says something\n", prefix, i)
	}
	return b.String()
}

// checkInvariants asserts what every successful fit must satisfy.
func checkInvariants(t *testing.T, c budget.Counter, in []schemas.Block, res schemas.ContextResult, budgetTokens int) {
	t.Helper()
	sum := 0
	for _, b := range res.Blocks {
		sum += c.Count(b.Content)
	}
	if sum != res.Tokens.After {
		t.Errorf("tokens.after = %d, blocks count %d", res.Tokens.After, sum)
	}
	if res.Tokens.After > budgetTokens {
		t.Errorf("tokens.after %d over budget %d", res.Tokens.After, budgetTokens)
	}
	removed := 0
	for _, a := range res.Actions {
		removed += a.TokensBefore - a.TokensAfter
	}
	if removed != res.Tokens.Before-res.Tokens.After {
		t.Errorf("manifest accounts for %d tokens, prompt lost %d", removed, res.Tokens.Before-res.Tokens.After)
	}
}

func TestFitNoChange(t *testing.T) {
	c := testCounter(t)
	f := New(c, nil)
	in := []schemas.Block{{Kind: schemas.BlockSystem, Content: "be brief"}, {Kind: schemas.BlockUser, Content: "hello"}}
	res, err := f.Fit(context.Background(), in, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if res.Level != schemas.LevelNone || len(res.Actions) != 0 || len(res.Blocks) != 2 {
		t.Fatalf("got %+v", res)
	}
	if res.Blocks[0].ID != "0" || res.Blocks[1].ID != "1" {
		t.Errorf("ids not defaulted to indexes: %q %q", res.Blocks[0].ID, res.Blocks[1].ID)
	}
	checkInvariants(t, c, in, res, 1000)
}

func TestFitDropsHintsLowestPriorityLaterFirst(t *testing.T) {
	c := testCounter(t)
	in := []schemas.Block{
		blk("sys", schemas.BlockSystem, "you are a helper"),
		{ID: "h-important", Kind: schemas.BlockHint, Priority: 5, Content: lines("important", 10)},
		{ID: "h-a", Kind: schemas.BlockHint, Priority: 1, Content: lines("a", 10)},
		{ID: "h-b", Kind: schemas.BlockHint, Priority: 1, Content: lines("b", 10)},
		blk("q", schemas.BlockUser, "what now?"),
	}
	total := 0
	for _, b := range in {
		total += c.Count(b.Content)
	}
	hint := c.Count(in[3].Content)
	// Room for everything but one low-priority hint.
	budgetTokens := total - hint
	res, err := New(c, nil).Fit(context.Background(), in, budgetTokens)
	if err != nil {
		t.Fatal(err)
	}
	if res.Level != schemas.LevelHints {
		t.Fatalf("level %q", res.Level)
	}
	if len(res.Actions) != 1 || res.Actions[0].Block != "h-b" || res.Actions[0].Kind != "drop_hint" {
		t.Fatalf("want h-b (later of the two priority-1 hints) dropped alone, got %+v", res.Actions)
	}
	if !strings.Contains(res.Actions[0].Detail, "blocks[3] of the input") {
		t.Errorf("without a store the manifest must say where the hint is: %q", res.Actions[0].Detail)
	}
	for _, b := range res.Blocks {
		if b.ID == "h-b" {
			t.Error("h-b still present")
		}
	}
	checkInvariants(t, c, in, res, budgetTokens)
}

func TestFitCutsTailAtLineWithMarker(t *testing.T) {
	c := testCounter(t)
	in := []schemas.Block{
		blk("sys", schemas.BlockSystem, "you are a helper"),
		blk("hint", schemas.BlockHint, "an optional hint"),
		blk("tool", schemas.BlockToolResult, "[1,2,3]"),
		blk("u1", schemas.BlockUser, lines("question", 40)),
		blk("a1", schemas.BlockAssistant, lines("answer", 40)),
	}
	fixed := c.Count(in[0].Content) + c.Count(in[2].Content)
	budgetTokens := fixed + c.Count(in[3].Content)/2
	res, err := New(c, nil).Fit(context.Background(), in, budgetTokens)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, c, in, res, budgetTokens)
	if res.Level != schemas.LevelTruncate {
		t.Fatalf("level %q", res.Level)
	}
	var kinds []string
	for _, a := range res.Actions {
		kinds = append(kinds, a.Kind+":"+a.Block)
	}
	want := "drop_hint:hint cut_lines:u1 cut_block:a1"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("actions %v, want %s", kinds, want)
	}
	last := res.Blocks[len(res.Blocks)-1]
	if last.ID != "u1" || !strings.Contains(last.Content, "[compact: the prompt was cut here") {
		t.Fatalf("u1 must end with the marker: %q", last.Content)
	}
	if !strings.HasPrefix(in[3].Content, strings.SplitAfter(last.Content, "[compact:")[0][:len("question line 0")]) {
		t.Error("the head of u1 is not kept")
	}
	// Only whole lines are kept.
	head := last.Content[:strings.Index(last.Content, "[compact:")]
	if !strings.HasPrefix(in[3].Content, head) || !strings.HasSuffix(head, "\n") {
		t.Errorf("cut is not at a line boundary: %q", head)
	}
	if res.Blocks[1].ID != "tool" || res.Blocks[1].Content != "[1,2,3]" {
		t.Errorf("tool result changed: %+v", res.Blocks[1])
	}
}

func TestFitNeverCutsInsideJSONOrFence(t *testing.T) {
	c := testCounter(t)
	js := "{\n" + strings.Repeat("  \"k\": \"some value here\",\n", 30) + "  \"end\": 1\n}"
	fence := "intro line\n```go\n" + lines("code", 30) + "```\nafter\n"
	for name, content := range map[string]string{"json": js, "fence": fence} {
		t.Run(name, func(t *testing.T) {
			in := []schemas.Block{blk("sys", schemas.BlockSystem, "s"), blk("u", schemas.BlockUser, content)}
			budgetTokens := c.Count("s") + c.Count(content)/2
			res, err := New(c, nil).Fit(context.Background(), in, budgetTokens)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, c, in, res, budgetTokens)
			for _, b := range res.Blocks {
				if b.ID != "u" {
					continue
				}
				head := b.Content[:strings.Index(b.Content, "[compact:")]
				if name == "json" {
					t.Fatalf("a JSON block was cut inside: %q", head)
				}
				if strings.Count(head, "```") == 1 {
					t.Fatalf("cut inside a fence: %q", head)
				}
			}
		})
	}
}

func TestFitCannotFitSystemAndTools(t *testing.T) {
	c := testCounter(t)
	in := []schemas.Block{
		blk("sys", schemas.BlockSystem, lines("rule", 50)),
		blk("u", schemas.BlockUser, "hi"),
	}
	_, err := New(c, nil).Fit(context.Background(), in, 20)
	var fe *FitError
	if !errors.As(err, &fe) || !errors.Is(err, budget.ErrCannotFit) {
		t.Fatalf("want *FitError wrapping ErrCannotFit, got %v", err)
	}
	if fe.Budget != 20 || fe.System != c.Count(in[0].Content) || fe.Best < fe.System {
		t.Errorf("numbers: %+v", fe)
	}
	if !strings.Contains(err.Error(), "budget 20") {
		t.Errorf("message lacks the numbers: %v", err)
	}
}

func TestFitBadInput(t *testing.T) {
	c := testCounter(t)
	f := New(c, nil)
	cases := []struct {
		name   string
		blocks []schemas.Block
		budget int
		want   string
	}{
		{"zero budget", nil, 0, "budget must be a positive"},
		{"negative budget", nil, -5, "got -5"},
		{"unknown kind", []schemas.Block{{Kind: "tool", Content: "x"}}, 10, `blocks[0].kind: unknown kind "tool"`},
		{"duplicate id", []schemas.Block{{ID: "a", Kind: "user"}, {ID: "a", Kind: "user"}}, 10, `blocks[1]: id "a" is already the id of blocks[0]`},
		{"id clashes with index", []schemas.Block{{Kind: "user"}, {ID: "0", Kind: "user"}}, 10, `id "0"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.Fit(context.Background(), tc.blocks, tc.budget)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrInvalid containing %q", err, tc.want)
			}
		})
	}
}

func TestFitCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(testCounter(t), nil).Fit(ctx, []schemas.Block{blk("u", "user", "x")}, 10)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

func TestFairShares(t *testing.T) {
	cases := []struct {
		sizes []int
		pool  int
		want  []int
	}{
		{[]int{10, 20, 30}, 100, []int{10, 20, 30}},
		{[]int{10, 100, 100}, 110, []int{10, 50, 50}},
		{[]int{100, 10, 100}, 111, []int{51, 10, 50}},
		{[]int{100, 100}, 0, []int{0, 0}},
		{[]int{100, 100}, -3, []int{0, 0}},
		{[]int{5, 1000, 40}, 100, []int{5, 55, 40}},
		{nil, 10, []int{}},
	}
	for _, tc := range cases {
		got := FairShares(tc.sizes, tc.pool)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("FairShares(%v, %d) = %v, want %v", tc.sizes, tc.pool, got, tc.want)
		}
	}
}

func TestFitCompactsToolResultsFairly(t *testing.T) {
	c := testCounter(t)
	st := testStore(t)
	big, err := os.ReadFile("../../testdata/captured/github-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	small := `[{"id":1,"state":"open"},{"id":2,"state":"closed"}]`
	in := []schemas.Block{
		blk("sys", schemas.BlockSystem, "Answer from the tool results."),
		{ID: "hint", Kind: schemas.BlockHint, Content: "Issues labelled bug matter most."},
		{ID: "small", Kind: schemas.BlockToolResult, Tool: "tiny.list", Content: small},
		{ID: "issues", Kind: schemas.BlockToolResult, Tool: "github.list_issues", Content: string(big)},
		blk("q", schemas.BlockUser, "Which issues are open?"),
	}
	const budgetTokens = 3000
	res, err := New(c, pipelineCompact(t, st), WithStore(st)).Fit(context.Background(), in, budgetTokens)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, c, in, res, budgetTokens)
	checkPreserved(t, in, res)
	if res.Level != schemas.LevelArtifact || len(res.Actions) != 1 {
		t.Fatalf("level %s actions %+v", res.Level, res.Actions)
	}
	a := res.Actions[0]
	if a.Block != "issues" || a.Kind != "compact" || a.Handle == "" || len(a.Steps) == 0 {
		t.Fatalf("action %+v", a)
	}
	// The small result is untouched; the hint stays (compaction sufficed).
	for _, b := range res.Blocks {
		if b.ID == "small" && b.Content != small {
			t.Error("the small tool result was changed")
		}
	}
	if len(res.Blocks) != 5 {
		t.Errorf("%d blocks, want all 5", len(res.Blocks))
	}
	// The big one got the whole pool minus the small one.
	others := 0
	for _, b := range in {
		if b.ID != "issues" {
			others += c.Count(b.Content)
		}
	}
	if len(res.Results) != 1 || res.Results[0].Share != budgetTokens-others || res.Results[0].Artifact == nil {
		t.Fatalf("results %+v, want share %d", res.Results, budgetTokens-others)
	}
	if res.Results[0].Collections[0].Count != 100 {
		t.Errorf("collections %+v", res.Results[0].Collections)
	}
	rc, _, err := st.Open(context.Background(), budget.Handle(a.Handle))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if string(got) != string(big) {
		t.Error("the artifact is not the original tool result")
	}
}

func TestFitCannotCompactBelowSummary(t *testing.T) {
	c := testCounter(t)
	st := testStore(t)
	big, err := os.ReadFile("../../testdata/captured/kubectl-pods.json")
	if err != nil {
		t.Fatal(err)
	}
	in := []schemas.Block{
		blk("sys", schemas.BlockSystem, "Answer from the tool results."),
		{ID: "pods", Kind: schemas.BlockToolResult, Tool: "kubectl.pods", Content: string(big)},
	}
	_, err = New(c, pipelineCompact(t, st)).Fit(context.Background(), in, 15)
	var fe *FitError
	if !errors.As(err, &fe) || fe.Budget != 15 || fe.System != c.Count(in[0].Content) || !strings.Contains(err.Error(), "pods") {
		t.Fatalf("want a FitError naming the block with numbers, got %v", err)
	}
}

// A tool result over 1 MiB is estimated, not counted, when it is
// compacted anyway; the manifest still adds up.
func TestFitLargeToolResultEstimated(t *testing.T) {
	c := testCounter(t)
	st := testStore(t)
	big, err := os.ReadFile("../../testdata/captured/kubectl-pods.json")
	if err != nil {
		t.Fatal(err)
	}
	in := []schemas.Block{
		blk("sys", schemas.BlockSystem, "Answer from the tool results."),
		{ID: "pods", Kind: schemas.BlockToolResult, Tool: "kubectl.pods", Content: string(big)},
		blk("q", schemas.BlockUser, "Which pods are not running?"),
	}
	res, err := New(c, pipelineCompact(t, st)).Fit(context.Background(), in, 4000)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, c, in, res, 4000)
	if !res.Tokens.BeforeEstimated || res.Tokens.Before < len(big)/8 || res.Level != schemas.LevelArtifact {
		t.Fatalf("tokens %+v level %s", res.Tokens, res.Level)
	}
}
