package prompt

import (
	"context"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/schemas"
)

// testCounter is the real o200k_base tokenizer.
func testCounter(t testing.TB) budget.Counter {
	t.Helper()
	c, err := budget.NewCounter(budget.EncodingO200k)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testStore is a real artifact store in a temporary directory.
func testStore(t testing.TB) *artifact.DirStore {
	t.Helper()
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// pipelineCompact is the CompactFunc host.Engine provides, built on the
// real pipeline (declarative rules with the built-in cleanups, level 2
// into st) without the registry.
func pipelineCompact(t testing.TB, st budget.Store) CompactFunc {
	p := budget.NewPipeline(testCounter(t), budget.WithStore(st))
	return func(ctx context.Context, tool, content string, tokens int) (schemas.Result, error) {
		return p.Run(ctx, budget.Input{Tool: tool, Data: []byte(content), Budget: tokens,
			Rules: budget.Rules{Tool: tool, Defaults: true}})
	}
}

func fuzzCompact(t testing.TB) CompactFunc { return pipelineCompact(t, testStore(t)) }
