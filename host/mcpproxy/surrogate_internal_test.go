package mcpproxy

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzSurrogates: for any string, the stand-in decoding of its JSON is
// the string itself (encoding/json agrees), and quoting gives
// encoding/json's bytes back; a lone surrogate escape goes to its
// stand-in and back to the same escape.
func FuzzSurrogates(f *testing.F) {
	for _, s := range []string{"", "plain", "tab\tnl\n\"q\" \\ <&>", "😀 pair", "\x00 nul", "é ü 漢"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || hasStandIn(s) {
			return
		}
		q, _ := json.Marshal(s)
		got, lone, ok := unquoteSurrogates(q)
		if !ok || lone || got != s {
			t.Fatalf("unquote %s = %q %v %v", q, got, lone, ok)
		}
		if b := quoteSurrogates(s); string(b) != string(q) {
			t.Fatalf("quote %q = %s, want %s", s, b, q)
		}
		// With a lone surrogate on each side.
		lit := `"\udfff` + string(q[1:len(q)-1]) + `\ud800"`
		got, lone, ok = unquoteSurrogates([]byte(lit))
		if !ok || !lone {
			t.Fatalf("unquote %s: lone %v ok %v", lit, lone, ok)
		}
		if b := quoteSurrogates(got); string(b) != lit {
			t.Fatalf("round trip %s -> %s", lit, b)
		}
	})
}
