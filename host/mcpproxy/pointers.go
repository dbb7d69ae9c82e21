package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// Artifacts is the part of the engine that memory pointers need.
type Artifacts interface {
	// Store returns the artifact store, or nil when the artifact level
	// is off (then no string is ever a pointer).
	Store() budget.Store
	// ArtifactValue returns the exact bytes a reference selects, with the
	// same reading of paths as read_artifact and compact artifact: a
	// JSON Lines or concatenated artifact is an array of its values, a
	// text artifact an array of its lines (host.Engine.ArtifactValue).
	ArtifactValue(ctx context.Context, ref string) ([]byte, budget.Meta, error)
}

// PointerError is returned when an argument is an artifact reference that
// cannot be resolved; the agent sees its message.
type PointerError struct {
	// Arg is the JSON path of the argument, such as "$.content".
	Arg string
	// Ref is the reference as the agent wrote it.
	Ref string
	// Err is the reason.
	Err error
}

// Error says which argument held which reference, and why it failed.
func (e *PointerError) Error() string {
	return fmt.Sprintf("compact: argument %s is the artifact reference %q, which cannot be resolved: %v", e.Arg, e.Ref, e.Err)
}

// Unwrap returns the reason.
func (e *PointerError) Unwrap() error { return e.Err }

// resolvePointers replaces every string value of args that is an artifact
// reference to a stored artifact with the stored value: the exact stored
// text for a whole handle, the selected JSON value for a handle with a
// path (a string stays a string). It returns args unchanged when nothing
// was replaced, and the number of replacements.
//
// A string is a reference when budget/artifact.ParseRef accepts it. A
// reference whose artifact does not exist, has expired, or whose path
// selects nothing is an error, with one exception: a bare 40-digit hex
// string that is not stored passes through, because it is far more
// likely a git object name than a compact handle.
func resolvePointers(ctx context.Context, a Artifacts, args json.RawMessage) (json.RawMessage, int, error) {
	st := a.Store()
	if st == nil || !mayHoldRef(args) {
		return args, 0, nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, 0, fmt.Errorf("compact: tool arguments are not valid JSON: %w", err)
	}
	r := resolver{ctx: ctx, a: a, st: st}
	nv, err := r.walk(v, "$")
	if err != nil {
		return nil, 0, err
	}
	if r.n == 0 {
		return args, 0, nil
	}
	out, err := json.Marshal(nv)
	if err != nil {
		return nil, 0, fmt.Errorf("compact: encoding resolved arguments: %w", err)
	}
	return out, r.n, nil
}

// mayHoldRef is a cheap pre-check: a reference starts with at least
// MinHandleLen hex digits right after a quote.
func mayHoldRef(b []byte) bool {
	run := -1 // hex digits since the last quote, -1 when not right after one
	for _, c := range b {
		switch {
		case c == '"':
			run = 0
		case run >= 0 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
			run++
			if run >= artifact.MinHandleLen {
				return true
			}
		default:
			run = -1
		}
	}
	return false
}

type resolver struct {
	ctx context.Context
	a   Artifacts
	st  budget.Store
	n   int
}

func (r *resolver) walk(v any, at string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			ne, err := r.walk(e, at+"."+k)
			if err != nil {
				return nil, err
			}
			x[k] = ne
		}
		return x, nil
	case []any:
		for i, e := range x {
			ne, err := r.walk(e, at+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			x[i] = ne
		}
		return x, nil
	case string:
		ref, err := artifact.ParseRef(x)
		if err != nil {
			return x, nil // not a reference: an ordinary string
		}
		val, err := r.value(ref)
		if err != nil {
			if errors.Is(err, budget.ErrNotFound) && ref.Path == "" && len(ref.Handle) == 40 {
				return x, nil
			}
			return nil, &PointerError{Arg: at, Ref: x, Err: err}
		}
		r.n++
		return val, nil
	}
	return v, nil
}

// value reads the referenced value: the exact stored text for a whole
// handle; for a path, the selected JSON value, or the selected line of a
// text artifact as a string. Paths are read by the query package, so a
// reference means the same here as in read_artifact.
func (r *resolver) value(ref artifact.Ref) (any, error) {
	if ref.Path == "" {
		rc, _, err := r.st.Open(r.ctx, ref.Handle)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			return nil, fmt.Errorf("reading artifact %s: %w", ref.Handle, err)
		}
		return string(b), nil
	}
	b, meta, err := r.a.ArtifactValue(r.ctx, ref.String())
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(meta.ContentType, "text/") {
		return string(b), nil // a line of a text artifact stays a string
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("artifact %s path %s: %w", ref.Handle, ref.Path, err)
	}
	return v, nil
}

func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
