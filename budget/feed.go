package budget

import (
	"bytes"
	"fmt"
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
// level 1's walk is the fed walk below instead: the same path tree, the
// same checks, and, for the records of the collections it can find while
// it walks (a rules' records path holding an array or an object seen
// once, the root array, a stream of JSON Lines), the profile's events
// (view.FedColl). The view then starts from the fed profile; a
// collection not fed (one found only after the walk, one at many places)
// is profiled by the view's own walk as before. The profile reads only
// text the walk has checked: a value it reads ahead of the walk (a map's
// member as its record, a list it may read as pairs) is checked first. Either way the view is the same, byte for byte
// (TestFedViewsSame).

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

// objectDone notes an object value of n (text raw) of count members,
// the kind of the first and the kinds of all, uniform when all of one
// kind: as walker.value does.
func (n *node) objectDone(count int, kind, kinds uint8, uniform bool, raw []byte) {
	n.members += count
	if kinds&(kObject|kArray) == 0 && count >= minScalarMap && (!uniform || kind&(kString|kNumber) == 0) {
		kind, uniform = kScalars, true
	}
	if !uniform || count < minMapMembers || kind&(kObject|kString|kNumber|kArray) == 0 ||
		(n.mapKind != 0 && n.mapKind != kind) {
		n.notMap = true
	}
	n.mapKind = kind
	n.noteValue('{', raw)
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

// walkJSONFed is walkJSON that also feeds plan's collections.
func walkJSONFed(data []byte, plan *feedPlan) (root *node, values int, oneLine bool, err error) {
	w := &walker{scanner: scanner{d: data}, plan: plan}
	root = newNode("", nil)
	oneLine = true
	lastEnd := 0
	var stream *view.FedColl
	if plan.stream {
		stream = plan.coll(root, "stream")
	}
	all := fedAt{live: uint32(1)<<len(plan.targets) - 1, any: plan.any}
	for {
		c := w.peek()
		if c == 0 {
			break
		}
		start := w.pos
		if values > 0 && !bytesHasNewline(data[lastEnd:start]) {
			oneLine = false
		}
		if stream != nil {
			w.fc = stream
			err = w.fed(root, 0, stream.Begin(start))
			stream.End(w.pos)
		} else {
			err = w.seek(root, 0, all)
		}
		if err != nil {
			return nil, 0, false, err
		}
		if bytesHasNewline(data[start:w.pos]) {
			oneLine = false
		}
		if err := w.endOfValue(data[w.pos-1]); err != nil {
			return nil, 0, false, err
		}
		values++
		lastEnd = w.pos
	}
	if values == 0 {
		return nil, 0, false, errNoValue
	}
	root.lone = w.lone
	return root, values, oneLine, nil
}

// seek is walker.value (keep them in step: TestFedTreeSame) on the way
// to the records paths: at the array of one, each element is a record
// (records); a value on no records path is walked by value.
func (w *walker) seek(n *node, depth int, at fedAt) error {
	if at.live == 0 && !at.any {
		return w.value(n, depth)
	}
	c := w.peek()
	if at.any && c == '[' && w.objectsFirst() {
		if fc := w.plan.coll(n, "array"); fc != nil {
			w.fc = fc
			return w.records(n, depth)
		}
		return w.value(n, depth)
	}
	if w.plan.ends(at) {
		switch c {
		case '[':
			if fc := w.plan.coll(n, "array"); fc != nil {
				w.fc = fc
				return w.records(n, depth)
			}
		case '{':
			if fc := w.plan.coll(n, "map"); fc != nil {
				w.fc = fc
				return w.members(n, depth)
			}
		}
		return w.value(n, depth)
	}
	start := w.pos
	switch c {
	case '{':
		if depth >= maxDepth {
			return fmt.Errorf("JSON %w at byte %d (more than %d levels)", errDepth, start, maxDepth)
		}
		w.pos++
		count := 0
		var kind, kinds uint8
		uniform := true
		if w.peek() == '}' {
			w.pos++
		} else {
			for {
				if w.peek() != '"' {
					return w.fail("want a member name")
				}
				ns := w.pos
				esc, err := w.str()
				if err != nil {
					return err
				}
				name := w.d[ns+1 : w.pos-1]
				if esc {
					name = unquoteName(w.d[ns:w.pos])
				}
				if w.peek() != ':' {
					return w.fail("want ':'")
				}
				w.pos++
				child := n.child(name, count)
				var kat fedAt
				if !n.folded {
					kat = w.plan.step(at, name)
				}
				kat.any = at.any
				kb := kindBit(kindOf(w.peek()))
				kinds |= kb
				if count == 0 {
					kind = kb
				} else if kind != kb {
					uniform = false
				}
				count++
				if err := w.seek(child, depth+1, kat); err != nil {
					return err
				}
				more, err := w.next('}')
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
		}
		n.objectDone(count, kind, kinds, uniform, w.d[start:w.pos])
		return nil
	case '[':
		if depth >= maxDepth {
			return fmt.Errorf("JSON %w at byte %d (more than %d levels)", errDepth, start, maxDepth)
		}
		w.pos++
		count := 0
		if w.peek() == ']' {
			w.pos++
		} else {
			el := n.elemNode()
			if c := w.peek(); (c == '{' || c == '[') && n.parent != nil && n.parent.folded && n.parent.elem == n {
				n.leadsOpen = true
			}
			eat := w.plan.step(at, []byte("[]"))
			for {
				count++
				if err := w.seek(el, depth+1, eat); err != nil {
					return err
				}
				more, err := w.next(']')
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
		}
		n.elems += count
		n.noteValue('[', w.d[start:w.pos])
		return nil
	}
	if err := w.scalar(c); err != nil {
		return err
	}
	n.noteValue(kindOf(c), w.d[start:w.pos])
	return nil
}

// fed is walker.value (keep them in step: TestFedTreeSame) in a record
// of w.fc: every value of field f is also the profile's event (Object,
// Member, ObjectEnd; Array, Elem, ArrayEnd; Scalar). A member's field is
// kept on its node once found (a node's values are those of one field of
// the profile, but under an object whose members share one node).
func (w *walker) fed(n *node, depth int, f *view.Field) error {
	fc := w.fc
	c := w.peek()
	start := w.pos
	switch c {
	case '{':
		if depth >= maxDepth {
			return fmt.Errorf("JSON %w at byte %d (more than %d levels)", errDepth, start, maxDepth)
		}
		if fc.Looks(f, c) {
			if err := w.check(depth); err != nil {
				return err
			}
		}
		if !fc.Object(f, start) {
			// The profile read it itself (an object read as a list).
			return w.value(n, depth)
		}
		w.pos++
		count := 0
		var kind, kinds uint8
		uniform := true
		var prev *view.Field
		if w.peek() == '}' {
			w.pos++
		} else {
			for {
				if w.peek() != '"' {
					return w.fail("want a member name")
				}
				ns := w.pos
				esc, err := w.str()
				if err != nil {
					return err
				}
				quoted := w.d[ns:w.pos]
				name := quoted[1 : len(quoted)-1]
				if esc {
					name = unquoteName(quoted)
				}
				if w.peek() != ':' {
					return w.fail("want ':'")
				}
				w.pos++
				child := n.child(name, count)
				kid := child.fedF
				if child.fedBy != fc || n.folded {
					kid = fc.Member(f, prev, quoted, esc)
					if kid != nil && !n.folded {
						child.fedF, child.fedBy = kid, fc
					}
				}
				prev = kid
				kb := kindBit(kindOf(w.peek()))
				kinds |= kb
				if count == 0 {
					kind = kb
				} else if kind != kb {
					uniform = false
				}
				count++
				if kid == nil {
					err = w.value(child, depth+1)
				} else {
					err = w.fed(child, depth+1, kid)
				}
				if err != nil {
					return err
				}
				more, err := w.next('}')
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
		}
		n.objectDone(count, kind, kinds, uniform, w.d[start:w.pos])
		fc.ObjectEnd(f, count)
		return nil
	case '[':
		if depth >= maxDepth {
			return fmt.Errorf("JSON %w at byte %d (more than %d levels)", errDepth, start, maxDepth)
		}
		if fc.Looks(f, c) {
			if err := w.check(depth); err != nil {
				return err
			}
		}
		if !fc.Array(f, start) {
			// The profile read it itself (a list of name/value pairs).
			return w.value(n, depth)
		}
		w.pos++
		count := 0
		if w.peek() == ']' {
			w.pos++
		} else {
			el := n.elemNode()
			if c := w.peek(); (c == '{' || c == '[') && n.parent != nil && n.parent.folded && n.parent.elem == n {
				n.leadsOpen = true
			}
			ef := fc.Elem(f)
			for {
				count++
				var err error
				if ef == nil {
					err = w.value(el, depth+1)
				} else {
					err = w.fed(el, depth+1, ef)
				}
				if err != nil {
					return err
				}
				more, err := w.next(']')
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
		}
		n.elems += count
		n.noteValue('[', w.d[start:w.pos])
		fc.ArrayEnd(f, count)
		return nil
	}
	if err := w.scalar(c); err != nil {
		return err
	}
	raw := w.d[start:w.pos]
	n.noteValue(kindOf(c), raw)
	fc.Scalar(f, raw)
	return nil
}

// records is the '[' branch of value for the array at a records path:
// each element is a record of w.fc.
func (w *walker) records(n *node, depth int) error {
	fc := w.fc
	start := w.pos
	if depth >= maxDepth {
		return fmt.Errorf("JSON %w at byte %d (more than %d levels)", errDepth, start, maxDepth)
	}
	w.pos++
	count := 0
	if w.peek() == ']' {
		w.pos++
	} else {
		el := n.elemNode()
		if c := w.peek(); (c == '{' || c == '[') && n.parent != nil && n.parent.folded && n.parent.elem == n {
			n.leadsOpen = true
		}
		for {
			count++
			w.peek()
			f := fc.Begin(w.pos)
			if err := w.fed(el, depth+1, f); err != nil {
				return err
			}
			fc.End(w.pos)
			more, err := w.next(']')
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
	}
	n.elems += count
	n.noteValue('[', w.d[start:w.pos])
	return nil
}

// members is the '{' branch of value for the object at a records path (a
// map): each member is a record of w.fc.
func (w *walker) members(n *node, depth int) error {
	fc := w.fc
	start := w.pos
	if depth >= maxDepth {
		return fmt.Errorf("JSON %w at byte %d (more than %d levels)", errDepth, start, maxDepth)
	}
	w.pos++
	count := 0
	var kind, kinds uint8
	uniform := true
	if w.peek() == '}' {
		w.pos++
	} else {
		for {
			if w.peek() != '"' {
				return w.fail("want a member name")
			}
			ns := w.pos
			esc, err := w.str()
			if err != nil {
				return err
			}
			quoted := w.d[ns:w.pos]
			name := quoted[1 : len(quoted)-1]
			if esc {
				name = unquoteName(quoted)
			}
			if w.peek() != ':' {
				return w.fail("want ':'")
			}
			w.pos++
			child := n.child(name, count)
			kb := kindBit(kindOf(w.peek()))
			kinds |= kb
			if count == 0 {
				kind = kb
			} else if kind != kb {
				uniform = false
			}
			count++
			if c := w.peek(); c != '{' && c != '[' {
				// A scalar: walked first, then profiled (as fed).
				vs := w.pos
				if err := w.scalar(c); err != nil {
					return err
				}
				raw := w.d[vs:w.pos]
				child.noteValue(kindOf(c), raw)
				fc.Scalar(fc.BeginMember(ns, quoted, vs, w.pos), raw)
			} else {
				// The record's text is read before the walk reaches
				// it: checked first.
				t := w.scanner
				if err := t.skip(depth + 1); err != nil {
					return err
				}
				if err := w.fed(child, depth+1, fc.BeginMember(ns, quoted, w.pos, t.pos)); err != nil {
					return err
				}
			}
			fc.End(w.pos)
			more, err := w.next('}')
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
	}
	n.objectDone(count, kind, kinds, uniform, w.d[start:w.pos])
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
