package query

import (
	"reflect"
	"testing"
)

// FuzzDecodeValue checks that the fast record decoder agrees with
// decodeAll and normalize: the same value, or both an error.
func FuzzDecodeValue(f *testing.F) {
	for _, s := range []string{
		`{"id":12,"n":"x","f":1.5,"e":1e3,"big":12345678901234567890,"neg":-0,"a":[true,false,null,{}],"o":{"k":[]}}`,
		`"caf\u00e9 \"q\""`, `"é ü 日本"`, "\"bad \xff\"", `[1,2,]`, `{"a":1,"a":2}`, `01`, `-`, `1.`, `1e`, `1E+2`, `-1.25e-3`,
		`1e400`, ` [ 1 , { "x" : "y" } ] `, `1 2`, `{"a":1}{"b":2}`, "\"tab\there\"", `[[[[[[]]]]]]`, `nul`, `{"a" 1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, gerr := decodeValue(raw)
		vs, werr := decodeAll(raw)
		if werr == nil && len(vs) != 1 {
			if gerr == nil {
				t.Fatalf("%q: decodeValue = %#v, but it holds %d values", raw, got, len(vs))
			}
			return
		}
		if (gerr != nil) != (werr != nil) {
			t.Fatalf("%q: decodeValue error %v, decodeAll error %v", raw, gerr, werr)
		}
		if gerr == nil && !reflect.DeepEqual(got, vs[0]) {
			t.Fatalf("%q: decodeValue = %#v, decodeAll = %#v", raw, got, vs[0])
		}
	})
}
