package host

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/registry"
)

var quiet = WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// runeCounter is a stand-in token counter for tests that do not measure
// tokens: one token per four runes, rounded up.
type runeCounter struct{}

func (runeCounter) Count(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }
func (runeCounter) Encoding() string   { return "test_runes" }

func TestNewDefaults(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, WithCounter(runeCounter{}), WithCompilationCache(""), quiet, WithPluginDir(t.TempDir()), WithLazyPlugins())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	if e.Registry() == nil {
		t.Fatal("no registry")
	}
	if got := e.Registry().Lookup("github.issues").Name; got != "github.*" {
		t.Errorf("built-in registry: github.issues matched %q, want github.*", got)
	}
	if e.Counter().Encoding() != "test_runes" {
		t.Errorf("counter not used")
	}
	if e.Store() != nil {
		t.Errorf("store without WithStore")
	}
	if err := e.Close(ctx); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestNewOptionErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\ntools:\n  - name: x\n    kep: [a]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		opts []Option
		want string
	}{
		{"budget", []Option{WithBudget(0)}, "budget must be positive"},
		{"pool", []Option{WithPoolSize(-1)}, "size must be positive"},
		{"registry nil", []Option{WithRegistry(nil)}, "nil registry"},
		{"both registries", []Option{WithRegistry(registry.Default()), WithRegistryFile(bad)}, "exclusive"},
		{"bad registry", []Option{WithRegistryFile(bad)}, "bad.yaml:4"},
		{"missing registry", []Option{WithRegistryFile(filepath.Join(dir, "nope.yaml"))}, "nope.yaml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := append([]Option{WithCounter(runeCounter{}), WithCompilationCache(""), quiet}, c.opts...)
			e, err := New(ctx, opts...)
			if err == nil {
				e.Close(ctx)
				t.Fatalf("New succeeded, want error containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

func TestRulesFromEntry(t *testing.T) {
	reg, err := registry.Parse([]byte(`version: 1
builtin: false
tools:
  - name: t
    records: [".items"]
    keep: [id, name]
    drop: ["*_url"]
    strings: {max: 80}
    format: table
    budget: 1234
    pin: 'select(.id == 1)'
    store: always
    defaults: false
`), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := rulesFromEntry(reg.Lookup("t"))
	if r.Tool != "t" || r.Records[0] != ".items" || len(r.Keep) != 2 || r.Drop[0] != "*_url" ||
		r.StringsMax != 80 || r.Format != "table" || r.Budget != 1234 || r.Pin != "select(.id == 1)" ||
		r.Store != "always" || r.Defaults {
		t.Errorf("rules = %+v", r)
	}
}

func TestMissingBuiltinIsReportedNotFatal(t *testing.T) {
	ctx := context.Background()
	empty := t.TempDir()
	t.Setenv(EnvPluginDir, "")
	e, err := New(ctx, WithCounter(runeCounter{}), WithCompilationCache(""), quiet, WithPluginDir(empty))
	if err != nil {
		t.Fatalf("New with unbuilt builtin plugins: %v", err)
	}
	defer e.Close(ctx)
	_, err = e.plugins.load(ctx, &registry.Plugin{Path: "builtin:restlist"})
	var pe *PluginError
	if !errors.As(err, &pe) || pe.Kind != KindMissing || !errors.Is(err, ErrPluginNotBuilt) {
		t.Fatalf("load of unbuilt builtin: %v, want KindMissing", err)
	}
	if !strings.Contains(err.Error(), filepath.Join(empty, "restlist.wasm")) || !strings.Contains(err.Error(), "go generate ./plugins/...") {
		t.Errorf("error does not say where it looked and how to build: %v", err)
	}
}

func TestUserPluginMissingIsFatal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	regFile := filepath.Join(dir, "r.yaml")
	os.WriteFile(regFile, []byte("version: 1\ntools:\n  - name: mytool\n    plugin: {path: mine.wasm}\n"), 0o644)
	_, err := New(ctx, WithCounter(runeCounter{}), WithCompilationCache(""), quiet, WithRegistryFile(regFile), WithPluginDir(t.TempDir()))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "mine.wasm")) || !strings.Contains(err.Error(), "mytool") {
		t.Fatalf("New with a missing user plugin: %v; want an error naming the entry and the file", err)
	}
}

func TestCompilationCacheDir(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	os.WriteFile(file, nil, 0o644)
	_, err := New(ctx, WithCounter(runeCounter{}), quiet, WithLazyPlugins(), WithCompilationCache(filepath.Join(file, "cache")))
	if err == nil || !strings.Contains(err.Error(), "compilation cache") {
		t.Errorf("an explicit cache directory that cannot be made: %v, want an error", err)
	}
	// The default directory falls back to memory.
	t.Setenv("HOME", file)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(file, "cache"))
	var logged strings.Builder
	e, err := New(ctx, WithCounter(runeCounter{}), WithLogger(slog.New(slog.NewTextHandler(&logged, nil))), WithLazyPlugins())
	if err != nil {
		t.Fatalf("an unusable default cache directory: %v, want a fallback to memory", err)
	}
	e.Close(ctx)
	if !strings.Contains(logged.String(), "compilation cache unavailable; compiling in memory") {
		t.Errorf("the fallback was not logged: %q", logged.String())
	}
}
