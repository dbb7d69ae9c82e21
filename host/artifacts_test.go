package host

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
)

func TestEngineArtifactQueries(t *testing.T) {
	ctx := context.Background()
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctr, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(ctx, WithCounter(ctr), WithStore(st), WithCompilationCache(""), quiet, WithPluginDir(t.TempDir()), WithLazyPlugins())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	data := `{"items":[{"id":1,"name":"disk full"},{"id":2,"name":"all good"},{"id":3,"name":"disk slow"}]}`
	h, _, err := st.Put(ctx, strings.NewReader(data), budget.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	q1, err := e.Artifacts()
	if err != nil {
		t.Fatal(err)
	}
	if q2, _ := e.Artifacts(); q2 != q1 {
		t.Fatal("a second querier (and cache) for the same engine")
	}
	v, _, err := e.ArtifactValue(ctx, string(h)+".items[1].name")
	if err != nil || string(v) != `"all good"` {
		t.Fatalf("ArtifactValue = %q, %v", v, err)
	}
	a, err := e.ArtifactGet(ctx, string(h), 0)
	if err != nil || a.Content != data || a.Budget != DefaultBudget {
		t.Fatalf("ArtifactGet = %+v, %v", a, err)
	}
	a, err = e.ArtifactJQ(ctx, string(h), "[.items[].id] | add", 0)
	if err != nil || a.Content != "6" {
		t.Fatalf("ArtifactJQ = %q, %v", a.Content, err)
	}
	a, err = e.ArtifactSlice(ctx, string(h), query.SliceOptions{Offset: 2, Limit: 5}, 0)
	if err != nil || a.Total != 3 || a.Returned != 1 || a.Positions[0] != 2 {
		t.Fatalf("ArtifactSlice = %+v, %v", a, err)
	}
	a, err = e.ArtifactSearch(ctx, string(h), "disk", query.SearchOptions{}, 0)
	if err != nil || a.Total != 2 || a.Collection != ".items" {
		t.Fatalf("ArtifactSearch = %+v, %v", a, err)
	}
	if _, err := e.ArtifactJQ(ctx, string(h), ".[", 0); !errors.Is(err, query.ErrBadQuery) {
		t.Fatalf("bad jq: %v", err)
	}

	// QueryArtifact dispatches each op to the method above.
	for _, c := range []struct {
		q    ArtifactQuery
		want string
	}{
		{ArtifactQuery{Ref: string(h) + ".items[0].id"}, "1"},
		{ArtifactQuery{Ref: string(h) + ".items[0].id", Op: "get"}, "1"},
		{ArtifactQuery{Ref: string(h), Op: "jq", Filter: "[.items[].id] | add"}, "6"},
		{ArtifactQuery{Ref: string(h), Op: "slice", Offset: 1, Limit: 1}, "all good"},
		{ArtifactQuery{Ref: string(h), Op: "search", Text: "slow", Limit: 1}, "disk slow"},
	} {
		a, err := e.QueryArtifact(ctx, c.q)
		if err != nil || !strings.Contains(a.Content, c.want) {
			t.Errorf("QueryArtifact(%+v) = %q, %v; want it to contain %q", c.q, a.Content, err, c.want)
		}
	}
	a, err = e.QueryArtifact(ctx, ArtifactQuery{Ref: string(h), Op: "slice", Offset: 1, Limit: 1})
	if err != nil || a.Total != 3 || a.Returned != 1 || a.Positions[0] != 1 {
		t.Fatalf("QueryArtifact slice = %+v, %v", a, err)
	}
	if _, err := e.QueryArtifact(ctx, ArtifactQuery{Ref: string(h), Op: "grep"}); !errors.Is(err, query.ErrBadQuery) || !strings.Contains(err.Error(), `op "grep"`) {
		t.Fatalf("unknown op: %v", err)
	}

	off, err := New(ctx, WithCounter(ctr), WithCompilationCache(""), quiet, WithPluginDir(t.TempDir()), WithLazyPlugins())
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close(ctx)
	if _, err := off.ArtifactGet(ctx, string(h), 0); !errors.Is(err, budget.ErrNotFound) {
		t.Fatalf("store off: %v", err)
	}
}

// TestEngineQueryTimeout: WithQueryTimeout is the deadline of the
// engine's jq runs (a filter that never ends stops with it, naming it),
// and a deadline that is not positive is refused.
func TestEngineQueryTimeout(t *testing.T) {
	ctx := context.Background()
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(ctx, WithStore(st), WithQueryTimeout(0)); err == nil || !strings.Contains(err.Error(), "WithQueryTimeout") {
		t.Fatalf("WithQueryTimeout(0): %v, want an error naming it", err)
	}
	e, err := New(ctx, WithStore(st), WithCompilationCache(""), quiet, WithPluginDir(t.TempDir()), WithLazyPlugins(), WithQueryTimeout(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	h, _, err := st.Put(ctx, strings.NewReader(`[1,2,3]`), budget.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.ArtifactJQ(ctx, string(h), "def f: f; f", 0)
	if !errors.Is(err, query.ErrLimit) || !strings.Contains(err.Error(), "deadline of 300ms") {
		t.Fatalf("a filter that never ends: %v, want the 300ms deadline", err)
	}
}
