package mcpproxy

import (
	"context"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// Adapt returns the proxy's view of a host.Engine: compaction, the
// artifact store (memory pointers) and artifact queries (read_artifact).
func Adapt(e *host.Engine) Engine { return adapter{e} }

type adapter struct{ e *host.Engine }

func (a adapter) Compact(ctx context.Context, req host.Request) (schemas.Result, error) {
	return a.e.Compact(ctx, req)
}

func (a adapter) Store() budget.Store { return a.e.Store() }
