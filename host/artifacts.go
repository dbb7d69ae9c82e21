package host

// Queries over stored artifacts: the Engine's front for budget/query, so
// that the CLI, the HTTP sidecar and the MCP proxy answer with the same
// code and share one parsed-artifact cache per engine.

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"weak"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
)

// queriers holds one query.Querier per Engine (built on first use, so
// engines that never query pay nothing); an entry goes when its engine is
// garbage collected.
var queriers struct {
	sync.Mutex
	m map[weak.Pointer[Engine]]*query.Querier
}

// Artifacts returns the engine's querier over its artifact store. Its
// cache of parsed artifacts is shared by every query through this engine.
// It fails with budget.ErrNotFound when the engine has no store.
func (e *Engine) Artifacts() (*query.Querier, error) {
	st := e.Store()
	if st == nil {
		return nil, fmt.Errorf("%w: the artifact store is off", budget.ErrNotFound)
	}
	key := weak.Make(e)
	queriers.Lock()
	defer queriers.Unlock()
	if q, ok := queriers.m[key]; ok {
		return q, nil
	}
	q, err := query.New(st, e.Counter(), query.Options{Budget: e.defaultBudget(), Map: e.cfg.mapArtifacts, Timeout: e.cfg.queryTimeout})
	if err != nil {
		return nil, fmt.Errorf("host: artifact queries: %w", err)
	}
	if queriers.m == nil {
		queriers.m = map[weak.Pointer[Engine]]*query.Querier{}
	}
	queriers.m[key] = q
	runtime.AddCleanup(e, func(k weak.Pointer[Engine]) {
		queriers.Lock()
		delete(queriers.m, k)
		queriers.Unlock()
	}, key)
	return q, nil
}

func (e *Engine) defaultBudget() int {
	if e.cfg.budget > 0 {
		return e.cfg.budget
	}
	return DefaultBudget
}

// ArtifactValue returns the exact bytes at ref: a whole artifact's
// original bytes, or the original text of the sub-value at its path
// ("a1b2c3d4e5f6.items[3]"). It is not budgeted.
func (e *Engine) ArtifactValue(ctx context.Context, ref string) ([]byte, budget.Meta, error) {
	q, err := e.Artifacts()
	if err != nil {
		return nil, budget.Meta{}, err
	}
	return q.Value(ctx, ref)
}

// ArtifactGet answers with the value at ref within tokens (0: the
// engine's default budget), or a summary and a handle when it is larger.
func (e *Engine) ArtifactGet(ctx context.Context, ref string, tokens int) (query.Answer, error) {
	q, err := e.Artifacts()
	if err != nil {
		return query.Answer{}, err
	}
	return q.Get(ctx, ref, tokens)
}

// ArtifactJQ runs a jq filter over the value at ref (see query.Querier.JQ).
func (e *Engine) ArtifactJQ(ctx context.Context, ref, filter string, tokens int) (query.Answer, error) {
	q, err := e.Artifacts()
	if err != nil {
		return query.Answer{}, err
	}
	return q.JQ(ctx, ref, filter, tokens)
}

// ArtifactSlice answers with records (or lines) by position (see
// query.Querier.Slice).
func (e *Engine) ArtifactSlice(ctx context.Context, ref string, o query.SliceOptions, tokens int) (query.Answer, error) {
	q, err := e.Artifacts()
	if err != nil {
		return query.Answer{}, err
	}
	return q.Slice(ctx, ref, o, tokens)
}

// ArtifactSearch answers with the records that match text, BM25-ranked
// (see query.Querier.Search).
func (e *Engine) ArtifactSearch(ctx context.Context, ref, text string, o query.SearchOptions, tokens int) (query.Answer, error) {
	q, err := e.Artifacts()
	if err != nil {
		return query.Answer{}, err
	}
	return q.Search(ctx, ref, text, o, tokens)
}

// ArtifactQuery is one query over a stored artifact, as the HTTP sidecar
// (GET /v1/artifacts/{handle}) and the MCP proxy (read_artifact) receive
// it. Each door decodes its own wire format and maps it onto this.
type ArtifactQuery struct {
	// Ref is a handle, optionally followed by a jq path
	// ("a1b2c3d4e5f6.items[3]").
	Ref string
	// Op is "get" (or ""), "jq", "slice" or "search".
	Op string
	// Filter is the jq program of op "jq".
	Filter string
	// Offset and Limit select records or lines for op "slice"; Limit
	// also caps the hits of op "search".
	Offset, Limit int
	// Text is the search text of op "search".
	Text string
	// Budget is the token budget of the answer; 0 means the engine's
	// default.
	Budget int
}

// QueryArtifact runs one query over a stored artifact: op "get" (or "")
// as ArtifactGet, "jq" as ArtifactJQ, "slice" as ArtifactSlice and
// "search" as ArtifactSearch. An unknown op fails with
// query.ErrBadQuery naming it. It is what the sidecar's HTTP API and the
// MCP door's read_artifact call, so its errors never name the store's
// directory (see Redact); they wrap the same errors.
func (e *Engine) QueryArtifact(ctx context.Context, q ArtifactQuery) (query.Answer, error) {
	a, err := e.queryArtifact(ctx, q)
	if err != nil {
		err = e.Redact(err)
	}
	return a, err
}

// Redact returns err with the text of the artifact store's directory (and
// so of every path in it) replaced by "<store>", for messages that go to
// remote clients; errors.Is and errors.As still see the original. Errors
// of a store without a directory are returned as they are.
func (e *Engine) Redact(err error) error {
	d, ok := e.cfg.store.(interface{ Dir() string })
	if err == nil || !ok || d.Dir() == "" || !strings.Contains(err.Error(), d.Dir()) {
		return err
	}
	return redacted{err: err, dir: d.Dir()}
}

// redacted is an error whose text hides a directory.
type redacted struct {
	err error
	dir string
}

func (r redacted) Error() string { return strings.ReplaceAll(r.err.Error(), r.dir, "<store>") }
func (r redacted) Unwrap() error { return r.err }

func (e *Engine) queryArtifact(ctx context.Context, q ArtifactQuery) (query.Answer, error) {
	switch q.Op {
	case "", "get":
		return e.ArtifactGet(ctx, q.Ref, q.Budget)
	case "jq":
		return e.ArtifactJQ(ctx, q.Ref, q.Filter, q.Budget)
	case "slice":
		return e.ArtifactSlice(ctx, q.Ref, query.SliceOptions{Offset: q.Offset, Limit: q.Limit}, q.Budget)
	case "search":
		return e.ArtifactSearch(ctx, q.Ref, q.Text, query.SearchOptions{Limit: q.Limit}, q.Budget)
	}
	return query.Answer{}, fmt.Errorf("%w: op %q: want get, jq, slice or search", query.ErrBadQuery, q.Op)
}
