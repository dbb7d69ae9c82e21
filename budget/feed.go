package budget

import (
	"bytes"
	"sync/atomic"

	"github.com/toolcompact/compact/budget/view"
)

// The view's profile fed by level 1's walk.
//
// Level 2's view profiles every record of a collection (view.Build): the
// profile and what the choice of rows needs, in one pass. That pass was a
// walk of its own over the records, which level 1's shape walk
// (walkJSON) had already read: on a 10 MB output the second walk cost
// 0.16-0.33x of level 1. When the pipeline expects a view (feedFor: a
// store is configured and the input is large and far over its budget),
// level 1's walk is the fed walk instead: the same walk (walkValue,
// compiled a second time with the branches below taken: the plain walk
// pays nothing for them), the same path tree and checks, and, for the
// records of the collections it can find while it walks (a rules'
// records path holding an array or an object seen once, the root array,
// a stream of JSON Lines), the profile's events (view.FedColl). The view
// then starts from the fed profile; a collection not fed (one found only
// after the walk, one at many places) is profiled by the view's own walk
// as before. The profile reads only text the walk has checked: a value
// it reads ahead of the walk (a map's member as its record, a list it
// may read as pairs) is checked first. Either way the view is the same,
// byte for byte (TestFedViewsSame).

// feedMinBytes is the smallest input whose collections level 1's walk
// profiles; feedOver is how many bytes per token of budget an input must
// have at least (a 10 MB output at 4,000 tokens has 2,600). Below either,
// a view, if one is needed, profiles its records itself: the walk costs
// a few milliseconds there, and an output that fits pays nothing.
var (
	feedMinBytes = 1 << 20
	feedOver     = 64
)

// fedViews counts the collections level 2's views started from a fed
// profile (tests and benchmarks read it).
var fedViews atomic.Int64

// feedPlan is what one fed walk profiles.
type feedPlan struct {
	fd *view.Feed
	// targets are the rules' records paths as segments ("." is none).
	targets [][]string
	// stream: each top-level value is a record of the root's stream
	// collection (JSON Lines, checked before the walk by linesLike).
	stream bool
	// any: the records are not known before the walk (no records
	// paths, or "." of an object): every outermost array whose first
	// item is an object is fed, as a candidate.
	any bool
	// colls are the collections fed, by their node; many marks a node
	// whose collection was met twice (records not in one text).
	colls map[*node]*view.FedColl
	many  map[*node]bool
}

// feedFor returns the plan of the fed walk for in, or nil when the
// pipeline does not expect a view of it (no store, a small input or one
// near its budget, input that is no JSON).
func (p *Pipeline) feedFor(in Input, budget int) *feedPlan {
	if p.store == nil || len(in.Data) < feedMinBytes || len(in.Data) < feedOver*budget {
		return nil
	}
	return newFeedPlan(in.Data, in.Rules, in.Args)
}

// newFeedPlan returns the plan of a fed walk of data under rules, or nil
// when nothing in it can be fed.
func newFeedPlan(data []byte, rules Rules, args []byte) *feedPlan {
	first := bytes.TrimLeft(data, " \t\r\n")
	if len(first) == 0 || first[0] != '{' && first[0] != '[' {
		return nil
	}
	pl := &feedPlan{colls: map[*node]*view.FedColl{}, many: map[*node]bool{}}
	root := len(rules.Records) == 0
	for _, r := range rules.Records {
		segs, err := parsePath(r)
		if err != nil {
			return nil
		}
		if len(segs) == 0 {
			root = true
			continue
		}
		if len(pl.targets) == 32 {
			break
		}
		pl.targets = append(pl.targets, segs)
	}
	pl.stream = root && first[0] == '{' && linesLike(data)
	switch {
	case root && first[0] == '[':
		pl.targets = append(pl.targets, nil) // the root array
	case root && !pl.stream:
		// An object: its records are found after the walk (an
		// envelope's items, arrays of objects inside, the object as a
		// map): the outermost arrays of objects are fed, each a
		// candidate; a map is not (its members would be profiled for
		// nothing when it is no map).
		pl.any = true
	}
	if !pl.stream && !pl.any && len(pl.targets) == 0 {
		return nil
	}
	pl.fd = view.NewFeed(view.Input{Data: data, Args: args, Drop: dropFunc(rules), Identity: rules.Identity})
	return pl
}

// linesLike reports whether data looks like JSON Lines: its first line
// is an object ending the line, and the next line starts another.
func linesLike(data []byte) bool {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return false
	}
	line := bytes.TrimRight(data[:i], " \t\r")
	rest := bytes.TrimLeft(data[i+1:], " \t\r\n")
	return len(line) > 0 && line[len(line)-1] == '}' && len(rest) > 0 && rest[0] == '{'
}

// fedAt is where the fed walk is at a value on the way to the records
// paths: live are the targets whose first d segments lead here; any says
// an array of objects here is a candidate collection.
type fedAt struct {
	live uint32
	d    int
	// any: every array of objects here is a candidate (feedPlan.any).
	any bool
}

// step is where the walk is at member (or "[]" element) name of the
// value at at, on the way to the records paths.
func (pl *feedPlan) step(at fedAt, name []byte) fedAt {
	next := fedAt{d: at.d + 1}
	for t, segs := range pl.targets {
		if at.live&(1<<t) != 0 && len(segs) > at.d && segs[at.d] == string(name) {
			next.live |= 1 << t
		}
	}
	return next
}

// ends reports whether a records path ends at the value at at.
func (pl *feedPlan) ends(at fedAt) bool {
	for t, segs := range pl.targets {
		if at.live&(1<<t) != 0 && len(segs) == at.d {
			return true
		}
	}
	return false
}

// coll returns the fed collection of node n, made on its first
// occurrence; a second occurrence marks it many and returns nil.
func (pl *feedPlan) coll(n *node, kind string) *view.FedColl {
	if fc := pl.colls[n]; fc != nil {
		pl.many[n] = true
		return nil
	}
	fc := pl.fd.Coll(kind)
	pl.colls[n] = fc
	return fc
}

// fedOf returns the fed profile of the collection of kind kind at node n
// of s, or nil.
func (s Shape) fedOf(n *node, kind string) *view.FedColl {
	if s.fed == nil || n == nil || s.fed.many[n] {
		return nil
	}
	fc := s.fed.colls[n]
	if fc == nil {
		return nil
	}
	switch {
	case kind == "array" && fc.Kind() == "array", kind == "map" && fc.Kind() == "map",
		(kind == FormatJSONL || kind == FormatConcat) && fc.Kind() == "stream":
		return fc
	}
	return nil
}

// seekField and seekColl stand for the field of a container and the
// collection of the fed walk outside the records of any collection: no
// profile's, and never a node's (node.fedBy).
var (
	seekField = new(view.Field)
	seekColl  = new(view.FedColl)
)

// seekKid returns the field of a value on the way to the records paths,
// at w.pos: seekField for an object or an array, nil for a scalar (not
// fed).
func (w *walker) seekKid() *view.Field {
	if c := w.peek(); c == '{' || c == '[' {
		return seekField
	}
	return nil
}

// open is how the fed walk goes through the container at w.pos, which
// starts with c ('{' or '['), at node n: walkFed in a record (f is its
// field; the profile reads ahead in some values: checked first),
// walkSeek on the way to the records paths (n.seekAt: where), walkRecords
// at a collection fed from now on (w.fc), walkPlain when it feeds
// nothing (on no records path; a collection met before; a value the
// profile read itself: an object keyed "0".."n-1", a list of pairs).
func (w *walker) open(n *node, c byte, depth int, f *view.Field) (int, error) {
	if f != seekField {
		fc := w.fc
		if fc.Looks(f, c) {
			if err := w.check(depth); err != nil {
				return walkPlain, err
			}
		}
		if c == '{' && !fc.Object(f, w.pos) || c == '[' && !fc.Array(f, w.pos) {
			return walkPlain, nil
		}
		return walkFed, nil
	}
	at := w.at
	if at.live == 0 && !at.any {
		return walkPlain, nil
	}
	kind := ""
	switch {
	case at.any && c == '[' && w.objectsFirst():
		kind = "array" // a candidate: an outermost array of objects
	case w.plan.ends(at) && c == '[':
		kind = "array"
	case w.plan.ends(at):
		kind = "map"
	default:
		n.seekAt = at
		return walkSeek, nil
	}
	if fc := w.plan.coll(n, kind); fc != nil {
		w.fc = fc
		return walkRecords, nil
	}
	return walkPlain, nil
}

// elem returns the field of the items of an array of node n walked in
// mode (not walkPlain) before the first: in a record, the field of f's
// items (nil: not profiled); else nil (each item's own: seekKid, or a
// record's begun).
func (w *walker) elem(mode int, n *node, f *view.Field) *view.Field {
	if mode == walkFed {
		return w.fc.Elem(f)
	}
	return nil
}

// member is what the fed walk does at the member (at node child) of an
// object of node n walked in mode, whose name (esc: it holds an escape)
// starts at offset ns, before its value (at w.pos): it returns the
// profile's field of the value, nil when not profiled. walkFed: the
// field of the member of f (prev is the field of the member before),
// kept on its node. walkSeek: seekKid, and where the member is on the
// way to the records paths (w.at). walkRecords: the member begins a
// record of the map w.fc (the record before ends), whose value the
// profile reads before the walk reaches it (checked first; a value that
// does not check is not profiled, and the walk fails at it). (A member
// whose value is a scalar is none of walkRecords': scalarEntry.)
func (w *walker) member(mode int, n, child *node, f, prev *view.Field, ns int, name []byte, esc bool, depth int) *view.Field {
	fc := w.fc
	// The name as written, with its quotes.
	quoted := w.d[ns : ns+len(name)+2]
	if esc {
		t := scanner{d: w.d, pos: ns}
		t.str()
		quoted = w.d[ns:t.pos]
	}
	switch mode {
	case walkFed:
		kid := fc.Member(f, prev, quoted, esc)
		if kid != nil && !n.folded {
			child.fedF, child.fedBy = kid, fc
		}
		return kid
	case walkSeek:
		var kat fedAt
		if !n.folded {
			kat = w.plan.step(n.seekAt, name)
		}
		kat.any = n.seekAt.any
		w.at = kat
		return w.seekKid()
	}
	// The profile reads the value first: checked first.
	t := w.scanner
	if t.skip(depth+1) != nil {
		return nil // (the walk fails there)
	}
	return fc.BeginMember(ns, quoted, w.pos, t.pos)
}

// scalarRecord walks the scalar value at w.pos, which starts with c, into
// node el as walkValue does, as the next record of the array w.fc: one
// event (FedColl.ScalarRecord) for what Begin, Scalar and End do.
func (w *walker) scalarRecord(el *node, c byte) error {
	start := w.pos
	if err := w.scalar(c); err != nil {
		return err
	}
	raw := w.d[start:w.pos]
	el.noteValue(kindBits[c], raw)
	w.fc.ScalarRecord(start, raw)
	return nil
}

// scalarEntry walks the scalar value at w.pos into node child as
// walkValue does, as the next record of the map w.fc: the member whose
// name (name: unquoted) starts at offset ns (esc: it holds an escape). It is member (of
// walkRecords, for a scalar) and scalarMember in one: one event
// (FedColl.ScalarEntry).
func (w *walker) scalarEntry(child *node, ns int, name []byte, esc bool) error {
	// The name as written, with its quotes (as member).
	quoted := w.d[ns : ns+len(name)+2]
	if esc {
		t := scanner{d: w.d, pos: ns}
		t.str()
		quoted = w.d[ns:t.pos]
	}
	c := w.peek()
	start := w.pos
	if err := w.scalar(c); err != nil {
		return err
	}
	raw := w.d[start:w.pos]
	child.noteValue(kindBits[c], raw)
	w.fc.ScalarEntry(ns, quoted, esc, raw)
	return nil
}

// check checks the value at w.pos (valid JSON, as value would find it)
// without moving: for the profile, which reads some values ahead of the
// walk (FedColl.Looks) and reads valid JSON only.
func (w *walker) check(depth int) error {
	t := w.scanner
	return t.skip(depth)
}

// objectsFirst reports whether the array at w.pos starts with an object.
func (w *walker) objectsFirst() bool {
	i := w.pos + 1
	for i < len(w.d) && isSpace(w.d[i]) {
		i++
	}
	return i < len(w.d) && w.d[i] == '{'
}
