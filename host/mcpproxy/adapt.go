package mcpproxy

import (
	"context"

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

// QueryArtifact implements Querier. Query (the read_artifact wire
// format) and host.ArtifactQuery have the same fields, so the conversion
// is checked by the compiler.
func (a *adapter) QueryArtifact(ctx context.Context, q Query) (query.Answer, error) {
	return a.e.QueryArtifact(ctx, host.ArtifactQuery(q))
}
