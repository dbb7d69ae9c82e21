package mcpproxy

import (
	"context"

	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
)

// Adapt returns the proxy's view of a host.Engine: compaction, the
// artifact store (memory pointers) and artifact queries (read_artifact,
// through Engine.QueryArtifact and the engine's shared cache).
func Adapt(e *host.Engine) Engine { return adapter{e} }

// adapter is the engine itself (its methods implement Engine) with
// Querier on the read_artifact wire format.
type adapter struct{ *host.Engine }

// QueryArtifact implements Querier. Query (the read_artifact wire
// format) and host.ArtifactQuery have the same fields, so the conversion
// is checked by the compiler.
func (a adapter) QueryArtifact(ctx context.Context, q Query) (query.Answer, error) {
	return a.Engine.QueryArtifact(ctx, host.ArtifactQuery(q))
}

var _ Querier = adapter{}
