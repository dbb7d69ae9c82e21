package host

import (
	"context"
	"errors"
	"sync"

	"github.com/toolcompact/compact/plugins/builtin"
)

// PluginInfo describes one plugin an engine knows: one the registry names,
// or one embedded in the binary.
type PluginInfo struct {
	// Path is the registry plugin path: builtin:NAME or a file.
	Path string `json:"path"`
	// Source is where the module came from: SourceEmbedded, or the file
	// it was read from. Empty when it could not be found.
	Source string `json:"source,omitempty"`
	// SHA256 is the module's SHA-256, hex. Empty when it was not read.
	SHA256 string `json:"sha256,omitempty"`
	// Tools are the registry entries that use the plugin, in registry
	// order; empty for an embedded plugin no entry names.
	Tools []string `json:"tools,omitempty"`
	// Status is "loaded", "missing", "failed" (Error says why) or
	// "unused" (embedded, named by no registry entry, not loaded).
	Status string `json:"status"`
	// Error is the load error, for a missing or failed plugin.
	Error string `json:"error,omitempty"`
}

// Plugin statuses of PluginInfo.
const (
	PluginLoaded  = "loaded"
	PluginMissing = "missing"
	PluginFailed  = "failed"
	PluginUnused  = "unused"
)

// Plugins loads every plugin the registry names (each once, as a call
// would) and reports each with its source and SHA-256, then the embedded
// plugins no entry names. Loading is what makes the report true: a module
// that does not compile or declares another ABI is "failed", with the
// reason.
func (e *Engine) Plugins(ctx context.Context) []PluginInfo {
	var (
		order []string
		byKey = map[string]*PluginInfo{}
	)
	for _, ent := range e.reg.Entries() {
		if ent.Plugin == nil {
			continue
		}
		pi := byKey[ent.Plugin.Path]
		if pi == nil {
			pi = &PluginInfo{Path: ent.Plugin.Path}
			byKey[ent.Plugin.Path] = pi
			order = append(order, ent.Plugin.Path)
		}
		pi.Tools = append(pi.Tools, ent.Name)
	}
	var wg sync.WaitGroup
	for _, ent := range e.reg.Entries() {
		if ent.Plugin == nil || byKey[ent.Plugin.Path].Status != "" {
			continue
		}
		pi := byKey[ent.Plugin.Path]
		pi.Status = "pending"
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := e.plugins.load(ctx, ent.Plugin)
			var pe *PluginError
			switch {
			case err == nil:
				pi.Status, pi.Source, pi.SHA256 = PluginLoaded, p.source, p.sha256
			case errors.As(err, &pe) && pe.Kind == KindMissing:
				pi.Status, pi.Error = PluginMissing, err.Error()
			default:
				pi.Status, pi.Error = PluginFailed, err.Error()
				if r, rerr := resolvePlugin(ent.Plugin.Path, e.cfg.pluginDir); rerr == nil {
					pi.Source, pi.SHA256 = r.source, r.sha256
				}
			}
		}()
	}
	wg.Wait()
	out := make([]PluginInfo, 0, len(order)+2)
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	for _, name := range builtin.Names() {
		path := BuiltinPrefix + name
		if _, named := byKey[path]; named {
			continue
		}
		data, _ := builtin.Wasm(name)
		out = append(out, PluginInfo{Path: path, Source: SourceEmbedded, SHA256: sha256Hex(data), Status: PluginUnused})
	}
	return out
}

// EmbeddedPlugins returns the names of the first-party plugins embedded in
// this binary (builtin:NAME resolves to them unless a plugin directory is
// set).
func EmbeddedPlugins() []string { return builtin.Names() }
