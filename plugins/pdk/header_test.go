package pdk

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

// checkHeaderSame parses line (followed by a newline and tail, as in an
// input) with parseHeader and with the generic Reader-based parser and
// fails unless both give the same header or the same error message.
func checkHeaderSame(t *testing.T, line, tail []byte) {
	t.Helper()
	if bytes.IndexByte(line, '\n') >= 0 {
		return
	}
	in := append(append(append([]byte{}, line...), '\n'), tail...)
	var got, want Header
	gerr := parseHeader(in, len(line), &got)
	werr := parseHeaderGeneric(line, &want)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("%q: error %v, generic parser: %v", line, gerr, werr)
	}
	if gerr != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: header %+v, generic parser: %+v", line, got, want)
	}
	// The fast path alone, over the line without anything after it: when
	// it accepts, the generic parser agrees.
	var fast Header
	padded := append(append([]byte{}, line...), make([]byte, 8)...)
	if parseHeaderFast(padded, len(line), string(line), &fast) && !reflect.DeepEqual(fast, want) {
		t.Fatalf("%q: fast path %+v, generic parser: %+v", line, fast, want)
	}
	var canon Header
	if parseHeaderCanonical(padded, len(line), string(line), &canon) && !reflect.DeepEqual(canon, want) {
		t.Fatalf("%q: canonical path %+v, generic parser: %+v", line, canon, want)
	}
}

var headerCases = []string{
	`{"abi":1,"tool":"echo","budget_tokens":100,"content_type":"text/plain","config":{"fault":"echo"}}`,
	`{"abi":1,"tool":"gh_list_issues","budget_tokens":2000,"content_type":"application/json","config":{"keep":"number,title","records":".items"},"args":{"repo":"a/b","n":3}}`,
	`{"abi":1,"tool":"t","budget_tokens":10,"content_type":"text/plain","config":{}}`,
	`{"abi":1,"tool":"a_tool_with_a_long_name","budget_tokens":1000000,"content_type":"application/vnd.github+json","config":{"a_long_config_key":"and a long value, with spaces"},"args":null}`,
	`{"abi":1,"tool":"t","budget_tokens":10,"content_type":"text/plain","config":null}`,
	`{"abi":1,"tool":"t","budget_tokens":10,"content_type":"text/plain","config":{},"args":{"a":[1,2]},"x":1}`,
	`{"abi":1,"tool":"t","budget_tokens":10,"content_type":"text/plain","config":{},"args":{"a":[1,2]}`,
	`{"abi":1,"tool":"t","budget_tokens":10,"content_type":"text/plain","config":{"a":"b"}`,
	`{"config":{"a":"b","a":"c"},"config":{"d":""},"config":null}`,
	`{"args":{"x":1},"args":null}`,
	`{"args":[1,2,{"a":"\u00e9"}],"future":{"x":[true,false,null,-1.5e3]},"":0}`,
	`{"budget_tokens":0,"abi":12345678}`,
	`{"budget_tokens":1234567,"abi":01}`,
	`{"budget_tokens":-1}`,
	`{"budget_tokens":1.5}`,
	`{"budget_tokens":1e3}`,
	`{"abi":"1"}`,
	`{"tool":"a\"b","content_type":"caf\u00e9"}`,
	`{"tool":"café"}`,
	"{\"tool\":\"\xff\"}",
	`{"to\u006fl":"x"}`,
	`{"tool":null}`,
	`{"config":{"k":1}}`,
	`{"config":{"k":"v",}}`,
	`{"config":{"k" :"v"}}`,
	`{"config":[]}`,
	`{"config":nul}`,
	`{"config":nullx}`,
	`{"abi":1,}`,
	`{"abi":1} `,
	` {"abi":1}`,
	`{"abi":1}x`,
	`{"abi":1}{}`,
	`{"abi": 1}`,
	`{}`,
	`{`,
	`{"`,
	`{"abi"`,
	`{"abi":`,
	`{"abi":1`,
	`{"tool":"x`,
	`{"config":{"k":"v"`,
	`{"config":{"k":"v"}`,
	`[]`,
	``,
	`{"x":truefalse}`,
	`{"x":"` + strings.Repeat("a", 40) + `","tool":"` + strings.Repeat("b", 33) + `"}`,
	`{"args":` + strings.Repeat("[", 9500) + strings.Repeat("]", 9500) + `}`,
	`{"args":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
}

func TestParseHeaderMatchesGeneric(t *testing.T) {
	for _, c := range headerCases {
		for _, tail := range []string{"", "x", "hello\nworld\n", strings.Repeat("z", 20)} {
			checkHeaderSame(t, []byte(c), []byte(tail))
		}
	}
	// The usual header takes the canonical path, and the fast path too.
	line := []byte(headerCases[1])
	var h Header
	if !parseHeaderCanonical(append(line, "\nbody...."...), len(line), string(line), &h) || h.Tool != "gh_list_issues" {
		t.Errorf("canonical path: %+v", h)
	}
	h = Header{}
	if !parseHeaderFast(append(line, "\nbody...."...), len(line), string(line), &h) || h.Tool != "gh_list_issues" || h.BudgetTokens != 2000 ||
		h.Config["records"] != ".items" || string(h.Args) != `{"repo":"a/b","n":3}` {
		t.Errorf("fast path: %+v", h)
	}
}

func TestHeaderDigits(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 99, 100, 4096, 123456, 1234567} {
		s := strconv.Itoa(n) + ","
		v, end, ok := hdrDigits([]byte(s+"\x00\x00\x00\x00\x00\x00\x00\x00"), 0, len(s))
		if !ok || v != n || end != len(s)-1 {
			t.Errorf("%q: %d %d %v", s, v, end, ok)
		}
	}
	for _, s := range []string{"12345678,", "01,", "-1,", "1.5,", "1e3,", "1", ",", "1 ,"} {
		if _, _, ok := hdrDigits([]byte(s+"\n\x00\x00\x00\x00\x00\x00\x00\x00"), 0, len(s)); ok {
			t.Errorf("%q accepted", s)
		}
	}
}

// FuzzHeaderFast checks that parseHeader (the fast path, then the generic
// parser on anything else) accepts, returns and rejects exactly what the
// generic Reader-based parser does, with the same error messages.
func FuzzHeaderFast(f *testing.F) {
	for _, c := range headerCases[:len(headerCases)-2] {
		f.Add([]byte(c), []byte("hello\nworld\n"))
	}
	f.Fuzz(func(t *testing.T, line, tail []byte) {
		if len(line) > 512 {
			return
		}
		checkHeaderSame(t, line, tail)
	})
}

var outputCases = []OutputHeader{
	{},
	{ContentType: "text/plain"},
	{ContentType: "application/json", Collections: []Collection{{Path: ".", Count: 7, CountField: "_n"}, {Path: ".items", Count: 0}}},
	{ContentType: "text/x-compact-table", Collections: []Collection{{Path: ".MetricAlarms", Count: -3}}},
	{ContentType: "a\"b\\c\n\x01<>&é\xff\u2028", Collections: []Collection{{Path: "caf\u00e9", Count: 1 << 40, CountField: "\t"}}},
	{ContentType: "text/plain", Actions: []Action{{Kind: "drop_field", Target: ".[].body", Count: 100, Detail: "not shown"}}},
}

// TestOutputHeaderBytes checks the direct encoding of the output header
// against the Writer-based one, and frameOutput against AppendOutput.
func TestOutputHeaderBytes(t *testing.T) {
	for _, h := range outputCases {
		checkOutputSame(t, h, []byte("payload\n"))
	}
}

func checkOutputSame(t *testing.T, h OutputHeader, payload []byte) {
	t.Helper()
	got := appendOutputHeader([]byte("x"), &h)
	want := appendOutputHeaderWriter([]byte("x"), &h)
	if !bytes.Equal(got, want) {
		t.Fatalf("%+v:\n got %s\nwant %s", h, got, want)
	}
	full := AppendOutput(nil, h, payload)
	if !bytes.Equal(full, append(append(want[1:], '\n'), payload...)) {
		t.Fatalf("AppendOutput %q", full)
	}
	head, rest := frameOutput(&h, payload)
	if !bytes.Equal(append(append([]byte{}, head...), rest...), full) {
		t.Fatalf("frameOutput %q + %q, want %q", head, rest, full)
	}
	if len(rest) > 0 && (len(head)%8 != 0 || len(rest) < 8) {
		t.Fatalf("frameOutput parts %d + %d bytes", len(head), len(rest))
	}
}

func TestFrameOutputSizes(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 400, 440, 450, 455, 456, 457, 463, 464, 465, 1000} {
		checkOutputSame(t, OutputHeader{ContentType: "text/plain"}, bytes.Repeat([]byte("ab"), n)[:n])
	}
	long := OutputHeader{ContentType: strings.Repeat("x", 600)}
	for _, n := range []int{0, 3, 100} {
		checkOutputSame(t, long, bytes.Repeat([]byte("c"), n))
	}
}

// FuzzOutputHeader compares the direct output header encoding with the
// Writer's.
func FuzzOutputHeader(f *testing.F) {
	f.Add("text/plain", ".", 3, "", 10)
	f.Add("a\"\\\x00é\xff", ".items", -1, "n", 0)
	f.Fuzz(func(t *testing.T, ct, path string, count int, field string, n int) {
		if n < 0 || n > 2000 {
			return
		}
		checkOutputSame(t, OutputHeader{ContentType: ct, Collections: []Collection{{Path: path, Count: count, CountField: field}}}, bytes.Repeat([]byte("p"), n))
	})
}

// FuzzHeaderEncoded feeds headers as a host writes them (encoding/json of
// schemas.InputHeader, so the canonical path is taken whenever the strings
// are plain) with arbitrary strings and numbers, and compares with the
// generic parser.
func FuzzHeaderEncoded(f *testing.F) {
	f.Add(1, "echo", 100, "text/plain", "fault", "echo", `{"a":[1]}`)
	f.Add(1, "t\"x", 0, "application/json", "", "é", "")
	f.Add(12345678, "", -5, "a\nb", "k", "<v>", "null")
	f.Fuzz(func(t *testing.T, abi int, tool string, budget int, ct, key, val, args string) {
		h := schemas.InputHeader{ABI: abi, Tool: tool, BudgetTokens: budget, ContentType: ct, Config: map[string]string{}}
		if key != "" {
			h.Config[key] = val
		}
		if json.Valid([]byte(args)) {
			h.Args = json.RawMessage(args)
		}
		line, err := json.Marshal(h)
		if err != nil {
			return
		}
		checkHeaderSame(t, line, []byte("body"))
	})
}
