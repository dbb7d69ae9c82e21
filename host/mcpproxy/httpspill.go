package mcpproxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolcompact/compact/budget"
)

// Spilling over streamable HTTP: the go-sdk's client reads a response
// body whole (application/json) or one server-sent event at a time
// (text/event-stream), and decodes each message in memory. spillRoundTripper
// sits under it, in the http.Client's transport, and rewrites each message
// on the way: a message up to SpillAbove passes unchanged; a larger one is
// kept in a temporary file as it is read while the scanner of spill.go
// walks it, and when it answers an outstanding tools/call its long strings
// go from the file to the artifact store, leaving the small spilled form
// (markers) that compactResult already understands. A message over
// MaxMessage is never kept: it is read to its end (to find its id) and
// replaced with a JSON-RPC error naming the limit (a request of the
// upstream with the same request stripped of its params and marked, which
// the proxy answers with that error; a notification is dropped).

// CodeMessageTooLarge is the JSON-RPC error code of the error that
// replaces an upstream message larger than the configured limit.
const CodeMessageTooLarge = -32001

// maxFieldLine bounds an SSE line other than data (event, id, retry,
// comments).
const maxFieldLine = 64 << 10

// spillRoundTripper is an http.RoundTripper that spills large upstream
// messages (see above).
type spillRoundTripper struct {
	base    http.RoundTripper
	store   budget.Store
	limit   int64
	spillAt int64
	log     *slog.Logger
	// divert, when set, is given every notification as it is read (see
	// notify.go); one it passed on is left out of the stream.
	divert func(jsonrpc.Message, string) bool
}

// rawBody is the JSON-RPC message of ro with the id idRaw (nil for a
// notification).
func rawBody(idRaw []byte, ro *rawOut) ([]byte, error) {
	m, err := json.Marshal(ro.method)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0",`)
	if idRaw != nil {
		b.WriteString(`"id":`)
		b.Write(idRaw)
		b.WriteByte(',')
	}
	b.WriteString(`"method":`)
	b.Write(m)
	if len(bytes.TrimSpace(ro.params)) > 0 {
		b.WriteString(`,"params":`)
		b.Write(ro.params)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// initBody is the body of req, an initialize request, with its
// capabilities replaced by caps as written.
func initBody(req *http.Request, caps json.RawMessage) ([]byte, error) {
	rc, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, err
	}
	msg, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		return nil, err
	}
	r, ok := msg.(*jsonrpc.Request)
	if !ok {
		return nil, errors.New("not a request")
	}
	r.Params = withInitCaps(r.Params, caps)
	return jsonrpc.EncodeMessage(r)
}

// callInfo is what a POST's body says about the request it carries.
type callInfo struct {
	id     string // idKey, "" for a notification or response
	idRaw  []byte
	method string
}

// requestCall reads the id and method of the JSON-RPC request in a POST
// body without keeping its strings (a tools/call with a resolved memory
// pointer may be large); it stops as soon as both are known.
func requestCall(req *http.Request) callInfo {
	if req.Method != http.MethodPost || req.GetBody == nil {
		return callInfo{}
	}
	body, err := req.GetBody()
	if err != nil {
		return callInfo{}
	}
	defer body.Close()
	sc := newScanner(body)
	sc.stop = func(fi *frameInfo) bool { return fi.id != "" && fi.method != "" }
	info, _ := sc.scanFrame()
	return callInfo{id: info.id, idRaw: info.idRaw, method: info.method}
}

// RoundTrip implements http.RoundTripper.
func (t *spillRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	call := requestCall(req)
	if ro := rawOutFrom(req.Context()); ro != nil && (call.method == "ping" && call.idRaw != nil || call.method == "notifications/progress" && call.idRaw == nil) {
		// A message as written in place of its placeholder (see
		// passthrough.go), with the placeholder's id.
		body, err := rawBody(call.idRaw, ro)
		if err != nil {
			return nil, err
		}
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		req.ContentLength = int64(len(body))
		call = requestCall(req)
	}
	if caps := initCapsFrom(req.Context()); caps != nil && call.method == "initialize" {
		// The client's capabilities as written (see session.go).
		if body, err := initBody(req, caps); err == nil {
			req = req.Clone(req.Context())
			req.Body = io.NopCloser(bytes.NewReader(body))
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
			req.ContentLength = int64(len(body))
		}
	}
	if h := heldInitFrom(req.Context()); h != nil && call.method == "notifications/initialized" && req.GetBody != nil {
		// Sent when the downstream client sends its own (see
		// session.go); the go-sdk is answered as the server would.
		later := req.Clone(context.WithoutCancel(req.Context()))
		h.hold(func() {
			if body, err := req.GetBody(); err == nil {
				later.Body = body
				if resp, err := t.base.RoundTrip(later); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		})
		return &http.Response{StatusCode: http.StatusAccepted, Status: "202 Accepted", Proto: req.Proto, ProtoMajor: req.ProtoMajor, ProtoMinor: req.ProtoMinor,
			Header: http.Header{}, Body: http.NoBody, ContentLength: 0, Request: req}, nil
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// The go-sdk reads an error body whole, looking for a JSON-RPC
		// error in it: never past the limit.
		if t.limit > 0 {
			resp.Body = &errorBody{rc: resp.Body, left: t.limit, status: resp.StatusCode, limit: t.limit}
		}
		return resp, nil
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	sp := &msgSpiller{store: t.store, limit: t.limit, spillAt: t.spillAt}
	ctx := req.Context()
	switch mt {
	case "application/json":
		if call.id == "" {
			return resp, nil
		}
		resp.Body = &jsonBody{ctx: ctx, cp: captureFrom(ctx), rc: resp.Body, sp: sp, call: call, log: t.log}
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
	case "text/event-stream":
		resp.Body = &sseBody{ctx: ctx, cp: captureFrom(ctx), rc: resp.Body, r: bufio.NewReaderSize(resp.Body, 64<<10), sp: sp, call: call, log: t.log, route: routeFrom(ctx), divert: t.divert}
	}
	return resp, nil
}

// errorBody is the body of an HTTP error response, cut at the limit: past
// it, Read fails with an error naming the status and the limit.
type errorBody struct {
	rc     io.ReadCloser
	left   int64
	status int
	limit  int64
}

func (b *errorBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, err := io.ReadFull(b.rc, one[:]); n == 0 {
			return 0, err
		}
		return 0, fmt.Errorf("upstream HTTP %d response: body over the limit of %d bytes (--max-message); the rest was not read", b.status, b.limit)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *errorBody) Close() error { return b.rc.Close() }

// msgSpiller reads one message and decides what to pass on.
type msgSpiller struct {
	store   budget.Store
	limit   int64
	spillAt int64
}

// spilled is what became of one message.
type spilled struct {
	data []byte    // what to pass on (nil when over)
	info frameInfo // its id, method and long strings (when it was scanned)
	size int64     // its size in bytes (at least, when over)
	over bool      // it was over the limit and was not kept
}

// read reads one message from r to its end. spillable says whether a
// message with this id may have its long strings moved to the store (a
// response to an outstanding tools/call). A message up to the spill size
// (and the limit) is passed on as it is, without scanning.
func (s *msgSpiller) read(ctx context.Context, r io.Reader, spillable func(frameInfo) bool) (spilled, error) {
	headMax := s.spillAt
	if s.limit > 0 && s.limit < headMax {
		headMax = s.limit
	}
	head, err := io.ReadAll(io.LimitReader(r, headMax+1))
	if err != nil {
		return spilled{}, err
	}
	if int64(len(head)) <= headMax {
		return spilled{data: head, size: int64(len(head))}, nil
	}
	// A large message: kept in a temporary file (up to the limit) while
	// the scanner walks it.
	buf := &spillBuffer{keepMax: s.limit}
	defer buf.close()
	tee := io.TeeReader(io.MultiReader(bytes.NewReader(head), r), buf)
	head = nil
	info, scanErr := newScanner(tee).scanFrame()
	// The scanner stops at the end of the value (or at an error): the
	// rest goes through the tee as well, to be kept or counted.
	if _, err := io.Copy(io.Discard, tee); err != nil {
		return spilled{}, err
	}
	out := spilled{info: info, size: buf.n, over: buf.over}
	if buf.err != nil {
		return out, buf.err
	}
	if buf.over {
		return out, nil
	}
	if scanErr == nil && len(info.spans) > 0 && s.store != nil && spillable(info) {
		data, err := rewriteSpans(ctx, s.store, buf.file, buf.n, info.spans)
		if err == nil {
			out.data = data
			return out, nil
		}
		// Fall back to passing it whole: slower, never lossy.
	}
	data, err := buf.bytes()
	out.data = data
	return out, err
}

// spillBuffer keeps what is written to it in a temporary file; past
// keepMax bytes it keeps nothing more and only counts.
type spillBuffer struct {
	keepMax int64
	file    *os.File
	n       int64
	over    bool
	err     error
}

func (b *spillBuffer) Write(p []byte) (int, error) {
	b.n += int64(len(p))
	if b.err != nil || b.over {
		return len(p), nil
	}
	if b.keepMax > 0 && b.n > b.keepMax {
		b.over = true
		b.close()
		return len(p), nil
	}
	if b.file == nil {
		f, err := os.CreateTemp("", "compact-message-")
		if err != nil {
			b.err = fmt.Errorf("keeping a large upstream message: %w", err)
			return len(p), nil
		}
		b.file = f
	}
	if _, err := b.file.Write(p); err != nil {
		b.err = fmt.Errorf("keeping a large upstream message: %w", err)
	}
	return len(p), nil
}

// bytes returns everything kept.
func (b *spillBuffer) bytes() ([]byte, error) {
	if b.file == nil {
		return nil, nil
	}
	data := make([]byte, b.n)
	if _, err := b.file.ReadAt(data, 0); err != nil {
		return nil, fmt.Errorf("reading back a large upstream message: %w", err)
	}
	return data, nil
}

func (b *spillBuffer) close() {
	if b.file != nil {
		name := b.file.Name()
		b.file.Close()
		os.Remove(name)
		b.file = nil
	}
}

// tooLarge is the JSON-RPC error response that replaces a message over
// the limit.
func tooLarge(id []byte, size, limit int64) []byte {
	msg := fmt.Sprintf("compact: the upstream's answer is %d bytes or more, over the limit of %d bytes (--max-message); it was read and discarded, nothing was stored", size, limit)
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      json.RawMessage(id),
		"error":   map[string]any{"code": CodeMessageTooLarge, "message": msg},
	})
	return b
}

// overLimitMetaKey marks, in its _meta, a request of the upstream that
// was over the limit and replaced by its id and method alone; its value
// is the error message the upstream gets.
const overLimitMetaKey = "compact.proxy/over-limit"

// overLimitRequest is the request that stands for a request of the
// upstream over the limit (see overLimitMetaKey).
func overLimitRequest(id []byte, method string, size, limit int64) []byte {
	msg := fmt.Sprintf("compact: the upstream's %s request is %d bytes or more, over the limit of %d bytes (--max-message); it was read and discarded, not forwarded", method, size, limit)
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      json.RawMessage(id),
		"method":  method,
		"params":  map[string]any{"_meta": map[string]any{overLimitMetaKey: msg}},
	})
	return b
}

// answeredBy reports whether a message answers the call of the POST that
// carried it.
func (c callInfo) answeredBy(info frameInfo) bool {
	return c.method == "tools/call" && c.id != "" && info.id == c.id
}

// jsonBody is an application/json response body: one message.
type jsonBody struct {
	ctx  context.Context
	cp   *capture // receives the result answering call (see capture)
	rc   io.ReadCloser
	sp   *msgSpiller
	call callInfo
	log  *slog.Logger
	out  *bytes.Reader
	err  error
}

func (b *jsonBody) Read(p []byte) (int, error) {
	if b.out == nil && b.err == nil {
		m, err := b.sp.read(b.ctx, b.rc, b.call.answeredBy)
		switch {
		case err != nil:
			b.err = err
		case m.over:
			b.log.Warn("upstream message over the limit discarded", "bytes", m.size, "limit", b.sp.limit)
			b.out = bytes.NewReader(tooLarge(b.call.idRaw, m.size, b.sp.limit))
		default:
			b.cp.take(m.data, b.call)
			b.out = bytes.NewReader(m.data)
		}
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.out.Read(p)
}

func (b *jsonBody) Close() error { return b.rc.Close() }

// sseBody is a text/event-stream response body, rewritten one event at a
// time.
type sseBody struct {
	ctx  context.Context
	cp   *capture // receives the result answering call (see capture)
	rc   io.ReadCloser
	r    *bufio.Reader
	sp   *msgSpiller
	call callInfo
	log  *slog.Logger
	out  []byte
	err  error
	// route, when set, is the routing token of the downstream session
	// whose call this stream answers: the upstream's questions on it are
	// that session's (see tagRoute).
	route  string
	divert func(jsonrpc.Message, string) bool
}

func (b *sseBody) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		b.out, b.err = b.next()
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

func (b *sseBody) Close() error { return b.rc.Close() }

// next reads one event and returns its rewritten bytes; an error (io.EOF
// at the end of the stream) comes after them.
func (b *sseBody) next() ([]byte, error) {
	ev := &sseEvent{r: b.r}
	var out bytes.Buffer
	m, err := b.sp.read(b.ctx, ev, b.call.answeredBy)
	if ev.err != nil && !errors.Is(ev.err, io.EOF) {
		return nil, ev.err
	}
	if err != nil {
		return nil, err
	}
	out.Write(ev.fields)
	if ev.data {
		data := m.data
		if m.over {
			b.log.Warn("upstream message over the limit discarded", "bytes", m.size, "limit", b.sp.limit, "method", m.info.method)
			switch {
			case m.info.method != "" && m.info.idRaw != nil:
				// A request of the upstream (a question to its client):
				// the same request without its params, marked, so that the
				// proxy answers it with an error naming the limit (see
				// route) instead of leaving the upstream waiting.
				data = overLimitRequest(m.info.idRaw, m.info.method, m.size, b.sp.limit)
			case m.info.method != "":
				// A notification over the limit is dropped.
			case m.info.idRaw != nil:
				data = tooLarge(m.info.idRaw, m.size, b.sp.limit)
			default:
				// A response without a readable id answers the POST's call.
				if b.call.idRaw != nil {
					data = tooLarge(b.call.idRaw, m.size, b.sp.limit)
				}
			}
		}
		if data != nil && !m.over && b.divert != nil && bytes.Contains(data, []byte(`"notifications/`)) {
			// Passed on now, in stream order (see notify.go); the event
			// keeps its id, so that resumption still counts it.
			if msg, err := jsonrpc.DecodeMessage(data); err == nil && b.divert(msg, b.route) {
				data = nil
			}
		} else if data != nil && !m.over && b.divert != nil && (questionIn(data) || askedIn(data)) {
			// A question: its params as written are kept (see
			// markQuestion).
			if msg, err := jsonrpc.DecodeMessage(data); err == nil {
				b.divert(msg, b.route)
				if enc, err := jsonrpc.EncodeMessage(msg); err == nil {
					data = enc
				}
			}
		}
		if data != nil && !m.over {
			b.cp.take(data, b.call)
		}
		if data != nil && !m.over && b.route != "" {
			data = tagRoute(data, b.route)
		}
		if data != nil {
			for line := range bytes.SplitSeq(data, []byte("\n")) {
				out.WriteString("data: ")
				out.Write(bytes.TrimSuffix(line, []byte("\r")))
				out.WriteByte('\n')
			}
		}
	}
	if ev.ended || out.Len() > 0 {
		out.WriteByte('\n')
	}
	if ev.err != nil {
		return out.Bytes(), ev.err
	}
	return out.Bytes(), nil
}

// sseEvent reads the data of one server-sent event (its data lines joined
// with "\n") as a stream, keeping its other lines in fields; it ends at
// the blank line that ends the event.
type sseEvent struct {
	r      *bufio.Reader
	fields []byte // the event's other lines, each with its "\n"
	data   bool   // a data line was seen
	inData bool   // in the middle of a long data line
	cr     bool   // a '\r' held back at the end of a chunk
	pend   []byte
	ended  bool  // the blank line was read
	err    error // io.EOF at the end of the stream
}

var crByte = []byte{'\r'}

func (e *sseEvent) Read(p []byte) (int, error) {
	for len(e.pend) == 0 {
		if e.ended || e.err != nil {
			return 0, io.EOF
		}
		e.fill()
	}
	n := copy(p, e.pend)
	e.pend = e.pend[n:]
	return n, nil
}

// fill reads the next piece of the event into pend.
func (e *sseEvent) fill() {
	if e.inData {
		if e.cr {
			e.cr = false
			if c, err := e.r.Peek(1); err == nil && c[0] == '\n' {
				e.r.Discard(1)
				e.inData = false
				return
			}
			e.pend = crByte
			return
		}
		chunk, err := e.r.ReadSlice('\n')
		switch {
		case err == nil:
			e.inData = false
			e.pend = bytes.TrimSuffix(bytes.TrimSuffix(chunk, []byte("\n")), []byte("\r"))
		case errors.Is(err, bufio.ErrBufferFull):
			if chunk[len(chunk)-1] == '\r' {
				chunk = chunk[:len(chunk)-1]
				e.cr = true
			}
			e.pend = chunk
		default:
			e.pend = chunk
			e.err = err
		}
		return
	}
	line, err := e.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		// A line longer than the buffer: only data lines may be.
		if !bytes.HasPrefix(line, []byte("data:")) {
			e.err = fmt.Errorf("upstream SSE stream: a line of more than %d bytes that is not data", len(line))
			return
		}
		e.startData(line[len("data:"):])
		e.inData = true
		if n := len(e.pend); n > 0 && e.pend[n-1] == '\r' {
			e.pend = e.pend[:len(e.pend)-1]
			e.cr = true
		}
		return
	}
	if err != nil {
		e.err = err
		if len(line) == 0 {
			return
		}
	}
	trimmed := bytes.TrimRight(line, "\r\n")
	switch {
	case len(trimmed) == 0:
		if err == nil {
			e.ended = true
		}
	case bytes.HasPrefix(trimmed, []byte("data:")):
		e.startData(trimmed[len("data:"):])
	default:
		if len(e.fields)+len(trimmed) > maxFieldLine {
			e.err = fmt.Errorf("upstream SSE stream: more than %d bytes of fields in one event", maxFieldLine)
			return
		}
		e.fields = append(append(e.fields, trimmed...), '\n')
	}
}

// startData begins a data line whose value (after "data:") starts with v.
func (e *sseEvent) startData(v []byte) {
	v = bytes.TrimLeft(v, " ")
	if e.data {
		e.pend = append([]byte{'\n'}, v...)
	} else {
		e.pend = v
	}
	e.data = true
	if len(e.pend) == 0 {
		e.pend = nil
	}
}

// routeMetaKey is the _meta key under which a question of the upstream
// (roots/list, sampling/createMessage, elicitation/create) that came on
// the stream of a downstream session's call carries that session's
// routing token. The proxy removes it before the question goes on.
const routeMetaKey = "compact.proxy/route"

type routeKey struct{}

// withRoute marks ctx, the context of a request to the upstream, with the
// routing token of the downstream session it is made for.
func withRoute(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, routeKey{}, token)
}

func routeFrom(ctx context.Context) string {
	s, _ := ctx.Value(routeKey{}).(string)
	return s
}

// tagRoute adds the routing token to the _meta of msg when it is one of
// the upstream's questions to its client; anything else, or anything it
// cannot read, is returned unchanged.
func tagRoute(msg []byte, token string) []byte {
	if !bytes.Contains(msg, []byte(`"method"`)) {
		return msg
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil || m["id"] == nil {
		return msg
	}
	var method string
	if json.Unmarshal(m["method"], &method) != nil {
		return msg
	}
	switch method {
	case "roots/list", "sampling/createMessage", "elicitation/create":
	case "ping":
		// Only a request the go-sdk does not know, carried (see
		// asked.go).
		if !bytes.Contains(msg, []byte(askMetaKey)) {
			return msg
		}
	default:
		return msg
	}
	params := map[string]json.RawMessage{}
	if raw := m["params"]; len(raw) > 0 && string(raw) != "null" {
		if json.Unmarshal(raw, &params) != nil {
			return msg
		}
	}
	// Members kept as raw JSON: the upstream's values pass exactly (a
	// number through float64 would not).
	meta := map[string]json.RawMessage{}
	if raw := params["_meta"]; len(raw) > 0 && string(raw) != "null" {
		if json.Unmarshal(raw, &meta) != nil {
			return msg
		}
	}
	var err error
	if meta[routeMetaKey], err = json.Marshal(token); err != nil {
		return msg
	}
	if params["_meta"], err = json.Marshal(meta); err != nil {
		return msg
	}
	if m["params"], err = json.Marshal(params); err != nil {
		return msg
	}
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return out
}

// take keeps, in cp, the result of msg when msg is the response to call.
func (cp *capture) take(msg []byte, call callInfo) {
	if cp == nil || call.id == "" || bytes.Contains(msg[:min(len(msg), 64)], []byte(`"method"`)) {
		return
	}
	m, err := jsonrpc.DecodeMessage(msg)
	if err != nil {
		return
	}
	if r, ok := m.(*jsonrpc.Response); ok && r.Error == nil && idKey(r.ID.Raw()) == call.id {
		cp.set(r.Result)
	}
}

// questionIn is a cheap check for an upstream question in msg.
func questionIn(msg []byte) bool {
	for _, m := range []string{`"roots/list"`, `"sampling/createMessage"`, `"elicitation/create"`} {
		if bytes.Contains(msg, []byte(m)) {
			return true
		}
	}
	return false
}
