package registry

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"

	"github.com/toolcompact/compact/schemas"
)

type compiled struct {
	schema *jsonschema.Schema
	doc    any // the schema document, to read property names for messages
}

var registrySchema = sync.OnceValues(func() (*compiled, error) {
	b, err := schemas.File(schemas.RegistrySchemaFile)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("registry schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.RegistrySchemaID, doc); err != nil {
		return nil, fmt.Errorf("registry schema: %w", err)
	}
	sch, err := c.Compile(schemas.RegistrySchemaID)
	if err != nil {
		return nil, fmt.Errorf("registry schema: %w", err)
	}
	return &compiled{schema: sch, doc: doc}, nil
})

var printer = message.NewPrinter(language.English)

// validateSchema validates v against the registry schema and records one
// positioned error per failed leaf.
func (p *parser) validateSchema(v any) {
	c, err := registrySchema()
	if err != nil {
		p.errs = append(p.errs, &Error{File: p.file, Msg: err.Error(), Err: err})
		return
	}
	err = c.schema.Validate(v)
	if err == nil {
		return
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		p.errs = append(p.errs, &Error{File: p.file, Msg: err.Error(), Err: err})
		return
	}
	var leaves []*jsonschema.ValidationError
	collectLeaves(ve, &leaves)
	seen := make(map[string]bool)
	for _, l := range leaves {
		for _, e := range p.schemaError(c, l) {
			if k := e.Error(); !seen[k] {
				seen[k] = true
				p.errs = append(p.errs, e)
			}
		}
	}
}

func collectLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, out)
	}
}

// schemaError turns one failed schema leaf into positioned errors that say
// what was expected.
func (p *parser) schemaError(c *compiled, ve *jsonschema.ValidationError) []*Error {
	l := p.locs[joinPtr(ve.InstanceLocation)]
	mk := func(n *yaml.Node, msg string) *Error {
		e := &Error{File: p.file, Path: l.human, Msg: msg, Err: ve}
		if n != nil {
			e.Line, e.Col = n.Line, n.Column
		}
		return e
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		allowed := c.properties(ve.SchemaURL)
		var out []*Error
		for _, name := range k.Properties {
			kl := p.locs[joinPtr(append(slices.Clip(ve.InstanceLocation), name))]
			msg := fmt.Sprintf("unknown key %q", name)
			if s := closest(name, allowed); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			if len(allowed) > 0 {
				msg += "; expected one of: " + strings.Join(allowed, ", ")
			}
			var n *yaml.Node = kl.key
			if kl.key == nil {
				n = l.val
			}
			out = append(out, mk(n, msg))
		}
		return out
	case *kind.Required:
		var out []*Error
		for _, m := range k.Missing {
			out = append(out, mk(l.val, fmt.Sprintf("missing required key %q", m)))
		}
		return out
	case *kind.Type:
		return []*Error{mk(l.val, fmt.Sprintf("expected %s, got %s%s", strings.Join(k.Want, " or "), k.Got, snippet(l.val)))}
	case *kind.Const:
		return []*Error{mk(l.val, fmt.Sprintf("expected %v, got %s", k.Want, valueText(l.val, k.Got)))}
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		return []*Error{mk(l.val, fmt.Sprintf("expected one of %s, got %s", strings.Join(want, ", "), valueText(l.val, k.Got)))}
	case *kind.Pattern:
		return []*Error{mk(l.val, patternMessage(ve.SchemaURL, k.Got))}
	case *kind.MinLength:
		if k.Want == 1 {
			return []*Error{mk(l.val, "must not be empty")}
		}
	case *kind.Minimum:
		return []*Error{mk(l.val, fmt.Sprintf("expected at least %s, got %s", k.Want.RatString(), k.Got.RatString()))}
	case *kind.UniqueItems:
		dl := p.locs[joinPtr(append(slices.Clip(ve.InstanceLocation), fmt.Sprint(k.Duplicates[1])))]
		e := mk(dl.val, fmt.Sprintf("duplicate item%s (same as item %d)", snippet(dl.val), k.Duplicates[0]))
		e.Path = dl.human
		return []*Error{e}
	}
	return []*Error{mk(l.val, ve.ErrorKind.LocalizedString(printer))}
}

func patternMessage(schemaURL, got string) string {
	switch {
	case strings.HasSuffix(schemaURL, "/timeout"):
		return fmt.Sprintf("bad duration %q: expected a Go duration such as 250ms, 2s or 1m30s", got)
	case strings.HasSuffix(schemaURL, "/memory"):
		return fmt.Sprintf("bad size %q: expected a size such as 64MiB, 512KiB or 1GiB", got)
	case strings.HasSuffix(schemaURL, "/recordPath"):
		return fmt.Sprintf("bad record path %q: expected a jq path starting with \".\", such as \".\" or \".items\"", got)
	}
	return fmt.Sprintf("%q does not match the expected form", got)
}

func snippet(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	return fmt.Sprintf(" %q", v)
}

func valueText(n *yaml.Node, v any) string {
	if n != nil && n.Kind == yaml.ScalarNode {
		if n.ShortTag() == "!!str" {
			return fmt.Sprintf("%q", n.Value)
		}
		return n.Value
	}
	return fmt.Sprintf("%v", v)
}

// properties returns the sorted property names of the schema object at
// schemaURL's fragment.
func (c *compiled) properties(schemaURL string) []string {
	_, frag, _ := strings.Cut(schemaURL, "#")
	var cur any = c.doc
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")]
	}
	m, _ := cur.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// closest returns the allowed name nearest to name, if it is near enough
// to be a likely typo.
func closest(name string, allowed []string) string {
	best, bestD := "", 3 // at most two edits
	for _, a := range allowed {
		if d := distance(strings.ToLower(name), a); d < bestD && d <= len(a)/2 {
			best, bestD = a, d
		}
	}
	return best
}

// distance is the Levenshtein distance of a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
