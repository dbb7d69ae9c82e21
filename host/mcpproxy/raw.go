package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Results as the upstream wrote them. The downstream client receives the
// upstream's result bytes (see capture) for initialize (with the proxy's
// name, its read_artifact tool's capability and instructions added),
// tools/list (each description gains the handle sentence, read_artifact
// is added to the last page), prompts/list, prompts/get, resources/list,
// resources/templates/list, resources/read and completion/complete; and
// for tools/call, the upstream's result with only what the proxy
// compacted replaced. So pagination, order, annotations, members the
// go-sdk does not know (a tool's execution, a server's title, icons and
// websiteUrl, capabilities such as tasks and experimental) and numbers
// pass exactly. A client on protocol 2026-07-28 or later (whose results
// the go-sdk annotates) gets the go-sdk's typed results instead.

// rawResult is a result the downstream client receives as raw JSON; the
// embedded value only makes it an mcp.Result (and holds the _meta the
// go-sdk's server sets on it for a client on protocol 2026-07-28 or
// later, which MarshalJSON adds, see annotateRaw).
type rawResult struct {
	*mcp.CallToolResult
	raw json.RawMessage
	// annotate is set for a client on protocol 2026-07-28 or later;
	// cacheable for a list or resources/read result.
	annotate, cacheable bool
}

// MarshalJSON returns the raw result (annotated, see annotateRaw).
func (r *rawResult) MarshalJSON() ([]byte, error) {
	if !r.annotate {
		return r.raw, nil
	}
	return annotateRaw(r.raw, r.cacheable, r.CallToolResult.Meta), nil
}

func asRaw(raw json.RawMessage) mcp.Result {
	return &rawResult{CallToolResult: &mcp.CallToolResult{}, raw: raw}
}

// rawFor is raw as the result of method for a client on protocol
// version (see annotateRaw).
func rawFor(raw json.RawMessage, method, version string) mcp.Result {
	r := &rawResult{CallToolResult: &mcp.CallToolResult{}, raw: raw, annotate: version >= newProtocol}
	switch method {
	case "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read", "server/discover":
		r.cacheable = true
	}
	return r
}

// rawSession returns the downstream session of req and the protocol
// version its client speaks ("" when it has not initialized).
func rawSession(req mcp.Request) (*mcp.ServerSession, string) {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return nil, ""
	}
	if ip := ss.InitializeParams(); ip != nil {
		return ss, ip.ProtocolVersion
	}
	return ss, ""
}

// forwardRaw answers a request of the methods above from the upstream's
// raw result; ok is false when it does not handle the request (the
// go-sdk's handlers then do).
func (p *Proxy) forwardRaw(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error, ok bool) {
	ss, version := rawSession(req)
	if version == "" {
		return nil, nil, false
	}
	switch method {
	case "tools/list", "prompts/list", "resources/list", "resources/templates/list",
		"prompts/get", "resources/read", "completion/complete":
	default:
		return nil, nil, false
	}
	cs, tctx, done, err := p.begin(ctx, ss)
	if err != nil {
		return nil, p.upstreamError(ctx, method, err), true
	}
	defer done()
	cctx, cancel := context.WithTimeout(tctx, p.opts.CallTimeout)
	defer cancel()
	cctx, cp := withCapture(cctx)
	switch params := req.GetParams().(type) {
	case *mcp.ListToolsParams:
		_, err = cs.ListTools(cctx, fwdParams(p, params, func(q *mcp.ListToolsParams) *mcp.Meta { return &q.Meta }))
	case *mcp.ListPromptsParams:
		_, err = cs.ListPrompts(cctx, fwdParams(p, params, func(q *mcp.ListPromptsParams) *mcp.Meta { return &q.Meta }))
	case *mcp.ListResourcesParams:
		_, err = cs.ListResources(cctx, fwdParams(p, params, func(q *mcp.ListResourcesParams) *mcp.Meta { return &q.Meta }))
	case *mcp.ListResourceTemplatesParams:
		_, err = cs.ListResourceTemplates(cctx, fwdParams(p, params, func(q *mcp.ListResourceTemplatesParams) *mcp.Meta { return &q.Meta }))
	case *mcp.GetPromptParams:
		q := fwdParams(p, params, func(q *mcp.GetPromptParams) *mcp.Meta { return &q.Meta })
		q.Meta = p.capsMeta(q.Meta, clientCaps(req))
		q.InputResponses = inputResponses(params.Meta, params.InputResponses)
		var r *mcp.GetPromptResult
		r, err = cs.GetPrompt(cctx, q)
		if err == nil && r.NeedsInput() && version < newProtocol {
			// An older client cannot read an input-required result: the
			// go-sdk's server asks it the questions and calls again.
			return r, nil, true
		}
	case *mcp.ReadResourceParams:
		q := fwdParams(p, params, func(q *mcp.ReadResourceParams) *mcp.Meta { return &q.Meta })
		q.Meta = p.capsMeta(q.Meta, clientCaps(req))
		q.InputResponses = inputResponses(params.Meta, params.InputResponses)
		var r *mcp.ReadResourceResult
		r, err = cs.ReadResource(cctx, q)
		if err == nil && r.NeedsInput() && version < newProtocol {
			return r, nil, true
		}
	case *mcp.CompleteParams:
		_, err = cs.Complete(cctx, fwdParams(p, params, func(q *mcp.CompleteParams) *mcp.Meta { return &q.Meta }))
	default:
		return nil, nil, false
	}
	raw := cp.raw()
	if raw == nil {
		if err != nil {
			return nil, p.upstreamError(ctx, method, err), true
		}
		return nil, nil, false // nothing captured: the typed handlers answer
	}
	if method == "tools/list" {
		raw = p.toolList(raw)
	}
	return rawFor(raw, method, version), nil, true
}

// clientCaps returns the capabilities of the client that sent req.
func clientCaps(req mcp.Request) *mcp.ClientCapabilities {
	if r, ok := req.(interface {
		ClientCapabilities() *mcp.ClientCapabilities
	}); ok {
		return r.ClientCapabilities()
	}
	return nil
}

// fwdParams copies params (nil for none) with the _meta to forward.
func fwdParams[T any](p *Proxy, params *T, meta func(*T) *mcp.Meta) *T {
	var cp T
	if params != nil {
		cp = *params
	}
	m := meta(&cp)
	*m = p.forwardMeta(*m)
	return &cp
}

// toolList is the upstream's tools/list result with each description
// followed by the handle sentence (and without outputSchema when
// StripOutputSchemas is set), an upstream tool named read_artifact left
// out, and the proxy's read_artifact added to the last page. Every other
// byte of each tool is the upstream's.
func (p *Proxy) toolList(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	var tools []map[string]json.RawMessage
	if json.Unmarshal(m["tools"], &tools) != nil {
		return raw
	}
	out := make([]json.RawMessage, 0, len(tools)+1)
	for _, t := range tools {
		var name string
		_ = json.Unmarshal(t["name"], &name)
		if name == ReadArtifactTool {
			p.log.Warn("upstream tool hidden by the proxy's own tool", "tool", name)
			continue
		}
		t["description"] = described(t["description"])
		if p.opts.StripOutputSchemas {
			delete(t, "outputSchema")
		}
		b, err := json.Marshal(t)
		if err != nil {
			return raw
		}
		out = append(out, b)
	}
	if c := bytes.TrimSpace(m["nextCursor"]); len(c) == 0 || string(c) == "null" || string(c) == `""` {
		b, err := json.Marshal(readArtifactTool())
		if err != nil {
			return raw
		}
		out = append(out, b)
	}
	var err error
	if m["tools"], err = json.Marshal(out); err != nil {
		return raw
	}
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// initializeResult is the upstream's initialize result as the proxy
// announces it: the go-sdk's negotiated protocol version, the proxy's
// name and instructions, the tools capability (read_artifact) when the
// upstream has none; every other member, of serverInfo and capabilities
// too, is the upstream's.
func (p *Proxy) initializeResult(typed *mcp.InitializeResult) mcp.Result {
	p.mu.Lock()
	up := p.initRaw
	p.mu.Unlock()
	var m map[string]json.RawMessage
	if typed == nil || up == nil || json.Unmarshal(up, &m) != nil || m == nil {
		return typed
	}
	set := func(obj map[string]json.RawMessage, k string, v any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			return false
		}
		obj[k] = b
		return true
	}
	var info, caps map[string]json.RawMessage
	_ = json.Unmarshal(m["serverInfo"], &info)
	_ = json.Unmarshal(m["capabilities"], &caps)
	if info == nil {
		info = map[string]json.RawMessage{}
	}
	if caps == nil {
		caps = map[string]json.RawMessage{}
	}
	upInstr, upName := m["instructions"], info["name"]
	ok := set(m, "protocolVersion", typed.ProtocolVersion) && set(m, "instructions", typed.Instructions)
	if typed.ServerInfo != nil {
		ok = ok && set(info, "name", typed.ServerInfo.Name)
		if k := keepLone(upName, typed.ServerInfo.Name); k != nil {
			info["name"] = k
		}
	}
	if k := keepLone(upInstr, typed.Instructions); k != nil {
		m["instructions"] = k
	}
	if _, has := caps["tools"]; !has {
		ok = ok && set(caps, "tools", typed.Capabilities.Tools)
	}
	ok = ok && set(m, "serverInfo", info) && set(m, "capabilities", caps)
	b, err := json.Marshal(m)
	if !ok || err != nil {
		return typed
	}
	return asRaw(b)
}

// discoverResult is the go-sdk's server/discover answer (a client on
// 2026-07-28 or later asks it instead of initialize) with what the
// upstream's initialize result says that the go-sdk does not know, as
// the upstream wrote it: capabilities it lacks (tasks, experimental,
// extensions), and the server's identity in _meta with the upstream's
// serverInfo members (title, icons, websiteUrl) beside the proxy's
// name.
func (p *Proxy) discoverResult(typed *mcp.DiscoverResult) mcp.Result {
	p.mu.Lock()
	up, init := p.initRaw, p.initRes
	p.mu.Unlock()
	um := members(up)
	b, err := json.Marshal(typed)
	m := members(b)
	if um == nil || err != nil || m == nil {
		return typed
	}
	caps := members(m["capabilities"])
	if caps == nil {
		caps = map[string]json.RawMessage{}
	}
	for k, v := range members(um["capabilities"]) {
		if _, ok := caps[k]; !ok {
			caps[k] = v
		}
	}
	if m["capabilities"], err = json.Marshal(caps); err != nil {
		return typed
	}
	if k := keepLone(um["instructions"], typed.Instructions); k != nil {
		m["instructions"] = k
	}
	if info := members(um["serverInfo"]); info != nil {
		name, version := p.serverImpl(init)
		upName := info["name"]
		info["name"], _ = json.Marshal(name)
		if k := keepLone(upName, name); k != nil {
			info["name"] = k
		}
		if _, ok := info["version"]; !ok {
			info["version"], _ = json.Marshal(version)
		}
		meta := members(m["_meta"])
		if meta == nil {
			meta = map[string]json.RawMessage{}
		}
		if meta[mcp.MetaKeyServerInfo], err = json.Marshal(info); err != nil {
			return typed
		}
		if m["_meta"], err = json.Marshal(meta); err != nil {
			return typed
		}
	}
	if b, err = json.Marshal(m); err != nil {
		return typed
	}
	return rawFor(b, "server/discover", newProtocol)
}

// described is a tool's description (its JSON, as the upstream wrote
// it) followed by the handle sentence; lone surrogates in it stay the
// escapes they were (see surrogate.go).
func described(raw json.RawMessage) json.RawMessage {
	var desc string
	_ = json.Unmarshal(raw, &desc)
	d := strings.TrimSpace(strings.TrimRight(desc, " ") + handleSentence)
	if k := keepLone(raw, d); k != nil {
		return k
	}
	b, _ := json.Marshal(d)
	return b
}
