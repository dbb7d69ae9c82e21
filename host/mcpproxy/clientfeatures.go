package mcpproxy

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Client features: roots, sampling and elicitation are requests from the
// upstream server to its client (the proxy), which the proxy forwards to
// a downstream client. MCP has two ways to make them:
//
//   - Multi round-trip (protocol 2026-07-28 and later): the upstream
//     answers a tools/call, prompts/get or resources/read with an
//     "input required" result listing its requests; the client fulfils
//     them and calls again with the responses. The proxy passes such a
//     result back to the downstream client that made the call, unchanged
//     and uncompacted, and passes the responses and request state of the
//     next call up. A downstream client on the same protocol fulfils the
//     requests itself; for an older one the go-sdk server in the proxy
//     sends it the requests and calls again. Routing is exact: the input
//     belongs to the call. The client capabilities the upstream sees on
//     each request are the calling client's (roots, sampling and
//     elicitation only; see capsMeta).
//   - Server-to-client requests (protocols before 2026-07-28): the
//     upstream sends roots/list, sampling/createMessage or
//     elicitation/create on its session, and one upstream session serves
//     every downstream session. route picks the downstream session: over
//     streamable HTTP, the one whose call's event stream the request came
//     on (the HTTP transport tags it, see tagRoute); otherwise nothing
//     says which call it belongs to, and route takes the only session
//     connected, else the only one with a live request in flight on the
//     upstream session that asks; anything else is an error naming the
//     ambiguity, so that one agent's request never reaches another agent
//     on a guess. The capabilities
//     announced upstream are fixed when the session starts: the proxy
//     announces those of the downstream clients on such protocols
//     (reconnecting to the upstream when a client that has more
//     initializes), and never more.

// newProtocol is the first protocol version with multi round-trip
// requests and without server-to-client requests.
const newProtocol = "2026-07-28"

// rootsChangedSentinel is the one root of the upstream client's own
// list. The list is never served (roots/list is answered from the
// downstream client, see clientMiddleware); re-adding the root is how the
// go-sdk lets a client send notifications/roots/list_changed.
const rootsChangedSentinel = "compact:roots-changed"

// newClient makes the upstream client announcing caps (roots, sampling
// and elicitation; nil announces none).
func (p *Proxy) newClient(caps *mcp.ClientCapabilities) *mcp.Client {
	if caps == nil {
		caps = &mcp.ClientCapabilities{}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "compact", Version: "1"}, &mcp.ClientOptions{
		Logger: p.log,
		// Exactly these: the go-sdk would add sampling and elicitation
		// for handlers, so the requests are answered in clientMiddleware
		// instead.
		Capabilities:               caps,
		ToolListChangedHandler:     func(ctx context.Context, _ *mcp.ToolListChangedRequest) { p.resync(ctx, "tools") },
		PromptListChangedHandler:   func(ctx context.Context, _ *mcp.PromptListChangedRequest) { p.resync(ctx, "prompts") },
		ResourceListChangedHandler: func(ctx context.Context, _ *mcp.ResourceListChangedRequest) { p.resync(ctx, "resources") },
		ResourceUpdatedHandler:     p.onResourceUpdated,
		ElicitationCompleteHandler: p.onElicitationComplete,
		// Input-required results go back to the downstream client that
		// made the call (see above), not to handlers here.
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	c.AddReceivingMiddleware(p.clientMiddleware)
	return c
}

// clientMiddleware answers the upstream's roots/list,
// sampling/createMessage and elicitation/create from the downstream
// client that route picks.
func (p *Proxy) clientMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var res mcp.Result
		var err error
		// A question asked on a call's stream ends with the call (see
		// route): the client is not left asked for nothing.
		octx := ctx
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		// The upstream session asking: only requests on it can be the
		// call a question belongs to.
		asker, _ := req.GetSession().(*mcp.ClientSession)
		switch params := req.GetParams().(type) {
		case *mcp.PingParams:
			// A request the go-sdk does not know, carried (see asked.go).
			if res, err, ok := p.answerAsked(ctx, asker, params, cancel); ok {
				return res, err
			}
			return next(octx, method, req)
		case *mcp.ListRootsParams:
			var ss *mcp.ServerSession
			var cp mcp.ListRootsParams
			if params != nil {
				cp = *params
			}
			raw, m := p.questionParams(cp.Meta)
			cp.Meta = m
			tag, _ := cp.Meta[routeMetaKey].(string)
			if ss, cp.Meta, err = p.route(method, asker, cp.Meta, func(c *mcp.ClientCapabilities) bool { return c.RootsV2 != nil }, cancel); err != nil {
				return nil, err
			}
			if raw != nil {
				res, err = p.askRaw(p.questionCtx(ctx, tag, ss), ss, method, raw)
			} else {
				res, err = ss.ListRoots(ctx, &cp)
			}
		case *mcp.CreateMessageWithToolsParams:
			var ss *mcp.ServerSession
			var cp mcp.CreateMessageWithToolsParams
			if params != nil {
				cp = *params
			}
			raw, m := p.questionParams(cp.Meta)
			cp.Meta = m
			tag, _ := cp.Meta[routeMetaKey].(string)
			if ss, cp.Meta, err = p.route(method, asker, cp.Meta, func(c *mcp.ClientCapabilities) bool { return c.Sampling != nil }, cancel); err != nil {
				return nil, err
			}
			if raw != nil {
				res, err = p.askRaw(p.questionCtx(ctx, tag, ss), ss, method, raw)
			} else {
				res, err = ss.CreateMessageWithTools(ctx, &cp)
			}
		case *mcp.CreateMessageParams:
			var ss *mcp.ServerSession
			var cp mcp.CreateMessageParams
			if params != nil {
				cp = *params
			}
			raw, m := p.questionParams(cp.Meta)
			cp.Meta = m
			tag, _ := cp.Meta[routeMetaKey].(string)
			if ss, cp.Meta, err = p.route(method, asker, cp.Meta, func(c *mcp.ClientCapabilities) bool { return c.Sampling != nil }, cancel); err != nil {
				return nil, err
			}
			if raw != nil {
				res, err = p.askRaw(p.questionCtx(ctx, tag, ss), ss, method, raw)
			} else {
				res, err = ss.CreateMessage(ctx, &cp)
			}
		case *mcp.ElicitParams:
			var ss *mcp.ServerSession
			var cp mcp.ElicitParams
			if params != nil {
				cp = *params
			}
			raw, m := p.questionParams(cp.Meta)
			cp.Meta = m
			tag, _ := cp.Meta[routeMetaKey].(string)
			if ss, cp.Meta, err = p.route(method, asker, cp.Meta, func(c *mcp.ClientCapabilities) bool { return c.Elicitation != nil }, cancel); err != nil {
				return nil, err
			}
			if cp.ElicitationID != "" {
				// Its notifications/elicitation/complete goes to the same
				// client (see onElicitationComplete).
				p.rememberElicitation(cp.ElicitationID, ss)
			}
			if raw != nil {
				res, err = p.askRaw(p.questionCtx(ctx, tag, ss), ss, method, raw)
			} else {
				res, err = ss.Elicit(ctx, &cp)
			}
		default:
			return next(octx, method, req)
		}
		if err != nil {
			return nil, downstreamError(method, err)
		}
		return res, nil
	}
}

// downstreamError is what the upstream gets when the downstream client
// failed a forwarded request: its JSON-RPC error unchanged, anything else
// (it disconnected) as an internal error saying so.
func downstreamError(method string, err error) error {
	if je, ok := err.(*jsonrpc.Error); ok {
		return je
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("compact: forwarding %s to the downstream client failed: %v", method, err)}
}

// route picks the downstream session a server-to-client request of the
// upstream is for: the session whose call's HTTP stream it came on (meta
// carries its routing token, which route removes: the meta to forward is
// returned), else the only session, else the only one with a request to
// the upstream session asking (asker) in flight. It is an error when
// that is ambiguous, when the session's protocol takes such input only
// through multi round-trip results, or when the client lacks the
// capability (has). A question tagged with a call has cancel called
// when that call ends.
func (p *Proxy) route(method string, asker *mcp.ClientSession, meta mcp.Meta, has func(*mcp.ClientCapabilities) bool, cancel func()) (*mcp.ServerSession, mcp.Meta, error) {
	if msg, ok := meta[overLimitMetaKey].(string); ok {
		// The transport discarded the question: it was over the limit.
		return nil, nil, &jsonrpc.Error{Code: CodeMessageTooLarge, Message: msg}
	}
	ss, life, err := p.pick(method, asker, meta)
	if err != nil {
		return nil, nil, err
	}
	if life != nil {
		context.AfterFunc(life, cancel)
	}
	if _, tagged := meta[routeMetaKey]; tagged {
		meta = cloneMeta(meta)
		delete(meta, routeMetaKey)
		if len(meta) == 0 {
			meta = nil
		}
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.ProtocolVersion >= newProtocol {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
			"compact: %s not forwarded: the downstream client speaks protocol %s, which takes it only inside a multi round-trip result, and the upstream sent it as a request of its own", method, versionOf(ip))}
	}
	if ip.Capabilities == nil || !has(ip.Capabilities) {
		// Not CodeMethodNotFound: the go-sdk replaces that one's message.
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("compact: the downstream client (%s) does not support %s", clientName(ip), method)}
	}
	return ss, meta, nil
}

// pick is route's choice of session, with the context of the call a
// tagged question belongs to (done when the call ends; nil otherwise).
func (p *Proxy) pick(method string, asker *mcp.ClientSession, meta mcp.Meta) (*mcp.ServerSession, context.Context, error) {
	if !p.ready.Load() {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("compact: no downstream client is connected to answer %s", method)}
	}
	if tok, ok := meta[routeMetaKey].(string); ok {
		// Tagged: it belongs to that call, and to nobody else.
		if v, ok := p.routes.Load(tok); ok {
			r := v.(callRoute)
			return r.ss, r.life, nil
		}
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("compact: %s not forwarded: the call it was asked during has ended", method)}
	}
	var all, busy []*mcp.ServerSession
	p.mu.Lock()
	for ss := range p.server.Sessions() {
		all = append(all, ss)
		for _, r := range p.inflight[ss] {
			// A request whose client went away or gave up no longer
			// makes its session busy, nor does one on another upstream
			// session (one replaced since, see onInitialized): the
			// question cannot belong to it.
			if r.ctx.Err() == nil && (asker == nil || r.cs == asker) {
				busy = append(busy, ss)
				break
			}
		}
	}
	p.mu.Unlock()
	switch {
	case len(all) == 0:
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("compact: no downstream client is connected to answer %s", method)}
	case len(all) == 1:
		return all[0], nil, nil
	case len(busy) == 1:
		return busy[0], nil, nil
	}
	return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
		"compact: %s not forwarded: %d downstream clients share this upstream session and %d of them have requests in flight, so which one it is for cannot be told (the upstream's protocol does not say); connect one client per proxy to use it",
		method, len(all), len(busy))}
}

func versionOf(ip *mcp.InitializeParams) string {
	if ip == nil || ip.ProtocolVersion == "" {
		return newProtocol + " or later"
	}
	return ip.ProtocolVersion
}

func clientName(ip *mcp.InitializeParams) string {
	if ip == nil || ip.ClientInfo == nil {
		return "unnamed"
	}
	return ip.ClientInfo.Name
}

// begin returns the live upstream session with a request of ss (made in
// ctx) counted in flight on it, the context for the request and the
// function that ends it (see track). Taking the session and counting the
// request happen under one lock, so that a session replaced meanwhile
// (see onInitialized) is never closed under a request that already holds
// it: begin takes the new session instead.
func (p *Proxy) begin(ctx context.Context, ss *mcp.ServerSession) (*mcp.ClientSession, context.Context, func(), error) {
	for attempt := 0; ; attempt++ {
		cs, err := p.upstream(ctx)
		if err != nil {
			return nil, ctx, func() {}, err
		}
		// After a few tries (an upstream that keeps going away as soon
		// as it is reached), the request goes on the session it has and
		// fails there if it must.
		if tctx, done, ok := p.track(ctx, ss, cs, attempt >= 2); ok {
			return cs, tctx, done, nil
		}
	}
}

// track counts a request of ss (made in ctx) to the upstream on cs as in
// flight until the returned function is called, and returns ctx marked
// with a routing token of ss for the request's HTTP stream (see
// tagRoute). A session retired meanwhile (see retire) is closed when its
// last request ends. Unless anyway is set, track counts nothing and
// reports false when cs is no longer the live session.
func (p *Proxy) track(ctx context.Context, ss *mcp.ServerSession, cs *mcp.ClientSession, anyway bool) (context.Context, func(), bool) {
	id := p.nextTok.Add(1)
	p.mu.Lock()
	if !anyway && p.session != cs {
		p.mu.Unlock()
		return ctx, nil, false
	}
	tok := ""
	end := func() {}
	if ss != nil {
		tok = fmt.Sprintf("r%d", p.nextTok.Add(1))
		var life context.Context
		life, end = context.WithCancel(ctx)
		p.routes.Store(tok, callRoute{ss: ss, life: life})
		ctx = withRoute(ctx, tok)
		if p.inflight[ss] == nil {
			p.inflight[ss] = map[uint64]inflightReq{}
		}
		p.inflight[ss][id] = inflightReq{ctx: ctx, cs: cs}
	}
	p.upCalls[cs]++
	p.mu.Unlock()
	return ctx, func() {
		if tok != "" {
			p.routes.Delete(tok)
		}
		end()
		closeIt := false
		p.mu.Lock()
		if ss != nil {
			if delete(p.inflight[ss], id); len(p.inflight[ss]) == 0 {
				delete(p.inflight, ss)
			}
		}
		if p.upCalls[cs]--; p.upCalls[cs] <= 0 {
			delete(p.upCalls, cs)
			if p.retiring[cs] {
				delete(p.retiring, cs)
				closeIt = true
			}
		}
		p.mu.Unlock()
		if closeIt {
			go cs.Close()
		}
	}, true
}

// callRoute is where the questions tagged with a call's routing token
// go: the downstream session that made the call, and a context done when
// the call ends.
type callRoute struct {
	ss   *mcp.ServerSession
	life context.Context
}

// inflightReq is a request of a downstream session to the upstream in
// flight: its context, and the upstream session it went on.
type inflightReq struct {
	ctx context.Context
	cs  *mcp.ClientSession
}

// retire closes an upstream session that was replaced on purpose: at
// once when no request is in flight on it, else when the last one ends,
// so that a client joining never breaks another client's call.
func (p *Proxy) retire(cs *mcp.ClientSession) {
	p.replaced.Store(cs, true)
	p.mu.Lock()
	if p.upCalls[cs] > 0 {
		p.retiring[cs] = true
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	go cs.Close()
}

// forwardedCaps is the wire form of the client capabilities the proxy
// can forward.
type forwardedCaps struct {
	Roots       *mcp.RootCapabilities        `json:"roots,omitempty"`
	Sampling    *mcp.SamplingCapabilities    `json:"sampling,omitempty"`
	Elicitation *mcp.ElicitationCapabilities `json:"elicitation,omitempty"`
}

func forwardable(c *mcp.ClientCapabilities) forwardedCaps {
	if c == nil {
		return forwardedCaps{}
	}
	return forwardedCaps{Roots: c.RootsV2, Sampling: c.Sampling, Elicitation: c.Elicitation}
}

// capsMeta sets, in meta, the client capabilities the upstream sees on a
// request of a downstream client (protocol 2026-07-28 and later, where
// they travel with each request): the client's own roots, sampling and
// elicitation, nothing else.
func (p *Proxy) capsMeta(meta mcp.Meta, caps *mcp.ClientCapabilities) mcp.Meta {
	p.mu.Lock()
	init := p.initRes
	p.mu.Unlock()
	if init == nil || init.ProtocolVersion < newProtocol {
		return meta
	}
	if meta == nil {
		meta = mcp.Meta{}
	}
	meta[mcp.MetaKeyClientCapabilities] = forwardable(caps)
	return meta
}

// legacyCaps is the union of the roots, sampling and elicitation
// capabilities of the downstream clients on protocols before 2026-07-28.
func (p *Proxy) legacyCaps() *mcp.ClientCapabilities {
	u := &mcp.ClientCapabilities{}
	for ss := range p.server.Sessions() {
		ip := ss.InitializeParams()
		if ip == nil || ip.ProtocolVersion >= newProtocol || ip.Capabilities == nil {
			continue
		}
		c := *ip.Capabilities
		if c.Elicitation != nil && c.Elicitation.Form == nil && c.Elicitation.URL == nil {
			// {} means form (protocols before 2025-11-25).
			c.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}
		}
		u = unionCaps(u, &c)
	}
	return u
}

// covers reports whether the announced capabilities a include all of b.
func covers(a, b *mcp.ClientCapabilities) bool {
	if b.RootsV2 != nil && (a.RootsV2 == nil || (b.RootsV2.ListChanged && !a.RootsV2.ListChanged)) {
		return false
	}
	if b.Sampling != nil && (a.Sampling == nil || (b.Sampling.Tools != nil && a.Sampling.Tools == nil) || (b.Sampling.Context != nil && a.Sampling.Context == nil)) {
		return false
	}
	if b.Elicitation != nil && (a.Elicitation == nil || (b.Elicitation.Form != nil && a.Elicitation.Form == nil) || (b.Elicitation.URL != nil && a.Elicitation.URL == nil)) {
		return false
	}
	return true
}

// onInitialized runs when a downstream client on a protocol before
// 2026-07-28 has initialized: when it has a client capability the
// upstream session (on such a protocol too) was not told of, the proxy
// reconnects to the upstream announcing the union of those of the
// connected clients. Capabilities are only ever added, so this happens
// at most three times.
func (p *Proxy) onInitialized(ctx context.Context, req *mcp.InitializedRequest) {
	p.held.release() // the upstream is told the client is ready (see session.go)
	if req != nil && req.Session != nil {
		p.endWith(req.Session) // a session proxy ends with its session
	}
	want := p.legacyCaps()
	p.syncMu.Lock()
	defer p.syncMu.Unlock()
	p.mu.Lock()
	have, init, cs := p.caps, p.initRes, p.session
	p.mu.Unlock()
	if covers(have, want) || p.closed.Load() {
		return
	}
	union := unionCaps(have, want)
	p.mu.Lock()
	p.caps = union
	p.client = p.newClient(union)
	legacy := init != nil && init.ProtocolVersion < newProtocol
	if legacy {
		p.session = nil
	}
	p.mu.Unlock()
	if !legacy {
		// A newer upstream reads capabilities from each request; the new
		// client serves the next connection.
		return
	}
	p.log.Info("reconnecting to the upstream to announce the downstream client's capabilities", "upstream", p.up.String(),
		"roots", union.RootsV2 != nil, "sampling", union.Sampling != nil, "elicitation", union.Elicitation != nil)
	if cs != nil {
		p.retire(cs)
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.opts.CallTimeout)
	defer cancel()
	ncs, err := p.connect(cctx)
	if err != nil {
		p.log.Warn("reconnecting to the upstream", "err", err)
		return
	}
	p.renew(cctx, ncs)
}

// unionCaps is the union of the roots, sampling and elicitation of two
// capability sets (nothing else of them).
func unionCaps(a, b *mcp.ClientCapabilities) *mcp.ClientCapabilities {
	u := *a
	if b.RootsV2 != nil {
		r := mcp.RootCapabilities{}
		if u.RootsV2 != nil {
			r = *u.RootsV2
		}
		r.ListChanged = r.ListChanged || b.RootsV2.ListChanged
		u.RootsV2 = &r
	}
	if b.Sampling != nil {
		s := mcp.SamplingCapabilities{}
		if u.Sampling != nil {
			s = *u.Sampling
		}
		if b.Sampling.Tools != nil {
			s.Tools = b.Sampling.Tools
		}
		if b.Sampling.Context != nil {
			s.Context = b.Sampling.Context
		}
		u.Sampling = &s
	}
	if b.Elicitation != nil {
		e := mcp.ElicitationCapabilities{}
		if u.Elicitation != nil {
			e = *u.Elicitation
		}
		if b.Elicitation.Form != nil {
			e.Form = b.Elicitation.Form
		}
		if b.Elicitation.URL != nil {
			e.URL = b.Elicitation.URL
		}
		u.Elicitation = &e
	}
	return &u
}

// onRootsChanged passes a downstream client's roots/list_changed up, when
// the upstream session was told the client has roots.
func (p *Proxy) onRootsChanged(ctx context.Context, _ *mcp.RootsListChangedRequest) {
	p.mu.Lock()
	c, caps, init := p.client, p.caps, p.initRes
	p.mu.Unlock()
	if caps == nil || caps.RootsV2 == nil || !caps.RootsV2.ListChanged || init == nil || init.ProtocolVersion >= newProtocol {
		return
	}
	c.AddRoots(&mcp.Root{URI: rootsChangedSentinel, Name: "unused: roots/list is answered by the downstream client"})
}

// elicitationLinger is how long the proxy remembers which client a URL
// elicitation went to, waiting for the upstream to say it completed.
const elicitationLinger = time.Hour

// rememberElicitation records that the URL elicitation id went to ss.
func (p *Proxy) rememberElicitation(id string, ss *mcp.ServerSession) {
	p.elicits.Store(id, ss)
	time.AfterFunc(elicitationLinger, func() { p.elicits.CompareAndDelete(id, ss) })
}

// onElicitationComplete passes the upstream's
// notifications/elicitation/complete to the client the elicitation went
// to; one nobody was asked about is dropped.
func (p *Proxy) onElicitationComplete(ctx context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
	if req.Params == nil {
		return
	}
	v, ok := p.elicits.LoadAndDelete(req.Params.ElicitationID)
	if !ok {
		p.log.Debug("elicitation completed that no client was asked", "id", req.Params.ElicitationID)
		return
	}
	if err := v.(*mcp.ServerSession).NotifyElicitationComplete(ctx, req.Params); err != nil {
		p.log.Debug("forwarding elicitation/complete", "err", err)
	}
}

// questionCtx is the context to ask ss a question in: done with ctx, and
// carrying the context of the call the question belongs to (the call
// whose HTTP stream it came on, tag; else the one call of ss in flight),
// so that over the HTTP door the question goes on that call's stream.
// Only a tagged question is withdrawn when its call ends: the one call in
// flight is a guess (the upstream's protocol does not say), and a
// question the upstream asked on its own (roots/list after
// roots/list_changed) must not be cancelled by the end of an unrelated
// call that happened to be in flight.
func (p *Proxy) questionCtx(ctx context.Context, tag string, ss *mcp.ServerSession) context.Context {
	base := context.Background()
	if v, ok := p.routes.Load(tag); ok && tag != "" {
		base = v.(callRoute).life
	} else if call := p.callContext(ss); call != context.Background() && call.Err() == nil {
		base = context.WithoutCancel(call)
	}
	if base == context.Background() {
		return ctx
	}
	qctx, cancel := context.WithCancel(base)
	context.AfterFunc(ctx, cancel)
	return qctx
}
