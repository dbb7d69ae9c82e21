package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/sys"

	"github.com/toolcompact/compact/registry"
	"github.com/toolcompact/compact/schemas"
)

const wasmPageSize = 64 << 10

// loadTimeout bounds the first call of a plugin at load time (it runs the
// guest's runtime initialisation, which for Go takes a few milliseconds).
const loadTimeout = 5 * time.Second

// pluginSet compiles and holds the plugins of one Engine.
type pluginSet struct {
	cfg   *config
	cache wazero.CompilationCache
	// rtConfig is the runtime configuration every plugin runtime starts
	// from. Close-on-context-done is what makes a deadline stop a looping
	// plugin; see RATIONALE.md.
	rtConfig wazero.RuntimeConfig

	mu      sync.Mutex
	plugins map[string]*loading
}

type loading struct {
	once sync.Once
	p    *plugin
	err  error
}

var logLevelOnce sync.Once

func newPluginSet(ctx context.Context, cfg *config) (*pluginSet, error) {
	ps := &pluginSet{cfg: cfg, plugins: map[string]*loading{}}
	if cfg.cacheDir != "" {
		c, err := wazero.NewCompilationCacheWithDir(cfg.cacheDir)
		switch {
		case err == nil:
			ps.cache = c
		case cfg.cacheSet:
			return nil, fmt.Errorf("host: compilation cache %s: %w", cfg.cacheDir, err)
		default:
			// The default directory is a convenience: without it plugins
			// still load, only slower.
			cfg.logger.Warn("compilation cache unavailable; compiling in memory", "dir", cfg.cacheDir, "err", err)
		}
	}
	if ps.cache == nil {
		ps.cache = wazero.NewCompilationCache()
	}
	ps.rtConfig = wazero.NewRuntimeConfig().
		WithCloseOnContextDone(true).
		WithCompilationCache(ps.cache)
	// Plugin log calls below this level are dropped by extism itself
	// (the level is process-wide in extism; the native runtime uses the
	// same level, kernel.MinLevel); the rest is captured per instance
	// with a size limit.
	logLevelOnce.Do(func() { extism.SetLogLevel(extism.LogLevelInfo) })
	if _, ok := os.LookupEnv("EXTISM_ENABLE_WASI_OUTPUT"); ok && cfg.runtime == RuntimeExtismSDK {
		cfg.logger.Warn("EXTISM_ENABLE_WASI_OUTPUT is set: Extism sends plugin stdout and stderr to this process's own, not to the host's capped log")
	}
	return ps, nil
}

// load returns the plugin for a registry plugin entry, compiling it on
// first use. Errors are *PluginError.
func (ps *pluginSet) load(ctx context.Context, spec *registry.Plugin) (*plugin, error) {
	pages := memoryPages(spec.Memory)
	key := fmt.Sprintf("%s\x00%d", spec.Path, pages)
	ps.mu.Lock()
	l := ps.plugins[key]
	if l == nil {
		l = &loading{}
		ps.plugins[key] = l
	}
	ps.mu.Unlock()
	l.once.Do(func() {
		// The result is kept for every later caller, so a caller that
		// gives up must not leave a cancelled compile behind.
		l.p, l.err = ps.compile(context.WithoutCancel(ctx), spec.Path, pages)
	})
	return l.p, l.err
}

// memoryPages converts a memory cap in bytes to WebAssembly pages,
// rounding up; 0 means DefaultMemory.
func memoryPages(bytes int64) uint32 {
	if bytes <= 0 {
		bytes = DefaultMemory
	}
	p := (bytes + wasmPageSize - 1) / wasmPageSize
	if p > 65536 {
		p = 65536
	}
	return uint32(p)
}

// compile reads, checks, compiles and instantiates one plugin.
func (ps *pluginSet) compile(ctx context.Context, name string, pages uint32) (*plugin, error) {
	res, err := resolvePlugin(name, ps.cfg.pluginDir)
	if err != nil {
		return nil, err
	}
	file, data := res.file, res.data
	declares, err := checkExports(name, file, data)
	if err != nil {
		return nil, err
	}
	rt := ps.cfg.runtime
	if rt == "" {
		rt = RuntimeNative
	}
	cp, err := compileGuest(ctx, rt, ps.rtConfig, data, pages, ps.cfg.compileWorkers)
	if err != nil {
		return nil, pluginErr(name, KindLoad, "%s is not a valid WebAssembly module: %w", file, err)
	}
	size := ps.cfg.poolSize
	if size == 0 {
		size = min(runtime.GOMAXPROCS(0), 8)
	}
	p := &plugin{
		name:     name,
		file:     file,
		source:   res.source,
		sha256:   res.sha256,
		compiled: cp,
		maxPages: pages,
		idle:     make(chan *instance, size),
		sem:      make(chan struct{}, size),
		logLimit: ps.cfg.logLimit,
		cfg:      ps.cfg,
	}
	// Fail fast: instantiate one instance and, when the module declares
	// its ABI version, ask it.
	inst, perr := p.acquire(ctx)
	if perr != nil {
		_ = p.close(ctx)
		return nil, perr
	}
	if declares {
		lctx, cancel := context.WithTimeout(ctx, loadTimeout)
		defer cancel()
		rc, _, err := inst.g.call(lctx, schemas.ExportABIVersion, nil)
		if err != nil {
			perr := p.classify(lctx, inst, clipError(err))
			p.release(inst, false)
			_ = p.close(ctx)
			return nil, fmt.Errorf("%s: %s at load: %w", file, schemas.ExportABIVersion, perr)
		}
		if int32(rc) != schemas.ABIVersion {
			p.release(inst, false)
			_ = p.close(ctx)
			return nil, pluginErr(name, KindABI, "%s: %s returned ABI version %d; this host speaks version %d",
				file, schemas.ExportABIVersion, int32(rc), schemas.ABIVersion)
		}
	}
	p.release(inst, !inst.g.closed())
	ps.cfg.logger.Debug("plugin loaded", "plugin", name, "file", file, "source", res.source, "sha256", res.sha256, "max_pages", pages, "pool", size, "runtime", rt)
	return p, nil
}

// checkExports reads the export and type sections of data (without
// compiling it: a compile decodes and validates the whole module, ~100 ms
// for a Go plugin, and extism's compile does that next) and checks the
// ABI exports and their signatures. compact_result is required;
// compact_abi_version is optional (a module without it speaks ABI v1, as
// the first statement of the ABI had it) and declares reports whether the
// module exports it, so that the caller asks it its version.
func checkExports(name, file string, data []byte) (declares bool, err error) {
	exports, err := exportedFuncs(data)
	if err != nil {
		return false, pluginErr(name, KindLoad, "%s is not a valid WebAssembly module: %w", file, err)
	}
	for _, want := range []string{schemas.ExportCompactResult, schemas.ExportABIVersion} {
		sig, ok := exports[want]
		if !ok {
			if want == schemas.ExportABIVersion {
				continue
			}
			return false, pluginErr(name, KindABI, "%s does not export %q (ABI v%d needs %s; see schemas/ABI.md)",
				file, want, schemas.ABIVersion, schemas.ExportCompactResult)
		}
		if len(sig.params) != 0 || len(sig.results) != 1 || sig.results[0] != 0x7f {
			return false, pluginErr(name, KindABI, "%s: export %q has signature %s, want () -> i32", file, want, sig)
		}
	}
	_, declares = exports[schemas.ExportABIVersion]
	return declares, nil
}

func (ps *pluginSet) close(ctx context.Context) error {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	var errs []error
	for _, l := range ps.plugins {
		if l.p != nil {
			errs = append(errs, l.p.close(ctx))
		}
	}
	errs = append(errs, ps.cache.Close(ctx))
	return errors.Join(errs...)
}

// plugin is one compiled plugin with its pool of instances and its
// health.
type plugin struct {
	name     string
	file     string
	source   string // the file's path, or SourceEmbedded
	sha256   string // of the module, hex
	compiled compiledGuest
	maxPages uint32
	logLimit int
	cfg      *config

	// idle holds instances ready for a call; sem holds one token per
	// live instance (idle or busy), so its capacity bounds the pool.
	idle chan *instance
	sem  chan struct{}
	live atomic.Int64 // instances alive now (tests check for leaks)
	made atomic.Int64 // instances ever made

	mu        sync.Mutex
	fails     int
	coolUntil time.Time
	last      *PluginError
}

// instance is one plugin instance with its captured log.
type instance struct {
	g   guest
	log *limitedBuffer
}

// acquire takes an idle instance or makes one, waiting while the pool is
// at its bound. Waiting is bounded by ctx (the caller's, not the call's
// deadline): a busy pool is not a plugin fault.
func (p *plugin) acquire(ctx context.Context) (*instance, error) {
	select {
	case inst := <-p.idle:
		return inst, nil
	default:
	}
	select {
	case inst := <-p.idle:
		return inst, nil
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for an instance of plugin %s: %w", p.name, ctx.Err())
	}
	log := &limitedBuffer{limit: p.logLimit}
	// Instantiation runs the module's start section, guest code that may
	// loop: it gets a deadline like any call (with close-on-context-done
	// the runtime stops it there).
	ictx, cancel := context.WithTimeout(ctx, loadTimeout)
	g, err := p.compiled.instance(ictx, log)
	cancel()
	if err != nil {
		<-p.sem
		return nil, &PluginError{Plugin: p.name, Kind: KindLoad, Err: fmt.Errorf("instantiate %s: %w", p.file, err), Log: log.String()}
	}
	p.live.Add(1)
	p.made.Add(1)
	return &instance{g: g, log: log}, nil
}

// release returns inst to the pool, or closes it when it is not healthy.
func (p *plugin) release(inst *instance, healthy bool) {
	if healthy {
		p.idle <- inst // never blocks: at most cap(sem) instances live
		return
	}
	_ = inst.g.close(context.Background())
	p.live.Add(-1)
	<-p.sem
}

// call runs compact_result on framed input with a deadline of timeout
// and returns the raw framed output. Any fault is a *PluginError and
// throws the instance away.
func (p *plugin) call(ctx context.Context, input []byte, timeout time.Duration) ([]byte, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	inst, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	inst.log.Reset()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	rc, out, err := inst.g.call(cctx, schemas.ExportCompactResult, input)
	if err != nil {
		err = clipError(err)
	}
	if err == nil && rc != 0 {
		err = fmt.Errorf("returned status %d without a message", rc)
	}
	if err != nil {
		perr := p.classify(cctx, inst, err)
		if perr.Kind == KindTimeout {
			perr.Err = fmt.Errorf("no answer within %v (stopped after %v): %w", timeout, time.Since(start).Round(time.Millisecond), perr.Err)
		}
		p.release(inst, false)
		return nil, perr
	}
	if inst.log.Len() > 0 {
		p.cfg.logger.Debug("plugin log", "plugin", p.name, "log", inst.log.String())
	}
	// A guest that ended the call with proc_exit(0) answered, but its
	// module is closed: it serves no further call.
	p.release(inst, !inst.g.closed())
	return out, nil
}

// classify turns the error of a call into a *PluginError.
func (p *plugin) classify(cctx context.Context, inst *instance, err error) *PluginError {
	pe := &PluginError{Plugin: p.name, Err: err, Log: inst.log.String()}
	var exit *sys.ExitError
	isExit := errors.As(err, &exit)
	msg := err.Error()
	switch {
	case errors.Is(cctx.Err(), context.DeadlineExceeded),
		isExit && exit.ExitCode() == sys.ExitCodeDeadlineExceeded:
		pe.Kind = KindTimeout
	case isExit && exit.ExitCode() == sys.ExitCodeContextCanceled:
		pe.Kind = KindTimeout
		pe.Err = fmt.Errorf("call cancelled: %w", err)
	case strings.Contains(pe.Log, "out of memory") || strings.Contains(msg, "out of memory"):
		pe.Kind = KindMemory
		pe.Err = fmt.Errorf("exceeded its memory cap of %d pages (%d MiB): %w", p.maxPages, int64(p.maxPages)*wasmPageSize>>20, err)
	case isExit:
		pe.Kind = KindTrap
		pe.Err = fmt.Errorf("exited with status %d: %w", exit.ExitCode(), err)
	case strings.Contains(msg, "wasm error:") || strings.Contains(msg, "recovered by wazero") ||
		strings.Contains(msg, "wasm stack trace") || strings.Contains(msg, "failed to initialize runtime"):
		// A trap, or a host function (such as a refused http_request)
		// that panicked and was turned into an error by wazero.
		pe.Kind = KindTrap
	default:
		pe.Kind = KindFailed
	}
	return pe
}

// available reports whether the plugin is not on a cool-down at now.
func (p *plugin) available(now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !now.Before(p.coolUntil)
}

// failed records a fault; the coolFails-th fault in a row starts a
// cool-down.
func (p *plugin) failed(now time.Time, pe *PluginError) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fails++
	p.last = pe
	if p.fails >= p.cfg.coolFails {
		p.coolUntil = now.Add(p.cfg.coolFor)
		p.fails = 0
		p.cfg.logger.Warn("plugin put on cool-down", "plugin", p.name, "for", p.cfg.coolFor, "last", pe)
	}
}

// succeeded resets the run of faults.
func (p *plugin) succeeded() {
	p.mu.Lock()
	p.fails = 0
	p.mu.Unlock()
}

func (p *plugin) coolDownErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Errorf("on cool-down until %s after %d faults in a row (last: %s: %v)",
		p.coolUntil.UTC().Format(time.RFC3339), p.cfg.coolFails, p.last.Kind, p.last.Err)
}

// close closes every idle instance and the compiled plugin.
func (p *plugin) close(ctx context.Context) error {
	for {
		select {
		case inst := <-p.idle:
			_ = inst.g.close(ctx)
			p.live.Add(-1)
			<-p.sem
		default:
			return p.compiled.close(ctx)
		}
	}
}

// limitedBuffer keeps the first limit bytes written to it and counts the
// rest. It is safe for concurrent use.
type limitedBuffer struct {
	mu      sync.Mutex
	limit   int
	buf     bytes.Buffer
	dropped int
}

// Write keeps what fits under the limit and counts the rest; it never fails.
func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.limit - b.buf.Len()
	if room < 0 {
		room = 0
	}
	if len(p) > room {
		b.dropped += len(p) - room
		b.buf.Write(p[:room])
	} else {
		b.buf.Write(p)
	}
	return len(p), nil
}

// Len is the number of bytes kept.
func (b *limitedBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// String returns what was kept, with a note of how much was dropped.
func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped > 0 {
		return fmt.Sprintf("%s… [%d more bytes of plugin log dropped]", b.buf.String(), b.dropped)
	}
	return b.buf.String()
}

// Reset empties the buffer for the next call.
func (b *limitedBuffer) Reset() {
	b.mu.Lock()
	b.buf.Reset()
	b.dropped = 0
	b.mu.Unlock()
}

// maxPluginMessage is the most bytes of a failed call's error text the host
// keeps. A plugin sets its message with error_set and may make it as large
// as its memory cap; the text goes into the result's actions and the log.
const maxPluginMessage = 4 << 10

// clippedError is an error whose text is cut to maxPluginMessage bytes,
// saying how many it left out; it unwraps to the full error.
type clippedError struct{ err error }

func (c clippedError) Error() string {
	s := c.err.Error()
	n := maxPluginMessage
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:n], len(s)-n)
}

func (c clippedError) Unwrap() error { return c.err }

// clipError returns err, wrapped in a clippedError when its text is
// longer than maxPluginMessage.
func clipError(err error) error {
	if len(err.Error()) > maxPluginMessage {
		return clippedError{err}
	}
	return err
}
