package query

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
)

// Bounded jq execution. gojq checks its context between operations, and
// watchHeap cancels it when the heap grows past MaxMemory; but one Go
// builtin can build a value of gigabytes before either is looked at
// (("x"*1e8) as $s | [$s,$s,...] | add ran 37 s and reached 7.7 GB). So
// every operation that builds a string or array from other values (+, *,
// add, join, tojson, tostring) is routed through a wrapper that computes
// the size of its result first and refuses one larger than the value cap
// (errValueCap, an ErrLimit): no single step then allocates more than the
// cap, each step is short, and the deadline and the heap watch, checked
// between steps, bound the whole run. The rewriting is done on the parsed
// query (boundQuery); the wrappers call gojq's own operators on values
// they have checked, so results are exactly jq's.

// valueCap is the size of the largest string or array (in bytes or
// elements, nested sizes added up) one jq operation may build: the cap
// of MaxMemory/8, at least 16 MiB.
func valueCap(maxMemory int64) int64 { return max(maxMemory/8, 16<<20) }

// boundedFuncs are the custom functions boundQuery routes operations to.
const (
	fnAdd      = "_compact_bounded_add"
	fnMul      = "_compact_bounded_mul"
	fnAddAll   = "_compact_bounded_addall"
	fnJoin     = "_compact_bounded_join"
	fnToJSON   = "_compact_bounded_tojson"
	fnToString = "_compact_bounded_tostring"
	fnCheck    = "_compact_bounded_check"
	fnExplode  = "_compact_bounded_explode"
	fnSplit    = "_compact_bounded_split"
	fnRegex    = "_compact_bounded_regex"
)

// Regular expressions: gojq's regex builtins (match, test, capture, scan,
// split/2, splits, sub, gsub) are single Go calls that the deadline cannot
// interrupt, and with many matches (an empty or frequent pattern, "g")
// their cost grows with the square of the string's length: split(""; null)
// on 200,000 characters took 22 s against a 5 s deadline. Their input
// string is checked first: at most maxRegexGlobal bytes for the calls that
// may match many times, maxRegexOne for a single match (linear).
const (
	maxRegexGlobal = 64 << 10
	maxRegexOne    = 1 << 20
)

// regexGlobal tells, for a regex builtin and its number of arguments,
// whether it may match many times (true), once (false), or is not a
// regex builtin (ok false).
func regexGlobal(name string, args int) (global, ok bool) {
	switch name {
	case "scan", "gsub", "splits":
		return true, true
	case "split":
		return true, args == 2
	case "match", "test", "capture", "sub":
		// The flags argument may hold "g".
		return args >= 2 && !(name == "sub" && args == 2), args >= 1
	}
	return false, false
}

// boundQuery rewrites q in place: binary + and * become calls of the
// bounded wrappers (gojq compiles a binary operator as a call of a
// two-argument function, so evaluation order is unchanged), and the
// builtins add/0, join/1, tojson/0 and tostring/0 become their bounded
// versions unless the query defines a function of that name.
func boundQuery(q *gojq.Query) {
	defined := map[string]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if fd, ok := v.Interface().(*gojq.FuncDef); ok {
				defined[fd.Name] = true
			}
			walk(v.Elem())
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(q))
	wrapped := map[*gojq.Term]bool{} // format terms already checked
	var rewrite func(v reflect.Value)
	rewrite = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			switch x := v.Interface().(type) {
			case *gojq.String:
				// "\(q)" and @fmt "\(q)": the text of q's value is
				// built by a Go builtin; check its size first.
				// (Literal parts are queries of a string term; gojq
				// reads each part's Term.)
				for i, sq := range x.Queries {
					if sq.Term == nil || sq.Term.Str == nil {
						x.Queries[i] = &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeQuery, Query: checked(sq)}}
					}
				}
			case *gojq.Term:
				if x.Type == gojq.TermTypeFunc && x.Func != nil && !defined[x.Func.Name] && !wrapped[x] {
					if global, ok := regexGlobal(x.Func.Name, len(x.Func.Args)); ok {
						f := &gojq.Term{Type: gojq.TermTypeFunc, Func: x.Func}
						wrapped[f] = true
						limit := maxRegexOne
						if global {
							limit = maxRegexGlobal
						}
						check := &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: fnRegex, Args: []*gojq.Query{
							{Term: &gojq.Term{Type: gojq.TermTypeString, Str: &gojq.String{Str: x.Func.Name}}},
							{Term: &gojq.Term{Type: gojq.TermTypeNumber, Number: strconv.Itoa(limit)}},
						}}}}
						*x = gojq.Term{Type: gojq.TermTypeQuery, Query: &gojq.Query{Left: check, Op: gojq.OpPipe, Right: &gojq.Query{Term: f}}, SuffixList: x.SuffixList}
					}
				}
				if x.Type == gojq.TermTypeFormat && x.Str == nil && !wrapped[x] {
					f := &gojq.Term{Type: gojq.TermTypeFormat, Format: x.Format}
					wrapped[f] = true
					check := &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: fnCheck}}}
					*x = gojq.Term{Type: gojq.TermTypeQuery, Query: &gojq.Query{Left: check, Op: gojq.OpPipe, Right: &gojq.Query{Term: f}}, SuffixList: x.SuffixList}
				}
			case *gojq.Query:
				if x.Left != nil && x.Right != nil && (x.Op == gojq.OpAdd || x.Op == gojq.OpMul) {
					name := fnAdd
					if x.Op == gojq.OpMul {
						name = fnMul
					}
					l, r := x.Left, x.Right
					*x = gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: name, Args: []*gojq.Query{l, r}}}}
				}
			case *gojq.Func:
				if !defined[x.Name] {
					switch {
					case x.Name == "add" && len(x.Args) == 0:
						x.Name = fnAddAll
					case x.Name == "join" && len(x.Args) == 1:
						x.Name = fnJoin
					case x.Name == "tojson" && len(x.Args) == 0:
						x.Name = fnToJSON
					case x.Name == "tostring" && len(x.Args) == 0:
						x.Name = fnToString
					case x.Name == "explode" && len(x.Args) == 0:
						x.Name = fnExplode
					case x.Name == "split" && len(x.Args) == 1:
						x.Name = fnSplit
					}
				}
			}
			rewrite(v.Elem())
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				rewrite(v.Index(i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					rewrite(v.Field(i))
				}
			}
		}
	}
	rewrite(reflect.ValueOf(q))
}

// checked returns q | _compact_bounded_check: q's values, each refused
// when its JSON text would be larger than the value cap.
func checked(q *gojq.Query) *gojq.Query {
	return &gojq.Query{Left: q, Op: gojq.OpPipe, Right: &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: fnCheck}}}}
}

// errValueCap is the error of an operation refused by its size.
type errValueCap struct {
	op        string
	size, cap int64
	msg       string // when set, the whole message
}

func (e *errValueCap) Error() string {
	if e.msg != "" {
		return e.msg
	}
	return fmt.Sprintf("%s would build a value of %d MiB or more, over the cap of %d MiB per value", e.op, e.size>>20, e.cap>>20)
}

// bounded holds the wrappers of one Querier.
type bounded struct {
	cap  int64
	ops  map[string]*gojq.Code // gojq's own operators, on checked values
	opts []gojq.CompilerOption
}

func newBounded(maxMemory int64) *bounded {
	b := &bounded{cap: valueCap(maxMemory), ops: map[string]*gojq.Code{}}
	for name, src := range map[string]string{
		fnAdd: ".[0] + .[1]", fnMul: ".[0] * .[1]", fnAddAll: "add", fnJoin: ".[1] as $s | .[0] | join($s)",
		fnToJSON: "tojson", fnToString: "tostring", fnExplode: "explode", fnSplit: ".[1] as $s | .[0] | split($s)",
	} {
		q, err := gojq.Parse(src)
		if err != nil {
			panic(err)
		}
		c, err := gojq.Compile(q)
		if err != nil {
			panic(err)
		}
		b.ops[name] = c
	}
	b.opts = []gojq.CompilerOption{
		gojq.WithFunction(fnAdd, 2, 2, func(_ any, a []any) any {
			// The common cases natively (a call through gojq costs
			// microseconds); the rest through gojq's own operator.
			switch l := a[0].(type) {
			case nil:
				return a[1]
			case int:
				if r, ok := a[1].(int); ok {
					if s := l + r; (s > l) == (r > 0) {
						return s
					}
				}
			case float64:
				if r, ok := a[1].(float64); ok {
					return l + r
				}
			case string:
				if r, ok := a[1].(string); ok {
					if int64(len(l))+int64(len(r)) > b.cap {
						return &errValueCap{"+", int64(len(l)) + int64(len(r)), b.cap, ""}
					}
					return l + r
				}
			}
			if a[1] == nil {
				return a[0]
			}
			if err := b.check("+", sizeOf(a[0], b.cap)+sizeOf(a[1], b.cap), a[0], a[1]); err != nil {
				return err
			}
			return b.run(fnAdd, []any{a[0], a[1]})
		}),
		gojq.WithFunction(fnMul, 2, 2, func(_ any, a []any) any {
			if s, n, ok := repeat(a[0], a[1]); ok {
				if float64(len(s))*n > float64(b.cap) {
					return &errValueCap{"string repetition", int64(min(float64(len(s))*n, math.MaxInt64/2)), b.cap, ""}
				}
			}
			return b.run(fnMul, []any{a[0], a[1]})
		}),
		gojq.WithFunction(fnAddAll, 0, 0, func(v any, _ []any) any {
			var total int64
			each(v, func(x any) bool {
				total += sizeOf(x, b.cap)
				return total <= b.cap
			})
			if total > b.cap {
				return &errValueCap{"add", total, b.cap, ""}
			}
			return b.run(fnAddAll, v)
		}),
		gojq.WithFunction(fnJoin, 1, 1, func(v any, a []any) any {
			sep := int64(0)
			if s, ok := a[0].(string); ok {
				sep = int64(len(s))
				// Strings, natively (the common case).
				if vs, ok := v.([]any); ok {
					var sb strings.Builder
					plain := true
					for i, x := range vs {
						str, isStr := x.(string)
						if !isStr {
							plain = false
							break
						}
						if i > 0 {
							sb.WriteString(s)
						}
						if int64(sb.Len()+len(str)) > b.cap {
							return &errValueCap{"join", int64(sb.Len() + len(str)), b.cap, ""}
						}
						sb.WriteString(str)
					}
					if plain {
						return sb.String()
					}
				}
			}
			var total int64
			each(v, func(x any) bool {
				total += sizeOf(x, b.cap) + sep
				return total <= b.cap
			})
			if total > b.cap {
				return &errValueCap{"join", total, b.cap, ""}
			}
			return b.run(fnJoin, []any{v, a[0]})
		}),
		gojq.WithFunction(fnToJSON, 0, 0, func(v any, _ []any) any {
			if n := jsonSize(v, b.cap); n > b.cap {
				return &errValueCap{"tojson", n, b.cap, ""}
			}
			if out, err := gojq.Marshal(v); err == nil {
				return string(out)
			}
			return b.run(fnToJSON, v)
		}),
		gojq.WithFunction(fnCheck, 0, 0, func(v any, _ []any) any {
			if n := jsonSize(v, b.cap); n > b.cap {
				return &errValueCap{"a string interpolation or format", n, b.cap, ""}
			}
			return v
		}),
		gojq.WithFunction(fnRegex, 2, 2, func(v any, a []any) any {
			s, ok := v.(string)
			limit, _ := a[1].(int)
			if ok && limit > 0 && len(s) > limit {
				name, _ := a[0].(string)
				return &errValueCap{op: name, msg: fmt.Sprintf("%s on a string of %d bytes: regular expressions run here on strings of at most %d bytes for %s (their matching cannot be interrupted at the deadline); slice the string first (.[0:%d])", name, len(s), limit, name, limit)}
			}
			return v
		}),
		gojq.WithFunction(fnExplode, 0, 0, func(v any, _ []any) any {
			// An element of the array costs about 16 bytes.
			if s, ok := v.(string); ok && int64(len(s))*16 > b.cap {
				return &errValueCap{"explode", int64(len(s)) * 16, b.cap, ""}
			}
			return b.run(fnExplode, v)
		}),
		gojq.WithFunction(fnSplit, 1, 1, func(v any, a []any) any {
			s, ok1 := v.(string)
			sep, ok2 := a[0].(string)
			if ok1 && ok2 {
				n := int64(len(s))
				if sep != "" {
					n = int64(strings.Count(s, sep))
				}
				if n*32 > b.cap {
					return &errValueCap{"split", n * 32, b.cap, ""}
				}
			}
			return b.run(fnSplit, []any{v, a[0]})
		}),
		gojq.WithFunction(fnToString, 0, 0, func(v any, _ []any) any {
			if s, ok := v.(string); ok {
				return s
			}
			if n := jsonSize(v, b.cap); n > b.cap {
				return &errValueCap{"tostring", n, b.cap, ""}
			}
			// tostring of a non-string is tojson: gojq.Marshal is that
			// encoder.
			if out, err := gojq.Marshal(v); err == nil {
				return string(out)
			}
			return b.run(fnToString, v)
		}),
	}
	return b
}

// check refuses a string or array result larger than the cap: only
// strings and arrays grow by +, and only when both sides are the kind.
func (b *bounded) check(op string, size int64, l, r any) error {
	_, ls := l.(string)
	_, rs := r.(string)
	_, la := l.([]any)
	_, ra := r.([]any)
	if (ls && rs || la && ra) && size > b.cap {
		return &errValueCap{op, size, b.cap, ""}
	}
	return nil
}

// run applies gojq's own operator name to v.
func (b *bounded) run(name string, v any) any {
	it := b.ops[name].Run(v)
	out, ok := it.Next()
	if !ok {
		return nil
	}
	return out
}

// repeat reports a string * number (either order).
func repeat(l, r any) (string, float64, bool) {
	num := func(x any) (float64, bool) {
		switch n := x.(type) {
		case int:
			return float64(n), true
		case float64:
			return n, true
		}
		return 0, false
	}
	if s, ok := l.(string); ok {
		if n, ok := num(r); ok {
			return s, n, true
		}
	}
	if s, ok := r.(string); ok {
		if n, ok := num(l); ok {
			return s, n, true
		}
	}
	return "", 0, false
}

// each calls fn for each element of an array or value of an object until
// it returns false.
func each(v any, fn func(any) bool) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if !fn(e) {
				return
			}
		}
	case map[string]any:
		for _, e := range x {
			if !fn(e) {
				return
			}
		}
	}
}

// sizeOf is the size a value contributes when concatenated: a string's
// bytes, an array's elements; 1 for anything else.
func sizeOf(v any, _ int64) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x))
	case []any:
		return int64(len(x))
	}
	return 1
}

// jsonSize is a lower bound of the bytes of v's JSON text, counted until
// it passes limit: a value that shares one large string many times (an
// array of 20 references to 100 MB) is counted in full, as its text
// would be.
func jsonSize(v any, limit int64) int64 {
	var n int64
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			n += int64(len(x)) + 2
		case []any:
			n += 2
			for _, e := range x {
				if !walk(e) {
					return false
				}
				n++
			}
		case map[string]any:
			n += 2
			for k, e := range x {
				n += int64(len(k)) + 4
				if !walk(e) {
					return false
				}
			}
		default:
			n += 4
		}
		return n <= limit
	}
	walk(v)
	return n
}
