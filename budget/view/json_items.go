package view

import (
	"fmt"
	"slices"
	"sort"
)

// Records that are arrays of objects (gcc -fdiagnostics-format=json
// prints one array of diagnostics per translation unit, a stream of
// them; a root array of such arrays): the objects are what a question
// is about (a diagnostic's message, its file and line, the first and
// the last one), so the view profiles and shows them as a collection of
// their own, path PATH[] (".[][]" in a query), after a line stating the
// records' exact count and how many items each holds. Without it every
// real record was a "[]"-prefixed field and every row one whole array,
// its cells lists cut at four items (TestArraysOfObjectsAreItems).

// minItemRecords is the fewest items records must hold in all for their
// items to be the collection.
const minItemRecords = 8

// arrayItems returns the collection of the items of c's records when
// every record is an array of objects (empty arrays allowed) holding
// minItemRecords objects or more in all, with the fewest and most items
// of a record; ok is false otherwise.
func arrayItems(in Input, c Collection) (items Collection, lo, hi int, ok bool) {
	if in.Format != "json" && in.Format != "jsonl" && in.Format != "concat" || c.Kind == "map" || c.Kind == "lines" || c.Count < 2 || c.Each == nil && !within(in.Data, c.Text) {
		return Collection{}, 0, 0, false
	}
	if !firstIsArray(in, c) {
		// eachRaw reads an array's elements to its end whatever fn
		// returns: a collection of objects is not read a second time
		// only to find its first record is no array.
		return Collection{}, 0, 0, false
	}
	total, first := 0, true
	err := eachRaw(in, c, func(i int, raw []byte) error {
		s := jscan{d: raw}
		n := 0
		objects := true
		if !s.elements(func(val []byte) {
			n++
			if len(val) == 0 || val[0] != '{' {
				objects = false
			}
		}) || !objects {
			return errStop
		}
		if first || n < lo {
			lo = n
		}
		if first || n > hi {
			hi = n
		}
		first = false
		total += n
		return nil
	})
	if err != nil || total < minItemRecords {
		return Collection{}, 0, 0, false
	}
	path := c.Path + "[]"
	if c.Kind == "jsonl" || c.Kind == "concat" || c.Path == "." {
		path = ".[]"
	}
	each := func(fn func(i int, raw []byte) error) error {
		j := 0
		return eachRaw(in, c, func(_ int, raw []byte) error {
			s := jscan{d: raw}
			var ferr error
			s.elements(func(val []byte) {
				if ferr == nil {
					ferr = fn(j, val)
				}
				j++
			})
			return ferr
		})
	}
	return Collection{Path: path, Kind: "array", Count: total, Each: each}, lo, hi, true
}

// addArrayItems adds collection ci of in (records that are arrays of
// objects, arrayItems) as a line stating its records and their items,
// then the items as a collection of their own. ok is false when its
// records are not such arrays.
func addArrayItems(v *View, in Input, ci int) (bool, error) {
	c := in.Collections[ci]
	items, lo, hi, ok := arrayItems(in, c)
	if !ok {
		return false, nil
	}
	v.AddSection(&Section{Coll: c.Path, Order: 10 + ci, Head: func([]Candidate) string {
		return fmt.Sprintf("collection %s (%s): %s records, each an array of objects (%s-%s items, %s in all): the items are the collection %s below\n",
			c.Path, c.Kind, commas(c.Count), commas(lo), commas(hi), commas(items.Count), items.Path)
	}})
	in.Collections = append(in.Collections[:len(in.Collections):len(in.Collections)], items)
	v.items = append(v.items, Items{Path: items.Path, Kind: items.Kind, Of: c.Path, Count: items.Count})
	if err := addRecords(v, in, len(in.Collections)-1); err != nil {
		return true, err
	}
	return true, nil
}

// firstIsArray reports whether c's first record may be an array: false
// when c is read off the input's text and its first record starts with
// anything but "[" (true when c is not read off the text: arrayItems
// then checks its records one by one).
func firstIsArray(in Input, c Collection) bool {
	if !within(in.Data, c.Text) || c.Kind != "array" && c.Kind != "jsonl" && c.Kind != "concat" {
		return true
	}
	s := jscan{d: c.Text}
	s.ws()
	if c.Kind == "array" {
		if s.pos >= len(s.d) || s.d[s.pos] != '[' {
			return false
		}
		s.pos++
		s.ws()
	}
	return s.pos < len(s.d) && s.d[s.pos] == '['
}

// eachRaw calls fn with each record of c: read off the collection's text
// when it is a slice of the input (an array's elements, a stream's
// values: the view's own walk, as profileRecords reads them), else
// through c.Each.
func eachRaw(in Input, c Collection, fn func(i int, raw []byte) error) error {
	if !within(in.Data, c.Text) || c.Kind != "array" && c.Kind != "jsonl" && c.Kind != "concat" {
		return c.Each(fn)
	}
	s := jscan{d: c.Text}
	i := 0
	var err error
	if c.Kind == "array" {
		s.elements(func(v []byte) {
			if err == nil {
				err = fn(i, v)
			}
			i++
		})
		return err
	}
	for {
		s.ws()
		if s.pos >= len(s.d) {
			return nil
		}
		start := s.pos
		s.skipValue()
		if s.pos <= start {
			return errStop // (not JSON: cannot happen in a stream's text)
		}
		if err := fn(i, s.d[start:s.pos]); err != nil {
			return err
		}
		i++
	}
}

// A map whose values are records or lists of records of one shape (npm
// outdated --all --json: a package's name -> its entry {current, wanted,
// latest, dependent, location}, or a list of such entries, one per
// dependent; budget's recordLists finds it): a question is about an
// entry (the latest version of express, how many entries have a wanted
// version other than the current one), and an entry's name is its key.
// The view states the map's keys and how many are lists, then shows
// every entry, each with its key as a first member, as a collection of
// its own, the jq expression
//
//	[to_entries[] | .key as $k | .value | if type == "array" then .[] else . end | {name: $k} + .]
//
// so that every query the view suggests (a record by its name, by
// position, the rest) runs as written. The member is "name" unless the
// entries have one ("key", then "_key").

// keyedItems is what keyedEntries found in a map of records and lists.
type keyedItems struct {
	name            string // the member the key becomes
	objects, lists  int    // values that are an object, a list
	items           int    // objects in all (the lists' included)
	lo, hi          int    // the fewest and most objects of a list
	longest         string // the key of the first list of hi objects
	longestN        int    // lists of hi objects
	firstKey, lastK string
}

// expr is the jq expression that yields the entries of the map at path
// as one array.
func (k *keyedItems) expr(path string) string {
	src := "to_entries[]"
	if path != "." {
		src = path + " | to_entries[]"
	}
	return fmt.Sprintf(`[%s | .key as $k | .value | if type == "array" then .[] else . end | {%s: $k} + .]`, src, k.name)
}

// eachEntryOf calls fn with the key (unquoted) and the value of every
// member of map collection c, read off its text when it is a slice of the
// input, else through c.Each ({"key": value}).
func eachEntryOf(in Input, c Collection, fn func(key string, val []byte) error) error {
	if within(in.Data, c.Text) {
		s := jscan{d: c.Text}
		var err error
		s.members(func(name string, val []byte) {
			if err == nil {
				err = fn(name, val)
			}
		})
		return err
	}
	if c.Each == nil {
		return errStop
	}
	return c.Each(func(_ int, raw []byte) error {
		s := jscan{d: raw}
		var err error
		n := 0
		s.members(func(name string, val []byte) {
			n++
			if err == nil {
				err = fn(name, val)
			}
		})
		if n != 1 && err == nil {
			err = errStop
		}
		return err
	})
}

// keyedEntries reports whether map collection c holds records and lists
// of records only (both), with at least minItemRecords records in all,
// and what it holds; ok is false otherwise.
func keyedEntries(in Input, c Collection) (k keyedItems, ok bool) {
	return keyedEntriesOf(in, c, false)
}

// keyedEntriesOf is keyedEntries; listsOnly accepts a map whose values
// are all lists of records (siblingLists: radon cc -j's files).
func keyedEntriesOf(in Input, c Collection, listsOnly bool) (k keyedItems, ok bool) {
	if !c.RecordLists || in.Format != "json" || c.Kind != "map" || c.Count < 2 || c.Each == nil && !within(in.Data, c.Text) {
		return k, false
	}
	has := map[string]bool{}
	names := func(obj []byte) bool {
		s := jscan{d: obj}
		return s.eachMember(func(name string) {
			if name == "name" || name == "key" || name == "_key" {
				has[name] = true
			}
		})
	}
	i := 0
	err := eachEntryOf(in, c, func(key string, val []byte) error {
		if i == 0 {
			k.firstKey = key
		}
		k.lastK = key
		i++
		switch val[0] {
		case '{':
			k.objects++
			k.items++
			if !names(val) {
				return errStop
			}
		case '[':
			k.lists++
			n := 0
			good := true
			s := jscan{d: val}
			s.elements(func(el []byte) {
				n++
				if len(el) == 0 || el[0] != '{' || !names(el) {
					good = false
				}
			})
			if !good {
				return errStop
			}
			if k.lists == 1 || n < k.lo {
				k.lo = n
			}
			switch {
			case k.lists == 1 || n > k.hi:
				k.hi, k.longest, k.longestN = n, key, 1
			case n == k.hi:
				k.longestN++
			}
			k.items += n
		default:
			return errStop
		}
		return nil
	})
	if err != nil || i != c.Count || k.objects == 0 && !listsOnly || k.lists == 0 || k.items < minItemRecords {
		return k, false
	}
	for _, n := range []string{"name", "key", "_key"} {
		if !has[n] {
			k.name = n
			return k, true
		}
	}
	return k, false
}

// keyedRecord is the object obj with the member name: key first.
func keyedRecord(buf []byte, name, key string, obj []byte) []byte {
	buf = append(buf[:0], '{')
	buf = append(buf, jsonQuote(name)...)
	buf = append(buf, ':')
	buf = append(buf, jsonQuote(key)...)
	s := jscan{d: obj}
	s.ws()
	s.pos++ // '{'
	s.ws()
	if s.peek() != '}' {
		buf = append(buf, ',')
		buf = append(buf, obj[s.pos:]...)
	} else {
		buf = append(buf, '}')
	}
	return buf
}

// addKeyedItems adds map collection ci of in, when its values are
// records and lists of records (keyedEntries), as a line stating its
// keys and lists, then its entries, each with its key, as a collection
// of their own. ok is false when it is no such map.
func addKeyedItems(v *View, in Input, ci int) (bool, error) {
	c := in.Collections[ci]
	k, ok := keyedEntries(in, c)
	if !ok {
		return false, nil
	}
	return true, addKeyedItemsOf(v, in, c, k, 10+ci)
}

// addKeyedItemsOf adds map c, whose values keyedEntriesOf read as k,
// with its section at order.
func addKeyedItemsOf(v *View, in Input, c Collection, k keyedItems, order int) error {
	path := k.expr(c.Path)
	each := func(fn func(i int, raw []byte) error) error {
		// In the order of the keys, the order jq's to_entries gives
		// (gojq sorts an object's keys): the positions the view states
		// are those of the expression as a query runs it (radon's files
		// come unsorted).
		type entry struct {
			key string
			val []byte
		}
		var ents []entry
		if err := eachEntryOf(in, c, func(key string, val []byte) error {
			if !within(in.Data, val) {
				val = slices.Clone(val)
			}
			ents = append(ents, entry{key, val})
			return nil
		}); err != nil {
			return err
		}
		sort.SliceStable(ents, func(a, b int) bool { return ents[a].key < ents[b].key })
		j := 0
		var buf []byte
		for _, e := range ents {
			key, val := e.key, e.val
			var err error
			one := func(obj []byte) {
				if err == nil {
					buf = keyedRecord(buf, k.name, key, obj)
					err = fn(j, append([]byte(nil), buf...))
				}
				j++
			}
			if val[0] == '[' {
				s := jscan{d: val}
				s.elements(one)
			} else {
				one(val)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	items := Collection{Path: path, Kind: "array", Count: k.items, Each: each}
	longest := mapKeyLabel(k.longest)
	if k.longestN > 1 {
		longest += fmt.Sprintf(" and %s more", commas(k.longestN-1))
	}
	v.AddSection(&Section{Coll: c.Path, Order: order, Head: func([]Candidate) string {
		if k.objects == 0 {
			return fmt.Sprintf("collection %s (map): %s, the first %s, the last %s; each value a list of objects (%s lists of %s-%s, the longest %s): the %s objects in all, each with its key as %s, are the collection %s below\n",
				c.Path, plural(c.Count, "key"), mapKeyLabel(k.firstKey), mapKeyLabel(k.lastK), commas(k.lists),
				commas(k.lo), commas(k.hi), longest, commas(k.items), k.name, path)
		}
		return fmt.Sprintf("collection %s (map): %s, the first %s, the last %s; each value an object (%s) or a list of objects (%s lists of %s-%s, the longest %s): the %s objects in all, each with its key as %s, are the collection %s below\n",
			c.Path, plural(c.Count, "key"), mapKeyLabel(k.firstKey), mapKeyLabel(k.lastK), commas(k.objects), commas(k.lists),
			commas(k.lo), commas(k.hi), longest, commas(k.items), k.name, path)
	}})
	in.Collections = append(in.Collections[:len(in.Collections):len(in.Collections)], items)
	v.items = append(v.items, Items{Path: items.Path, Kind: items.Kind, Of: c.Path, Count: items.Count})
	// The key names its entries, though a key with a list names several
	// (a lookup by it yields them all).
	in.Identity = append([]string{k.name}, in.Identity...)
	return addRecords(v, in, len(in.Collections)-1)
}

// Records that each hold one list of objects that is most of their text
// (gtest's JSON report: test suites, each {name, tests, failures, ...,
// "testsuite": [its tests]}; an eslint report: files, each with its
// "messages"): the questions are about the items (the line of a test,
// the suite of a test, how many tests of a file), which a row of the
// record cuts at four. The items are a collection of their own, path
// PATH[].MEMBER (".testsuites[].testsuite", so ".testsuites[].testsuite[]"
// in a query), shown after the records, which keep their section (a
// suite's counts are facts asked for too).

const (
	// nestedScreen is how many first records are looked at before the
	// whole collection is read for its nested list.
	nestedScreen = 8
	// maxHeaderMembers is the most members a record holding a nested
	// list may have (a header: a name and its counts).
	maxHeaderMembers = 12
)

// nestedList returns the member of c's records that holds their items:
// c has more than maxNestedRecords records (fewer list their lists
// whole, addNestedLists), every record is an object of at most
// maxHeaderMembers members, one of
// which (the same in all) is a list of objects (or empty), the only
// list of objects of the first records; the lists hold at least twice
// as many items as there are records, minItemRecords or more, and at
// least half of the records' text. ok is false otherwise.
func nestedList(in Input, c Collection) (member string, items, lo, hi int, ok bool) {
	if in.Format != "json" && in.Format != "jsonl" && in.Format != "concat" || c.Kind == "map" || c.Kind == "lines" ||
		c.Count <= maxNestedRecords || c.Each == nil && !within(in.Data, c.Text) {
		// (a few records list their lists whole: nested.go)
		return "", 0, 0, 0, false
	}
	// The first records: the member, cheaply (most collections have
	// none: their records are no headers of one big list).
	screened := 0
	firstRecords(in, c, nestedScreen, func(raw []byte) bool {
		m, lists, n, size := "", 0, 0, 0
		s := jscan{d: raw}
		good := s.members(func(name string, val []byte) {
			n++
			if len(val) > 1 && val[0] == '[' && leadsWithObject(val) {
				lists++
				m, size = name, len(val)
			}
		})
		if !good || n > maxHeaderMembers || lists > 1 || lists == 1 && (member != "" && m != member || size*2 < len(raw)) {
			member, screened = "", -1
			return false
		}
		if lists == 1 {
			member = m
		}
		screened++
		return true
	})
	if screened <= 0 || member == "" {
		return "", 0, 0, 0, false
	}
	total, listBytes, recBytes, first := 0, 0, 0, true
	err := eachRaw(in, c, func(_ int, raw []byte) error {
		var list []byte
		n := 0
		s := jscan{d: raw}
		if !s.members(func(name string, val []byte) {
			n++
			if name == member {
				list = val
			}
		}) || n > maxHeaderMembers || list == nil {
			return errStop
		}
		k := 0
		objects := true
		e := jscan{d: list}
		if !e.elements(func(el []byte) {
			k++
			objects = objects && len(el) > 0 && el[0] == '{'
		}) || !objects {
			return errStop
		}
		if first || k < lo {
			lo = k
		}
		if first || k > hi {
			hi = k
		}
		first = false
		total += k
		listBytes += len(list)
		recBytes += len(raw)
		return nil
	})
	if err != nil || total < minItemRecords || total < 2*c.Count || listBytes*2 < recBytes {
		return "", 0, 0, 0, false
	}
	return member, total, lo, hi, true
}

// leadsWithObject reports whether the list val (at its '[') has an
// object first.
func leadsWithObject(val []byte) bool {
	s := jscan{d: val, pos: 1}
	s.ws()
	return s.peek() == '{'
}

// nestedColl is a nested list found in a collection's records.
type nestedColl struct {
	member        string
	total, lo, hi int
}

// findNested returns the nested list of collection ci's records
// (nestedList), or nil, and marks the collection (Collection.inner) so
// that its records' section leaves the items' fields to the items'.
// in.Collections is copied when it is marked.
func findNested(in *Input, ci int) *nestedColl {
	member, total, lo, hi, ok := nestedList(*in, in.Collections[ci])
	if !ok {
		return nil
	}
	in.Collections = append([]Collection(nil), in.Collections...)
	in.Collections[ci].inner = member + "[]"
	if !plainName(member) {
		in.Collections[ci].inner = jsonQuote(member) + "[]"
	}
	return &nestedColl{member: member, total: total, lo: lo, hi: hi}
}

// addNestedItems adds, after collection ci of in, the items of the list
// its records hold (nc, findNested) as a collection of their own, with a
// line saying where they come from.
func addNestedItems(v *View, in Input, ci int, nc *nestedColl) error {
	if nc == nil {
		return nil
	}
	c := in.Collections[ci]
	member, total, lo, hi := nc.member, nc.total, nc.lo, nc.hi
	base := c.Path
	if c.Kind == "jsonl" || c.Kind == "concat" || c.Path == "." {
		base = "."
	}
	seg := member
	if !plainName(seg) {
		seg = "[" + jsonQuote(seg) + "]"
	} else {
		seg = "." + seg
	}
	path := base + "[]" + seg
	if base == "." {
		path = ".[]" + seg
	}
	each := func(fn func(i int, raw []byte) error) error {
		j := 0
		return eachRaw(in, c, func(_ int, raw []byte) error {
			var ferr error
			s := jscan{d: raw}
			s.members(func(name string, val []byte) {
				if name != member || ferr != nil {
					return
				}
				e := jscan{d: val}
				e.elements(func(el []byte) {
					if ferr == nil {
						ferr = fn(j, el)
					}
					j++
				})
			})
			return ferr
		})
	}
	items := Collection{Path: path, Kind: "array", Count: total, Each: each}
	v.AddSection(&Section{Coll: path, Order: 10 + len(in.Collections), Head: func([]Candidate) string {
		return fmt.Sprintf("the %s records of %s hold %s items in their %s lists (%s-%s each): the collection %s below\n",
			commas(c.Count), c.Path, commas(total), member, commas(lo), commas(hi), path)
	}})
	in.Collections = append(in.Collections[:len(in.Collections):len(in.Collections)], items)
	v.items = append(v.items, Items{Path: items.Path, Kind: items.Kind, Of: c.Path, Count: items.Count})
	return addRecords(v, in, len(in.Collections)-1)
}
