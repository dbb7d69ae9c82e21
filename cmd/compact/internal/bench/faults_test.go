package bench

import (
	"bytes"
	"strings"
	"testing"
)

// TestReportsPluginFaults: a plugin that was skipped or failed while
// compact made an output is reported in the text, Markdown and HTML
// reports (on the old code it was only in the JSON notes).
func TestReportsPluginFaults(t *testing.T) {
	r := &Report{
		Encoding:   "o200k_base",
		Budgets:    []int{2000},
		Strategies: []Strategy{StrategyCompact},
		Outputs:    []OutputInfo{{Name: "github-issues.json", Tool: "github.issues", RawTokens: 1000}},
		Results: []Result{{Output: "github-issues.json", Strategy: StrategyCompact, Budget: 2000, Shown: true,
			Notes: []string{"plugin_skipped builtin:restlist: missing: builtin plugin not built"}}},
	}
	r.Totals = totals(r)
	want := "github-issues.json at 2,000 tokens: plugin_skipped builtin:restlist: missing"
	var text, md, html bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": strings.ReplaceAll(md.String(), `\_`, "_"), "html": html.String()} {
		if !strings.Contains(out, want) {
			t.Errorf("%s report lacks the plugin fault %q:\n%s", name, want, out)
		}
	}
	if !strings.Contains(text.String(), "plugin faults: 1") || !strings.Contains(html.String(), `id="plugin-faults"`) {
		t.Error("no plugin faults heading")
	}
}
