package server

import (
	"context"
	"fmt"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// Adapt returns the API's view of a host.Engine: compaction, the store,
// whole-prompt fitting (Engine.Context) and artifact queries (budget/query
// over the engine's store and counter).
func Adapt(e *host.Engine) Engine {
	a := &adapter{e: e}
	if st := e.Store(); st != nil {
		if q, err := query.New(st, e.Counter(), query.Options{}); err == nil {
			a.q = q
		}
	}
	return a
}

type adapter struct {
	e *host.Engine
	q *query.Querier
}

func (a *adapter) Compact(ctx context.Context, req host.Request) (schemas.Result, error) {
	return a.e.Compact(ctx, req)
}

func (a *adapter) Store() budget.Store { return a.e.Store() }

func (a *adapter) Context(ctx context.Context, blocks []schemas.Block, tokens int) (schemas.ContextResult, error) {
	return a.e.Context(ctx, blocks, tokens)
}

func (a *adapter) QueryArtifact(ctx context.Context, q ArtifactQuery) (query.Answer, error) {
	if a.q == nil {
		return query.Answer{}, fmt.Errorf("%w: the artifact store is off", budget.ErrNotFound)
	}
	switch q.Op {
	case "", "get":
		return a.q.Get(ctx, q.Ref, q.Budget)
	case "jq":
		return a.q.JQ(ctx, q.Ref, q.Filter, q.Budget)
	case "slice":
		return a.q.Slice(ctx, q.Ref, query.SliceOptions{Offset: q.Offset, Limit: q.Limit}, q.Budget)
	case "search":
		return a.q.Search(ctx, q.Ref, q.Text, query.SearchOptions{Limit: q.Limit}, q.Budget)
	}
	return query.Answer{}, fmt.Errorf("%w: op %q", query.ErrBadQuery, q.Op)
}
