package mcpproxy

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Exact values. What the proxy does not deliberately compact reaches the
// client as the upstream wrote it (see raw.go), and what it does compact
// keeps the values it does not shorten: a JSON value the proxy must take
// apart (structuredContent it compacts or mirrors) is decoded with each
// number as its literal (json.Number: 12345678901234567890, 1e400, -0
// and 1.0 are written back as they came) and each lone surrogate escape
// as its private-use stand-in (see surrogate.go), which is written back
// as the same escape. The go-sdk decodes into float64 and UTF-8 strings;
// a result it cannot decode at all (1e400 overflows a float64) is
// decoded here from the upstream's bytes instead of failing the call.

// standInJSON returns the JSON text raw with each lone surrogate escape
// ("\ud800") replaced by its stand-in (U+F0000, written as UTF-8), and
// whether there was one. It returns raw itself when raw holds no lone
// surrogate, or already holds characters of the stand-in range (the
// mapping back would not be exact; the go-sdk's U+FFFD stands then).
// Outside strings valid JSON holds no backslash, so every backslash
// starts an escape.
func standInJSON(raw []byte) ([]byte, bool) {
	if !surrogateEscape(raw) || hasStandInJSON(raw) {
		return raw, false
	}
	hex4 := func(b []byte) (rune, bool) {
		if len(b) < 4 {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[:4]), 16, 32)
		return rune(v), err == nil
	}
	out := make([]byte, 0, len(raw))
	lone := false
	for i := 0; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '\\')
		if j < 0 {
			out = append(out, raw[i:]...)
			break
		}
		out = append(out, raw[i:i+j]...)
		i += j
		if i+1 >= len(raw) {
			out = append(out, raw[i:]...)
			break
		}
		if raw[i+1] != 'u' {
			out = append(out, raw[i:i+2]...)
			i += 2
			continue
		}
		r, ok := hex4(raw[i+2:])
		if !ok {
			out = append(out, raw[i:i+2]...)
			i += 2
			continue
		}
		if r >= 0xD800 && r < 0xDC00 && i+8 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
			if r2, ok := hex4(raw[i+8:]); ok && r2 >= 0xDC00 && r2 < 0xE000 {
				out = append(out, raw[i:i+12]...) // a pair
				i += 12
				continue
			}
		}
		if r >= 0xD800 && r < 0xE000 {
			out = utf8.AppendRune(out, surrogateBase+r-0xD800)
			lone = true
		} else {
			out = append(out, raw[i:i+6]...)
		}
		i += 6
	}
	if !lone {
		return raw, false
	}
	return out, true
}

// hasStandInJSON reports whether the JSON text raw may hold a character
// of the stand-in range, as UTF-8 or as an escaped surrogate pair
// (\udb80 or \udb81 followed by a low surrogate). It errs towards yes.
func hasStandInJSON(raw []byte) bool {
	// U+F0000..U+F07FF in UTF-8: F3 B0 80 80 .. F3 B0 9F BF.
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte{0xF3, 0xB0})
		if j < 0 {
			break
		}
		i += j + 2
		if i < len(raw) && raw[i] >= 0x80 && raw[i] <= 0x9F {
			return true
		}
	}
	lower := bytes.ToLower(raw)
	return bytes.Contains(lower, []byte(`\udb80`)) || bytes.Contains(lower, []byte(`\udb81`))
}

// escapeStandIns returns the JSON text b with each stand-in character
// written as the escape of the lone surrogate it stands for (b itself
// when it holds none). In JSON that encoding/json wrote, characters
// beyond ASCII occur only inside strings, as UTF-8.
func escapeStandIns(b []byte) []byte {
	if !bytes.Contains(b, []byte{0xF3, 0xB0}) {
		return b
	}
	var out []byte
	start := 0
	for i := 0; i+4 <= len(b); {
		if b[i] != 0xF3 || b[i+1] != 0xB0 {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if !standIn(r) {
			i += max(n, 1)
			continue
		}
		out = append(out, b[start:i]...)
		out = append(out, `\u`+strconv.FormatInt(int64(r-surrogateBase+0xD800), 16)...)
		i += n
		start = i
	}
	if out == nil {
		return b
	}
	return append(out, b[start:]...)
}

// decodeExact decodes the JSON text raw into a Go value whose numbers are
// json.Number (their literals) and whose lone surrogates are stand-ins;
// mapped reports whether there were any (see standInJSON).
func decodeExact(raw []byte) (v any, mapped bool, err error) {
	src, mapped := standInJSON(raw)
	v, err = decodeNumbers(src)
	return v, mapped, err
}

// decodeNumbers decodes the JSON text raw into a Go value whose numbers
// are json.Number.
func decodeNumbers(raw []byte) (v any, err error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// marshalExact is the JSON of v (from decodeExact) with stand-ins
// written back as their escapes.
func marshalExact(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return escapeStandIns(b), nil
}

// members returns the members of the JSON object raw (nil when raw is not
// an object).
func members(raw []byte) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// present reports whether a member's raw value is there and not null.
func present(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && !bytes.Equal(v, []byte("null"))
}

// exactToolResult is the upstream's tools/call result raw as the proxy
// compacts it: the go-sdk's decoding typed (nil when the go-sdk could not
// decode raw), with structuredContent decoded exactly (see decodeExact)
// and, when the go-sdk failed on them, _meta too. ok is false when raw
// is not a tool result even so.
func exactToolResult(raw json.RawMessage, typed *mcp.CallToolResult) (*mcp.CallToolResult, bool) {
	if typed != nil && !bytes.Contains(raw, []byte(`"structuredContent"`)) {
		return typed, true // nothing the go-sdk's decoding changed
	}
	m := members(raw)
	if m == nil {
		return typed, typed != nil
	}
	sc, meta := m["structuredContent"], m["_meta"]
	// Lone surrogates become stand-ins only when the result holds none of
	// their characters itself (see rawToolResult).
	decode := func(b []byte) (any, error) {
		v, _, err := decodeExact(b)
		return v, err
	}
	if hasStandInJSON(raw) {
		decode = decodeNumbers
	}
	res := typed
	if res == nil {
		// Decode what the go-sdk can (the content blocks), the rest here.
		delete(m, "structuredContent")
		delete(m, "_meta")
		b, err := json.Marshal(m)
		if err != nil {
			return nil, false
		}
		res = &mcp.CallToolResult{}
		if err := json.Unmarshal(b, res); err != nil {
			return nil, false
		}
		if present(meta) {
			v, err := decodeNumbers(meta)
			mm, ok := v.(map[string]any)
			if err != nil || !ok {
				return nil, false
			}
			res.Meta = mm
		}
	} else {
		cp := *typed
		res = &cp
	}
	if present(sc) {
		v, err := decode(sc)
		if err != nil {
			return nil, false
		}
		res.StructuredContent = v
	}
	return res, true
}

// annotateRaw is the result raw as the go-sdk's server would send it to
// a client on protocol 2026-07-28 or later, which it annotates: a
// resultType ("input_required" when the result asks for input, else
// "complete"), the caching hints of a list or resources/read result
// (ttlMs 0, cacheScope "public"), and the _meta the go-sdk set (the
// server's identity), each only where the upstream wrote none. Every
// member the upstream wrote keeps its bytes.
func annotateRaw(raw json.RawMessage, cacheable bool, meta mcp.Meta) json.RawMessage {
	m := members(raw)
	if m == nil {
		return raw
	}
	if _, ok := m["resultType"]; !ok {
		rt := `"complete"`
		if present(m["inputRequests"]) {
			rt = `"input_required"`
		}
		m["resultType"] = json.RawMessage(rt)
	}
	if cacheable {
		if _, ok := m["ttlMs"]; !ok {
			m["ttlMs"] = json.RawMessage("0")
		}
		if _, ok := m["cacheScope"]; !ok {
			m["cacheScope"] = json.RawMessage(`"public"`)
		}
	}
	if um := members(m["_meta"]); len(meta) > 0 && (um != nil || m["_meta"] == nil) {
		// (A _meta that is not an object stays the upstream's.)
		if um == nil {
			um = map[string]json.RawMessage{}
		}
		for k, v := range meta {
			if _, ok := um[k]; ok {
				continue
			}
			b, err := json.Marshal(v)
			if err != nil {
				return raw
			}
			um[k] = b
		}
		b, err := json.Marshal(um)
		if err != nil {
			return raw
		}
		m["_meta"] = b
	}
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// inputRequired reports whether the result raw asks for input (multi
// round-trip).
func inputRequired(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(members(raw)["resultType"]), []byte(`"input_required"`))
}

// inputResponsesKey is the _meta key under which a downstream request
// carries its inputResponses as written (a JSON string), moved there by
// the pass-through (see passthrough.go) so that the go-sdk does not
// decode them.
const inputResponsesKey = "compact.proxy/inputResponses"

// hasInputResponses reports whether req is a call that may carry
// inputResponses (multi round-trip).
func hasInputResponses(req *jsonrpc.Request) bool {
	switch req.Method {
	case "tools/call", "prompts/get", "resources/read":
		return bytes.Contains(req.Params, []byte(`"inputResponses"`))
	}
	return false
}

// keepInputResponses is req with its params' inputResponses moved, as
// written, into their _meta under inputResponsesKey; req itself when
// its params are not such an object.
func keepInputResponses(req *jsonrpc.Request) *jsonrpc.Request {
	m := members(req.Params)
	ir, ok := m["inputResponses"]
	if !ok || members(ir) == nil {
		return req // none, or not an object: the go-sdk's to refuse
	}
	um := members(m["_meta"])
	if um == nil {
		if present(m["_meta"]) {
			return req
		}
		um = map[string]json.RawMessage{}
	}
	s, err := json.Marshal(string(ir))
	if err != nil {
		return req
	}
	um[inputResponsesKey] = s
	delete(m, "inputResponses")
	if m["_meta"], err = json.Marshal(um); err != nil {
		return req
	}
	params, err := json.Marshal(m)
	if err != nil {
		return req
	}
	return &jsonrpc.Request{ID: req.ID, Method: req.Method, Params: params, Extra: req.Extra}
}

// inputResponses are the inputResponses to send upstream for a
// downstream request with _meta meta whose decoded inputResponses are
// typed: those kept as written (see keepInputResponses), else typed.
func inputResponses(meta mcp.Meta, typed mcp.InputResponseMap) mcp.InputResponseMap {
	s, ok := meta[inputResponsesKey].(string)
	if !ok {
		return typed
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &m) != nil || m == nil {
		return typed
	}
	out := make(mcp.InputResponseMap, len(m))
	for k, v := range m {
		out[k] = &rawInputResponse{ElicitResult: &mcp.ElicitResult{}, raw: v}
	}
	return out
}

// rawInputResponse is an answer to an input request as the client wrote
// it; the embedded value only makes it an mcp.InputResponse.
type rawInputResponse struct {
	*mcp.ElicitResult
	raw json.RawMessage
}

// MarshalJSON returns the answer as written.
func (r *rawInputResponse) MarshalJSON() ([]byte, error) { return r.raw, nil }
