package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// MetaKey is the key of the result's _meta member where the proxy puts
// its account of what it did: one envelope (schemas.Result without the
// content) per text block it compacted, and what became of
// structuredContent.
const MetaKey = "compact"

// Meta is the value under MetaKey in a tool result's _meta.
type Meta struct {
	// Results holds the envelope of each compacted text block, in order,
	// without its content.
	Results []schemas.Result `json:"results,omitempty"`
	// Structured says what became of structuredContent: "unchanged",
	// "mirrored" (its strings equal to a text block now hold that block's
	// compacted text), "compacted" (replaced by the compacted JSON) or
	// "omitted" (too large; see Handle).
	Structured string `json:"structured,omitempty"`
	// Handle is the artifact holding the original structuredContent,
	// when it was compacted on its own and stored.
	Handle string `json:"handle,omitempty"`
	// SchemaKept is set when structuredContent is passed exact because
	// its compacted form did not validate against the tool's
	// outputSchema (see outschema.go).
	SchemaKept bool `json:"schema_kept,omitempty"`
	// Spilled is how many text blocks were so large that they went
	// straight from the upstream's message to the artifact store as it
	// was read (never decoded in memory), and were read back once for
	// the engine.
	Spilled int `json:"spilled,omitempty"`
	// Pointers is how many arguments were artifact references replaced
	// with their stored values.
	Pointers int `json:"pointers,omitempty"`
	// Answer is the account of a read_artifact answer (without its
	// content): the exact total, how many items are shown, positions, and
	// the artifact holding a full answer too large for its budget.
	Answer *query.Answer `json:"answer,omitempty"`
	// Error is set when the engine failed on a block, which is then
	// passed through unchanged.
	Error string `json:"error,omitempty"`
}

// callTool forwards one tools/call upstream and compacts the result.
func (p *Proxy) callTool(ctx context.Context, name string, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, err := p.callToolResult(ctx, name, req, "")
	if err != nil {
		return nil, err
	}
	return res.(*mcp.CallToolResult), nil
}

// callToolResult is callTool; for a client on protocol version (not
// ""), the result is the upstream's bytes with only what the proxy
// compacted replaced (see raw.go).
func (p *Proxy) callToolResult(ctx context.Context, name string, req *mcp.CallToolRequest, version string) (mcp.Result, error) {
	raw := version != ""
	args, err := rawArgs(req.Params.Arguments)
	if err != nil {
		return errorResult(fmt.Sprintf("compact: tool %s: arguments: %v", name, err)), nil
	}
	resolved, npointers, err := p.resolve(ctx, args)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	cs, tctx, done, err := p.begin(ctx, req.Session)
	if err != nil {
		return errorResult(p.upstreamError(ctx, "tools/call "+name, err).Error()), nil
	}
	defer done()
	// The responses and state of a multi round-trip call pass up as they
	// came (see clientfeatures.go).
	params := &mcp.CallToolParams{Meta: p.capsMeta(p.forwardMeta(req.Params.Meta), req.ClientCapabilities()), Name: name, Arguments: resolved,
		InputResponses: inputResponses(req.Params.Meta, req.Params.InputResponses), RequestState: req.Params.RequestState}
	forget := p.withProgress(tctx, req, params)
	defer forget()
	cctx, cancel := context.WithTimeout(tctx, p.opts.CallTimeout)
	defer cancel()
	cctx, cp := withCapture(cctx)
	res, err := cs.CallTool(cctx, params)
	if raw && version >= newProtocol && inputRequired(cp.raw()) {
		// The upstream asks the client for input before it answers: a
		// client on 2026-07-28 or later fulfils it and calls again. It
		// gets the result as written (even one the go-sdk could not
		// decode); nothing to compact.
		return rawFor(cp.raw(), "tools/call", version), nil
	}
	if err != nil && cp.raw() != nil {
		var je *jsonrpc.Error
		if !errors.As(err, &je) {
			// The upstream answered, but the go-sdk could not decode the
			// answer into its Go types (1e400 in structuredContent
			// overflows a float64): decoded here instead.
			if r, ok := exactToolResult(cp.raw(), nil); ok {
				res, err = r, nil
			}
		}
	}
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			if je.Code == CodeMessageTooLarge {
				// The transport discarded an answer over the limit: a
				// fault of the upstream, told like the others.
				return errorResult(fmt.Sprintf("compact: upstream %s: tools/call %s: %s", p.up, name, je.Message)), nil
			}
			return nil, err
		}
		if ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
			p.dropSession(cs)
		}
		return errorResult(p.upstreamError(ctx, "tools/call "+name, err).Error()), nil
	}
	if res.NeedsInput() {
		// For an older client, the go-sdk server in front of it asks
		// the questions and calls again.
		return &mcp.CallToolResult{Meta: res.Meta, InputRequests: res.InputRequests, RequestState: res.RequestState}, nil
	}
	if raw {
		// Values the go-sdk's decoding changed: numbers in
		// structuredContent (see exact.go), lone surrogates in text
		// (see surrogate.go).
		if r, ok := exactToolResult(cp.raw(), res); ok {
			res = r
		}
		keepSurrogates(cp.raw(), res)
	}
	out := p.compactResult(ctx, name, args, res)
	if raw {
		p.markMapped(cp.raw(), out)
	}
	if npointers > 0 {
		m := out.Meta[MetaKey].(Meta)
		m.Pointers = npointers
		out.Meta[MetaKey] = m
	}
	if raw {
		if b := rawToolResult(cp.raw(), res, out); b != nil {
			return rawFor(b, "tools/call", version), nil
		}
	}
	return out, nil
}

// rawToolResult is the upstream's result raw with the content blocks
// the proxy changed or added, structuredContent when it is not exactly
// the upstream's, and the proxy's account in _meta; nil when raw does
// not match res.
func rawToolResult(raw json.RawMessage, res, out *mcp.CallToolResult) json.RawMessage {
	var m map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil
	}
	var blocks []json.RawMessage
	if c := m["content"]; len(c) > 0 && json.Unmarshal(c, &blocks) != nil {
		return nil
	}
	if len(blocks) != len(res.Content) {
		return nil
	}
	// Stand-ins are lone surrogates only when the upstream's result held
	// none of their characters itself (see surrogate.go).
	standIns := !hasStandInJSON(raw)
	changed := false
	for i, c := range out.Content {
		if i < len(res.Content) && c == res.Content[i] {
			continue
		}
		b, err := marshalBlock(c, standIns)
		if err != nil {
			return nil
		}
		if i < len(blocks) {
			blocks[i] = b
		} else {
			blocks = append(blocks, b)
		}
		changed = true
	}
	var err error
	if changed {
		if m["content"], err = json.Marshal(blocks); err != nil {
			return nil
		}
	}
	meta, _ := out.Meta[MetaKey].(Meta)
	// Exact unless the proxy changed it, or the transport spilled some of
	// its strings (the markers were replaced in out).
	if meta.Structured != "unchanged" || bytes.Contains(m["structuredContent"], []byte(`\u0000compact-spilled:`)) {
		if out.StructuredContent == nil {
			delete(m, "structuredContent")
		} else if m["structuredContent"], err = json.Marshal(out.StructuredContent); err != nil {
			return nil
		} else if standIns {
			m["structuredContent"] = escapeStandIns(m["structuredContent"])
		}
	}
	um := map[string]json.RawMessage{}
	if c := m["_meta"]; len(c) > 0 && string(c) != "null" && json.Unmarshal(c, &um) != nil {
		return nil
	}
	if um[MetaKey], err = json.Marshal(meta); err != nil {
		return nil
	}
	if m["_meta"], err = json.Marshal(um); err != nil {
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// compactResult makes each text block of res fit its budget and keeps
// structuredContent consistent with the text:
//
//   - when every block fitted as it was, structuredContent is unchanged;
//   - strings in structuredContent equal to a compacted text block are
//     replaced with that block's compacted text (servers that mirror their
//     text, like server-filesystem's {"content": text});
//   - when structuredContent is the text block's JSON, it becomes the
//     compacted JSON when the compacted text is still JSON (level fields),
//     and is omitted when the text became an artifact summary;
//   - otherwise structuredContent is compacted on its own (same tool, same
//     budget) and replaced by the result when that is JSON, or omitted
//     with a note naming the artifact that holds it.
//
// Meta (under MetaKey) records what was done. Non-text blocks (images,
// audio, resources) pass unchanged.
func (p *Proxy) compactResult(ctx context.Context, tool string, args json.RawMessage, res *mcp.CallToolResult) *mcp.CallToolResult {
	out := *res
	out.Meta = map[string]any{}
	for k, v := range res.Meta {
		out.Meta[k] = v
	}
	out.Content = make([]mcp.Content, len(res.Content))
	copy(out.Content, res.Content)

	var texts []int
	for i, c := range res.Content {
		if _, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, i)
		}
	}
	tokens := p.opts.Budget
	if tokens > 0 && len(texts) > 1 {
		tokens = max(tokens/len(texts), 1)
	}
	meta := Meta{}
	var facts []factsBlock         // facts notices of texts kept whole
	changed := map[string]string{} // original text -> compacted text
	byIdx := map[int]schemas.Result{}
	var changedIdx []int
	for _, i := range texts {
		tc := res.Content[i].(*mcp.TextContent)
		var data []byte
		h, spilled := spilledHandle(tc.Text)
		if spilled {
			p.issue(string(h))
		}
		if spilled {
			b, err := readSpilled(ctx, p.engine.Store(), h)
			if err != nil {
				meta.Error = err.Error()
				nt := *tc
				nt.Text = fmt.Sprintf("compact: this %s result was stored as %s while it was read, but reading it back failed (%v).", tool, budget.RefOf(h), err)
				out.Content[i] = &nt
				continue
			}
			data = b
			meta.Spilled++
		} else {
			data = []byte(tc.Text)
		}
		// A text block is text, whatever bytes it holds: declared so
		// when the engine would take it for binary (a NUL byte, say),
		// it is shown as text, never as a hex dump.
		ct := ""
		if budget.IsBinary(data) {
			ct = budget.TypeText
		}
		r, err := p.compact(ctx, tool, data, ct, tokens, args)
		data = nil
		if err != nil {
			meta.Error = err.Error()
			nt := *tc
			if spilled {
				nt.Text = fmt.Sprintf("compact: this %s result could not be compacted (%v). The full output is stored as %s: read it with read_artifact (get, jq, slice, search) or pass the handle to a tool.", tool, err, budget.RefOf(h))
				out.Content[i] = &nt
				changed[tc.Text] = nt.Text
				changedIdx = append(changedIdx, i)
				continue
			}
			nt.Text = p.fallback(ctx, tool, tc.Text, err)
			if nt.Text == tc.Text {
				continue
			}
			out.Content[i] = &nt
			changed[tc.Text] = nt.Text
			changedIdx = append(changedIdx, i)
			continue
		}
		p.issuedResult(r)
		content := r.Content
		r.Content = ""
		if r.Level == schemas.LevelNone && !spilled {
			// It fits: the client gets the upstream's text exactly (a
			// JSON text stays JSON). The line of facts compact run puts
			// in front of a long one (what the view at a smaller budget
			// states: counts, value counts, templates) comes as a text
			// block of its own after the others, so that a larger
			// budget never tells the model less.
			if notice, payload := budget.SplitNotice(content); hasFacts(r) && payload == tc.Text {
				facts = append(facts, factsBlock{i, notice})
			} else {
				r.Tokens.After = r.Tokens.Before
			}
			meta.Results = append(meta.Results, r)
			byIdx[i] = r
			continue
		}
		meta.Results = append(meta.Results, r)
		byIdx[i] = r
		if r.Level == schemas.LevelNone && content == tc.Text {
			continue
		}
		nt := *tc
		nt.Text = content
		out.Content[i] = &nt
		changed[tc.Text] = content
		changedIdx = append(changedIdx, i)
	}

	if res.StructuredContent != nil {
		switch {
		case len(changed) == 0:
			meta.Structured = "unchanged"
			out.StructuredContent = p.restore(ctx, res.StructuredContent, &meta)
		default:
			if sc, n := mirror(res.StructuredContent, changed); n > 0 {
				out.StructuredContent = p.restore(ctx, sc, &meta)
				meta.Structured = "mirrored"
				break
			}
			sc := p.restore(ctx, res.StructuredContent, &meta)
			if sc == nil {
				out.StructuredContent = nil
				meta.Structured = "omitted"
				break
			}
			if i, ok := sameJSON(sc, res.Content, changedIdx); ok {
				_, payload := budget.SplitNotice(out.Content[i].(*mcp.TextContent).Text)
				if v, _, err := decodeExact([]byte(payload)); err == nil {
					out.StructuredContent = v
					meta.Structured = "compacted"
				} else {
					out.StructuredContent = nil
					meta.Structured = "omitted"
					if a := byIdx[i].Artifact; a != nil {
						meta.Handle = a.Handle
					}
				}
				break
			}
			p.compactStructured(ctx, tool, args, tokens, sc, &out, &meta)
		}
	}
	if res.StructuredContent != nil && meta.Structured != "unchanged" {
		if sch := p.outputSchema(tool); sch != nil && (out.StructuredContent == nil || !validates(sch, out.StructuredContent)) {
			// The tool promises its schema: the exact structuredContent
			// keeps the promise; the content blocks are compacted.
			out.StructuredContent = p.restore(ctx, res.StructuredContent, &meta)
			out.Content = out.Content[:len(res.Content)] // notes about structuredContent
			meta.Structured = "unchanged"
			meta.Handle = ""
			meta.SchemaKept = true
		}
	}
	for _, f := range facts {
		t := f.notice
		if len(texts) > 1 {
			t = fmt.Sprintf("content[%d]: %s", f.index, t)
		}
		out.Content = append(out.Content, &mcp.TextContent{Text: t})
	}
	out.Meta[MetaKey] = meta
	return &out
}

// factsBlock is the facts notice of the text block at index, kept whole.
type factsBlock struct {
	index  int
	notice string
}

// hasFacts reports whether a result that keeps its output whole states
// facts in its notice (budget.ActFacts), beyond the bare notice a text
// that starts like one gets.
func hasFacts(r schemas.Result) bool {
	for _, a := range r.Actions {
		if a.Kind == budget.ActFacts {
			return true
		}
	}
	return false
}

// fallbackInline is the largest text passed through unchanged when the
// engine fails on it; a larger one is stored instead.
const fallbackInline = 64 << 10

// fallback is what the model sees of a text block the engine failed on:
// the text itself when it is small, else a note with the handle of the
// stored original (or the text itself when it cannot be stored: over
// budget is better than lost).
func (p *Proxy) fallback(ctx context.Context, tool, text string, cerr error) string {
	p.log.Warn("compaction failed", "tool", tool, "bytes", len(text), "err", cerr)
	st := p.engine.Store()
	if len(text) <= fallbackInline || st == nil {
		return text
	}
	h, m, err := st.Put(ctx, strings.NewReader(text), budget.Meta{Tool: tool})
	if err != nil {
		p.log.Warn("storing the original failed; passing it unchanged", "tool", tool, "err", err)
		return text
	}
	p.issue(string(h))
	return fmt.Sprintf("compact: this %s result (%d bytes) could not be compacted (%v). The full output is stored as %s: read it with read_artifact (get, jq, slice, search) or pass the handle to a tool.", tool, m.Bytes, cerr, budget.RefOf(h))
}

// restore replaces the markers of spilled strings in v with their text;
// when that fails, v is dropped (nil) and the error reported, so that a
// marker never reaches the client.
func (p *Proxy) restore(ctx context.Context, v any, meta *Meta) any {
	st := p.engine.Store()
	if st == nil {
		return v
	}
	nv, err := restoreSpilled(ctx, st, v)
	if err != nil {
		meta.Error = err.Error()
		return nil
	}
	return nv
}

// compactStructured compacts structuredContent on its own.
func (p *Proxy) compactStructured(ctx context.Context, tool string, args json.RawMessage, tokens int, sc any, out *mcp.CallToolResult, meta *Meta) {
	b, err := json.Marshal(sc)
	if err != nil {
		out.StructuredContent = nil
		meta.Structured = "omitted"
		meta.Error = fmt.Sprintf("structuredContent is not JSON: %v", err)
		return
	}
	r, err := p.compact(ctx, tool, b, "", tokens, args)
	if err != nil {
		// Unchanged rather than lost; the engine error is reported.
		meta.Structured = "unchanged"
		meta.Error = err.Error()
		return
	}
	p.issuedResult(r)
	if r.Level == schemas.LevelNone {
		meta.Structured = "unchanged"
		return
	}
	notice, payload := budget.SplitNotice(r.Content)
	var v any
	verr := errors.New("not level 1")
	if r.Level == schemas.LevelFields {
		v, _, verr = decodeExact([]byte(payload))
	}
	if verr == nil {
		out.StructuredContent = v
		meta.Structured = "compacted"
		if notice != "" {
			// structuredContent cannot carry level 1's notice: the model
			// reads it in a text block.
			out.Content = append(out.Content, &mcp.TextContent{Text: "structuredContent: " + notice})
		}
		return
	}
	out.StructuredContent = nil
	meta.Structured = "omitted"
	note := "compact: this result's structuredContent was too large for its budget and is omitted"
	if r.Artifact != nil {
		meta.Handle = r.Artifact.Handle
		note += fmt.Sprintf("; it is stored as %s (%d bytes): read it with read_artifact or pass the handle to a tool", budget.RefOf(r.Artifact.Handle), r.Artifact.Bytes)
	}
	out.Content = append(out.Content, &mcp.TextContent{Text: note + "."})
}

// compact runs the engine on one output and tells Observe.
func (p *Proxy) compact(ctx context.Context, tool string, data []byte, contentType string, tokens int, args json.RawMessage) (schemas.Result, error) {
	start := time.Now()
	r, err := p.engine.Compact(ctx, host.Request{Tool: tool, Input: data, ContentType: contentType, Budget: tokens, Args: args})
	if p.opts.Observe != nil {
		p.opts.Observe(tool, r, time.Since(start), err)
	}
	return r, err
}

// mirror returns a copy of v where every string equal to a key of changed
// holds the mapped value, and how many strings it replaced.
func mirror(v any, changed map[string]string) (any, int) {
	switch x := v.(type) {
	case string:
		if c, ok := changed[x]; ok {
			return c, 1
		}
		return x, 0
	case map[string]any:
		n := 0
		m := make(map[string]any, len(x))
		for k, e := range x {
			ne, k2 := mirror(e, changed)
			m[k] = ne
			n += k2
		}
		return m, n
	case []any:
		n := 0
		a := make([]any, len(x))
		for i, e := range x {
			ne, k2 := mirror(e, changed)
			a[i] = ne
			n += k2
		}
		return a, n
	}
	return v, 0
}

// sameJSON reports which changed text block, if any, holds the same JSON
// value as sc.
func sameJSON(sc any, content []mcp.Content, changedIdx []int) (int, bool) {
	b, err := json.Marshal(sc)
	if err != nil {
		return 0, false
	}
	var want any
	if json.Unmarshal(b, &want) != nil {
		return 0, false
	}
	for _, i := range changedIdx {
		// Level 1's notice line is not part of the JSON.
		_, t := budget.SplitNotice(content[i].(*mcp.TextContent).Text)
		if !json.Valid([]byte(t)) {
			continue
		}
		if bytes.Equal(bytes.TrimSpace([]byte(t)), b) {
			return i, true
		}
		var got any
		if json.Unmarshal([]byte(t), &got) == nil && reflect.DeepEqual(got, want) {
			return i, true
		}
	}
	return 0, false
}
