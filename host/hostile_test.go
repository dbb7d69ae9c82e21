package host

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/schemas"
)

// hostileLog is a log of n lines with one error, every line long enough
// for the inject mode to replace the first one without growing the
// payload.
func hostileLog(n int) []byte {
	var b strings.Builder
	for i := range n {
		if i == n/2 {
			b.WriteString("2026-11-20T03:00:30Z ERROR db: connection refused by 10.0.0.7:5432 after 3 attempts, giving up\n")
			continue
		}
		fmt.Fprintf(&b, "2026-11-20T03:00:%02dZ GET /api/items/%d 200 %dms request served from cache shard %d ok\n", i%60, 1000+i, 3+i%7, i%4)
	}
	return []byte(b.String())
}

// TestHostilePluginsContained is the hostile-plugin matrix of issue 12:
// plugins whose record counts are honest but whose content is not
// (fabricated values, duplicated or reordered records, groups that lie,
// injected text), built from source (plugins/internal/faults), on both
// plugin runtimes. Each call is a failed plugin call of kind "content"
// naming the first offending path or line; the declarative rules answer
// instead, with every record, and nothing the plugin made up reaches the
// result. On the old code every one of them was accepted.
func TestHostilePluginsContained(t *testing.T) {
	inputs := map[string][]byte{"json": records(30), "text": hostileLog(40)}
	for _, rt := range []Runtime{RuntimeNative, RuntimeExtismSDK} {
		for _, mode := range []string{"fabricate", "duplicate", "reorder", "grouplie", "inject", "injectaction"} {
			t.Run(string(rt)+"/"+mode, func(t *testing.T) {
				st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
				if err != nil {
					t.Fatal(err)
				}
				e, wasm := faultEngine(t, mode, WithRuntime(rt), WithBudget(900), WithStore(st))
				for kind, input := range inputs {
					res, err := e.Compact(context.Background(), Request{Tool: "faulty", Input: input})
					if err != nil {
						t.Fatalf("%s: Compact failed: %v", kind, err)
					}
					a, ok := findAction(res.Actions, "plugin_failed")
					if !ok {
						t.Fatalf("%s: the plugin's output was accepted: actions %+v, content %.300s", kind, res.Actions, res.Content)
					}
					if a.Target != wasm || !strings.HasPrefix(a.Detail, string(KindContent)+": ") {
						t.Errorf("%s: plugin_failed = %+v, want a %q fault", kind, a, KindContent)
					}
					_, payload := budget.SplitNotice(res.Content)
					for _, bad := range []string{"NOTE TO THE ASSISTANT", "all systems nominal"} {
						if strings.Contains(payload, bad) {
							t.Errorf("%s: the plugin's text reached the result: %.300s", kind, payload)
						}
					}
					want := 30
					if kind == "text" {
						want = 40
						if !strings.Contains(payload, "ERROR db: connection refused") {
							t.Errorf("text: the error line is not in the result: %.300s", payload)
						}
					}
					if len(res.Collections) != 1 || res.Collections[0].Count != want || kind == "json" && res.Level != schemas.LevelFields {
						t.Errorf("%s: fallback result: level %s, collections %+v", kind, res.Level, res.Collections)
					}
					if kind == "json" && !strings.Contains(payload, "issue number 29") {
						t.Errorf("json: not the declarative output: %.300s", payload)
					}
				}
			})
		}
	}
}
