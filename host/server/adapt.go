package server

import (
	"context"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// Adapt returns the API's view of a host.Engine: compaction, the store,
// whole-prompt fitting (Engine.Context) and artifact queries (the
// engine's querier and its shared cache).
func Adapt(e *host.Engine) Engine { return &adapter{e: e} }

type adapter struct{ e *host.Engine }

func (a *adapter) Compact(ctx context.Context, req host.Request) (schemas.Result, error) {
	return a.e.Compact(ctx, req)
}

func (a *adapter) Store() budget.Store { return a.e.Store() }

func (a *adapter) Context(ctx context.Context, blocks []schemas.Block, tokens int) (schemas.ContextResult, error) {
	return a.e.Context(ctx, blocks, tokens)
}

// QueryArtifact implements ArtifactQuerier.
func (a *adapter) QueryArtifact(ctx context.Context, q ArtifactQuery) (query.Answer, error) {
	return a.e.QueryArtifact(ctx, q)
}

// EntryName implements EntryNamer.
func (a *adapter) EntryName(tool string) string { return a.e.Registry().Lookup(tool).Name }
