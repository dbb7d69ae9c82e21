package mcpproxy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolcompact/compact/host/mcpproxy"
	"github.com/toolcompact/compact/schemas"
)

// TestResultUnderBudgetUnchanged: a result that fits the budget reaches
// the client exactly as the upstream sent it, also when it is long
// enough that compact would put a line of facts in front of it for a
// model reading `compact run`. The proxy is invisible except that
// results are smaller: a JSON text must stay JSON for a client that
// parses it. It failed when level none's facts notice was passed on.
func TestResultUnderBudgetUnchanged(t *testing.T) {
	eng, _ := newEngine(t, 20000)
	h := startProxy(t, faulty(t), mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 20000})
	// About 90 records, 10 KB: well over the facts notice's threshold,
	// well under the budget.
	res := h.call(t, "records", map[string]any{"bytes": 10000})
	got := text(t, res)
	if strings.HasPrefix(got, "[compact:") || !json.Valid([]byte(got)) {
		t.Fatalf("a result under budget was changed: %.300q", got)
	}
	var items []map[string]any
	if err := json.Unmarshal([]byte(got), &items); err != nil || len(items) != 91 {
		t.Fatalf("%d records, %v", len(items), err)
	}
	m := meta(t, res)
	if len(m.Results) != 1 || m.Results[0].Level != schemas.LevelNone {
		t.Fatalf("results %+v", m.Results)
	}
}
