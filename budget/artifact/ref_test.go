package artifact

import (
	"errors"
	"strings"
	"testing"
)

func TestParseRef(t *testing.T) {
	good := []struct{ in, handle, path string }{
		{"a1b2c3d4e5f6", "a1b2c3d4e5f6", ""},
		{"  A1B2C3D4E5F6\n", "a1b2c3d4e5f6", ""},
		{"a1b2c3d4e5f6.", "a1b2c3d4e5f6", ""},
		{"a1b2c3d4e5f6.items[3].name", "a1b2c3d4e5f6", ".items[3].name"},
		{"a1b2c3d4e5f6.items.[3]", "a1b2c3d4e5f6", ".items[3]"},
		{`a1b2c3d4e5f6["a key"][-1]`, "a1b2c3d4e5f6", `["a key"][-1]`},
		{`a1b2c3d4e5f6."x.y"`, "a1b2c3d4e5f6", `["x.y"]`},
		{`a1b2c3d4e5f6["plain"]`, "a1b2c3d4e5f6", `.plain`},
		{strings.Repeat("ab", 32) + ".deadbeef", strings.Repeat("ab", 32), ".deadbeef"},
	}
	for _, g := range good {
		r, err := ParseRef(g.in)
		if err != nil {
			t.Errorf("ParseRef(%q): %v", g.in, err)
			continue
		}
		if string(r.Handle) != g.handle || r.Path != g.path {
			t.Errorf("ParseRef(%q) = %q %q, want %q %q", g.in, r.Handle, r.Path, g.handle, g.path)
		}
		// The canonical form parses to itself.
		r2, err := ParseRef(r.String())
		if err != nil || r2 != r {
			t.Errorf("ParseRef(%q) = %v, %v; want %v", r.String(), r2, err, r)
		}
	}
	bad := []struct{ in, want string }{
		{"", "empty"},
		{"../../etc/passwd", "not a hex digit"},
		{"a1b2c3d4e5f6/../x", `byte 12 ('/')`},
		{"a1b2c3/d4e5f6", "not a hex digit"},
		{"a1b2c3", "has 6 characters"},
		{strings.Repeat("a", 65), "has 65 characters"},
		{"a1b2c3d4e5f6g", `byte 12 ('g') after the handle`},
		{"a1b2c3d4e5f6 .x", `byte 12 (' ') after the handle`},
		{"a1b2c3d4e5f6.items[", "want an integer index"},
		{"a1b2c3d4e5f6.items[1", "want an integer index"},
		{"a1b2c3d4e5f6.9x", "cannot start a key"},
		{`a1b2c3d4e5f6."open`, "unterminated"},
		{`a1b2c3d4e5f6["k"`, `missing "]"`},
		{"a1b2c3d4e5f6[99999999999]", "bad index"},
		{"a1b2c3d4e5f6..x", "cannot start a key"},
		{"a1b2c3d4e5f6 | .x", "after the handle"},
		{"a1b2c3d4e5f6" + strings.Repeat(".x", 3000), "at most"},
	}
	for _, b := range bad {
		_, err := ParseRef(b.in)
		if err == nil {
			t.Errorf("ParseRef(%q): no error", b.in)
			continue
		}
		if !errors.Is(err, ErrBadRef) {
			t.Errorf("ParseRef(%q): %v does not wrap ErrBadRef", b.in, err)
		}
		if !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseRef(%q): %q does not say %q", b.in, err, b.want)
		}
	}
}

func TestCheckHandleRefusesTraversal(t *testing.T) {
	for _, h := range []string{"../../../etc", "a1b2c3d4e5f6/..", "A1B2C3D4E5F6", "a1b2c3d4e5f\x00", `a1b2c3d4e5f6\x`} {
		if err := CheckHandle(budgetHandle(h)); err == nil {
			t.Errorf("CheckHandle(%q) accepted it", h)
		}
	}
}

// FuzzParseRef checks that ParseRef never panics, that what it accepts is
// canonical (parses to itself) and safe as a file name.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"a1b2c3d4e5f6", "a1b2c3d4e5f6.items[3].name", `a1b2c3d4e5f6["k"][-2]`, "../x", "a1b2c3d4e5f6.[0]", `a1b2c3d4e5f6."\u00e9"`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			return
		}
		r, err := ParseRef(s)
		if err != nil {
			if !errors.Is(err, ErrBadRef) {
				t.Fatalf("ParseRef(%q): error %v does not wrap ErrBadRef", s, err)
			}
			return
		}
		if CheckHandle(r.Handle) != nil || strings.ContainsAny(string(r.Handle), "./\\") {
			t.Fatalf("ParseRef(%q) accepted unsafe handle %q", s, r.Handle)
		}
		r2, err := ParseRef(r.String())
		if err != nil || r2 != r {
			t.Fatalf("ParseRef(%q) = %#v; its canonical form %q parses to %#v, %v", s, r, r.String(), r2, err)
		}
		if FormatPath(r.Steps()) != r.Path {
			t.Fatalf("Steps of %q do not format back", r.Path)
		}
	})
}
