package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestOpenAPIMatchesRoutes checks that every route the server answers is
// in schemas/openapi.yaml and that the document describes no route the
// server does not answer.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "schemas", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string                          `yaml:"openapi"`
		Paths   map[string]map[string]yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Errorf("openapi version %q, want 3.1.x", doc.OpenAPI)
	}
	methods := []string{"get", "put", "post", "delete", "patch", "head", "options", "trace"}
	var documented []string
	for path, ops := range doc.Paths {
		for m := range ops {
			if slices.Contains(methods, m) {
				documented = append(documented, strings.ToUpper(m)+" "+path)
			}
		}
	}
	var served []string
	for _, r := range Routes() {
		served = append(served, r.Method+" "+r.Path)
	}
	slices.Sort(documented)
	slices.Sort(served)
	for _, r := range served {
		if !slices.Contains(documented, r) {
			t.Errorf("route %s is served but not in schemas/openapi.yaml", r)
		}
	}
	for _, r := range documented {
		if !slices.Contains(served, r) {
			t.Errorf("route %s is in schemas/openapi.yaml but not served", r)
		}
	}
	if len(served) < 5 {
		t.Errorf("only %d routes served: %v", len(served), served)
	}
}

// TestOpenAPIRefsResolve checks that every $ref of the document points at
// something: "#/..." inside it, "file.json#/..." in schemas/.
func TestOpenAPIRefsResolve(t *testing.T) {
	dir := filepath.Join("..", "..", "schemas")
	data, err := os.ReadFile(filepath.Join(dir, "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	docs := map[string]any{"": doc}
	var refs []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == "$ref" {
					refs = append(refs, s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	if len(refs) < 10 {
		t.Fatalf("only %d refs found", len(refs))
	}
	for _, ref := range refs {
		file, frag, _ := strings.Cut(ref, "#")
		root, ok := docs[file]
		if !ok {
			b, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Errorf("$ref %s: %v", ref, err)
				continue
			}
			if err := yaml.Unmarshal(b, &root); err != nil { // JSON is YAML
				t.Errorf("$ref %s: %v", ref, err)
				continue
			}
			docs[file] = root
		}
		cur := root
		for _, step := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
			m, ok := cur.(map[string]any)
			if !ok {
				cur = nil
				break
			}
			cur = m[step]
		}
		if cur == nil {
			t.Errorf("$ref %s resolves to nothing", ref)
		}
	}
}
