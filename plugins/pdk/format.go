package pdk

import (
	"strconv"
	"unicode/utf8"
)

// Errorf is fmt.Errorf for plugin error messages, without importing fmt:
// fmt brings reflect and os into a plugin, about a quarter of a Go
// plugin's module, and the host decodes and validates every byte of the
// module at start-up (see docs/pdk.md). It supports the verbs plugins
// need, with fmt's output for these argument types: %s and %v (strings,
// []byte, errors, values with a String method, integers, booleans), %q
// (strings and []byte quoted, integers as a quoted character, as fmt
// does), %d (integers), %c (integers as a character), %w (an error,
// which the result wraps: errors.Is and errors.As see it, as with
// fmt.Errorf) and %%. Flags and widths are not supported; anything else
// is written as %!verb(?), as fmt marks a bad verb.
func Errorf(format string, args ...any) error {
	msg, wrapped := sprintf(format, args)
	switch len(wrapped) {
	case 0:
		return &formatError{msg: msg}
	case 1:
		return &wrapError{msg: msg, err: wrapped[0]}
	}
	return &wrapErrors{msg: msg, errs: wrapped}
}

type formatError struct{ msg string }

func (e *formatError) Error() string { return e.msg }

type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

type wrapErrors struct {
	msg  string
	errs []error
}

func (e *wrapErrors) Error() string   { return e.msg }
func (e *wrapErrors) Unwrap() []error { return e.errs }

// sprintf formats like fmt.Sprintf for the verbs Errorf documents and
// returns the %w operands.
func sprintf(format string, args []any) (string, []error) {
	buf := make([]byte, 0, len(format)+32)
	var wrapped []error
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			buf = append(buf, c)
			continue
		}
		i++
		verb := format[i]
		if verb == '%' {
			buf = append(buf, '%')
			continue
		}
		if n >= len(args) {
			buf = append(buf, "%!"...)
			buf = append(buf, verb)
			buf = append(buf, "(MISSING)"...)
			continue
		}
		arg := args[n]
		n++
		if verb == 'w' {
			if err, ok := arg.(error); ok {
				wrapped = append(wrapped, err)
			}
			verb = 'v'
		}
		buf = appendArg(buf, verb, arg)
	}
	return string(buf), wrapped
}

func appendArg(buf []byte, verb byte, arg any) []byte {
	var i int64
	isInt := true
	switch v := arg.(type) {
	case int:
		i = int64(v)
	case int64:
		i = v
	case int32:
		i = int64(v)
	case uint8:
		i = int64(v)
	case uint32:
		i = int64(v)
	case uint64:
		if v > 1<<63-1 {
			if verb == 'd' || verb == 'v' || verb == 's' {
				return strconv.AppendUint(buf, v, 10)
			}
		}
		i = int64(v)
	case uint:
		i = int64(v)
	default:
		isInt = false
	}
	if isInt {
		switch verb {
		case 'd', 'v':
			return strconv.AppendInt(buf, i, 10)
		case 'q':
			r := rune(i)
			if int64(r) != i || !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			return strconv.AppendQuoteRune(buf, r)
		case 'c':
			r := rune(i)
			if int64(r) != i || !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			return utf8.AppendRune(buf, r)
		}
		return badVerb(buf, verb)
	}
	var s string
	switch v := arg.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	case error:
		s = v.Error()
	case interface{ String() string }:
		s = v.String()
	case bool:
		s = strconv.FormatBool(v)
	case nil:
		s = "<nil>"
	default:
		return badVerb(buf, verb)
	}
	switch verb {
	case 's', 'v':
		return append(buf, s...)
	case 'q':
		return strconv.AppendQuote(buf, s)
	}
	return badVerb(buf, verb)
}

func badVerb(buf []byte, verb byte) []byte {
	buf = append(buf, "%!"...)
	buf = append(buf, verb)
	return append(buf, "(?)"...)
}

// sprintfMsg is sprintf without the %w operands.
func sprintfMsg(format string, args []any) string {
	s, _ := sprintf(format, args)
	return s
}
