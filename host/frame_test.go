package host

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/schemas"
)

func TestEncodeInput(t *testing.T) {
	got, err := EncodeInput(schemas.InputHeader{ABI: 1, Tool: "t", BudgetTokens: 10, ContentType: "text/plain"}, []byte("a\nb"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"abi":1,"tool":"t","budget_tokens":10,"content_type":"text/plain","config":{}}` + "\na\nb"
	if string(got) != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestDecodeOutput(t *testing.T) {
	cases := []struct {
		in, err string
	}{
		{`{"abi":1,"content_type":"text/plain","collections":[]}` + "\nhi", ""},
		{`{"abi":1,"content_type":"text/plain","collections":[{"path":".items","count":2,"count_field":"n"}],"future":true}` + "\n", ""},
		{`{"abi":1,"content_type":"text/plain","collections":[]}`, "no newline after the header line"},
		{`{"abi":2,"content_type":"text/plain","collections":[]}` + "\n", `"abi":2`},
		{`{"content_type":"text/plain","collections":[]}` + "\n", `no "abi"`},
		{`{"abi":1,"collections":[]}` + "\n", `no "content_type"`},
		{`{"abi":1,"content_type":" ","collections":[]}` + "\n", `no "content_type"`},
		{`{"abi":1,"content_type":"x"}` + "\n", `no "collections"`},
		{`{"abi":1,"content_type":"x","collections":[{"path":"items","count":1}]}` + "\n", "not a jq path"},
		{`{"abi":1,"content_type":"x","collections":[{"path":".","count":-1}]}` + "\n", "negative"},
		{`{"abi":1,"content_type":"x","collections":[]} {}` + "\n", "more than one JSON value"},
		{`[1]` + "\n", "not a JSON object"},
		{`null` + "\n", "not a JSON object"},
		{"\n", "not a JSON object"},
		{`{"abi":1,"content_type":"x","collections":[],"actions":[{"kind":"drop_field","target":".[].body","count":3}]}` + "\n", ""},
		{`{"abi":1,"content_type":"x","collections":[],"actions":[{"target":"x"}]}` + "\n", "actions[0] has no kind"},
		{`{"abi":1,"content_type":"x","collections":[],"actions":[{"kind":"k","count":-2}]}` + "\n", "actions[0].count is negative"},
		{`{"abi":1,"content_type":"x","collections":[],"actions":{}}` + "\n", "not a JSON object"},
	}
	for _, c := range cases {
		h, payload, err := DecodeOutput([]byte(c.in))
		if c.err == "" {
			if err != nil {
				t.Errorf("%q: %v", c.in, err)
			} else if h.ABI != 1 || !bytes.Equal(payload, []byte(c.in[strings.IndexByte(c.in, '\n')+1:])) {
				t.Errorf("%q: header %+v payload %q", c.in, h, payload)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: err = %v, want %q", c.in, err, c.err)
		}
	}
}

// FuzzDecodeOutput: DecodeOutput never panics, and whatever it accepts
// re-encodes to a header it accepts again with the same payload.
func FuzzDecodeOutput(f *testing.F) {
	f.Add([]byte(`{"abi":1,"content_type":"text/plain","collections":[]}` + "\nhi"))
	f.Add([]byte(`{"abi":1,"content_type":"application/json","collections":[{"path":".","count":3,"count_field":"n"}]}` + "\n[]"))
	f.Add([]byte(`{"abi":1}` + "\n"))
	f.Add([]byte("no header"))
	f.Fuzz(func(t *testing.T, out []byte) {
		if len(out) > 4096 {
			return
		}
		h, payload, err := DecodeOutput(out)
		if err != nil {
			return
		}
		if h.ABI != schemas.ABIVersion || strings.TrimSpace(h.ContentType) == "" || h.Collections == nil {
			t.Fatalf("accepted an invalid header %+v", h)
		}
		if !bytes.HasSuffix(out, payload) {
			t.Fatalf("payload %q is not the tail of the output", payload)
		}
	})
}

func TestDecodeOutputActions(t *testing.T) {
	long := strings.Repeat("é", 400)
	h, _, err := DecodeOutput([]byte(`{"abi":1,"content_type":"x","collections":[],"actions":[{"level":"artifact","kind":"drop_field","target":".[].body","detail":"` + long + `","count":3,"tokens_before":9}]}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := h.Actions[0]
	if a.Level != schemas.LevelFields || a.Kind != "drop_field" || a.Target != ".[].body" || a.Count != 3 || a.TokensBefore != 0 {
		t.Errorf("action = %+v", a)
	}
	if len(a.Detail) > 512+len("…") || !strings.HasSuffix(a.Detail, "…") || !utf8.ValidString(a.Detail) {
		t.Errorf("detail not clipped on a rune boundary: %d bytes", len(a.Detail))
	}
}
