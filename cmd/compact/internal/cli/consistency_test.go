package cli

import (
	"context"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/registry"
)

// TestBuiltinEntriesApply runs every built-in registry entry's declarative
// rules through level 1 on a small record list: the registry's path
// checks and level 1's own parser must agree on every path the built-in
// registry ships.
func TestBuiltinEntriesApply(t *testing.T) {
	in := []byte(`[{"id":1,"name":"a","user":{"login":"x","avatar_url":"https://x"},"labels":[{"name":"bug","url":"https://l"}]},` +
		`{"id":2,"name":"b","user":{"login":"y","avatar_url":"https://y"},"labels":[]}]`)
	for _, e := range registry.Default().Entries() {
		rules := budget.Rules{
			Tool: e.Name, Keep: e.Keep, Drop: e.Drop, StringsMax: e.Strings.Max,
			Format: e.Format, Budget: e.Budget, Pin: e.Pin, Store: e.Store, Defaults: e.Defaults,
		}
		out, err := budget.Declarative().Compact(context.Background(), budget.Request{Tool: e.Name, Input: in, ContentType: "application/json", Budget: 1000, Rules: rules})
		if err != nil {
			t.Errorf("entry %q (%s): level 1 refuses its rules: %v", e.Name, e.Source, err)
			continue
		}
		if len(out.Content) == 0 {
			t.Errorf("entry %q: empty output", e.Name)
		}
	}
}
