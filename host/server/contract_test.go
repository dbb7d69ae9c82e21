package server_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

var contract struct {
	once sync.Once
	c    *jsonschema.Compiler
	err  error
	mu   sync.Mutex
	s    map[string]*jsonschema.Schema
}

// conforms checks that body is valid against a schema of
// schemas/openapi.yaml's components (such as "Result"), resolving its
// references into the other files of schemas/.
func conforms(t testing.TB, component string, body []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: response is not JSON: %v", component, err)
	}
	if err := schemaFor(t, component).Validate(v); err != nil {
		t.Errorf("response does not match openapi.yaml %s: %v\n%.300s", component, err, body)
	}
}

// TestContractRejects makes sure the contract check can fail.
func TestContractRejects(t *testing.T) {
	for _, c := range []struct{ component, body string }{
		{"Result", `{"content":"x"}`},
		{"Result", `{"content":"x","level":"bogus","tokens":{"before":1,"after":1,"budget":1,"encoding":"o"},"collections":[],"artifact":null,"actions":[]}`},
		{"Error", `{"error":{"code":"nope","message":"m"}}`},
		{"Answer", `{"ref":"x"}`},
	} {
		v, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(c.body)))
		if schemaFor(t, c.component).Validate(v) == nil {
			t.Errorf("%s accepted %s", c.component, c.body)
		}
	}
}

func schemaFor(t testing.TB, component string) *jsonschema.Schema {
	t.Helper()
	const base = "https://github.com/toolcompact/compact/schemas/"
	contract.once.Do(func() {
		dir := filepath.Join("..", "..", "schemas")
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		y, err := os.ReadFile(filepath.Join(dir, "openapi.yaml"))
		if err != nil {
			contract.err = err
			return
		}
		var doc any
		if err := yaml.Unmarshal(y, &doc); err != nil {
			contract.err = err
			return
		}
		// Through JSON, so that the values have the types the validator
		// expects.
		j, _ := json.Marshal(doc)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			contract.err = err
			return
		}
		if err := c.AddResource(base+"openapi.yaml", v); err != nil {
			contract.err = err
			return
		}
		for _, f := range []string{"context.schema.json"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				contract.err = err
				return
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				contract.err = err
				return
			}
			if err := c.AddResource(base+f, v); err != nil {
				contract.err = err
				return
			}
		}
		contract.c = c
		contract.s = map[string]*jsonschema.Schema{}
	})
	if contract.err != nil {
		t.Fatalf("openapi.yaml: %v", contract.err)
	}
	contract.mu.Lock()
	s, ok := contract.s[component]
	if !ok {
		var err error
		loc := base + "openapi.yaml#/components/schemas/" + component
		if strings.Contains(component, "#") { // a schema of another file
			loc = base + component
		}
		s, err = contract.c.Compile(loc)
		if err != nil {
			contract.mu.Unlock()
			t.Fatalf("compiling %s: %v", component, err)
		}
		contract.s[component] = s
	}
	contract.mu.Unlock()
	return s
}
