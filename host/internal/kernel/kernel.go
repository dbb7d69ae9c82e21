// Package kernel is a native Go implementation of the Extism host ABI on
// wazero: the "extism:host/env" import module (the kernel's memory,
// input, output and error, plus config, vars, HTTP, log and log-level
// functions), the guest runtime initialisation and the call sequence of
// extism/go-sdk's Plugin.CallWithContext.
//
// A plugin sees the same imports with the same signatures and semantics
// as under extism/go-sdk v1.7.1, which keeps the kernel in a WebAssembly
// module of its own and reaches it with about seven Go→wasm entries per
// call plus one per kernel function the guest calls. Here the kernel
// memory is a Go-side Arena and every host function is plain Go, so a
// call is one Go→wasm entry (the export): under wazero's
// close-on-context-done that is one watcher goroutine instead of one per
// entry.
//
// Deliberate differences, visible only to a misbehaving plugin: an access
// outside the kernel memory that the Extism kernel would silently ignore
// or answer with 0 (load, store, input_set, output_set, error_set with a
// wild offset) traps here with a *Trap; a failed allocation returns 0 as
// in the kernel and is also noted in the instance's log.
package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// ModuleName is the import module of the Extism host ABI.
const ModuleName = "extism:host/env"

// PageSize is the size of a WebAssembly page.
const PageSize = 64 << 10

// Level is a plugin log level, numbered as in extism/go-sdk (LogLevel).
type Level int32

// The log levels a plugin can log at.
const (
	LevelTrace Level = iota + 1
	LevelDebug
	LevelInfo
	LevelWarn
	LevelError
)

// String names the level as extism/go-sdk does ("INFO").
func (l Level) String() string {
	switch l {
	case LevelTrace:
		return "TRACE"
	case LevelDebug:
		return "DEBUG"
	case LevelInfo:
		return "INFO"
	case LevelWarn:
		return "WARN"
	case LevelError:
		return "ERROR"
	}
	return "OFF"
}

// extismCompat is the number get_log_level returns for a level (Extism's
// numbering starts at 0 for trace).
func (l Level) extismCompat() int32 { return int32(l) - 1 }

// MinLevel is the lowest level whose messages are kept; lower ones are
// dropped, as the host configures extism/go-sdk (SetLogLevel(Info)).
const MinLevel = LevelInfo

// Trap is the error a host function panics with when a plugin calls it
// with arguments it cannot honour (an offset outside the kernel memory,
// a refused HTTP request). wazero turns the panic into an error returned
// by the call, which wraps the *Trap.
type Trap struct {
	// Func is the host function, such as "load_u64".
	Func string
	// Msg says what was wrong.
	Msg string
}

// Error renders the trap as "extism:host/env load_u64: msg".
func (t *Trap) Error() string { return ModuleName + " " + t.Func + ": " + t.Msg }

func trap(fn, format string, args ...any) {
	panic(&Trap{Func: fn, Msg: fmt.Sprintf(format, args...)})
}

// Options configure Compile.
type Options struct {
	// Runtime is the wazero configuration to start from (close on
	// context done, compilation cache). The memory limit is set from
	// MaxPages.
	Runtime wazero.RuntimeConfig
	// MaxPages caps each instance's linear memory and its kernel memory
	// (in 64 KiB pages).
	MaxPages uint32
	// Config is what config_get answers (Extism's manifest config); nil
	// answers every key with "none".
	Config map[string]string
}

// Compiled is a compiled plugin on a wazero runtime of its own, ready to
// be instantiated any number of times. It is safe for concurrent use.
type Compiled struct {
	rt     wazero.Runtime
	mod    wazero.CompiledModule
	limit  uint64
	config map[string]string
}

// Compile makes a runtime with the WASI preview 1 and Extism host
// modules and compiles wasm on it.
func Compile(ctx context.Context, wasm []byte, o Options) (*Compiled, error) {
	rc := o.Runtime
	if rc == nil {
		rc = wazero.NewRuntimeConfig()
	}
	if o.MaxPages > 0 {
		rc = rc.WithMemoryLimitPages(o.MaxPages)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("kernel: WASI: %w", err)
	}
	if err := instantiateEnv(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("kernel: %s: %w", ModuleName, err)
	}
	mod, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		_ = rt.Close(ctx)
		return nil, err
	}
	pages := uint64(o.MaxPages)
	if pages == 0 {
		pages = 65536
	}
	return &Compiled{rt: rt, mod: mod, limit: pages * PageSize, config: o.Config}, nil
}

// Close releases the runtime and every instance made from it.
func (c *Compiled) Close(ctx context.Context) error { return c.rt.Close(ctx) }

// Instance is one instance of a plugin with its kernel memory. It serves
// one call at a time.
type Instance struct {
	c     *Compiled
	mod   api.Module
	arena *Arena
	log   func(Level, string)
	vars  map[string][]byte

	funcs       map[string]api.Function
	init        func(context.Context) error
	initialized bool
}

// Instance instantiates the plugin with mc (its stdout, stderr and
// other WASI settings; its start functions and name are replaced: the
// guest runtime is initialised on the first call, as by extism/go-sdk).
// logf receives the plugin's log messages at MinLevel and above, and
// notes from the kernel; nil drops them.
func (c *Compiled) Instance(ctx context.Context, mc wazero.ModuleConfig, logf func(Level, string)) (*Instance, error) {
	if mc == nil {
		mc = wazero.NewModuleConfig()
	}
	if logf == nil {
		logf = func(Level, string) {}
	}
	inst := &Instance{c: c, arena: NewArena(c.limit), log: logf, funcs: map[string]api.Function{}}
	mod, err := c.rt.InstantiateModule(context.WithValue(ctx, callKey{}, inst), c.mod, mc.WithStartFunctions().WithName(""))
	if err != nil {
		return nil, err
	}
	inst.mod = mod
	inst.init = inst.detectRuntime()
	return inst, nil
}

// Close closes the instance.
func (i *Instance) Close(ctx context.Context) error { return i.mod.Close(ctx) }

// Arena is the instance's kernel memory.
func (i *Instance) Arena() *Arena { return i.arena }

// Module is the instance's guest module.
func (i *Instance) Module() api.Module { return i.mod }

func (i *Instance) function(name string) api.Function {
	f, ok := i.funcs[name]
	if !ok {
		f = i.mod.ExportedFunction(name)
		i.funcs[name] = f
	}
	return f
}

// detectRuntime finds the guest's runtime initialisation exactly as
// extism/go-sdk (runtime.go) does for a main module with WASI enabled:
// Haskell (hs_init, after a reactor's _initialize), else a WASI reactor
// (_initialize), else a WASI command's constructors (__wasm_call_ctors),
// else nothing.
func (i *Instance) detectRuntime() func(context.Context) error {
	if hs := i.mod.ExportedFunction("hs_init"); hs != nil {
		reactor := i.mod.ExportedFunction("_initialize")
		return func(ctx context.Context) error {
			if reactor != nil {
				if _, err := reactor.Call(ctx); err != nil {
					i.log(LevelError, "Error running reactor _initialize: "+err.Error())
				}
			}
			_, err := hs.Call(ctx, 0, 0)
			return err
		}
	}
	for _, name := range []string{"_initialize", "__wasm_call_ctors"} {
		f := i.mod.ExportedFunction(name)
		if f == nil {
			continue
		}
		if len(f.Definition().ParamTypes()) != 0 {
			// extism/go-sdk skips a reactor entry with parameters and
			// then looks for a command's; so do we.
			continue
		}
		return func(ctx context.Context) error {
			_, err := f.Call(ctx)
			return err
		}
	}
	return nil
}

// callKey is the context key under which the instance of the current call
// is found by the host functions. It is the last value set on the call's
// context, so the lookup stops at the first link.
type callKey struct{}

// Call calls the export name with input as the Extism input, exactly as
// extism/go-sdk's Plugin.CallWithContext does: reset the kernel memory,
// set the input, initialise the guest runtime on the first call, call the
// export, then read the error message and the output. A WASI exit with
// status 0 is success; another exit status is the return code and the
// error. A non-empty error message is returned as an error even with
// return code 0, as extism/go-sdk does.
//
// ctx bounds the call when the runtime closes modules on context done.
func (i *Instance) Call(ctx context.Context, name string, input []byte) (uint32, []byte, error) {
	if i.mod.IsClosed() {
		return 0, nil, errors.New("module is closed")
	}
	a := i.arena
	a.Reset()
	if len(input) > 0 {
		p := a.Write(input)
		if p == 0 {
			return 1, []byte{}, fmt.Errorf("input of %d bytes exceeds the kernel memory limit of %d bytes: out of memory", len(input), a.Limit())
		}
		a.SetInput(p, uint64(len(input)))
	}
	ctx = context.WithValue(ctx, callKey{}, i)
	f := i.function(name)
	if f == nil {
		return 1, []byte{}, fmt.Errorf("unknown function: %s", name)
	} else if n := len(f.Definition().ResultTypes()); n > 1 {
		return 1, []byte{}, fmt.Errorf("function %s has %v results, expected 0 or 1", name, n)
	}
	if i.init != nil && !i.initialized && name != "_start" && name != "_initialize" {
		if err := i.init(ctx); err != nil {
			return 1, []byte{}, fmt.Errorf("failed to initialize runtime: %v", err)
		}
		i.initialized = true
	}
	res, err := f.Call(ctx)
	if exit, ok := err.(*sys.ExitError); ok {
		if exit.ExitCode() == 0 {
			err = nil
		}
		if len(res) == 0 {
			res = []uint64{api.EncodeU32(exit.ExitCode())}
		}
	}
	var rc uint32
	switch {
	case len(res) > 0:
		rc = api.DecodeU32(res[0])
	case err != nil:
		rc = 1
	}
	if err != nil {
		return rc, []byte{}, err
	}
	if a.Failed > 0 {
		i.log(LevelWarn, fmt.Sprintf("kernel alloc of %d bytes refused: out of memory (kernel memory limit %d bytes)", a.Failed, a.Limit()))
	}
	var callErr error
	if msg := a.ErrorMessage(); msg != "" {
		callErr = errors.New(msg)
	}
	return rc, a.OutputBytes(), callErr
}

// current returns the instance of the call in progress.
func current(ctx context.Context, fn string) *Instance {
	if i, ok := ctx.Value(callKey{}).(*Instance); ok {
		return i
	}
	trap(fn, "called outside an Extism call")
	return nil
}

type hostFunc struct {
	name    string
	params  []api.ValueType
	results []api.ValueType
	fn      func(ctx context.Context, i *Instance, stack []uint64)
}

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
)

// hostFuncs is the extism:host/env module: every function extism/go-sdk
// v1.7.1 exports there, with the same signature.
var hostFuncs = []hostFunc{
	{"alloc", []api.ValueType{i64}, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		s[0] = i.arena.Alloc(s[0])
	}},
	{"free", []api.ValueType{i64}, nil, func(_ context.Context, i *Instance, s []uint64) {
		i.arena.Free(s[0])
	}},
	{"length", []api.ValueType{i64}, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		s[0] = i.arena.Length(s[0])
	}},
	{"length_unsafe", []api.ValueType{i64}, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		s[0] = i.arena.Length(s[0])
	}},
	{"load_u8", []api.ValueType{i64}, []api.ValueType{i32}, func(_ context.Context, i *Instance, s []uint64) {
		v, ok := i.arena.LoadU8(s[0])
		if !ok {
			trap("load_u8", "offset %d is outside the %s", s[0], i.arena)
		}
		s[0] = uint64(v)
	}},
	{"load_u64", []api.ValueType{i64}, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		v, ok := i.arena.LoadU64(s[0])
		if !ok {
			trap("load_u64", "could not read value at offset: %d (outside the %s)", s[0], i.arena)
		}
		s[0] = v
	}},
	{"store_u8", []api.ValueType{i64, i32}, nil, func(_ context.Context, i *Instance, s []uint64) {
		if !i.arena.StoreU8(s[0], byte(s[1])) {
			trap("store_u8", "offset %d is outside the %s", s[0], i.arena)
		}
	}},
	{"store_u64", []api.ValueType{i64, i64}, nil, func(_ context.Context, i *Instance, s []uint64) {
		if !i.arena.StoreU64(s[0], s[1]) {
			trap("store_u64", "could not write value '%d' at offset: %d (outside the %s)", s[1], s[0], i.arena)
		}
	}},
	{"input_length", nil, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		_, s[0] = i.arena.Input()
	}},
	{"input_offset", nil, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		s[0], _ = i.arena.Input()
	}},
	{"input_load_u8", []api.ValueType{i64}, []api.ValueType{i32}, func(_ context.Context, i *Instance, s []uint64) {
		s[0] = uint64(i.arena.InputLoadU8(s[0]))
	}},
	{"input_load_u64", []api.ValueType{i64}, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		v, ok := i.arena.InputLoadU64(s[0])
		if !ok {
			trap("input_load_u64", "could not read value at offset: %d of the input (outside the %s)", s[0], i.arena)
		}
		s[0] = v
	}},
	{"input_set", []api.ValueType{i64, i64}, nil, func(_ context.Context, i *Instance, s []uint64) {
		if !i.arena.SetInput(s[0], s[1]) {
			trap("input_set", "%d bytes at offset %d are outside the %s", s[1], s[0], i.arena)
		}
	}},
	{"output_set", []api.ValueType{i64, i64}, nil, func(_ context.Context, i *Instance, s []uint64) {
		if !i.arena.SetOutput(s[0], s[1]) {
			trap("output_set", "%d bytes at offset %d are outside the %s", s[1], s[0], i.arena)
		}
	}},
	{"output_length", nil, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		_, s[0] = i.arena.Output()
	}},
	{"output_offset", nil, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		s[0], _ = i.arena.Output()
	}},
	{"error_set", []api.ValueType{i64}, nil, func(_ context.Context, i *Instance, s []uint64) {
		if !i.arena.SetError(s[0]) {
			trap("error_set", "offset %d is outside the %s", s[0], i.arena)
		}
	}},
	{"error_get", nil, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		s[0] = i.arena.Error()
	}},
	{"reset", nil, nil, func(_ context.Context, i *Instance, _ []uint64) {
		i.arena.Reset()
	}},
	{"memory_bytes", nil, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		s[0] = i.arena.Size()
	}},
	{"config_get", []api.ValueType{i64}, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		v, ok := i.c.config[string(i.arena.Bytes(s[0]))]
		if !ok {
			s[0] = 0
			return
		}
		s[0] = i.arena.Write([]byte(v))
	}},
	{"var_get", []api.ValueType{i64}, []api.ValueType{i64}, func(_ context.Context, i *Instance, s []uint64) {
		name := string(i.arena.Bytes(s[0]))
		i.arena.Free(s[0])
		v, ok := i.vars[name]
		if !ok {
			s[0] = 0
			return
		}
		s[0] = i.arena.Write(v)
	}},
	{"var_set", []api.ValueType{i64, i64}, nil, func(_ context.Context, _ *Instance, _ []uint64) {
		// The host gives plugins no variable store (MaxVarBytes 0 in
		// extism/go-sdk), which refuses every var_set with this panic.
		trap("var_set", "Vars are disabled by this host")
	}},
	{"http_request", []api.ValueType{i64, i64}, []api.ValueType{i64}, httpRequest},
	{"http_status_code", nil, []api.ValueType{i32}, func(_ context.Context, _ *Instance, s []uint64) {
		s[0] = 0 // no request ever succeeds
	}},
	{"http_headers", nil, []api.ValueType{i64}, func(_ context.Context, _ *Instance, s []uint64) {
		s[0] = 0 // response headers are not enabled
	}},
	{"get_log_level", nil, []api.ValueType{i32}, func(_ context.Context, _ *Instance, s []uint64) {
		s[0] = api.EncodeI32(MinLevel.extismCompat())
	}},
	logFunc("log_trace", LevelTrace),
	logFunc("log_debug", LevelDebug),
	logFunc("log_info", LevelInfo),
	logFunc("log_warn", LevelWarn),
	logFunc("log_error", LevelError),
}

func logFunc(name string, level Level) hostFunc {
	return hostFunc{name, []api.ValueType{i64}, nil, func(_ context.Context, i *Instance, s []uint64) {
		if level >= MinLevel {
			i.log(level, string(i.arena.Bytes(s[0])))
		}
		i.arena.Free(s[0])
	}}
}

// httpRequest is http_request with no allowed host: it reads and parses
// the request as extism/go-sdk does and refuses it with the same panic
// messages ("HTTP request to '…' is not allowed").
func httpRequest(_ context.Context, i *Instance, s []uint64) {
	raw := i.arena.Bytes(s[0])
	var req struct {
		URL     string `json:"url"`
		Headers map[string]string
		Method  string
	}
	err := json.Unmarshal(raw, &req)
	i.arena.Free(s[0])
	if err != nil {
		trap("http_request", "invalid http request: %v", err)
	}
	if _, err := url.Parse(req.URL); err != nil {
		trap("http_request", "invalid url: %v", err)
	}
	trap("http_request", "HTTP request to '%v' is not allowed", req.URL)
}

// HostFunc returns the Go body of the host function name for tests that
// drive the ABI without a guest, or nil.
func HostFunc(name string) func(ctx context.Context, i *Instance, stack []uint64) {
	for _, f := range hostFuncs {
		if f.name == name {
			return f.fn
		}
	}
	return nil
}

// HostFuncNames lists the functions of the extism:host/env module.
func HostFuncNames() []string {
	names := make([]string, len(hostFuncs))
	for k, f := range hostFuncs {
		names[k] = f.name
	}
	return names
}

// WithCall returns ctx carrying i as the instance of the call in
// progress, for tests that call host functions directly.
func WithCall(ctx context.Context, i *Instance) context.Context {
	return context.WithValue(ctx, callKey{}, i)
}

// NewTestInstance returns an instance with no module, only an arena of
// limit bytes and a log, for tests of the host functions.
func NewTestInstance(limit uint64, logf func(Level, string)) *Instance {
	if logf == nil {
		logf = func(Level, string) {}
	}
	return &Instance{c: &Compiled{limit: limit}, arena: NewArena(limit), log: logf}
}

func instantiateEnv(ctx context.Context, rt wazero.Runtime) error {
	b := rt.NewHostModuleBuilder(ModuleName)
	for _, f := range hostFuncs {
		name, fn := f.name, f.fn
		b.NewFunctionBuilder().
			WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, _ api.Module, stack []uint64) {
				fn(ctx, current(ctx, name), stack)
			}), f.params, f.results).
			WithName(name).
			Export(name)
	}
	_, err := b.Instantiate(ctx)
	return err
}
