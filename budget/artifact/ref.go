package artifact

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/budget"
)

// Handle lengths, in hex digits.
const (
	// MinHandleLen is the length of a handle when no other artifact
	// shares its first digits: 48 bits.
	MinHandleLen = 12
	// MaxHandleLen is the length of a full SHA-256 digest; a full digest
	// is always accepted as a handle.
	MaxHandleLen = 64
	// maxRefLen bounds a reference so that parsing stays cheap.
	maxRefLen = 4096
)

// ErrBadRef is wrapped by every error of ParseRef, ParsePath and
// CheckHandle.
var ErrBadRef = errors.New("malformed artifact reference")

// Ref addresses a stored artifact or a sub-value of it.
//
// The syntax is a handle immediately followed by an optional jq path:
//
//	a1b2c3d4e5f6                 the whole artifact
//	a1b2c3d4e5f6.items[3].name   a sub-value
//	a1b2c3d4e5f6["a key"][0]     keys that are not identifiers are quoted
//
// A handle is 12 to 64 hexadecimal digits and a path starts with "." or
// "[", neither of which is a hex digit, so the split is unambiguous. Path
// steps are .name (a letter or "_" then letters, digits or "_"), ."any
// string" and ["any string"] (JSON string literals), and [N] or .[N] (an
// array index; negative counts from the end). Nothing else is accepted:
// a reference is an address, not a program (use a jq query for that).
type Ref struct {
	// Handle is the artifact's handle, in lower case.
	Handle budget.Handle
	// Path is the canonical jq path of the sub-value, "" for the whole.
	Path string
}

// String returns the reference in the syntax ParseRef accepts.
func (r Ref) String() string { return string(r.Handle) + r.Path }

// Steps returns the path as a list of steps: a string for an object key,
// an int for an array index.
func (r Ref) Steps() []any {
	steps, _ := ParsePath(r.Path) // Path is canonical when r came from ParseRef
	return steps
}

// ParseRef parses a reference such as "a1b2c3d4e5f6.items[3].name", or
// the same after budget.RefPrefix ("artifact:a1b2c3d4e5f6.items[3].name",
// the form compact prints).
// Leading and trailing white space is ignored; upper-case hex digits are
// accepted and lowered. Errors wrap ErrBadRef and say what is wrong where.
func ParseRef(s string) (Ref, error) {
	s = strings.TrimSpace(s)
	// The form compact prints (budget.RefPrefix) and the bare one.
	s = strings.TrimPrefix(s, budget.RefPrefix)
	if s == "" {
		return Ref{}, fmt.Errorf("%w: empty reference", ErrBadRef)
	}
	if len(s) > maxRefLen {
		return Ref{}, fmt.Errorf("%w: %d bytes long, at most %d allowed", ErrBadRef, len(s), maxRefLen)
	}
	n := 0
	for n < len(s) && isHex(s[n]) {
		n++
	}
	h := strings.ToLower(s[:n])
	if err := CheckHandle(budget.Handle(h)); err != nil {
		if n < len(s) && n >= MinHandleLen && n <= MaxHandleLen {
			return Ref{}, err
		}
		if n < len(s) && n < MinHandleLen {
			return Ref{}, fmt.Errorf("%w: %q: byte %d (%q) is not a hex digit; a handle is %d to %d hex digits, optionally followed by a path starting with \".\" or \"[\"",
				ErrBadRef, clip(s), n, s[n], MinHandleLen, MaxHandleLen)
		}
		return Ref{}, err
	}
	if n < len(s) && s[n] != '.' && s[n] != '[' {
		return Ref{}, fmt.Errorf("%w: %q: byte %d (%q) after the handle: a path starts with \".\" or \"[\"", ErrBadRef, clip(s), n, s[n])
	}
	steps, err := ParsePath(s[n:])
	if err != nil {
		return Ref{}, fmt.Errorf("%w (in reference %q)", err, clip(s))
	}
	return Ref{Handle: budget.Handle(h), Path: FormatPath(steps)}, nil
}

// CheckHandle reports whether h is a well-formed handle: 12 to 64 lower-
// case hex digits. It is what keeps a handle from naming a file outside
// the store ("../x", "a/b" and the like are refused).
func CheckHandle(h budget.Handle) error {
	if len(h) < MinHandleLen || len(h) > MaxHandleLen {
		return fmt.Errorf("%w: handle %q has %d characters, want %d to %d hex digits", ErrBadRef, clip(string(h)), len(h), MinHandleLen, MaxHandleLen)
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return fmt.Errorf("%w: handle %q: character %d (%q) is not a lower-case hex digit", ErrBadRef, clip(string(h)), i, c)
		}
	}
	return nil
}

// ParsePath parses the path part of a reference ("" or "." is the whole
// value) into steps: a string for an object key, an int for an index.
func ParsePath(p string) ([]any, error) {
	if p == "" || p == "." {
		return nil, nil
	}
	var steps []any
	i := 0
	for i < len(p) {
		switch p[i] {
		case '.':
			i++
			if i == len(p) {
				return nil, fmt.Errorf("%w: path %q ends with \".\"", ErrBadRef, clip(p))
			}
			switch c := p[i]; {
			case c == '"':
				key, n, err := parseString(p, i)
				if err != nil {
					return nil, err
				}
				steps = append(steps, key)
				i = n
			case c == '[':
				// ".[" is the same as "["; handled by the next iteration.
			case isIdentStart(c):
				j := i + 1
				for j < len(p) && isIdent(p[j]) {
					j++
				}
				steps = append(steps, p[i:j])
				i = j
			default:
				return nil, fmt.Errorf("%w: path %q: byte %d (%q) cannot start a key; quote it: .\"key\"", ErrBadRef, clip(p), i, c)
			}
		case '[':
			i++
			if i < len(p) && p[i] == '"' {
				key, n, err := parseString(p, i)
				if err != nil {
					return nil, err
				}
				if n >= len(p) || p[n] != ']' {
					return nil, fmt.Errorf("%w: path %q: missing \"]\" at byte %d", ErrBadRef, clip(p), n)
				}
				steps = append(steps, key)
				i = n + 1
				continue
			}
			j := i
			if j < len(p) && p[j] == '-' {
				j++
			}
			for j < len(p) && '0' <= p[j] && p[j] <= '9' {
				j++
			}
			if j >= len(p) || p[j] != ']' {
				return nil, fmt.Errorf("%w: path %q: want an integer index or a quoted key then \"]\" at byte %d", ErrBadRef, clip(p), i)
			}
			idx, err := strconv.Atoi(p[i:j])
			if err != nil || j-i > 10 {
				return nil, fmt.Errorf("%w: path %q: bad index %q at byte %d", ErrBadRef, clip(p), p[i:j], i)
			}
			steps = append(steps, idx)
			i = j + 1
		default:
			return nil, fmt.Errorf("%w: path %q: byte %d (%q): want \".\" or \"[\"", ErrBadRef, clip(p), i, p[i])
		}
	}
	return steps, nil
}

// FormatPath renders steps in the canonical path syntax; nil is "".
func FormatPath(steps []any) string {
	var b strings.Builder
	for _, s := range steps {
		switch v := s.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(v) + "]")
		case string:
			if isIdentifier(v) {
				b.WriteString("." + v)
			} else {
				q, _ := json.Marshal(v)
				b.WriteString("[" + string(q) + "]")
			}
		}
	}
	return b.String()
}

// parseString reads a JSON string literal starting at p[i] == '"' and
// returns it and the index after it.
func parseString(p string, i int) (string, int, error) {
	j := i + 1
	for j < len(p) {
		switch p[j] {
		case '\\':
			j += 2
			continue
		case '"':
			var s string
			if err := json.Unmarshal([]byte(p[i:j+1]), &s); err != nil {
				return "", 0, fmt.Errorf("%w: path %q: bad quoted key at byte %d: %v", ErrBadRef, clip(p), i, err)
			}
			return s, j + 1, nil
		}
		j++
	}
	return "", 0, fmt.Errorf("%w: path %q: unterminated quoted key at byte %d", ErrBadRef, clip(p), i)
}

func isIdentifier(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdent(s[i]) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdent(c byte) bool      { return isIdentStart(c) || '0' <= c && c <= '9' }

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
