package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/registry"
	"github.com/toolcompact/compact/schemas"
)

// DefaultBudget is the token budget of a request that names none, when
// the registry entry names none either.
const DefaultBudget = budget.DefaultBudget

// DefaultEncoding is the tokenizer encoding used unless WithEncoding says
// otherwise.
const DefaultEncoding = budget.DefaultEncoding

// DefaultTimeout is the deadline of one plugin call when the registry
// entry sets no plugin.timeout.
const DefaultTimeout = 250 * time.Millisecond

// DefaultMemory is the memory cap of a plugin when the registry entry sets
// no plugin.memory: 64 MiB, enough for a Go plugin on a few MB of input.
const DefaultMemory = 64 << 20

// Request is one tool output for Engine.Compact.
type Request struct {
	// Tool is the tool name the registry entry is looked up by.
	Tool string
	// Input is the tool output, exactly as the tool returned it.
	Input []byte
	// ContentType is the declared media type; "" means sniff it.
	ContentType string
	// Budget is the token budget; 0 means the registry entry's, then the
	// engine's default.
	Budget int
	// Args are the tool's call arguments as JSON, when known.
	Args json.RawMessage
	// Spooled, when set, holds Input already written into the engine's
	// store (artifact.DirStore.Spool): the artifact level commits it
	// instead of writing the input a second time (budget.Input.Spooled).
	Spooled budget.Spooled
}

// Option configures an Engine.
type Option func(*config) error

type config struct {
	reg       *registry.Registry
	regFile   string
	encoding  string
	counter   budget.Counter
	budget    int
	store     budget.Store
	cacheDir  string
	cacheSet  bool
	logger    *slog.Logger
	pluginDir string
	poolSize  int
	coolFails int
	coolFor   time.Duration
	logLimit  int
	lazy      bool
	runtime   Runtime
	// mapArtifacts: see WithMappedArtifacts.
	mapArtifacts bool
	// queryTimeout: see WithQueryTimeout.
	queryTimeout time.Duration
	// compileWorkers is how many goroutines compile a plugin's functions
	// on a compilation cache miss (GOMAXPROCS when 0; benchmarks set 1).
	compileWorkers int
}

// WithRegistry makes the engine use reg instead of the built-in default
// registry.
func WithRegistry(reg *registry.Registry) Option {
	return func(c *config) error {
		if reg == nil {
			return errors.New("host: WithRegistry: nil registry")
		}
		c.reg = reg
		return nil
	}
}

// WithRegistryFile loads the registry from path (see registry.Load).
func WithRegistryFile(path string) Option {
	return func(c *config) error { c.regFile = path; return nil }
}

// WithEncoding selects the tokenizer encoding ("o200k_base" or
// "cl100k_base").
func WithEncoding(name string) Option {
	return func(c *config) error { c.encoding = name; return nil }
}

// WithCounter makes the engine count tokens with ctr; it overrides
// WithEncoding.
func WithCounter(ctr budget.Counter) Option {
	return func(c *config) error { c.counter = ctr; return nil }
}

// WithBudget sets the default token budget (DefaultBudget otherwise).
func WithBudget(tokens int) Option {
	return func(c *config) error {
		if tokens <= 0 {
			return fmt.Errorf("host: WithBudget: budget must be positive, got %d", tokens)
		}
		c.budget = tokens
		return nil
	}
}

// WithStore enables the artifact level with s as the store.
func WithStore(s budget.Store) Option {
	return func(c *config) error { c.store = s; return nil }
}

// WithMappedArtifacts makes the engine's artifact queries map artifacts
// into memory instead of reading them into the heap (query.Options.Map):
// less memory and no size cap for a one-shot process such as a compact
// artifact command. A mapped artifact stays mapped for the process's
// life, so a long-running server should not use it.
func WithMappedArtifacts() Option {
	return func(c *config) error { c.mapArtifacts = true; return nil }
}

// WithQueryTimeout sets the deadline of one jq run of the engine's
// artifact queries (query.DefaultTimeout otherwise).
func WithQueryTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("host: WithQueryTimeout: the deadline must be positive, got %v", d)
		}
		c.queryTimeout = d
		return nil
	}
}

// WithCompilationCache keeps compiled plugins in dir, shared by every
// plugin and every process that uses the same directory. The default is
// compact/wazero under os.UserCacheDir; "" keeps compiled code in memory
// only.
func WithCompilationCache(dir string) Option {
	return func(c *config) error { c.cacheDir, c.cacheSet = dir, true; return nil }
}

// WithLogger sets the logger for plugin loading, faults and captured
// plugin logs (slog.Default otherwise).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error { c.logger = l; return nil }
}

// WithPluginDir makes builtin:NAME plugins come from dir/NAME.wasm in
// place of the modules embedded in the binary (package plugins/builtin).
// $COMPACT_PLUGIN_DIR wins over it; without either, the embedded modules
// are used. The working directory is never searched.
func WithPluginDir(dir string) Option {
	return func(c *config) error { c.pluginDir = dir; return nil }
}

// WithPoolSize bounds the number of live instances of each plugin (the
// default is GOMAXPROCS, at most 8).
func WithPoolSize(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("host: WithPoolSize: size must be positive, got %d", n)
		}
		c.poolSize = n
		return nil
	}
}

// WithCoolDown puts a plugin that failed failures times in a row on a
// cool-down of d, during which it is skipped (and reported). The default
// is 3 failures and 30 seconds.
func WithCoolDown(failures int, d time.Duration) Option {
	return func(c *config) error {
		if failures <= 0 || d < 0 {
			return fmt.Errorf("host: WithCoolDown: need failures > 0 and d >= 0, got %d, %v", failures, d)
		}
		c.coolFails, c.coolFor = failures, d
		return nil
	}
}

// WithLazyPlugins compiles each plugin on its first use instead of at
// start-up. A one-shot command that compacts one output wants this; a
// long-running sidecar wants the default, which fails fast at start-up.
func WithLazyPlugins() Option {
	return func(c *config) error { c.lazy = true; return nil }
}

// Engine compacts tool outputs. It is safe for concurrent use. Close it
// to release the plugins' runtimes.
type Engine struct {
	cfg      config
	reg      *registry.Registry
	counter  budget.Counter
	store    budget.Store
	pipeline *budget.Pipeline
	logger   *slog.Logger
	plugins  *pluginSet

	closeOnce sync.Once
	closeErr  error
}

// New builds an Engine: it loads the registry, makes the token counter,
// and compiles, checks and instantiates every plugin the registry names.
// A plugin named by a path that is missing or invalid fails New with the
// file and the reason; a builtin plugin that is not built is reported on
// every result that needed it instead.
func New(ctx context.Context, opts ...Option) (*Engine, error) {
	c := config{
		encoding:  DefaultEncoding,
		budget:    DefaultBudget,
		coolFails: 3,
		coolFor:   30 * time.Second,
		logLimit:  16 << 10,
	}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	if !c.cacheSet {
		c.cacheDir = defaultCacheDir()
	}
	e := &Engine{cfg: c, logger: c.logger, store: c.store}

	switch {
	case c.reg != nil && c.regFile != "":
		return nil, errors.New("host: WithRegistry and WithRegistryFile are exclusive")
	case c.reg != nil:
		e.reg = c.reg
	case c.regFile != "":
		reg, err := registry.Load(c.regFile)
		if err != nil {
			return nil, fmt.Errorf("host: registry: %w", err)
		}
		e.reg = reg
	default:
		e.reg = registry.Default()
	}

	e.counter = c.counter
	if e.counter == nil {
		ctr, err := budget.NewCounter(c.encoding)
		if err != nil {
			return nil, fmt.Errorf("host: encoding %q: %w", c.encoding, err)
		}
		e.counter = ctr
	}
	var popts []budget.Option
	if c.store != nil {
		popts = append(popts, budget.WithStore(c.store))
	}
	e.pipeline = budget.NewPipeline(e.counter, popts...)

	ps, err := newPluginSet(ctx, &e.cfg)
	if err != nil {
		return nil, err
	}
	e.plugins = ps
	if c.lazy {
		return e, nil
	}
	// Compile the plugins side by side (each has its own runtime), then
	// report the first fault in registry order.
	ents := e.reg.Entries()
	errs := make([]error, len(ents))
	var wg sync.WaitGroup
	for i, ent := range ents {
		if ent.Plugin == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = ps.load(ctx, ent.Plugin)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		var pe *PluginError
		if errors.As(err, &pe) && pe.Kind == KindMissing {
			// Reported on every result that needed it.
			e.logger.Warn("builtin plugin missing", "entry", ents[i].Name, "err", err)
			continue
		}
		if err != nil {
			_ = ps.close(ctx)
			return nil, fmt.Errorf("host: registry entry %q (%s): %w", ents[i].Name, ents[i].Source, err)
		}
	}
	return e, nil
}

// Registry returns the registry the engine looks tools up in.
func (e *Engine) Registry() *registry.Registry { return e.reg }

// Store returns the artifact store, or nil when the artifact level is off.
func (e *Engine) Store() budget.Store { return e.store }

// Counter returns the token counter.
func (e *Engine) Counter() budget.Counter { return e.counter }

// Compact makes one tool output fit its budget: it looks the tool up in
// the registry, runs the tool's plugin (or the declarative rules) and the
// later levels, and returns the result envelope. A failing plugin never
// fails the request: the declarative rules run instead and the result's
// actions say which plugin failed and why. Errors are those of the
// pipeline, such as budget.ErrCannotFit.
func (e *Engine) Compact(ctx context.Context, req Request) (schemas.Result, error) {
	ent := e.reg.Lookup(req.Tool)
	rules := rulesFromEntry(ent)
	in := budget.Input{
		Tool:        req.Tool,
		Data:        req.Input,
		ContentType: req.ContentType,
		Budget:      req.Budget,
		Rules:       rules,
		Args:        req.Args,
		Spooled:     req.Spooled,
	}
	if in.Budget == 0 && rules.Budget == 0 {
		in.Budget = e.cfg.budget
	}

	var pre []schemas.Action // actions known before the run
	var (
		mu       sync.Mutex
		rejected []error
	)
	var p *plugin
	if ent.Plugin != nil {
		var perr error
		p, perr = e.plugins.load(ctx, ent.Plugin)
		switch {
		case perr != nil:
			pre = append(pre, faultAction(perr, "used the declarative rules"))
			p = nil
		case !p.available(time.Now()):
			pe := &PluginError{Plugin: p.name, Kind: KindCoolDown, Err: p.coolDownErr()}
			pre = append(pre, faultAction(pe, "skipped; used the declarative rules"))
			p = nil
		default:
			in.Compactor = &compactor{p: p, config: ent.Plugin.Config, timeout: ent.Plugin.Timeout}
			in.OnReject = func(err error) {
				mu.Lock()
				rejected = append(rejected, err)
				mu.Unlock()
			}
		}
	}

	res, err := e.pipeline.Run(ctx, in)
	if p != nil {
		mu.Lock()
		rej := rejected
		mu.Unlock()
		if len(rej) == 0 && err == nil && res.Level != schemas.LevelNone {
			p.succeeded()
		}
		var faults []*PluginError
		for _, rerr := range rej {
			pe := asPluginError(p.name, rerr)
			faults = append(faults, pe)
			if ctx.Err() == nil { // a cancelled caller is not the plugin's fault
				p.failed(time.Now(), pe)
			}
			e.logger.Warn("plugin output rejected", "plugin", p.name, "tool", req.Tool, "kind", pe.Kind, "err", firstLine(pe.Err.Error(), 300), "log", pe.Log)
		}
		res.Actions = e.pluginActions(res.Actions, req.Tool, p.name, faults)
	}
	// A plugin that could not run matters only when level 1 ran.
	if len(pre) > 0 && err == nil && res.Level != schemas.LevelNone {
		res.Actions = append(pre, res.Actions...)
	}
	return res, err
}

// pluginActions rewrites the pipeline's "plugin" and "plugin_failed"
// actions, which name the tool, to name the plugin and give the fault's
// kind and reason on one line; a fault the pipeline did not list is added.
func (e *Engine) pluginActions(actions []schemas.Action, tool, plugin string, faults []*PluginError) []schemas.Action {
	fi := 0
	for i, a := range actions {
		switch {
		case a.Kind == "plugin" && a.Target == tool:
			actions[i].Target = plugin
			actions[i].Detail = "compacted by plugin " + plugin + "; record counts checked by the host"
		case a.Kind == "plugin_failed" && a.Target == tool && fi < len(faults):
			actions[i] = faultAction(faults[fi], "the declarative rules ran instead")
			fi++
		}
	}
	for ; fi < len(faults); fi++ {
		actions = append(actions, faultAction(faults[fi], "the declarative rules ran instead"))
	}
	return actions
}

// Close releases every plugin runtime. Call it once no Compact is in
// flight; it is safe to call more than once.
func (e *Engine) Close(ctx context.Context) error {
	e.closeOnce.Do(func() {
		if e.plugins != nil {
			e.closeErr = e.plugins.close(ctx)
		}
	})
	return e.closeErr
}

// rulesFromEntry adapts a registry entry to the pipeline's rules.
func rulesFromEntry(ent registry.Entry) budget.Rules {
	return budget.Rules{
		Tool:       ent.Name,
		Records:    ent.Records,
		Keep:       ent.Keep,
		Drop:       ent.Drop,
		StringsMax: ent.Strings.Max,
		Format:     ent.Format,
		Budget:     ent.Budget,
		Pin:        ent.Pin,
		Identity:   ent.Identity,
		Index:      ent.Index,
		Sort:       ent.Sort,
		Store:      ent.Store,
		Defaults:   ent.Defaults,
	}
}

// faultAction reports a plugin fault in the result.
func faultAction(err error, then string) schemas.Action {
	pe := asPluginError("", err)
	kind := "plugin_failed"
	if pe.Kind == KindCoolDown || pe.Kind == KindMissing {
		kind = "plugin_skipped"
	}
	return schemas.Action{
		Level:  schemas.LevelFields,
		Kind:   kind,
		Target: pe.Plugin,
		Detail: fmt.Sprintf("%s: %s; %s", pe.Kind, firstLine(pe.Err.Error(), 300), then),
	}
}

// asPluginError returns err as a *PluginError; an error the pipeline
// raised itself (a count mismatch, invalid output) becomes KindCount.
func asPluginError(name string, err error) *PluginError {
	var pe *PluginError
	if errors.As(err, &pe) {
		return pe
	}
	return &PluginError{Plugin: name, Kind: KindCount, Err: err}
}

// defaultCacheDir is compact/wazero under the user's cache directory, or
// "" (in-memory only) when there is none.
func defaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "compact", "wazero")
}

// firstLine returns the first line of s, at most max bytes of it (wazero
// errors carry a multi-line wasm stack trace).
func firstLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
