package registry

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/itchyny/gojq"
	"gopkg.in/yaml.v3"
)

// MaxFileSize is the largest registry file Parse accepts.
const MaxFileSize = 4 << 20

// Limits that keep a hostile file from costing much: nesting depth and
// the number of nodes, counting each alias expansion.
const (
	maxDepth = 64
	maxNodes = 200_000
)

//go:embed default.yaml
var defaultYAML []byte

// DefaultFile is the name errors and Entry.Source use for the built-in
// registry.
const DefaultFile = "builtin:registry/default.yaml"

var defaultRegistry = sync.OnceValue(func() *Registry {
	doc, err := parseFile(defaultYAML, DefaultFile, false)
	if err != nil {
		// The built-in registry is validated by the package's tests;
		// reaching this is a build defect, not bad user input.
		panic(fmt.Sprintf("registry: the built-in registry is invalid: %v", err))
	}
	return build("", doc.entries)
})

// Default returns the built-in registry (registry/default.yaml, embedded):
// a "default" entry for unknown tools and entries for common tools. Every
// call returns the same immutable Registry.
func Default() *Registry { return defaultRegistry() }

// Load reads and validates the registry file at path, layered over the
// built-in registry unless the file says "builtin: false". A file that
// cannot be read is an error naming it; every error matches ErrInvalid and
// is an Errors list of *Error.
func Load(path string) (*Registry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Errors{{File: path, Msg: fmt.Sprintf("cannot read registry: %v", unwrapPath(err)), Err: err}}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, Errors{{File: path, Msg: "cannot read registry: is a directory, expected a YAML file"}}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, Errors{{File: path, Msg: fmt.Sprintf("cannot read registry: %v", unwrapPath(err)), Err: err}}
	}
	doc, err := parseFile(data, path, true)
	if err != nil {
		return nil, err
	}
	return layer(path, doc), nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Parse validates data as a registry file named filename (used in errors
// and to resolve relative plugin paths), layered over the built-in
// registry unless it says "builtin: false".
//
// Parse does not touch the file system; Load also checks that every
// plugin file the registry names exists.
func Parse(data []byte, filename string) (*Registry, error) {
	doc, err := parseFile(data, filename, false)
	if err != nil {
		return nil, err
	}
	return layer(filename, doc), nil
}

func layer(filename string, doc *document) *Registry {
	if !doc.builtin {
		return build(filename, doc.entries)
	}
	return over(filename, doc.entries, Default())
}

// document is one parsed file.
type document struct {
	builtin bool
	entries []Entry
}

// loc is where one value of the document sits.
type loc struct {
	key   *yaml.Node // the mapping key, for a member
	val   *yaml.Node
	human string // "tools[2].budget"
}

type parser struct {
	file string
	// checkFiles makes the parser check that plugin files exist.
	checkFiles bool
	locs       map[string]loc // by joinPtr(JSON pointer tokens)
	nodes      int
	errs       Errors
}

func joinPtr(tokens []string) string { return strings.Join(tokens, "\x00") }

func (p *parser) errAt(n *yaml.Node, human, format string, args ...any) {
	e := &Error{File: p.file, Path: human, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	p.errs = append(p.errs, e)
}

func (p *parser) fail() error {
	slices.SortStableFunc(p.errs, func(a, b *Error) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
	return p.errs
}

func parseFile(data []byte, filename string, checkFiles bool) (doc *document, err error) {
	p := &parser{file: filename, checkFiles: checkFiles, locs: make(map[string]loc)}
	defer func() {
		// yaml.v3 is mature, but a panic on hostile input must still be
		// an error naming the file, never a crash.
		if r := recover(); r != nil {
			doc, err = nil, Errors{{File: filename, Msg: fmt.Sprintf("YAML parser failed: %v", r)}}
		}
	}()
	if len(data) > MaxFileSize {
		return nil, Errors{{File: filename, Msg: fmt.Sprintf("registry file is larger than %d bytes", MaxFileSize)}}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if err == io.EOF {
			return nil, Errors{{File: filename, Line: 1, Col: 1, Msg: "empty registry: expected a mapping with \"version: 1\" and \"tools\""}}
		}
		return nil, Errors{p.yamlError(err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, Errors{p.yamlError(err)}
		}
		return nil, Errors{{File: filename, Line: extra.Line, Col: extra.Column,
			Msg: "a registry file holds one YAML document; found a second one (remove the \"---\")"}}
	}
	v := p.value(&root, nil, "", 0)
	if len(p.errs) > 0 {
		return nil, p.fail()
	}
	// The schema checks shapes; the semantic checks (paths, jq, globs,
	// durations, sizes, duplicate names) run on whatever has the right
	// shape, so one run reports every problem.
	p.validateSchema(v)
	doc = p.entries(v)
	if len(p.errs) > 0 {
		return nil, p.fail()
	}
	// Decode into the Go mirror of the schema strictly as well: this
	// catches drift between the schema and the code that reads it.
	var f fileDoc
	sdec := yaml.NewDecoder(bytes.NewReader(data))
	sdec.KnownFields(true)
	if err := sdec.Decode(&f); err != nil {
		return nil, Errors{p.yamlError(err)}
	}
	return doc, nil
}

var yamlLineRE = regexp.MustCompile(`line (\d+): (.*)`)

// yamlError turns a yaml.v3 error, which gives a line but no column, into
// an *Error.
func (p *parser) yamlError(err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &Error{File: p.file, Msg: "invalid YAML: " + msg, Err: err}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = "invalid YAML: " + m[2]
	}
	return e
}

// value converts a YAML node to the JSON value the schema validates,
// recording where each value sits.
func (p *parser) value(n *yaml.Node, ptr []string, human string, depth int) any {
	p.nodes++
	if p.nodes > maxNodes {
		if p.nodes == maxNodes+1 {
			p.errAt(n, human, "document too large: more than %d values (counting alias expansions)", maxNodes)
		}
		return nil
	}
	if depth > maxDepth {
		p.errAt(n, human, "nested deeper than %d levels", maxDepth)
		return nil
	}
	k := joinPtr(ptr)
	if l, ok := p.locs[k]; !ok || l.val == nil {
		l.val, l.human = n, human
		p.locs[k] = l
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return p.value(n.Content[0], ptr, human, depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			p.errAt(n, human, "unknown alias")
			return nil
		}
		return p.value(n.Alias, ptr, human, depth+1)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		first := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			if kn.Kind != yaml.ScalarNode {
				p.errAt(kn, human, "mapping keys must be plain strings")
				continue
			}
			if kn.Tag == "!!merge" {
				p.errAt(kn, human, "merge keys (<<) are not supported; write the keys out")
				continue
			}
			name := kn.Value
			if line, dup := first[name]; dup {
				p.errAt(kn, human, "duplicate key %q (first at line %d)", name, line)
				continue
			}
			first[name] = kn.Line
			cptr := append(slices.Clip(ptr), name)
			ch := name
			if human != "" {
				ch = human + "." + name
			}
			ck := joinPtr(cptr)
			l := p.locs[ck]
			l.key = kn
			p.locs[ck] = l
			m[name] = p.value(vn, cptr, ch, depth+1)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = p.value(c, append(slices.Clip(ptr), strconv.Itoa(i)), fmt.Sprintf("%s[%d]", human, i), depth+1)
		}
		return s
	case yaml.ScalarNode:
		return scalar(n)
	}
	p.errAt(n, human, "unsupported YAML node")
	return nil
}

// scalar converts a resolved YAML scalar to a JSON value. Values JSON
// cannot hold (timestamps, NaN, huge integers) stay strings, so the
// schema reports them with their text.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
	}
	return n.Value
}

// fileDoc and fileEntry mirror the schema; TestSchemaMatchesStructs keeps
// them in step.
type fileDoc struct {
	Version int         `yaml:"version"`
	Builtin *bool       `yaml:"builtin"`
	Tools   []fileEntry `yaml:"tools"`
}

type fileEntry struct {
	Name     string       `yaml:"name"`
	Records  []string     `yaml:"records,omitempty"`
	Keep     []string     `yaml:"keep,omitempty"`
	Drop     []string     `yaml:"drop,omitempty"`
	Strings  *fileStrings `yaml:"strings,omitempty"`
	Format   string       `yaml:"format,omitempty"`
	Budget   int          `yaml:"budget,omitempty"`
	Plugin   *filePlugin  `yaml:"plugin,omitempty"`
	Pin      string       `yaml:"pin,omitempty"`
	Identity []string     `yaml:"identity,omitempty"`
	Index    []string     `yaml:"index,omitempty"`
	Sort     []string     `yaml:"sort,omitempty"`
	Store    string       `yaml:"store,omitempty"`
	Defaults *bool        `yaml:"defaults,omitempty"`
}

type fileStrings struct {
	Max int `yaml:"max"`
}

type filePlugin struct {
	Path    string            `yaml:"path"`
	Timeout string            `yaml:"timeout,omitempty"`
	Memory  any               `yaml:"memory,omitempty"`
	Config  map[string]string `yaml:"config,omitempty"`
}

// at returns the location of the value at the JSON pointer tokens.
func (p *parser) at(tokens ...any) loc {
	s := make([]string, len(tokens))
	for i, t := range tokens {
		s[i] = fmt.Sprint(t)
	}
	return p.locs[joinPtr(s)]
}

var builtinNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

func strList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// entries builds the entries from the decoded document, applying the
// checks the schema cannot express and the defaults. Values of the wrong
// type were reported by the schema and are skipped here.
func (p *parser) entries(v any) *document {
	root, _ := v.(map[string]any)
	doc := &document{builtin: true}
	if b, ok := root["builtin"].(bool); ok {
		doc.builtin = b
	}
	tools, _ := root["tools"].([]any)
	seen := make(map[string]int)
	for i, t := range tools {
		m, ok := t.(map[string]any)
		if !ok {
			continue
		}
		l := p.at("tools", i)
		nl := p.at("tools", i, "name")
		e := Entry{Format: DefaultFormat, Store: DefaultStore, Defaults: true}
		e.Name, _ = m["name"].(string)
		e.Records, e.Keep, e.Drop = strList(m["records"]), strList(m["keep"]), strList(m["drop"])
		e.Identity = strList(m["identity"])
		e.Index, e.Sort = strList(m["index"]), strList(m["sort"])
		if s, ok := m["format"].(string); ok {
			e.Format = s
		}
		if s, ok := m["store"].(string); ok {
			e.Store = s
		}
		if b, ok := m["defaults"].(bool); ok {
			e.Defaults = b
		}
		if n, ok := m["budget"].(int64); ok && n <= math.MaxInt32 {
			e.Budget = int(n)
		}
		if sm, ok := m["strings"].(map[string]any); ok {
			if n, ok := sm["max"].(int64); ok && n <= math.MaxInt32 {
				e.Strings.Max = int(n)
			}
		}
		if l.val != nil {
			e.Source = Position{File: p.file, Line: l.val.Line, Col: l.val.Column}
		}
		if e.Name != "" {
			if line, dup := seen[e.Name]; dup {
				p.errAt(nl.val, nl.human, "duplicate entry name %q (first defined at line %d); each tool name or glob appears once", e.Name, line)
			} else if nl.val != nil {
				seen[e.Name] = nl.val.Line
			}
			if isGlob(e.Name) {
				if _, err := filepathMatch(e.Name); err != nil {
					p.errAt(nl.val, nl.human, "bad glob %q: %v (path.Match syntax: * ? [abc] [a-z], \\ escapes)", e.Name, err)
				}
			}
		}
		for j, r := range e.Records {
			rl := p.at("tools", i, "records", j)
			if !strings.HasPrefix(r, ".") {
				continue // the schema said so
			}
			if _, err := ParseRecordPath(r); err != nil {
				p.errAt(rl.val, rl.human, "bad record path: %v", err)
			} else if _, err := gojq.Parse(r); err != nil {
				p.errAt(rl.val, rl.human, "bad record path %q: not a jq path: %v", r, err)
			}
		}
		for _, key := range []string{"keep", "drop", "identity", "index"} {
			for j, fp := range strList(m[key]) {
				pl := p.at("tools", i, key, j)
				if _, err := ParsePath(fp); err != nil && fp != "" {
					p.errAt(pl.val, pl.human, "bad field path: %v", err)
				}
			}
		}
		for _, key := range []string{"index", "sort"} {
			for j, fp := range strList(m[key]) {
				fp, _ = SortKey(fp)
				if pp, err := ParsePath(fp); err == nil && pp.wildcard() {
					pl := p.at("tools", i, key, j)
					p.errAt(pl.val, pl.human, "field path %q of tool %q has a wildcard: %s names one field of a record, exactly", fp, e.Name, key)
				}
			}
		}
		for j, sk := range e.Sort {
			pl := p.at("tools", i, "sort", j)
			path, desc := SortKey(sk)
			if _, err := ParsePath(path); err != nil && sk != "" {
				p.errAt(pl.val, pl.human, "bad sort key of tool %q: %v (a field path, with a leading \"-\" for the largest first)", e.Name, err)
			} else if _, first := SortKey(e.Sort[0]); j > 0 && desc != first {
				p.errAt(pl.val, pl.human, "sort key %q of tool %q goes the other way than %q: every key of one entry sorts the same way (all with \"-\" or none)", sk, e.Name, e.Sort[0])
			}
		}
		for j, d := range e.Drop {
			if slices.Contains(e.Keep, d) && !slices.Contains(e.Drop[:j], d) {
				pl := p.at("tools", i, "drop", j)
				p.errAt(pl.val, pl.human, "field path %q is both kept and dropped; remove it from one list", d)
			}
		}
		if pin, ok := m["pin"].(string); ok && pin != "" {
			e.Pin = pin
			pl := p.at("tools", i, "pin")
			if err := checkJQ(pin); err != nil {
				p.errAt(pl.val, pl.human, "bad jq predicate %q: %v", pin, err)
			}
		}
		if pm, ok := m["plugin"].(map[string]any); ok {
			e.Plugin = p.plugin(pm, i, e.Name)
		}
		doc.entries = append(doc.entries, e)
	}
	return doc
}

// filepathMatch validates a glob: path.Match checks the whole pattern's
// syntax even when the name does not match.
func filepathMatch(glob string) (bool, error) {
	return path.Match(glob, "")
}

func checkJQ(src string) error {
	q, err := gojq.Parse(src)
	if err != nil {
		var pe *gojq.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%w (after %d bytes)", err, pe.Offset)
		}
		return err
	}
	if _, err := gojq.Compile(q); err != nil {
		return err
	}
	return nil
}

func (p *parser) plugin(pm map[string]any, i int, entry string) *Plugin {
	pl := &Plugin{Timeout: DefaultPluginTimeout}
	pl.Path, _ = pm["path"].(string)
	if cm, ok := pm["config"].(map[string]any); ok {
		pl.Config = make(map[string]string, len(cm))
		for k, v := range cm {
			if s, ok := v.(string); ok {
				pl.Config[k] = s
			}
		}
	}
	if name, ok := strings.CutPrefix(pl.Path, "builtin:"); ok {
		if !builtinNameRE.MatchString(name) {
			l := p.at("tools", i, "plugin", "path")
			p.errAt(l.val, l.human, "bad built-in plugin %q: expected builtin:NAME with NAME in [a-z0-9_-]", pl.Path)
		}
	} else if pl.Path != "" {
		if !filepath.IsAbs(pl.Path) && p.file != "" && !strings.HasPrefix(p.file, "builtin:") {
			pl.Path = filepath.Join(filepath.Dir(p.file), pl.Path)
		}
		if p.checkFiles {
			l := p.at("tools", i, "plugin", "path")
			if st, err := os.Stat(pl.Path); err != nil {
				p.errAt(l.val, l.human, "entry %q: plugin file %s: %v", entry, pl.Path, unwrapPath(err))
			} else if st.IsDir() {
				p.errAt(l.val, l.human, "entry %q: plugin file %s is a directory, expected a .wasm file", entry, pl.Path)
			}
		}
	}
	if ts, ok := pm["timeout"].(string); ok {
		l := p.at("tools", i, "plugin", "timeout")
		d, err := time.ParseDuration(ts)
		switch {
		case err != nil:
			// The schema's pattern reported it.
		case d <= 0:
			p.errAt(l.val, l.human, "timeout must be positive, got %q", ts)
		default:
			pl.Timeout = d
		}
	}
	if mem, ok := pm["memory"]; ok {
		switch mem.(type) {
		case string, int64:
			l := p.at("tools", i, "plugin", "memory")
			n, err := ParseSize(fmt.Sprint(mem))
			if err == nil {
				pl.Memory = n
			} else if s, isStr := mem.(string); !isStr || sizeRE.MatchString(s) {
				p.errAt(l.val, l.human, "%v", err) // otherwise the schema's pattern reported it
			}
		}
	}
	return pl
}

// MaxMemory is the largest plugin memory limit: the 4 GiB address space of
// 32-bit WebAssembly.
const MaxMemory = 4 << 30

var sizeRE = regexp.MustCompile(`^([0-9]+) ?(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)?$`)

var sizeUnits = map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
	"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}

// ParseBytes parses a byte size: a count of bytes, or a number followed
// (optionally after one space) by B, KiB, MiB, GiB, TiB (powers of 1024)
// or KB, MB, GB, TB (powers of 1000): "64MiB", "10MB", "1048576". It is
// the one size parser of compact: every size in a registry, a config file
// or a command-line flag reads through it. Zero is a valid size (what it
// means is the caller's); a negative number is not a size.
func ParseBytes(s string) (int64, error) {
	m := sizeRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("bad size %q: expected a size such as 64MiB, 10MB or a byte count", s)
	}
	mult := sizeUnits[m[2]]
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * mult, nil
}

// ParseSize parses a plugin memory size with ParseBytes, between 1 byte
// and MaxMemory.
func ParseSize(s string) (int64, error) {
	n, err := ParseBytes(s)
	if err != nil {
		return 0, err
	}
	if n > MaxMemory {
		return 0, fmt.Errorf("size %q is larger than the 4GiB a 32-bit WebAssembly instance can address", s)
	}
	if n == 0 {
		return 0, fmt.Errorf("size %q must be at least 1 byte", s)
	}
	return n, nil
}

// FormatSize renders a byte count the way ParseSize reads it, in the
// largest binary unit that divides it.
func FormatSize(n int64) string {
	switch {
	case n > 0 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n > 0 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n > 0 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10)
}
