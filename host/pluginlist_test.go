package host

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolcompact/compact/plugins/builtin"
)

// TestPlantedPluginDistIgnored: a working directory inside another Go
// module that has plugins/dist/NAME.wasm (here: junk bytes, and the
// faults fixture would do as well) does not supply builtin:NAME; the
// embedded module does. On the old code the planted file was loaded as if
// it were first-party.
func TestPlantedPluginDistIgnored(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/planted\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "plugins", "dist"), 0o755)
	for _, name := range []string{"logs", "restlist"} {
		os.WriteFile(filepath.Join(dir, "plugins", "dist", name+".wasm"), []byte("\x00asm\x01\x00\x00\x00planted"), 0o644)
	}
	t.Chdir(dir)
	t.Setenv(EnvPluginDir, "")
	ctx := context.Background()
	e, err := New(ctx, quiet, WithBudget(700))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	res, err := e.Compact(ctx, Request{Tool: "github.issues", Input: records(30), ContentType: "application/json"})
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := findAction(res.Actions, "plugin"); !ok || a.Target != "builtin:restlist" {
		t.Fatalf("actions %+v, want the embedded restlist plugin to have run", res.Actions)
	}
	infos := e.Plugins(ctx)
	seen := map[string]bool{}
	for _, pi := range infos {
		name := pi.Path[len(BuiltinPrefix):]
		wasm, ok := builtin.Wasm(name)
		if !ok {
			continue
		}
		seen[name] = true
		if pi.Status != PluginLoaded || pi.Source != SourceEmbedded || pi.SHA256 != sha256Hex(wasm) {
			t.Errorf("%+v, want loaded from the embedded module", pi)
		}
		if len(pi.Tools) == 0 {
			t.Errorf("%s: no registry entries listed", pi.Path)
		}
	}
	if !seen["logs"] || !seen["restlist"] {
		t.Errorf("Plugins() = %+v, want both embedded plugins", infos)
	}
}

// TestPluginsListsPathAndUnused: a registry plugin read from a file is
// listed with that file and its digest; an explicit plugin directory
// without the builtins makes them "missing", never silently embedded.
func TestPluginsListsPathAndUnused(t *testing.T) {
	dir := t.TempDir()
	wasm := filepath.Join(dir, "v1only.wasm")
	mod := abiV1OnlyWasm()
	os.WriteFile(wasm, mod, 0o644)
	reg := filepath.Join(dir, "compact.yaml")
	os.WriteFile(reg, []byte("version: 1\ntools:\n  - name: old\n    plugin: {path: "+wasm+"}\n"), 0o644)
	t.Setenv(EnvPluginDir, "")
	ctx := context.Background()
	e, err := New(ctx, WithRegistryFile(reg), WithPluginDir(t.TempDir()), WithLazyPlugins(), quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	got := map[string]PluginInfo{}
	for _, pi := range e.Plugins(ctx) {
		got[pi.Path] = pi
	}
	if pi := got[wasm]; pi.Status != PluginLoaded || pi.Source != wasm || pi.SHA256 != sha256Hex(mod) || len(pi.Tools) != 1 || pi.Tools[0] != "old" {
		t.Errorf("file plugin: %+v", pi)
	}
	if pi := got["builtin:restlist"]; pi.Status != PluginMissing || pi.Error == "" {
		t.Errorf("builtin with an empty plugin dir: %+v, want missing", pi)
	}
}
