package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Requests of the upstream that the go-sdk's client does not know pass
// through. The go-sdk's client refuses a request whose method it does
// not know: tasks/get, tasks/result, tasks/list and tasks/cancel asked
// of the client (for a task the client runs, such as an elicitation or a
// sampling request the upstream made as a task), and anything newer. On
// a proxy served through Run or Handler, the upstream connection (see
// divert) hands such a request to the go-sdk as a ping whose _meta
// carries it as written (askMetaKey); the client middleware asks the
// downstream client it belongs to with the same method and params, and
// answers the upstream with the client's answer as written (see askRaw).

// askMetaKey marks, in the _meta of a ping from the upstream, a request
// of the upstream the go-sdk's client does not know.
const askMetaKey = "compact.proxy/asked"

// carryAsked turns req, an upstream request the go-sdk's client does not
// know, into a ping carrying it (same id); req is left as it was when
// that cannot be done.
func carryAsked(req *jsonrpc.Request) {
	w, err := wrapped(req.ID, askMetaKey, wireMsg{Method: req.Method, Params: string(req.Params)})
	if err != nil {
		return
	}
	req.Method, req.Params = w.Method, w.Params
}

// askedIn is a cheap check for an upstream request in msg (a method near
// its start and an id), which the proxy decodes to see whether the
// go-sdk's client knows it.
func askedIn(msg []byte) bool {
	head := msg[:min(len(msg), 160)]
	return bytes.Contains(head, []byte(`"method"`)) && bytes.Contains(msg, []byte(`"id"`)) && !bytes.Contains(head, []byte(`"notifications/`))
}

// answerAsked answers a carried request (see above) from the downstream
// client route picks; ok is false when params carry none.
func (p *Proxy) answerAsked(ctx context.Context, asker *mcp.ClientSession, params *mcp.PingParams, cancel func()) (res mcp.Result, err error, ok bool) {
	if params == nil {
		return nil, nil, false
	}
	m, ok := metaMsg(params.Meta, askMetaKey)
	if !ok {
		return nil, nil, false
	}
	meta := cloneMeta(params.Meta)
	delete(meta, askMetaKey)
	tag, _ := meta[routeMetaKey].(string)
	ss, _, err := p.route(m.Method, asker, meta, func(*mcp.ClientCapabilities) bool { return true }, cancel)
	if err != nil {
		return nil, err, true
	}
	if !p.wiredTo(ss) {
		// Only the pass-through can send the client a method the
		// go-sdk does not know.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("compact: %s not forwarded: the downstream client is served without the proxy's pass-through (Proxy.Run, Connect or Handler)", m.Method)}, true
	}
	var raw json.RawMessage
	if m.Params != "" {
		raw = json.RawMessage(m.Params)
	}
	res, err = p.askRaw(p.questionCtx(ctx, tag, ss), ss, m.Method, raw)
	if err != nil {
		return nil, downstreamError(m.Method, err), true
	}
	return res, nil, true
}
