package host

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/registry"
)

// PluginOptions configure LoadPlugin.
type PluginOptions struct {
	// Timeout is the deadline of one call (DefaultTimeout when 0).
	Timeout time.Duration
	// Memory caps the instance memory in bytes (DefaultMemory when 0).
	Memory int64
	// Config is handed to the plugin in every input header.
	Config map[string]string
	// CacheDir is the compilation cache directory; "" means the engine's
	// default (compact/wazero under os.UserCacheDir).
	CacheDir string
	// PoolSize bounds the live instances (GOMAXPROCS, at most 8, when 0).
	PoolSize int
	// Logger receives load and fault messages (discarded when nil).
	Logger *slog.Logger
	// Runtime is the implementation of the Extism host ABI
	// (RuntimeNative when empty; RuntimeExtismSDK for the reference
	// host).
	Runtime Runtime
}

// Plugin is one plugin loaded outside an Engine: the conformance kit and
// benchmarks use it. It is a budget.Compactor and is safe for concurrent
// use.
type Plugin struct {
	set  *pluginSet
	p    *plugin
	comp *compactor
}

// LoadPlugin compiles, checks and instantiates the plugin at path (a .wasm
// file or builtin:NAME) exactly as an Engine does at start-up. Its errors
// are *PluginError with KindLoad, KindABI or KindMissing.
func LoadPlugin(ctx context.Context, path string, o PluginOptions) (*Plugin, error) {
	cfg := &config{
		cacheDir:  o.CacheDir,
		cacheSet:  o.CacheDir != "",
		poolSize:  o.PoolSize,
		logger:    o.Logger,
		logLimit:  16 << 10,
		coolFails: 3,
		coolFor:   30 * time.Second,
		runtime:   o.Runtime,
	}
	if cfg.runtime != "" && cfg.runtime != RuntimeNative && cfg.runtime != RuntimeExtismSDK {
		return nil, pluginErr(path, KindLoad, "unknown runtime %q (want %q or %q)", o.Runtime, RuntimeNative, RuntimeExtismSDK)
	}
	if cfg.cacheDir == "" {
		cfg.cacheDir = defaultCacheDir()
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ps, err := newPluginSet(ctx, cfg)
	if err != nil {
		return nil, err
	}
	p, err := ps.load(ctx, &registry.Plugin{Path: path, Memory: o.Memory, Timeout: o.Timeout, Config: o.Config})
	if err != nil {
		_ = ps.close(ctx)
		return nil, err
	}
	return &Plugin{set: ps, p: p, comp: &compactor{p: p, config: o.Config, timeout: o.Timeout}}, nil
}

// Name is the plugin's name in errors and actions (its path).
func (p *Plugin) Name() string { return p.p.name }

// Compact frames req, calls the plugin with its deadline and memory cap,
// and parses and verifies the output (see VerifyOutput). Faults are
// *PluginError.
func (p *Plugin) Compact(ctx context.Context, req budget.Request) (budget.Output, error) {
	return p.comp.Compact(ctx, req)
}

// Call runs compact_result on an already framed input and returns the
// raw framed output, for tools that check the framing themselves.
func (p *Plugin) Call(ctx context.Context, framed []byte) ([]byte, error) {
	return p.p.call(ctx, framed, p.comp.timeout)
}

// Instances reports how many instances are alive now and how many were
// ever made (each fault throws one away).
func (p *Plugin) Instances() (live, made int64) { return p.p.live.Load(), p.p.made.Load() }

// Close releases the plugin's runtime.
func (p *Plugin) Close(ctx context.Context) error { return p.set.close(ctx) }

var _ budget.Compactor = (*Plugin)(nil)
