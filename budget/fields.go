package budget

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcompact/compact/schemas"
)

// Action kinds of level 1.
const (
	ActDropField      = "drop_field"      // a Drop rule, or not matched by Keep
	ActDropEmpty      = "drop_empty"      // default: null, "", [] or {} members
	ActDropConstant   = "drop_constant"   // default: one value in every record
	ActDropID         = "drop_id"         // default: long opaque ids
	ActDropURL        = "drop_url"        // default: *_url links
	ActShorten        = "shorten_strings" // StringsMax
	ActTable          = "table"           // rendered as a table
	ActTableSkipped   = "table_skipped"   // Format asked for a table that does not apply
	ActCollapse       = "collapse_repeats"
	ActShortenLines   = "shorten_lines"
	ActHexdump        = "hexdump"
	ActInvalidUTF8    = "replace_invalid_utf8"
	ActRecordsMissing = "records_not_found"
	ActLoneSurrogate  = "lone_surrogate_escapes"
	// ActLevel1Stopped: level 1 was stopped over the budget on a large
	// input and level 2 made the view (see Level1Result).
	ActLevel1Stopped  = "level1_stopped"
	ActKeptCollection = "keep_collection" // a rule would have removed a collection
)

// shortenMarker is the visible marker of a shortened string: the text
// kept, then "…[+N chars]" with N the runes cut.
func shortenMarker(cut int) string { return "…[+" + strconv.Itoa(cut) + " chars]" }

// nodeRule caches level 1's decision for one path node.
type nodeRule struct {
	acts     [6]int // action index + 1 per slot (see slot* constants)
	drop     bool   // drop every value at this node
	kind     string // the action kind of the drop
	detail   string
	keep     bool // an explicit Keep pattern covers this node
	urlCand  bool // a *_url member: dropped when its value is a link
	idCand   bool // an *id member: dropped when its value looks opaque
	constant bool
}

// Action slots of a node.
const (
	slotDrop = iota
	slotEmpty
	slotURL
	slotID
	slotShort
	slotKept
)

// noteNode adds count to n's action in slot, creating it on first use.
func (f *filter) noteNode(n *node, slot int, kind, detail string, count int) {
	r := f.rule(n)
	if i := r.acts[slot]; i > 0 {
		f.actions[i-1].Count += count
		return
	}
	f.note(kind, n, detail, count)
	r.acts[slot] = f.actIdx[kind+"\x00"+n.path()] + 1
}

type pattern struct {
	raw      string
	segs     []string
	anchored bool
}

func compilePatterns(list []string) ([]pattern, error) {
	var out []pattern
	for _, p := range list {
		p = strings.TrimSpace(p)
		segs, err := parsePath(p)
		if err != nil {
			return nil, err
		}
		if len(segs) == 0 {
			return nil, fmt.Errorf("field path %q names the whole document", p)
		}
		// "labels[]" means the member labels.
		for len(segs) > 1 && segs[len(segs)-1] == "[]" {
			segs = segs[:len(segs)-1]
		}
		out = append(out, pattern{raw: p, segs: segs, anchored: strings.HasPrefix(p, ".")})
	}
	return out, nil
}

// globMatch matches name against pat, where '*' matches any run of
// characters (and nothing else is special).
func globMatch(pat, name string) bool {
	if !strings.Contains(pat, "*") {
		return pat == name
	}
	parts := strings.Split(pat, "*")
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	for i := 1; i < len(parts)-1; i++ {
		j := strings.Index(name, parts[i])
		if j < 0 {
			return false
		}
		name = name[j+len(parts[i]):]
	}
	return strings.HasSuffix(name, parts[len(parts)-1])
}

func segMatch(pat string, n *node) bool {
	if pat == "[]" {
		return n.isElem()
	}
	if n.isElem() {
		return false
	}
	return globMatch(pat, n.name)
}

func (n *node) isElem() bool { return n.parent != nil && n.parent.elem == n }

// segments returns the nodes from the root (exclusive) down to n.
func (n *node) segments() []*node {
	var out []*node
	for m := n; m.parent != nil; m = m.parent {
		out = append(out, m)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// matchSuffix reports whether p matches the end of segs (or all of segs
// when p is anchored).
func (p pattern) matchSuffix(segs []*node) bool {
	if len(p.segs) > len(segs) || p.anchored && len(p.segs) != len(segs) {
		return false
	}
	off := len(segs) - len(p.segs)
	for i, s := range p.segs {
		if !segMatch(s, segs[off+i]) {
			return false
		}
	}
	return true
}

// Declarative returns the level-1 Compactor that applies req.Rules in one
// streaming pass over the bytes. See docs/level1.md.
func Declarative() Compactor { return declarative{} }

type declarative struct{}

// filter is one run of the declarative rules over a JSON input.
type filter struct {
	scanner
	ctx        context.Context
	shape      *Shape
	out        []byte
	first      []bool // per open container: no element written yet
	keep, drop []pattern
	strMax     int
	defaults   bool
	actions    []schemas.Action
	actIdx     map[string]int
	scratch    []byte
	values     int
	elems      int
	consts     map[*node]int // constant field node → collection index
	below      map[*node]bool
	// stopOver, when >= 0, stops the filter with errLevel1Over as soon
	// as its output so far is proved to exceed stopOver tokens (see
	// declarativeUpTo); checked once more output than nextCheck exists.
	stopOver  int
	nextCheck int
	// tableStop: the output may become a table (Rules.Format table or
	// auto, records at the root), so it is stopped only when the table
	// of the records written so far is over too (tableOver); stream: the
	// records are JSON Lines or concatenated values, not an array.
	tableStop, stream bool
}

// errLevel1Over stops the declarative rules when their output is already
// over the budget and the pipeline has a level after them; the error
// returned is a *level1Stopped that wraps it.
var errLevel1Over = errors.New("level 1 output over the budget")

// level1Stopped says where level 1 stopped: read of the input's bytes,
// wrote of output.
type level1Stopped struct{ read, wrote int }

func (e *level1Stopped) Error() string {
	return fmt.Sprintf("%v after %d input bytes (%d bytes written)", errLevel1Over, e.read, e.wrote)
}

func (e *level1Stopped) Unwrap() error { return errLevel1Over }

// stopped is the error of a filter stopped over the budget.
func (f *filter) stopped() error { return &level1Stopped{read: f.pos, wrote: len(f.out)} }

// stopCheckEvery is how much output the filter writes between two checks
// of its lower bound against stopOver.
const stopCheckEvery = 64 << 10

// overSoFar reports whether the output written so far is proved to be
// over stopOver tokens, checking at most once per stopCheckEvery bytes.
// lowerBound stops as soon as it passes the limit, so a check costs about
// the bytes that hold stopOver tokens, not the whole output. complete
// says that the output ends with a whole record of a root collection,
// the only place where a table can be checked (tableStop).
func (f *filter) overSoFar(complete bool) bool {
	if f.stopOver < 0 || len(f.out) < f.nextCheck || f.tableStop && !complete {
		return false
	}
	f.nextCheck = len(f.out) + stopCheckEvery
	if !lowerBoundOver(f.out, f.stopOver) {
		return false
	}
	if !f.tableStop {
		return true
	}
	// Each further table check waits for the output to double: the
	// table is rendered from the whole output so far.
	f.nextCheck = max(f.nextCheck, 2*len(f.out))
	return f.tableOver()
}

// tableOver reports whether the table of the records written so far is
// over stopOver tokens, so that the table of all of them is too: a record
// later adds its own row, and columns that only later records have add
// cells at the end of the earlier rows, after a tab (renderTable), which
// no lower bound of the earlier text depends on. When those records make
// no table (a record that is not an object), neither do all of them: the
// output stays JSON, which is over.
func (f *filter) tableOver() bool {
	prefix := f.out
	if !f.stream {
		prefix = append(append(make([]byte, 0, len(f.out)+1), f.out...), ']')
	}
	table, reason, err := renderTable(prefix, f.stream)
	switch {
	case err != nil:
		return false
	case reason != "":
		return true
	}
	return lowerBoundOver(table, f.stopOver)
}

func (f *filter) note(kind string, n *node, detail string, count int) {
	target := "."
	if n != nil {
		target = n.path()
	}
	f.noteTarget(kind, target, detail, count)
}

func (f *filter) noteTarget(kind, target, detail string, count int) {
	key := kind + "\x00" + target
	if i, ok := f.actIdx[key]; ok {
		f.actions[i].Count += count
		return
	}
	f.actIdx[key] = len(f.actions)
	f.actions = append(f.actions, schemas.Action{Level: schemas.LevelFields, Kind: kind, Target: target, Detail: detail, Count: count})
}

// rule decides, once per node, what happens to the member values at n.
func (f *filter) rule(n *node) *nodeRule {
	if n.rule != nil {
		return n.rule
	}
	r := &nodeRule{}
	n.rule = r
	segs := n.segments()
	// Keep applies inside records (the whole document when there are no
	// collections); a record itself is protected.
	inRecord := false
	if n.record < 0 {
		for i := len(segs) - 2; i >= 0; i-- {
			if segs[i].record >= 0 {
				inRecord = true
				break
			}
		}
		if !inRecord && (len(f.shape.Collections) == 0 || f.shape.tree.record >= 0) {
			inRecord = true
		}
	}
	if len(f.keep) > 0 && inRecord {
		covered := f.keepCovers(n)
		r.keep = covered
		if !covered && !f.keepBelow(n) {
			r.drop, r.kind, r.detail = true, ActDropField, "not in keep"
		}
	}
	for _, p := range f.drop {
		if p.matchSuffix(segs) {
			r.drop, r.kind, r.detail = true, ActDropField, "drop "+p.raw
			break
		}
	}
	if r.drop && n.protected {
		f.note(ActKeptCollection, n, "a record collection or record is never dropped ("+r.detail+")", 1)
		r.drop = false
	}
	if f.defaults && !r.drop && !r.keep && !n.protected && !n.isElem() {
		if ci, ok := f.consts[n]; ok {
			// A constant is stated once in the notice line, so only a
			// short one is dropped; a long one stays in the records.
			v := append(jsontext.Value(nil), n.first...)
			_ = v.Compact()
			if len(v) <= maxNoticeConst {
				r.drop, r.kind, r.constant = true, ActDropConstant, true
				r.detail = fmt.Sprintf("every one of the %d records of %s has %s", f.shape.Collections[ci].Count, f.shape.Collections[ci].Path, v)
			}
		}
		low := strings.ToLower(n.name)
		if strings.HasSuffix(low, "_url") && low != "html_url" {
			r.urlCand = true
		}
		// Identity values (id, _id, commit shas) stay: a model refers to
		// records by them.
		if (strings.HasSuffix(low, "id") || low == "etag") && low != "id" && low != "_id" {
			r.idCand = true
		}
		if low == "node_id" || strings.HasSuffix(low, "_node_id") {
			r.idCand = true
		}
	}
	return r
}

// keepMatches reports whether a keep pattern matches n's path (the end of
// it, or all of it for an anchored pattern).
func (f *filter) keepMatches(n *node) bool {
	if n.parent == nil {
		return false
	}
	segs := n.segments()
	for _, p := range f.keep {
		if p.matchSuffix(segs) {
			return true
		}
	}
	return false
}

// keepCovers reports whether n or one of its ancestors matches a keep
// pattern: n's whole value is kept.
func (f *filter) keepCovers(n *node) bool {
	for m := n; m != nil; m = m.parent {
		if f.keepMatches(m) {
			return true
		}
	}
	return false
}

// keepBelow reports whether a keep pattern matches a path below n, so
// that n is kept to lead to it. Results are cached per node.
func (f *filter) keepBelow(n *node) bool {
	if v, ok := f.below[n]; ok {
		return v
	}
	f.below[n] = false // no cycles in a tree; guards re-entry
	res := false
	for _, c := range n.order {
		if f.keepMatches(c) || f.keepBelow(c) {
			res = true
			break
		}
	}
	if !res && n.elem != nil {
		res = f.keepMatches(n.elem) || f.keepBelow(n.elem)
	}
	f.below[n] = res
	return res
}

// opaque reports whether the JSON string raw looks like a long opaque id:
// at least 20 characters, no white space, only id characters, and both
// letters and digits.
func opaque(raw []byte) bool {
	if len(raw) < 22 {
		return false
	}
	s := raw[1 : len(raw)-1]
	letters, digits := false, false
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		case c == '-' || c == '_' || c == '=' || c == '+' || c == '/' || c == ':' || c == '.':
		default:
			return false
		}
	}
	return letters && digits
}

func isEmptyScalar(k jsontext.Kind, raw []byte) bool {
	return k == 'n' || k == '"' && len(raw) == 2
}

func (f *filter) sep() {
	top := len(f.first) - 1
	if top < 0 {
		return
	}
	if f.first[top] {
		f.first[top] = false
		return
	}
	f.out = append(f.out, ',')
}

// value copies the value at the scanner (whose node is n) to the output,
// filtered.
func (f *filter) value(n *node) error {
	c := f.peek()
	switch c {
	case '{':
		f.pos++
		f.values++
		if f.values&1023 == 0 {
			if err := f.ctx.Err(); err != nil {
				return err
			}
			if f.overSoFar(false) {
				return f.stopped()
			}
		}
		f.out = append(f.out, '{')
		f.first = append(f.first, true)
		if f.peek() == '}' {
			f.pos++
		} else {
			for k := 0; ; k++ {
				if err := f.member(n, k); err != nil {
					return err
				}
				more, err := f.next('}')
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
		}
		f.first = f.first[:len(f.first)-1]
		f.out = append(f.out, '}')
		return nil
	case '[':
		f.pos++
		f.out = append(f.out, '[')
		f.first = append(f.first, true)
		if f.peek() == ']' {
			f.pos++
		} else {
			for {
				f.sep()
				if err := f.value(n.elem); err != nil {
					return err
				}
				// Elements copied whole (no rule below them) are not
				// counted in values: check here too.
				if f.elems++; f.elems&1023 == 0 && f.overSoFar(len(f.first) == 1) {
					return f.stopped()
				}
				more, err := f.next(']')
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
		}
		f.first = f.first[:len(f.first)-1]
		f.out = append(f.out, ']')
		return nil
	}
	start := f.pos
	if err := f.scalar(c); err != nil {
		return err
	}
	f.writeScalar(n, kindOf(c), f.d[start:f.pos])
	return nil
}

// writeScalar writes a scalar, shortening long strings.
func (f *filter) writeScalar(n *node, k jsontext.Kind, v []byte) {
	if k == '"' && f.strMax > 0 && len(v)-2 > f.strMax {
		if s, cut := f.shorten(v); cut > 0 {
			f.noteNode(n, slotShort, ActShorten, fmt.Sprintf("strings longer than %d characters shortened, marked …[+N chars]", f.strMax), 1)
			f.out = append(f.out, s...)
			return
		}
	}
	f.out = append(f.out, v...)
}

// shorten cuts the quoted string v to strMax characters plus the marker.
func (f *filter) shorten(v []byte) ([]byte, int) {
	var err error
	f.scratch, err = jsontext.AppendUnquote(f.scratch[:0], v)
	if err != nil {
		// A lone surrogate escape: decode it as encoding/json does,
		// to U+FFFD (the pipeline states it: ActLoneSurrogate).
		var str string
		if json.Unmarshal(v, &str) != nil {
			return nil, 0
		}
		f.scratch = append(f.scratch[:0], str...)
	}
	total := utf8.RuneCount(f.scratch)
	if total <= f.strMax+len("…[+0 chars]") {
		// Shortening would not make it shorter.
		return nil, 0
	}
	cut := 0
	for i := range string(f.scratch) {
		if cut == f.strMax {
			s := append(f.scratch[:i:i], shortenMarker(total-f.strMax)...)
			q, err := jsontext.AppendQuote(nil, s)
			if err != nil {
				return nil, 0
			}
			return q, total - f.strMax
		}
		cut++
	}
	return nil, 0
}

// member handles one member of an object at node parent.
func (f *filter) member(parent *node, idx int) error {
	if f.peek() != '"' {
		return f.fail("want a member name")
	}
	ns := f.pos
	esc, err := f.str()
	if err != nil {
		return err
	}
	nameRaw := f.d[ns:f.pos]
	name := nameRaw[1 : len(nameRaw)-1]
	if esc {
		name = unquoteName(nameRaw)
	}
	if f.peek() != ':' {
		return f.fail("want ':'")
	}
	f.pos++
	n := parent.lookup(name, idx)
	if n == nil {
		return fmt.Errorf("level 1: member %s of %s is not in the detected shape", nameRaw, parent.path())
	}
	r := f.rule(n)
	if r.drop {
		f.noteNode(n, slotDrop, r.kind, r.detail, 1)
		return f.skip(1)
	}
	c := f.peek()
	switch c {
	case '{', '[':
		if f.defaults && !r.keep && !n.protected && f.emptyContainer(c) {
			f.noteNode(n, slotEmpty, ActDropEmpty, "null, empty string, empty array or empty object", 1)
			return nil
		}
		f.sep()
		f.out = append(f.out, nameRaw...)
		f.out = append(f.out, ':')
		return f.value(n)
	}
	start := f.pos
	if err := f.scalar(c); err != nil {
		return err
	}
	v := f.d[start:f.pos]
	k := kindOf(c)
	if f.defaults && !r.keep && !n.protected {
		switch {
		case isEmptyScalar(k, v):
			f.noteNode(n, slotEmpty, ActDropEmpty, "null, empty string, empty array or empty object", 1)
			return nil
		case r.urlCand && k == '"' && (bytes.HasPrefix(v, []byte(`"http://`)) || bytes.HasPrefix(v, []byte(`"https://`))):
			f.noteNode(n, slotURL, ActDropURL, "link in a *_url member", 1)
			return nil
		case r.idCand && k == '"' && opaque(v):
			f.noteNode(n, slotID, ActDropID, "long opaque id", 1)
			return nil
		}
	}
	f.sep()
	f.out = append(f.out, nameRaw...)
	f.out = append(f.out, ':')
	f.writeScalar(n, k, v)
	return nil
}

// emptyContainer reports whether the object or array at the scanner is
// empty, and if so consumes it.
func (f *filter) emptyContainer(open byte) bool {
	end := byte('}')
	if open == '[' {
		end = ']'
	}
	save := f.pos
	f.pos++
	if f.peek() == end {
		f.pos++
		return true
	}
	f.pos = save
	return false
}

// Compact applies req.Rules to req.Input. JSON keeps its structure
// (minified, one value per line for JSON Lines and concatenated values)
// or becomes a table; text keeps every line, with runs of identical lines
// folded into "[×N] line"; binary becomes a hex dump.
func (declarative) Compact(ctx context.Context, req Request) (Output, error) {
	return declarativeUpTo(ctx, req, -1)
}

// declarativeUpTo is the declarative rules' Compact that, when stopOver
// >= 0, gives up with errLevel1Over as soon as the JSON output written so
// far is proved (by its token lower bound) to be over stopOver tokens.
// The pipeline uses it when a level 2 follows: on a large input over the
// budget, level 1's output would be thrown away, so it stops after the
// first few hundred KB instead of writing (and holding) an output about
// as large as the input. An output that may become a table (Rules.Format
// table or auto, records at the root) is stopped only when the table of
// the records written so far is over too (tableOver). Text stops the same
// way (textLevel1).
func declarativeUpTo(ctx context.Context, req Request, stopOver int) (Output, error) {
	var shape Shape
	var pre []schemas.Action
	if req.Shape != nil && sameBytes(req.Shape.data, req.Input) {
		shape = *req.Shape
	} else {
		var err error
		shape, err = DetectShapeAs(req.Input, req.Rules.Records, req.ContentType)
		if err != nil {
			pre = append(pre, schemas.Action{Level: schemas.LevelFields, Kind: ActRecordsMissing, Detail: err.Error()})
			shape, err = DetectShapeAs(req.Input, nil, req.ContentType)
			if err != nil {
				return Output{}, err
			}
		}
	}
	var out Output
	var err error
	switch shape.Format {
	case FormatEmpty:
		out = Output{Content: nil, ContentType: TypeText}
	case FormatBinary:
		out = hexdumpOutput(req.Input, shape.ContentType)
	case FormatText:
		out, err = textLevel1(req.Input, req.Rules, stopOver)
	default:
		out, err = jsonLevel1(ctx, req, &shape, stopOver)
	}
	if err != nil {
		return Output{}, err
	}
	out.Actions = append(pre, out.Actions...)
	return out, nil
}

func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func jsonLevel1(ctx context.Context, req Request, shape *Shape, stopOver int) (Output, error) {
	keep, err := compilePatterns(req.Rules.Keep)
	if err != nil {
		return Output{}, fmt.Errorf("keep: %w", err)
	}
	drop, err := compilePatterns(req.Rules.Drop)
	if err != nil {
		return Output{}, fmt.Errorf("drop: %w", err)
	}
	// The rule cache lives in the shape's nodes: work on a fresh tree when
	// the shape was already used.
	if shape.tree == nil || shape.tree.ruled {
		s, err := DetectShape(req.Input, collectionPaths(*shape))
		if err != nil {
			return Output{}, err
		}
		*shape = s
	}
	shape.tree.ruled = true
	f := &filter{
		ctx:       ctx,
		scanner:   scanner{d: req.Input},
		shape:     shape,
		out:       make([]byte, 0, outCap(len(req.Input), stopOver)),
		keep:      keep,
		drop:      drop,
		strMax:    req.Rules.StringsMax,
		defaults:  req.Rules.Defaults,
		actIdx:    map[string]int{},
		consts:    map[*node]int{},
		below:     map[*node]bool{},
		stopOver:  stopOver,
		tableStop: (req.Rules.Format == "table" || req.Rules.Format == "auto") && tableable(shape),
		stream:    shape.Format == FormatJSONL || shape.Format == FormatConcat,
		// A shorter output is rarely over: the first check waits
		// for four bytes per token of the budget.
		nextCheck: 4 * max(stopOver, 0),
	}
	if f.defaults {
		for i, st := range shape.stats {
			for _, c := range st.consts {
				f.consts[c] = i
			}
		}
	}
	stream := shape.Format == FormatJSONL || shape.Format == FormatConcat
	for n := 0; ; n++ {
		if f.peek() == 0 {
			break
		}
		if n > 0 {
			f.out = append(f.out, '\n')
			if n&1023 == 0 && f.overSoFar(true) {
				return Output{}, f.stopped()
			}
		}
		if err := f.value(shape.tree); err != nil {
			return Output{}, err
		}
	}
	out := Output{Content: f.out, ContentType: TypeJSON, Actions: f.actions}
	if stream {
		out.ContentType = TypeNDJSON
	}
	return tableIfAsked(req.Rules.Format, shape, out)
}

func collectionPaths(s Shape) []string {
	var p []string
	for _, c := range s.Collections {
		p = append(p, c.Path)
	}
	return p
}

// textLevel1 folds runs of identical lines and shortens long lines. With
// stopOver >= 0 it stops (a *level1Stopped error) once its output is
// proved over stopOver tokens, as jsonLevel1 does.
func textLevel1(data []byte, rules Rules, stopOver int) (Output, error) {
	nextCheck := 4 * max(stopOver, 0)
	var acts []schemas.Action
	bad := 0
	if !utf8.Valid(data) {
		bad = countInvalid(data)
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
		acts = append(acts, schemas.Action{Level: schemas.LevelFields, Kind: ActInvalidUTF8, Target: ".", Count: bad,
			Detail: "bytes that are not valid UTF-8 shown as U+FFFD, one U+FFFD per run of them"})
	}
	total := len(data) // as read below: invalid UTF-8 replaced
	out := make([]byte, 0, len(data))
	if stopOver >= 0 {
		out = make([]byte, 0, min(len(data), 1<<20)) // expected to stop early
	}
	folded, shortened, cutTotal := 0, 0, 0
	unfolded := 0
	var write func(line []byte, n int)
	write = func(line []byte, n int) {
		if n > 1 && (n-1)*(len(line)+1) <= len("[×] ")+len(strconv.Itoa(n)) {
			// Folding would not be shorter.
			for i := 0; i < n; i++ {
				write(line, 1)
			}
			unfolded += n - 1
			return
		}
		if n > 1 {
			out = append(out, "[×"...)
			out = strconv.AppendInt(out, int64(n), 10)
			out = append(out, "] "...)
		} else if bytes.HasPrefix(line, []byte("[×")) {
			// A line that looks like a fold marker is marked as one line.
			out = append(out, "[×1] "...)
		}
		if rules.StringsMax > 0 && utf8.RuneCount(line) > rules.StringsMax+len("…[+0 chars]") {
			total := utf8.RuneCount(line)
			i, c := 0, 0
			for c < rules.StringsMax {
				_, size := utf8.DecodeRune(line[i:])
				i += size
				c++
			}
			out = append(out, line[:i]...)
			out = append(out, shortenMarker(total-rules.StringsMax)...)
			shortened++
			cutTotal += total - rules.StringsMax
		} else {
			out = append(out, line...)
		}
		out = append(out, '\n')
	}
	var prev []byte
	run := 0
	finalNewline := len(data) > 0 && data[len(data)-1] == '\n'
	for len(data) > 0 {
		if stopOver >= 0 && len(out) >= nextCheck {
			nextCheck = len(out) + stopCheckEvery
			if lowerBoundOver(out, stopOver) {
				return Output{}, &level1Stopped{read: total - len(data), wrote: len(out)}
			}
		}
		line := data
		rest := []byte(nil)
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, rest = data[:j], data[j+1:]
		}
		if run > 0 && bytes.Equal(line, prev) {
			run++
		} else {
			if run > 0 {
				write(prev, run)
				folded += run - 1
			}
			prev, run = line, 1
		}
		data = rest
	}
	if run > 0 {
		write(prev, run)
		folded += run - 1
	}
	folded -= unfolded
	if len(out) > 0 && !finalNewline {
		out = out[:len(out)-1]
	}
	if folded > 0 {
		acts = append(acts, schemas.Action{Level: schemas.LevelFields, Kind: ActCollapse, Target: ".", Count: folded,
			Detail: "runs of identical lines shown once as \"[×N] line\""})
	}
	if shortened > 0 {
		acts = append(acts, schemas.Action{Level: schemas.LevelFields, Kind: ActShortenLines, Target: ".", Count: shortened,
			Detail: fmt.Sprintf("lines longer than %d characters shortened by %d characters in all, marked …[+N chars]", rules.StringsMax, cutTotal)})
	}
	return Output{Content: out, ContentType: TypeText, Actions: acts}, nil
}

func countInvalid(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			n++
		}
		i += size
	}
	return n
}

// hexdumpOutput shows binary data as a lossless hex dump (offset, 16
// bytes in hex, the printable ASCII), never raw.
func hexdumpOutput(data []byte, ct string) Output {
	var b strings.Builder
	fmt.Fprintf(&b, "binary data (%s), %d bytes, hex dump:\n", ct, len(data))
	d := hex.Dumper(&b)
	_, _ = d.Write(data)
	_ = d.Close()
	return Output{Content: []byte(strings.TrimRight(b.String(), "\n")), ContentType: TypeText, Actions: []schemas.Action{{
		Level: schemas.LevelFields, Kind: ActHexdump, Target: ".", Count: len(data),
		Detail: "binary input shown as a hex dump, never raw"}}}
}

// outCap is the capacity level 1's output buffer starts with for an input
// of n bytes. A large input gets room for all of it at once: the output
// is rarely larger, growing by appending would copy it several times
// (peaking at about twice its size), and the pages of a fresh large
// allocation are not touched, so room never written costs no memory.
//
// With a stop (stopOver >= 0, see declarativeUpTo) the output is expected
// to be stopped early: it starts at 1 MiB at most and grows as needed.
func outCap(n, stopOver int) int {
	if stopOver >= 0 {
		return min(n/2+64, 1<<20)
	}
	if n >= 8<<20 {
		return n + 64
	}
	return n/2 + 64
}
