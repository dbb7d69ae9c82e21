package view

import (
	"fmt"
	"strings"
)

// Collections inside a member: a map of records one member of which is
// no record of the others' kind but holds most of the document
// (ansible-inventory --list: twelve groups, each with its hosts, and
// "_meta" {"hostvars": {119 hosts, each with 11 fields}}, 57 KB of 63
// KB). Such a member is set apart from the records as a summary is
// (summaryEnds: its fields are no other member's), but it is no summary:
// the questions are about what it holds (how many hosts run bullseye,
// the largest mem_gb, the one host with an ansible_port). The largest
// collection inside it (an array of objects, or an object of
// minMapMembers or more members that are all objects or arrays) is a
// collection of its own, with its profile, rows and index, at its path
// (._meta.hostvars): every sizeable collection of a document is
// profiled, the largest by bytes first (rankByWeight).

// minMapMembers is the fewest members of an object, all objects or
// arrays, for it to be read as a map of records inside a member.
const minMapMembers = 8

// innerDepth is how deep below a member its collection is looked for.
const innerDepth = 4

// bigMember reports whether a member's value of n bytes holds most of
// the document's (at least half of it).
func bigMember(in Input, n int) bool { return n*2 >= len(in.Data) && len(in.Data) > 0 }

// innerColl is a collection found inside a member's value.
type innerColl struct {
	segs  []string // its path below the member, as pathSegments
	text  []byte   // the array or object (a slice of the member's value)
	kind  string   // "array" or "map"
	count int
}

// findInner returns the largest collection inside val (a JSON object) at
// most innerDepth levels down that holds at least a quarter of val's
// bytes; ok is false when there is none.
func findInner(val []byte) (best innerColl, ok bool) {
	var look func(raw []byte, segs []string, d int)
	look = func(raw []byte, segs []string, d int) {
		s := jscan{d: raw}
		s.ws()
		if s.peek() != '{' || d > innerDepth {
			return
		}
		s.members(func(name string, v []byte) {
			if len(v)*4 < len(val) || len(v) <= len(best.text) && ok {
				return
			}
			seg := name
			if !plainName(name) {
				seg = jsonQuote(name)
			}
			path := append(append([]string(nil), segs...), seg)
			if kind, n, is := collectionOf(v); is {
				best, ok = innerColl{segs: path, text: v, kind: kind, count: n}, true
				return
			}
			look(v, path, d+1)
		})
	}
	look(val, nil, 1)
	return best, ok
}

// collectionOf reports whether v is a collection of records: an array
// of minItemRecords or more elements, the first an object, or an object
// of minMapMembers or more members that are all objects or arrays; kind
// is "array" or "map", n its records.
func collectionOf(v []byte) (kind string, n int, ok bool) {
	s := jscan{d: v}
	s.ws()
	switch s.peek() {
	case '[':
		if !leadsWithObject(v) {
			return "", 0, false
		}
		s.elements(func([]byte) { n++ })
		return "array", n, n >= minItemRecords
	case '{':
		all := true
		s.members(func(_ string, m []byte) {
			n++
			all = all && len(m) > 0 && (m[0] == '{' || m[0] == '[')
		})
		return "map", n, all && n >= minMapMembers
	}
	return "", 0, false
}

// innerPath is the jq path of collection ic inside the member key of
// the map collection at path base.
func innerPath(base, key string, ic innerColl) string {
	p := joinPath(base, key)
	for _, s := range ic.segs {
		if strings.HasPrefix(s, `"`) {
			p = joinPath(p, unquote([]byte(s)))
		} else {
			p = joinPath(p, s)
		}
	}
	if !strings.HasPrefix(p, ".") {
		p = "." + p
	}
	return p
}

// addInner adds collection ic (found at path) as a collection of its own
// with its profile and rows.
func addInner(v *View, in Input, of, path string, ic innerColl) error {
	c := Collection{Path: path, Kind: ic.kind, Count: ic.count, Text: ic.text}
	text := ic.text
	if ic.kind == "map" {
		c.Each = func(fn func(int, []byte) error) error {
			i := 0
			var err error
			var buf []byte
			s := jscan{d: text}
			s.members(func(name string, val []byte) {
				if err != nil {
					return
				}
				buf = append(buf[:0], '{')
				buf = append(buf, jsonQuote(name)...)
				buf = append(buf, ':')
				buf = append(buf, val...)
				buf = append(buf, '}')
				err = fn(i, append([]byte(nil), buf...))
				i++
			})
			return err
		}
	} else {
		c.Each = func(fn func(int, []byte) error) error {
			i := 0
			var err error
			s := jscan{d: text}
			s.elements(func(el []byte) {
				if err == nil {
					err = fn(i, el)
				}
				i++
			})
			return err
		}
	}
	in.Collections = append(in.Collections[:len(in.Collections):len(in.Collections)], c)
	v.items = append(v.items, Items{Path: c.Path, Kind: c.Kind, Of: of, Count: c.Count})
	return addRecords(v, in, len(in.Collections)-1)
}

// innerNote is how a head names a big member's collection.
func innerNote(path string, ic innerColl, n, total int) string {
	what := "array"
	if ic.kind == "map" {
		what = "map"
	}
	return fmt.Sprintf("%s of %s bytes (%d%%), holding the collection %s (a %s of %s), below", commas(n), commas(total),
		n*100/max(total, 1), path, what, countWords(path, ic.count))
}
