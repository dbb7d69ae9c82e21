package host

import (
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
)

// FuzzVerifyContent: the content checks never panic on any input and
// payload, and an honest payload (the input itself, with the content type
// the host detected) always passes them.
func FuzzVerifyContent(f *testing.F) {
	f.Add([]byte(`[{"a":1,"b":"x"},{"a":2}]`), []byte(`[{"a":1},{"a":2}]`), "application/json")
	f.Add([]byte("a\nb\nb\nERROR c\n"), []byte("a\n[×2] b\nERROR c\n"), "text/plain")
	f.Add([]byte(`{"items":[{"id":1,"u":{"l":"x"}}]}`), []byte("id\tu.l\n1\tx"), "text/x-compact-table")
	f.Add([]byte(`[{"s":"\ud800 long string"}]`), []byte(`[{"s":"\ufffd lo…[+9 chars]"}]`), "application/json")
	f.Add([]byte("{\"a\":1}\n{\"a\":2}\n"), []byte("{}\n{}\n"), "application/x-ndjson")
	f.Fuzz(func(t *testing.T, input, payload []byte, ct string) {
		if len(input) > 4096 || len(payload) > 4096 {
			return
		}
		_ = VerifyOutput(input, nil, budget.Output{Content: payload, ContentType: ct})
		s, err := budget.DetectShape(input, nil)
		if err != nil || s.Format == budget.FormatBinary || s.Format == budget.FormatEmpty || !utf8.Valid(input) {
			return
		}
		if err := VerifyOutput(input, nil, budget.Output{Content: input, ContentType: s.ContentType}); err != nil {
			t.Fatalf("the input itself as %s fails: %v", s.ContentType, err)
		}
	})
}
