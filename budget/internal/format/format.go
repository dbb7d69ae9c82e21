// Package format writes the counts compact states the same way in every
// place that states them: the view (budget/view), level 2's notes and
// the notice of a result that keeps the whole output (budget). One
// implementation, so that a count in a notice reads exactly as the same
// count in the view.
package format

import (
	"bytes"
	"strconv"
	"strings"
)

// Commas formats n with thousands separators: 5000 -> "5,000",
// -1234567 -> "-1,234,567".
func Commas(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Plural writes a count and its noun: "1 field", "2 fields",
// "1,000 fields".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return Commas(n) + " " + word + "s"
}

// CountLines counts the lines of a text as compact artifact slice and jq
// number them: newline-terminated ones plus a final unterminated one.
func CountLines(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	n := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		n++
	}
	return n
}
