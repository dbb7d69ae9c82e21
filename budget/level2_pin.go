package budget

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/itchyny/gojq"
)

// Pin predicates run on every record of an output, and decoding every
// record into Go values costs far more than the predicate itself. Most
// predicates read a few members of the record (.state, .status.phase,
// .level), so when the predicate provably reads its input only through
// top-level members, each record is decoded into an object holding just
// those members (the others are skipped by the tokenizer). pinFields
// decides this conservatively: anything it does not understand means
// "decode the whole record".

// pinFields returns the top-level member names q reads from its input
// when q reads the input only through them (".a", ".a.b", ."a", .["a"]);
// ok is false when q may read the input in any other way (".", "..",
// keys, length, a user function, ...).
func pinFields(q *gojq.Query) (names []string, ok bool) {
	seen := map[string]bool{}
	if ok, _ := queryFields(q, seen); !ok {
		return nil, false
	}
	for n := range seen {
		names = append(names, n)
	}
	return names, true
}

// queryFields adds to seen the members q reads from its input (the
// record) and reports whether that is all q reads of it (ok), and whether
// q's output may be or contain the record itself (passes: select(f)
// yields its input), in which case whatever reads q's output reads the
// record too. A projected record is as truthy as the whole one, so only
// what reads into it matters.
func queryFields(q *gojq.Query, seen map[string]bool) (ok, passes bool) {
	if q == nil {
		return true, false
	}
	if q.Meta != nil || len(q.Imports) > 0 || len(q.FuncDefs) > 0 {
		return false, false
	}
	if q.Term != nil {
		return termFields(q.Term, seen)
	}
	lok, lpass := queryFields(q.Left, seen)
	if !lok {
		return false, false
	}
	switch q.Op {
	case gojq.OpPipe:
		if len(q.Patterns) > 0 {
			// "A as $x | B": B's input is the record, and $x must
			// not hold it.
			if lpass {
				return false, false
			}
			return queryFields(q.Right, seen)
		}
		if lpass {
			// B may read the record through A's output.
			return queryFields(q.Right, seen)
		}
		// B's input is A's output, which holds only what A read; B
		// cannot reach the record.
		return true, false
	case gojq.OpComma, gojq.OpAlt:
		rok, rpass := queryFields(q.Right, seen)
		return rok, lpass || rpass
	case gojq.OpAnd, gojq.OpOr:
		rok, _ := queryFields(q.Right, seen)
		return rok, false
	case gojq.OpAdd, gojq.OpSub, gojq.OpMul, gojq.OpDiv, gojq.OpMod,
		gojq.OpEq, gojq.OpNe, gojq.OpGt, gojq.OpLt, gojq.OpGe, gojq.OpLe:
		rok, rpass := queryFields(q.Right, seen)
		// Comparing or combining the record itself would see the
		// projection.
		return rok && !lpass && !rpass, false
	}
	return false, false // assignments and updates build new records
}

// termFields is queryFields for one term evaluated on the record.
func termFields(t *gojq.Term, seen map[string]bool) (bool, bool) {
	suffixes := t.SuffixList
	switch t.Type {
	case gojq.TermTypeIndex:
		name, ok := constName(t.Index)
		if !ok {
			return false, false
		}
		seen[name] = true
		return true, false // suffixes apply to the member's value
	case gojq.TermTypeIdentity:
		if len(suffixes) == 0 || suffixes[0].Index == nil {
			return false, false
		}
		name, ok := constName(suffixes[0].Index)
		if !ok {
			return false, false
		}
		seen[name] = true
		return true, false
	case gojq.TermTypeNull, gojq.TermTypeTrue, gojq.TermTypeFalse, gojq.TermTypeNumber:
		return true, false
	case gojq.TermTypeString:
		if t.Str == nil {
			return false, false
		}
		for _, sq := range t.Str.Queries {
			if ok, pass := queryFields(sq, seen); !ok || pass {
				return false, false
			}
		}
		return len(suffixes) == 0, false
	}
	var ok, pass bool
	switch t.Type {
	case gojq.TermTypeQuery:
		ok, pass = queryFields(t.Query, seen)
	case gojq.TermTypeArray:
		ok, pass = queryFields(t.Array.Query, seen)
	case gojq.TermTypeUnary:
		ok, pass = termFields(t.Unary.Term, seen)
	case gojq.TermTypeIf:
		ok, _ = queryFields(t.If.Cond, seen)
		for _, br := range []*gojq.Query{t.If.Then, t.If.Else} {
			bok, bpass := queryFields(br, seen)
			ok, pass = ok && bok, pass || bpass
		}
		for _, e := range t.If.Elif {
			cok, _ := queryFields(e.Cond, seen)
			bok, bpass := queryFields(e.Then, seen)
			ok, pass = ok && cok && bok, pass || bpass
		}
		if t.If.Else == nil {
			pass = true // a missing else yields the input
		}
	case gojq.TermTypeTry:
		// The catch body's input is the error message, not the record.
		ok, pass = queryFields(t.Try.Body, seen)
	case gojq.TermTypeFunc:
		f := t.Func
		switch {
		case len(f.Name) > 0 && f.Name[0] == '$' && len(f.Args) == 0:
			ok = true // a variable
		case f.Name == "empty" && len(f.Args) == 0:
			ok = true
		case f.Name == "select" && len(f.Args) == 1:
			ok, _ = queryFields(f.Args[0], seen)
			pass = true
		}
	default:
		return false, false
	}
	if !ok {
		return false, false
	}
	if pass && len(suffixes) > 0 {
		// A suffix reads into the passed record: only a constant
		// member name is understood.
		name, cok := constName(suffixes[0].Index)
		if !cok {
			return false, false
		}
		seen[name] = true
		return true, false
	}
	return true, pass
}

// constName returns the member name of an index without interpolation.
func constName(ix *gojq.Index) (string, bool) {
	switch {
	case ix == nil:
		return "", false
	case ix.IsSlice || ix.Start != nil || ix.End != nil:
		return constKey(ix)
	case ix.Name != "":
		return ix.Name, true
	case ix.Str != nil && len(ix.Str.Queries) == 0:
		return ix.Str.Str, true
	}
	return "", false
}

// constKey returns the member name of .[expr] when expr is a constant
// string.
func constKey(ix *gojq.Index) (string, bool) {
	if ix == nil || ix.IsSlice || ix.End != nil || ix.Start == nil {
		return "", false
	}
	q := ix.Start
	if q.Term != nil && q.Term.Type == gojq.TermTypeString && len(q.Term.SuffixList) == 0 &&
		q.Term.Str != nil && len(q.Term.Str.Queries) == 0 {
		return q.Term.Str.Str, true
	}
	return "", false
}

// projectObject decodes the members of the JSON object raw named in want
// into a map, skipping the others. ok is false when raw is not an object.
func projectObject(raw []byte, want map[string]bool) (map[string]any, bool, error) {
	return newProjector(want).project(raw)
}

// projector projects records onto the members a predicate reads.
type projector struct {
	want map[string]bool
	m    map[string]any
}

func newProjector(want map[string]bool) *projector { return &projector{want: want} }

// project scans the top-level members of raw with a byte scanner (the
// records come from input that DetectShape has already parsed as JSON)
// and decodes only the wanted values. When raw does not scan as an
// object, it is decoded whole instead: ok reports whether it was an
// object.
func (p *projector) project(raw []byte) (map[string]any, bool, error) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false, nil
	}
	// The map is reused from record to record: the predicate's result
	// is read before the next record, and nothing keeps the value.
	if p.m == nil {
		p.m = make(map[string]any, len(p.want))
	}
	m := p.m
	clear(m)
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return m, true, nil
	}
	for i < len(raw) {
		if raw[i] != '"' {
			return p.whole(raw)
		}
		end, ok := skipString(raw, i)
		if !ok {
			return p.whole(raw)
		}
		name := string(raw[i+1 : end-1])
		if bytes.IndexByte(raw[i:end], '\\') >= 0 {
			if err := jsonv2.Unmarshal(raw[i:end], &name, lenient); err != nil {
				return p.whole(raw)
			}
		}
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return p.whole(raw)
		}
		start := skipSpace(raw, i+1)
		end, ok = skipValue(raw, start)
		if !ok {
			return p.whole(raw)
		}
		if p.want[name] {
			x, err := scalarValue(raw[start:end])
			if err != nil {
				return nil, true, fmt.Errorf("member %q: %w", name, err)
			}
			m[name] = x
		}
		i = skipSpace(raw, end)
		if i >= len(raw) {
			break
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case '}':
			return m, true, nil
		default:
			return p.whole(raw)
		}
	}
	return p.whole(raw)
}

// scalarValue decodes one JSON value as jsonv2.Unmarshal into any would,
// with fast paths for the plain strings, numbers and literals that
// predicates usually compare.
func scalarValue(v []byte) (any, error) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		body := v[1 : len(v)-1]
		if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
			return string(body), nil
		}
	} else if len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			return f, nil
		}
	} else {
		switch string(v) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "null":
			return nil, nil
		}
	}
	var x any
	if err := jsonv2.Unmarshal(v, &x, lenient); err != nil {
		return nil, err
	}
	return x, nil
}

// whole decodes raw completely, for records the scanner does not follow.
func (p *projector) whole(raw []byte) (map[string]any, bool, error) {
	var v any
	if err := jsonv2.Unmarshal(raw, &v, lenient); err != nil {
		return nil, true, err
	}
	m, ok := v.(map[string]any)
	return m, ok, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just after the JSON string starting at
// b[i] == '"'.
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the index just after the JSON value starting at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j, j > i
}

// pinLiterals returns JSON string literals (quoted, as they appear in
// JSON text) that every record the predicate q selects must contain,
// when q's truth requires them: q is a comparison of a member path with a
// string literal (.state == "ALARM"), a conjunction with such a
// comparison, or select(...) of one. A record whose text has no escape
// sequence and lacks one of the literals cannot match, and is not decoded
// at all. nil means no such literal is known.
func pinLiterals(q *gojq.Query) [][]byte {
	if q == nil || q.Meta != nil || len(q.Imports) > 0 || len(q.FuncDefs) > 0 {
		return nil
	}
	if q.Term != nil {
		t := q.Term
		if len(t.SuffixList) > 0 {
			return nil
		}
		switch {
		case t.Type == gojq.TermTypeQuery:
			return pinLiterals(t.Query)
		case t.Type == gojq.TermTypeFunc && t.Func.Name == "select" && len(t.Func.Args) == 1:
			return pinLiterals(t.Func.Args[0])
		}
		return nil
	}
	switch q.Op {
	case gojq.OpAnd:
		return append(pinLiterals(q.Left), pinLiterals(q.Right)...)
	case gojq.OpEq:
		if lit, ok := stringLiteral(q.Right); ok && isMemberPath(q.Left) {
			return [][]byte{lit}
		}
		if lit, ok := stringLiteral(q.Left); ok && isMemberPath(q.Right) {
			return [][]byte{lit}
		}
	}
	return nil
}

// stringLiteral returns the JSON text of q when q is a constant ASCII
// string (input with invalid UTF-8 decodes to U+FFFD, which its text does
// not contain, so non-ASCII literals are not used).
func stringLiteral(q *gojq.Query) ([]byte, bool) {
	if q == nil || q.Term == nil || q.Term.Type != gojq.TermTypeString || len(q.Term.SuffixList) > 0 ||
		q.Term.Str == nil || len(q.Term.Str.Queries) > 0 {
		return nil, false
	}
	for _, c := range []byte(q.Term.Str.Str) {
		if c >= 0x80 {
			return nil, false
		}
	}
	b, err := jsonv2.Marshal(q.Term.Str.Str)
	return b, err == nil
}

// isMemberPath reports whether q is a path of constant member names from
// the record (.a, .a.b, ."a".b): its value, when a string, appears in the
// record's text as it is.
func isMemberPath(q *gojq.Query) bool {
	if q == nil || q.Term == nil {
		return false
	}
	t := q.Term
	suffixes := t.SuffixList
	switch t.Type {
	case gojq.TermTypeIndex:
		if _, ok := constName(t.Index); !ok {
			return false
		}
	case gojq.TermTypeIdentity:
		if len(suffixes) == 0 {
			return false
		}
	default:
		return false
	}
	for _, sf := range suffixes {
		if sf.Iter || sf.Index == nil {
			return false
		}
		if _, ok := constName(sf.Index); !ok {
			return false
		}
	}
	return true
}

// mayMatch reports whether a record with text raw can satisfy a predicate
// that requires lits.
func mayMatch(raw []byte, lits [][]byte) bool {
	if len(lits) == 0 || bytes.IndexByte(raw, '\\') >= 0 {
		return true
	}
	for _, l := range lits {
		if !bytes.Contains(raw, l) {
			return false
		}
	}
	return true
}
