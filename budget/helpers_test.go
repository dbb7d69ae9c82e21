package budget_test

import (
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// The scaffolding of the external tests of package budget, once
// (helpers_internal_test.go has the internal tests' counter).

// newCounter returns the pipeline's default counter (o200k_base); an
// error fails the test.
func newCounter(t testing.TB) budget.Counter {
	t.Helper()
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// storePipeline returns a pipeline with the default counter and a
// directory store of its own (removed with the test), the counter and
// the store.
func storePipeline(t testing.TB) (*budget.Pipeline, budget.Counter, *artifact.DirStore) {
	t.Helper()
	c := newCounter(t)
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return budget.NewPipeline(c, budget.WithStore(st)), c, st
}
