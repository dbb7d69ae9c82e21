package budget

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestScannerStrings puts every special byte at every offset of a string
// (across the eight-byte steps of the fast path) and checks that the
// scanner agrees with encoding/json.
func TestScannerStrings(t *testing.T) {
	specials := []string{`"`, `\`, `\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, `\ud800`, "\x00", "\x1f", "\t", "\x7f", "é", " "}
	for _, sp := range specials {
		for off := 0; off < 20; off++ {
			for tail := 0; tail < 10; tail++ {
				doc := `"` + strings.Repeat("a", off) + sp + strings.Repeat("b", tail) + `"`
				s := scanner{d: []byte(doc)}
				err := s.skip(0)
				ok := err == nil && s.pos == len(doc)
				want := json.Valid([]byte(doc)) // lone surrogate escapes included: valid JSON text (RFC 8259), decoded to U+FFFD
				if ok != want {
					t.Errorf("%q: scanner %v (%v), want %v", doc, ok, err, want)
				}
			}
		}
	}
}
