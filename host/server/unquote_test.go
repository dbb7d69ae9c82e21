package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzUnquote checks unquote against encoding/json.Unmarshal into a
// string (what the handler used before): the same text for every input
// Unmarshal accepts, an error for every input it refuses.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`""`, `"a"`, `"line\nnext \"q\" \\ \/ \u00e9 \ud83d\ude00"`, `"\ud800"`, `"\udc00x"`, "\"\xff\xfe\"", `"\x"`, `"a`,
		`"tab	raw"`, `"\u0000"`, `"日本"`, `"\uD83D"`, "\"\xed\xa0\x80\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 2048 || len(raw) == 0 || raw[0] != '"' || !json.Valid(raw) {
			// The handler unquotes only a JSON value that starts with a
			// quote and that the request decoder accepted.
			return
		}
		var want string
		werr := json.Unmarshal(raw, &want)
		got, err := unquote(raw)
		if (err != nil) != (werr != nil) {
			t.Fatalf("unquote(%q) error %v; Unmarshal error %v", raw, err, werr)
		}
		if err == nil && !bytes.Equal(got, []byte(want)) {
			t.Fatalf("unquote(%q) = %q; Unmarshal gives %q", raw, got, want)
		}
	})
}

// BenchmarkUnquote measures decoding the "content" string of a 100 KB
// request: encoding/json.Unmarshal (the baseline, what the handler did
// before) against unquote, in the same run.
//
//	go test ./host/server -run '^$' -bench Unquote
func BenchmarkUnquote(b *testing.B) {
	var items []map[string]any
	for i := range 330 {
		items = append(items, map[string]any{"number": i + 1, "title": "issue: crash when the cache is cold",
			"body": strings.Repeat("steps to reproduce and what was expected. ", 5)})
	}
	text, _ := json.Marshal(items)
	raw, _ := json.Marshal(string(text))
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unquote", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := unquote(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
