package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/schemas"
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

// RefPrefix marks an explicit artifact reference in a tool argument:
// "artifact:" followed by a reference (a handle, optionally with a jq
// path), as in "artifact:3f9a1c0b7d2e.items[0]". Ordinary data does not
// start that way, so such a string is always taken for a reference.
const RefPrefix = budget.RefPrefix

// resolvePointers replaces every string value of args that is an artifact
// reference with the stored value: the exact stored text for a whole
// handle, the selected JSON value for a handle with a path (a string
// stays a string). It returns args unchanged when nothing was replaced,
// and the number of replacements.
//
// A string is a reference when it is RefPrefix followed by a reference
// (budget/artifact.ParseRef), or when it is a bare reference whose handle
// issued reports as one this proxy handed out. Anything else, such as a
// git SHA, an md5 sum, a container id, a millisecond timestamp or a
// "<hex>.json" file name that merely looks like a handle, reaches the
// upstream unchanged: it is never refused. A reference that is one (an
// explicit one, or a handle the proxy handed out) and cannot be resolved
// is a *PointerError. Arguments that are not valid JSON pass unchanged:
// they are the upstream's to judge.
func resolvePointers(ctx context.Context, a Artifacts, args json.RawMessage, issued func(budget.Handle) bool) (json.RawMessage, int, error) {
	return resolveArgs(ctx, a, args, issued, nil)
}

// resolve resolves the memory pointers of a call's arguments (see
// resolveArgs).
func (p *Proxy) resolve(ctx context.Context, args json.RawMessage) (json.RawMessage, int, error) {
	return resolveArgs(ctx, p.engine, args, p.handedOut, func(h budget.Handle) bool { return p.holdsStandIns(string(h)) })
}

// resolveArgs is resolvePointers; standIns reports whether an artifact
// holds lone surrogates as stand-ins (see surrogate.go). Numbers keep
// their literals, and lone surrogates, the arguments' own and those of
// such an artifact, reach the upstream as their escapes (unless the
// arguments hold characters of the stand-in range themselves).
func resolveArgs(ctx context.Context, a Artifacts, args json.RawMessage, issued, standIns func(budget.Handle) bool) (json.RawMessage, int, error) {
	st := a.Store()
	if st == nil || !mayHoldRef(args) {
		return args, 0, nil
	}
	out, n, genuine, err := resolveOnce(ctx, a, st, args, issued, standIns, true)
	if genuine {
		// An artifact holds characters of the stand-in range that stand
		// for nothing: nothing is taken for a stand-in.
		out, n, _, err = resolveOnce(ctx, a, st, args, issued, standIns, false)
	}
	return out, n, err
}

// resolveOnce is resolveArgs, with lone surrogates as stand-ins when
// standIn is set; genuine reports whether a resolved artifact holds
// characters of the stand-in range that are not stand-ins.
func resolveOnce(ctx context.Context, a Artifacts, st budget.Store, args json.RawMessage, issued, standIns func(budget.Handle) bool, standIn bool) (json.RawMessage, int, bool, error) {
	decode := decodeNumbers
	if standIn && !hasStandInJSON(args) {
		decode = func(b []byte) (any, error) {
			v, _, err := decodeExact(b)
			return v, err
		}
	} else {
		standIn = false
	}
	v, err := decode(args)
	if err != nil {
		return args, 0, false, nil
	}
	r := resolver{ctx: ctx, a: a, st: st, issued: issued, standIns: standIns}
	nv, err := r.walk(v, "$")
	if err != nil {
		return nil, 0, false, err
	}
	if r.n == 0 {
		return args, 0, false, nil
	}
	out, err := json.Marshal(nv)
	if err != nil {
		return nil, 0, false, fmt.Errorf("compact: encoding resolved arguments: %w", err)
	}
	if standIn {
		if r.genuine {
			return nil, 0, true, nil
		}
		out = escapeStandIns(out)
	}
	return out, r.n, false, nil
}

// mayHoldRef is a cheap pre-check: a reference starts with RefPrefix or
// with at least MinHandleLen hex digits, right after a quote.
func mayHoldRef(b []byte) bool {
	if bytes.Contains(b, []byte(`"`+RefPrefix)) {
		return true
	}
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
	ctx      context.Context
	a        Artifacts
	st       budget.Store
	issued   func(budget.Handle) bool
	standIns func(budget.Handle) bool
	n        int
	genuine  bool // a resolved artifact holds stand-in characters that are not stand-ins
}

// read notes whether b, read from the artifact of h, holds characters of
// the stand-in range that are not stand-ins.
func (r *resolver) read(h budget.Handle, b []byte) {
	if bytes.Contains(b, []byte{0xF3, 0xB0}) && hasStandInJSON(b) && (r.standIns == nil || !r.standIns(h)) {
		r.genuine = true
	}
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
		explicit := strings.HasPrefix(x, RefPrefix)
		var ref artifact.Ref
		var err error
		if explicit {
			if ref, err = artifact.ParseRef(x[len(RefPrefix):]); err != nil {
				return x, nil // "artifact:" and no reference: ordinary text
			}
		} else {
			ref, err = artifact.ParseRef(x)
			if err != nil || r.issued == nil || !r.issued(ref.Handle) {
				return x, nil // an ordinary string, even when it looks like a handle
			}
		}
		val, err := r.value(ref)
		if err != nil {
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
		r.read(ref.Handle, b)
		return string(b), nil
	}
	b, meta, err := r.a.ArtifactValue(r.ctx, ref.String())
	if err != nil {
		return nil, err
	}
	r.read(ref.Handle, b)
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

// issue records handles the proxy hands out (in a compacted result, a
// note, or a read_artifact answer): a bare handle in a later tool
// argument is resolved only when it is one of them.
func (p *Proxy) issue(handles ...string) {
	for _, h := range handles {
		if h != "" {
			p.handles.LoadOrStore(strings.ToLower(h), true)
		}
	}
}

// standInsMark is the value of a handed-out handle whose artifact holds
// lone surrogates as their stand-ins (see surrogate.go), which the proxy
// writes back as escapes when it reads the artifact out.
const standInsMark = "stand-ins"

// markStandIns records that the artifacts of handles hold stand-ins.
func (p *Proxy) markStandIns(handles ...string) {
	for _, h := range handles {
		if h != "" {
			p.handles.Store(strings.ToLower(h), standInsMark)
		}
	}
}

// holdsStandIns reports whether the artifact of h holds stand-ins.
func (p *Proxy) holdsStandIns(h string) bool {
	v, _ := p.handles.Load(strings.ToLower(h))
	return v == standInsMark
}

// issuedResult records the handles of a compaction result.
func (p *Proxy) issuedResult(r schemas.Result) {
	if r.Artifact != nil {
		p.issue(r.Artifact.Handle)
	}
	for _, a := range r.Actions {
		p.issue(a.Handle)
	}
}

// handedOut reports whether h is a handle the proxy handed out.
func (p *Proxy) handedOut(h budget.Handle) bool {
	_, ok := p.handles.Load(string(h))
	return ok
}
