package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the go-sdk does not know passes through. The go-sdk's server
// refuses a request whose method it does not know (tasks/get,
// tasks/list, tasks/result, tasks/cancel, anything newer), drops members
// of known requests it does not know (the task member of a tools/call
// that asks for a task), and cannot send a notification of a method it
// does not know (notifications/tasks/status); it decodes a client's
// answer into Go types (numbers through float64). So, at the downstream
// transport (Proxy.Run on stdio, Proxy.Handler over streamable HTTP):
//
//   - inbound: a request the go-sdk would refuse or strip reaches the
//     go-sdk as a ping (a notification as notifications/progress) whose
//     _meta carries the message as written (inMetaKey); the server's
//     middleware forwards it upstream as written (see passIn), and the
//     upstream's answer comes back as written;
//   - inbound: the answers of a client on 2026-07-28 or later to an
//     input-required result (the inputResponses of its next tools/call,
//     prompts/get or resources/read) move into the request's _meta as
//     written (inputResponsesKey), which the go-sdk does not decode, and
//     go upstream from there (see inputResponses);
//   - outbound: a message of the proxy whose params' _meta carries
//     outMetaKey is written as the message it holds (its method, its
//     params byte for byte); when that is a question to the client, the
//     client's answer is kept as written (see wireState) and passed up
//     instead of the go-sdk's decoding of it.
//
// Upstream, the proxy sends such a request as a ping (a notification as
// notifications/progress) whose context carries the message as written
// (rawOut): the upstream connection (divertConn, or the HTTP upstream's
// round tripper) writes the message it holds instead, with the ping's id,
// and leaves the answer's raw bytes in the request's capture.

const (
	// inMetaKey marks, in the _meta of a ping or progress notification,
	// a downstream message the go-sdk would refuse or strip.
	inMetaKey = "compact.proxy/in"
	// outMetaKey marks, in the _meta of an outgoing message, the message
	// to write instead.
	outMetaKey = "compact.proxy/out"
)

// wireMsg is a message carried under inMetaKey or outMetaKey.
type wireMsg struct {
	Method string `json:"m"`
	// Params are the params as written, as a JSON string (so that no
	// decoder on the way changes them); "" for none.
	Params string `json:"p,omitempty"`
	// Key names the slot that keeps the answer to an outgoing request
	// (see wireState); "" when none is kept.
	Key string `json:"k,omitempty"`
}

// serverMethods are the methods the go-sdk's server (v1.8) accepts from
// a client; any other passes through (see above).
var serverMethods = map[string]bool{
	"initialize": true, "ping": true, "tools/call": true, "tools/list": true,
	"completion/complete": true, "server/discover": true, "prompts/get": true,
	"prompts/list": true, "resources/templates/list": true, "resources/list": true,
	"resources/read": true, "logging/setLevel": true, "resources/subscribe": true,
	"subscriptions/listen": true, "resources/unsubscribe": true,
	"notifications/cancelled": true, "notifications/initialized": true,
	"notifications/progress": true, "notifications/roots/list_changed": true,
}

// clientMethods are the methods the go-sdk's client (v1.8) accepts from
// a server.
var clientMethods = map[string]bool{
	"ping": true, "sampling/createMessage": true, "elicitation/create": true,
	"roots/list": true, "notifications/cancelled": true,
	"notifications/elicitation/complete": true, "notifications/message": true,
	"notifications/progress": true, "notifications/prompts/list_changed": true,
	"notifications/resources/list_changed": true, "notifications/resources/updated": true,
	"notifications/tools/list_changed": true, "notifications/subscriptions/acknowledged": true,
}

// hasTask reports whether tools/call params ask for a task (a task
// member that is not null), which the go-sdk would drop.
func hasTask(params json.RawMessage) bool {
	if !bytes.Contains(params, []byte(`"task"`)) {
		return false
	}
	var p struct {
		Task json.RawMessage `json:"task"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	t := bytes.TrimSpace(p.Task)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

// wrapped returns the placeholder message that carries m under key in
// its params' _meta: a ping for a request, a progress notification for a
// notification.
func wrapped(id jsonrpc.ID, key string, m wireMsg) (*jsonrpc.Request, error) {
	params, err := json.Marshal(map[string]any{"_meta": map[string]any{key: m}})
	if err != nil {
		return nil, err
	}
	method := "notifications/progress"
	if id.IsValid() {
		method = "ping"
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: params}, nil
}

// inbound is a downstream message as the go-sdk's server is given it: a
// request it would refuse or strip is carried in a placeholder (see
// above); anything else is msg.
func inbound(msg jsonrpc.Message) jsonrpc.Message {
	req, ok := msg.(*jsonrpc.Request)
	if ok && hasInputResponses(req) {
		return keepInputResponses(req)
	}
	if !ok || serverMethods[req.Method] && !(req.Method == "tools/call" && hasTask(req.Params)) {
		return msg
	}
	w, err := wrapped(req.ID, inMetaKey, wireMsg{Method: req.Method, Params: string(req.Params)})
	if err != nil {
		return msg
	}
	return w
}

// outbound is an outgoing message as written: the message its params'
// _meta carries under outMetaKey, if any (and that message's answer key).
func outbound(msg jsonrpc.Message) (jsonrpc.Message, string) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !bytes.Contains(req.Params, []byte(outMetaKey)) {
		return msg, ""
	}
	m, ok := carried(req.Params, outMetaKey)
	if !ok {
		return msg, ""
	}
	out := &jsonrpc.Request{ID: req.ID, Method: m.Method}
	if m.Params != "" {
		out.Params = json.RawMessage(m.Params)
	}
	return out, m.Key
}

// carried returns the message params' _meta carries under key.
func carried(params json.RawMessage, key string) (wireMsg, bool) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil || p.Meta[key] == nil {
		return wireMsg{}, false
	}
	var m wireMsg
	if json.Unmarshal(p.Meta[key], &m) != nil || m.Method == "" {
		return wireMsg{}, false
	}
	return m, true
}

// metaMsg returns the message carried under key in a decoded _meta.
func metaMsg(meta mcp.Meta, key string) (wireMsg, bool) {
	v, ok := meta[key].(map[string]any)
	if !ok {
		return wireMsg{}, false
	}
	m := wireMsg{}
	m.Method, _ = v["m"].(string)
	m.Params, _ = v["p"].(string)
	m.Key, _ = v["k"].(string)
	return m, m.Method != ""
}

// wireState keeps the downstream clients' answers to the proxy's
// questions as written, shared by a proxy and its HTTP sessions'
// proxies: an answer slot is made by the asker (newAnswer), tied to the
// request id when the request is written (sent), and filled when the
// answer is read (received), before the go-sdk sees it.
type wireState struct {
	next    atomic.Uint64
	slots   sync.Map // key -> *answer
	pending sync.Map // connection + "\x00" + idKey -> *answer
}

// answer is a client's answer as written.
type answer struct {
	mu     sync.Mutex
	got    bool
	result json.RawMessage
	err    *jsonrpc.Error
	id     string // pending key, once sent
}

func (w *wireState) newAnswer() (string, *answer) {
	key := "a" + strconv.FormatUint(w.next.Add(1), 10)
	a := &answer{}
	w.slots.Store(key, a)
	return key, a
}

// forget drops the slot of key.
func (w *wireState) forget(key string) {
	if v, ok := w.slots.LoadAndDelete(key); ok {
		a := v.(*answer)
		a.mu.Lock()
		id := a.id
		a.mu.Unlock()
		if id != "" {
			w.pending.Delete(id)
		}
	}
}

// sent ties the slot of key to the request id written on conn.
func (w *wireState) sent(conn string, id jsonrpc.ID, key string) {
	v, ok := w.slots.Load(key)
	if !ok {
		return
	}
	a := v.(*answer)
	pk := conn + "\x00" + idKey(id.Raw())
	a.mu.Lock()
	a.id = pk
	a.mu.Unlock()
	w.pending.Store(pk, a)
}

// received keeps a response read on conn when its request has a slot.
func (w *wireState) received(conn string, resp *jsonrpc.Response) {
	v, ok := w.pending.LoadAndDelete(conn + "\x00" + idKey(resp.ID.Raw()))
	if !ok {
		return
	}
	a := v.(*answer)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.got = true
	a.result = append(json.RawMessage(nil), resp.Result...)
	var je *jsonrpc.Error
	if errors.As(resp.Error, &je) {
		a.err = je
	} else if resp.Error != nil {
		a.err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: resp.Error.Error()}
	}
}

// get returns the answer as written, if it was read.
func (a *answer) get() (json.RawMessage, *jsonrpc.Error, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.result, a.err, a.got
}

// Run serves the proxy on one downstream transport (stdio, for compact
// mcp) until the client leaves or ctx ends. Unlike running Server()
// directly, what the go-sdk does not know passes through (see above):
// tasks and any other method, and the client's answers as written. On a
// proxy made by NewLazy, the upstream session starts with the client's
// initialize, announcing exactly its capabilities (see session.go).
func (p *Proxy) Run(ctx context.Context, t mcp.Transport) error {
	p.wired.Store(true)
	if p.deferred {
		return p.runLazy(ctx, t)
	}
	return p.server.Run(ctx, &wireTransport{Transport: t, w: p.wire})
}

// Connect connects the proxy's server to one downstream transport, as
// (*mcp.Server).Connect does, with the pass-through of Run (see above):
// a Go program that serves the proxy on transports of its own (several
// clients sharing one upstream session, an in-memory transport) connects
// each through Connect, not through Server().Connect, and its clients
// get what clients of compact mcp get: tasks and any other method the
// go-sdk does not know, and their answers to the upstream's questions as
// written. Close the session, or wait for its client to leave, with the
// session's methods.
func (p *Proxy) Connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error) {
	ss, err := p.server.Connect(ctx, &wireTransport{Transport: t, w: p.wire}, opts)
	if err != nil {
		return nil, err
	}
	// Marked once connected: a notification the go-sdk does not know,
	// sent to this session before its client initialized, may be missed.
	p.wiredSessions.Store(ss, true)
	p.nwired.Add(1)
	go func() {
		_ = ss.Wait()
		p.wiredSessions.Delete(ss)
		p.nwired.Add(-1)
	}()
	return ss, nil
}

// wiredTo reports whether ss is served through the pass-through (Run
// and Handler's session proxies serve every session so; Connect marks
// its own).
func (p *Proxy) wiredTo(ss *mcp.ServerSession) bool {
	if p.wired.Load() {
		return true
	}
	_, ok := p.wiredSessions.Load(ss)
	return ok
}

// anyWired reports whether some session may be served through the
// pass-through.
func (p *Proxy) anyWired() bool { return p.wired.Load() || p.nwired.Load() > 0 }

// wireTransport gives the go-sdk's server wireConn connections.
type wireTransport struct {
	mcp.Transport
	w *wireState
}

func (t *wireTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	wc := &wireConn{Connection: c, w: t.w}
	wc.name = fmt.Sprintf("conn%p", wc)
	return wc, nil
}

// SupportsProtocolVersion is the wrapped transport's, when it says (see
// mcp.ProtocolVersionSupporter).
func (t *wireTransport) SupportsProtocolVersion(v string) bool {
	if s, ok := t.Transport.(mcp.ProtocolVersionSupporter); ok {
		return s.SupportsProtocolVersion(v)
	}
	return true
}

// wireConn is a downstream connection that rewrites messages inbound and
// outbound (see above).
type wireConn struct {
	mcp.Connection
	w    *wireState
	name string
}

func (c *wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		return msg, err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.w.received(c.name, resp)
		return msg, nil
	}
	return inbound(msg), nil
}

func (c *wireConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	out, key := outbound(msg)
	if key != "" {
		if req, ok := out.(*jsonrpc.Request); ok && req.IsCall() {
			c.w.sent(c.name, req.ID, key)
		}
	}
	return c.Connection.Write(ctx, out)
}

// wireHandler is the streamable HTTP door's side of the rewriting: it
// reads each POSTed message (the go-sdk's handler reads the body whole
// too) and rewrites each server-sent event of the proxy.
type wireHandler struct {
	next http.Handler
	w    *wireState
	max  int64
	idle *idleSessions // ends the sessions no request uses (nil: never)
}

func (h *wireHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sess := r.Header.Get("Mcp-Session-Id")
	if r.Method == http.MethodPost && r.Body != nil {
		body := r.Body
		if h.max > 0 {
			body = http.MaxBytesReader(w, body, h.max)
		}
		b, err := io.ReadAll(body)
		r.Body.Close()
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, fmt.Sprintf("request body over %d bytes", h.max), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		if msg, err := jsonrpc.DecodeMessage(b); err == nil {
			if sess == "" {
				// A new session: its proxy connects to the upstream with
				// this client's capabilities (see sessionServer).
				r = r.WithContext(context.WithValue(r.Context(), newSessionKey{}, &newSession{init: initOf(msg)}))
			}
			if resp, ok := msg.(*jsonrpc.Response); ok {
				h.w.received("http:"+sess, resp)
			} else if in := inbound(msg); in != msg {
				if enc, err := jsonrpc.EncodeMessage(in); err == nil {
					b = enc
				}
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.ContentLength = int64(len(b))
	}
	ww := &wireWriter{ResponseWriter: w, w: h.w, conn: "http:" + sess}
	if h.idle != nil {
		if sess != "" {
			// A request of a session: its clock stops while it is open.
			if h.idle.acquire(sess) {
				defer h.idle.release(sess)
			}
		} else {
			// A request that may start a session: known as soon as its
			// response names it, before the client can use it.
			ww.started = func(id string) {
				h.idle.started(id)
				ww.startedID = id
			}
			defer func() {
				if ww.startedID != "" {
					h.idle.release(ww.startedID)
				}
			}()
		}
	}
	h.next.ServeHTTP(ww, r)
}

// wireWriter rewrites the proxy's outgoing messages (see outbound) in
// the server-sent events (one per Write, as the go-sdk writes them) or
// JSON bodies it writes.
type wireWriter struct {
	http.ResponseWriter
	w    *wireState
	conn string
	// started is told the session a response names, for a request
	// without one (see idleSessions); startedID is that session.
	started     func(id string)
	startedID   string
	wroteHeader bool
}

// WriteHeader notes the session the response starts, if any, before
// the client can read its id.
func (ww *wireWriter) WriteHeader(code int) {
	ww.header()
	ww.ResponseWriter.WriteHeader(code)
}

func (ww *wireWriter) header() {
	if ww.wroteHeader {
		return
	}
	ww.wroteHeader = true
	if ww.started != nil {
		if id := ww.Header().Get("Mcp-Session-Id"); id != "" {
			ww.started(id)
		}
	}
}

func (ww *wireWriter) Write(b []byte) (int, error) {
	ww.header()
	if !bytes.Contains(b, []byte(outMetaKey)) {
		return ww.ResponseWriter.Write(b)
	}
	if _, err := ww.ResponseWriter.Write(ww.rewrite(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// rewrite rewrites one server-sent event or JSON body.
func (ww *wireWriter) rewrite(b []byte) []byte {
	msgOf := func(data []byte) []byte {
		msg, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			return data
		}
		out, key := outbound(msg)
		if out == msg {
			return data
		}
		if req, ok := out.(*jsonrpc.Request); ok && key != "" && req.IsCall() {
			ww.w.sent(ww.conn, req.ID, key)
		}
		enc, err := jsonrpc.EncodeMessage(out)
		if err != nil {
			return data
		}
		return enc
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		return msgOf(t)
	}
	var out bytes.Buffer
	for line := range bytes.SplitAfterSeq(b, []byte("\n")) {
		if d, ok := bytes.CutPrefix(line, []byte("data: ")); ok && bytes.Contains(d, []byte(outMetaKey)) {
			nl := bytes.HasSuffix(d, []byte("\n"))
			out.WriteString("data: ")
			out.Write(msgOf(bytes.TrimSuffix(d, []byte("\n"))))
			if nl {
				out.WriteByte('\n')
			}
			continue
		}
		out.Write(line)
	}
	return out.Bytes()
}

// Unwrap lets http.ResponseController flush the stream.
func (ww *wireWriter) Unwrap() http.ResponseWriter { return ww.ResponseWriter }

// Flush flushes the stream.
func (ww *wireWriter) Flush() {
	ww.header()
	if f, ok := ww.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// rawOut is a message to send upstream as written in place of the ping
// or progress notification whose context carries it.
type rawOut struct {
	method string
	params json.RawMessage
}

type rawOutKey struct{}

func rawOutFrom(ctx context.Context) *rawOut {
	r, _ := ctx.Value(rawOutKey{}).(*rawOut)
	return r
}

// replaces returns the message to write for msg, written in ctx: the
// message rawOut holds when msg is its placeholder.
func (r *rawOut) replaces(msg jsonrpc.Message) jsonrpc.Message {
	req, ok := msg.(*jsonrpc.Request)
	if r == nil || !ok || !(req.IsCall() && req.Method == "ping" || !req.IsCall() && req.Method == "notifications/progress") {
		return msg
	}
	return &jsonrpc.Request{ID: req.ID, Method: r.method, Params: r.params}
}

// callRaw sends method with params as written to the upstream session cs
// and returns its result as written (a JSON-RPC error as a
// *jsonrpc.Error).
func callRaw(ctx context.Context, cs *mcp.ClientSession, method string, params json.RawMessage) (json.RawMessage, error) {
	ctx = context.WithValue(ctx, rawOutKey{}, &rawOut{method: method, params: params})
	ctx, cp := withCapture(ctx)
	if err := cs.Ping(ctx, nil); err != nil {
		return nil, err
	}
	raw := cp.raw()
	if raw == nil {
		return nil, fmt.Errorf("the answer to %s was not captured", method)
	}
	return raw, nil
}

// notifyRawUp sends the notification method with params as written to
// the upstream session cs.
func notifyRawUp(ctx context.Context, cs *mcp.ClientSession, method string, params json.RawMessage) error {
	ctx = context.WithValue(ctx, rawOutKey{}, &rawOut{method: method, params: params})
	return cs.NotifyProgress(ctx, &mcp.ProgressNotificationParams{})
}

// taskTool is the tool call a task of the upstream runs, remembered so
// that its tasks/result is compacted like the call's result.
type taskTool struct {
	tool string
	args json.RawMessage
}

// taskLinger bounds how long a task's tool is remembered.
const taskLinger = 24 * time.Hour

// passIn forwards a downstream message the go-sdk does not know (see
// above) upstream as written, and returns the upstream's answer as
// written: a tools/call that asks for a task (its arguments' memory
// pointers resolved), tasks/get, tasks/list, tasks/result (compacted
// like the call's result when the task is a tools/call's), tasks/cancel,
// and any other method.
func (p *Proxy) passIn(ctx context.Context, req mcp.Request, call bool, m wireMsg) (mcp.Result, error) {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	var params json.RawMessage
	if m.Params != "" {
		params = json.RawMessage(m.Params)
	}
	cs, tctx, done, err := p.begin(ctx, ss)
	if err != nil {
		return nil, p.upstreamError(ctx, m.Method, err)
	}
	defer done()
	if !call {
		if err := notifyRawUp(tctx, cs, m.Method, params); err != nil {
			p.log.Debug("forwarding a notification upstream", "method", m.Method, "err", err)
		}
		return nil, nil
	}
	var tt *taskTool
	if m.Method == "tools/call" {
		var err error
		if tt, params, err = p.taskCall(ctx, params); err != nil {
			return errorResult(err.Error()), nil
		}
	}
	cctx, cancel := context.WithTimeout(tctx, p.opts.CallTimeout)
	defer cancel()
	raw, err := callRaw(cctx, cs, m.Method, params)
	if err != nil {
		return nil, p.upstreamError(ctx, m.Method, err)
	}
	switch m.Method {
	case "tools/call":
		var r struct {
			Task struct {
				ID string `json:"taskId"`
			} `json:"task"`
		}
		if json.Unmarshal(raw, &r) == nil && r.Task.ID != "" {
			p.tasks.Store(r.Task.ID, tt)
			time.AfterFunc(taskLinger, func() { p.tasks.Delete(r.Task.ID) })
		}
	case "tasks/result":
		var q struct {
			ID string `json:"taskId"`
		}
		if json.Unmarshal(params, &q) == nil {
			if v, ok := p.tasks.Load(q.ID); ok {
				raw = p.compactRaw(ctx, v.(*taskTool), raw)
			}
		}
	}
	return asRaw(raw), nil
}

// taskCall resolves the memory pointers in the arguments of tools/call
// params as written (see resolvePointers).
func (p *Proxy) taskCall(ctx context.Context, params json.RawMessage) (*taskTool, json.RawMessage, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(params, &m) != nil || m == nil {
		return &taskTool{}, params, nil
	}
	var name string
	_ = json.Unmarshal(m["name"], &name)
	args := m["arguments"]
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	resolved, n, err := p.resolve(ctx, args)
	if err != nil {
		return nil, nil, err
	}
	if n > 0 {
		m["arguments"] = resolved
		b, err := json.Marshal(m)
		if err != nil {
			return nil, nil, err
		}
		params = b
	}
	return &taskTool{tool: name, args: args}, params, nil
}

// compactRaw is a tool's result as written, compacted as callTool
// compacts one (raw itself when it is not a tool result).
func (p *Proxy) compactRaw(ctx context.Context, t *taskTool, raw json.RawMessage) json.RawMessage {
	var res mcp.CallToolResult
	if t == nil || t.tool == "" || json.Unmarshal(raw, &res) != nil {
		return raw
	}
	keepSurrogates(raw, &res)
	out := p.compactResult(ctx, t.tool, t.args, &res)
	p.markMapped(raw, out)
	if b := rawToolResult(raw, &res, out); b != nil {
		return b
	}
	return raw
}
