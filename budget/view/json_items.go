package view

import (
	"fmt"
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
