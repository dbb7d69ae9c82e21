package view

// Objects keyed by dense integers ("0", "1", ..., "n-1": istanbul's
// statementMap, fnMap, s and f; a JavaScript array serialised as an
// object) are lists in disguise. Profiled as objects, every index is a
// field name ("0" 18, "1" 18, "10" 18, ...) and they fill the profile's
// field cap; read as lists, their items have one field each
// (fnMap[].name, f[]) and the view can name every function and count
// its calls. The path keeps jq's meaning: .fnMap[] iterates an object's
// values as it does an array's items.

// indexKeyed reports whether the object at s (at its '{') has at least
// two members, named "0", "1", ... in order; s does not move.
func indexKeyed(s *jscan) bool { return indexKeyedMin(s, 2) }

// listObject reports whether the object at s, a value of field f, is read
// as a list: f's objects are lists (f.indexed) and this one is keyed
// "0".."n-1" too (any n: {} and {"0": x} are lists of none and one), or f
// has had no object yet and this one is keyed "0", "1", ... (at least
// two members). Decided per object: an object of other names, after
// lists, is an object (its members keep their names).
func listObject(s *jscan, f *Field) bool {
	if f.indexed {
		return indexKeyedMin(s, 0)
	}
	return f.kids == nil && f.Types&tObject == 0 && indexKeyed(s)
}

// indexKeyedMin reports whether the object at s has at least min members,
// named "0", "1", ... in order; s does not move.
func indexKeyedMin(s *jscan, min int) bool {
	t := jscan{d: s.d, pos: s.pos}
	want := 0
	ok := t.eachMemberName(func(name []byte) {
		if want >= 0 && isIndex(name, want) {
			want++
		} else {
			want = -1
		}
	})
	return ok && want >= min
}

// isIndex reports whether name is the decimal i.
func isIndex(name []byte, i int) bool {
	if len(name) == 0 || len(name) > 1 && name[0] == '0' {
		return false
	}
	n := 0
	for _, c := range name {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n == i
}

// indexedList profiles the object at s, a value of field f read as a
// list (f.indexed), as the array branch of value profiles an array: its
// member values are the items of f's [] field.
func (p *Profile) indexedList(s *jscan, f *Field, rec, depth int) {
	n := 0
	var el *Field
	s.eachMemberName(func([]byte) {
		if el == nil {
			el = p.elemOf(f)
		}
		p.value(s, el, rec, depth+1)
		n++
	})
	p.arrayEnd(f, n, rec)
}
