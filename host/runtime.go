package host

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/toolcompact/compact/host/internal/kernel"
)

// Runtime names an implementation of the Extism host ABI (the
// "extism:host/env" imports a plugin calls) that runs plugins.
type Runtime string

const (
	// RuntimeNative is the default: compact's own implementation of the
	// Extism host ABI in Go on wazero (host/internal/kernel). Plugins see
	// the same imports and semantics as under extism/go-sdk; a call is
	// one entry into WebAssembly instead of about seven plus one per
	// kernel function the guest calls. See RATIONALE.md, "Native Extism
	// host ABI".
	RuntimeNative Runtime = "native"
	// RuntimeExtismSDK runs plugins with github.com/extism/go-sdk, the
	// reference Extism host. The differential tests and the conformance
	// kit's "reference host" check run every plugin on both and require
	// the same results.
	RuntimeExtismSDK Runtime = "extism-sdk"
)

// WithRuntime selects the implementation of the Extism host ABI
// (RuntimeNative by default; RuntimeExtismSDK for the reference host).
func WithRuntime(r Runtime) Option {
	return func(c *config) error {
		switch r {
		case RuntimeNative, RuntimeExtismSDK:
			c.runtime = r
			return nil
		case "":
			c.runtime = RuntimeNative
			return nil
		}
		return fmt.Errorf("host: WithRuntime: unknown runtime %q (want %q or %q)", r, RuntimeNative, RuntimeExtismSDK)
	}
}

// compiledGuest is a plugin compiled by one runtime.
type compiledGuest interface {
	// instance makes a new instance whose stdout, stderr and log go to log.
	instance(ctx context.Context, log *limitedBuffer) (guest, error)
	close(ctx context.Context) error
}

// guest is one plugin instance; it serves one call at a time.
type guest interface {
	// call runs the export with input as the Extism input and returns
	// the return code, the output and the error, as extism/go-sdk's
	// Plugin.CallWithContext does.
	call(ctx context.Context, export string, input []byte) (uint32, []byte, error)
	// closed reports whether the guest's module is closed: after a
	// deadline, or after a call that ended in proc_exit, even with status
	// 0, which extism/go-sdk reports as success. Such an instance can
	// serve no further call.
	closed() bool
	close(ctx context.Context) error
}

// compileGuest compiles data on the runtime r with the memory cap pages,
// compiling its functions on workers goroutines when the compilation
// cache misses (GOMAXPROCS when 0).
func compileGuest(ctx context.Context, r Runtime, rc wazero.RuntimeConfig, data []byte, pages uint32, workers int) (compiledGuest, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx = experimental.WithCompilationWorkers(ctx, workers)
	if r == RuntimeExtismSDK {
		manifest := extism.Manifest{
			Wasm:   []extism.Wasm{extism.WasmData{Data: data, Name: "main"}},
			Memory: &extism.ManifestMemory{MaxPages: pages, MaxVarBytes: 0, MaxHttpResponseBytes: 0},
			// No AllowedHosts and no AllowedPaths: no network, no files.
		}
		cp, err := extism.NewCompiledPlugin(ctx, manifest, extism.PluginConfig{EnableWasi: true, RuntimeConfig: rc}, nil)
		if err != nil {
			return nil, err
		}
		return sdkCompiled{cp}, nil
	}
	c, err := kernel.Compile(ctx, data, kernel.Options{Runtime: rc, MaxPages: pages})
	if err != nil {
		return nil, err
	}
	return nativeCompiled{c}, nil
}

// moduleConfig is the guest's WASI configuration: no files, no network,
// no environment, no arguments, wazero's fake clocks and random source;
// stdout and stderr into the capped log.
func moduleConfig(log *limitedBuffer) wazero.ModuleConfig {
	return wazero.NewModuleConfig().WithStdout(log).WithStderr(log)
}

type nativeCompiled struct{ c *kernel.Compiled }

func (n nativeCompiled) instance(ctx context.Context, log *limitedBuffer) (guest, error) {
	inst, err := n.c.Instance(ctx, moduleConfig(log), func(level kernel.Level, msg string) {
		fmt.Fprintf(log, "%s: %s\n", level, msg)
	})
	if err != nil {
		return nil, err
	}
	return nativeGuest{inst}, nil
}

func (n nativeCompiled) close(ctx context.Context) error { return n.c.Close(ctx) }

type nativeGuest struct{ i *kernel.Instance }

func (g nativeGuest) call(ctx context.Context, export string, input []byte) (uint32, []byte, error) {
	return g.i.Call(ctx, export, input)
}

func (g nativeGuest) closed() bool { return g.i.Module().IsClosed() }

func (g nativeGuest) close(ctx context.Context) error { return g.i.Close(ctx) }

type sdkCompiled struct{ cp *extism.CompiledPlugin }

func (s sdkCompiled) instance(ctx context.Context, log *limitedBuffer) (guest, error) {
	// extism/go-sdk does not say whether the main module is closed;
	// wazero tells a close notifier given at instantiation (the Extism
	// kernel module, instantiated with the same context, closes only
	// with the plugin).
	g := &sdkGuest{}
	ctx = experimental.WithCloseNotifier(ctx, experimental.CloseNotifyFunc(func(context.Context, uint32) { g.isClosed.Store(true) }))
	plug, err := s.cp.Instance(ctx, extism.PluginInstanceConfig{ModuleConfig: moduleConfig(log)})
	if err != nil {
		return nil, err
	}
	plug.SetLogger(func(level extism.LogLevel, msg string) {
		fmt.Fprintf(log, "%s: %s\n", level, msg)
	})
	g.p = plug
	return g, nil
}

func (s sdkCompiled) close(ctx context.Context) error { return s.cp.Close(ctx) }

type sdkGuest struct {
	p        *extism.Plugin
	isClosed atomic.Bool
}

func (g *sdkGuest) call(ctx context.Context, export string, input []byte) (uint32, []byte, error) {
	return g.p.CallWithContext(ctx, export, input)
}

func (g *sdkGuest) closed() bool { return g.isClosed.Load() }

func (g *sdkGuest) close(ctx context.Context) error { return g.p.Close(ctx) }
