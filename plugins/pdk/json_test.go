package pdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func tokens(t *testing.T, in string) []string {
	t.Helper()
	r := NewReader([]byte(in))
	var out []string
	for {
		tok := r.Next()
		if tok.Kind == Invalid {
			t.Fatalf("%q: %v", in, r.Err())
		}
		if tok.Kind == EOF {
			return out
		}
		out = append(out, tok.Kind.String()+" "+string(tok.Raw))
	}
}

func TestReaderTokens(t *testing.T) {
	got := tokens(t, ` {"a": [1, -2.5e3, "x\"y", true, false, null], "b": {}, "c": []} `)
	want := []string{
		"'{' {", `key "a"`, "'[' [", "number 1", "number -2.5e3", `string "x\"y"`,
		"true true", "false false", "null null", "']' ]", `key "b"`, "'{' {", "'}' }",
		`key "c"`, "'[' [", "']' ]", "'}' }",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens:\n got %q\nwant %q", got, want)
	}
}

func TestReaderErrors(t *testing.T) {
	cases := []struct {
		in     string
		offset int
		msg    string
	}{
		{``, 0, "unexpected end of input"},
		{`{"a" 1}`, 5, "after object key, want ':'"},
		{`{"a":1,}`, 7, "want object key string"},
		{`[1,]`, 3, "looking for beginning of value"},
		{`[1 2]`, 3, "after array element"},
		{`{"a":1]`, 6, "after object member"},
		{`01`, 1, "after top-level value"},
		{`"a\qb"`, 2, `invalid escape \q`},
		{"\"a\tb\"", 2, "control character"},
		{`"\u12G4"`, 5, `in \u escape`},
		{`-`, 1, "end of input in number"},
		{`1.`, 2, "after decimal point"},
		{`1e+`, 3, "in exponent"},
		{`tru`, 0, "want true"},
		{`"abc`, 4, "end of input in string"},
		{`{} {}`, 3, "after top-level value"},
	}
	for _, c := range cases {
		r := NewReader([]byte(c.in))
		for {
			k := r.Next().Kind
			if k == EOF || k == Invalid {
				break
			}
		}
		var se *SyntaxError
		if !errors.As(r.Err(), &se) {
			t.Errorf("%q: error %v, want a SyntaxError", c.in, r.Err())
			continue
		}
		if se.Offset != c.offset || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%q: got %q at %d, want %q at %d", c.in, se.Msg, se.Offset, c.msg, c.offset)
		}
	}
}

func TestNextMemberErrors(t *testing.T) {
	for in, msg := range map[string]string{
		`{"a":1 "b":2}`: "after object member",
		`{"a" 1}`:       "want ':'",
		`{"a":}`:        "looking for beginning of value",
		`{"a":[1,}`:     "looking for beginning of value",
		`{"a":"x`:       "end of input in string",
		`{"a":1,`:       "end of input",
		`{1:2}`:         "want object key string",
	} {
		r := NewReader([]byte(in))
		r.BeginObject()
		for {
			if _, _, ok := r.NextMember(); !ok {
				break
			}
		}
		if r.Err() == nil || !strings.Contains(r.Err().Error(), msg) {
			t.Errorf("%s: err %v, want %q", in, r.Err(), msg)
		}
	}
}

func TestReaderDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	if err := NewReader([]byte(deep)).Skip(); err == nil || !strings.Contains(err.Error(), "nesting deeper") {
		t.Errorf("depth %d: err %v", MaxDepth+1, err)
	}
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if err := NewReader([]byte(ok)).Skip(); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
}

func TestReaderNavigation(t *testing.T) {
	r := NewReader([]byte(`{"skip":{"x":[1,{"y":2}]},"n":42,"s":"h\u00e9llo","raw":[1, 2]}`))
	if err := r.BeginObject(); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for r.More() {
		k, err := r.Key()
		if err != nil {
			t.Fatal(err)
		}
		switch string(k) {
		case "skip":
			if err := r.Skip(); err != nil {
				t.Fatal(err)
			}
		case "n":
			n, err := r.Int()
			if err != nil || n != 42 {
				t.Fatalf("Int = %d, %v", n, err)
			}
		case "s":
			s, err := r.String()
			if err != nil {
				t.Fatal(err)
			}
			got["s"] = string(s)
		case "raw":
			raw, err := r.RawValue()
			if err != nil {
				t.Fatal(err)
			}
			got["raw"] = string(raw)
		}
	}
	if r.Err() != nil || r.Next().Kind != EOF {
		t.Fatalf("end: %v", r.Err())
	}
	if got["s"] != "héllo" || got["raw"] != "[1, 2]" {
		t.Errorf("got %q", got)
	}
	// A kind mismatch is an error naming both kinds and the offset.
	r = NewReader([]byte(`{"a":"x"}`))
	r.BeginObject()
	r.Key()
	if _, err := r.Int(); err == nil || !strings.Contains(err.Error(), "want number, found string at offset 5") {
		t.Errorf("Int on a string: %v", err)
	}
}

func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	for _, lit := range []string{
		`"plain"`, `"tab\tnl\n\"q\" \\ \/ \b\f\r"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00"`,
		`"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, "\"bad \xff utf8\"", `"\u0000"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("%s: %v", lit, err)
		}
		if got := string(AppendUnquote(nil, []byte(lit))); got != want {
			t.Errorf("AppendUnquote(%s) = %q, want %q", lit, got, want)
		}
	}
}

func TestWriter(t *testing.T) {
	w := NewWriter(nil)
	w.BeginObject()
	w.Key("a")
	w.BeginArray()
	w.Int(1)
	w.String("x\"\n\x01\u2028")
	w.Bool(true)
	w.Null()
	w.Raw([]byte(`{"r":1}`))
	w.EndArray()
	w.Key("b")
	w.BeginObject()
	w.EndObject()
	w.KeyBytes([]byte("c"))
	w.StringBytes([]byte("\xffz"))
	w.EndObject()
	want := `{"a":[1,"x\"\n\u0001\u2028",true,null,{"r":1}],"b":{},"c":"\ufffdz"}`
	if got := string(w.Bytes()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestQuoteAllocations(t *testing.T) {
	buf := make([]byte, 0, 256)
	s := "a fairly ordinary string with \"quotes\" and a\nnewline"
	if n := testing.AllocsPerRun(100, func() { buf = AppendQuote(buf[:0], s) }); n != 0 {
		t.Errorf("AppendQuote allocates %v times", n)
	}
	data := []byte(`{"a":[1,2,{"b":"c"}],"d":"e"}`)
	r := NewReader(data)
	if n := testing.AllocsPerRun(100, func() {
		r.Reset(data)
		for k := r.Next().Kind; k != EOF && k != Invalid; k = r.Next().Kind {
		}
	}); n != 0 {
		t.Errorf("tokenizing allocates %v times", n)
	}
}

// copyTokens replays every token of in through a Writer.
func copyTokens(in []byte) ([]byte, error) {
	r := NewReader(in)
	w := NewWriter(nil)
	for {
		t := r.Next()
		switch t.Kind {
		case Invalid:
			return nil, r.Err()
		case EOF:
			return w.Bytes(), nil
		}
		w.Token(t)
	}
}

// decodeNumbers decodes with encoding/json, keeping numbers as their text
// (1e700 is valid JSON but no float64).
func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	return v
}

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `0`, `-0.5e-7`, `"\u00e9"`, `{"a":[1,{"b":null}],"c":"d"}`,
		` [ true , false ] `, `{"a":1,}`, `[1,]`, `01`, `"\ud800"`, "\"\xff\"", `[`, `{"a"}`,
		`{"a":1}{"b":2}`, `1e`, `[[[[]]]]`, `{"":""}`, "\"a\x00\"",
		// Long enough for the word-at-a-time fast paths (numbers, short
		// strings, members) and their edges.
		`[-x,          1]`, `[-,           1]`, `[0123,        1]`, `[1.5e3,       1]`, `[12345678,    1]`,
		`[-0,          1]`, `[1234567,     1]`, `{"k":-7,      "l":1E2,   "m":[0,-0.0]}`, `[7e,          1]`,
		`{"abcdefghijklmno":"p",          "q":nul}`, `{"a":tru,   "b":1}`, `{"a" : fals, "b": false}`,
		`["abc\"def",   "x\u00e9yz",  "0123456789abcdef"]`, "[\"tab\there\",      1]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := copyTokens(in)
		valid := json.Valid(in)
		if (err == nil) != valid {
			t.Fatalf("reader err %v, json.Valid %v, input %q", err, valid, in)
		}
		// Skipping the whole value (one fused loop) accepts the same
		// language as reading it token by token, with the same error.
		sr := NewReader(in)
		if _, serr := sr.RawValue(); serr == nil {
			if tok := sr.Next(); tok.Kind != EOF {
				serr = sr.Err()
			}
			if (serr == nil) != valid {
				t.Fatalf("RawValue then EOF: err %v, json.Valid %v, input %q", serr, valid, in)
			}
		} else if err == nil || serr.Error() != err.Error() {
			t.Fatalf("RawValue err %v, token by token %v, input %q", serr, err, in)
		}
		// NextElement and NextMember meet an error where, and as, the
		// token-level walk does.
		trimmed := bytes.TrimLeft(in, " \t\r\n")
		if bytes.HasPrefix(trimmed, []byte("[")) || bytes.HasPrefix(trimmed, []byte("{")) {
			a, b := NewReader(in), NewReader(in)
			if trimmed[0] == '[' {
				a.BeginArray()
				b.BeginArray()
				for _, ok := a.NextElement(); ok; _, ok = a.NextElement() {
				}
			} else {
				a.BeginObject()
				b.BeginObject()
				for _, _, ok := a.NextMember(); ok; _, _, ok = a.NextMember() {
				}
			}
			for b.More() {
				if trimmed[0] == '{' && b.Next().Kind != Key {
					break
				}
				if _, err := b.RawValue(); err != nil {
					break
				}
			}
			// NextElement says exactly what the token walk says; NextMember
			// (older) may word an early end differently, at the same offset.
			ae, be := errString(a.Err()), errString(b.Err())
			if trimmed[0] == '{' {
				ae, be = errOffset(a.Err()), errOffset(b.Err())
			}
			if ae != be {
				t.Fatalf("fast walk error %q, token walk %q: %q", ae, be, in)
			}
		}
		if !valid {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("copy of %q is invalid: %q", in, out)
		}
		a, b := decodeNumbers(t, in), decodeNumbers(t, out)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("round trip of %q gave %q", in, out)
		}
		raw, err := NewReader(in).RawValue()
		if err != nil || !bytes.Equal(raw, bytes.TrimSpace(in)) {
			t.Fatalf("RawValue(%q) = %q, %v", in, raw, err)
		}
		// NextMember walks a top-level object like More, Next and
		// RawValue do.
		if bytes.HasPrefix(bytes.TrimLeft(in, " \t\r\n"), []byte("{")) {
			a, b := NewReader(in), NewReader(in)
			a.BeginObject()
			b.BeginObject()
			for {
				k, v, ok := a.NextMember()
				more := b.More()
				if ok != more {
					t.Fatalf("NextMember ok %v, More %v: %q", ok, more, in)
				}
				if !ok {
					break
				}
				bk := b.Next()
				bv, err := b.RawValue()
				if err != nil || !bytes.Equal(k.Raw, bk.Raw) || k.Offset != bk.Offset || !bytes.Equal(v, bv) {
					t.Fatalf("NextMember %q=%q, token by token %q=%q (%v): %q", k.Raw, v, bk.Raw, bv, err, in)
				}
			}
			if a.Err() != nil || a.Next().Kind != EOF || b.Next().Kind != EOF {
				t.Fatalf("NextMember end: %v", a.Err())
			}
		}
		// NextElement walks a top-level array like More and RawValue do.
		if bytes.HasPrefix(bytes.TrimLeft(in, " \t\r\n"), []byte("[")) {
			a, b := NewReader(in), NewReader(in)
			a.BeginArray()
			b.BeginArray()
			for {
				v, ok := a.NextElement()
				more := b.More()
				if ok != more {
					t.Fatalf("NextElement ok %v, More %v: %q", ok, more, in)
				}
				if !ok {
					break
				}
				bv, err := b.RawValue()
				if err != nil || !bytes.Equal(v, bv) {
					t.Fatalf("NextElement %q, More/RawValue %q (%v): %q", v, bv, err, in)
				}
			}
			if a.Err() != nil || a.Next().Kind != EOF || b.Next().Kind != EOF {
				t.Fatalf("NextElement end: %v", a.Err())
			}
		}
		// Every string decodes as encoding/json decodes it.
		r := NewReader(in)
		for tok := r.Next(); tok.Kind != EOF; tok = r.Next() {
			if tok.Kind != String && tok.Kind != Key {
				continue
			}
			var want string
			if err := json.Unmarshal(tok.Raw, &want); err != nil {
				t.Fatal(err)
			}
			if got := tok.Text(); got != want {
				t.Fatalf("Text(%q) = %q, want %q", tok.Raw, got, want)
			}
		}
	})
}

func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"b\\", "\x00\x1f\u2028\u2029", "\xff\xfe", "é中😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := AppendQuote(nil, s)
		var got, want string
		if err := json.Unmarshal(q, &got); err != nil {
			t.Fatalf("AppendQuote(%q) = %s: %v", s, q, err)
		}
		m, _ := json.Marshal(s)
		json.Unmarshal(m, &want)
		if got != want {
			t.Fatalf("AppendQuote(%q) decodes to %q, encoding/json gives %q", s, got, want)
		}
	})
}

func errOffset(err error) string {
	var se *SyntaxError
	if errors.As(err, &se) {
		return strconv.Itoa(se.Offset)
	}
	return errString(err)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
