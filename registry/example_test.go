package registry_test

import (
	"fmt"

	"github.com/toolcompact/compact/registry"
)

func ExampleParse() {
	src := `# yaml-language-server: $schema=../schemas/registry.schema.json
version: 1
tools:
  - name: "github.*"
    keep: [number, title, state, "labels[].name"]
    budget: 2000
`
	r, err := registry.Parse([]byte(src), "compact.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	e, how := r.Resolve("github.list_issues")
	fmt.Println(e.Name, how, e.Keep, e.Budget, e.Format, e.Defaults)
	// Output: github.* glob [number title state labels[].name] 2000 auto true
}

func ExampleParse_errors() {
	src := `version: 1
tools:
  - name: kubectl.get_pods
    kepe: [metadata.name]
    budget: lots
`
	_, err := registry.Parse([]byte(src), "compact.yaml")
	fmt.Println(err)
	// Output:
	// compact.yaml:4:5: tools[0]: unknown key "kepe" (did you mean "keep"?); expected one of: budget, defaults, drop, format, identity, index, keep, name, pin, plugin, records, sort, store, strings
	// compact.yaml:5:13: tools[0].budget: expected integer, got string "lots"
}

func ExampleRegistry_Lookup() {
	r := registry.Default()
	for _, tool := range []string{"npm.view", "github.list_pulls", "my.own_tool"} {
		e, how := r.Resolve(tool)
		fmt.Printf("%s -> %s (%s)\n", tool, e.Name, how)
	}
	// Output:
	// npm.view -> npm.view (exact)
	// github.list_pulls -> github.* (glob)
	// my.own_tool -> default (default)
}

func ExampleParsePath() {
	p, err := registry.ParsePath("labels[].name")
	fmt.Printf("%+v %v\n", p, err)
	p, _ = registry.ParsePath(`.items[]."odd.key"`)
	fmt.Println(p.Anchored, len(p.Steps), p.Steps[1].Key, registry.FormatPath(p))
	// Output:
	// {Anchored:false Steps:[{Key:labels Wildcard:false Arrays:1} {Key:name Wildcard:false Arrays:0}]} <nil>
	// true 2 odd.key .items[]."odd.key"
}
