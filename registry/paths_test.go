package registry

import (
	"reflect"
	"strings"
	"testing"
)

func TestParsePath(t *testing.T) {
	good := map[string][]Step{
		"id":                  {{Key: "id"}},
		".id":                 {{Key: "id"}},
		"user.login":          {{Key: "user"}, {Key: "login"}},
		"labels[].name":       {{Key: "labels", Arrays: 1}, {Key: "name"}},
		"matrix[][].v":        {{Key: "matrix", Arrays: 2}, {Key: "v"}},
		"*_url":               {{Key: "*_url", Wildcard: true}},
		"user.*":              {{Key: "user"}, {Key: "*", Wildcard: true}},
		"[].id":               {{Arrays: 1}, {Key: "id"}},
		`."dist-tags".latest`: {{Key: "dist-tags"}, {Key: "latest"}},
		`"a.b*"[]`:            {{Key: "a.b*", Wildcard: true, Arrays: 1}},
		`"\u00e9t\"e"`:        {{Key: `ét"e`}},
		"ünïcode":             {{Key: "ünïcode"}},
	}
	for in, want := range good {
		got, err := ParsePath(in)
		if err != nil || !reflect.DeepEqual(got.Steps, want) || got.Anchored != strings.HasPrefix(in, ".") {
			t.Errorf("ParsePath(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", ".", "a..b", "a.", "a[0]", "a[", "a]", "a b", `a"b"`, `"unterminated`, `"bad\q"`, "a.[]", "a[]b", "\x00", `["a"`, `a["b"x`, "a[\"b\"]]"} {
		if got, err := ParsePath(in); err == nil {
			t.Errorf("ParsePath(%q) accepted: %+v", in, got)
		}
	}
}

func TestParseRecordPath(t *testing.T) {
	if s, err := ParseRecordPath("."); err != nil || s != nil {
		t.Errorf("root: %v %v", s, err)
	}
	if s, err := ParseRecordPath(".[].items"); err != nil || !reflect.DeepEqual(s, []Step{{Arrays: 1}, {Key: "items"}}) {
		t.Errorf(".[].items: %+v %v", s, err)
	}
	for _, in := range []string{"items", ".a*", "..", ".a.", ""} {
		if _, err := ParseRecordPath(in); err == nil {
			t.Errorf("ParseRecordPath(%q) accepted", in)
		}
	}
}

// FuzzParsePath checks that ParsePath never panics and that every path it
// accepts renders (FormatPath) to a path that parses to the same steps.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"id", ".user.login", "labels[].name", "*_url", "[].id", `."dist-tags".latest`, `.["a b"][]`, `"x*y"`, "a..b", "a[0]", `""`, "é.ü[][]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > 256 {
			return
		}
		path, err := ParsePath(p)
		if err != nil {
			return
		}
		again, err := ParsePath(FormatPath(path))
		if err != nil || !reflect.DeepEqual(path, again) {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", p, path, FormatPath(path), again, err)
		}
	})
}
