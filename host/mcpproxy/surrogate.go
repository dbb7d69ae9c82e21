package mcpproxy

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Lone surrogates. JSON may hold a lone UTF-16 surrogate escape
// ("\ud800"), which no UTF-8 string can hold: Go's decoder (the go-sdk's)
// turns it into U+FFFD. A text block the proxy passes unchanged keeps the
// upstream's bytes (see raw.go); one it compacts is read again from the
// upstream's bytes with each lone surrogate U+D800+n as the private-use
// character U+F0000+n (valid UTF-8, so the engine and its views keep it
// as it is), compacted and stored like that, and written back to the
// client as the same \uXXXX escape. A text that holds such private-use
// characters already is left as the go-sdk decoded it (U+FFFD): the
// mapping back would not be exact.

// surrogateBase is the private-use character that stands for U+D800.
const surrogateBase = 0xF0000

// surrogateEscape reports whether raw JSON may hold a surrogate escape
// (a cheap filter: \ud800 to \udfff in either case).
func surrogateEscape(raw []byte) bool {
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte(`\u`))
		if j < 0 || i+j+4 > len(raw) {
			return false
		}
		i += j + 2
		if (raw[i] == 'd' || raw[i] == 'D') && bytes.IndexByte([]byte("89abcdefABCDEF"), raw[i+1]) >= 0 {
			return true
		}
	}
}

// keepSurrogates gives the text blocks of res whose JSON in the
// upstream's raw result holds lone surrogates their text with the
// surrogates kept (WTF-8, see above) instead of U+FFFD.
func keepSurrogates(raw json.RawMessage, res *mcp.CallToolResult) {
	if raw == nil || !surrogateEscape(raw) || hasStandInJSON(raw) {
		return
	}
	var m struct {
		Content []struct {
			Type string          `json:"type"`
			Text json.RawMessage `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &m) != nil || len(m.Content) != len(res.Content) {
		return
	}
	for i, c := range m.Content {
		tc, ok := res.Content[i].(*mcp.TextContent)
		if !ok || c.Type != "text" || !surrogateEscape(c.Text) {
			continue
		}
		if hasStandIn(tc.Text) {
			continue
		}
		if s, lone, ok := unquoteSurrogates(c.Text); ok && lone {
			nt := *tc
			nt.Text = s
			res.Content[i] = &nt
		}
	}
}

// unquoteSurrogates decodes the JSON string literal q, a lone surrogate
// as its stand-in (see above); lone reports whether there was one.
func unquoteSurrogates(q []byte) (s string, lone, ok bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", false, false
	}
	in := q[1 : len(q)-1]
	out := make([]byte, 0, len(in))
	hex4 := func(i int) (rune, bool) {
		if i+4 > len(in) {
			return 0, false
		}
		v, err := strconv.ParseUint(string(in[i:i+4]), 16, 32)
		return rune(v), err == nil
	}
	for i := 0; i < len(in); {
		c := in[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(in) {
			return "", false, false
		}
		switch e := in[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(i + 2)
			if !ok {
				return "", false, false
			}
			i += 6
			if r >= 0xD800 && r < 0xDC00 && i+1 < len(in) && in[i] == '\\' && in[i+1] == 'u' {
				if r2, ok := hex4(i + 2); ok && r2 >= 0xDC00 && r2 < 0xE000 {
					out = utf8.AppendRune(out, 0x10000+(r-0xD800)<<10+(r2-0xDC00))
					i += 6
					continue
				}
			}
			if r >= 0xD800 && r < 0xE000 {
				lone = true
				out = utf8.AppendRune(out, surrogateBase+r-0xD800)
				continue
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false, false
		}
		i += 2
	}
	return string(out), lone, true
}

// standIn reports whether r stands for a lone surrogate.
func standIn(r rune) bool { return r >= surrogateBase && r < surrogateBase+0x800 }

// hasStandIn reports whether s holds a stand-in of a lone surrogate.
func hasStandIn(s string) bool {
	for _, r := range s {
		if standIn(r) {
			return true
		}
	}
	return false
}

// quoteSurrogates is the JSON string literal of s as encoding/json
// writes it, except that a stand-in becomes the escape of its lone
// surrogate.
func quoteSurrogates(s string) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('"')
	start := 0
	flush := func(end int) {
		if end > start {
			q, _ := json.Marshal(s[start:end])
			b.Write(q[1 : len(q)-1])
		}
	}
	for i, r := range s {
		if standIn(r) {
			flush(i)
			b.WriteString(`\u` + strconv.FormatInt(int64(r-surrogateBase+0xD800), 16))
			start = i + utf8.RuneLen(r)
		}
	}
	flush(len(s))
	b.WriteByte('"')
	return b.Bytes()
}

// marshalBlock is the JSON of a content block, a text block's lone
// surrogates written as their escapes when standIns is set (see above).
func marshalBlock(c mcp.Content, standIns bool) ([]byte, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	tc, ok := c.(*mcp.TextContent)
	if !ok || !standIns || !hasStandIn(tc.Text) {
		return b, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["text"] = quoteSurrogates(tc.Text)
	return json.Marshal(m)
}

// markMapped records, when the upstream's result raw had lone surrogates
// that became stand-ins (see keepSurrogates and exactToolResult), that
// the artifacts of out hold stand-ins.
func (p *Proxy) markMapped(raw json.RawMessage, out *mcp.CallToolResult) {
	if !surrogateEscape(raw) || hasStandInJSON(raw) {
		return
	}
	m, _ := out.Meta[MetaKey].(Meta)
	for _, r := range m.Results {
		if r.Artifact != nil {
			p.markStandIns(r.Artifact.Handle)
		}
	}
	p.markStandIns(m.Handle)
}

// keepLone is typed, a text the proxy made from the text of the JSON
// string raw (which typed holds as the go-sdk decoded it: a lone
// surrogate as U+FFFD) by adding before or after it, as a JSON string
// with raw's lone surrogates written back as the escapes they were; nil
// when raw holds none (or typed does not hold raw's text).
func keepLone(raw json.RawMessage, typed string) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if !surrogateEscape(raw) || hasStandInJSON(raw) {
		return nil
	}
	s, lone, ok := unquoteSurrogates(raw)
	var d string
	if !ok || !lone || json.Unmarshal(raw, &d) != nil {
		return nil
	}
	i := strings.Index(typed, d)
	if i < 0 {
		return nil
	}
	return quoteSurrogates(typed[:i] + s + typed[i+len(d):])
}
