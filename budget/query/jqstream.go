package query

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// Streaming jq over large artifacts.
//
// jq runs on a whole artifact only up to MaxInput bytes: decoding a large
// document into values takes several times its size, and gojq's sort and
// group builtins cannot be interrupted. A filter that starts by iterating
// a collection, PATH[] or PATH[] | REST (PATH a plain path such as
// .items or .data.rows, or . itself), does not need the whole document: jq
// runs REST on each element of PATH on its own, and its outputs are the
// outputs for each element in order. Such a filter runs on an artifact of
// any size (up to MaxLoad) element by element: the elements are read from
// the artifact's bytes by its record spans (the same as slice and
// search), each decoded alone, so memory is the artifact's bytes plus one
// element's values and the outputs, and sort or group_by inside REST is
// bounded by one element. Its deadline is Timeout for each MaxInput bytes
// of the artifact. Other filters on a large artifact are refused before
// the artifact is read, with its size and the limit.

// iteration is a filter split as PATH[] | REST.
type iteration struct {
	path string // the collection path, "." or ".a.b"
	rest *gojq.Code
}

// splitIteration returns the iteration a parsed filter starts with, when
// it has the form PATH[] or PATH[] | REST (PATH[]? too: the collections
// it streams are arrays, which never fail to iterate); ok is false
// otherwise. It changes q (the leading iteration becomes ".").
func splitIteration(q *gojq.Query, opts ...gojq.CompilerOption) (it iteration, ok bool) {
	if len(q.FuncDefs) > 0 || len(q.Imports) > 0 || q.Meta != nil {
		return it, false
	}
	// The leftmost operand of a chain of pipes.
	leaf := q
	for leaf.Op == gojq.OpPipe && leaf.Left != nil {
		if len(leaf.Patterns) > 0 {
			return it, false // PATH[] as $x | REST binds a variable
		}
		leaf = leaf.Left
	}
	t := leaf.Term
	if leaf.Op != 0 || t == nil || len(leaf.Patterns) > 0 || len(t.SuffixList) == 0 {
		return it, false
	}
	var names []string
	switch t.Type {
	case gojq.TermTypeIdentity:
	case gojq.TermTypeIndex:
		name, ok := plainName(t.Index)
		if !ok {
			return it, false
		}
		names = append(names, name)
	default:
		return it, false
	}
	suffixes := t.SuffixList
	if s := suffixes[len(suffixes)-1]; s.Optional && !s.Iter && s.Index == nil && len(suffixes) > 1 {
		suffixes = suffixes[:len(suffixes)-1] // PATH[]? (the "?" is a suffix of its own)
	}
	last := suffixes[len(suffixes)-1]
	if !last.Iter || last.Index != nil {
		return it, false
	}
	for _, s := range suffixes[:len(suffixes)-1] {
		name, ok := plainName(s.Index)
		if s.Iter || s.Optional || !ok {
			return it, false
		}
		names = append(names, name)
	}
	it.path = "." + strings.Join(names, ".")
	// REST: the filter with its leading iteration replaced by ".".
	*leaf = gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity}}
	code, err := gojq.Compile(q, opts...)
	if err != nil {
		return it, false
	}
	it.rest = code
	return it, true
}

// plainName returns the member name of .name, ."name" or .["name"] (a
// constant string), and whether x is one. Only identifiers qualify, whose
// collection paths are written plainly (".a.b"), so that a name such as
// "a.b" is never taken for a path of two.
func plainName(x *gojq.Index) (string, bool) {
	n, ok := constName(x)
	if !ok {
		return "", false
	}
	for i, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return "", false
		}
	}
	return n, true
}

func constName(x *gojq.Index) (string, bool) {
	switch {
	case x == nil || x.IsSlice || x.End != nil:
		return "", false
	case x.Start != nil: // .["name"]
		t := x.Start.Term
		if x.Start.Op != 0 || t == nil || t.Type != gojq.TermTypeString || len(t.SuffixList) > 0 ||
			t.Str == nil || len(t.Str.Queries) > 0 || t.Str.Str == "" {
			return "", false
		}
		return t.Str.Str, true
	case x.Name != "":
		return x.Name, true
	case x.Str != nil && len(x.Str.Queries) == 0 && x.Str.Str != "":
		return x.Str.Str, true
	}
	return "", false
}

// tooLargeForJQ is the error for a filter that cannot stream on an
// artifact of size bytes.
func (q *Querier) tooLargeForJQ(h any, size int64, filter string, why string) error {
	return fmt.Errorf("%w: artifact %s is %d bytes; jq runs on at most %d bytes as a whole (its sort and group builtins cannot be interrupted), and %q %s. Iterate a collection first (.items[] | ...), which streams its records, or use slice or search",
		ErrLimit, h, size, q.opt.MaxInput, clip(filter), why)
}

// checkJQSize refuses, before anything is read, a filter that cannot
// stream on an artifact over MaxInput, when the store can tell the size.
func (q *Querier) checkJQSize(ctx context.Context, r artifact.Ref, filter string, streams bool) error {
	st, ok := q.store.(Stater)
	if !ok {
		return nil
	}
	m, err := st.Stat(ctx, r.Handle)
	if err != nil || m.Bytes <= q.opt.MaxInput {
		return nil // the normal path reports errors
	}
	switch {
	case r.Path != "":
		return q.tooLargeForJQ(r.Handle, m.Bytes, filter, "names a path in the artifact")
	case !streams:
		return q.tooLargeForJQ(r.Handle, m.Bytes, filter, "does not start with one")
	}
	return nil
}

// canStream reports whether jqStream can stream it over e: its path is an
// array collection of e, or "." of JSON Lines, concatenated JSON or text.
func canStream(e *entry, it iteration) bool {
	shape, err := e.getShape()
	if err != nil {
		return false
	}
	for _, c := range shape.Collections {
		if c.Path == it.path {
			return c.Kind == "array" || it.path == "." && (c.Kind == budget.FormatJSONL || c.Kind == budget.FormatConcat || c.Kind == "lines")
		}
	}
	return false
}

// jqStream runs it on each record of e's collection it.path, and returns
// the outputs like JQ's loop (same caps, deadline and errors).
func (q *Querier) jqStream(ctx context.Context, r artifact.Ref, e *entry, it iteration, filter string) ([][]byte, error) {
	shape, err := e.getShape()
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", r.Handle, err)
	}
	kind := ""
	for _, c := range shape.Collections {
		if c.Path == it.path {
			kind = c.Kind
		}
	}
	lines := false
	switch {
	case kind == "array":
	case it.path == "." && (kind == budget.FormatJSONL || kind == budget.FormatConcat):
	case it.path == "." && kind == "lines":
		lines = true
	default:
		return nil, q.tooLargeForJQ(r.Handle, int64(len(e.data)), filter, "iterates "+it.path+", which is not an array collection of the artifact")
	}
	recs, err := e.getRecords(it.path)
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", r.Handle, err)
	}
	// The deadline grows with the artifact: Timeout for each MaxInput
	// bytes (what jq may take on a whole artifact of that size).
	timeout := q.opt.Timeout * time.Duration((int64(len(e.data))+q.opt.MaxInput-1)/q.opt.MaxInput)
	tctx, cancelT := context.WithTimeout(ctx, timeout)
	defer cancelT()
	rctx, cancel := context.WithCancelCause(tctx)
	defer cancel(nil)
	stopWatch := watchHeap(rctx, cancel, q.opt.MaxMemory)
	defer stopWatch()
	var outs [][]byte
	var size int64
	for i, raw := range recs.raw {
		var input any
		if lines {
			input = lineString(trimCR(raw))
		} else {
			v, err := decodeValue(raw)
			if err != nil {
				return nil, fmt.Errorf("artifact %s: record %d of %s: %v", r.Handle, i, it.path, err)
			}
			input = v
		}
		iter := it.rest.RunWithContext(rctx, input)
		for {
			v, ok := iter.Next()
			if !ok {
				break
			}
			if err, ok := v.(error); ok {
				if rctx.Err() != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					if cause := context.Cause(rctx); errors.Is(cause, errHeap) {
						return nil, fmt.Errorf("%w: jq filter %q: %v after %d outputs (record %d of %s); narrow it, or count with length", ErrLimit, clip(filter), cause, len(outs), i, it.path)
					}
					return nil, fmt.Errorf("%w: jq filter %q ran past its deadline of %s (%s per %d bytes streamed) after %d outputs (record %d of %d of %s)", ErrLimit, clip(filter), timeout, q.opt.Timeout, q.opt.MaxInput, len(outs), i, len(recs.raw), it.path)
				}
				var he *gojq.HaltError
				if errors.As(err, &he) && he.Value() == nil {
					return outs, nil // halt stops the whole program
				}
				var ce *errValueCap
				if errors.As(err, &ce) {
					return nil, fmt.Errorf("%w: jq filter %q: %v (record %d of %s); narrow it, or count with length", ErrLimit, clip(filter), ce, i, it.path)
				}
				return nil, fmt.Errorf("%w: jq filter %q failed on record %d of %s: %v", ErrBadQuery, clip(filter), i, it.path, err)
			}
			if n := jsonSize(v, q.opt.MaxOutput-size); !q.unbounded && size+n > q.opt.MaxOutput {
				return nil, fmt.Errorf("%w: jq filter %q produced more than %d bytes (%d outputs so far); narrow it, or count with length", ErrLimit, clip(filter), q.opt.MaxOutput, len(outs)+1)
			}
			b, err := gojq.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("%w: jq filter %q: encoding output %d: %v", ErrBadQuery, clip(filter), len(outs), err)
			}
			size += int64(len(b)) + 1
			if size > q.opt.MaxOutput {
				return nil, fmt.Errorf("%w: jq filter %q produced more than %d bytes (%d outputs so far); narrow it, or count with length", ErrLimit, clip(filter), q.opt.MaxOutput, len(outs)+1)
			}
			outs = append(outs, b)
		}
	}
	return outs, nil
}

// trimCR removes the "\r" of a "\r\n" line end, as Lines does.
func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}
