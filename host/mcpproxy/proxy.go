package mcpproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// Engine is what the proxy needs from host.Engine: compaction of one
// tool output, and the artifact store behind the handles.
type Engine interface {
	Compact(ctx context.Context, req host.Request) (schemas.Result, error)
	Artifacts
}

// Options configure a Proxy. The zero value is usable.
type Options struct {
	// Name is the implementation name the proxy announces; "" means
	// "compact(<upstream name>)".
	Name string
	// Budget is the token budget of one tool result; 0 means the
	// registry entry's, then the engine's default.
	Budget int
	// CallTimeout is the deadline of one upstream request; 0 means
	// DefaultCallTimeout.
	CallTimeout time.Duration
	// Logger receives structured logs (slog.Default when nil).
	Logger *slog.Logger
	// StripOutputSchemas forwards tools without their outputSchema. A
	// strict client checks structuredContent against it, and the proxy
	// may have to compact or omit structuredContent that does not mirror
	// the text (see compactResult); off by default, because schemas are
	// forwarded unchanged.
	StripOutputSchemas bool
	// UpstreamProtocol is the protocol version the proxy asks of the
	// upstream; "" means DefaultUpstreamProtocol, whose first request is
	// initialize, as every server expects. From 2026-07-28 on, the go-sdk
	// first probes the server with server/discover, and multi round-trip
	// results pass through (see clientfeatures.go).
	UpstreamProtocol string
	// Observe, when set, is told about every compacted tool result (for
	// metrics): the tool, the result (zero when err is set), the time the
	// engine took, and the engine's error.
	Observe func(tool string, res schemas.Result, took time.Duration, err error)
}

// DefaultUpstreamProtocol is the protocol version the proxy asks of the
// upstream unless Options.UpstreamProtocol says otherwise.
const DefaultUpstreamProtocol = "2025-11-25"

// UpstreamProtocols returns the protocol versions the proxy can ask of
// the upstream (Options.UpstreamProtocol, compact mcp
// --upstream-protocol), newest first: those of the go-sdk.
func UpstreamProtocols() []string { return mcp.SupportedProtocolVersions() }

// CheckUpstreamProtocol reports whether v ("" for the default) is one of
// UpstreamProtocols; the error lists them.
func CheckUpstreamProtocol(v string) error {
	if v == "" || slices.Contains(UpstreamProtocols(), v) {
		return nil
	}
	return fmt.Errorf("protocol version %q is not one the proxy speaks; want one of %s", v, strings.Join(UpstreamProtocols(), ", "))
}

// DefaultCallTimeout is the deadline of one upstream request unless
// Options.CallTimeout says otherwise.
const DefaultCallTimeout = 2 * time.Minute

// ReadArtifactTool is the name of the tool the proxy adds.
const ReadArtifactTool = "read_artifact"

// handleSentence is appended to every forwarded tool's description.
const handleSentence = " (compact: any string argument may be an artifact reference from an earlier result, such as artifact:3f9a1c0b7d2e, optionally with a jq path: artifact:3f9a1c0b7d2e.items[0]; the proxy passes the stored value instead.)"

// Proxy is an MCP server that forwards to one upstream MCP server and
// compacts every tool result. It is safe for concurrent use; one Proxy
// serves any number of downstream sessions over one upstream session.
type Proxy struct {
	up     Upstream
	engine Engine
	opts   Options
	log    *slog.Logger
	server *mcp.Server

	mu       sync.Mutex
	client   *mcp.Client                                   // replaced when the announced capabilities grow
	caps     *mcp.ClientCapabilities                       // what client announces (see clientfeatures.go)
	inflight map[*mcp.ServerSession]map[uint64]inflightReq // requests to the upstream in flight, per downstream session
	upCalls  map[*mcp.ClientSession]int                    // requests in flight, per upstream session
	retiring map[*mcp.ClientSession]bool                   // replaced sessions to close when their last request ends
	session  *mcp.ClientSession                            // nil after the upstream went away
	initRes  *mcp.InitializeResult
	initRaw  json.RawMessage   // the upstream's initialize result as it wrote it
	defs     map[string]string // JSON of what is registered, by kind and name (see unchanged)
	children map[*Proxy]bool   // the proxies of HTTP sessions (see Handler)
	lazy     bool              // a session proxy, connected when its client initializes
	deferred bool              // made by NewLazy: each downstream session gets a session proxy (see session.go)
	warm     *warmSlot         // the upstream connection NewLazy started, for the first session
	initCaps json.RawMessage   // the client's capabilities as written, for the upstream's initialize
	connErr  error             // why a session proxy could not connect (its initialize answers it)
	held     *heldInit         // the upstream's notifications/initialized, until the client's (see session.go)
	watching atomic.Bool       // a session proxy waits for its session to end (see endWith)
	tools    map[string]bool   // upstream tool names currently registered
	prompts  map[string]bool
	rsrcs    map[string]bool
	tmpls    map[string]bool

	syncMu sync.Mutex // serialises list synchronisation
	subsMu sync.Mutex
	// subs maps a resource URI to the downstream sessions subscribed to
	// it: subscribed upstream while any is, renewed on a new session.
	subs       map[string]map[*mcp.ServerSession]bool
	progress   sync.Map  // upstream progress token (string) -> progressRoute
	replaced   sync.Map  // *mcp.ClientSession closed on purpose (see onInitialized)
	routes     sync.Map  // routing token (string) -> *mcp.ServerSession of a request in flight
	elicits    sync.Map  // URL elicitation id (string) -> *mcp.ServerSession it went to
	handles    *sync.Map // handle (string) -> true: handed out by this proxy (see issue); shared with its per-session proxies
	questions  sync.Map  // question key (string) -> json.RawMessage: params as the upstream wrote them
	outSchemas sync.Map  // tool name -> *toolSchema (see outschema.go)
	nextTok    atomic.Uint64
	closed     atomic.Bool
	ready      atomic.Bool  // p.server is set
	logLevel   atomic.Value // string: the last level a client set
	wired      atomic.Bool  // served through Run or Handler (see passthrough.go)
	wire       *wireState   // clients' answers as written; shared with its per-session proxies
	tasks      sync.Map     // upstream task id -> *taskTool (see passIn)

	// Sessions connected through Connect (see passthrough.go).
	wiredSessions sync.Map // *mcp.ServerSession -> true
	nwired        atomic.Int64
}

// New connects to the upstream server, reads its tools, prompts and
// resources, and returns a proxy ready to serve. For a Command or HTTP
// upstream without a Spill store, it sets Spill to the engine's store, so that
// very large results go to the store as they are read. Close it to end the
// upstream session.
func New(ctx context.Context, up Upstream, engine Engine, opts Options) (*Proxy, error) {
	if up == nil || engine == nil {
		return nil, errors.New("mcpproxy: New needs an upstream and an engine")
	}
	if err := prepare(up, engine, &opts); err != nil {
		return nil, err
	}
	p := newProxy(up, engine, opts)
	cs, err := p.connect(ctx)
	if err != nil {
		return nil, err
	}
	p.buildServer(cs.InitializeResult())
	p.ready.Store(true)
	if err := p.sync(ctx, cs, "tools"); err != nil {
		_ = cs.Close()
		return nil, err
	}
	for _, kind := range []string{"prompts", "resources"} {
		// Clients get the upstream's own answers to these lists (see
		// raw.go): one it cannot give is not a reason not to start.
		if err := p.sync(ctx, cs, kind); err != nil {
			p.log.Warn("listing the upstream's "+kind, "err", err)
		}
	}
	return p, nil
}

// newProxy is a proxy not yet connected.
func newProxy(up Upstream, engine Engine, opts Options) *Proxy {
	p := &Proxy{up: up, engine: engine, opts: opts, log: opts.Logger, handles: &sync.Map{}, wire: &wireState{},
		tools: map[string]bool{}, prompts: map[string]bool{}, rsrcs: map[string]bool{}, tmpls: map[string]bool{}}
	if p.log == nil {
		p.log = slog.Default()
	}
	// No client capabilities until a downstream client brings some (see
	// clientfeatures.go).
	p.caps = &mcp.ClientCapabilities{}
	p.client = p.newClient(p.caps)
	p.inflight = map[*mcp.ServerSession]map[uint64]inflightReq{}
	p.upCalls = map[*mcp.ClientSession]int{}
	p.retiring = map[*mcp.ClientSession]bool{}
	return p
}

// buildServer makes the downstream server for an upstream that
// initialized with init.
func (p *Proxy) buildServer(init *mcp.InitializeResult) {
	name, version := p.serverImpl(init)
	sopts := &mcp.ServerOptions{
		Logger:                  p.log,
		Capabilities:            mirrorCapabilities(init),
		Instructions:            instructions(init),
		InitializedHandler:      p.onInitialized,
		RootsListChangedHandler: p.onRootsChanged,
	}
	if init != nil && init.Capabilities != nil {
		if init.Capabilities.Completions != nil {
			sopts.CompletionHandler = p.complete
		}
		if r := init.Capabilities.Resources; r != nil && r.Subscribe {
			sopts.SubscribeHandler = p.subscribe
			sopts.UnsubscribeHandler = p.unsubscribe
		}
	}
	p.server = mcp.NewServer(&mcp.Implementation{Name: name, Version: version}, sopts)
	p.server.AddReceivingMiddleware(p.middleware)
	p.server.AddSendingMiddleware(p.sendRaw)
	p.server.AddTool(readArtifactTool(), p.readArtifact)
}

// serverImpl is the name and version the proxy's server announces for
// an upstream that initialized with init.
func (p *Proxy) serverImpl(init *mcp.InitializeResult) (name, version string) {
	name = p.opts.Name
	if name == "" {
		name = "compact"
		if init != nil && init.ServerInfo != nil {
			name = "compact(" + init.ServerInfo.Name + ")"
		}
	}
	version = "1"
	if init != nil && init.ServerInfo != nil && init.ServerInfo.Version != "" {
		version = init.ServerInfo.Version
	}
	return name, version
}

// connectFor connects a session proxy to the upstream for a client that
// initializes with params: the upstream is told that client's roots,
// sampling and elicitation, so it never needs to be told again.
func (p *Proxy) connectFor(ctx context.Context, params *mcp.InitializeParams) error {
	p.syncMu.Lock()
	defer p.syncMu.Unlock()
	p.mu.Lock()
	have := p.session
	p.mu.Unlock()
	if have != nil {
		return nil
	}
	caps := &mcp.ClientCapabilities{}
	if params != nil && params.Capabilities != nil && params.ProtocolVersion < newProtocol {
		c := *params.Capabilities
		if c.Elicitation != nil && c.Elicitation.Form == nil && c.Elicitation.URL == nil {
			c.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}
		}
		caps = unionCaps(caps, &c)
	}
	p.mu.Lock()
	p.caps = caps
	p.client = p.newClient(caps)
	p.mu.Unlock()
	// Not derived from the initialize request's context: the upstream
	// session outlives it, and its questions must not go to that
	// request's stream.
	cctx, cancel := context.WithTimeout(context.Background(), p.opts.CallTimeout)
	defer cancel()
	cs, err := p.connect(cctx)
	if err != nil {
		return err
	}
	for _, kind := range []string{"tools", "prompts", "resources"} {
		if err := p.sync(cctx, cs, kind); err != nil {
			p.log.Debug("listing the upstream's "+kind, "err", err)
		}
	}
	return nil
}

// Server returns the downstream MCP server. To serve it, use the
// proxy's Run or Connect (a transport) or Handler (streamable HTTP):
// they add the pass-through of what the go-sdk does not know (tasks,
// other methods, clients' answers as written; see passthrough.go). A
// session connected with Server().Connect or Server().Run gets the
// go-sdk's behaviour instead (no tasks, answers decoded).
func (p *Proxy) Server() *mcp.Server { return p.server }

// Close ends the upstream session (and the upstream process, for a
// Command upstream). Downstream sessions are the caller's to close.
func (p *Proxy) Close() error {
	p.closed.Store(true)
	p.mu.Lock()
	cs := p.session
	p.session = nil
	children := make([]*Proxy, 0, len(p.children))
	for c := range p.children {
		children = append(children, c)
	}
	var retiring []*mcp.ClientSession
	for r := range p.retiring {
		retiring = append(retiring, r)
	}
	clear(p.retiring)
	p.mu.Unlock()
	if p.deferred {
		p.warm.close()
	}
	for _, r := range retiring {
		r.Close()
	}
	// The HTTP sessions' proxies, each ending its upstream (in parallel:
	// each may wait out a grace period).
	var wg sync.WaitGroup
	for _, c := range children {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
		}()
	}
	wg.Wait()
	if cs == nil {
		return nil
	}
	return cs.Close()
}

// connect opens a new upstream session and remembers it.
func (p *Proxy) connect(ctx context.Context) (*mcp.ClientSession, error) {
	var t mcp.Transport
	var err error
	if h, ok := p.up.(*HTTP); ok {
		t, err = h.transport(p.divert)
	} else if warm := p.warm.take(); warm != nil {
		t = connTransport{warm}
	} else {
		t, err = p.up.Transport()
	}
	if err != nil {
		return nil, fmt.Errorf("mcpproxy: upstream %s: %w", p.up, err)
	}
	if _, ok := p.up.(*HTTP); !ok {
		// An HTTP upstream's event reader diverts notifications itself
		// (its connection must stay the go-sdk's own).
		t = &divertTransport{Transport: t, divert: p.divert}
	}
	cctx, cancel := context.WithTimeout(ctx, p.opts.CallTimeout)
	defer cancel()
	p.mu.Lock()
	client := p.client
	p.mu.Unlock()
	cctx, cp := withCapture(cctx)
	if p.initCaps != nil {
		cctx = context.WithValue(cctx, initCapsKey{}, p.initCaps)
	}
	if p.held != nil {
		cctx = context.WithValue(cctx, heldInitKey{}, p.held)
	}
	cs, err := client.Connect(cctx, t, &mcp.ClientSessionOptions{ProtocolVersion: p.opts.UpstreamProtocol})
	if err != nil {
		return nil, fmt.Errorf("mcpproxy: connecting to upstream %s: %w", p.up, err)
	}
	p.mu.Lock()
	p.session = cs
	p.initRes = cs.InitializeResult()
	if raw := cp.raw(); raw != nil {
		p.initRaw = raw
	}
	p.mu.Unlock()
	go func() {
		err := cs.Wait()
		p.mu.Lock()
		if p.session == cs {
			p.session = nil
		}
		p.mu.Unlock()
		if _, replaced := p.replaced.LoadAndDelete(cs); replaced {
			p.log.Debug("previous upstream session ended", "upstream", p.up.String(), "err", err)
		} else if !p.closed.Load() {
			p.log.Warn("upstream session ended", "upstream", p.up.String(), "err", err)
		}
	}()
	return cs, nil
}

// dropSession forgets cs after a call on it failed at the transport
// level (the upstream exited or sent something unreadable), so that the
// next call reconnects instead of failing on a dead session.
func (p *Proxy) dropSession(cs *mcp.ClientSession) {
	p.mu.Lock()
	if p.session == cs {
		p.session = nil
	}
	p.mu.Unlock()
	go cs.Close()
}

// forwardMeta returns the _meta to send upstream for a downstream
// request's _meta: the protocol's own per-session keys (protocol version,
// client info and capabilities) belong to the proxy's upstream session
// and are dropped; everything else passes, and the log level the client
// set is added when the request carries none.
func (p *Proxy) forwardMeta(in mcp.Meta) mcp.Meta {
	out := mcp.Meta{}
	for k, v := range in {
		switch k {
		case mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities, mcp.MetaKeyServerInfo, inputResponsesKey:
			continue
		}
		out[k] = v
	}
	if _, ok := out[mcp.MetaKeyLogLevel]; !ok {
		if lvl, _ := p.logLevel.Load().(string); lvl != "" {
			out[mcp.MetaKeyLogLevel] = lvl
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// upstream returns the live upstream session, reconnecting once when the
// previous one went away (the upstream process exited, say).
func (p *Proxy) upstream(ctx context.Context) (*mcp.ClientSession, error) {
	if p.closed.Load() {
		return nil, errors.New("mcpproxy: proxy is closed")
	}
	p.mu.Lock()
	cs := p.session
	p.mu.Unlock()
	if cs != nil {
		return cs, nil
	}
	p.syncMu.Lock()
	defer p.syncMu.Unlock()
	p.mu.Lock()
	cs = p.session
	p.mu.Unlock()
	if cs != nil {
		return cs, nil
	}
	p.log.Info("reconnecting to upstream", "upstream", p.up.String())
	cs, err := p.connect(ctx)
	if err != nil {
		return nil, err
	}
	// The new upstream may list other tools than the old one did.
	p.renew(ctx, cs)
	return cs, nil
}

// mirrorCapabilities announces what the upstream announces, plus tools
// (read_artifact is always there).
func mirrorCapabilities(init *mcp.InitializeResult) *mcp.ServerCapabilities {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}
	if init == nil || init.Capabilities == nil {
		return caps
	}
	up := init.Capabilities
	if up.Prompts != nil {
		caps.Prompts = &mcp.PromptCapabilities{ListChanged: true}
	}
	if up.Resources != nil {
		caps.Resources = &mcp.ResourceCapabilities{ListChanged: true, Subscribe: up.Resources.Subscribe}
	}
	if up.Logging != nil {
		caps.Logging = &mcp.LoggingCapabilities{}
	}
	if up.Completions != nil {
		caps.Completions = &mcp.CompletionCapabilities{}
	}
	return caps
}

func instructions(init *mcp.InitializeResult) string {
	const ours = "Tool results pass through compact: a result too large for its budget is stored as an artifact and shown as a summary with exact counts and a reference such as artifact:3f9a1c0b7d2e; read it with the read_artifact tool, or pass the reference as any tool argument."
	if init == nil || init.Instructions == "" {
		return ours
	}
	return init.Instructions + "\n\n" + ours
}

// sync makes the downstream server's list of kind ("tools", "prompts",
// "resources") match the upstream's. Adding and removing through the SDK
// sends list-changed notifications to every downstream session.
func (p *Proxy) sync(ctx context.Context, cs *mcp.ClientSession, kind string) error {
	init := cs.InitializeResult()
	var caps *mcp.ServerCapabilities
	if init != nil {
		caps = init.Capabilities
	}
	switch kind {
	case "tools":
		if caps == nil || caps.Tools == nil {
			return nil
		}
		seen := map[string]bool{}
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return fmt.Errorf("mcpproxy: listing upstream tools: %w", err)
			}
			if t.Name == ReadArtifactTool {
				p.log.Warn("upstream tool hidden by the proxy's own tool", "tool", t.Name)
				continue
			}
			p.setOutputSchema(t.Name, t.OutputSchema)
			if p.unchanged("tool", t.Name, t) {
				seen[t.Name] = true
				continue
			}
			if err := p.addTool(t); err != nil {
				p.log.Warn("upstream tool not forwarded", "tool", t.Name, "err", err)
				continue
			}
			seen[t.Name] = true
		}
		p.mu.Lock()
		var gone []string
		for n := range p.tools {
			if !seen[n] {
				gone = append(gone, n)
			}
		}
		p.tools = seen
		p.mu.Unlock()
		if len(gone) > 0 {
			p.forget("tool", gone)
			p.server.RemoveTools(gone...)
		}
	case "prompts":
		if caps == nil || caps.Prompts == nil {
			return nil
		}
		seen := map[string]bool{}
		for pr, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				return fmt.Errorf("mcpproxy: listing upstream prompts: %w", err)
			}
			if !p.unchanged("prompt", pr.Name, pr) {
				p.server.AddPrompt(pr, p.getPrompt)
			}
			seen[pr.Name] = true
		}
		p.mu.Lock()
		gone := missing(p.prompts, seen)
		p.prompts = seen
		p.mu.Unlock()
		if len(gone) > 0 {
			p.forget("prompt", gone)
			p.server.RemovePrompts(gone...)
		}
	case "resources":
		if caps == nil || caps.Resources == nil {
			return nil
		}
		seen := map[string]bool{}
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				return fmt.Errorf("mcpproxy: listing upstream resources: %w", err)
			}
			if !p.unchanged("resource", r.URI, r) {
				p.server.AddResource(r, p.readResource)
			}
			seen[r.URI] = true
		}
		seenT := map[string]bool{}
		for t, err := range cs.ResourceTemplates(ctx, nil) {
			if err != nil {
				// An optional method: a server with resources may lack
				// it. Clients asking get the upstream's own answer.
				p.log.Debug("listing upstream resource templates", "err", err)
				break
			}
			if p.unchanged("template", t.URITemplate, t) {
				seenT[t.URITemplate] = true
				continue
			}
			if err := addTemplate(p.server, t, p.readResource); err != nil {
				p.log.Warn("upstream resource template not forwarded", "template", t.URITemplate, "err", err)
				continue
			}
			seenT[t.URITemplate] = true
		}
		p.mu.Lock()
		gone, goneT := missing(p.rsrcs, seen), missing(p.tmpls, seenT)
		p.rsrcs, p.tmpls = seen, seenT
		p.mu.Unlock()
		if len(gone) > 0 {
			p.forget("resource", gone)
			p.server.RemoveResources(gone...)
		}
		if len(goneT) > 0 {
			p.forget("template", goneT)
			p.server.RemoveResourceTemplates(goneT...)
		}
	}
	return nil
}

// unchanged reports whether the definition v of the named tool, prompt,
// resource or template (kind) is the one registered already, and
// remembers it otherwise: registering it again would send clients a
// list_changed notification although nothing changed.
func (p *Proxy) unchanged(kind, name string, v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	k := kind + "\x00" + name
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.defs == nil {
		p.defs = map[string]string{}
	}
	if p.defs[k] == string(b) {
		return true
	}
	p.defs[k] = string(b)
	return false
}

// forget drops the remembered definitions of removed names (see
// unchanged).
func (p *Proxy) forget(kind string, names []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range names {
		delete(p.defs, kind+"\x00"+n)
	}
}

func missing(old, now map[string]bool) []string {
	var gone []string
	for n := range old {
		if !now[n] {
			gone = append(gone, n)
		}
	}
	slices.Sort(gone)
	return gone
}

// addTool registers one upstream tool; the SDK panics on a tool whose
// input schema is not an object, which is an upstream fault, not ours.
func (p *Proxy) addTool(t *mcp.Tool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid tool definition: %v", r)
		}
	}()
	fwd := *t
	fwd.Description = strings.TrimSpace(strings.TrimRight(t.Description, " ") + handleSentence)
	if p.opts.StripOutputSchemas {
		fwd.OutputSchema = nil
	}
	name := t.Name
	p.server.AddTool(&fwd, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return p.callTool(ctx, name, req)
	})
	return nil
}

func addTemplate(s *mcp.Server, t *mcp.ResourceTemplate, h mcp.ResourceHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid resource template: %v", r)
		}
	}()
	s.AddResourceTemplate(t, h)
	return nil
}

// resync re-reads one list after the upstream said it changed.
func (p *Proxy) resync(ctx context.Context, kind string) {
	if !p.ready.Load() {
		return
	}
	go func() {
		p.syncMu.Lock()
		defer p.syncMu.Unlock()
		p.mu.Lock()
		cs := p.session
		p.mu.Unlock()
		if cs == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.opts.CallTimeout)
		defer cancel()
		if err := p.sync(ctx, cs, kind); err != nil {
			p.log.Warn("upstream list changed; re-reading it failed", "kind", kind, "err", err)
		}
	}()
}

// middleware forwards the methods that have no feature-set handler in
// the SDK: logging/setLevel goes upstream as well as to the session.
func (p *Proxy) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			if p.connErr != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: p.upstreamError(ctx, "initialize", p.connErr).Error()}
			}
			if p.lazy {
				params, _ := req.GetParams().(*mcp.InitializeParams)
				if err := p.connectFor(ctx, params); err != nil {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: p.upstreamError(ctx, "initialize", err).Error()}
				}
			}
			res, err := next(ctx, method, req)
			if typed, ok := res.(*mcp.InitializeResult); ok && err == nil && typed.ProtocolVersion < newProtocol {
				return p.initializeResult(typed), nil
			}
			return res, err
		case "server/discover":
			res, err := next(ctx, method, req)
			if typed, ok := res.(*mcp.DiscoverResult); ok && err == nil {
				return p.discoverResult(typed), nil
			}
			return res, err
		case "ping", "notifications/progress":
			// A message the go-sdk does not know, carried (see
			// passthrough.go).
			var meta mcp.Meta
			switch params := req.GetParams().(type) {
			case *mcp.PingParams:
				if params != nil {
					meta = params.Meta
				}
			case *mcp.ProgressNotificationParams:
				if params != nil {
					meta = params.Meta
				}
			}
			if m, ok := metaMsg(meta, inMetaKey); ok {
				return p.passIn(ctx, req, method == "ping", m)
			}
		case "tools/call":
			// Every tool is the upstream's to answer, also one it did not
			// list (or no longer lists): it says whether the tool exists,
			// in its own words, as a direct client would see.
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && r.Params.Name != ReadArtifactTool {
				_, version := rawSession(req)
				return p.callToolResult(ctx, r.Params.Name, r, version)
			}
			// read_artifact: lone surrogates written back (see
			// readArtifactResult).
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			_, version := rawSession(req)
			return p.readArtifactResult(res, version), nil
		}
		if res, err, ok := p.forwardRaw(ctx, method, req); ok {
			return res, err
		}
		if method == "logging/setLevel" {
			if params, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok {
				p.logLevel.Store(string(params.Level))
				if cs, err := p.upstream(ctx); err == nil {
					cctx, cancel := context.WithTimeout(ctx, p.opts.CallTimeout)
					err = cs.SetLoggingLevel(cctx, params)
					cancel()
					if err != nil {
						p.log.Warn("forwarding logging/setLevel", "err", err)
					}
				}
			}
		}
		return next(ctx, method, req)
	}
}

// upstreamError turns a failed upstream call into what the agent sees:
// a JSON-RPC error from the upstream passes through unchanged; anything
// else (the upstream exited, hung past the deadline, sent something
// unreadable) becomes a clear error naming the upstream.
func (p *Proxy) upstreamError(ctx context.Context, what string, err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return err
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("compact: upstream %s: %s got no answer within %v", p.up, what, p.opts.CallTimeout)
	case ctx.Err() != nil:
		return fmt.Errorf("compact: %s was cancelled: %w", what, ctx.Err())
	}
	return fmt.Errorf("compact: upstream %s failed during %s: %w", p.up, what, err)
}

func (p *Proxy) getPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	cs, ctx, done, err := p.begin(ctx, req.Session)
	if err != nil {
		return nil, p.upstreamError(ctx, "prompts/get", err)
	}
	defer done()
	params := *req.Params
	params.Meta = p.capsMeta(p.forwardMeta(params.Meta), req.ClientCapabilities())
	cctx, cancel := context.WithTimeout(ctx, p.opts.CallTimeout)
	defer cancel()
	res, err := cs.GetPrompt(cctx, &params)
	if err != nil {
		return nil, p.upstreamError(ctx, "prompts/get", err)
	}
	return res, nil
}

func (p *Proxy) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	cs, ctx, done, err := p.begin(ctx, req.Session)
	if err != nil {
		return nil, p.upstreamError(ctx, "resources/read", err)
	}
	defer done()
	params := *req.Params
	params.Meta = p.capsMeta(p.forwardMeta(params.Meta), req.ClientCapabilities())
	cctx, cancel := context.WithTimeout(ctx, p.opts.CallTimeout)
	defer cancel()
	res, err := cs.ReadResource(cctx, &params)
	if err != nil {
		return nil, p.upstreamError(ctx, "resources/read", err)
	}
	return res, nil
}

func (p *Proxy) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	cs, ctx, done, err := p.begin(ctx, req.Session)
	if err != nil {
		return nil, p.upstreamError(ctx, "completion/complete", err)
	}
	defer done()
	cctx, cancel := context.WithTimeout(ctx, p.opts.CallTimeout)
	defer cancel()
	res, err := cs.Complete(cctx, req.Params)
	if err != nil {
		return nil, p.upstreamError(ctx, "completion/complete", err)
	}
	return res, nil
}

func (p *Proxy) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	cs, err := p.upstream(ctx)
	if err != nil {
		return p.upstreamError(ctx, "resources/subscribe", err)
	}
	cctx, cancel := context.WithTimeout(ctx, p.opts.CallTimeout)
	defer cancel()
	if err := cs.Subscribe(cctx, req.Params); err != nil {
		return p.upstreamError(ctx, "resources/subscribe", err)
	}
	p.subsMu.Lock()
	defer p.subsMu.Unlock()
	if p.subs == nil {
		p.subs = map[string]map[*mcp.ServerSession]bool{}
	}
	if p.subs[req.Params.URI] == nil {
		p.subs[req.Params.URI] = map[*mcp.ServerSession]bool{}
	}
	p.subs[req.Params.URI][req.Session] = true
	return nil
}

// unsubscribe forgets the calling session's subscription, and ends the
// upstream one only when no other downstream session still holds it:
// one client leaving must not stop another's updates.
func (p *Proxy) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	p.subsMu.Lock()
	holders := p.subs[req.Params.URI]
	delete(holders, req.Session)
	for ss := range holders {
		if !p.connected(ss) {
			delete(holders, ss)
		}
	}
	others := len(holders)
	if others == 0 {
		delete(p.subs, req.Params.URI)
	}
	p.subsMu.Unlock()
	if others > 0 {
		return nil
	}
	cs, err := p.upstream(ctx)
	if err != nil {
		return p.upstreamError(ctx, "resources/unsubscribe", err)
	}
	cctx, cancel := context.WithTimeout(ctx, p.opts.CallTimeout)
	defer cancel()
	if err := cs.Unsubscribe(cctx, req.Params); err != nil {
		return p.upstreamError(ctx, "resources/unsubscribe", err)
	}
	return nil
}

// renew brings a new upstream session up to date with what the
// downstream clients asked of the previous one: the lists, the log
// level and the resource subscriptions.
func (p *Proxy) renew(ctx context.Context, cs *mcp.ClientSession) {
	for _, kind := range []string{"tools", "prompts", "resources"} {
		if err := p.sync(ctx, cs, kind); err != nil {
			p.log.Warn("re-reading upstream lists after reconnecting", "kind", kind, "err", err)
		}
	}
	if lvl, _ := p.logLevel.Load().(string); lvl != "" {
		_ = cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(lvl)})
	}
	p.subsMu.Lock()
	uris := make([]string, 0, len(p.subs))
	for uri := range p.subs {
		uris = append(uris, uri)
	}
	p.subsMu.Unlock()
	for _, uri := range uris {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			p.log.Warn("renewing a resource subscription after reconnecting", "uri", uri, "err", err)
		}
	}
}

// connected reports whether ss is still one of the server's sessions.
func (p *Proxy) connected(ss *mcp.ServerSession) bool {
	for s := range p.server.Sessions() {
		if s == ss {
			return true
		}
	}
	return false
}

func (p *Proxy) onResourceUpdated(ctx context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	if !p.ready.Load() {
		return
	}
	if err := p.server.ResourceUpdated(ctx, req.Params); err != nil {
		p.log.Warn("forwarding resource update", "err", err)
	}
}

// withProgress routes the progress of an upstream call to the
// downstream session and call that asked for it, when the downstream
// request carried a progress token. The upstream sees the client's own
// token, unless another call in flight already uses the same token (two
// clients on one upstream session), in which case it gets a token of the
// proxy's and the client still sees its own. It returns the function
// that forgets the route, called when the call ends: notifications are
// passed on in order before the result (see notify.go), so none comes
// later.
func (p *Proxy) withProgress(ctx context.Context, req *mcp.CallToolRequest, params *mcp.CallToolParams) func() {
	tok := req.Params.GetProgressToken()
	if tok == nil || req.Session == nil {
		return func() {}
	}
	raw, err := json.Marshal(tok)
	if err != nil {
		return func() {}
	}
	key := tokenKey(raw)
	if params.Meta == nil {
		params.Meta = mcp.Meta{}
	}
	// Set as a member, not with SetProgressToken, which panics on a
	// token that is a JSON number other than an integer.
	params.Meta["progressToken"] = tok
	if _, taken := p.progress.LoadOrStore(key, progressRoute{session: req.Session, ctx: ctx}); !taken {
		return func() { p.progress.Delete(key) }
	}
	own := fmt.Sprintf("compact-%d", p.nextTok.Add(1))
	ownRaw, _ := json.Marshal(own)
	p.progress.Store(tokenKey(ownRaw), progressRoute{session: req.Session, ctx: ctx, token: raw})
	params.Meta["progressToken"] = own
	return func() { p.progress.Delete(tokenKey(ownRaw)) }
}

// cloneMeta returns a copy of m (nil for nil).
func cloneMeta(m mcp.Meta) mcp.Meta {
	if m == nil {
		return nil
	}
	out := make(mcp.Meta, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// rawArgs returns a call's arguments as JSON.
func rawArgs(v any) (json.RawMessage, error) {
	switch a := v.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		if len(a) == 0 {
			return json.RawMessage("{}"), nil
		}
		return a, nil
	default:
		b, err := json.Marshal(a)
		return b, err
	}
}
