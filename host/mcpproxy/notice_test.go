package mcpproxy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host/mcpproxy"
	"github.com/toolcompact/compact/schemas"
)

// TestLevel1Notice: a lossy level 1 reaches the model with its notice
// line (the constant "body" stated, the artifact named), structuredContent
// is read from the payload after the notice, and a structuredContent
// compacted on its own gets its notice in a text block.
func TestLevel1Notice(t *testing.T) {
	eng, store := newEngine(t, 800)
	h := startProxy(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 800})

	t.Run("structuredContent is the text's JSON", func(t *testing.T) {
		res := h.call(t, "same", map[string]any{"bytes": 4800})
		m := meta(t, res)
		r := m.Results[0]
		if r.Level != schemas.LevelFields || r.Artifact == nil {
			t.Fatalf("level %q, artifact %v", r.Level, r.Artifact)
		}
		notice, payload := budget.SplitNotice(text(t, res))
		if !strings.Contains(notice, `body="some text that describes the item"`) || !strings.Contains(notice, budget.RefOf(r.Artifact.Handle)) {
			t.Errorf("notice %q", notice)
		}
		if !json.Valid([]byte(payload)) || strings.Contains(payload, `"body"`) {
			t.Errorf("payload %.200q", payload)
		}
		if m.Structured != "compacted" || res.StructuredContent == nil {
			t.Fatalf("structured %q", m.Structured)
		}
		b, _ := json.Marshal(res.StructuredContent)
		if strings.Contains(string(b), `"body"`) {
			t.Errorf("structuredContent is not the payload: %.200s", b)
		}
		if orig := stored(t, store, r.Artifact.Handle); !strings.Contains(orig, `"body":"some text that describes the item"`) {
			t.Errorf("the artifact does not hold the original: %.200s", orig)
		}
	})

	t.Run("structuredContent of its own", func(t *testing.T) {
		res := h.call(t, "records", map[string]any{"bytes": 3300})
		m := meta(t, res)
		if m.Structured != "compacted" || res.StructuredContent == nil {
			t.Fatalf("structured %q", m.Structured)
		}
		found := false
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok && strings.HasPrefix(tc.Text, "structuredContent: [compact: ") {
				found = strings.Contains(tc.Text, `body="some text that describes the item in a few words"`)
			}
		}
		if !found {
			t.Errorf("no notice for the compacted structuredContent: %+v", res.Content)
		}
	})
}
