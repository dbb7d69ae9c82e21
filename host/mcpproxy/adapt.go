package mcpproxy

import (
	"context"
	"fmt"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// Adapt returns the proxy's view of a host.Engine: compaction, the
// artifact store (memory pointers) and artifact queries (read_artifact,
// through the engine's querier and its shared cache).
func Adapt(e *host.Engine) Engine { return &adapter{e: e} }

type adapter struct{ e *host.Engine }

func (a *adapter) Compact(ctx context.Context, req host.Request) (schemas.Result, error) {
	return a.e.Compact(ctx, req)
}

func (a *adapter) Store() budget.Store { return a.e.Store() }

func (a *adapter) ArtifactValue(ctx context.Context, ref string) ([]byte, budget.Meta, error) {
	return a.e.ArtifactValue(ctx, ref)
}

// QueryArtifact implements Querier.
func (a *adapter) QueryArtifact(ctx context.Context, q Query) (query.Answer, error) {
	qr, err := a.e.Artifacts()
	if err != nil {
		return query.Answer{}, err
	}
	return RunQuery(ctx, qr, q)
}

// RunQuery runs one read_artifact query on a budget/query Querier.
func RunQuery(ctx context.Context, qr *query.Querier, q Query) (query.Answer, error) {
	switch q.Op {
	case "", "get":
		return qr.Get(ctx, q.Ref, q.Budget)
	case "jq":
		return qr.JQ(ctx, q.Ref, q.Filter, q.Budget)
	case "slice":
		return qr.Slice(ctx, q.Ref, query.SliceOptions{Offset: q.Offset, Limit: q.Limit}, q.Budget)
	case "search":
		return qr.Search(ctx, q.Ref, q.Text, query.SearchOptions{Limit: q.Limit}, q.Budget)
	}
	return query.Answer{}, fmt.Errorf("%w: op %q: want get, jq, slice or search", query.ErrBadQuery, q.Op)
}
