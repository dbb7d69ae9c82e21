package host

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolcompact/compact/plugins/plugintest"
	"github.com/toolcompact/compact/schemas"
)

func compileSchema(t *testing.T, file string) (*jsonschema.Schema, map[string]any) {
	t.Helper()
	b, err := schemas.File(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(file, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(file)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s, doc.(map[string]any)
}

func validate(t *testing.T, s *jsonschema.Schema, line []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return s.Validate(v)
}

// TestABISchemas: both header schemas compile, their examples validate,
// the host's real input header validates, and a real plugin's output
// header validates; a header the host refuses does not.
func TestABISchemas(t *testing.T) {
	in, inDoc := compileSchema(t, "abi-input.schema.json")
	out, outDoc := compileSchema(t, "abi-output.schema.json")
	for _, c := range []struct {
		s   *jsonschema.Schema
		doc map[string]any
	}{{in, inDoc}, {out, outDoc}} {
		for _, ex := range c.doc["examples"].([]any) {
			b, _ := json.Marshal(ex)
			if err := validate(t, c.s, b); err != nil {
				t.Errorf("example %s: %v", b, err)
			}
		}
	}
	framed, err := EncodeInput(schemas.InputHeader{ABI: 1, Tool: "t", BudgetTokens: 5, ContentType: "text/plain", Args: json.RawMessage(`{"q":1}`)}, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(t, in, framed[:bytes.IndexByte(framed, '\n')]); err != nil {
		t.Errorf("the host's input header: %v", err)
	}
	_, p := loadPlugin(t, testConfig(t), plugintest.Faults, 0)
	raw, err := p.call(context.Background(), framed, DefaultTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(t, out, raw[:bytes.IndexByte(raw, '\n')]); err != nil {
		t.Errorf("the fault fixture's output header %s: %v", raw[:bytes.IndexByte(raw, '\n')], err)
	}
	if validate(t, out, []byte(`{"abi":2,"content_type":"x","collections":[]}`)) == nil {
		t.Error("abi 2 validated")
	}
	if validate(t, out, []byte(`{"abi":1,"content_type":"x","collections":[{"path":"items","count":1}]}`)) == nil {
		t.Error("a path without a leading dot validated")
	}
}
