package mcpproxy_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	budgetpkg "github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/mcpproxy"
)

// TestReadArtifactJQBomb: a string-building jq filter through the MCP
// door's read_artifact is a tool error naming the limit, answered at once
// (issue 12; the door calls the same bounded query.Querier as the CLI and
// the sidecar). On the old code the call ran past its deadline while the
// process grew by gigabytes.
func TestReadArtifactJQBomb(t *testing.T) {
	ctx := context.Background()
	eng, st := newEngine(t, 0)
	h, _, err := st.Put(ctx, strings.NewReader(`{"a":1}`), budgetpkg.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	up := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	p, err := mcpproxy.New(ctx, &mcpproxy.InProcess{Server: up}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ct, stt := mcp.NewInMemoryTransports()
	ss, err := p.Server().Connect(ctx, stt, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	bomb := `("x"*1e8) as $s | [$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s] | add | length`
	start := time.Now()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpproxy.ReadArtifactTool,
		Arguments: map[string]any{"ref": string(h), "op": "jq", "filter": bomb}})
	if err != nil {
		t.Fatal(err)
	}
	txt := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(txt, "would build a value") || time.Since(start) > 5*time.Second {
		t.Fatalf("read_artifact jq bomb: error %v after %v: %s", res.IsError, time.Since(start), txt)
	}
}

// TestReadArtifactHidesStorePath: read_artifact's errors never show the
// store's directory (on the old code "no artifact has handle … in
// /abs/path").
func TestReadArtifactHidesStorePath(t *testing.T) {
	ctx := context.Background()
	eng, st := newEngine(t, 0)
	_, err := eng.QueryArtifact(ctx, host.ArtifactQuery{Ref: "0123456789ab", Op: "get"})
	if err == nil || strings.Contains(err.Error(), st.Dir()) || !errors.Is(err, budgetpkg.ErrNotFound) {
		t.Fatalf("QueryArtifact of an unknown handle: %v (store %s)", err, st.Dir())
	}
}
