package mcpproxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzUnescape: for any escaped string body that encoding/json accepts,
// unescape writes exactly the text encoding/json decodes.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{
		`plain`, `a\"b`, `\\`, `\/`, `\b\f\n\r\t`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\ud83dx`,
		`\ude00\ud83d`, `\ud83d\u0041`, `\ud83d\ud83d\ude00`, "日本", "\xff", `\u2028`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1024 {
			return
		}
		var want string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &want) != nil {
			return
		}
		var got bytes.Buffer
		if err := unescape(&got, bufio.NewReader(bytes.NewReader(raw))); err != nil {
			t.Fatalf("unescape(%q): %v, encoding/json decodes %q", raw, err, want)
		}
		if got.String() != want {
			t.Fatalf("unescape(%q) = %q, encoding/json decodes %q", raw, got.String(), want)
		}
	})
}

// TestScanFrame finds the id and the long strings of a response, and
// only those under result.content[].text and result.structuredContent.
func TestScanFrame(t *testing.T) {
	long := strings.Repeat("x", spillString)
	frame, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": 7,
		"result": map[string]any{
			"content":           []any{map[string]any{"type": "text", "text": long}, map[string]any{"type": "text", "text": "short"}},
			"structuredContent": map[string]any{"a": []any{long}},
			"_meta":             map[string]any{"note": long},
		},
	})
	info, err := newScanner(bytes.NewReader(frame)).scanFrame()
	if err != nil {
		t.Fatal(err)
	}
	if info.id != "n:7" || len(info.spans) != 2 {
		t.Fatalf("id %q, %d spans", info.id, len(info.spans))
	}
	for _, sp := range info.spans {
		if string(frame[sp.start:sp.end]) != long {
			t.Errorf("span %v is not the long string", sp)
		}
	}
	for _, bad := range []string{`{"id":1,"result":{"content":[{"text":"abc`, `{"id":1 "x":2}`, `[1]`, `{"id":{}}`} {
		if _, err := newScanner(strings.NewReader(bad)).scanFrame(); err == nil {
			t.Errorf("scanFrame(%q): no error", bad)
		}
	}
}
