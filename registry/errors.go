package registry

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is matched (with errors.Is) by every error that Load and
// Parse return: the registry did not load or did not validate.
var ErrInvalid = errors.New("invalid registry")

// Error is one problem in a registry file. Line and Col are 1-based and
// point at the YAML node at fault (the key, for an unknown key); they are
// 0 when the problem has no position, such as an unreadable file.
type Error struct {
	File string
	Line int
	Col  int
	// Path is where the value sits in the document, such as
	// "tools[2].plugin.timeout"; "" for the document itself.
	Path string
	// Msg says what is wrong and what is expected.
	Msg string
	// Err is the underlying error (I/O, YAML, jq), when there is one.
	Err error
}

// Error formats the problem as "file:line:col: path: message", the form
// editors and compilers use.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// Errors is every problem found in one registry file, in file order. Load
// and Parse return it (never empty) on failure; errors.As finds each
// *Error in it.
type Errors []*Error

// Error joins the problems, one a line.
func (l Errors) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap returns the problems as errors.
func (l Errors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Is reports whether target is ErrInvalid.
func (l Errors) Is(target error) bool { return target == ErrInvalid }
