package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolcompact/compact/schemas"
)

var contextSchema = sync.OnceValues(func() (*jsonschema.Compiler, error) {
	b, err := schemas.File(schemas.ContextSchemaFile)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.ContextSchemaID, doc); err != nil {
		return nil, err
	}
	return c, nil
})

// schemaValid validates doc against a definition of context.schema.json
// ("" for the input document).
func schemaValid(t testing.TB, def string, doc []byte) error {
	t.Helper()
	c, err := contextSchema()
	if err != nil {
		t.Fatal(err)
	}
	id := schemas.ContextSchemaID
	if def != "" {
		id += "#/$defs/" + def
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

func TestDecodeExample(t *testing.T) {
	data, err := os.ReadFile("testdata/agent.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := schemaValid(t, "", data); err != nil {
		t.Fatalf("example does not validate: %v", err)
	}
	blocks, err := DecodeBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 7 || blocks[1].Priority != 2 || blocks[5].Tool != "cloudwatch.alarms" || blocks[5].Kind != schemas.BlockToolResult {
		t.Fatalf("decoded %+v", blocks)
	}
}

// TestDecodeAgreesWithSchema checks the decoder accepts what the schema
// accepts and rejects what it rejects (the decoder also rejects duplicate
// ids, which a JSON Schema cannot express).
func TestDecodeAgreesWithSchema(t *testing.T) {
	cases := []struct {
		doc  string
		ok   bool
		want string // part of the decoder's error
	}{
		{`[]`, true, ""},
		{`{"blocks": []}`, true, ""},
		{`[{"kind":"user","content":"hi"}]`, true, ""},
		{`[{"kind":"hint","priority":1.0,"content":"x"}]`, true, ""},
		{`[{"kind":"hint","priority":-3,"content":"x","id":"h","tool":""}]`, true, ""},
		{`[{"kind":"hint","priority":1.5,"content":"x"}]`, false, "blocks[0].priority: must be an integer"},
		{`[{"kind":"hint","priority":"1","content":"x"}]`, false, "blocks[0].priority: must be an integer"},
		{`[{"kind":"hint","priority":99999999999,"content":"x"}]`, false, "out of range"},
		{`[{"kind":"user"}]`, false, `blocks[0]: missing "content"`},
		{`[{"content":"x"}]`, false, `blocks[0]: missing "kind"`},
		{`[{"kind":"robot","content":"x"}]`, false, `blocks[0].kind: unknown kind "robot"`},
		{`[{"kind":"user","content":null}]`, false, "blocks[0].content: must be a string"},
		{`[{"kind":"user","content":5}]`, false, "blocks[0].content: must be a string"},
		{`[{"kind":"user","content":"x","id":null}]`, false, "blocks[0].id: must be a string"},
		{`[{"kind":"user","content":"x","role":"user"}]`, false, `unknown member "role"`},
		{`[1]`, false, "blocks[0]: a block must be an object"},
		{`{"blocks": {}}`, false, `"blocks" must be an array`},
		{`{"blocks": null}`, false, `"blocks" must be an array`},
		{`{"prompt": []}`, false, `unknown member "prompt"`},
		{`{}`, false, `no "blocks" member`},
		{`"text"`, false, "want a JSON array"},
		{``, false, "empty input"},
		{`[{"kind":"user","content":"x"}] []`, false, "after the JSON value at line 1, column 34 (byte 33)"},
		{`[{"kind":"user","content":"x"`, false, "the JSON ends at line 1, column 30 (byte 29) before"},
		{"[\n {\"kind\":\"user\",\n  \"content\": x}]", false, "invalid character 'x' looking for beginning of value at line 3, column 14 (byte 32)"},
	}
	for _, tc := range cases {
		_, err := DecodeBytes([]byte(tc.doc))
		if (err == nil) != tc.ok {
			t.Errorf("%s: decoder err = %v, want ok=%v", tc.doc, err, tc.ok)
			continue
		}
		if err != nil && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %q, want ErrInvalid containing %q", tc.doc, err, tc.want)
		}
		if !json.Valid([]byte(tc.doc)) {
			continue // not one JSON document: the schema does not apply
		}
		if serr := schemaValid(t, "", []byte(tc.doc)); (serr == nil) != tc.ok {
			t.Errorf("%s: schema verdict %v disagrees with the decoder's (ok=%v)", tc.doc, serr, tc.ok)
		}
	}
	// Duplicate ids: only the decoder can see them.
	_, err := DecodeBytes([]byte(`[{"kind":"user","content":"a"},{"id":"0","kind":"user","content":"b"}]`))
	if err == nil || !strings.Contains(err.Error(), `blocks[1]: id "0" is already the id of blocks[0]`) {
		t.Errorf("duplicate id: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`[]`, `{"blocks":[{"kind":"user","content":"hi"}]}`, `[{"kind":"hint","priority":2,"content":"x","id":"a"}]`, `[{"kind":"tool_result","tool":"t","content":"[1]"}]`, `{"blocks":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 2048 {
			return
		}
		blocks, err := DecodeBytes(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error does not wrap ErrInvalid: %v", err)
			}
			return
		}
		// What the decoder accepts, the schema accepts.
		if serr := schemaValid(t, "", data); serr != nil {
			t.Fatalf("decoder accepted %q (%d blocks), schema rejects: %v", data, len(blocks), serr)
		}
	})
}
