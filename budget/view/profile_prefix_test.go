package view

import (
	"fmt"
	"testing"
)

// TestProfilePrefixesOfPlainStrings: a field of paths is profiled by the
// part before the first "/", for plain strings as for escaped ones. Plain
// strings had no prefixes at all after the profile stopped unquoting
// them (only escaped strings were looked at), so "before the first /"
// never showed.
func TestProfilePrefixesOfPlainStrings(t *testing.T) {
	p := NewProfile(false)
	buf := make([]byte, 0, 64)
	for i := 0; i < 30; i++ {
		dir := "lib"
		if i%3 == 0 {
			dir = "dist"
		}
		buf = fmt.Appendf(buf[:0], `{"path":"%s/file%d.js","esc":"a\/b%d"}`, dir, i, i)
		p.Add(i, buf)
		// The input buffer is reused: counted prefixes must not alias it.
		for j := range buf {
			buf[j] = 'x'
		}
	}
	p.Finish()
	f := p.Field("path")
	if f == nil {
		t.Fatal("no field path")
	}
	if f.Prefixes["lib"] != 20 || f.Prefixes["dist"] != 10 || len(f.Prefixes) != 2 {
		t.Fatalf(".path prefixes = %v, want lib 20, dist 10", f.Prefixes)
	}
	if e := p.Field("esc"); e == nil || e.Prefixes["a"] != 30 {
		t.Fatalf(".esc prefixes = %v, want a 30", e.Prefixes)
	}
}
