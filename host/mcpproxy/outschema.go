package mcpproxy

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Output schemas: a tool that declares an outputSchema promises clients
// that structuredContent validates against it, and strict clients reject
// a result that does not. The proxy keeps that promise: a compacted (or
// omitted) structuredContent that does not validate against the tool's
// schema (JSON Schema 2020-12 unless the schema says otherwise) is
// replaced by the upstream's exact one, and only the content blocks are
// compacted.

// toolSchema is a tool's output schema, compiled on first use.
type toolSchema struct {
	raw  []byte
	once sync.Once
	sch  *jsonschema.Schema // nil when it does not compile
}

// setOutputSchema records the output schema of a listed tool (nil for
// none).
func (p *Proxy) setOutputSchema(tool string, schema any) {
	if schema == nil {
		p.outSchemas.Delete(tool)
		return
	}
	b, err := json.Marshal(schema)
	if err != nil {
		p.outSchemas.Delete(tool)
		return
	}
	if v, ok := p.outSchemas.Load(tool); ok && bytes.Equal(v.(*toolSchema).raw, b) {
		return
	}
	p.outSchemas.Store(tool, &toolSchema{raw: b})
}

// outputSchema returns the compiled output schema of tool, nil when it
// declares none or it does not compile.
func (p *Proxy) outputSchema(tool string) *jsonschema.Schema {
	v, ok := p.outSchemas.Load(tool)
	if !ok {
		return nil
	}
	ts := v.(*toolSchema)
	ts.once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ts.raw))
		if err != nil {
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		const url = "mem://compact/output-schema.json"
		if c.AddResource(url, doc) != nil {
			return
		}
		sch, err := c.Compile(url)
		if err != nil {
			p.log.Warn("tool output schema does not compile; its results are not checked", "tool", tool, "err", err)
			return
		}
		ts.sch = sch
	})
	return ts.sch
}

// validates reports whether v validates against sch.
func validates(sch *jsonschema.Schema, v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return false
	}
	return sch.Validate(doc) == nil
}
