package pdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

func TestABIVersionMatchesSchemas(t *testing.T) {
	if ABIVersion != schemas.ABIVersion {
		t.Errorf("pdk.ABIVersion = %d, schemas.ABIVersion = %d", ABIVersion, schemas.ABIVersion)
	}
}

func TestParseInputMatchesSchemas(t *testing.T) {
	in := schemas.InputHeader{
		ABI: 1, Tool: "gh_list_issues", BudgetTokens: 2000, ContentType: "application/json",
		Config: map[string]string{"keep": "number,title", "é\"x": "\n"},
		Args:   map[string]any{"repo": "a/b", "n": 3.0},
	}
	line, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("[1,2]\nsecond line")
	h, body, err := ParseInput(append(append(line, '\n'), payload...))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body, payload) {
		t.Errorf("payload %q", body)
	}
	var args any
	if err := json.Unmarshal(h.Args, &args); err != nil || !reflect.DeepEqual(args, in.Args) {
		t.Errorf("args %s: %v", h.Args, err)
	}
	if h.ABI != in.ABI || h.Tool != in.Tool || h.BudgetTokens != in.BudgetTokens ||
		h.ContentType != in.ContentType || !reflect.DeepEqual(h.Config, in.Config) {
		t.Errorf("header %+v, want %+v", h, in)
	}
}

func TestParseInputErrors(t *testing.T) {
	cases := map[string]string{
		`{"abi":1}`:                        "no newline",
		"{\"abi\":\"1\"}\n":                "abi: json: want number, found string",
		"{\"config\":{\"k\":1}}\n":         `config["k"]: json: want string, found number`,
		"{\"abi\":1} x\n":                  "after top-level value",
		"[1]\n":                            "want '{', found '['",
		"{\"abi\":1,\"extra\":[1,}\n":      "extra:",
		"{\"budget_tokens\":1.5}\n":        "budget_tokens: json: number 1.5 is not an int64",
		"{\"tool\":\"x\",\"tool\":null}\n": "tool: json: want string, found null",
	}
	for in, want := range cases {
		_, _, err := ParseInput([]byte(in))
		if !errors.Is(err, ErrFraming) || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseInput(%q) = %v, want ErrFraming with %q", in, err, want)
		}
	}
	// Unknown members are skipped, null config and args are accepted.
	h, _, err := ParseInput([]byte("{\"future\":{\"x\":[1]},\"config\":null,\"args\":null}\n"))
	if err != nil || h.Config == nil || h.Args != nil {
		t.Errorf("lenient header: %+v, %v", h, err)
	}
}

func TestAppendOutputMatchesSchemas(t *testing.T) {
	out := AppendOutput(nil, OutputHeader{
		ContentType: "text/plain",
		Collections: []Collection{{Path: ".", Count: 7, CountField: "_n"}, {Path: ".items", Count: 0}},
	}, []byte("payload\n"))
	nl := bytes.IndexByte(out, '\n')
	var h schemas.OutputHeader
	dec := json.NewDecoder(bytes.NewReader(out[:nl]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		t.Fatal(err)
	}
	want := schemas.OutputHeader{ABI: 1, ContentType: "text/plain", Collections: []schemas.DeclaredCollection{
		{Path: ".", Count: 7, CountField: "_n"}, {Path: ".items", Count: 0},
	}}
	if !reflect.DeepEqual(h, want) || string(out[nl+1:]) != "payload\n" {
		t.Errorf("got %+v %q", h, out[nl+1:])
	}
	// Actions decode as the result envelope's actions.
	out = AppendOutput(nil, OutputHeader{ContentType: "text/plain", Actions: []Action{{Kind: "drop_field", Target: ".[].body", Count: 3, Detail: "long text"}}}, nil)
	var withActions struct {
		Actions []schemas.Action `json:"actions"`
	}
	if err := json.Unmarshal(out[:len(out)-1], &withActions); err != nil {
		t.Fatal(err)
	}
	if want := []schemas.Action{{Level: schemas.LevelFields, Kind: "drop_field", Target: ".[].body", Count: 3, Detail: "long text"}}; !reflect.DeepEqual(withActions.Actions, want) {
		t.Errorf("actions %+v", withActions.Actions)
	}
	// No collections is an empty list, never null.
	if got := string(AppendOutput(nil, OutputHeader{ContentType: "x"}, nil)); got != "{\"abi\":1,\"content_type\":\"x\",\"collections\":[]}\n" {
		t.Errorf("empty: %q", got)
	}
}

func TestProcess(t *testing.T) {
	in := []byte("{\"abi\":1,\"tool\":\"t\",\"config\":{\"upper\":\"yes\"}}\nabc")
	out, err := Process(in, func(h Header, p []byte) (OutputHeader, []byte, error) {
		if h.Config["upper"] == "yes" {
			p = bytes.ToUpper(p)
		}
		return OutputHeader{ContentType: "text/plain"}, p, nil
	})
	if err != nil || !bytes.HasSuffix(out, []byte("\nABC")) {
		t.Errorf("Process = %q, %v", out, err)
	}
	_, err = Process(in, func(Header, []byte) (OutputHeader, []byte, error) {
		var m map[string]int
		m["boom"]++
		return OutputHeader{}, nil, nil
	})
	if err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("panic not turned into an error: %v", err)
	}
	if _, err := Process([]byte("no header"), nil); !errors.Is(err, ErrFraming) {
		t.Errorf("framing: %v", err)
	}
}

func TestGroupMarker(t *testing.T) {
	for _, c := range []struct {
		line string
		n    int
		rest string
	}{
		{"[×400] GET /health 200", 400, "GET /health 200"},
		{"[×1] x", 1, "x"},
		{"[×0] x", 1, "[×0] x"},
		{"[×07] x", 1, "[×07] x"},
		{"[×12]x", 1, "[×12]x"},
		{"[×12]", 1, "[×12]"},
		{"[x3] x", 1, "[x3] x"},
		{"[×] x", 1, "[×] x"},
		{"[×1234567890] x", 1, "[×1234567890] x"},
		{"plain", 1, "plain"},
	} {
		n, rest := ParseGroupMarker([]byte(c.line))
		if n != c.n || string(rest) != c.rest {
			t.Errorf("ParseGroupMarker(%q) = %d, %q; want %d, %q", c.line, n, rest, c.n, c.rest)
		}
	}
	if GroupMarker(3) != "[×3] " || string(AppendGroupMarker([]byte("a"), 12)) != "a[×12] " {
		t.Error("GroupMarker")
	}
}

func FuzzParseInput(f *testing.F) {
	f.Add([]byte("{\"abi\":1,\"tool\":\"t\",\"budget_tokens\":5,\"content_type\":\"text/plain\",\"config\":{\"a\":\"b\"},\"args\":{\"x\":[1]}}\nbody"))
	f.Add([]byte("{}\n"))
	f.Add([]byte("{\"config\":{\"a\":1}}\n"))
	f.Add([]byte("not json\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		h, body, err := ParseInput(in)
		if err != nil {
			if !errors.Is(err, ErrFraming) {
				t.Fatalf("error %v is not ErrFraming", err)
			}
			return
		}
		nl := bytes.IndexByte(in, '\n')
		if !json.Valid(in[:nl]) || !bytes.Equal(body, in[nl+1:]) {
			t.Fatalf("accepted invalid header or wrong body: %q", in)
		}
		if h.Args != nil && !json.Valid(h.Args) {
			t.Fatalf("args %q invalid", h.Args)
		}
	})
}
