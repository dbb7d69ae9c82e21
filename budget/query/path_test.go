package query

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// navigate is the reference semantics of a path on a decoded value.
func navigate(v any, steps []any) (any, bool) {
	for _, s := range steps {
		switch k := s.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			a, ok := v.([]any)
			if !ok {
				return nil, false
			}
			if k < 0 {
				k += len(a)
			}
			if k < 0 || k >= len(a) {
				return nil, false
			}
			v = a[k]
		}
	}
	return v, true
}

func decodeOne(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// FuzzSubValue checks that the exact bytes cut out for a path decode to
// the value a full decode reaches by the same path, and that a path that
// does not exist is an error, never a wrong value.
func FuzzSubValue(f *testing.F) {
	f.Add(`{"a":[1,{"b":"x"}],"c":null}`, `.a[1].b`)
	f.Add(`{"a":1,"a":2}`, `.a`)
	f.Add(`[[],[[3]],{"k y":{"":0}}]`, `[-1]["k y"][""]`)
	f.Add(`{"a\u0062":true}`, `.ab`)
	f.Add(`[1,2]`, `[5]`)
	f.Add(`"str"`, `.x`)
	f.Fuzz(func(t *testing.T, doc, path string) {
		if len(doc) > 1024 || len(path) > 64 || !utf8.ValidString(doc) || !json.Valid([]byte(doc)) {
			return
		}
		steps, err := artifact.ParsePath(path)
		if err != nil {
			return
		}
		raw, err := subValue([]byte(doc), budget.FormatJSON, steps)
		whole, derr := decodeOne([]byte(doc))
		if derr != nil {
			return
		}
		want, ok := navigate(whole, steps)
		if !ok {
			if err == nil {
				t.Fatalf("%s on %s: got %q, want an error", path, doc, raw)
			}
			return
		}
		if err != nil {
			t.Fatalf("%s on %s: %v, want %v", path, doc, err, want)
		}
		got, gerr := decodeOne(raw)
		if gerr != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s on %s: bytes %q decode to %v (%v), want %v", path, doc, raw, got, gerr, want)
		}
		if !bytes.Contains([]byte(doc), raw) {
			t.Fatalf("%s on %s: %q is not the original text", path, doc, raw)
		}
	})
}
