// Package registry loads the YAML field registry: one entry per tool
// saying which fields carry meaning, where its records are, how strings
// are shortened, its token budget, its plugin and the rows that must stay
// visible.
//
// Decoding is strict. The JSON Schema schemas/registry.schema.json is the
// single source of truth for the file's shape: the decoded YAML is
// validated against it and every error is mapped back to the file:line:col
// of the YAML node at fault. Checks the schema cannot express (field path
// syntax, jq predicates, globs, durations, sizes, duplicate names) follow
// and report positions the same way. Every error matches ErrInvalid.
//
// A tool's entry is found by exact name, then by glob ("github.*", with
// path.Match syntax; the glob with the most literal characters wins, then
// the earlier entry), then the entry named "default". A user registry is
// layered over the built-in one (Default): a user entry replaces the
// built-in entry of the same name, and user entries come first among
// equally specific globs. A registry with "builtin: false" stands alone.
package registry

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults of optional entry keys: the one place they are set.
const (
	// DefaultFormat is an entry's format when the file sets none.
	DefaultFormat = "auto"
	// DefaultStore is an entry's store mode when the file sets none.
	DefaultStore = "fallback"
	// DefaultPluginTimeout is a plugin's per-call deadline when the file
	// sets none.
	DefaultPluginTimeout = 250 * time.Millisecond
	// DefaultName is the name of the entry used for tools that no other
	// entry matches.
	DefaultName = "default"
)

// Registry is a loaded, validated field registry, possibly layered over
// the built-in one. It is immutable and safe for concurrent use.
type Registry struct {
	entries []Entry // matching order: this layer's, then the base's not replaced
	exact   map[string]int
	globs   []int // indexes of glob entries, most specific first
	file    string
}

// Entry is the registry entry of one tool (or a glob of tools), with every
// default applied.
type Entry struct {
	// Name is the tool name, glob or "default" the entry was written for.
	Name string
	// Records are jq paths of the record collections (see
	// ParseRecordPath); empty means detect them.
	Records []string
	// Keep and Drop are field paths (see ParsePath).
	Keep []string
	Drop []string
	// Strings configures the shortening of long strings.
	Strings Strings
	// Format is "json", "table" or "auto" (the default).
	Format string
	// Budget is the tool's token budget; 0 means the caller's.
	Budget int
	// Plugin is the tool's WebAssembly plugin, or nil.
	Plugin *Plugin
	// Pin is a jq predicate (validated at load) selecting records that
	// must stay visible; "" for none.
	Pin string
	// Identity are field paths (see ParsePath) that name a record, the
	// first one present wins; empty means detect it.
	Identity []string
	// Index are field paths (see ParsePath) the artifact level's index
	// of a collection shows after each record's identity, in order;
	// empty means the view picks them.
	Index []string
	// Sort are the keys the index lists the records by: field paths,
	// each with a leading "-" when the largest come first (SortKey
	// splits one); all go the same way. Empty means the records' own
	// order (a map's: by key).
	Sort []string
	// Store is "fallback" (the default) or "always".
	Store string
	// Defaults turns on the built-in cleanups; true unless the file says
	// "defaults: false".
	Defaults bool
	// Source is where the entry was defined.
	Source Position
}

// Position locates a definition in a registry file.
type Position struct {
	File string
	Line int
	Col  int
}

// String writes the position as file:line:col, or the file alone when
// the line is unknown.
func (p Position) String() string {
	if p.Line == 0 {
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Strings configures the shortening of long strings.
type Strings struct {
	// Max is the longest string, in characters, kept whole; 0 keeps all.
	Max int
}

// Plugin configures a tool's WebAssembly compactResult plugin.
type Plugin struct {
	// Path is "builtin:NAME" for a first-party plugin, or the .wasm file,
	// resolved against the registry file's directory when relative.
	Path string
	// Timeout is the deadline of one call (DefaultPluginTimeout unless
	// set).
	Timeout time.Duration
	// Memory is the instance memory limit in bytes; 0 means the host's
	// default.
	Memory int64
	// Config holds the plugin's string settings.
	Config map[string]string
}

// MatchKind says how Resolve found an entry.
type MatchKind string

// The ways an entry can match a tool.
const (
	MatchExact    MatchKind = "exact"    // the entry's name is the tool name
	MatchGlob     MatchKind = "glob"     // the entry's name is a glob matching the tool name
	MatchDefault  MatchKind = "default"  // the entry named "default"
	MatchFallback MatchKind = "fallback" // no entry at all: FallbackEntry
)

// FallbackEntry is the entry of a tool when a registry has no entry for it
// and no "default" entry (only possible with "builtin: false").
func FallbackEntry() Entry {
	return Entry{Name: DefaultName, Format: DefaultFormat, Store: DefaultStore, Defaults: true}
}

// Lookup returns the entry for tool: exact name, then globs, then
// "default".
func (r *Registry) Lookup(tool string) Entry {
	e, _ := r.Resolve(tool)
	return e
}

// Resolve is Lookup that also says how the entry matched.
func (r *Registry) Resolve(tool string) (Entry, MatchKind) {
	if r == nil {
		return FallbackEntry(), MatchFallback
	}
	if i, ok := r.exact[tool]; ok {
		return r.entries[i].clone(), MatchExact
	}
	for _, i := range r.globs {
		if ok, _ := path.Match(r.entries[i].Name, tool); ok {
			return r.entries[i].clone(), MatchGlob
		}
	}
	if i, ok := r.exact[DefaultName]; ok {
		return r.entries[i].clone(), MatchDefault
	}
	return FallbackEntry(), MatchFallback
}

// Entries returns every entry in matching order: the file's entries in
// file order, then the built-in entries it did not replace.
func (r *Registry) Entries() []Entry {
	if r == nil {
		return nil
	}
	out := make([]Entry, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.clone()
	}
	return out
}

// File is the file the registry was loaded from ("" for the built-in one
// alone).
func (r *Registry) File() string {
	if r == nil {
		return ""
	}
	return r.file
}

func (e Entry) clone() Entry {
	e.Records = append([]string(nil), e.Records...)
	e.Keep = append([]string(nil), e.Keep...)
	e.Drop = append([]string(nil), e.Drop...)
	e.Identity = append([]string(nil), e.Identity...)
	e.Index = append([]string(nil), e.Index...)
	e.Sort = append([]string(nil), e.Sort...)
	if e.Plugin != nil {
		p := *e.Plugin
		if p.Config != nil {
			m := make(map[string]string, len(p.Config))
			for k, v := range p.Config {
				m[k] = v
			}
			p.Config = m
		}
		e.Plugin = &p
	}
	return e
}

// isGlob reports whether name uses path.Match metacharacters.
func isGlob(name string) bool { return strings.ContainsAny(name, `*?[\`) }

// specificity is the number of literal characters of a glob: the more, the
// more specific.
func specificity(glob string) int {
	n := 0
	for i := 0; i < len(glob); i++ {
		switch glob[i] {
		case '*', '?':
		case '\\':
			i++
			n++
		case '[':
			for i < len(glob) && glob[i] != ']' {
				i++
			}
		default:
			n++
		}
	}
	return n
}

// build indexes entries (already in matching order).
func build(file string, entries []Entry) *Registry {
	r := &Registry{entries: entries, exact: make(map[string]int), file: file}
	for i, e := range entries {
		if isGlob(e.Name) {
			r.globs = append(r.globs, i)
		} else if _, dup := r.exact[e.Name]; !dup {
			r.exact[e.Name] = i
		}
	}
	// Stable: equal specificity keeps matching order (user first, then
	// file order).
	slices.SortStableFunc(r.globs, func(a, b int) int {
		return specificity(entries[b].Name) - specificity(entries[a].Name)
	})
	return r
}

// over layers r's entries over base: same-name base entries are replaced.
func over(file string, mine []Entry, base *Registry) *Registry {
	names := make(map[string]bool, len(mine))
	all := append([]Entry(nil), mine...)
	for _, e := range mine {
		names[e.Name] = true
	}
	if base != nil {
		for _, e := range base.entries {
			if !names[e.Name] {
				all = append(all, e.clone())
			}
		}
	}
	return build(file, all)
}

// MarshalYAML renders the entry as registry YAML with every default
// spelled out, so "compact registry show" prints what a tool really gets
// and its output is a valid entry.
func (e Entry) MarshalYAML() (any, error) {
	out := shownEntry{
		Name: e.Name, Records: e.Records, Keep: e.Keep, Drop: e.Drop,
		Format: e.Format, Budget: e.Budget, Pin: e.Pin, Identity: e.Identity, Index: e.Index, Sort: e.Sort, Store: e.Store, Defaults: e.Defaults,
	}
	if e.Strings.Max > 0 {
		out.Strings = &fileStrings{Max: e.Strings.Max}
	}
	if p := e.Plugin; p != nil {
		fp := &filePlugin{Path: p.Path, Timeout: p.Timeout.String(), Config: p.Config}
		if p.Memory > 0 {
			fp.Memory = FormatSize(p.Memory)
		}
		out.Plugin = fp
	}
	return out, nil
}

type shownEntry struct {
	Name     string       `yaml:"name"`
	Records  []string     `yaml:"records,omitempty,flow"`
	Keep     []string     `yaml:"keep,omitempty,flow"`
	Drop     []string     `yaml:"drop,omitempty,flow"`
	Strings  *fileStrings `yaml:"strings,omitempty,flow"`
	Format   string       `yaml:"format"`
	Budget   int          `yaml:"budget,omitempty"`
	Plugin   *filePlugin  `yaml:"plugin,omitempty"`
	Pin      string       `yaml:"pin,omitempty"`
	Identity []string     `yaml:"identity,omitempty,flow"`
	Index    []string     `yaml:"index,omitempty,flow"`
	Sort     []string     `yaml:"sort,omitempty,flow"`
	Store    string       `yaml:"store"`
	Defaults bool         `yaml:"defaults"`
}
