package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/plugins/plugintest"
)

// TestFirstPartyConfigsPassContentChecks: the first-party plugins, in
// each of their output configurations, pass the content checks on every
// input of the bundled corpus they do not decline (a false refusal would
// silently turn a plugin off). It found restlist's format=json writing
// an empty list for a list column a record lacks, which the checks now
// accept.
func TestFirstPartyConfigsPassContentChecks(t *testing.T) {
	ctx := context.Background()
	ents, _ := os.ReadDir("../testdata/captured")
	for _, c := range []struct {
		pkg string
		cfg map[string]string
	}{
		{plugintest.RestList, map[string]string{"format": "json"}},
		{plugintest.RestList, map[string]string{"keep": "number,title,user.login,labels[].name,state"}},
		{plugintest.RestList, nil},
		{plugintest.Logs, map[string]string{"scope": "segment"}},
		{plugintest.Logs, map[string]string{"min_count": "3"}},
		{plugintest.Logs, nil},
	} {
		p, err := LoadPlugin(ctx, plugintest.Build(t, c.pkg), PluginOptions{Config: c.cfg, Timeout: 30 * time.Second, Memory: 512 << 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			ext := filepath.Ext(e.Name())
			if ext != ".json" && ext != ".jsonl" && ext != ".txt" {
				continue
			}
			data, _ := os.ReadFile(filepath.Join("../testdata/captured", e.Name()))
			s, _ := budget.DetectShape(data, nil)
			_, err := p.Compact(ctx, budget.Request{Tool: "t", Input: data, ContentType: s.ContentType, Budget: 4000})
			var pe *PluginError
			if errors.As(err, &pe) && (pe.Kind == KindContent || pe.Kind == KindCount) {
				t.Errorf("%s %v %s: %v", c.pkg, c.cfg, e.Name(), err)
			}
		}
	}
}
