package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/plugins/plugintest"
	"github.com/toolcompact/compact/registry"
	"github.com/toolcompact/compact/schemas"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output of compact run")

const (
	capturedDir = "../../../../testdata/captured"
	goldenDir   = "../../../../testdata/golden"
)

// goldenCase is one line of testdata/golden/budgets.yaml.
type goldenCase struct {
	Tool   string `yaml:"tool"`
	Budget int    `yaml:"budget"`
	// Exit is the expected exit code (0 unless the case is meant to show
	// a refusal, such as 4 for "cannot fit").
	Exit int `yaml:"exit"`
}

// goldenRegistry writes the built-in registry with every plugin timeout
// raised, so a loaded machine cannot turn a plugin's result into a
// timeout fallback and make the golden files flaky. Everything else is
// the built-in registry as shipped.
func goldenRegistry(t *testing.T) string {
	t.Helper()
	var tools []registry.Entry
	for _, e := range registry.Default().Entries() {
		if e.Plugin != nil {
			e.Plugin.Timeout = 60 * time.Second
		}
		tools = append(tools, e)
	}
	b, err := yaml.Marshal(map[string]any{"version": 1, "builtin": false, "tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "golden-registry.yaml", string(b))
}

// pluginDir builds the first-party plugins from source into a directory
// the engine resolves builtin:NAME in.
func pluginDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, pkg := range map[string]string{"logs": plugintest.Logs, "restlist": plugintest.RestList} {
		b, err := os.ReadFile(plugintest.Build(t, pkg))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".wasm"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGolden runs "compact run --json" on every captured output with the
// tool and budget of testdata/golden/budgets.yaml and compares the
// envelope with testdata/golden/<file>.json. Run with -update to rewrite
// the golden files, then review the diff.
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("golden files over the captured corpus: not in -short")
	}
	var cases map[string]goldenCase
	b, err := os.ReadFile(filepath.Join(goldenDir, "budgets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("budgets.yaml: %v", err)
	}
	files, err := os.ReadDir(capturedDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if !f.IsDir() && !strings.HasSuffix(f.Name(), ".questions.yaml") {
			names = append(names, f.Name())
		}
	}
	for name := range cases {
		if !slices.Contains(names, name) {
			t.Errorf("budgets.yaml names %s, which is not in testdata/captured", name)
		}
	}
	// As the plugin timeouts (goldenRegistry), the pin predicate's
	// wall-clock deadline is raised: at load 40 app-log.jsonl's predicate
	// stopped after a different number of records on every run.
	defer func(d time.Duration) { budget.PinTimeout = d }(budget.PinTimeout)
	budget.PinTimeout = 5 * time.Minute
	t.Setenv(host.EnvPluginDir, pluginDir(t))
	t.Setenv(envRegistry, "")
	t.Setenv(envStore, "")
	reg := goldenRegistry(t)
	resultSchema := compileResultSchema(t)
	counter, err := budget.NewCounter(budget.DefaultEncoding)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			c, ok := cases[name]
			if !ok {
				t.Fatalf("no entry for %s in testdata/golden/budgets.yaml: add its tool and budget", name)
			}
			args := []string{"run", "--json", "--registry", reg, "--store", t.TempDir(),
				"--tool", c.Tool, "--budget", strconv.Itoa(c.Budget), filepath.Join(capturedDir, name)}
			out, errs, code := execCLI(t, nil, args...)
			if code != c.Exit {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.Exit, errs)
			}
			got := []byte(out)
			if code != ExitOK {
				got = []byte("exit " + strconv.Itoa(code) + "\n" + errs)
				got = bytes.ReplaceAll(got, []byte(reg), []byte("REGISTRY"))
			} else {
				checkEnvelope(t, got, c, counter)
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(got))
				if err != nil {
					t.Fatal(err)
				}
				if err := resultSchema.Validate(inst); err != nil {
					t.Errorf("envelope does not match schemas/result.schema.json: %v", err)
				}
			}
			golden := filepath.Join(goldenDir, name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run with -update and review the diff):\n%s", golden, firstDiff(want, got))
			}
		})
	}
}

// compileResultSchema compiles the embedded schemas/result.schema.json.
func compileResultSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := schemas.File(schemas.ResultSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("result.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("result.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// checkEnvelope asserts the promises of every result, independently of
// the golden file: the content is what tokens.after counts, it fits the
// budget, and every collection is counted and shown honestly.
func checkEnvelope(t *testing.T, raw []byte, c goldenCase, counter budget.Counter) {
	t.Helper()
	var r schemas.Result
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("envelope does not decode: %v", err)
	}
	if n := counter.Count(r.Content); n != r.Tokens.After {
		t.Errorf("tokens.after = %d, but content counts %d", r.Tokens.After, n)
	}
	if r.Tokens.After > c.Budget || r.Tokens.Budget != c.Budget {
		t.Errorf("tokens.after %d over budget %d (envelope budget %d)", r.Tokens.After, c.Budget, r.Tokens.Budget)
	}
	if r.Tokens.Encoding != counter.Encoding() {
		t.Errorf("encoding %q", r.Tokens.Encoding)
	}
	if len(r.Collections) == 0 && len(r.Content) > 0 {
		t.Error("no collections reported")
	}
	for _, col := range r.Collections {
		if col.Count < 0 || col.Shown < 0 || col.Shown > col.Count {
			t.Errorf("collection %s: count %d shown %d", col.Path, col.Count, col.Shown)
		}
		if col.Shown < col.Count && r.Artifact == nil {
			t.Errorf("collection %s shows %d of %d records but nothing was stored", col.Path, col.Shown, col.Count)
		}
	}
	switch r.Level {
	case schemas.LevelNone, schemas.LevelFields:
		for _, col := range r.Collections {
			if col.Shown != col.Count {
				t.Errorf("level %s but collection %s shows %d of %d", r.Level, col.Path, col.Shown, col.Count)
			}
		}
	case schemas.LevelArtifact:
		if r.Artifact == nil || !strings.Contains(r.Content, r.Artifact.Handle) {
			t.Errorf("level artifact without a handle in the content: %+v", r.Artifact)
		}
	default:
		t.Errorf("unexpected level %q", r.Level)
	}
}

// firstDiff shows where two texts first differ, with some context.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	line := bytes.Count(a[:i], []byte("\n")) + 1
	from := max(0, i-80)
	return "line " + strconv.Itoa(line) + ", byte " + strconv.Itoa(i) + ":\n- …" + trunc(string(a[from:min(len(a), i+200)])) + "\n+ …" + trunc(string(b[from:min(len(b), i+200)]))
}

func trunc(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestResultSchemaMatchesGo checks that a fully populated schemas.Result
// validates against schemas/result.schema.json (which allows no unknown
// members, so a field added to the Go type without the schema fails
// here), and that the schema rejects what it should.
func TestResultSchemaMatchesGo(t *testing.T) {
	sch := compileResultSchema(t)
	full := schemas.Result{
		Content: "x", Level: schemas.LevelArtifact, Tool: "t", ContentType: "application/json",
		Tokens:      schemas.Tokens{Before: 10, BeforeEstimated: true, After: 1, Budget: 5, Encoding: "o200k_base"},
		Collections: []schemas.Collection{{Path: ".", Kind: "array", Count: 3, Shown: 1, Fields: []schemas.Field{{Name: "a", Types: []string{"string"}, Present: 3}}}},
		Artifact:    &schemas.Artifact{Handle: "abc", SHA256: strings.Repeat("0", 64), Bytes: 9},
		Actions:     []schemas.Action{{Level: schemas.LevelFields, Kind: "drop_field", Target: ".a", Detail: "d", Count: 3, TokensBefore: 9, TokensAfter: 4, Handle: "abc"}},
	}
	validate := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return sch.Validate(inst)
	}
	if err := validate(full); err != nil {
		t.Fatalf("a full Result does not validate: %v", err)
	}
	var m map[string]any
	b, _ := json.Marshal(full)
	_ = json.Unmarshal(b, &m)
	m["surprise"] = 1
	if validate(m) == nil {
		t.Error("an unknown member validates")
	}
	full.Level = "squeezed"
	if validate(full) == nil {
		t.Error("an unknown level validates")
	}
}
