package budget

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	``,
	` `,
	`[]`,
	`{}`,
	`[{"a":1,"b":"x"},{"a":2,"b":"x","c":null}]`,
	`{"total_count":2,"items":[{"id":1,"user":{"login":"a","avatar_url":"https://x"}},{"id":2,"labels":[{"name":"bug"}]}]}`,
	`{"versions":{"1":{"v":1},"2":{"v":2},"3":{"v":3},"4":{},"5":{},"6":{},"7":{},"8":{"x":""}},"time":{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6","g":"7","h":"8"}}`,
	"{\"a\":1}\n{\"a\":2}\n",
	"{\n \"a\": [1,\n2]\n}\n{\n \"a\": []\n}",
	"line 1\nline 1\nline 2\n[×3] marker\n",
	// An empty last line (go doc's output ends "\n\n": level 1 once lost
	// it, 3,005 vs 3,006 lines), blank runs at the end, CRLF.
	"package http\n\nfunc Get()\n\n",
	"a\n\n\n\n\n\n\n\n",
	"a\r\n\r\n",
	// White space DetectShape does not call empty: a line of text.
	"\f",
	"\u00a0\n",
	"\x00\x01binary",
	"caf\xe9\n",
	`"\ud800"`,
	`{"s":"\u00e9\ud83d\ude00 long string with escapes \n\t"}`,
	`[[[[[[[[[[]]]]]]]]]]`,
	`[1, 2.5e3, -0, true, false, null, "x"]`,
	`{"a":{"b":{"c":[{"d":1},{"d":2}]}}}`,
	`[{"a":1,"a":2},{"a":3}]`,
	`{"id":"MDU6SXNzdWUxMjM0NTY3ODk=","node_id":"MDU6SXNzdWUxMjM0NTY3ODk=","html_url":"https://h","x_url":"https://x"}`,
}

// FuzzDetectShape checks that detection never fails on any input when no
// records paths are given, and that EachRecord yields exactly Count
// records for every collection it reports.
func FuzzDetectShape(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		shape, err := DetectShape(data, nil)
		if err != nil {
			t.Fatalf("DetectShape: %v", err)
		}
		if (shape.Format == FormatJSON || shape.Format == FormatJSONL || shape.Format == FormatConcat) && !validJSONStream(data) {
			t.Fatalf("format %s but encoding/json rejects the input", shape.Format)
		}
		for _, c := range shape.Collections {
			n := 0
			err := EachRecord(data, shape, c.Path, func(i int, raw []byte) error {
				if i != n {
					t.Fatalf("index %d, want %d", i, n)
				}
				n++
				if c.Kind != "lines" && !json.Valid(raw) {
					t.Fatalf("record %d of %s is not valid JSON: %q", i, c.Path, raw)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("EachRecord(%s): %v", c.Path, err)
			}
			if n != c.Count {
				t.Fatalf("collection %s: Count %d, EachRecord yields %d", c.Path, c.Count, n)
			}
			// Naming the collection gives the same count.
			if c.Kind == "array" || c.Kind == "map" {
				s2, err := DetectShape(data, []string{c.Path})
				if err != nil || len(s2.Collections) != 1 || s2.Collections[0].Count != c.Count {
					t.Fatalf("records %s: %v %+v, want count %d", c.Path, err, s2.Collections, c.Count)
				}
			}
		}
	})
}

// validJSONStream reports whether data is one or more JSON values.
func validJSONStream(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	n := 0
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err.Error() == "EOF" && n > 0
		}
		n++
	}
}

// FuzzLevel1 checks level 1's invariants: the output is valid for its
// content type (JSON stays JSON, a table parses back to the JSON output),
// and the pipeline's count check accepts it.
func FuzzLevel1(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), uint8(i), uint8(i*7))
	}
	patterns := []string{"a", "*_url", "user.login", "items[].id", "labels[].name", ".a.b", "*", "v", "[]", "items"}
	f.Fuzz(func(t *testing.T, data []byte, rulesBits, strMax uint8) {
		if len(data) > 4096 {
			return
		}
		var r Rules
		r.Defaults = rulesBits&1 != 0
		r.Format = []string{"json", "table", "auto", ""}[rulesBits>>1&3]
		if rulesBits&8 != 0 {
			r.Keep = patterns[int(rulesBits>>4)%len(patterns):]
		} else {
			r.Drop = patterns[int(rulesBits>>4)%len(patterns):]
		}
		r.StringsMax = int(strMax % 40)
		shape, err := DetectShape(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Declarative().Compact(context.Background(), Request{Input: data, Rules: r})
		if err != nil {
			t.Fatalf("Compact: %v", err)
		}
		if err := checkOutput(shape, out); err != nil {
			t.Fatalf("checkOutput: %v\ninput %q\noutput %q", err, data, out.Content)
		}
		switch out.ContentType {
		case TypeJSON:
			if !json.Valid(out.Content) {
				t.Fatalf("output is not valid JSON: %q", out.Content)
			}
		case TypeNDJSON:
			for _, line := range bytes.Split(out.Content, []byte{'\n'}) {
				if !json.Valid(line) {
					t.Fatalf("output line is not valid JSON: %q", line)
				}
			}
		case TypeTable:
			back, err := TableToJSON(out.Content)
			if err != nil {
				t.Fatalf("table does not parse back: %v\n%q", err, out.Content)
			}
			// The table must hold exactly what the JSON output holds.
			r.Format = "json"
			js, err := Declarative().Compact(context.Background(), Request{Input: data, Rules: r})
			if err != nil {
				t.Fatal(err)
			}
			var a, b []any
			if err := json.Unmarshal(back, &a); err != nil {
				t.Fatal(err)
			}
			lines := bytes.Split(js.Content, []byte{'\n'})
			if js.ContentType == TypeJSON {
				if err := json.Unmarshal(js.Content, &b); err != nil {
					t.Fatal(err)
				}
			} else {
				for _, l := range lines {
					var v any
					if err := json.Unmarshal(l, &v); err != nil {
						t.Fatal(err)
					}
					b = append(b, v)
				}
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("table round trip differs\ntable %q\n json %q", out.Content, js.Content)
			}
		}
	})
}

// FuzzRun checks the pipeline end to end: it never fails but with
// ErrCannotFit, the result fits, tokens.after is the exact count of the
// content, and every collection keeps its input count.
func FuzzRun(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), uint16(40))
	}
	// Fits with room for a facts notice (level none, withFacts).
	f.Add([]byte("["+strings.Repeat(`{"s":"open"},`, 79)+`{"s":"closed"}]`), uint16(498))
	c := counter(f)
	p := NewPipeline(c)
	f.Fuzz(func(t *testing.T, data []byte, budget uint16) {
		if len(data) > 2048 {
			return
		}
		b := int(budget%500) + 1
		res, err := p.Run(context.Background(), Input{Tool: "fuzz", Data: data, Budget: b,
			Rules: Rules{Defaults: true, StringsMax: 20, Format: "auto"}})
		if err != nil {
			if !errors.Is(err, ErrCannotFit) {
				t.Fatalf("Run: %v", err)
			}
			return
		}
		if res.Tokens.After != c.Count(res.Content) || res.Tokens.After > b {
			t.Fatalf("tokens %+v, content counts %d", res.Tokens, c.Count(res.Content))
		}
		shape, _ := DetectShape(data, nil)
		if len(shape.Collections) != len(res.Collections) {
			t.Fatalf("collections %+v, want %+v", res.Collections, shape.Collections)
		}
		for i, col := range res.Collections {
			if col.Count != shape.Collections[i].Count || col.Shown != col.Count {
				t.Fatalf("collection %+v, input count %d", col, shape.Collections[i].Count)
			}
		}
		// Level none shows the output unchanged, after a notice line of
		// facts when there was room for one.
		if notice, payload := SplitNotice(res.Content); res.Level == "none" && (payload != string(data) || notice != "" && !strings.HasPrefix(notice, FactsHead)) {
			t.Fatalf("level none changed the content:\n%s", res.Content)
		}
	})
}

// FuzzMinify checks minify's shortcut (raw returned as it is when it has
// no white space outside strings) against compacting with jsontext, on
// valid and invalid JSON alike.
func FuzzMinify(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, s := range []string{`{"a":"x y","b":[1,2]}`, `{"a" : 1}`, `"\" "`, `"\\" `, `[1,2]x`, `{"a":"\u00e9\/"}`, "{\"a\":\"\xff\"}", `{"a":1,"a":2}`, `1e5`, `"a\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		if got, want := minify([]byte(s)), compactJSON([]byte(s)); got != want {
			t.Fatalf("minify(%q) = %q; compacting gives %q", s, got, want)
		}
	})
}
