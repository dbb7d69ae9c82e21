package view

import (
	"strings"
	"unicode"
)

// A collection's count in its own words: level 1 names a collection by
// its path (.traceEvents) and counts its "records", but a reader asks
// "how many trace events", and finds the answer where the count stands
// next to those words. The head of a collection whose last path segment
// is a plural noun states the count with it instead of "records":
//
//	collection .traceEvents (array): 577 trace events; showing 42 of 577
//
// The words are the key's own (split at capitals after small letters,
// "_", "-", "." and spaces, in small letters); a key that is no plural
// word (.result, .data, a map's "."), holds anything but letters, or is
// "records" already states nothing more.

// keyNoun returns the words of the last segment of collection path p
// when it is a plural noun ("trace events" of .traceEvents, "functions"
// of .result[].functions), else "".
func keyNoun(p string) string {
	if p == "" || p == "." || !strings.HasPrefix(p, ".") || strings.ContainsAny(p, "|()") {
		return ""
	}
	segs := pathSegments(strings.TrimPrefix(p, "."))
	last := strings.TrimSuffix(segs[len(segs)-1], "[]")
	if strings.HasPrefix(last, `"`) {
		last = unquote([]byte(last))
	}
	var words []string
	var w []rune
	prevLower := false
	flush := func() {
		if len(w) > 0 {
			words = append(words, strings.ToLower(string(w)))
			w = w[:0]
		}
	}
	for _, r := range last {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			prevLower = false
			continue
		case r > unicode.MaxASCII || !unicode.IsLetter(r):
			return ""
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		w = append(w, r)
		prevLower = unicode.IsLower(r)
	}
	flush()
	if len(words) == 0 || len(words) > 4 {
		return ""
	}
	end := words[len(words)-1]
	if len(end) < 3 || !strings.HasSuffix(end, "s") || strings.HasSuffix(end, "ss") ||
		strings.HasSuffix(end, "us") || strings.HasSuffix(end, "is") {
		return ""
	}
	n := strings.Join(words, " ")
	if n == "records" {
		return ""
	}
	return n
}

// minCountWords is the fewest records of a collection whose count is
// stated in its key's words too: the head of every collection is in the
// view at every budget, and the words of a small one (9 heap spaces)
// cost a row at 2,000 tokens (a node report's old_space); a collection
// that small is mostly shown whole, its count read off its rows.
const minCountWords = 50

// countWords is "N words" for a collection at path p of n records
// (minCountWords or more) whose key is a plural noun (keyNoun), else "N
// records": the key's words stand for "records", at about the same
// number of tokens (two more heads' words cost a profile line of mocha's
// report at 2,000 tokens).
func countWords(p string, n int) string {
	if n >= minCountWords {
		if w := keyNoun(p); w != "" {
			return commas(n) + " " + w
		}
	}
	return commas(n) + " records"
}
