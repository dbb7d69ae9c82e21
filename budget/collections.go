package budget

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcompact/compact/budget/internal/format"
	"github.com/toolcompact/compact/budget/view"
	"github.com/toolcompact/compact/schemas"
)

// Shape formats reported by DetectShape.
const (
	FormatJSON   = "json"   // one JSON value
	FormatJSONL  = "jsonl"  // JSON values, one per line
	FormatConcat = "concat" // JSON values one after another (go list -json)
	FormatText   = "text"   // lines of text (also invalid JSON)
	FormatBinary = "binary" // bytes that are not text
	FormatEmpty  = "empty"  // nothing, or only white space
)

// Content types reported by Sniff and DetectShape.
const (
	TypeJSON   = "application/json"
	TypeNDJSON = "application/x-ndjson"
	TypeText   = "text/plain"
	TypeBinary = "application/octet-stream"
	// TypeTable is the content type of level 1's table format (see
	// docs/level1.md).
	TypeTable = "text/x-compact-table"
)

// minMapMembers is how many members an object needs, all of one kind, to
// count as a map of records (an npm document's "versions" and "time").
const minMapMembers = 8

// minScalarMap is how many members an object needs whose values are all
// scalars of mixed kinds (strings and numbers, booleans, nulls) to count
// as a map of records: a flat object of build or config variables
// (python's sysconfig, 965 of them; npm config ls --json). Fewer such
// members are a record's fields (a GitHub user object has 32), stated as
// facts.
const minScalarMap = 48

// maxNamedMembers is how many distinct member names an object path keeps
// a node each for. Past it the object's members are folded into one
// node, its elem, as jq's .[] takes the values of an object: the member
// names of so wide an object are data (an npm document's versions and
// their publication times, a lockfile's packages), and a node per name,
// each with its own subtree, made the shape walk's time and memory grow
// faster than its input (370,000 nodes for a 40 MB npm document). Every
// count stays exact: the folded node adds up its members' counts, as
// the elem of an array adds up its elements'.
var maxNamedMembers = 256

// kScalars is the mapKind of an object whose members are scalars of
// mixed kinds.
const kScalars = kString | kNumber | kBool | kNull

// Shape is what DetectShape found in a tool output.
type Shape struct {
	// Format is "json", "jsonl", "concat", "text", "binary" or "empty".
	Format string
	// ContentType is the media type that matches Format.
	ContentType string
	// Collections are the record collections, outermost first, with exact
	// counts (Shown is left 0).
	Collections []schemas.Collection

	tree  *node // the JSON path tree, for JSON formats
	data  []byte
	stats []collStats // parallel to Collections

	// LoneSurrogates counts the string escapes of a lone UTF-16
	// surrogate ("\ud800" without its pair, as Python writes one):
	// valid JSON text, which decodes to U+FFFD.
	LoneSurrogates int

	// fed holds the profiles the walk fed for the view (feed.go), nil
	// when the walk fed none.
	fed *feedPlan
}

// collStats is what level 1 needs to know about a collection beyond the
// exported schemas.Collection.
type collStats struct {
	node *node // the collection's node
	// consts are the record fields with one value in every record.
	consts []*node
}

// kind bits of the values seen at a node.
const (
	kString uint8 = 1 << iota
	kNumber
	kBool
	kNull
	kObject
	kArray
)

var kindNames = []string{"string", "number", "boolean", "null", "object", "array"}

// kindBits is the kind bit of a value by its first byte (kindBit of
// kindOf, at one load).
var kindBits = func() (t [256]uint8) {
	for c := range t {
		t[c] = kindBit(kindOf(byte(c)))
	}
	return t
}()

func kindBit(k jsontext.Kind) uint8 {
	switch k {
	case '"':
		return kString
	case '0':
		return kNumber
	case 't', 'f':
		return kBool
	case 'n':
		return kNull
	case '{':
		return kObject
	case '[':
		return kArray
	}
	return 0
}

func kindList(bits uint8) []string {
	var out []string
	for i, n := range kindNames {
		if bits&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// node is one generic path of a JSON document: object members by name,
// array elements as "[]" (all elements share one node), and, for a stream
// of top-level values, the stream's elements as the root's elem.
type node struct {
	name     string // member name; "[]" for elements; "" for the root
	parent   *node
	children map[string]*node
	order    []*node // children in first-seen order
	elem     *node
	// folded: the object's members are all at elem, whatever their
	// names (past maxNamedMembers names; see fold).
	folded bool
	// leadsOpen: on the elem of a folded object, some member's list
	// (the first of each before the fold, every one after) leads with
	// an object or an array (see tupleLists).
	leadsOpen bool

	kinds uint8
	seen  int // values seen at this node

	elems   int // array elements, summed over occurrences
	members int // object members, summed over occurrences
	lone    int // root only: lone surrogate escapes in the whole input

	notMap  bool // some occurrence is not a map of uniform values
	mapKind uint8

	first    []byte // the first value's raw text
	constant bool   // every value so far equals first

	// set after detection
	coll      int  // index of the collection this node holds, or -1
	record    int  // index of the collection whose record this node is, or -1
	protected bool // a collection or an ancestor of one: never dropped

	// fedF is the profile's field of this node's values in fed
	// collection fedBy, once found (feed.go).
	fedF  *view.Field
	fedBy *view.FedColl
	// seekAt is where the fed walk is, at this node's value, on the way
	// to the records paths (set by walker.open as it enters it).
	seekAt fedAt

	// level 1 cache (see fields.go)
	rule  *nodeRule
	ruled bool // on the root: level 1 ran on this tree
}

func newNode(name string, parent *node) *node {
	return &node{name: name, parent: parent, constant: true, coll: -1, record: -1}
}

// lookup returns the child named name, trying first the k-th child in
// first-seen order (records usually list their members in one order).
func (n *node) lookup(name []byte, k int) *node {
	if n.folded {
		return n.elem
	}
	if k < len(n.order) && n.order[k].name == string(name) {
		return n.order[k]
	}
	return n.children[string(name)]
}

func (n *node) child(name []byte, k int) *node {
	if c := n.lookup(name, k); c != nil {
		return c
	}
	if len(n.order) >= maxNamedMembers {
		n.fold()
		return n.elem
	}
	if n.children == nil {
		n.children = make(map[string]*node)
	}
	c := newNode(string(name), n)
	n.children[c.name] = c
	n.order = append(n.order, c)
	return c
}

// fold moves every member of n into its elem node: the members seen so
// far are added up there (absorb), and every later member goes there
// (lookup).
func (n *node) fold() {
	kids := n.order
	n.children, n.order, n.folded = nil, nil, true
	el := n.elemNode()
	for _, c := range kids {
		el.absorb(c)
	}
}

// absorb adds the values seen at node m (and below it) to n, as if they
// had been seen at n: counts add up, kinds and flags combine, m's
// children join n's children of the same name.
func (n *node) absorb(m *node) {
	n.kinds |= m.kinds
	n.elems += m.elems
	n.members += m.members
	if m.seen > 0 {
		switch {
		case n.seen == 0:
			n.first, n.constant = m.first, m.constant
		case n.constant && (!m.constant || !bytes.Equal(n.first, m.first)):
			n.constant = false
		}
	}
	if m.leadsOpen || m.seen > 0 && leadsOpen(m.first) {
		n.leadsOpen = true
	}
	n.seen += m.seen
	if m.notMap || m.mapKind != 0 && n.mapKind != 0 && m.mapKind != n.mapKind {
		n.notMap = true
	}
	if m.mapKind != 0 {
		n.mapKind = m.mapKind
	}
	if m.elem != nil {
		n.elemNode().absorb(m.elem)
	}
	if m.folded && !n.folded {
		n.fold()
	}
	for i, c := range m.order {
		n.child([]byte(c.name), i).absorb(c)
	}
}

// memberNodes returns the nodes of n's members: its children, or its elem
// when its members are folded.
func (n *node) memberNodes() []*node {
	if n.folded {
		return []*node{n.elem}
	}
	return n.order
}

func (n *node) elemNode() *node {
	if n.elem == nil {
		n.elem = newNode("[]", n)
	}
	return n.elem
}

// path renders the node's jq path: ".", ".items", ".data[].rows".
func (n *node) path() string {
	if n.parent == nil {
		return "."
	}
	var segs []*node
	for m := n; m.parent != nil; m = m.parent {
		segs = append(segs, m)
	}
	var b strings.Builder
	if segs[len(segs)-1].isElem() {
		b.WriteByte('.')
	}
	for i := len(segs) - 1; i >= 0; i-- {
		s := segs[i]
		if s.name == "[]" && s == s.parent.elem {
			b.WriteString("[]")
			continue
		}
		b.WriteString(pathSegment(s.name))
	}
	return b.String()
}

// pathSegment renders one member name of a jq path, quoting it when it is
// not a plain identifier.
func pathSegment(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return "." + name
	}
	return "." + strconv.Quote(name)
}

// noteValue records a complete value seen at n, of kind bit kb, with raw
// text raw.
func (n *node) noteValue(kb uint8, raw []byte) {
	n.kinds |= kb
	n.seen++
	if n.seen == 1 {
		n.first = raw
	} else if n.constant && !bytes.Equal(n.first, raw) {
		n.constant = false
	}
}

// walker builds the path tree of a JSON input. In a fed walk (feed.go)
// it also feeds the profiles of plan's collections.
type walker struct {
	scanner
	// plan is what a fed walk profiles, nil for a plain walk; fc is the
	// collection whose records the walk is in (seekColl outside them);
	// at is where the next value is on the way to the records paths,
	// read by a container outside the records (open).
	plan *feedPlan
	fc   *view.FedColl
	at   fedAt
}

// ErrDepth is wrapped when a JSON input nests deeper than the scanner
// allows; such input is treated as text.
var errDepth = errors.New("nested too deep")

// walkJSON builds the path tree of data, which holds one or more JSON
// values and must be valid UTF-8. It reports how many top-level values
// there were and whether every one of them sat on its own line. With a
// plan (not nil) it also feeds the plan's collections (feed.go).
func walkJSON(data []byte, plan *feedPlan) (root *node, values int, oneLine bool, err error) {
	w := &walker{scanner: scanner{d: data}, plan: plan}
	root = newNode("", nil)
	oneLine = true
	lastEnd := 0
	var stream *view.FedColl
	var all fedAt
	if plan != nil {
		if plan.stream {
			stream = plan.coll(root, "stream")
		}
		all = fedAt{live: uint32(1)<<len(plan.targets) - 1, any: plan.any}
	}
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
			// Each value is a record of the root's stream.
			w.fc = stream
			if f := stream.Begin(start); stream.Keeping() {
				err = walkValue[capWalk](w, root, 0, f)
			} else {
				err = walkValue[fedWalk](w, root, 0, f)
			}
			stream.End(w.pos)
		} else if plan != nil && (c == '{' || c == '[') {
			w.fc, w.at = seekColl, all
			err = walkValue[fedWalk](w, root, 0, seekField)
		} else {
			err = walkValue[plainWalk](w, root, 0, nil)
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

func bytesHasNewline(b []byte) bool { return bytes.IndexByte(b, '\n') >= 0 }

// kindOf maps a value's first byte to its kind.
func kindOf(c byte) jsontext.Kind {
	switch c {
	case '{', '[', '"', 'n', 't', 'f':
		return jsontext.Kind(c)
	}
	return '0'
}

// How the fed walk goes through an object or an array (walkValue).
const (
	walkPlain   = iota // the path tree only
	walkFed            // a value of a record: also the profile's events
	walkSeek           // on the way to the records paths (feed.go)
	walkRecords        // a fed collection: each element or member a record
)

// walkValue is compiled twice: walkValue[plainWalk], level 1's walk of
// the path tree, and walkValue[fedWalk], which also feeds the profiles
// of a plan (feed.go). In each, feeding[M]() is a constant: the plain
// walk has none of the fed walk's branches (not even a test per value),
// and both are this one text.
//
// walkValue[capWalk] is the fed walk in a record whose leaves the profile
// keeps for the index (view.FedColl.Keeping: the first records of an
// array or a stream, chosen as each begins), the only one that adds them
// (ScalarKept).
type (
	plainWalk struct{}
	fedWalk   struct{ _ byte }
	capWalk   struct{ _ [2]byte }
	walkKind  interface{ plainWalk | fedWalk | capWalk }
)

// feeding reports whether M is the fed walk (a constant once compiled:
// the kinds differ in size).
func feeding[M walkKind]() bool {
	var m M
	return unsafe.Sizeof(m) != 0
}

// keeping reports whether M is the fed walk of a record whose leaves are
// kept (capWalk).
func keeping[M walkKind]() bool {
	var m M
	return unsafe.Sizeof(m) == 2
}

// walkValue scans the value at w.pos into node n.
//
// The fed walk (M fedWalk) also feeds the profiles of w.plan: in a
// record of w.fc, f is the profile's field of the value, whose events go
// to w.fc (walker.open; for an object, the field of each member, found
// on its node or by walker.member); outside the records (f is seekField,
// w.fc seekColl), a container on the way to the records paths is sought
// (walker.open) and becomes a fed collection at their end. A value not
// profiled (a field the rules drop, one the profile reads itself, one on
// no records path) is walked by the plain walk.
func walkValue[M walkKind](w *walker, n *node, depth int, f *view.Field) error {
	fed := feeding[M]()
	c := w.peek()
	start := w.pos
	switch c {
	case '{':
		if depth >= maxDepth {
			return fmt.Errorf("JSON %w at byte %d (more than %d levels)", errDepth, start, maxDepth)
		}
		mode := walkPlain
		if fed {
			var err error
			if mode, err = w.open(n, c, depth, f); err != nil || mode == walkPlain {
				return plainAfter(w, n, depth, err)
			}
		}
		w.pos++
		count := 0
		var kind, kinds uint8
		uniform := true
		var prev *view.Field // the field of the member before (fed)
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
				kb := kindBits[w.peek()]
				kinds |= kb
				if count == 0 {
					kind = kb
				} else if kind != kb {
					uniform = false
				}
				count++
				if fed && mode == walkRecords && kb&(kObject|kArray) == 0 {
					// A map's member whose value is a scalar: one
					// event.
					err = w.scalarEntry(child, ns, name, esc)
				} else if fed {
					// The profile's field of the member's value: in a
					// record, the one found on its node before (a
					// node's values are those of one field, but under
					// an object whose members share one node); a
					// member of a map or of a value sought is never
					// found there (w.fc is not the node's).
					kid := child.fedF
					if child.fedBy != w.fc || n.folded {
						kid = w.member(mode, n, child, f, prev, ns, name, esc, depth)
					}
					prev = kid
					if kid != nil && kb&(kObject|kArray) == 0 {
						// A scalar of a record: walkValue's scalar
						// part, without the call.
						c, vs := w.peek(), w.pos
						if err = w.scalar(c); err == nil {
							raw := w.d[vs:w.pos]
							child.noteValue(kindBits[c], raw)
							if keeping[M]() {
								w.fc.ScalarKept(kid, raw)
							} else {
								w.fc.Scalar(kid, raw)
							}
						}
					} else if kid != nil {
						err = walkValue[M](w, child, depth+1, kid)
					} else {
						err = walkValue[plainWalk](w, child, depth+1, nil)
					}
				} else {
					err = walkValue[plainWalk](w, child, depth+1, nil)
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
		n.members += count
		if kinds&(kObject|kArray) == 0 && count >= minScalarMap && (!uniform || kind&(kString|kNumber) == 0) {
			kind, uniform = kScalars, true
		}
		if !uniform || count < minMapMembers || kind&(kObject|kString|kNumber|kArray) == 0 ||
			(n.mapKind != 0 && n.mapKind != kind) {
			n.notMap = true
		}
		n.mapKind = kind
		n.noteValue(kObject, w.d[start:w.pos])
		if fed && mode == walkFed {
			w.fc.ObjectEnd(f, count)
		} else if fed && mode == walkRecords {
			w.fc.End(w.pos) // (the map's last record: member ends the others)
			w.fc = seekColl
		}
		return nil
	case '[':
		if depth >= maxDepth {
			return fmt.Errorf("JSON %w at byte %d (more than %d levels)", errDepth, start, maxDepth)
		}
		mode := walkPlain
		if fed {
			var err error
			if mode, err = w.open(n, c, depth, f); err != nil || mode == walkPlain {
				return plainAfter(w, n, depth, err)
			}
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
			var ef *view.Field
			if fed {
				ef = w.elem(mode, n, f)
			}
			for {
				count++
				var err error
				if fed && mode == walkRecords {
					if c := w.peek(); c != '{' && c != '[' {
						// A record that is a scalar: one event.
						err = w.scalarRecord(el, c)
					} else {
						if ef := w.fc.Begin(w.pos); w.fc.Keeping() {
							err = walkValue[capWalk](w, el, depth+1, ef)
						} else {
							err = walkValue[fedWalk](w, el, depth+1, ef)
						}
						w.fc.End(w.pos)
					}
				} else if fed {
					if mode == walkSeek {
						w.at = w.plan.step(n.seekAt, []byte("[]"))
						ef = w.seekKid()
					}
					if ef != nil {
						err = walkValue[M](w, el, depth+1, ef)
					} else {
						err = walkValue[plainWalk](w, el, depth+1, nil)
					}
				} else {
					err = walkValue[plainWalk](w, el, depth+1, nil)
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
		n.noteValue(kArray, w.d[start:w.pos])
		if fed && mode == walkFed {
			w.fc.ArrayEnd(f, count)
		} else if fed && mode == walkRecords {
			w.fc = seekColl
		}
		return nil
	}
	if err := w.scalar(c); err != nil {
		return err
	}
	raw := w.d[start:w.pos]
	n.noteValue(kindBits[c], raw)
	if fed {
		if keeping[M]() {
			w.fc.ScalarKept(f, raw)
		} else {
			w.fc.Scalar(f, raw)
		}
	}
	return nil
}

// plainAfter walks the value at w.pos into n by the plain walk, unless
// err (a fed walk's container that feeds nothing: walker.open).
func plainAfter(w *walker, n *node, depth int, err error) error {
	if err != nil {
		return err
	}
	return walkValue[plainWalk](w, n, depth, nil)
}

var errEOF = io.EOF

// unquoteName returns the text of a quoted member name, without copying
// when it has no escapes.
func unquoteName(v []byte) []byte {
	if len(v) >= 2 && bytes.IndexByte(v, '\\') < 0 {
		return v[1 : len(v)-1]
	}
	out, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return v
	}
	return out
}

// Sniff returns the media type of data: application/json (also for
// concatenated JSON values), application/x-ndjson, text/plain,
// application/octet-stream, or a more precise binary type (image/png, ...).
func Sniff(data []byte) string {
	s, _ := DetectShape(data, nil)
	return s.ContentType
}

// isBinary reports whether data is not text: it holds a NUL byte or many
// control characters or invalid UTF-8 sequences (over 30%) in its first
// 8 KiB, or
// net/http recognises a binary signature.
func isBinary(data []byte) (bool, string) {
	return isBinaryAs(data, "")
}

// IsBinary reports whether data would be taken for binary unless its
// content type is declared as text (see DetectShapeAs): a NUL byte, many
// control characters or invalid UTF-8 sequences in its first 8 KiB, or a
// binary signature.
func IsBinary(data []byte) bool {
	b, _ := isBinary(data)
	return b
}

// declaredText reports whether the media type ct says the data is text:
// text/*, JSON (application/json, *+json), JSON Lines or NDJSON.
func declaredText(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return strings.HasPrefix(mt, "text/") || mt == TypeJSON || strings.HasSuffix(mt, "+json") ||
		mt == TypeNDJSON || mt == "application/jsonl" || mt == "application/x-jsonlines"
}

// isBinaryAs is isBinary for data declared as contentType: data declared
// as text (see declaredText) is never binary, whatever bytes it holds (a
// NUL, control characters): it is shown as text, escaped where it must
// be.
func isBinaryAs(data []byte, contentType string) (bool, string) {
	if declaredText(contentType) {
		return false, ""
	}
	head := data
	if len(head) > 8192 {
		head = head[:8192]
	}
	if ct := http.DetectContentType(head); !strings.HasPrefix(ct, "text/") && ct != TypeBinary && !strings.Contains(ct, "json") {
		return true, ct
	}
	bad := 0
	for i := 0; i < len(head); {
		c := head[i]
		if c == 0 {
			return true, TypeBinary
		}
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\b' && c != 0x1b {
			bad++
			i++
			continue
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 && !(len(head) == 8192 && i > len(head)-utf8.UTFMax) {
			bad++
		}
		i += size
	}
	if bad*10 > 3*len(head) {
		return true, TypeBinary
	}
	return false, ""
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// DetectShape finds the record collections of a tool output and counts
// them exactly.
//
// JSON input yields arrays of objects at any depth (".items",
// ".data.rows"), arrays of at least 8 strings or 8 numbers (npm view's
// ".versions"), the root array whatever it holds, and objects whose
// values are all objects, all strings, all numbers or all lists of
// scalars (madge's module -> requires) with at least 8 members, or all
// scalars of mixed kinds with at least 48 members (Kind
// "map", like an npm document's ".versions" and ".time", python's
// sysconfig variables).
// Only the outermost collections are reported: arrays inside records are
// part of the records. Several JSON values one per line are Kind "jsonl",
// otherwise "concat"; their path is ".". Anything else that is text
// (including invalid JSON and JSON nested deeper than 9000 levels) is one
// collection of Kind "lines" at "." counting its lines (a final newline
// does not start a line). Binary data and empty input have no
// collections.
//
// When records is not empty, its jq-style paths (".items", ".versions",
// ".data[].rows", "." for the root) name the collections instead, and a
// path that is not in the input, or holds no array or object, is an error.
// Counts of a path under "[]" add up over every element.
func DetectShape(data []byte, records []string) (Shape, error) {
	return DetectShapeAs(data, records, "")
}

// DetectShapeAs is DetectShape for data declared as contentType ("" for
// none): data declared as text is never binary (an MCP text block with a
// NUL byte is text, not a hex dump).
func DetectShapeAs(data []byte, records []string, contentType string) (Shape, error) {
	return detectShapeFed(data, records, contentType, nil)
}

// detectShapeFed is DetectShapeAs whose walk of JSON also feeds plan's
// profiles (feed.go), when plan is not nil.
func detectShapeFed(data []byte, records []string, contentType string, plan *feedPlan) (Shape, error) {
	if allSpace(data) {
		if len(records) > 0 {
			return Shape{Format: FormatEmpty, ContentType: TypeText}, fmt.Errorf("records path %s: the input is empty", records[0])
		}
		return Shape{Format: FormatEmpty, ContentType: TypeText}, nil
	}
	if bin, ct := isBinaryAs(data, contentType); bin {
		s := Shape{Format: FormatBinary, ContentType: ct, data: data}
		if len(records) > 0 {
			return s, fmt.Errorf("records path %s: the input is binary (%s)", records[0], ct)
		}
		return s, nil
	}
	first := bytes.TrimLeft(data, " \t\r\n")[0]
	if first == '{' || first == '[' || first == '"' || first == '-' || first >= '0' && first <= '9' || first == 't' || first == 'f' || first == 'n' {
		if utf8.Valid(data) {
			root, values, oneLine, err := walkJSON(data, plan)
			if err == nil {
				s, err := shapeFromTree(data, root, values, oneLine, records)
				if plan != nil && err == nil {
					s.fed = plan
				}
				return s, err
			}
		}
	}
	return textShape(data, records)
}

func textShape(data []byte, records []string) (Shape, error) {
	s := Shape{Format: FormatText, ContentType: TypeText, data: data}
	for _, r := range records {
		if strings.TrimSpace(r) != "." {
			return s, fmt.Errorf("records path %s: the input is text, not JSON; only \".\" (its lines) applies", r)
		}
	}
	s.Collections = []schemas.Collection{{Path: ".", Kind: "lines", Count: countLines(data)}}
	return s, nil
}

// countLines counts lines: newline-terminated ones plus a final
// unterminated one.
func countLines(data []byte) int { return format.CountLines(data) }

func shapeFromTree(data []byte, root *node, values int, oneLine bool, records []string) (Shape, error) {
	s := Shape{Format: FormatJSON, ContentType: TypeJSON, tree: root, data: data, LoneSurrogates: root.lone}
	stream := values > 1
	if stream {
		s.Format = FormatConcat
		if oneLine {
			s.Format = FormatJSONL
			s.ContentType = TypeNDJSON
		}
		// The stream's values are the root's elements.
		root.elems = values
	}
	add := func(n *node, kind string, count int) {
		i := len(s.Collections)
		s.Collections = append(s.Collections, schemas.Collection{Path: n.path(), Kind: kind, Count: count})
		s.stats = append(s.stats, collStats{node: n})
		n.coll = i
		for a := n; a != nil; a = a.parent {
			a.protected = true
		}
		if kind == "map" {
			for _, c := range n.memberNodes() {
				c.record = i
				c.protected = true
			}
		} else if kind == FormatJSONL || kind == FormatConcat {
			n.record = i
		} else if n.elem != nil {
			n.elem.record = i
		}
	}
	if len(records) > 0 {
		for _, r := range records {
			n, err := resolvePath(root, r, stream)
			if err != nil {
				return s, err
			}
			if n == root && !stream {
				// "." names the output's records. An envelope (a page of
				// a REST list: {total_count, items: [...]}) holds them in
				// its one array of objects, not in its members.
				if items := envelopeItems(n); items != nil {
					n = items
				}
			}
			if n.coll >= 0 {
				continue // listed twice
			}
			switch {
			case n == root && stream:
				add(n, s.Format, values)
			case n.kinds == kArray:
				add(n, "array", n.elems)
			case n.kinds == kObject:
				add(n, "map", n.members)
			default:
				return s, fmt.Errorf("records path %s holds %s, not an array or an object", r, strings.Join(kindList(n.kinds), " or "))
			}
		}
	} else {
		detectAll(root, s.Format, values, add)
	}
	for i := range s.Collections {
		fillFields(&s, i, true)
	}
	return s, nil
}

// detectAll finds the collections of the tree at root with no records
// paths (see DetectShape) and calls add with each, outermost first.
// format is the shape's, values the number of top-level values.
func detectAll(root *node, format string, values int, add func(n *node, kind string, count int)) {
	if format == FormatJSONL || format == FormatConcat {
		add(root, format, values)
		return
	}
	var visit func(n *node)
	visit = func(n *node) {
		switch {
		case n == root && n.kinds == kArray,
			n.kinds == kArray && n.elem != nil && n.elem.kinds == kObject:
			add(n, "array", n.elems)
			if n.elems == 1 && n.elem != nil && n.elem.kinds == kObject && (n == root || n.elem.lookup([]byte(n.name), 0) == nil) {
				// (not a node of a tree, whose one element nests
				// more of its kind: an EXPLAIN plan's Plans[].Plans,
				// read as a tree by the view)
				// One record that holds the real lists (npm pack
				// --json: [{"name", "files": [...]}]; a SARIF log's
				// one run: {"runs": [{"results": [...], "tool":
				// {"driver": {"rules": [...]}}}]}): the collections
				// inside it are found too.
				for _, c := range n.elem.order {
					visit(c)
				}
			}
			return
		case n.kinds == kArray && n.elem != nil && (n.elem.kinds == kString || n.elem.kinds == kNumber) &&
			n.elems >= minMapMembers*n.seen:
			// A list of names or numbers (npm view's versions).
			add(n, "array", n.elems)
			return
		case n.kinds == kObject && !n.notMap && n.mapKind&(kObject|kString|kNumber) != 0,
			n.kinds == kObject && !n.notMap && n.mapKind == kArray && (scalarLists(n) || tupleLists(n)),
			n.kinds == kObject && recordLists(n):
			add(n, "map", n.members)
			return
		}
		for _, c := range n.order {
			visit(c)
		}
		if n.elem != nil {
			visit(n.elem)
		}
	}
	visit(root)
}

// detected returns the shape DetectShape(data, nil) finds for s's data
// (the collections with no records paths), made from s's path tree
// without walking the input again and without changing what level 1
// reads in the tree; ok is false when s has no tree (text, binary,
// empty input): DetectShape must run. Level 2 shows and indexes these
// collections when the registry names its own (viewShape, writeIndex):
// a second walk of a 10 MB input for them cost about as much as the
// first.
func (s Shape) detected() (Shape, bool) {
	if s.tree == nil {
		return Shape{}, false
	}
	d := Shape{Format: s.Format, ContentType: s.ContentType, data: s.data, LoneSurrogates: s.LoneSurrogates}
	values := 1
	if s.Format == FormatJSONL || s.Format == FormatConcat {
		values = s.tree.elems
	}
	detectAll(s.tree, s.Format, values, func(n *node, kind string, count int) {
		d.Collections = append(d.Collections, schemas.Collection{Path: n.path(), Kind: kind, Count: count})
		d.stats = append(d.stats, collStats{node: n})
	})
	for i := range d.Collections {
		fillFields(&d, i, false)
	}
	return d, true
}

// scalarLists reports whether every member of n is an array of scalars
// (or empty): a map of name -> list (a module's requires, a package's
// files) is a keyed collection. Lists of objects stay collections of
// their own (npm outdated's packages, each with its list of records).
func scalarLists(n *node) bool {
	for _, c := range n.memberNodes() {
		if c.kinds != kArray || c.elem != nil && c.elem.kinds&(kObject|kArray) != 0 {
			return false
		}
	}
	return true
}

// recordLists reports whether n is a map whose values are records or
// lists of records of one shape, both present, with at least
// minMapMembers members per object: npm outdated --all --json maps a
// package's name to its entry ({current, wanted, latest, dependent,
// location}) or, when several dependents need it, to a list of such
// entries, one per dependent. It is a keyed collection (the view reads
// its entries, each with its key, as records: json_items.go); without
// it the objects were facts and each list a collection of its own, or,
// past maxNamedMembers names, nothing was a collection ("no records").
// The lists' objects must share at least half of their member names
// with the objects' members.
func recordLists(n *node) bool {
	if n.seen == 0 || n.members < minMapMembers*n.seen {
		return false
	}
	var kinds uint8
	names := map[string]bool{}
	var items []*node
	for _, c := range n.memberNodes() {
		if c.kinds&^(kObject|kArray) != 0 {
			return false
		}
		kinds |= c.kinds
		if c.kinds&kObject != 0 {
			for _, f := range c.order {
				names[f.name] = true
			}
		}
		if c.kinds&kArray != 0 && c.elem != nil {
			if c.elem.kinds != kObject {
				return false
			}
			items = append(items, c.elem)
		}
	}
	if kinds != kObject|kArray || len(items) == 0 {
		return false
	}
	all, shared := 0, 0
	for _, it := range items {
		for _, f := range it.order {
			all++
			if names[f.name] {
				shared++
			}
		}
	}
	return all > 0 && shared*2 >= all
}

// tupleLists reports whether every member of n is a list that leads with
// a scalar (or is empty): a linter's resolved rules, name -> [severity,
// options...] ("no-unused-vars": ["error", {"vars": "all"}]), are a keyed
// collection read by position (the view's json_tuple.go), not facts. A
// member seen more than once is judged by its first list.
func tupleLists(n *node) bool {
	for _, c := range n.memberNodes() {
		if c.kinds != kArray || c.leadsOpen {
			return false
		}
		f := c.first
		i := 1
		for i < len(f) && isSpace(f[i]) {
			i++
		}
		if i >= len(f) || f[i] == '{' || f[i] == '[' {
			return false
		}
	}
	return true
}

// leadsOpen reports whether raw is a list whose first element is an
// object or an array.
func leadsOpen(raw []byte) bool {
	if len(raw) == 0 || raw[0] != '[' {
		return false
	}
	i := 1
	for i < len(raw) && isSpace(raw[i]) {
		i++
	}
	return i < len(raw) && (raw[i] == '{' || raw[i] == '[')
}

// fillFields describes the fields of collection i's object records and,
// when consts, finds its constant fields (level 1's: the tree's marks
// must be s's).
func fillFields(s *Shape, i int, consts bool) {
	c := &s.Collections[i]
	n := s.stats[i].node
	var recs []*node
	if c.Kind == "map" {
		recs = n.memberNodes()
	} else if c.Kind == FormatJSONL || c.Kind == FormatConcat {
		recs = []*node{n}
	} else if n.elem != nil {
		recs = []*node{n.elem}
	}
	idx := map[string]int{}
	var fields []schemas.Field
	var kinds []uint8
	for _, r := range recs {
		if r.kinds&kObject == 0 {
			continue
		}
		for _, f := range r.order {
			j, ok := idx[f.name]
			if !ok {
				j = len(fields)
				idx[f.name] = j
				fields = append(fields, schemas.Field{Name: f.name})
				kinds = append(kinds, 0)
			}
			fields[j].Present += f.seen
			kinds[j] |= f.kinds
		}
	}
	for j := range fields {
		fields[j].Types = kindList(kinds[j])
	}
	c.Fields = fields
	// Constant fields: only for arrays and streams of objects, where one
	// node holds every record's field.
	if consts && c.Kind != "map" && len(recs) == 1 && recs[0].kinds == kObject && c.Count >= 2 {
		for _, f := range recs[0].order {
			if f.seen == c.Count && f.constant && !f.protected {
				s.stats[i].consts = append(s.stats[i].consts, f)
			}
		}
	}
}

// parsePath splits a jq-style path into segments: member names and "[]".
// It accepts ".", ".a.b", ".a[].b", ".\"odd key\"", "a.b" (the leading dot
// is optional) and ".[\"odd key\"]".
func parsePath(p string) ([]string, error) {
	orig := p
	p = strings.TrimSpace(p)
	if p == "" {
		return nil, errors.New("empty path")
	}
	if p == "." {
		return nil, nil
	}
	var segs []string
	if p[0] != '.' && p[0] != '[' {
		p = "." + p
	}
	if strings.HasPrefix(p, ".[") {
		p = p[1:]
	}
	for len(p) > 0 {
		switch {
		case strings.HasPrefix(p, "[]"):
			segs = append(segs, "[]")
			p = p[2:]
		case strings.HasPrefix(p, ".[\""):
			p = p[1:]
			fallthrough
		case strings.HasPrefix(p, "[\""):
			s, rest, err := unquotePrefix(p[1:])
			if err != nil {
				return nil, fmt.Errorf("path %q: %w", orig, err)
			}
			if !strings.HasPrefix(rest, "]") {
				return nil, fmt.Errorf("path %q: missing ] after [%s", orig, strconv.Quote(s))
			}
			p = rest[1:]
			segs = append(segs, s)
		case strings.HasPrefix(p, ".\""):
			s, rest, err := unquotePrefix(p[1:])
			if err != nil {
				return nil, fmt.Errorf("path %q: %w", orig, err)
			}
			p = rest
			segs = append(segs, s)
		case p[0] == '.':
			p = p[1:]
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			if end == 0 {
				return nil, fmt.Errorf("path %q: empty name at %q", orig, "."+p)
			}
			segs = append(segs, p[:end])
			p = p[end:]
		default:
			return nil, fmt.Errorf("path %q: unexpected %q (want .name, .\"name\" or [])", orig, p)
		}
	}
	return segs, nil
}

// unquotePrefix reads a Go/JSON double-quoted string at the start of s.
func unquotePrefix(s string) (string, string, error) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			u, err := strconv.Unquote(s[:i+1])
			if err != nil {
				return "", "", fmt.Errorf("bad quoted name %s", s[:i+1])
			}
			return u, s[i+1:], nil
		}
	}
	return "", "", fmt.Errorf("unterminated quoted name %s", s)
}

// resolvePath finds the node of a records path.
// envelopeItems returns the records member of an envelope object, or nil:
// an object seen once whose members are all scalars (counts, flags,
// cursors, URLs) but for exactly one array whose elements are objects.
// A map of name -> object (package maps, dependency trees) has no scalar
// members and is not an envelope.
func envelopeItems(n *node) *node {
	if n.kinds != kObject || n.seen != 1 || n.folded {
		return nil
	}
	var items *node
	for _, c := range n.order {
		switch {
		case c.kinds == kArray && c.elem != nil && c.elem.kinds == kObject:
			if items != nil {
				return nil // two lists: not one page of one list
			}
			items = c
		case c.kinds&(kObject|kArray) != 0:
			return nil
		}
	}
	if items == nil || len(n.order) < 2 {
		return nil
	}
	return items
}

func resolvePath(root *node, p string, stream bool) (*node, error) {
	segs, err := parsePath(p)
	if err != nil {
		return nil, fmt.Errorf("records path: %w", err)
	}
	n := root // in a stream, the root node holds every value
	for i, s := range segs {
		var next *node
		if s == "[]" {
			next = n.elem
		} else if n.children != nil {
			next = n.children[s]
		}
		if next == nil && n.folded && s != "[]" {
			where := "the input"
			if i > 0 {
				where = renderSegs(segs[:i])
			}
			return nil, fmt.Errorf("records path %s: %s has more than %d member names, which are taken as data, not named one by one: name them all with %s[]", p, where, maxNamedMembers, strings.TrimSuffix(renderSegs(segs[:i]), "."))
		}
		if next == nil || next.seen == 0 {
			where := "the input"
			if i > 0 {
				where = renderSegs(segs[:i])
			}
			return nil, fmt.Errorf("records path %s does not exist: %s has no %s", p, where, renderSegs(segs[i:i+1]))
		}
		n = next
	}
	return n, nil
}

func renderSegs(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		if s == "[]" {
			b.WriteString("[]")
		} else {
			b.WriteString(pathSegment(s))
		}
	}
	return b.String()
}

// EachRecord calls fn with each record of the collection at path (as in
// Shape.Collections) in order: the JSON text of each array element or
// stream value, the one-member object {"key": value} of each map member,
// or each line of text (without its newline). It stops at fn's first
// error and returns it. A map member's object is built in a buffer
// reused for the next member: fn must copy it to keep it after it
// returns (the other records are slices of data).
func EachRecord(data []byte, shape Shape, path string, fn func(i int, raw []byte) error) error {
	var c *schemas.Collection
	for i := range shape.Collections {
		if shape.Collections[i].Path == path {
			c = &shape.Collections[i]
		}
	}
	if c == nil {
		return fmt.Errorf("no collection %s in this shape", path)
	}
	if c.Kind == "lines" {
		i := 0
		for len(data) > 0 {
			line := data
			rest := []byte(nil)
			if j := bytes.IndexByte(data, '\n'); j >= 0 {
				line, rest = data[:j], data[j+1:]
			}
			if err := fn(i, line); err != nil {
				return err
			}
			i++
			data = rest
		}
		return nil
	}
	segs, err := parsePath(path)
	if err != nil {
		return err
	}
	w := &recordWalker{scanner: scanner{d: data}, segs: segs, fn: fn, isMap: c.Kind == "map",
		stream: c.Kind == FormatJSONL || c.Kind == FormatConcat}
	for w.peek() != 0 {
		if err := w.walk(0); err != nil {
			var je *errJSON
			if errors.As(err, &je) {
				return fmt.Errorf("reading records of %s: %w", path, err)
			}
			return err
		}
	}
	return nil
}

// collectionText returns the text of the collection at path as one
// slice of data, when it is one: the array or the object of a
// collection found once (its path goes through no array), or the whole
// stream of a jsonl or concat collection; nil otherwise (a collection
// of lines, one found at many places, a shape not of data). Level 1's
// walk has it already: a node's first value is a slice of the input.
// recordListsAt reports whether the map collection at path of shape
// holds records and lists of records (recordLists): the view reads its
// entries as records (view.Collection.RecordLists).
func recordListsAt(shape Shape, path string) bool {
	for i, c := range shape.Collections {
		if c.Path == path && c.Kind == "map" && i < len(shape.stats) && shape.stats[i].node != nil {
			return recordLists(shape.stats[i].node)
		}
	}
	return false
}

func collectionText(data []byte, shape Shape, path string) []byte {
	if len(shape.data) == 0 || len(data) != len(shape.data) || &shape.data[0] != &data[0] {
		return nil
	}
	for i, c := range shape.Collections {
		if c.Path != path || i >= len(shape.stats) || shape.stats[i].node == nil {
			continue
		}
		n := shape.stats[i].node
		switch {
		case c.Kind == FormatJSONL || c.Kind == FormatConcat:
			return data
		case (c.Kind == "array" || c.Kind == "map") && n.seen == 1:
			return n.first
		}
		return nil
	}
	return nil
}

type recordWalker struct {
	scanner
	segs   []string
	fn     func(int, []byte) error
	isMap  bool
	stream bool
	i      int
	buf    []byte
}

func (w *recordWalker) yield(raw []byte) error {
	err := w.fn(w.i, raw)
	w.i++
	return err
}

// walk follows segs[d:] into the value at the scanner and yields records.
func (w *recordWalker) walk(d int) error {
	c := w.peek()
	if w.stream && len(w.segs) == 0 {
		// Each value of a stream is one record.
		start := w.pos
		if err := w.skip(0); err != nil {
			return err
		}
		return w.yield(w.d[start:w.pos])
	}
	if c != '[' && c != '{' {
		return w.skip(d)
	}
	end := byte(']')
	if c == '{' {
		end = '}'
	}
	w.pos++
	if w.peek() == end {
		w.pos++
		return nil
	}
	for {
		var name []byte
		var nameRaw []byte
		if c == '{' {
			if w.peek() != '"' {
				return w.fail("want a member name")
			}
			ns := w.pos
			esc, err := w.str()
			if err != nil {
				return err
			}
			nameRaw = w.d[ns:w.pos]
			name = nameRaw[1 : len(nameRaw)-1]
			if esc {
				name = unquoteName(nameRaw)
			}
			if w.peek() != ':' {
				return w.fail("want ':'")
			}
			w.pos++
		}
		switch {
		case d == len(w.segs):
			w.peek()
			start := w.pos
			if err := w.skip(d + 1); err != nil {
				return err
			}
			raw := w.d[start:w.pos]
			if c == '{' {
				w.buf = append(append(append(append(w.buf[:0], '{'), nameRaw...), ':'), raw...)
				raw = append(w.buf, '}')
				w.buf = raw
			}
			if err := w.yield(raw); err != nil {
				return err
			}
		case c == '[' && w.segs[d] == "[]" || c == '{' && (w.segs[d] == string(name) || w.segs[d] == "[]"):
			// "[]" of an object: every member's value, as in jq (an
			// object with its members folded, see node.fold).
			if err := w.walk(d + 1); err != nil {
				return err
			}
		default:
			if err := w.skip(d + 1); err != nil {
				return err
			}
		}
		more, err := w.next(end)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
}
