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

// TestResultUnderBudgetUnchanged: a result that fits the budget reaches
// the client exactly as the upstream sent it: a JSON text must stay JSON
// for a client that parses it, and structuredContent is unchanged. When
// it is long enough that compact states the facts its view would state
// (counts, value counts: a view at a smaller budget stated them, so a
// larger budget must too), they come as a text block of their own after
// the upstream's. A short result gets none. The facts block is missing
// on the old code (the proxy dropped level none's facts notice).
func TestResultUnderBudgetUnchanged(t *testing.T) {
	eng, _ := newEngine(t, 20000)
	h := startProxy(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 20000})
	// About 90 records, 10 KB: well over the facts notice's threshold,
	// well under the budget.
	res := h.call(t, "records", map[string]any{"bytes": 10000})
	if len(res.Content) != 2 {
		t.Fatalf("%d content blocks, want the text and its facts", len(res.Content))
	}
	got := res.Content[0].(*mcp.TextContent).Text
	if strings.HasPrefix(got, "[compact:") || !json.Valid([]byte(got)) {
		t.Fatalf("a result under budget was changed: %.300q", got)
	}
	var items []map[string]any
	if err := json.Unmarshal([]byte(got), &items); err != nil || len(items) != 91 {
		t.Fatalf("%d records, %v", len(items), err)
	}
	facts := res.Content[1].(*mcp.TextContent).Text
	if !strings.HasPrefix(facts, budget.FactsHead+"; counted: . 91 records; ") || !strings.Contains(facts, "state (string): open 46, closed 45") || strings.Contains(facts, "\n") {
		t.Errorf("facts block %.300q", facts)
	}
	m := meta(t, res)
	if len(m.Results) != 1 || m.Results[0].Level != schemas.LevelNone || m.Structured != "unchanged" {
		t.Fatalf("results %+v, structured %q", m.Results, m.Structured)
	}
	if r := m.Results[0]; r.Tokens.After <= r.Tokens.Before || r.Tokens.After > 20000 {
		t.Errorf("tokens %+v: after must count the facts too", r.Tokens)
	}
	// A short result: exactly the upstream's, nothing added.
	res = h.call(t, "records", map[string]any{"bytes": 1000})
	if len(res.Content) != 1 || !json.Valid([]byte(text(t, res))) {
		t.Errorf("short result: %d blocks, %.200q", len(res.Content), text(t, res))
	}
}
