package view

import (
	"fmt"
	"strings"
	"testing"
)

// TestDroppedFieldsCountedNotProfiled: a field the rules drop is shown
// by nothing but the count of dropped fields, so the profile's pass
// counts its values (present, types, nulls) and does not profile them
// (distinct values, patterns, numbers, times); the identity the registry
// names is profiled even when the rules drop it. On the old code every
// dropped field was profiled (99 of GitHub issues' 180 fields, most of
// the view's time there).
func TestDroppedFieldsCountedNotProfiled(t *testing.T) {
	var b strings.Builder
	b.WriteByte('[')
	const n = 300
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		url := fmt.Sprintf(`"https://example.com/r/%d"`, i)
		if i%10 == 0 {
			url = "null"
		}
		fmt.Fprintf(&b, `{"key":"k%d","url":%s,"size":%d,"state":"%s","user":{"html_url":"https://example.com/u/%d","login":"u%d"}}`,
			i, url, i*7%101, []string{"open", "closed", "draft"}[i%3], i%17, i%17)
	}
	b.WriteByte(']')
	data := []byte(b.String())
	col := Collection{Path: ".", Kind: "array", Count: n, Text: data}
	in := Input{Format: "json", Data: data, Budget: 4000, Collections: []Collection{col}, Identity: []string{".key"},
		Drop: func(p string) bool { return p == "key" || p == "url" || strings.HasSuffix(p, "_url") }}
	k := profiledColl(t, in, col)
	for _, path := range []string{"url", "user.html_url"} {
		f := k.p.Field(path)
		if f == nil {
			t.Fatalf("no field %s", path)
		}
		if !f.bare || f.Distinct != 0 || f.Counts != nil || f.MaxLen != 0 || f.Patterns != nil {
			t.Errorf("%s is profiled: bare %v, %d distinct, max length %d", path, f.bare, f.Distinct, f.MaxLen)
		}
		if f.Present != n || f.Values != n || f.Types&tString == 0 {
			t.Errorf("%s: present %d, values %d, types %b; want %d string values", path, f.Present, f.Values, f.Types, n)
		}
	}
	if f := k.p.Field("url"); f.Nulls != n/10 || f.Types != tString|tNull {
		t.Errorf("url: %d nulls, types %b; want %d nulls of strings and null", f.Nulls, f.Types, n/10)
	}
	if f := k.p.Field("key"); f.bare || f.Distinct != n {
		t.Errorf("the identity key (dropped): bare %v, %d distinct; want profiled, %d distinct", f.bare, f.Distinct, n)
	}
	if f := k.p.Field("user.login"); f.bare || f.Distinct != 17 {
		t.Errorf("user.login: bare %v, %d distinct; want 17", f.bare, f.Distinct)
	}
	v, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := v.Fill(wordCounter{}, 4000)
	if err != nil {
		t.Fatal(err)
	}
	all := fl.Text
	if strings.Contains(all, "example.com") || !strings.Contains(all, "3 fields the registry's rules drop") {
		t.Errorf("the dropped fields are shown, or their count is not:\n%s", all)
	}
}
