package query

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// TestJQStreamsLargeArtifacts runs filters that start by iterating a
// collection on artifacts over MaxInput (the streaming path) and checks
// that every answer equals the answer of the same filter run on the whole
// artifact by a Querier whose MaxInput is large (the path jq always took):
// same content, totals and stored answer. Filters that cannot stream are
// refused with the size and the limit before the artifact is opened.
func TestJQStreamsLargeArtifacts(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"kind":"List","meta":{"n":1},"items":[`)
	for i := range 400 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"state":%q,"tags":["t%d","u"],"n":%d.5,"big":12345678901234567890}`, i, []string{"open", "closed", "merged"}[i%3], i%7, i)
	}
	b.WriteString("]}")
	doc := b.String()
	var jl strings.Builder
	for i := range 300 {
		fmt.Fprintf(&jl, "{\"i\":%d,\"s\":\"line %d\"}\n", i, i)
	}
	var text strings.Builder
	for i := range 300 {
		fmt.Fprintf(&text, "log line %d: level=%s\r\n", i, []string{"info", "error"}[i%2])
	}

	small := newEnv(t, Options{MaxInput: 1024})
	whole := newEnv(t, Options{})
	ctx := context.Background()
	cases := []struct{ data, filter string }{
		{doc, `.items[] | select(.state == "open") | .id`},
		{doc, `.items[]`},
		{doc, `.items[]?`},
		{doc, `.["items"][] | {id, t: .tags | sort}`},
		{doc, `.items[] | .big`},
		{doc, `.items[] | select(.id == 7) | ., halt`},
		{doc, `.items[] | .n * 2 | floor`},
		{jl.String(), `.[] | .s`},
		{jl.String(), `.[] | select(.i % 50 == 0)`},
		{text.String(), `.[] | select(test("error")) | length`},
	}
	for _, c := range cases {
		hs, hw := small.put(t, []byte(c.data)), whole.put(t, []byte(c.data))
		for _, tokens := range []int{300, 4000} {
			got, err := small.q.JQ(ctx, hs, c.filter, tokens)
			if err != nil {
				t.Fatalf("%s (streamed): %v", c.filter, err)
			}
			want, err := whole.q.JQ(ctx, hw, c.filter, tokens)
			if err != nil {
				t.Fatalf("%s (whole): %v", c.filter, err)
			}
			small.checkBudget(t, got)
			if got.Content != want.Content || got.Total != want.Total || got.Returned != want.Returned || (got.Stored == nil) != (want.Stored == nil) ||
				got.Stored != nil && got.Stored.SHA256 != want.Stored.SHA256 {
				t.Errorf("%s, budget %d: streamed answer differs:\n%+v\nwhole:\n%+v", c.filter, tokens, got, want)
			}
		}
	}

	h := small.put(t, []byte(doc))
	opens := small.store.opens.Load()
	for _, f := range []string{`.items | length`, `[.items[] | .id] | add`, `.meta`, `.items[] as $x | $x.id`, `def f: .; .items[] | f`} {
		_, err := small.q.JQ(ctx, h, f, 100)
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), fmt.Sprintf("is %d bytes", len(doc))) || !strings.Contains(err.Error(), "at most 1024 bytes") {
			t.Errorf("%s: %v, want ErrLimit with the size and the limit", f, err)
		}
	}
	if n := small.store.opens.Load(); n != opens {
		t.Errorf("refused filters opened the artifact %d times; the size is known without reading it", n-opens)
	}
	// A path that is not an array collection is refused too.
	if _, err := small.q.JQ(ctx, h, `.meta[]`, 100); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "not an array collection") {
		t.Errorf(".meta[]: %v", err)
	}
}

// TestSplitIteration checks which filters stream, and on which path.
func TestSplitIteration(t *testing.T) {
	for f, want := range map[string]string{
		`.items[]`: ".items", `.[]`: ".", `.a.b[] | .x`: ".a.b", `."a"[]? | .x | .y`: ".a", `.items[] | select(.a) | .b`: ".items",
		`.items`: "", `.items | .[]`: "", `.items[0]`: "", `.items[][]`: "", `.a[].b[]`: "", `[.items[]]`: "",
		`.items[] as $x | $x`: "", `.items[], .x`: "", `.items[1:][]`: "", `.[$k][]`: "", `."\(.k)"[]`: "", `."a.b"[]`: "", `."1a"[]`: "",
	} {
		p, err := gojq.Parse(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		it, ok := splitIteration(p)
		if ok != (want != "") || ok && it.path != want {
			t.Errorf("%s: path %q, %v; want %q", f, it.path, ok, want)
		}
	}
}
