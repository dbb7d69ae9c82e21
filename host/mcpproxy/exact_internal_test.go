package mcpproxy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// canon is a reference reading of the JSON text b, independent of the
// code under test and of encoding/json: every string as its UTF-16 code
// units (so a lone surrogate is itself), every number as its literal,
// objects with their members sorted. Two JSON texts hold the same values
// exactly when their canon is equal. ok is false for a text that is not
// valid JSON or has an object with a repeated name (whose meaning JSON
// leaves open).
func canon(b []byte) (string, bool) {
	if !json.Valid(b) {
		return "", false
	}
	r := &canonReader{b: b}
	s, ok := r.value()
	return s, ok
}

type canonReader struct {
	b []byte
	i int
}

func (r *canonReader) ws() {
	for r.i < len(r.b) && strings.IndexByte(" \t\r\n", r.b[r.i]) >= 0 {
		r.i++
	}
}

func (r *canonReader) value() (string, bool) {
	r.ws()
	switch c := r.b[r.i]; {
	case c == '{':
		r.i++
		var members []string
		names := map[string]bool{}
		for {
			r.ws()
			if r.b[r.i] == '}' {
				r.i++
				break
			}
			if r.b[r.i] == ',' {
				r.i++
				r.ws()
			}
			name := r.str()
			if names[name] {
				return "", false
			}
			names[name] = true
			r.ws()
			r.i++ // ':'
			v, ok := r.value()
			if !ok {
				return "", false
			}
			members = append(members, name+":"+v)
			r.ws()
		}
		slices.Sort(members)
		return "{" + strings.Join(members, ",") + "}", true
	case c == '[':
		r.i++
		var elems []string
		for {
			r.ws()
			if r.b[r.i] == ']' {
				r.i++
				break
			}
			if r.b[r.i] == ',' {
				r.i++
			}
			v, ok := r.value()
			if !ok {
				return "", false
			}
			elems = append(elems, v)
		}
		return "[" + strings.Join(elems, ",") + "]", true
	case c == '"':
		return r.str(), true
	case c == 't' || c == 'f' || c == 'n':
		j := r.i
		for r.i < len(r.b) && r.b[r.i] >= 'a' && r.b[r.i] <= 'z' {
			r.i++
		}
		return string(r.b[j:r.i]), true
	default:
		j := r.i
		for r.i < len(r.b) && strings.IndexByte("+-.eE0123456789", r.b[r.i]) >= 0 {
			r.i++
		}
		return "n" + string(r.b[j:r.i]), true
	}
}

// str reads a string literal as "s" and its code units in hex.
func (r *canonReader) str() string {
	r.i++ // '"'
	var units []uint16
	for r.b[r.i] != '"' {
		c := r.b[r.i]
		if c != '\\' {
			ru, n := utf8.DecodeRune(r.b[r.i:])
			units = append(units, utf16.Encode([]rune{ru})...)
			r.i += n
			continue
		}
		e := r.b[r.i+1]
		r.i += 2
		switch e {
		case 'u':
			v, _ := strconv.ParseUint(string(r.b[r.i:r.i+4]), 16, 16)
			units = append(units, uint16(v))
			r.i += 4
		case 'b':
			units = append(units, '\b')
		case 'f':
			units = append(units, '\f')
		case 'n':
			units = append(units, '\n')
		case 'r':
			units = append(units, '\r')
		case 't':
			units = append(units, '\t')
		default:
			units = append(units, uint16(e))
		}
	}
	r.i++
	var sb strings.Builder
	sb.WriteString("s")
	for _, u := range units {
		fmt.Fprintf(&sb, "%04x", u)
	}
	return sb.String()
}

// jsonSeeds are JSON texts whose values Go's types do not hold as
// written.
var jsonSeeds = []string{
	`{"big":12345678901234567890,"huge":1e400,"negz":-0,"one":1.0,"lone":"\ud800","list":[12345678901234567890,1e400,-0,1.0,"a\udc00b"]}`,
	`["\ud83d\ude00 a pair","\ude00\ud83d reversed","\\ud800 not an escape","\\\ud800 after a backslash"]`,
	`{"k\ud800":"v","x":"<&>\u2028\u0000","e":-1.5E+10,"z":0.0,"n":null,"t":[true,false]}`,
	`"\uDBFF\uDFFF \uDBFF \uDFFF \uD800\uD800\uDC00"`,
	"\"\U000F0000 a genuine private-use character \\ud800\"",
	`{"deep":[[[{"a":[1e-400,123456789012345678901234567890.000]}]]]}`,
}

// FuzzExactJSON: what the proxy writes of a JSON value it decoded
// (decodeExact, then json.Marshal with stand-ins written back when the
// text held no stand-in character of its own, as rawToolResult and
// resolveArgs do) holds exactly the values of the text it read: every
// number as written, every string's code units, lone surrogates
// included.
func FuzzExactJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		want, ok := canon(raw)
		if !ok {
			return
		}
		v, _, err := decodeExact(raw)
		if err != nil {
			t.Fatalf("decodeExact %s: %v", raw, err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %s: %v", raw, err)
		}
		if !hasStandInJSON(raw) {
			out = escapeStandIns(out)
		} else if surrogateEscape(raw) {
			return // lone surrogates then read as U+FFFD, as documented
		}
		if got, ok := canon(out); !ok || got != want {
			t.Fatalf("%s came out as %s", raw, out)
		}
	})
}

// FuzzAnnotateRaw: a result annotated for a client on 2026-07-28 keeps
// every member the upstream wrote exactly, and has a resultType.
func FuzzAnnotateRaw(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"content":[],"_meta":{"acme/n":12345678901234567890,"io.modelcontextprotocol/serverInfo":{"name":"up"}},"resultType":"complete"}`))
	f.Add([]byte(`{"inputRequests":{"q":{"method":"roots/list"}},"requestState":"\ud800"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if _, ok := canon(raw); !ok {
			return
		}
		in := members(raw)
		if in == nil {
			return
		}
		out := annotateRaw(raw, true, mcp.Meta{mcp.MetaKeyServerInfo: &mcp.Implementation{Name: "compact(x)", Version: "1"}})
		got := members(out)
		if got == nil {
			t.Fatalf("%s annotated is %s", raw, out)
		}
		for k, v := range in {
			want, _ := canon(v)
			if k == "_meta" {
				um := members(v)
				if um == nil {
					want, _ = canon(v)
					if g, _ := canon(got[k]); g != want {
						t.Fatalf("_meta %s became %s", v, got[k])
					}
					continue
				}
				gm := members(got[k])
				for mk, mv := range um {
					w, _ := canon(mv)
					if g, _ := canon(gm[mk]); g != w {
						t.Fatalf("_meta.%s %s became %s", mk, mv, gm[mk])
					}
				}
				continue
			}
			if g, _ := canon(got[k]); g != want {
				t.Fatalf("member %s %s became %s", k, v, got[k])
			}
		}
		if _, ok := got["resultType"]; !ok {
			t.Fatalf("no resultType in %s", out)
		}
	})
}

// FuzzKeepInputResponses: a request's inputResponses, moved into its
// _meta by the pass-through, come back out exactly as written, and the
// request's other members are unchanged.
func FuzzKeepInputResponses(f *testing.F) {
	f.Add([]byte(`{"name":"t","arguments":{},"inputResponses":{"q1":{"action":"accept","content":{"n":12345678901234567890,"f":1.0,"e":1e400,"s":"\ud800"}}},"requestState":"st"}`))
	f.Add([]byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"inputResponses":{"r":{"roots":[]}}}`))
	f.Add([]byte(`{"_meta":null,"inputResponses":{}}`))
	f.Fuzz(func(t *testing.T, params []byte) {
		in := members(params)
		if in == nil || !present(in["inputResponses"]) {
			return
		}
		if _, ok := canon(params); !ok {
			return
		}
		id, _ := jsonrpc.MakeID(int64(1))
		req := &jsonrpc.Request{ID: id, Method: "tools/call", Params: params}
		out := keepInputResponses(req)
		if out == req {
			return // left for the go-sdk as it is
		}
		got := members(out.Params)
		if _, ok := got["inputResponses"]; ok {
			t.Fatalf("%s kept inputResponses: %s", params, out.Params)
		}
		var meta map[string]any
		if err := json.Unmarshal(got["_meta"], &meta); err != nil {
			t.Fatalf("_meta of %s: %v", out.Params, err)
		}
		ir := inputResponses(meta, nil)
		b, err := json.Marshal(ir)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := canon(in["inputResponses"])
		if g, ok := canon(b); !ok || g != w {
			t.Fatalf("inputResponses %s came back as %s", in["inputResponses"], b)
		}
		for k, v := range in {
			if k == "inputResponses" || k == "_meta" {
				continue
			}
			w, _ := canon(v)
			if g, _ := canon(got[k]); g != w {
				t.Fatalf("member %s %s became %s", k, v, got[k])
			}
		}
	})
}

// FuzzKeepLone: a text the proxy makes from an upstream's string by
// adding before and after it (a server's name, its instructions, a
// tool's description) keeps the string's code units exactly, lone
// surrogates included.
func FuzzKeepLone(f *testing.F) {
	for _, s := range []string{`"Use the zeta tool first. \udfff"`, `"M \ud800 lone"`, `"\ud800\udc00 pair \\ud800"`, `"\ude00\ud83d"`, `"plain"`} {
		f.Add([]byte(s), "compact(", ")")
	}
	f.Fuzz(func(t *testing.T, raw []byte, before, after string) {
		want, ok := canon(raw)
		if !ok || !strings.HasPrefix(want, "s") || !utf8.ValidString(before+after) || hasStandIn(before+after) {
			return
		}
		var d string
		if json.Unmarshal(raw, &d) != nil {
			return
		}
		got := keepLone(raw, before+d+after)
		if got == nil {
			return // no lone surrogate: the proxy writes the text as decoded
		}
		b, _ := json.Marshal(before)
		a, _ := json.Marshal(after)
		cb, _ := canon(b)
		ca, _ := canon(a)
		if g, ok := canon(got); !ok || g != "s"+cb[1:]+want[1:]+ca[1:] {
			t.Fatalf("%q + %s + %q came out as %s", before, raw, after, got)
		}
	})
}
