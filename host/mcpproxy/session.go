package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sessions that start with their client. A direct connection makes one
// upstream session, which learns the client's capabilities in its
// initialize request and is never restarted. A proxy made by NewLazy
// does the same for each downstream session (Run's one client, each
// HTTP session of Handler): the upstream session starts when the
// client's initialize arrives, its initialize carries exactly the
// capabilities the client announced (as written: roots, sampling,
// elicitation, tasks, experimental, extensions, anything newer), and the
// client's initialize is answered from it. No request reaches the
// upstream before that initialize. For a command upstream the process
// is started by NewLazy (so a program that cannot be started is an
// error at once) and waits, unspoken to, for the first session.

// NewLazy returns a proxy that connects to the upstream only when a
// downstream client initializes, for Run and Handler: each downstream
// session gets an upstream session of its own, whose initialize carries
// exactly that client's capabilities (see above), so the upstream is
// never restarted to learn them. NewLazy checks what it can without
// speaking to the upstream: a Command's program is started (and waits
// for the first client), an HTTP upstream's URL must be an http or
// https URL. An upstream that fails later is a clear error answering
// the client's initialize. Server() of such a proxy has no upstream
// session until a request needs one (then it connects announcing no
// client capabilities); use New to serve Server() yourself.
func NewLazy(ctx context.Context, up Upstream, engine Engine, opts Options) (*Proxy, error) {
	if up == nil || engine == nil {
		return nil, errors.New("mcpproxy: NewLazy needs an upstream and an engine")
	}
	if err := prepare(up, engine, &opts); err != nil {
		return nil, err
	}
	p := newProxy(up, engine, opts)
	p.deferred = true
	p.warm = &warmSlot{}
	switch u := up.(type) {
	case *Command:
		// Transport and Connect name the upstream in their errors.
		t, err := u.Transport()
		if err == nil {
			p.warm.conn, err = t.Connect(ctx)
		}
		if err != nil {
			return nil, err
		}
	case *HTTP:
		if v, err := url.Parse(u.URL); err != nil || (v.Scheme != "http" && v.Scheme != "https") || v.Host == "" {
			return nil, fmt.Errorf("mcpproxy: upstream %s: not an http or https URL", up)
		}
	}
	p.buildServer(nil)
	p.ready.Store(true)
	return p, nil
}

// prepare checks opts and sets their defaults, and gives a Command or
// HTTP upstream without a Spill store the engine's (see New).
func prepare(up Upstream, engine Engine, opts *Options) error {
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.UpstreamProtocol == "" {
		opts.UpstreamProtocol = DefaultUpstreamProtocol
	}
	if err := CheckUpstreamProtocol(opts.UpstreamProtocol); err != nil {
		return fmt.Errorf("mcpproxy: upstream protocol: %w", err)
	}
	switch u := up.(type) {
	case *Command:
		if u.Spill == nil {
			u.Spill = engine.Store()
		}
	case *HTTP:
		if u.Spill == nil {
			u.Spill = engine.Store()
		}
		if u.Logger == nil {
			u.Logger = opts.Logger
		}
	}
	return nil
}

// warmSlot holds the connection NewLazy started (a command upstream's
// process) until the first session takes it.
type warmSlot struct {
	mu   sync.Mutex
	conn mcp.Connection
	done bool
}

// take returns the waiting connection, once; nil after.
func (w *warmSlot) take() mcp.Connection {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.conn
	w.conn, w.done = nil, true
	return c
}

// close ends a connection no session took.
func (w *warmSlot) close() {
	if c := w.take(); c != nil {
		_ = c.Close()
	}
}

// connTransport is a transport whose one connection is already open.
type connTransport struct{ conn mcp.Connection }

func (t connTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

// clientInit is what a downstream client's first message says of it:
// its initialize params (typed), and its capabilities as written (nil
// when the first message was not initialize).
type clientInit struct {
	params *mcp.InitializeParams
	caps   json.RawMessage
}

// initOf reads a client's initialize request; nil for any other message.
func initOf(msg jsonrpc.Message) *clientInit {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "initialize" || !req.IsCall() {
		return nil
	}
	ci := &clientInit{params: &mcp.InitializeParams{}}
	if len(req.Params) > 0 {
		if json.Unmarshal(req.Params, ci.params) != nil {
			return &clientInit{}
		}
		var raw struct {
			Caps json.RawMessage `json:"capabilities"`
		}
		if json.Unmarshal(req.Params, &raw) == nil && len(raw.Caps) > 0 && !bytes.Equal(bytes.TrimSpace(raw.Caps), []byte("null")) {
			ci.caps = raw.Caps
			// The go-sdk's type reads roots into RootsV2 only through its
			// own decoder.
			var r struct {
				Roots *mcp.RootCapabilities `json:"roots"`
			}
			if json.Unmarshal(raw.Caps, &r) == nil && ci.params.Capabilities != nil {
				ci.params.Capabilities.RootsV2 = r.Roots
			}
		}
	}
	return ci
}

// sessionFor returns the proxy of one downstream session whose client
// first said ci (nil: its first message was not initialize): connected
// to the upstream announcing exactly that client's capabilities, its
// server built from the upstream's own initialize result, its lists
// read. When the upstream cannot be reached, the proxy answers the
// client's initialize with the error (see middleware).
func (p *Proxy) sessionFor(ci *clientInit) *Proxy {
	c := newProxy(p.up, p.engine, p.opts)
	c.handles, c.wire, c.warm = p.handles, p.wire, p.warm
	c.lazy = true
	c.wired.Store(p.wired.Load())
	if ci != nil && ci.params != nil && ci.params.ProtocolVersion < newProtocol {
		// Protocols from 2026-07-28 on carry the capabilities with each
		// request instead (see capsMeta).
		c.caps = announcedCaps(ci.params.Capabilities)
		c.client = c.newClient(c.caps)
		c.initCaps = ci.caps
		if c.initCaps == nil {
			c.initCaps = json.RawMessage("{}")
		}
		c.held = &heldInit{}
	}
	p.mu.Lock()
	if p.children == nil {
		p.children = map[*Proxy]bool{}
	}
	p.children[c] = true
	p.mu.Unlock()
	// Not the request's context: the upstream session outlives it.
	ctx, cancel := context.WithTimeout(context.Background(), p.opts.CallTimeout)
	defer cancel()
	cs, err := c.connect(ctx)
	if err != nil {
		c.connErr = err
		c.buildServer(nil)
		c.ready.Store(true)
		return c
	}
	c.buildServer(cs.InitializeResult())
	c.ready.Store(true)
	for _, kind := range []string{"tools", "prompts", "resources"} {
		if err := c.sync(ctx, cs, kind); err != nil {
			c.log.Debug("listing the upstream's "+kind, "err", err)
		}
	}
	return c
}

// announcedCaps is what the proxy's upstream client knows it announced
// for a client with caps: its roots, sampling and elicitation (the
// initialize request itself carries caps as written, see withInitCaps).
func announcedCaps(caps *mcp.ClientCapabilities) *mcp.ClientCapabilities {
	if caps == nil {
		return &mcp.ClientCapabilities{}
	}
	c := *caps
	if c.Elicitation != nil && c.Elicitation.Form == nil && c.Elicitation.URL == nil {
		// {} means form (protocols before 2025-11-25).
		c.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}
	}
	return unionCaps(&mcp.ClientCapabilities{}, &c)
}

// heldInit holds the proxy's notifications/initialized to the upstream
// until the downstream client sends its own (see Proxy.onInitialized),
// so that the upstream, which may ask its client questions as soon as it
// is told the client is ready (server-filesystem asks for roots), asks
// when the downstream client is ready to answer, as directly.
type heldInit struct {
	mu       sync.Mutex
	send     func()
	released bool
}

type heldInitKey struct{}

func heldInitFrom(ctx context.Context) *heldInit {
	h, _ := ctx.Value(heldInitKey{}).(*heldInit)
	return h
}

// hold keeps send until release; it runs it at once after release.
func (h *heldInit) hold(send func()) {
	h.mu.Lock()
	if !h.released {
		h.send = send
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	send()
}

// release sends what is held, once.
func (h *heldInit) release() {
	if h == nil {
		return
	}
	h.mu.Lock()
	send := h.send
	h.send, h.released = nil, true
	h.mu.Unlock()
	if send != nil {
		send()
	}
}

// initCapsKey marks the context of an upstream initialize with the
// client capabilities to send as written.
type initCapsKey struct{}

func initCapsFrom(ctx context.Context) json.RawMessage {
	c, _ := ctx.Value(initCapsKey{}).(json.RawMessage)
	return c
}

// withInitCaps returns the params of an initialize request with its
// capabilities replaced by caps as written; params when either is not
// an object.
func withInitCaps(params, caps json.RawMessage) json.RawMessage {
	if caps == nil {
		return params
	}
	return withMember(params, "capabilities", caps)
}

// firstConn is a downstream connection whose first message was read
// already (see Run).
type firstConn struct {
	mcp.Connection
	mu    sync.Mutex
	first jsonrpc.Message
}

func (c *firstConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.mu.Lock()
	m := c.first
	c.first = nil
	c.mu.Unlock()
	if m != nil {
		return m, nil
	}
	return c.Connection.Read(ctx)
}

// runLazy is Run for a proxy made by NewLazy: the upstream session
// starts with the client's first message (see sessionFor).
func (p *Proxy) runLazy(ctx context.Context, t mcp.Transport) error {
	conn, err := t.Connect(ctx)
	if err != nil {
		return err
	}
	first, err := conn.Read(ctx)
	if err != nil {
		_ = conn.Close()
		if errors.Is(err, io.EOF) || ctx.Err() != nil {
			return nil
		}
		return err
	}
	c := p.sessionFor(initOf(first))
	c.wired.Store(true)
	return c.server.Run(ctx, &wireTransport{Transport: connTransport{&firstConn{Connection: conn, first: first}}, w: p.wire})
}
