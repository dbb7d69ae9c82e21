package main

import (
	"bytes"
	"strings"

	"github.com/toolcompact/compact/plugins/pdk"
)

// step is one step of a field path: a member of an object, or every
// element of an array.
type step struct {
	key  string
	each bool // "[]": every element of an array
}

// fieldPath is a column: a path from a record to the values it shows.
// Syntax: members separated by dots, "[]" after a member for every element
// of the array it holds: number, user.login, labels[].name, assignees[].login.
type fieldPath struct {
	name  string
	steps []step
}

// list reports whether the path can yield several values.
func (p fieldPath) list() bool {
	for _, s := range p.steps {
		if s.each {
			return true
		}
	}
	return false
}

func parsePath(s string) (fieldPath, error) {
	p := fieldPath{name: s}
	if s == "" {
		return p, pdk.Errorf("empty field path")
	}
	for _, part := range strings.Split(s, ".") {
		each := strings.HasSuffix(part, "[]")
		key := strings.TrimSuffix(part, "[]")
		if key == "" || strings.ContainsAny(key, "[]") {
			return p, pdk.Errorf("field path %q: bad member %q (want name or name[])", s, part)
		}
		p.steps = append(p.steps, step{key: key})
		if each {
			p.steps = append(p.steps, step{each: true})
		}
	}
	return p, nil
}

// readers is a free list of Readers for member and extract: a Reader made
// per lookup would allocate its stack on the heap, and the guest's
// allocator and collector are slow inside the host. A nil *readers makes
// a new Reader each time.
type readers struct{ free []*pdk.Reader }

func (rs *readers) get(raw []byte) *pdk.Reader {
	if rs == nil || len(rs.free) == 0 {
		return pdk.NewReader(raw)
	}
	r := rs.free[len(rs.free)-1]
	rs.free = rs.free[:len(rs.free)-1]
	r.Reset(raw)
	return r
}

func (rs *readers) put(r *pdk.Reader) {
	if rs != nil {
		rs.free = append(rs.free, r)
	}
}

// member returns the raw value of key in the JSON object raw, or nil when
// raw is not an object or lacks key.
func member(rs *readers, raw []byte, key string) []byte {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	r := rs.get(raw)
	defer rs.put(r)
	r.BeginObject()
	for {
		t, v, ok := r.NextMember()
		if !ok {
			return nil
		}
		if keyEquals(t, key) {
			return v
		}
	}
}

// keyEquals compares a key token with a name without decoding it unless it
// holds escapes. An escape always decodes to fewer bytes than it takes, so
// a raw key no longer than name matches only byte for byte and without a
// backslash, and a longer one only if it holds a backslash: most keys are
// settled without a loop.
// (Before, a raw key equal byte for byte to name matched even when it held
// escapes: {"a\\b":1} has the key a\b, not a\\b.)
func keyEquals(t pdk.Token, name string) bool {
	raw := t.Raw[1 : len(t.Raw)-1]
	if len(raw) <= len(name) {
		// Equal bytes match only without escapes (`a\\b` is a\b).
		return len(raw) == len(name) && string(raw) == name && bytes.IndexByte(raw, '\\') < 0
	}
	return bytes.IndexByte(raw, '\\') >= 0 && t.Text() == name
}

// elements returns the raw elements of the JSON array raw, or nil.
func elements(raw []byte) [][]byte {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	r := pdk.NewReader(raw)
	r.BeginArray()
	var out [][]byte
	for v, ok := r.NextElement(); ok; v, ok = r.NextElement() {
		out = append(out, v)
	}
	if r.Err() != nil {
		return nil
	}
	return out
}

// extract appends to dst the raw values the path reaches from raw. Absent
// members and nulls on the way yield nothing; a null at the end of the
// path is a value.
func extract(rs *readers, dst [][]byte, raw []byte, steps []step) [][]byte {
	if len(raw) == 0 {
		return dst
	}
	if len(steps) == 0 {
		return append(dst, raw) // a null leaf is a value
	}
	if string(raw) == "null" {
		return dst
	}
	s := steps[0]
	if s.each {
		// The elements one by one, without a slice of them.
		if raw[0] != '[' {
			return dst
		}
		r := rs.get(raw)
		defer rs.put(r)
		r.BeginArray()
		n := len(dst)
		for e, ok := r.NextElement(); ok; e, ok = r.NextElement() {
			dst = extract(rs, dst, e, steps[1:])
		}
		if r.Err() != nil {
			return dst[:n] // as elements did: a malformed array yields nothing
		}
		return dst
	}
	return extract(rs, dst, member(rs, raw, s.key), steps[1:])
}
