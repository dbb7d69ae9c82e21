package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Notifications from the upstream (progress and log messages) are passed
// on as the upstream's transport reads them, before the next message is
// read: a call's notifications reach the downstream client before its
// result, in the upstream's order, byte for byte (no level filter, no
// round trip through Go types). The go-sdk would hand them to handlers
// apart from responses, so that the last progress of a call often came
// after its result, and it drops log messages until the client sets a
// level. A notification that belongs to a call goes out in the call's
// context, which over the HTTP door is the call's own event stream.
//
// divert is the hook: the upstream connection (see divertConn) or the
// HTTP upstream's event reader (see sseBody) calls it for every message;
// it reports whether it passed the message on, in which case the go-sdk
// never sees it.

// divertConn is an upstream connection whose notifications go through
// the proxy's divert as they are read, and which leaves the raw result of
// a request made with a capture in that capture.
type divertConn struct {
	mcp.Connection
	divert func(jsonrpc.Message, string) bool

	mu      sync.Mutex
	pending map[string]*capture // by request id (idKey)
}

func (c *divertConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	msg = rawOutFrom(ctx).replaces(msg)
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "initialize" && initCapsFrom(ctx) != nil {
		// The client's capabilities as written (see session.go).
		msg = &jsonrpc.Request{ID: req.ID, Method: req.Method, Params: withInitCaps(req.Params, initCapsFrom(ctx))}
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "notifications/initialized" && heldInitFrom(ctx) != nil {
		// Sent when the downstream client sends its own (see session.go).
		heldInitFrom(ctx).hold(func() { _ = c.Connection.Write(context.Background(), msg) })
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		if cp := captureFrom(ctx); cp != nil {
			c.mu.Lock()
			if c.pending == nil {
				c.pending = map[string]*capture{}
			}
			c.pending[idKey(req.ID.Raw())] = cp
			c.mu.Unlock()
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *divertConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if err != nil {
			return msg, err
		}
		if resp, ok := msg.(*jsonrpc.Response); ok {
			c.mu.Lock()
			k := idKey(resp.ID.Raw())
			cp := c.pending[k]
			delete(c.pending, k)
			c.mu.Unlock()
			if cp != nil && resp.Error == nil {
				cp.set(resp.Result)
			}
			return msg, nil
		}
		if !c.divert(msg, "") {
			return msg, nil
		}
	}
}

// questionMetaKey is the _meta key under which an upstream question
// (roots/list, sampling/createMessage, elicitation/create) carries, on
// its way through the go-sdk, the key of its params as the upstream
// wrote them (see markQuestion), which the downstream client receives.
const questionMetaKey = "compact.proxy/question"

// isQuestion reports whether method is an upstream question to its
// client that the proxy forwards.
func isQuestion(method string) bool {
	switch method {
	case "roots/list", "sampling/createMessage", "elicitation/create":
		return true
	}
	return false
}

// markQuestion keeps the params of an upstream question as written and
// marks the request with their key (see questionMetaKey).
func (p *Proxy) markQuestion(req *jsonrpc.Request) {
	key := fmt.Sprintf("q%d", p.nextTok.Add(1))
	raw := append(json.RawMessage(nil), req.Params...)
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(raw, &params) != nil || params == nil {
		return
	}
	meta := map[string]json.RawMessage{}
	if m := params["_meta"]; len(m) > 0 && string(m) != "null" && json.Unmarshal(m, &meta) != nil {
		return
	}
	var err error
	if meta[questionMetaKey], err = json.Marshal(key); err != nil {
		return
	}
	if params["_meta"], err = json.Marshal(meta); err != nil {
		return
	}
	b, err := json.Marshal(params)
	if err != nil {
		return
	}
	p.questions.Store(key, raw)
	time.AfterFunc(questionLinger, func() { p.questions.Delete(key) })
	req.Params = b
}

// questionLinger bounds how long unclaimed question params are kept.
const questionLinger = 10 * time.Minute

// questionParams returns (and forgets) the params as written of the
// question marked in meta, and meta without the mark.
func (p *Proxy) questionParams(meta mcp.Meta) (json.RawMessage, mcp.Meta) {
	key, ok := meta[questionMetaKey].(string)
	if !ok {
		return nil, meta
	}
	meta = cloneMeta(meta)
	delete(meta, questionMetaKey)
	if len(meta) == 0 {
		meta = nil
	}
	v, ok := p.questions.LoadAndDelete(key)
	if !ok {
		return nil, meta
	}
	return v.(json.RawMessage), meta
}

// askRaw sends the question method with params as written to ss and
// returns the client's answer (see sendRaw): unlike the go-sdk's own
// calls, nothing is added to the question (no elicitation mode) and
// nothing to the answer (no schema defaults).
func (p *Proxy) askRaw(ctx context.Context, ss *mcp.ServerSession, method string, params json.RawMessage) (mcp.Result, error) {
	n := &rawNote{method: method, params: params, call: true}
	var a *answer
	if p.wiredTo(ss) {
		// The answer as the client wrote it (see passthrough.go).
		n.key, a = p.wire.newAnswer()
		defer p.wire.forget(n.key)
	}
	err := ss.NotifyProgress(context.WithValue(ctx, rawNoteKey{}, n), &mcp.ProgressNotificationParams{})
	if a != nil {
		if raw, jerr, ok := a.get(); ok {
			if jerr != nil {
				return nil, jerr
			}
			return asRaw(raw), nil
		}
	}
	if err != nil {
		return nil, err
	}
	return n.res, n.err
}

// divertTransport wraps the connections of a transport in divertConn.
type divertTransport struct {
	mcp.Transport
	divert func(jsonrpc.Message, string) bool
}

func (t *divertTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &divertConn{Connection: c, divert: t.divert}, nil
}

// progressRoute is where an upstream progress token's notifications go:
// the downstream session and the context of its call, and the token the
// client chose (raw JSON), when the upstream was given another one.
type progressRoute struct {
	session *mcp.ServerSession
	ctx     context.Context
	token   json.RawMessage // set when the upstream's token differs
}

// tokenKey is the key of a progress token in p.progress: its JSON.
func tokenKey(raw []byte) string { return string(bytes.TrimSpace(raw)) }

// divert passes an upstream notification on (see above); route is the
// routing token of the call whose HTTP event stream it came on, if any.
func (p *Proxy) divert(msg jsonrpc.Message, route string) bool {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !p.ready.Load() {
		return false
	}
	if req.IsCall() {
		if isQuestion(req.Method) {
			p.markQuestion(req)
		} else if !clientMethods[req.Method] && p.anyWired() {
			carryAsked(req)
		}
		return false
	}
	switch req.Method {
	case "notifications/progress":
		var params struct {
			Token json.RawMessage `json:"progressToken"`
		}
		if json.Unmarshal(req.Params, &params) != nil || len(params.Token) == 0 {
			return false
		}
		v, ok := p.progress.Load(tokenKey(params.Token))
		if !ok {
			return false
		}
		r := v.(progressRoute)
		raw := req.Params
		if r.token != nil {
			raw = withMember(raw, "progressToken", r.token)
		}
		p.notifyRaw(r.ctx, r.session, req.Method, raw)
		return true
	default:
		if clientMethods[req.Method] || !p.anyWired() {
			return false
		}
		// A notification the go-sdk does not know (such as
		// notifications/tasks/status): passed on as written, like a
		// log message.
		fallthrough
	case "notifications/message":
		if route != "" {
			if v, ok := p.routes.Load(route); ok {
				r := v.(callRoute)
				p.notifyRaw(r.life, r.ss, req.Method, req.Params)
				return true
			}
		}
		for ss := range p.server.Sessions() {
			p.notifyRaw(p.callContext(ss), ss, req.Method, req.Params)
		}
		return true
	}
}

// callContext is the context of the one request of ss in flight on the
// upstream, when there is exactly one (a notification not tied to a call
// by the protocol then goes on that call's stream); else a background
// context (the session's standalone stream).
func (p *Proxy) callContext(ss *mcp.ServerSession) context.Context {
	p.mu.Lock()
	defer p.mu.Unlock()
	var only context.Context
	for _, r := range p.inflight[ss] {
		if r.ctx.Err() != nil {
			continue
		}
		if only != nil {
			return context.Background()
		}
		only = r.ctx
	}
	if only == nil {
		return context.Background()
	}
	return only
}

// withMember returns the JSON object raw with member name set to val;
// raw itself when it is not an object. Other members keep their bytes.
func withMember(raw json.RawMessage, name string, val json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return raw
	}
	m[name] = val
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// rawNote is a notification to send with the upstream's params as they
// are (see notifyRaw and sendRaw).
type rawNote struct {
	method string
	params json.RawMessage
	wired  bool   // the session is behind Run, Connect or Handler: send it carried (see passthrough.go)
	key    string // the answer slot of a request (see wireState)
	call   bool   // a request: its answer goes in res, err
	res    mcp.Result
	err    error
}

type rawNoteKey struct{}

// rawParams marshals as the upstream's params; the embedded value only
// makes it an mcp.Params.
type rawParams struct {
	*mcp.ProgressNotificationParams
	raw json.RawMessage
}

// MarshalJSON returns the params as the upstream wrote them.
func (r *rawParams) MarshalJSON() ([]byte, error) {
	if len(r.raw) == 0 {
		return []byte("{}"), nil
	}
	return r.raw, nil
}

// notifyRaw sends a notification to ss in ctx with params exactly as
// given. The go-sdk has no call for that: the notification goes out as a
// progress notification carrying the real one in its context, which
// sendRaw (a sending middleware) swaps in.
func (p *Proxy) notifyRaw(ctx context.Context, ss *mcp.ServerSession, method string, params json.RawMessage) {
	wired := p.wiredTo(ss)
	if !clientMethods[method] && !wired {
		return // the go-sdk cannot send it
	}
	ctx = context.WithValue(ctx, rawNoteKey{}, &rawNote{method: method, params: params, wired: wired})
	if err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{}); err != nil {
		p.log.Debug("forwarding a notification", "method", method, "err", err)
	}
}

// sendRaw is the server's sending middleware that sends notifyRaw's
// notifications.
func (p *Proxy) sendRaw(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		n, ok := ctx.Value(rawNoteKey{}).(*rawNote)
		if !ok || method != "notifications/progress" {
			return next(ctx, method, req)
		}
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok {
			return nil, fmt.Errorf("mcpproxy: raw notification on a %T", req.GetSession())
		}
		method, params := n.method, n.params
		if n.key != "" || n.wired && !clientMethods[n.method] {
			// Carried to the transport, which writes it as written
			// (see passthrough.go); an unknown request as a ping, an
			// unknown notification as a progress notification.
			if !clientMethods[method] {
				method = "notifications/progress"
				if n.call {
					method = "ping"
				}
			}
			b, err := json.Marshal(map[string]any{"_meta": map[string]any{outMetaKey: wireMsg{Method: n.method, Params: string(n.params), Key: n.key}}})
			if err != nil {
				return nil, err
			}
			params = b
		}
		res, err := next(ctx, method, &mcp.ServerRequest[*rawParams]{Session: ss,
			Params: &rawParams{ProgressNotificationParams: &mcp.ProgressNotificationParams{}, raw: params}})
		if n.call {
			n.res, n.err = res, err
			return nil, nil
		}
		return res, err
	}
}

// Raw results: the go-sdk decodes every upstream result into Go types,
// which drops members it does not know (a tool's execution, a server's
// title, icons and unknown capabilities), adds members of its own
// (idempotentHint: false) and passes numbers through float64. A request
// made with a capture in its context has the upstream's result bytes
// left in the capture by the upstream connection (divertConn, or the
// HTTP upstream's body reader) before the go-sdk sees them; the proxy
// answers from those.

// capture receives the raw result of the one upstream request made with
// it in its context.
type capture struct {
	mu     sync.Mutex
	result json.RawMessage
}

type captureKey struct{}

// withCapture returns ctx carrying a new capture.
func withCapture(ctx context.Context) (context.Context, *capture) {
	c := &capture{}
	return context.WithValue(ctx, captureKey{}, c), c
}

func captureFrom(ctx context.Context) *capture {
	c, _ := ctx.Value(captureKey{}).(*capture)
	return c
}

func (c *capture) set(raw json.RawMessage) {
	c.mu.Lock()
	c.result = append(json.RawMessage(nil), raw...)
	c.mu.Unlock()
}

// raw returns the captured result, nil when none was captured.
func (c *capture) raw() json.RawMessage {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.result
}
