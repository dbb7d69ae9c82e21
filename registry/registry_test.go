package registry

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func mustParse(t *testing.T, src string) *Registry {
	t.Helper()
	r, err := Parse([]byte(src), "t.yaml")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return r
}

func TestDefaultRegistry(t *testing.T) {
	r := Default()
	e, how := r.Resolve("some.unknown_tool")
	if how != MatchDefault || e.Name != "default" || !e.Defaults {
		t.Fatalf("unknown tool got %q (%s, defaults=%v), want the default entry", e.Name, how, e.Defaults)
	}
	for _, e := range r.Entries() {
		if e.Source.File != DefaultFile || e.Source.Line == 0 {
			t.Errorf("entry %q has no source: %+v", e.Name, e.Source)
		}
		if e.Plugin != nil && !strings.HasPrefix(e.Plugin.Path, "builtin:") {
			t.Errorf("built-in entry %q uses a non-builtin plugin %q", e.Name, e.Plugin.Path)
		}
	}
	if e, how := r.Resolve("github.list_issues"); how != MatchGlob || e.Name != "github.*" || e.Plugin == nil || e.Plugin.Path != "builtin:restlist" {
		t.Errorf("github.list_issues got %q (%s) plugin %+v", e.Name, how, e.Plugin)
	}
	if Default() != r {
		t.Error("Default returns a new registry on each call")
	}
}

func TestLookupOrder(t *testing.T) {
	r := mustParse(t, `
version: 1
builtin: false
tools:
  - {name: "github.*", budget: 1}
  - {name: "github.issue*", budget: 2}
  - {name: "github.issues", budget: 3}
  - {name: "*", budget: 4}
  - {name: "git?ub.*", budget: 5}
  - {name: default, budget: 6}
`)
	cases := []struct {
		tool   string
		budget int
		how    MatchKind
	}{
		{"github.issues", 3, MatchExact},
		{"github.issues_list", 2, MatchGlob}, // 12 literal chars beats 7
		{"github.pulls", 1, MatchGlob},       // "github.*" (7) beats "git?ub.*" (6), earlier
		{"gitxub.pulls", 5, MatchGlob},
		{"kubectl", 4, MatchGlob},
		{"a/b", 6, MatchDefault}, // path.Match: * does not match "/"
		{"default", 6, MatchExact},
	}
	for _, c := range cases {
		e, how := r.Resolve(c.tool)
		if e.Budget != c.budget || how != c.how {
			t.Errorf("Resolve(%q) = %q budget %d (%s), want budget %d (%s)", c.tool, e.Name, e.Budget, how, c.budget, c.how)
		}
	}
}

func TestLookupTieKeepsFileOrder(t *testing.T) {
	r := mustParse(t, "version: 1\nbuiltin: false\ntools:\n  - {name: 'a*', budget: 1}\n  - {name: '*a', budget: 2}\n")
	if got := r.Lookup("aa").Budget; got != 1 {
		t.Errorf("tie between equally specific globs: got budget %d, want the earlier entry's 1", got)
	}
}

func TestLayering(t *testing.T) {
	r := mustParse(t, `
version: 1
tools:
  - {name: default, defaults: false, budget: 100}
  - {name: "github.*", budget: 7}
  - {name: "kubectl.get_pods", budget: 8}
`)
	if e := r.Lookup("nothing.matches"); e.Defaults || e.Budget != 100 || e.Source.File != "t.yaml" {
		t.Errorf("user default did not replace the built-in one: %+v", e)
	}
	if e := r.Lookup("github.issues"); e.Budget != 7 || e.Plugin != nil {
		t.Errorf("user github.* did not replace the built-in entry whole: %+v", e)
	}
	// A built-in entry the user did not replace is still there.
	if e, how := r.Resolve("npm.view"); how != MatchExact || e.Source.File != DefaultFile {
		t.Errorf("built-in npm.view lost: %q %s %+v", e.Name, how, e.Source)
	}
	if r.Entries()[0].Name != "default" || r.File() != "t.yaml" {
		t.Errorf("user entries must come first: %q", r.Entries()[0].Name)
	}

	alone := mustParse(t, "version: 1\nbuiltin: false\ntools: [{name: x}]\n")
	if e, how := alone.Resolve("npm.view"); how != MatchFallback || !reflect.DeepEqual(e, FallbackEntry()) {
		t.Errorf("builtin: false still sees built-in entries: %q %s", e.Name, how)
	}
}

func TestEntryDefaultsAndValues(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "reg.yaml")
	src := `version: 1
tools:
  - name: tool
    records: [".items", '."dist-tags"']
    keep: [id, "labels[].name", "*_count"]
    drop: [body]
    strings: {max: 80}
    format: table
    budget: 1200
    pin: 'select(.state == "open")'
    identity: [metadata.name, id]
    index: [status.phase, spec.nodeName]
    sort: [-status.restartCount, -metadata.name]
    store: always
    defaults: false
    plugin:
      path: plugins/x.wasm
      timeout: 1.5s
      memory: 32MiB
      config: {mode: "fast", n: "5"}
  - name: bare
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "plugins"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugins", "x.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Lookup("tool")
	want := Entry{
		Name: "tool", Records: []string{".items", `."dist-tags"`}, Keep: []string{"id", "labels[].name", "*_count"},
		Drop: []string{"body"}, Strings: Strings{Max: 80}, Format: "table", Budget: 1200,
		Pin: `select(.state == "open")`, Identity: []string{"metadata.name", "id"},
		Index: []string{"status.phase", "spec.nodeName"}, Sort: []string{"-status.restartCount", "-metadata.name"}, Store: "always", Defaults: false,
		Plugin: &Plugin{Path: filepath.Join(dir, "plugins/x.wasm"), Timeout: 1500 * time.Millisecond,
			Memory: 32 << 20, Config: map[string]string{"mode": "fast", "n": "5"}},
		Source: Position{File: file, Line: 3, Col: 5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	bare := r.Lookup("bare")
	if bare.Format != "auto" || bare.Store != "fallback" || !bare.Defaults || bare.Plugin != nil || bare.Budget != 0 {
		t.Errorf("defaults not applied: %+v", bare)
	}
	// Lookup hands out copies: changing one cannot change the registry.
	got.Keep[0] = "changed"
	got.Plugin.Config["mode"] = "changed"
	if again := r.Lookup("tool"); again.Keep[0] != "id" || again.Plugin.Config["mode"] != "fast" {
		t.Error("Lookup result aliases the registry's entry")
	}
}

func TestPluginDefaultsAndBuiltin(t *testing.T) {
	r := mustParse(t, "version: 1\ntools:\n  - {name: a, plugin: {path: 'builtin:logs'}}\n  - {name: b, plugin: {path: /abs/p.wasm, memory: 1048576}}\n")
	a := r.Lookup("a").Plugin
	if a.Path != "builtin:logs" || a.Timeout != DefaultPluginTimeout || a.Memory != 0 {
		t.Errorf("a: %+v", a)
	}
	if b := r.Lookup("b").Plugin; b.Path != "/abs/p.wasm" || b.Memory != 1<<20 {
		t.Errorf("b: %+v", b)
	}
}

// TestErrors checks that each kind of bad file gets a positioned error
// saying what is expected.
func TestErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // each must appear, in order, one per line
	}{
		{"unknown key", "version: 1\ntools:\n  - name: x\n    kepe: [a]\n",
			[]string{`t.yaml:4:5: tools[0]: unknown key "kepe" (did you mean "keep"?); expected one of: budget, defaults, drop,`}},
		{"unknown top-level key", "version: 1\ntool: []\n",
			[]string{`t.yaml:1:1: missing required key "tools"`, `t.yaml:2:1: unknown key "tool" (did you mean "tools"?)`}},
		{"wrong type", "version: 1\ntools:\n  - name: x\n    budget: ten\n",
			[]string{`t.yaml:4:13: tools[0].budget: expected integer, got string "ten"`}},
		{"negative budget", "version: 1\ntools: [{name: x, budget: -5}]\n",
			[]string{`t.yaml:2:27: tools[0].budget: expected at least 1, got -5`}},
		{"version", "version: 2\ntools: []\n", []string{`t.yaml:1:10: version: expected 1, got 2`}},
		{"missing name", "version: 1\ntools:\n  - budget: 5\n", []string{`t.yaml:3:5: tools[0]: missing required key "name"`}},
		{"empty name", "version: 1\ntools: [{name: ''}]\n", []string{`t.yaml:2:16: tools[0].name: must not be empty`}},
		{"bad format", "version: 1\ntools: [{name: x, format: yaml}]\n",
			[]string{`t.yaml:2:27: tools[0].format: expected one of json, table, auto, got "yaml"`}},
		{"bad store", "version: 1\ntools: [{name: x, store: never}]\n",
			[]string{`tools[0].store: expected one of always, fallback, got "never"`}},
		{"bad field paths", "version: 1\ntools:\n  - name: x\n    keep: [a..b, 'c[0]', 'd.']\n    drop: ['x y']\n",
			[]string{
				`t.yaml:4:12: tools[0].keep[0]: bad field path: path "a..b", at offset 2: empty name between dots`,
				`t.yaml:4:18: tools[0].keep[1]: bad field path: path "c[0]", at offset 1: expected "[]"`,
				`t.yaml:4:26: tools[0].keep[2]: bad field path: path "d.", at offset 2: the path ends with "."`,
				`t.yaml:5:12: tools[0].drop[0]: bad field path: path "x y", at offset 1: unexpected ' '`,
			}},
		{"bad identity path", "version: 1\ntools:\n  - name: x\n    identity: ['a..b']\n",
			[]string{`t.yaml:4:16: tools[0].identity[0]: bad field path: path "a..b", at offset 2: empty name between dots`}},
		{"bad index path", "version: 1\ntools:\n  - name: x\n    index: [version, 'a..b']\n",
			[]string{`t.yaml:4:22: tools[0].index[1]: bad field path: path "a..b", at offset 2: empty name between dots`}},
		{"index wildcard", "version: 1\ntools:\n  - name: pods\n    index: ['*_count']\n",
			[]string{`t.yaml:4:13: tools[0].index[0]: field path "*_count" of tool "pods" has a wildcard: index names one field of a record, exactly`}},
		{"index not a list", "version: 1\ntools: [{name: x, index: version}]\n",
			[]string{`tools[0].index: expected array, got string "version"`}},
		{"bad sort key", "version: 1\ntools:\n  - name: pods\n    sort: ['-']\n",
			[]string{`t.yaml:4:12: tools[0].sort[0]: bad sort key of tool "pods": `}},
		{"sort both ways", "version: 1\ntools:\n  - name: pods\n    sort: [-size, name]\n",
			[]string{`t.yaml:4:19: tools[0].sort[1]: sort key "name" of tool "pods" goes the other way than "-size": every key of one entry sorts the same way`}},
		{"sort wildcard", "version: 1\ntools:\n  - name: pods\n    sort: ['-a.*']\n",
			[]string{`tools[0].sort[0]: field path "a.*" of tool "pods" has a wildcard: sort names one field of a record, exactly`}},
		{"bad record paths", "version: 1\ntools: [{name: x, records: [items, '.a*', '.a[0]']}]\n",
			[]string{
				`tools[0].records[0]: bad record path "items": expected a jq path starting with "."`,
				`tools[0].records[1]: bad record path: path ".a*", at offset 2: wildcards are not allowed in record paths`,
				`tools[0].records[2]: bad record path: path ".a[0]"`,
			}},
		{"keep and drop", "version: 1\ntools: [{name: x, keep: [a], drop: [a]}]\n",
			[]string{`t.yaml:2:37: tools[0].drop[0]: field path "a" is both kept and dropped`}},
		{"duplicate item", "version: 1\ntools: [{name: x, drop: [a, b, a]}]\n",
			[]string{`t.yaml:2:32: tools[0].drop[2]: duplicate item "a" (same as item 0)`}},
		{"bad jq", "version: 1\ntools:\n  - name: x\n    pin: 'select(.a =='\n",
			[]string{`t.yaml:4:10: tools[0].pin: bad jq predicate "select(.a ==": unexpected EOF`}},
		{"jq compile error", "version: 1\ntools: [{name: x, pin: 'nosuchfunc(1)'}]\n",
			[]string{`tools[0].pin: bad jq predicate "nosuchfunc(1)": function not defined: nosuchfunc/1`}},
		{"duplicate names", "version: 1\ntools:\n  - name: x\n  - name: y\n  - name: x\n",
			[]string{`t.yaml:5:11: tools[2].name: duplicate entry name "x" (first defined at line 3)`}},
		{"bad glob", "version: 1\ntools: [{name: 'gh[.*'}]\n",
			[]string{`tools[0].name: bad glob "gh[.*": syntax error in pattern`}},
		{"bad plugin", "version: 1\ntools:\n  - name: x\n    plugin: {path: a.wasm, timeout: 5 seconds, memory: 64 mb, config: {n: 5}, extra: 1}\n",
			[]string{
				`t.yaml:4:37: tools[0].plugin.timeout: bad duration "5 seconds": expected a Go duration such as 250ms, 2s or 1m30s`,
				`t.yaml:4:56: tools[0].plugin.memory: bad size "64 mb": expected a size such as 64MiB, 512KiB or 1GiB`,
				`t.yaml:4:75: tools[0].plugin.config.n: expected string, got number "5"`,
				`t.yaml:4:79: tools[0].plugin: unknown key "extra"; expected one of: config, memory, path, timeout`,
			}},
		{"plugin without path", "version: 1\ntools: [{name: x, plugin: {timeout: 1s}}]\n",
			[]string{`tools[0].plugin: missing required key "path"`}},
		{"zero timeout", "version: 1\ntools: [{name: x, plugin: {path: a, timeout: 0s}}]\n",
			[]string{`tools[0].plugin.timeout: timeout must be positive, got "0s"`}},
		{"huge memory", "version: 1\ntools: [{name: x, plugin: {path: a, memory: 8GiB}}]\n",
			[]string{`tools[0].plugin.memory: size "8GiB" is larger than the 4GiB`}},
		{"bad builtin", "version: 1\ntools: [{name: x, plugin: {path: 'builtin:'}}]\n",
			[]string{`tools[0].plugin.path: bad built-in plugin "builtin:"`}},
		{"syntax error", "version: 1\ntools:\n  - name: x\n  foo: [\n",
			[]string{`t.yaml:2: invalid YAML: did not find expected '-' indicator`}},
		{"tabs", "version: 1\ntools:\n\t- name: x\n",
			[]string{`t.yaml:3: invalid YAML: found character that cannot start any token`}},
		{"empty", "", []string{`t.yaml:1:1: empty registry: expected a mapping with "version: 1" and "tools"`}},
		{"comments only", "# nothing\n", []string{`t.yaml:1:1: empty registry`}},
		{"not a mapping", "- a\n- b\n", []string{`t.yaml:1:1: expected object, got array`}},
		{"two documents", "version: 1\ntools: []\n---\nx: 1\n", []string{`t.yaml:3:1: a registry file holds one YAML document`}},
		{"duplicate key", "version: 1\nversion: 1\ntools: []\n", []string{`t.yaml:2:1: duplicate key "version" (first at line 1)`}},
		{"merge key", "version: 1\nx: &a {name: q}\ntools:\n  - <<: *a\n", []string{`t.yaml:4:5: tools[0]: merge keys (<<) are not supported`}},
		{"non-string key", "version: 1\ntools:\n  - {[a]: 1, name: x}\n", []string{`t.yaml:3:6: tools[0]: mapping keys must be plain strings`}},
		{"timestamp is not a number", "version: 1\ntools: [{name: x, budget: 2001-12-14}]\n",
			[]string{`tools[0].budget: expected integer, got string "2001-12-14"`}},
		{"nan", "version: 1\ntools: [{name: x, budget: .nan}]\n", []string{`tools[0].budget: expected integer, got string ".nan"`}},
		{"float budget", "version: 1\ntools: [{name: x, budget: 1.5}]\n", []string{`tools[0].budget: expected integer, got number`}},
		{"invalid utf-8", "version: 1\ntools: [{name: \"\xff\"}]\n", []string{`t.yaml: invalid YAML: invalid leading UTF-8 octet`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Parse([]byte(c.src), "t.yaml")
			if err == nil {
				t.Fatalf("no error; entries %+v", r.Entries())
			}
			if r != nil {
				t.Error("a registry returned with an error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error does not match ErrInvalid: %v", err)
			}
			var list Errors
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a non-empty Errors: %T", err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(c.want) {
				t.Errorf("got %d errors, want %d:\n%v", len(lines), len(c.want), err)
			}
			for i, w := range c.want {
				if i >= len(lines) || !strings.Contains(lines[i], w) {
					t.Errorf("error %d:\n got %q\nwant it to contain %q", i, lines[min(i, len(lines)-1)], w)
				}
			}
		})
	}
}

func TestAliasBomb(t *testing.T) {
	src := "version: 1\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for i := 0; i < 8; i++ {
		name := string(rune('b' + i))
		src += name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = name
	}
	src += "tools: []\n"
	_, err := Parse([]byte(src), "bomb.yaml")
	if err == nil || !strings.Contains(err.Error(), "document too large") {
		t.Fatalf("alias expansion not bounded: %v", err)
	}
}

func TestDeepNesting(t *testing.T) {
	src := "version: 1\ntools: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n"
	_, err := Parse([]byte(src), "deep.yaml")
	if err == nil || !errors.Is(err, ErrInvalid) {
		t.Fatalf("deep nesting: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg.yaml")
	if err := os.WriteFile(reg, []byte("version: 1\ntools:\n  - name: x\n    plugin: {path: missing.wasm}\n  - name: y\n    plugin: {path: .}\n  - {name: z, plugin: {path: 'builtin:not_built_here'}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(reg)
	want := reg + ":4:20: tools[0].plugin.path: entry \"x\": plugin file " + filepath.Join(dir, "missing.wasm") + ": no such file or directory\n" +
		reg + ":6:20: tools[1].plugin.path: entry \"y\": plugin file " + dir + " is a directory, expected a .wasm file"
	if err == nil || err.Error() != want {
		t.Errorf("plugin files:\n got %v\nwant %s", err, want)
	}
	// Parse does not touch the file system.
	if _, err := Parse([]byte("version: 1\ntools: [{name: x, plugin: {path: missing.wasm}}]\n"), reg); err != nil {
		t.Errorf("Parse checked the file system: %v", err)
	}

	missing := filepath.Join(dir, "missing.yaml")
	_, err = Load(missing)
	var e *Error
	if !errors.As(err, &e) || e.File != missing || !strings.Contains(err.Error(), "cannot read registry: no such file or directory") {
		t.Errorf("missing file: %v", err)
	}
	if !errors.Is(err, os.ErrNotExist) || !errors.Is(err, ErrInvalid) {
		t.Errorf("missing file error does not wrap os.ErrNotExist and ErrInvalid: %v", err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("version: 1\n"+strings.Repeat("#", MaxFileSize)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("big file: %v", err)
	}
}

// TestSchemaMatchesStructs keeps the JSON Schema and the Go mirror used for
// the strict decode in step: every schema property has a field and every
// field a property.
func TestSchemaMatchesStructs(t *testing.T) {
	c, err := registrySchema()
	if err != nil {
		t.Fatal(err)
	}
	base := "x#"
	for _, tc := range []struct {
		frag string
		typ  reflect.Type
	}{
		{"", reflect.TypeOf(fileDoc{})},
		{"/$defs/entry", reflect.TypeOf(fileEntry{})},
		{"/$defs/plugin", reflect.TypeOf(filePlugin{})},
		{"/$defs/entry/properties/strings", reflect.TypeOf(fileStrings{})},
	} {
		var fields []string
		for i := 0; i < tc.typ.NumField(); i++ {
			fields = append(fields, strings.Split(tc.typ.Field(i).Tag.Get("yaml"), ",")[0])
		}
		slices.Sort(fields)
		if props := c.properties(base + tc.frag); !slices.Equal(props, fields) {
			t.Errorf("%s: schema properties %v, Go fields %v", tc.typ, props, fields)
		}
	}
}

// TestShowRoundTrip checks that an entry rendered as YAML (what "compact
// registry show" prints) parses back to the same entry.
func TestShowRoundTrip(t *testing.T) {
	for _, e := range Default().Entries() {
		b, err := yaml.Marshal(map[string]any{"version": 1, "builtin": false, "tools": []Entry{e}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Parse(b, DefaultFile)
		if err != nil {
			t.Fatalf("%s: rendered entry does not parse: %v\n%s", e.Name, err, b)
		}
		got := r.Entries()[0]
		got.Source, e.Source = Position{}, Position{}
		if !reflect.DeepEqual(got, e) {
			t.Errorf("%s: round trip\n got %+v\nwant %+v", e.Name, got, e)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "64MiB": 64 << 20, "512KiB": 512 << 10, "1GiB": 1 << 30, "10MB": 10e6, "4GiB": 4 << 30, "2 MiB": 2 << 20} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
		if got, _ := ParseSize(FormatSize(want)); got != want {
			t.Errorf("FormatSize(%d) = %q does not parse back", want, FormatSize(want))
		}
	}
	for _, in := range []string{"", "0", "-1", "64mb", "5GiB", "99999999999999999999", "1.5MiB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}
