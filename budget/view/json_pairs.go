package view

import (
	"fmt"
	"strings"
)

// Lists of {name, value} pairs are a record's own fields written as a
// list: a Chrome DevTools Protocol node's properties ([{name: "url",
// value: {type, value}}, {name: "level", ...}]), AWS Tags ([{Key,
// Value}]), a container's env ([{name, value}]). Profiled as a list,
// the view says properties[].name is "url" 300 times and
// properties[].value.value holds 300 values, never which URL a node
// has. Read as fields, properties.url.value is a column like any other:
// the index and the rows show each record's URL, the profile counts the
// levels of headings. The array field keeps its item counts; its pairs
// are its members, named by their names. A list is read so when the
// first non-empty one of its field holds only pairs (two members each,
// a name member with a string and a value member, named alike
// throughout); an element of a later list that is no such pair is
// profiled as an item ([]), as before.

// pairNames and pairValues are the member names of a pair's name and
// value.
var (
	pairNames  = []string{"name", "key", "Name", "Key"}
	pairValues = []string{"value", "Value"}
)

// pairList reports whether the array at s (at its '[') holds at least
// one element and only pairs named alike, and returns the names of the
// pairs' name and value members; s does not move.
func pairList(s *jscan) (nameKey, valueKey string, ok bool) {
	t := jscan{d: s.d, pos: s.pos}
	n := 0
	good := t.elements(func(el []byte) {
		if n < 0 {
			return
		}
		nk, vk, _, _, ok := pairOf(el)
		if !ok || n > 0 && (nk != nameKey || vk != valueKey) {
			n = -1
			return
		}
		nameKey, valueKey = nk, vk
		n++
	})
	return nameKey, valueKey, good && n > 0
}

// pairOf reads the element el as a pair: the names of its name and value
// members, the name, and the value's offset in el; ok is false when el
// is no object of exactly those two members with a string name.
func pairOf(el []byte) (nameKey, valueKey, name string, at int, ok bool) {
	s := jscan{d: el}
	members, at := 0, -1
	good := true
	s.eachMember(func(m string) {
		members++
		switch {
		case contains(pairNames, m) && nameKey == "" && s.peek() == '"':
			nameKey, name = m, s.readString()
		case contains(pairValues, m) && valueKey == "":
			valueKey, at = m, s.pos
		default:
			good = false
		}
	})
	return nameKey, valueKey, name, at, good && members == 2 && nameKey != "" && valueKey != ""
}

// pairsOf profiles the array at s, a value of field f whose lists hold
// pairs (f.pairs): each pair's value as f's member named by the pair's
// name, an element that is no pair as an item ([]).
func (p *Profile) pairsOf(s *jscan, f *Field, rec, depth int) {
	n := 0
	s.elements(func(el []byte) {
		n++
		nk, vk, name, at, ok := pairOf(el)
		t := jscan{d: el}
		if !ok || nk != f.pairName || vk != f.pairValue {
			p.value(&t, p.elemOf(f), rec, depth+1)
			return
		}
		t.pos = at
		p.value(&t, p.child(f, name), rec, depth+1)
	})
	p.arrayEnd(f, n, rec)
}

// walkPairs is walk (rows.go) over the array at s of a field whose lists
// hold pairs.
func (p *Profile) walkPairs(s *jscan, f *Field, mask []bool, fn func(*Field, []byte)) {
	s.elements(func(el []byte) {
		nk, vk, name, at, ok := pairOf(el)
		t := jscan{d: el}
		if !ok || nk != f.pairName || vk != f.pairValue {
			p.walk(&t, f.elem, mask, fn)
			return
		}
		t.pos = at
		p.walk(&t, f.kids[name], mask, fn)
	})
}

// pairMember returns the ancestor-or-self of f that is a pair's member
// (its parent's lists hold pairs), or nil.
func pairMember(f *Field) *Field {
	for g := f; g != nil && g.parent != nil; g = g.parent {
		if g.parent.pairs && g.parent.elem != g {
			return g
		}
	}
	return nil
}

// fieldExprOf is the jq expression of field f's value in a record at
// prefix (".value" for a map's entry, "" for the record itself): its
// path, or for a pair's member the value of the pair with that name,
// the first one, or all of them in a list where a list holds the name
// twice ("([.properties[]? | select(.name == \"url\") |
// .value][0].value)").
func fieldExprOf(prefix string, f *Field) string {
	g := pairMember(f)
	if g == nil {
		return prefix + fieldExpr(f.Path)
	}
	arr := g.parent
	if f.Values > f.Present {
		// A name some list holds twice: all its values, in a list
		// (the first alone would hide the others).
		return fmt.Sprintf("[%s[]? | select(.%s == %s) | .%s%s]", fieldExprOf(prefix, arr), arr.pairName, jsonQuote(g.name),
			arr.pairValue, strings.TrimPrefix(f.Path, g.Path))
	}
	return fmt.Sprintf("([%s[]? | select(.%s == %s) | .%s][0]%s)", fieldExprOf(prefix, arr), arr.pairName, jsonQuote(g.name),
		arr.pairValue, strings.TrimPrefix(f.Path, g.Path))
}

// emptyArray reports whether the array at s (at its '[') is empty.
func emptyArray(s *jscan) bool {
	t := jscan{d: s.d, pos: s.pos + 1}
	t.ws()
	return t.peek() == ']'
}
