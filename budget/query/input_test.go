package query

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// TestJQInputByShape: jq reads every artifact by its shape, once: a JSON
// value as itself, JSON Lines and concatenated values as one array (jq
// -s), text as one array of lines; a reference's path indexes the same
// input.
func TestJQInputByShape(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	cases := []struct {
		name, data, ref, filter, want string
	}{
		{"json array", `[{"a":1},{"a":2}]`, "", "length", "2"},
		{"json object", `{"a":[1,2,3]}`, "", ".a | length", "3"},
		{"json lines slurped", "{\"a\":1}\n{\"a\":2}\n{\"a\":5}\n", "", "length", "3"},
		{"json lines map", "{\"a\":1}\n{\"a\":2}\n{\"a\":5}\n", "", "map(.a) | add", "8"},
		{"json lines path", "{\"a\":1}\n{\"a\":2}\n{\"a\":5}\n", "[2]", ".a", "5"},
		{"json lines negative path", "{\"a\":1}\n{\"a\":2}\n{\"a\":5}\n", "[-2].a", ".", "2"},
		{"concatenated", "{\"n\":\"x\"}{\"n\":\"y\"}\n{\n \"n\": \"z\"\n}\n", "", "[.[].n]", `["x","y","z"]`},
		{"text lines", "alpha\nbeta\ngamma\n", "", "length", "3"},
		{"text no final newline", "alpha\nbeta", "", ".[-1]", `"beta"`},
		{"text blank lines kept", "a\n\nb\n\n", "", ".", `["a","","b",""]`},
		{"text crlf", "one\r\ntwo\r\n", "", ".", `["one","two"]`},
		{"text invalid utf8", "ok\nbad \xff\xfe here\n", "", ".[1]", "\"bad \uFFFD here\""},
		{"text path", "alpha\nbeta\ngamma\n", ".[1]", "ascii_upcase", `"BETA"`},
		{"text select", "INFO a\nERROR b\nINFO c\nERROR d\n", "", `[.[] | select(startswith("ERROR"))] | length`, "2"},
		{"empty", "", "", ".", "[]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := e.put(t, []byte(c.data))
			a, err := e.q.JQ(ctx, h+c.ref, c.filter, 200)
			if err != nil {
				t.Fatalf("JQ(%q, %q): %v", c.ref, c.filter, err)
			}
			if a.Total != 1 || a.Content != c.want {
				t.Fatalf("JQ(%q, %q) = %q (%d outputs); want %q", c.ref, c.filter, a.Content, a.Total, c.want)
			}
			// A second run is served from the cached input and agrees.
			b, err := e.q.JQ(ctx, h+c.ref, c.filter, 200)
			if err != nil || b.Content != a.Content {
				t.Fatalf("second run = %q, %v", b.Content, err)
			}
		})
	}
	// Positions agree: line i of jq is record i of slice and HANDLE[i].
	data := "x0\r\nx1\n\nx3\n"
	h := e.put(t, []byte(data))
	for i := 0; i < 4; i++ {
		s, err := e.q.Slice(ctx, h, SliceOptions{Offset: i, Limit: 1}, 200)
		if err != nil || len(s.Positions) != 1 || s.Positions[0] != i {
			t.Fatalf("slice %d = %+v, %v", i, s, err)
		}
		j, err := e.q.JQ(ctx, h, ".["+strconv.Itoa(i)+"]", 200)
		if err != nil {
			t.Fatal(err)
		}
		p, err := e.q.JQ(ctx, h+"["+strconv.Itoa(i)+"]", ".", 200)
		if err != nil || p.Content != j.Content {
			t.Fatalf("line %d: jq .[%d] = %s, ref [%d] = %s, %v", i, i, j.Content, i, p.Content, err)
		}
	}
	if _, err := e.q.JQ(ctx, h+"[4]", ".", 200); !errors.Is(err, ErrNoValue) {
		t.Fatalf("past the last line: %v", err)
	}
}

// FuzzLines: the lines jq reads, the lines a reference addresses and the
// records of the text's "lines" collection are the same, in the same
// order, and jq's are valid UTF-8 without "\n" (one "\r" ending a line
// is removed, as bench.Feed does: "\r\r\n" leaves "\r").
func FuzzLines(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\r\nb", "a\n\nb\n\n", "\r\n\r", "x\xff\xfey\n", "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		lines := Lines(data)
		if want := bytes.Count(data, []byte("\n")); len(data) > 0 && data[len(data)-1] != '\n' {
			want++
			if len(lines) != want {
				t.Fatalf("%q: %d lines, want %d", data, len(lines), want)
			}
		} else if len(lines) != want {
			t.Fatalf("%q: %d lines, want %d", data, len(lines), want)
		}
		for i, l := range lines {
			s := l.(string)
			if !utf8.ValidString(s) || strings.ContainsRune(s, '\n') {
				t.Fatalf("%q: line %d = %q", data, i, s)
			}
			raw, err := lineAt(data, []any{i})
			if err != nil || lineString(raw) != s {
				t.Fatalf("%q: lineAt(%d) = %q, %v; Lines has %q", data, i, raw, err, s)
			}
			neg, err := lineAt(data, []any{i - len(lines)})
			if err != nil || !bytes.Equal(neg, raw) {
				t.Fatalf("%q: lineAt(%d) = %q, %v; want %q", data, i-len(lines), neg, err, raw)
			}
		}
		if _, err := lineAt(data, []any{len(lines)}); !errors.Is(err, ErrNoValue) {
			t.Fatalf("%q: past the end: %v", data, err)
		}
		var recs []string
		if err := budget.EachRecord(data, budget.Shape{Collections: []schemas.Collection{{Path: ".", Kind: "lines"}}}, ".", func(i int, raw []byte) error {
			recs = append(recs, lineString(bytes.TrimSuffix(raw, []byte("\r"))))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(recs) != len(lines) {
			t.Fatalf("%q: %d records, %d lines", data, len(recs), len(lines))
		}
		for i := range recs {
			if recs[i] != lines[i] {
				t.Fatalf("%q: record %d = %q, line %q", data, i, recs[i], lines[i])
			}
		}
	})
}
