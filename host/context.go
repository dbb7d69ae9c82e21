package host

import (
	"context"

	"github.com/toolcompact/compact/budget/prompt"
	"github.com/toolcompact/compact/schemas"
)

// ContextResult is what Engine.Context made of a prompt: the fitted blocks
// and the manifest of every step (see schemas.ContextResult).
type ContextResult = schemas.ContextResult

// Context fits a whole prompt of blocks to a budget of tokens (see package
// budget/prompt): tool_result blocks are compacted with Engine.Compact
// (their tool's registry entry, plugin and pin predicate; the engine's
// store for level 2), each to its fair share of the budget; then hint
// blocks are dropped, then the tail of the prompt is cut at a boundary.
// What levels 3 and 4 remove is stored in the engine's store when it has
// one. It fails with a *prompt.FitError (wrapping budget.ErrCannotFit)
// when nothing can make the prompt fit, and with an error wrapping
// prompt.ErrInvalid for malformed blocks; it then returns no result.
func (e *Engine) Context(ctx context.Context, blocks []schemas.Block, tokens int) (ContextResult, error) {
	return e.fitter().Fit(ctx, blocks, tokens)
}

// fitter returns a prompt.Fitter wired to this engine.
func (e *Engine) fitter() *prompt.Fitter {
	compact := func(ctx context.Context, tool, content string, tokens int) (schemas.Result, error) {
		return e.Compact(ctx, Request{Tool: tool, Input: []byte(content), Budget: tokens})
	}
	var opts []prompt.Option
	if e.store != nil {
		opts = append(opts, prompt.WithStore(e.store))
	}
	return prompt.New(e.counter, compact, opts...)
}
