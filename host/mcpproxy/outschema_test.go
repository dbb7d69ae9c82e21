package mcpproxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolcompact/compact/host/mcpproxy"
)

type schemaItem struct {
	ID   int      `json:"id"`
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}

type schemaOut struct {
	Items []schemaItem `json:"items"`
	Total int          `json:"total"`
	Empty []string     `json:"empty"`
}

// TestStructuredValidatesAgainstOutputSchema: a go-sdk server's tool
// declares an outputSchema (items, total and an empty array are
// required); its result is far over the budget. Through the proxy the
// content is compacted and structuredContent still validates against
// the schema (checked with a JSON Schema 2020-12 validator). On the old
// code structuredContent was omitted or compacted into a shape the
// schema rejects.
func TestStructuredValidatesAgainstOutputSchema(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "list_items", Description: "Lists items."}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, schemaOut, error) {
		out := schemaOut{Total: 3000, Empty: []string{}}
		for i := range 3000 {
			out.Items = append(out.Items, schemaItem{ID: i, Name: fmt.Sprintf("item number %d with a longer name", i), Tags: []string{"a", "b"}})
		}
		return nil, out, nil
	})
	eng, _ := newEngine(t, 500)
	h := startProxy(t, &mcpproxy.InProcess{Server: s}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 500})
	ctx := context.Background()
	tools, err := h.client.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	for _, tl := range tools.Tools {
		if tl.Name == "list_items" {
			schema = tl.OutputSchema
		}
	}
	if schema == nil {
		t.Fatal("list_items has no outputSchema through the proxy")
	}
	b, _ := json.Marshal(schema)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem://s.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://s.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.client.CallTool(ctx, &mcp.CallToolParams{Name: "list_items", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.StructuredContent == nil {
		t.Fatal("structuredContent is missing, though the tool declares an outputSchema")
	}
	sb, _ := json.Marshal(res.StructuredContent)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sb))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("structuredContent does not validate against the tool's outputSchema: %v", err)
	}
	var text int
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += len(tc.Text)
		}
	}
	if text > 20000 {
		t.Errorf("content blocks hold %d bytes: not compacted", text)
	}
}
