package view

import "testing"

func TestKeyNoun(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{".traceEvents", "trace events"},
		{".result[].functions", "functions"},
		{"._meta.hostvars", "hostvars"},
		{`."ansible.builtin.apt".doc.options`, "options"},
		{".items", "items"},
		{".dependency_edges", "dependency edges"},
		{".result", ""},
		{".status", ""},
		{".class", ""},
		{".analysis", ""},
		{".", ""},
		{".records", ""},
		{".v2s", ""},
		{`.steps | del(.[0])`, ""},
		{`del(.["_meta"])`, ""},
	} {
		if got := keyNoun(c.path); got != c.want {
			t.Errorf("keyNoun(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
