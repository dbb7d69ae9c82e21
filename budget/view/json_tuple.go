package view

import (
	"fmt"
	"sort"
	"strings"
)

// A map of tuples: name -> a list that leads with a scalar, whose items
// mean something by their position. A linter's resolved rules are the
// model ("no-unused-vars": ["error", {"vars": "all"}], "eqeqeq": ["off"]):
// the first item is a state (error, off, warn), the later ones options.
// Counted over the merged items ("[]"), the states drown among the
// options' strings and nothing says how many rules are off; read by
// position, the view states what is asked:
//
//	lists by length     1 item 176, 2 items 120, 3 items 25, ...
//	[0] the first item  its values with their counts (error 236, off 86,
//	                    warn 4), and the keys of each rare value
//	                    ("warn (4): func-names, max-len, ...")
//	[1], [2], later     in how many lists, their items by type, strings
//	                    and numbers by value, objects by member names
//
// The counts are gathered in the profile's one pass (the tracker hands
// each record to add) and are exact; each table is capped (maxValues
// values or names, tupleKeys keys per value), past which it says so.

const (
	// tuplePos is how many positions get a line of their own; the items
	// past them share one ("[3] and later").
	tuplePos = 3
	// tupleKeys is how many keys a value of the first item names.
	tupleKeys = 12
	// tupleRare is the most records a value of the first item may have
	// for its keys to be listed.
	tupleRare = 12
)

// ordinals name the positions that have a line of their own.
var ordinals = [tuplePos]string{"first", "second", "third"}

// tupleMap gathers the lists of a map while every value is a list that
// leads with a scalar (or is empty).
type tupleMap struct {
	off          bool
	lists, empty int
	// mixed: a later item is an object or an array, or of another type
	// than the first items: the positions mean different things.
	mixed bool
	lens  map[int]int
	// lensOver: more than maxValues lengths (lens is nil).
	lensOver bool
	pos      [tuplePos + 1]tuplePosStat
}

// tuplePosStat is what one position holds over every list.
type tuplePosStat struct {
	lists, items int
	types        [6]int // by kind, in typeNames' order
	vals         map[string]*tupleVal
	valsOver     bool
	order        int // the order values are first seen
	objects      int
	names        map[string]int
	namesOver    bool
	nums         int
	min, max     float64
}

// tupleVal is one scalar value at a position: its count, the keys of the
// first lists holding it, and when it was first seen.
type tupleVal struct {
	n, first int
	keys     []string
}

// add adds the map's record of the member whose name is keyRaw
// (quoted) and whose value is val (its JSON text).
func (m *tupleMap) add(keyRaw, val []byte) {
	if m.off {
		return
	}
	s := jscan{d: val}
	if s.peek() != '[' {
		m.off = true
		return
	}
	m.lists++
	n := 0
	firstKind := -1
	s.elements(func(val []byte) {
		if len(val) == 0 {
			return
		}
		k := kindIndex(val[0])
		if n == 0 {
			if k >= 4 { // an object or an array first: not a tuple
				m.off = true
			}
			firstKind = k
		} else if k >= 4 || k != firstKind {
			m.mixed = true
		}
		at := min(n, tuplePos)
		m.pos[at].addItem(val, k, n < tuplePos, keyRaw)
		n++
	})
	if n == 0 {
		m.empty++
	}
	if !m.lensOver {
		if m.lens == nil {
			m.lens = map[int]int{}
		}
		if _, ok := m.lens[n]; !ok && len(m.lens) >= maxValues {
			m.lensOver, m.lens = true, nil
		} else {
			m.lens[n]++
		}
	}
}

// kindIndex is the index in typeNames of the value starting with c.
func kindIndex(c byte) int {
	switch c {
	case '"':
		return 0
	case 'n':
		return 3
	case 't', 'f':
		return 2
	case '{':
		return 4
	case '[':
		return 5
	}
	return 1
}

// addItem counts item val (of kind k) of one list at this position;
// own says the position is the list's own (not the shared "later" one,
// whose lists are counted from the lengths).
func (ps *tuplePosStat) addItem(val []byte, k int, own bool, keyRaw []byte) {
	if own {
		ps.lists++
	}
	ps.items++
	ps.types[k]++
	switch k {
	case 4:
		ps.objects++
		s := jscan{d: val}
		s.eachMemberName(func(name []byte) {
			if ps.namesOver {
				return
			}
			if ps.names == nil {
				ps.names = map[string]int{}
			}
			if _, ok := ps.names[string(name)]; !ok && len(ps.names) >= maxValues {
				ps.namesOver = true
				return
			}
			ps.names[string(name)]++
		})
		return
	case 5:
		return
	case 1:
		var x float64
		if _, err := fmt.Sscan(string(val), &x); err == nil {
			if ps.nums == 0 || x < ps.min {
				ps.min = x
			}
			if ps.nums == 0 || x > ps.max {
				ps.max = x
			}
			ps.nums++
		}
	}
	if ps.valsOver {
		return
	}
	if ps.vals == nil {
		ps.vals = map[string]*tupleVal{}
	}
	tv := ps.vals[string(val)]
	if tv == nil {
		if len(ps.vals) >= maxValues {
			ps.valsOver, ps.vals = true, nil
			return
		}
		tv = &tupleVal{first: ps.order}
		ps.order++
		ps.vals[string(val)] = tv
	}
	tv.n++
	if len(tv.keys) < tupleKeys {
		tv.keys = append(tv.keys, unquote(keyRaw))
	}
}

// usable reports whether the map's values are tuples worth reading by
// position: every one a list leading with a scalar, and some later item
// of another kind (options after a state).
func (m *tupleMap) usable() bool {
	return m != nil && !m.off && m.mixed && m.lists > m.empty
}

// lines are the profile lines of the map's lists read by position.
func (m *tupleMap) lines() []string {
	var out []string
	var b strings.Builder
	if m.lens != nil {
		b.WriteString("  each value is a list, read by position below; lists by their number of items: ")
		ls := make([]int, 0, len(m.lens))
		for l := range m.lens {
			ls = append(ls, l)
		}
		sort.Ints(ls)
		for i, l := range ls {
			if i > 0 {
				b.WriteString(", ")
			}
			unit := "items"
			if l == 1 {
				unit = "item"
			}
			fmt.Fprintf(&b, "%s %s %s", commas(l), unit, commas(m.lens[l]))
		}
		out = append(out, b.String())
	}
	// Lists having an item past position i: from the lengths.
	longer := func(i int) int {
		n := 0
		for l, c := range m.lens {
			if l > i {
				n += c
			}
		}
		return n
	}
	for i := 0; i <= tuplePos; i++ {
		ps := &m.pos[i]
		if ps.items == 0 {
			break
		}
		b.Reset()
		var label string
		if i < tuplePos {
			label = fmt.Sprintf("[%d] the %s item", i, ordinals[i])
		} else {
			label = fmt.Sprintf("[%d] and later items", i)
		}
		has := ps.lists
		if i == tuplePos {
			has = -1
			if m.lens != nil {
				has = longer(i)
			}
		}
		fmt.Fprintf(&b, "  %s (", label)
		var ts []keyCount
		for k, n := range ps.types {
			if n > 0 {
				ts = append(ts, keyCount{typeNames[k], n})
			}
		}
		sort.SliceStable(ts, func(a, c int) bool { return ts[a].n > ts[c].n })
		if len(ts) == 1 {
			b.WriteString(ts[0].k)
			b.WriteString(", ")
		}
		if has >= 0 {
			fmt.Fprintf(&b, "in %s of %s lists", commas(has), commas(m.lists))
		}
		if ps.items > has && has >= 0 || has < 0 {
			fmt.Fprintf(&b, ", %s items", commas(ps.items))
		}
		b.WriteString(")")
		sep := ": "
		if len(ts) > 1 {
			b.WriteString(": by type: ")
			for j, t := range ts {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s %s", t.k, commas(t.n))
			}
			sep = "; "
		}
		scalars := ps.items - ps.types[4] - ps.types[5]
		if scalars > 0 {
			m.writeValues(&b, ps, sep, i == 0, scalars)
			sep = "; "
		}
		if ps.objects > 0 && len(ps.names) > 0 {
			names, _ := byCount(ps.names)
			fmt.Fprintf(&b, "%sobjects (%s) by their member names", sep, commas(ps.objects))
			if ps.namesOver {
				fmt.Fprintf(&b, " (the first %d names counted)", maxValues)
			}
			b.WriteString(": ")
			for j, x := range names {
				if j == 16 {
					fmt.Fprintf(&b, ", … %s more", commas(len(names)-j))
					break
				}
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s %s", cell(x.k, 40), commas(x.n))
			}
		}
		out = append(out, b.String())
	}
	return out
}

// writeValues writes the scalar values of a position with their counts
// (all of them up to 24, else the most common), and for the first item
// the keys of its rare values.
func (m *tupleMap) writeValues(b *strings.Builder, ps *tuplePosStat, sep string, first bool, scalars int) {
	if ps.valsOver {
		fmt.Fprintf(b, "%sover %d distinct values", sep, maxValues)
		if ps.nums > 0 {
			fmt.Fprintf(b, "; numbers %s to %s", numExact(ps.min), numExact(ps.max))
		}
		return
	}
	type tv struct {
		raw string
		*tupleVal
	}
	vs := make([]tv, 0, len(ps.vals))
	for raw, v := range ps.vals {
		vs = append(vs, tv{raw, v})
	}
	sort.Slice(vs, func(a, c int) bool {
		if vs[a].n != vs[c].n {
			return vs[a].n > vs[c].n
		}
		return vs[a].first < vs[c].first
	})
	b.WriteString(sep)
	if !first {
		b.WriteString("values: ")
	}
	shown := len(vs)
	if shown > 24 {
		shown = 8
	}
	covered := 0
	for j, v := range vs[:shown] {
		if j > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s %s", cell(v.raw, 40), commas(v.n))
		covered += v.n
	}
	if shown < len(vs) {
		fmt.Fprintf(b, "; %s more values with %s", commas(len(vs)-shown), commas(scalars-covered))
	}
	if !first || len(vs) < 2 {
		return
	}
	// The keys holding each rare value: "warn (4): func-names, ...".
	for _, v := range vs[1:] {
		if v.n > tupleRare || v.n*4 > vs[0].n {
			continue
		}
		fmt.Fprintf(b, "; %s (%s): ", cell(v.raw, 40), commas(v.n))
		for j, k := range v.keys {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(cell(jsonQuote(k), 60))
		}
		if v.n > len(v.keys) {
			fmt.Fprintf(b, ", … %s more", commas(v.n-len(v.keys)))
		}
	}
}
