package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// ErrContent is wrapped by the error of a plugin output that passes the
// count checks but does something a field compressor may not: a value
// that is not the input's, a record out of order or standing for the
// wrong input record, a member or line that is not in the input, or a
// group whose template or count does not hold (schemas/ABI.md §4,
// "What the payload may contain"). Its text starts with the first
// offending path or line.
var ErrContent = errors.New("output content not verified against the input")

// contentErr is an ErrContent naming where.
func contentErr(where, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrContent, where, fmt.Sprintf(format, args...))
}

// verifyContent checks that a plugin's payload holds only what a field
// compressor may show of input (ABI.md §4): counts are checked before,
// by budget.CheckOutput.
func verifyContent(input []byte, in budget.Shape, out budget.Output, config map[string]string) error {
	ct := out.ContentType
	if ct == "" {
		ct = in.ContentType
	}
	mt := strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	switch in.Format {
	case budget.FormatEmpty:
		return nil // CheckOutput refuses a non-empty output of an empty input
	case budget.FormatBinary:
		if !bytes.Equal(out.Content, input) {
			return contentErr("payload", "the input is binary; a plugin may only return it unchanged")
		}
		return nil
	}
	if err := verifyActions(input, in, out.Actions, config); err != nil {
		return err
	}
	v := &contentCheck{declared: map[string]schemas.DeclaredCollection{}, colls: map[string]bool{}}
	for _, d := range out.Declared {
		v.declared[d.Path] = d
	}
	for _, c := range in.Collections {
		v.colls[c.Path] = true
	}
	lines := in.Format == budget.FormatText || in.Format == budget.FormatJSONL
	switch mt {
	case budget.TypeJSON, budget.TypeNDJSON:
		if in.Format == budget.FormatText {
			return contentErr("payload", "a JSON payload cannot stand for lines of text: its values have no input path to be checked against")
		}
		return v.json(input, out.Content, in)
	case budget.TypeTable:
		if in.Format == budget.FormatText || len(in.Collections) != 1 {
			return contentErr("payload", "a table stands for the one collection of records of a JSON input")
		}
		return v.table(input, out.Content, in)
	default:
		if !lines {
			return contentErr("payload", "a %s payload stands for lines; the input's records are JSON values, whose content the host can only check in JSON or a table", mt)
		}
		return verifyLines(input, out.Content)
	}
}

// contentCheck holds what one check needs.
type contentCheck struct {
	declared map[string]schemas.DeclaredCollection
	colls    map[string]bool
	ms       [][]rawMember // free list of member indexes
}

func (v *contentCheck) getMembers() []rawMember {
	if n := len(v.ms); n > 0 {
		m := v.ms[n-1]
		v.ms = v.ms[:n-1]
		return m[:0]
	}
	return make([]rawMember, 0, 32)
}

func (v *contentCheck) putMembers(m []rawMember) { v.ms = append(v.ms, m) }

// json checks a JSON payload against a JSON input.
func (v *contentCheck) json(input, payload []byte, in budget.Shape) error {
	inVals := streamValues(input)
	outVals := streamValues(payload)
	if in.Format == budget.FormatJSON {
		if len(outVals) != 1 {
			return contentErr(".", "the payload holds %d JSON values, the input one", len(outVals))
		}
		return v.value(outVals[0], inVals[0], ".", ".")
	}
	// A stream: its values are the records of ".", in the payload either
	// as a stream too or as one array.
	arr := []byte(nil)
	if len(outVals) == 1 && len(inVals) != 1 && len(outVals[0]) > 0 && outVals[0][0] == '[' {
		arr = outVals[0]
	}
	if arr == nil {
		var b bytes.Buffer
		b.WriteByte('[')
		for i, o := range outVals {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(o)
		}
		b.WriteByte(']')
		arr = b.Bytes()
	}
	return v.records(arr, inVals, ".", ".")
}

// seg is the jq path segment of member name (as budget renders paths).
func seg(name string) string {
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

func join(path, s string) string {
	if path == "." {
		if s[0] == '[' {
			return "." + s
		}
		return s
	}
	return path + s
}

// value checks the output value out against the input value in; sp is
// the input path with "[]" for elements (to find collections), cp the
// concrete path for messages.
func (v *contentCheck) value(out, in []byte, sp, cp string) error {
	if v.colls[sp] && (out[0] == '[' || out[0] == '{') {
		switch {
		case out[0] == '[' && in[0] == '[':
			return v.records(out, elements(nil, in), sp, cp)
		case out[0] == '{' && in[0] == '{':
			return v.mapRecords(out, in, sp, cp)
		}
		return contentErr(cp, "holds %s, the input %s", kindName(out), kindName(in))
	}
	switch out[0] {
	case '{':
		if in[0] != '{' {
			return contentErr(cp, "is an object, the input has %s", kindName(in))
		}
		ims := members(v.getMembers(), in)
		defer v.putMembers(ims)
		for _, m := range members(nil, out) {
			name := keyText(m.key)
			iv, ok := lookup(ims, name)
			if !ok {
				return contentErr(join(cp, seg(name)), "member not in the input")
			}
			if err := v.value(m.val, iv, join(sp, seg(name)), join(cp, seg(name))); err != nil {
				return err
			}
		}
		return nil
	case '[':
		if in[0] != '[' {
			return contentErr(cp, "is an array, the input has %s", kindName(in))
		}
		oe, ie := elements(nil, out), elements(nil, in)
		if len(oe) != len(ie) {
			return contentErr(cp, "array of %d elements, the input's has %d", len(oe), len(ie))
		}
		for i := range oe {
			p := join(cp, "["+strconv.Itoa(i)+"]")
			if err := v.value(oe[i], ie[i], join(sp, "[]"), p); err != nil {
				return err
			}
		}
		return nil
	}
	return scalarEq(out, in, cp)
}

func kindName(raw []byte) string {
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// records checks the elements of the output array out against the input
// records ins of the collection at sp: one output record per input
// record in order, or, with a declared count_field, groups in the order
// of their first record (see groups).
func (v *contentCheck) records(out []byte, ins [][]byte, sp, cp string) error {
	if out[0] != '[' {
		return contentErr(cp, "holds %s, the input an array of records", kindName(out))
	}
	oe := elements(nil, out)
	if d := v.declared[sp]; d.CountField != "" {
		return v.groups(oe, ins, sp, cp, d.CountField)
	}
	if len(oe) != len(ins) {
		return contentErr(cp, "%d records, the input has %d", len(oe), len(ins))
	}
	for i := range oe {
		if err := v.record(oe[i], ins[i], join(sp, "[]"), join(cp, "["+strconv.Itoa(i)+"]"), ""); err != nil {
			return err
		}
	}
	return nil
}

// mapRecords checks a map collection: each output member is the input's
// member of the same name.
func (v *contentCheck) mapRecords(out, in []byte, sp, cp string) error {
	ims := members(nil, in)
	for _, m := range members(nil, out) {
		name := keyText(m.key)
		iv, ok := lookup(ims, name)
		if !ok {
			return contentErr(join(cp, seg(name)), "record not in the input")
		}
		if err := v.record(m.val, iv, join(sp, "[]"), join(cp, seg(name)), ""); err != nil {
			return err
		}
	}
	return nil
}

// record checks one output record against the input record it stands
// for. A member is the input member of the same name or, when the input
// has none, a column path (user.login, labels[].name: members separated
// by dots, "[]" for every element of an array) whose values it holds.
// countField, when set, is the group count and not a value.
func (v *contentCheck) record(out, in []byte, sp, cp, countField string) error {
	if out[0] != '{' || in[0] != '{' {
		return v.value(out, in, sp, cp)
	}
	ims := members(v.getMembers(), in)
	defer v.putMembers(ims)
	for _, m := range members(nil, out) {
		name := keyText(m.key)
		if name == countField {
			continue
		}
		if err := v.member(ims, name, m.val, sp, cp); err != nil {
			return err
		}
	}
	return nil
}

// member checks one output member (or table cell, whose absent value is
// nil) named name against the input record's members ims.
func (v *contentCheck) member(ims []rawMember, name string, val []byte, sp, cp string) error {
	p := join(cp, seg(name))
	if iv, ok := lookup(ims, name); ok {
		if val == nil {
			return contentErr(p, "empty, but the input record has a value")
		}
		return v.value(val, iv, join(sp, seg(name)), p)
	}
	steps, ok := parseColumn(name)
	if !ok {
		if val == nil {
			return nil // an absent cell of a member this record lacks
		}
		return contentErr(p, "member not in the input record")
	}
	top, ok := lookup(ims, steps[0].key)
	list := false
	for _, s := range steps {
		list = list || s.each
	}
	if val == nil {
		if ok && len(extractPath(nil, top, steps[1:])) > 0 || ok && list && string(top) != "null" {
			return contentErr(p, "empty, but the input record has a value there")
		}
		return nil
	}
	if !ok {
		if list && len(bytes.TrimSpace(val)) == 2 && val[0] == '[' {
			return nil // an empty list for a path the record lacks
		}
		return contentErr(p, "column path not in the input record")
	}
	vals := extractPath(nil, top, steps[1:])
	if !list {
		if len(vals) == 0 {
			return contentErr(p, "column path has no value in the input record")
		}
		return scalarOrValue(v, val, vals[0], p)
	}
	if string(val) == "null" && string(top) == "null" {
		return nil
	}
	if val[0] != '[' {
		return contentErr(p, "is %s, the column path yields a list", kindName(val))
	}
	oe := elements(nil, val)
	if len(oe) != len(vals) {
		return contentErr(p, "list of %d values, the input record has %d there", len(oe), len(vals))
	}
	for i := range oe {
		if err := scalarOrValue(v, oe[i], vals[i], join(p, "["+strconv.Itoa(i)+"]")); err != nil {
			return err
		}
	}
	return nil
}

// scalarOrValue compares two values found by a column path (no
// collections inside records).
func scalarOrValue(v *contentCheck, out, in []byte, cp string) error {
	return v.value(out, in, "\x00", cp)
}

// column path steps.
type colStep struct {
	key  string
	each bool
}

// parseColumn parses a column path; ok is false when name is not one
// (no "." and no "[]").
func parseColumn(name string) ([]colStep, bool) {
	if !strings.Contains(name, ".") && !strings.Contains(name, "[]") {
		return nil, false
	}
	var steps []colStep
	for _, part := range strings.Split(name, ".") {
		key, each := strings.CutSuffix(part, "[]")
		if key == "" || strings.ContainsAny(key, "[]") {
			return nil, false
		}
		steps = append(steps, colStep{key: key})
		if each {
			steps = append(steps, colStep{each: true})
		}
	}
	return steps, true
}

// extractPath appends the values at steps below raw: a member of an
// object, or every element of an array; null and missing values yield
// nothing except as the last step.
func extractPath(dst [][]byte, raw []byte, steps []colStep) [][]byte {
	if len(raw) == 0 {
		return dst
	}
	if len(steps) == 0 {
		return append(dst, raw)
	}
	if string(raw) == "null" {
		return dst
	}
	s := steps[0]
	if s.each {
		if raw[0] != '[' {
			return dst
		}
		for _, e := range elements(nil, raw) {
			dst = extractPath(dst, e, steps[1:])
		}
		return dst
	}
	m, _ := memberOf(raw, s.key)
	return extractPath(dst, m, steps[1:])
}

// groups checks grouped records: each output record stands for as many
// input records as its count member says (1 when absent) and shows only
// values every one of them has. Input records are taken in order; each
// goes to the open group (one whose first record came earlier and that
// still has room) showing the most members that it matches, else opens
// the next group, which it must match. So groups appear in the order of
// their first record, and every record is accounted for once.
func (v *contentCheck) groups(oe, ins [][]byte, sp, cp, countField string) error {
	type grp struct {
		raw  []byte
		left int
		size int // members shown
	}
	gs := make([]grp, len(oe))
	for i, o := range oe {
		n := 1
		if o[0] == '{' {
			if c, ok := memberOf(o, countField); ok {
				k, err := strconv.Atoi(string(c))
				if err != nil || k < 1 {
					return contentErr(join(cp, "["+strconv.Itoa(i)+"]"+seg(countField)), "count %s is not an integer ≥ 1", c)
				}
				n = k
			}
			gs[i].size = len(members(nil, o))
		}
		gs[i] = grp{raw: o, left: n, size: gs[i].size}
	}
	var open []int // groups opened and not yet full
	next := 0
	esp := join(sp, "[]")
	for r, in := range ins {
		best := -1
		for _, g := range open {
			if (best < 0 || gs[g].size > gs[best].size) && v.record(gs[g].raw, in, esp, "", countField) == nil {
				best = g
			}
		}
		if best < 0 || (next < len(gs) && gs[next].size > gs[best].size && v.record(gs[next].raw, in, esp, "", countField) == nil) {
			if next >= len(gs) {
				return contentErr(join(cp, "["+strconv.Itoa(r)+"]"), "input record %d is in no group", r)
			}
			if err := v.record(gs[next].raw, in, esp, join(cp, "["+strconv.Itoa(next)+"]"), countField); err != nil {
				return fmt.Errorf("%w (input record %d, the first not in an earlier group)", err, r)
			}
			best = next
			open = append(open, next)
			next++
			if len(open) > maxOpenGroups {
				// Each record is compared with every open group: a bound
				// keeps a hostile output from making the check quadratic.
				return contentErr(join(cp, "["+strconv.Itoa(next-1)+"]"), "more than %d groups have records still to come at input record %d; the host checks at most that many interleaved groups", maxOpenGroups, r)
			}
		}
		if gs[best].left--; gs[best].left == 0 {
			for i, g := range open {
				if g == best {
					open = append(open[:i], open[i+1:]...)
					break
				}
			}
		}
	}
	for i, g := range gs {
		if g.left != 0 || i >= next {
			return contentErr(join(cp, "["+strconv.Itoa(i)+"]"), "the group's count does not match the input records it stands for")
		}
	}
	return nil
}

// maxOpenGroups bounds the groups with records still to come at any
// point of the input (see groups).
const maxOpenGroups = 256

// shortenSuffix matches the marker of a shortened string.
const shortenOpen, shortenClose = "…[+", " chars]"

// scalarEq compares two scalars: equal JSON values, or out a marked
// shortening of the string in (a prefix of it, then "…[+N chars]" with N
// the characters cut).
func scalarEq(out, in []byte, cp string) error {
	if bytes.Equal(out, in) {
		return nil
	}
	switch {
	case out[0] == '"' && in[0] == '"':
		var so, si string
		if json.Unmarshal(out, &so) != nil || json.Unmarshal(in, &si) != nil {
			return contentErr(cp, "string not decodable")
		}
		if so == si {
			return nil
		}
		if strings.HasSuffix(so, shortenClose) {
			if k := strings.LastIndex(so, shortenOpen); k >= 0 {
				n, err := strconv.Atoi(so[k+len(shortenOpen) : len(so)-len(shortenClose)])
				prefix := so[:k]
				if err == nil && strings.HasPrefix(si, prefix) && utf8.RuneCountInString(si[len(prefix):]) == n && n > 0 {
					return nil
				}
				return contentErr(cp, "shortened string is not a prefix of the input's followed by the exact number of characters cut")
			}
		}
		return contentErr(cp, "value %s differs from the input's %s", clip(string(out), 60), clip(string(in), 60))
	case isNum(out[0]) && isNum(in[0]):
		if canonNum(out) == canonNum(in) {
			return nil
		}
	}
	return contentErr(cp, "value %s differs from the input's %s", clip(string(out), 60), clip(string(in), 60))
}

func isNum(c byte) bool { return c == '-' || c >= '0' && c <= '9' }

// canonNum is the shortest text of a JSON number as a float64, so that
// 1.0 and 1 compare equal but 10 and 1e1 only if their values do.
func canonNum(b []byte) string {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return string(b)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// table checks a text/x-compact-table payload: row i is input record i;
// each column is a member or column path of the records; each cell is
// the value there (a bare string, or JSON text), empty only where the
// record has none.
func (v *contentCheck) table(input, payload []byte, in budget.Shape) error {
	c := in.Collections[0]
	var ins [][]byte
	if err := budget.EachRecord(input, in, c.Path, func(_ int, raw []byte) error {
		ins = append(ins, bytes.Clone(raw)) // a map's record is a reused buffer
		return nil
	}); err != nil {
		return err
	}
	lines := bytes.Split(payload, []byte{'\n'})
	var names []string
	for i, h := range bytes.Split(lines[0], []byte{'\t'}) {
		name := string(h)
		if len(h) > 0 && h[0] == '"' {
			if json.Unmarshal(h, &name) != nil {
				return contentErr("table header", "column %d is not a valid quoted name", i+1)
			}
		}
		names = append(names, name)
	}
	rows := lines[1:]
	if len(rows) != len(ins) {
		return contentErr(c.Path, "%d rows, the input has %d records", len(rows), len(ins))
	}
	seen := make([]bool, len(names))
	esp := join(c.Path, "[]")
	var quoted []byte
	for r, row := range rows {
		rec := ins[r]
		cp := join(c.Path, "["+strconv.Itoa(r)+"]")
		if rec[0] != '{' {
			return contentErr(cp, "a table row stands for an object record, the input has %s", kindName(rec))
		}
		ims := members(v.getMembers(), rec)
		cells := bytes.Split(row, []byte{'\t'})
		for j, cell := range cells {
			var val []byte
			if len(cell) > 0 {
				switch {
				case cell[0] == '"' || cell[0] == '{' || cell[0] == '[' || isJSONScalar(cell):
					if !json.Valid(cell) {
						return contentErr(join(cp, seg(names[j])), "cell is not valid JSON")
					}
					val = cell
				default:
					quoted, _ = appendJSONString(quoted[:0], cell)
					val = quoted
				}
			}
			if !seen[j] {
				if _, ok := lookup(ims, names[j]); ok {
					seen[j] = true
				} else if steps, ok := parseColumn(names[j]); ok {
					_, seen[j] = lookup(ims, steps[0].key)
				}
			}
			if err := v.member(ims, names[j], val, esp, cp); err != nil {
				return err
			}
		}
		v.putMembers(ims)
	}
	for j, ok := range seen {
		if !ok && len(ins) > 0 {
			return contentErr("table header", "column %q is not a member or column path of any input record", names[j])
		}
	}
	return nil
}

func isJSONScalar(b []byte) bool {
	switch string(b) {
	case "true", "false", "null":
		return true
	}
	return isNum(b[0]) && json.Valid(b)
}

// appendJSONString appends s as a JSON string.
func appendJSONString(dst, s []byte) ([]byte, error) {
	b, err := json.Marshal(string(s))
	return append(dst, b...), err
}
