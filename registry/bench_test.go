package registry

import (
	"fmt"
	"testing"

	"gopkg.in/yaml.v3"
)

// BenchmarkParse measures loading the built-in registry (decode, schema
// validation, jq compilation, path checks) against the baseline of a bare
// yaml.Unmarshal of the same bytes into any.
func BenchmarkParse(b *testing.B) {
	b.Run("baseline=yaml.Unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(defaultYAML)))
		for i := 0; i < b.N; i++ {
			var v any
			if err := yaml.Unmarshal(defaultYAML, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(len(defaultYAML)))
		for i := 0; i < b.N; i++ {
			if _, err := parseFile(defaultYAML, DefaultFile, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLookup measures resolving a tool name (exact, glob, default)
// against the baseline of a plain map access.
func BenchmarkLookup(b *testing.B) {
	r := Default()
	m := make(map[string]Entry)
	for _, e := range r.Entries() {
		m[e.Name] = e
	}
	tools := []string{"npm.view", "github.list_issues", "never.seen"}
	b.Run("baseline=map", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = m[tools[i%len(tools)]]
		}
	})
	for _, tool := range tools {
		b.Run(fmt.Sprintf("Lookup/%s", tool), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = r.Lookup(tool)
			}
		})
	}
}
