package main

import (
	"bytes"
	"errors"
	"strings"

	"github.com/toolcompact/compact/plugins/pdk"
)

// options are the plugin's config keys, parsed.
type options struct {
	keep    []fieldPath // explicit columns; nil chooses them automatically
	drop    []string    // patterns of top-level fields not to show (automatic mode)
	json    bool        // format=json
	records string      // member of a top-level object holding the records
}

func parseOptions(cfg map[string]string) (options, error) {
	var o options
	for _, s := range splitList(cfg["keep"]) {
		p, err := parsePath(s)
		if err != nil {
			return o, pdk.Errorf("restlist: config keep: %w", err)
		}
		o.keep = append(o.keep, p)
	}
	o.drop = splitList(cfg["drop"])
	switch f := cfg["format"]; f {
	case "", "table":
	case "json":
		o.json = true
	default:
		return o, pdk.Errorf("restlist: config format=%q: want table or json", f)
	}
	if r := cfg["records"]; r != "" {
		name, ok := strings.CutPrefix(r, ".")
		if !ok || name == "" || strings.ContainsAny(name, ".[]") {
			return o, pdk.Errorf("restlist: config records=%q: want .member (a member of the top-level object)", r)
		}
		o.records = name
	}
	return o, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// noise are top-level and nested members that no reader acts on: API
// plumbing, ids meant for machines, and counters of reactions.
var noise = map[string]bool{
	"url": true, "node_id": true, "gravatar_id": true, "avatar_url": true, "reactions": true,
	"performed_via_github_app": true, "_links": true, "author_association": true,
	"active_lock_reason": true, "timeline_url": true, "sub_issues_summary": true,
	"issue_dependencies_summary": true, "site_admin": true, "user_view_type": true,
	"body": true, "closed_by": true,
}

// isNoise reports whether a member name is dropped by default: the noise
// list, any *_url, and id when the records also have a number.
func isNoise(key string) bool {
	return noise[key] || strings.HasSuffix(key, "_url")
}

// idFields are, in order of preference, the members that identify a
// nested object well enough to stand for it in a cell.
var idFields = []string{"login", "name", "title", "key", "slug", "id"}

// preferred is the column order for members commonly found in REST
// lists; other members follow in the order they first appear.
var preferred = []string{
	"number", "id", "key", "name", "title", "state", "status", "state_reason", "draft", "merged",
	"user", "author", "assignees", "assignee", "labels", "milestone", "comments",
	"created_at", "updated_at", "closed_at", "merged_at", "pull_request",
}

// record is one input record: its top-level members, by key index.
type record struct {
	members []memberSpan
}

type memberSpan struct {
	key int
	raw []byte
}

// set records a member; a repeated member (dup) replaces the earlier one,
// as in encoding/json.
func (r *record) set(key int, raw []byte, dup bool) {
	if dup {
		for i := range r.members {
			if r.members[i].key == key {
				r.members[i].raw = raw
				return
			}
		}
	}
	r.members = append(r.members, memberSpan{key, raw})
}

func (r record) get(key int) []byte {
	// Records usually hold their members in the order the keys were first
	// seen, so the key index is usually the position.
	if key >= 0 && key < len(r.members) && r.members[key].key == key {
		return r.members[key].raw
	}
	for _, m := range r.members {
		if m.key == key {
			return m.raw
		}
	}
	return nil
}

// input is the parsed list.
type input struct {
	path    string   // jq path of the collection in the input
	wrapper string   // the member holding the records, when path is not "."
	size    int      // bytes of input
	keys    []string // top-level record members, in order of first appearance
	records []record
	extras  [][2][]byte // other members of a wrapping object: key, raw value
	rs      readers     // Readers for member lookups, reused
}

var errNotList = errors.New("restlist: the input is not a JSON array of objects (nor an object holding one)")

func parseInput(payload []byte, o options) (*input, error) {
	in := &input{path: ".", size: len(payload)}
	r := pdk.NewReader(payload)
	switch r.Peek() {
	case pdk.BeginArray:
	case pdk.BeginObject:
		r.BeginObject()
		found := false
		seen := map[string]bool{}
		for r.More() {
			t := r.Next()
			if t.Kind != pdk.Key {
				break
			}
			name := t.Text()
			if seen[name] {
				// Which of the two counts is undefined in JSON: decline.
				return nil, pdk.Errorf("restlist: the top-level object has the member %q twice (offset %d)", name, t.Offset)
			}
			seen[name] = true
			if !found && r.Peek() == pdk.BeginArray && (o.records == "" || o.records == name) {
				raw, err := r.RawValue()
				if err != nil {
					return nil, err
				}
				if o.records == name || listOfObjects(raw) {
					found = true
					in.path = jqMember(name)
					in.wrapper = name
					if err := in.readRecords(pdk.NewReader(raw)); err != nil {
						return nil, err
					}
					continue
				}
				in.extras = append(in.extras, [2][]byte{[]byte(name), raw})
				continue
			}
			raw, err := r.RawValue()
			if err != nil {
				return nil, err
			}
			in.extras = append(in.extras, [2][]byte{[]byte(name), raw})
		}
		if r.Err() != nil {
			return nil, pdk.Errorf("restlist: %w", r.Err())
		}
		if !found {
			if o.records != "" {
				return nil, pdk.Errorf("restlist: config records=.%s: no such array in the input", o.records)
			}
			return nil, errNotList
		}
		if o.records == "" {
			// Guess only when the guess is unambiguous: one list of
			// objects, and not a tree whose nodes hold the same member.
			name := in.path[1:]
			if in.keyIndex(name) >= 0 {
				return nil, pdk.Errorf("restlist: %s holds a tree (its records have %q too), not a list; set config records to use it anyway", in.path, name)
			}
			for _, e := range in.extras {
				if len(e[1]) > 0 && e[1][0] == '[' && listOfObjects(e[1]) {
					return nil, pdk.Errorf("restlist: both %s and .%s hold lists of objects; set config records to choose", in.path, e[0])
				}
			}
		}
		return in, expectEnd(r)
	case pdk.Invalid:
		return nil, pdk.Errorf("restlist: %w", r.Err())
	default:
		return nil, errNotList
	}
	// A top-level array: read the records in the same pass.
	if err := in.readRecords(r); err != nil {
		return nil, err
	}
	return in, expectEnd(r)
}

// listOfObjects reports whether raw is an array whose first element is an
// object.
func listOfObjects(raw []byte) bool {
	for _, c := range raw[1:] {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c == '{'
	}
	return false
}

func expectEnd(r *pdk.Reader) error {
	if t := r.Next(); t.Kind != pdk.EOF {
		if r.Err() != nil {
			return pdk.Errorf("restlist: %w", r.Err())
		}
		return pdk.Errorf("restlist: unexpected %s at offset %d after the JSON value", t.Kind, t.Offset)
	}
	return nil
}

// jqMember returns the jq path of a top-level member.
func jqMember(name string) string {
	ident := name != ""
	for i, c := range name {
		if !(c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || (i > 0 && c >= '0' && c <= '9')) {
			ident = false
		}
	}
	if ident {
		return "." + name
	}
	return ".[" + string(pdk.AppendQuote(nil, name)) + "]"
}

// readRecords reads an array of objects; anything else in it is an error
// naming the element.
func (in *input) readRecords(r *pdk.Reader) error {
	keyIndex := map[string]int{}
	var lastSet []int // per key: 1 + the last record that set it
	if err := r.BeginArray(); err != nil {
		return pdk.Errorf("restlist: %w", err)
	}
	for i := 0; r.More(); i++ {
		if k := r.Peek(); k != pdk.BeginObject {
			if k == pdk.Invalid {
				return pdk.Errorf("restlist: %w", r.Err())
			}
			return pdk.Errorf("restlist: element %d of %s is %s, not an object", i, in.path, k)
		}
		r.BeginObject()
		rec := record{members: make([]memberSpan, 0, len(in.keys))}
		for {
			t, v, ok := r.NextMember()
			if !ok {
				break
			}
			name := t.Raw[1 : len(t.Raw)-1]
			k := -1
			if bytes.IndexByte(name, '\\') < 0 {
				// The member at position j is usually keys[j]; otherwise
				// a map lookup, which does not allocate for a []byte key.
				if j := len(rec.members); j < len(in.keys) && string(name) == in.keys[j] {
					k = j
				} else if idx, ok := keyIndex[string(name)]; ok {
					k = idx
				}
			}
			if k < 0 {
				text := t.Text()
				idx, ok := keyIndex[text]
				if !ok {
					idx = len(in.keys)
					keyIndex[text] = idx
					in.keys = append(in.keys, text)
					lastSet = append(lastSet, 0)
				}
				k = idx
			}
			rec.set(k, v, lastSet[k] == i+1)
			lastSet[k] = i + 1
		}
		if r.Err() != nil {
			return pdk.Errorf("restlist: %w", r.Err())
		}
		in.records = append(in.records, rec)
	}
	if r.Err() != nil {
		return pdk.Errorf("restlist: %w", r.Err())
	}
	return nil
}

// column is one shown column.
type column struct {
	path fieldPath
	key  int // top-level key index the path starts at, or -1
}

// plan is what the output shows and what it says it left out.
type plan struct {
	columns []column
	empty   []string // columns null or absent in every record
	dropped []string // top-level members not shown
}

func matchPattern(pattern, name string) bool {
	if p, ok := strings.CutPrefix(pattern, "*"); ok {
		return strings.HasSuffix(name, p)
	}
	if p, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, p)
	}
	return pattern == name
}

func (in *input) keyIndex(name string) int {
	for i, k := range in.keys {
		if k == name {
			return i
		}
	}
	return -1
}

// choose decides the columns in automatic mode.
func (in *input) choose(o options) plan {
	var p plan
	order := make([]int, 0, len(in.keys))
	seen := make([]bool, len(in.keys))
	for _, name := range preferred {
		if k := in.keyIndex(name); k >= 0 {
			order = append(order, k)
			seen[k] = true
		}
	}
	for k := range in.keys {
		if !seen[k] {
			order = append(order, k)
		}
	}
	hasNumber := in.keyIndex("number") >= 0
	for _, k := range order {
		name := in.keys[k]
		drop := isNoise(name) || (name == "id" && hasNumber) ||
			(in.keyIndex(name+"s") >= 0 && !isNoise(name+"s")) // assignee beside assignees
		for _, pat := range o.drop {
			drop = drop || matchPattern(pat, name)
		}
		if drop {
			p.dropped = append(p.dropped, name)
			continue
		}
		path, ok := in.autoPath(k)
		if !ok {
			p.dropped = append(p.dropped, name)
			continue
		}
		p.columns = append(p.columns, column{path: path, key: k})
	}
	return p
}

// autoPath picks how a top-level member is shown: as it is when scalar
// (or an array of scalars), by an identifying field when it holds objects
// (user.login, labels[].name), whole when it holds small objects of at
// most three scalar members (Dimensions[] of {"Name","Value"}), and not
// at all when it holds other objects.
func (in *input) autoPath(k int) (fieldPath, bool) {
	name := in.keys[k]
	for _, rec := range in.records {
		raw := rec.get(k)
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		switch raw[0] {
		case '{':
			if small(raw) {
				return fieldPath{name: name, steps: []step{{key: name}}}, true
			}
			if f, ok := idField(raw); ok {
				return fieldPath{name: name + "." + f, steps: []step{{key: name}, {key: f}}}, true
			}
			return fieldPath{}, false
		case '[':
			es := elements(raw)
			if len(es) == 0 {
				continue // look at the next record
			}
			switch es[0][0] {
			case '{':
				if small(es[0]) {
					return fieldPath{name: name + "[]", steps: []step{{key: name}, {each: true}}}, true
				}
				if f, ok := idField(es[0]); ok {
					return fieldPath{name: name + "[]." + f, steps: []step{{key: name}, {each: true}, {key: f}}}, true
				}
				return fieldPath{}, false
			case '[':
				return fieldPath{}, false
			}
			return fieldPath{name: name + "[]", steps: []step{{key: name}, {each: true}}}, true
		default:
			return fieldPath{name: name, steps: []step{{key: name}}}, true
		}
	}
	// Null or absent (or empty lists) everywhere: a plain column, which
	// the table then reports as empty.
	return fieldPath{name: name, steps: []step{{key: name}}}, true
}

// small reports whether an object has at most three members, all scalars
// and none of them noise: it is shown whole.
func small(obj []byte) bool {
	n := 0
	ok := eachMember(obj, func(name string, v []byte) bool {
		n++
		return n <= 3 && !isNoise(name) && v[0] != '{' && v[0] != '['
	})
	return ok && n > 0
}

// eachMember calls fn for each member of the JSON object obj until fn
// returns false; it reports whether every call returned true.
func eachMember(obj []byte, fn func(name string, v []byte) bool) bool {
	r := pdk.NewReader(obj)
	if r.BeginObject() != nil {
		return false
	}
	for {
		t, v, ok := r.NextMember()
		if !ok {
			return r.Err() == nil
		}
		if !fn(t.Text(), v) {
			return false
		}
	}
}

// idField picks the identifying member of an object: the first of
// idFields (compared without case) it holds with a scalar value, else its
// only non-noise scalar member.
func idField(obj []byte) (string, bool) {
	best, rank := "", len(idFields)
	var only string
	n := 0
	eachMember(obj, func(name string, v []byte) bool {
		scalar := v[0] != '{' && v[0] != '['
		for i, f := range idFields {
			if i < rank && scalar && strings.EqualFold(name, f) {
				best, rank = name, i
			}
		}
		if !isNoise(name) {
			n++
			only = name
			if !scalar {
				n = 100 // not a candidate for "only member"
			}
		}
		return true
	})
	if best != "" {
		return best, true
	}
	return only, n == 1
}

// The table is compact's level-1 table format (content type
// text/x-compact-table, see budget/table.go and docs/level1.md): a header
// line of column names separated by tabs, then one line per record with
// its cells separated by tabs, no final newline. A cell is empty when the
// record has no such member, JSON text when it starts with '"', '{' or '['
// or is a JSON number, true, false or null, and otherwise the literal text
// of a string. A list column (labels[].name) is a JSON array.
const tableType = "text/x-compact-table"

// bare reports whether a string can be written as it is in a cell (or, as
// a column name, in the header): it reads back as the same string.
func bare(s []byte, name bool) bool {
	if len(s) == 0 || s[0] == '"' {
		return false
	}
	if pdk.IndexControl(s) >= 0 {
		return false
	}
	if name {
		return true
	}
	if s[0] == '{' || s[0] == '[' {
		return false
	}
	// Quote anything a reader could take for a JSON scalar.
	switch string(s) {
	case "true", "false", "null":
		return false
	}
	return !looksNumeric(s)
}

// looksNumeric reports whether s is a JSON number, allowing surrounding
// whitespace (so that no reader, however lenient, takes a bare cell for
// one).
func looksNumeric(s []byte) bool {
	i, j := 0, len(s)
	for i < j && isSpaceByte(s[i]) {
		i++
	}
	for j > i && isSpaceByte(s[j-1]) {
		j--
	}
	t := s[i:j]
	if len(t) == 0 || (t[0] != '-' && (t[0] < '0' || t[0] > '9')) {
		return false
	}
	if t[0] == '-' {
		t = t[1:]
	}
	d := func() int {
		n := 0
		for n < len(t) && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		return n
	}
	n := d()
	if n == 0 || (t[0] == '0' && n > 1) {
		return false
	}
	t = t[n:]
	if len(t) > 0 && t[0] == '.' {
		t = t[1:]
		if n = d(); n == 0 {
			return false
		}
		t = t[n:]
	}
	if len(t) > 0 && (t[0] == 'e' || t[0] == 'E') {
		t = t[1:]
		if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
			t = t[1:]
		}
		if n = d(); n == 0 {
			return false
		}
		t = t[n:]
	}
	return len(t) == 0
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// appendText appends a string, bare when that reads back the same, else
// JSON-quoted.
func appendText(dst, s []byte, name bool) []byte {
	if bare(s, name) {
		return append(dst, s...)
	}
	return pdk.AppendQuote(dst, string(s))
}

// appendCell appends the cell of column c for rec.
func appendCell(rs *readers, dst []byte, rec record, c column, vals [][]byte) ([]byte, [][]byte) {
	top := rec.get(c.key)
	if len(top) == 0 {
		return dst, vals // absent
	}
	vals = extract(rs, vals[:0], top, c.path.steps[1:])
	if c.path.list() {
		if string(top) == "null" {
			return append(dst, "null"...), vals
		}
		dst = append(dst, '[')
		for i, v := range vals {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCompact(dst, v)
		}
		return append(dst, ']'), vals
	}
	if len(vals) == 0 {
		return dst, vals // absent on the way (user.login of a null user)
	}
	v := vals[0]
	if v[0] != '"' {
		return appendCompact(dst, v), vals
	}
	start := len(dst)
	dst = pdk.AppendUnquote(dst, v)
	if bare(dst[start:], false) {
		return dst, vals
	}
	text := string(dst[start:])
	return pdk.AppendQuote(dst[:start], text), vals
}

// appendCompact appends a JSON value without insignificant whitespace.
func appendCompact(dst []byte, raw []byte) []byte {
	if raw[0] != '{' && raw[0] != '[' {
		return append(dst, raw...) // a scalar token is already compact
	}
	r := pdk.NewReader(raw)
	w := pdk.NewWriter(dst)
	for {
		t := r.Next()
		if t.Kind == pdk.EOF || t.Kind == pdk.Invalid {
			return w.Bytes()
		}
		w.Token(t)
	}
}

// table renders the records in the level-1 table format. Columns that
// are null or absent in every record are left out and reported.
func (in *input) table(p *plan) ([]byte, error) {
	var shown []int
	for j, c := range p.columns {
		empty := true
		for _, rec := range in.records {
			if v := rec.get(c.key); len(v) > 0 && string(v) != "null" {
				if c.path.list() || len(extract(&in.rs, nil, v, c.path.steps[1:])) > 0 {
					empty = false
					break
				}
			}
		}
		if empty && len(in.records) > 0 {
			p.empty = append(p.empty, c.path.name)
			continue
		}
		shown = append(shown, j)
	}
	if len(shown) == 0 && len(in.records) > 0 {
		return nil, pdk.Errorf("restlist: no field left to show in %s (not shown: %s)", in.path, strings.Join(p.dropped, ", "))
	}
	out := make([]byte, 0, 4096+in.size/8) // grows if needed; less garbage per call
	for n, j := range shown {
		if n > 0 {
			out = append(out, '\t')
		}
		out = appendText(out, []byte(p.columns[j].path.name), true)
	}
	var vals [][]byte
	for _, rec := range in.records {
		out = append(out, '\n')
		for n, j := range shown {
			if n > 0 {
				out = append(out, '\t')
			}
			out, vals = appendCell(&in.rs, out, rec, p.columns[j], vals)
		}
	}
	return out, nil
}

// actions reports what the payload does not show: every top-level member
// left out (with how many records hold it), every column null or absent
// everywhere, and the other members of a wrapping object.
func (in *input) actions(p *plan) []pdk.Action {
	var acts []pdk.Action
	for _, name := range p.dropped {
		k := in.keyIndex(name)
		n := 0
		for _, rec := range in.records {
			if len(rec.get(k)) > 0 {
				n++
			}
		}
		acts = append(acts, pdk.Action{Kind: "drop_field", Target: in.recordPath() + jqMember(name), Count: n, Detail: "not shown by the restlist plugin"})
	}
	for _, name := range p.empty {
		acts = append(acts, pdk.Action{Kind: "drop_empty", Target: in.recordPath() + "." + name, Count: len(in.records), Detail: "null or absent in every record"})
	}
	for _, e := range in.extras {
		detail := "member of the object around the records"
		if len(e[1]) <= 200 {
			detail += ": " + string(appendCompact(nil, e[1]))
		}
		acts = append(acts, pdk.Action{Kind: "drop_field", Target: jqMember(string(e[0])), Count: 1, Detail: detail})
	}
	return acts
}

// recordPath is the jq path of every record: .[] or .items[].
func (in *input) recordPath() string {
	if in.path == "." {
		return ".[]"
	}
	return in.path + "[]"
}

// jsonList renders the records as a JSON array of objects whose members
// are the column paths.
func (in *input) jsonList(p plan) []byte {
	w := pdk.NewWriter(make([]byte, 0, 4096))
	if in.path != "." {
		// The collection stays at its path: {"items": [...]}.
		w.BeginObject()
		w.Key(in.wrapper)
	}
	w.BeginArray()
	var vals [][]byte
	for _, rec := range in.records {
		w.BeginObject()
		for _, c := range p.columns {
			vals = extract(&in.rs, vals[:0], rec.get(c.key), c.path.steps[1:])
			if len(vals) == 0 && !c.path.list() {
				continue
			}
			w.Key(c.path.name)
			if c.path.list() {
				w.BeginArray()
				for _, v := range vals {
					w.Raw(appendCompact(nil, v))
				}
				w.EndArray()
			} else {
				w.Raw(appendCompact(nil, vals[0]))
			}
		}
		w.EndObject()
	}
	w.EndArray()
	if in.path != "." {
		w.EndObject()
	}
	return w.Bytes()
}

// explicit builds the plan for keep=...
func (in *input) explicit(o options) plan {
	var p plan
	used := make([]bool, len(in.keys))
	for _, fp := range o.keep {
		k := in.keyIndex(fp.steps[0].key)
		if k >= 0 {
			used[k] = true
		}
		p.columns = append(p.columns, column{path: fp, key: k})
	}
	for k, name := range in.keys {
		if !used[k] {
			p.dropped = append(p.dropped, name)
		}
	}
	return p
}

// compact is the plugin's pdk.Func.
func compact(h pdk.Header, payload []byte) (pdk.OutputHeader, []byte, error) {
	o, err := parseOptions(h.Config)
	if err != nil {
		return pdk.OutputHeader{}, nil, err
	}
	oh, body, err := render(payload, o)
	if err != nil {
		return oh, nil, err
	}
	if oh.Collections[0].Count < 2 || len(body) >= len(payload) {
		// Nothing to gain (no list: none or one record, whose members
		// may hold the input's own collections, as EXPLAIN's one plan
		// does; or a table no smaller): hand the input back unchanged
		// for the host to count.
		return pdk.OutputHeader{ContentType: "application/json"}, payload, nil
	}
	return oh, body, nil
}

// render parses the list and renders it as configured.
func render(payload []byte, o options) (pdk.OutputHeader, []byte, error) {
	in, err := parseInput(payload, o)
	if err != nil {
		return pdk.OutputHeader{}, nil, err
	}
	var p plan
	if o.keep != nil {
		p = in.explicit(o)
	} else {
		p = in.choose(o)
	}
	oh := pdk.OutputHeader{
		ContentType: tableType,
		Collections: []pdk.Collection{{Path: in.path, Count: len(in.records)}},
	}
	var body []byte
	if o.json {
		oh.ContentType = "application/json"
		body = in.jsonList(p)
	} else if body, err = in.table(&p); err != nil {
		return pdk.OutputHeader{}, nil, err
	}
	oh.Actions = in.actions(&p)
	return oh, body, nil
}
