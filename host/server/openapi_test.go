package server

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// TestOpenAPIStrict parses openapi.yaml and refuses what YAML accepts but
// an OpenAPI document never means: a key without a value (in a flow
// mapping, an unquoted comma in a description silently made one:
// `{ description: The reference queried, in canonical form. }` is the key
// "in canonical form." with a null value), and a key given twice.
func TestOpenAPIStrict(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "schemas", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if errs := strictYAML(data); len(errs) > 0 {
		for _, e := range errs {
			t.Error("openapi.yaml:" + e)
		}
	}
	// The check catches the old document's mistake.
	old := []byte("components:\n  schemas:\n    A:\n      properties:\n        ref: { type: string, description: The reference queried, in canonical form. }\n")
	if errs := strictYAML(old); len(errs) != 1 || !strings.Contains(errs[0], `5:66: key "in canonical form." has no value`) {
		t.Errorf("strictYAML on the old line: %q", errs)
	}
}

// strictYAML lists the keys without a value and the duplicate keys of a
// YAML document, as "line:col: what".
func strictYAML(data []byte) []string {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return []string{err.Error()}
	}
	var errs []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			seen := map[string]bool{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if seen[k.Value] {
					errs = append(errs, fmt.Sprintf("%d:%d: key %q given twice", k.Line, k.Column, k.Value))
				}
				seen[k.Value] = true
				if v.Kind == yaml.ScalarNode && v.Tag == "!!null" && v.Value == "" {
					errs = append(errs, fmt.Sprintf("%d:%d: key %q has no value", k.Line, k.Column, k.Value))
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
	return errs
}

// TestOpenAPILint runs the pinned @redocly/cli (schemas/package.json,
// installed by .ci/run's npm ci) on openapi.yaml with schemas/redocly.yaml:
// no error and no warning. It skips where the linter is not installed,
// except under CI=1.
func TestOpenAPILint(t *testing.T) {
	dir := filepath.Join("..", "..", "schemas")
	bin := filepath.Join(dir, "node_modules", ".bin", "redocly")
	if _, err := os.Stat(bin); err != nil {
		msg := "the OpenAPI linter is not installed (cd schemas && npm ci)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cmd := exec.Command(filepath.Join("node_modules", ".bin", "redocly"), "lint", "--format=stylish", "openapi.yaml")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("redocly lint: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Your API description is valid") || regexp.MustCompile(`You have \d+ warning`).Match(out) {
		t.Errorf("redocly lint is not clean:\n%s", out)
	}
}
