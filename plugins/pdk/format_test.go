package pdk

import (
	"errors"
	"fmt"
	"testing"
)

// Errorf must write what fmt.Errorf writes for the verbs and argument
// types plugins use.
func TestErrorfMatchesFmt(t *testing.T) {
	base := errors.New("base")
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"%w: no newline after the header in %d bytes of input", []any{ErrFraming, 12}},
		{"%w: header: %w", []any{ErrFraming, base}},
		{"config[%q]: %w", []any{"a\"b\tc", base}},
		{"%s: %w", []any{[]byte("key"), base}},
		{"unexpected %s after header object", []any{BeginArray}},
		{"invalid character %q looking for beginning of value", []any{byte('x')}},
		{"invalid character %q in string", []any{byte(0x01)}},
		{"invalid character %q", []any{byte(0x80)}},
		{"invalid character %q", []any{byte('\'')}},
		{"invalid escape \\%c in string", []any{byte('x')}},
		{"invalid escape \\%c in string", []any{byte(0xe9)}},
		{"nesting deeper than %d", []any{MaxDepth}},
		{"number %s is not an int64", []any{[]byte("1e400")}},
		{"element %d of %s is %s, not an object", []any{3, ".items", Number}},
		{"offset %d of %d: %w", []any{int64(-5), uint64(7), base}},
		{"100%% sure, %v %v", []any{true, nil}},
		{"panicked: %v", []any{"boom"}},
		{"%q", []any{[]byte("x\x00y")}},
		{"%d", []any{uint64(1<<64 - 1)}},
	} {
		want := fmt.Errorf(c.format, c.args...)
		got := Errorf(c.format, c.args...)
		if got.Error() != want.Error() {
			t.Errorf("Errorf(%q) = %q, fmt.Errorf gives %q", c.format, got, want)
		}
		for _, a := range c.args {
			if e, ok := a.(error); ok && !errors.Is(got, e) {
				t.Errorf("Errorf(%q): errors.Is(%v) false", c.format, e)
			}
		}
	}
}

func TestErrorfBadVerbs(t *testing.T) {
	if got := Errorf("%x %d", 1).Error(); got != "%!x(?) %!d(MISSING)" {
		t.Errorf("got %q", got)
	}
}
