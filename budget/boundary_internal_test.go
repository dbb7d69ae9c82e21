package budget

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/view"
	"github.com/toolcompact/compact/schemas"
)

// levelRank orders the levels by how much of the output they keep
// whole: the view (artifact) keeps least.
func levelRank(l schemas.Level) int {
	switch l {
	case schemas.LevelNone:
		return 0
	case schemas.LevelFields:
		return 1
	}
	return 2
}

// viewAt rebuilds the view level 2 showed in res (no pin, no args: the
// input level2 gets from these tests) and fills it at res's budget, so
// that the test can ask which facts it stated. The text must be res's
// content exactly, or the rebuilt view is not the one shown.
func viewAt(t *testing.T, p *Pipeline, in Input, res schemas.Result) []string {
	t.Helper()
	shape, err := DetectShape(in.Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	ext := viewShape(in, shape)
	vin := view.Input{
		Tool: in.Tool, ContentType: contentTypeOf(in, shape), Format: ext.Format, Data: in.Data,
		Handle: RefOf(res.Artifact.Handle), Budget: res.Tokens.Budget, TokensBefore: res.Tokens.Before, BeforeEstimated: res.Tokens.BeforeEstimated,
		Drop: dropFunc(in.Rules), Identity: in.Rules.Identity, Index: in.Rules.Index, Sort: in.Rules.Sort,
	}
	for ci, c := range ext.Collections {
		vin.Collections = append(vin.Collections, view.Collection{Path: c.Path, Kind: c.Kind, Count: c.Count, Also: ci >= len(shape.Collections),
			Each: func(fn func(int, []byte) error) error { return EachRecord(in.Data, ext, c.Path, fn) },
			Text: collectionText(in.Data, ext, c.Path)})
	}
	v, err := view.Build(vin)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := v.Fill(p.counter, res.Tokens.Budget)
	if err != nil {
		t.Fatal(err)
	}
	if fl.Text != res.Content {
		t.Fatalf("%s at %d: the rebuilt view is not the one shown", in.Tool, res.Tokens.Budget)
	}
	return fl.Facts(v)
}

// TestMonotoneAcrossLevels runs outputs of 1,000 to 16,000 tokens at
// budgets from 1,000 to 16,000 tokens (and around the points where the
// level changes): the level never goes back to the view as the budget
// grows, and a result that keeps the whole output (level none or
// fields) states every fact the view stated at every smaller budget, so
// a larger budget never answers fewer questions; except the output
// itself (level none) shown whole where it fits but its facts do not:
// it states its counts and the longest prefix of the facts that fits
// (every record is there, which no view at that budget shows). Fails on the old code,
// where an output that fitted was shown with as many facts as a quarter
// of its size allowed (heldout4's gcc log at 8,000 tokens lost the
// warning counts its view stated at 4,000), or none below 1,000 tokens.
func TestMonotoneAcrossLevels(t *testing.T) {
	c := counter(t)
	p := NewPipeline(c, WithStore(&memStore{}))
	var gen strings.Builder
	gen.WriteString("[")
	for i := range 120 {
		if i > 0 {
			gen.WriteString(",\n")
		}
		state := []string{"running", "running", "running", "stopped", "failed"}[i%5*(i%7)%5]
		fmt.Fprintf(&gen, `{"name": "svc-%03d", "state": %q, "restarts": %d, "zone": "eu-%d"}`, i, state, i*i%13, i%3)
	}
	gen.WriteString("]")
	outputs := map[string][]byte{"generated.json": []byte(gen.String())}
	for _, f := range []string{"git-log-stat-compact.txt", "go-mod-why.txt", "npm-view-esbuild-time.json", "strace-make.txt"} {
		data, err := os.ReadFile("../testdata/captured/" + f)
		if err != nil {
			t.Fatal(err)
		}
		outputs[f] = data
	}
	names := make([]string, 0, len(outputs))
	for n := range outputs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		data := outputs[name]
		in := Input{Tool: name, Data: data}
		shape, err := DetectShape(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		facts := p.factsOf(in, shape, &wholeFacts{})
		raw := c.Count(string(data))
		all := c.Count(FactsHead + "; " + strings.Join(facts, "; ") + "]\n")
		var budgets []int
		for b := 1000; b <= 16000; b += 1000 {
			budgets = append(budgets, b)
		}
		for _, b := range []int{raw - 1, raw, raw + 1, raw + all - 1, raw + all, raw + all + 1} {
			if b > 0 {
				budgets = append(budgets, b)
			}
		}
		slices.Sort(budgets)
		budgets = slices.Compact(budgets)
		var stated []string // every fact a view at a smaller budget stated
		prev, whole := 2, 0
		for _, b := range budgets {
			in.Budget = b
			res, err := p.Run(context.Background(), in)
			if err != nil {
				continue // the bare view is over a small budget
			}
			if res.Tokens.After > b || res.Tokens.After != c.Count(res.Content) {
				t.Errorf("%s at %d: %d tokens, counted %d", name, b, res.Tokens.After, c.Count(res.Content))
			}
			r := levelRank(res.Level)
			if r > prev {
				t.Errorf("%s at %d: level %s after a level that keeps more at a smaller budget", name, b, res.Level)
			}
			prev = r
			if res.Level == schemas.LevelArtifact {
				for _, f := range viewAt(t, p, in, res) {
					if !slices.Contains(stated, f) {
						stated = append(stated, f)
					}
				}
				continue
			}
			whole++
			notice, _ := SplitNotice(res.Content)
			items := strings.Split(strings.TrimSuffix(strings.TrimPrefix(notice, NoticePrefix), "]"), "; ")
			if res.Level == schemas.LevelNone && res.Tokens.After+all > b {
				// The output itself, whole, with the facts that fit:
				// the longest prefix of them, its counts at least.
				k := 0
				body := strings.TrimSuffix(notice, "]") + "; "
				for k < len(facts) && strings.Contains(body, "; "+facts[k]+"; ") {
					k++
				}
				for _, f := range facts[k:] {
					if strings.Contains(body, "; "+f+"; ") {
						t.Errorf("%s at %d: the facts stated are no prefix of the facts (%d, then %q)", name, b, k, f)
						break
					}
				}
				if k == 0 && strings.HasPrefix(facts[0], "counted: ") {
					t.Errorf("%s at %d: the whole output without its counts", name, b)
				}
				if k < len(facts) && c.Count(FactsHead+"; "+strings.Join(facts[:k+1], "; ")+"]\n")+raw <= b {
					t.Errorf("%s at %d: %d facts stated, %d fit", name, b, k, k+1)
				}
				continue
			}
			for _, f := range stated {
				// A fact may itself hold "; ": it is the run of items.
				if !strings.Contains("; "+strings.Join(items, "; ")+"; ", "; "+f+"; ") {
					t.Errorf("%s at %d (level %s): the view at a smaller budget stated %q, this result does not", name, b, res.Level, f)
				}
			}
		}
		if whole == 0 || len(stated) == 0 {
			t.Errorf("%s (%d tokens, facts %d tokens): %d whole results, %d facts stated by views: the test crosses no level boundary", name, raw, all, whole, len(stated))
		}
	}
}
