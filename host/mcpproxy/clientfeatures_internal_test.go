package mcpproxy

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestUnionCaps: the union covers each of its parts, adds nothing else,
// and covers tells a missing sub-capability.
func TestUnionCaps(t *testing.T) {
	none := &mcp.ClientCapabilities{}
	roots := &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{}}
	rootsLC := &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}}
	sampTools := &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}}}
	url := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}
	form := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}
	parts := []*mcp.ClientCapabilities{none, roots, rootsLC, sampTools, url, form}
	u := none
	for _, p := range parts {
		u = unionCaps(u, p)
	}
	for i, p := range parts {
		if !covers(u, p) {
			t.Errorf("the union does not cover part %d", i)
		}
	}
	if !covers(u, none) || covers(none, roots) || covers(roots, rootsLC) || !covers(rootsLC, roots) {
		t.Errorf("covers on roots")
	}
	if covers(form, url) || covers(url, form) || covers(&mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}, sampTools) {
		t.Errorf("covers misses a sub-capability")
	}
	if got := unionCaps(none, roots); got.Sampling != nil || got.Elicitation != nil || got.RootsV2 == nil || got.RootsV2.ListChanged {
		t.Errorf("union of nothing and roots: %+v", got)
	}
}
