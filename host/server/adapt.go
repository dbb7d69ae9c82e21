package server

import (
	"context"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// Adapt returns the API's view of a host.Engine: compaction, the store,
// whole-prompt fitting and artifact queries.
func Adapt(e *host.Engine) Engine { return adapter{e} }

type adapter struct{ e *host.Engine }

func (a adapter) Compact(ctx context.Context, req host.Request) (schemas.Result, error) {
	return a.e.Compact(ctx, req)
}

func (a adapter) Store() budget.Store { return a.e.Store() }

func (a adapter) Context(ctx context.Context, blocks []schemas.Block, tokens int) (schemas.ContextResult, error) {
	return a.e.Context(ctx, blocks, tokens)
}
