package host

import (
	"bytes"
	"encoding/json"
)

// A minimal scanner over JSON text that is already known to be valid
// (the pipeline's own walker has parsed it): the content checks index
// records and look members up without decoding them, which keeps them a
// fraction of the plugin call (docs/plugins.md §7).

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"').
func skipString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		bs := 0
		for m := j - 1; m > i && b[m] == '\\'; m-- {
			bs++
		}
		j++
		if bs%2 == 0 {
			return j
		}
	}
}

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) && !isWS(b[i]) && b[i] != ',' && b[i] != ']' && b[i] != '}' {
		i++
	}
	return i
}

// rawMember is one member of an object: its key (raw, quotes included)
// and its value.
type rawMember struct{ key, val []byte }

// members appends the members of the object obj to dst.
func members(dst []rawMember, obj []byte) []rawMember {
	i := skipWS(obj, 1)
	for i < len(obj) && obj[i] == '"' {
		k := skipString(obj, i)
		key := obj[i:k]
		i = skipWS(obj, k)
		i = skipWS(obj, i+1) // ':'
		e := skipValue(obj, i)
		dst = append(dst, rawMember{key, obj[i:e]})
		i = skipWS(obj, e)
		if i < len(obj) && obj[i] == ',' {
			i = skipWS(obj, i+1)
		}
	}
	return dst
}

// elements appends the elements of the array arr to dst.
func elements(dst [][]byte, arr []byte) [][]byte {
	i := skipWS(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		e := skipValue(arr, i)
		dst = append(dst, arr[i:e])
		i = skipWS(arr, e)
		if i < len(arr) && arr[i] == ',' {
			i = skipWS(arr, i+1)
		}
	}
	return dst
}

// streamValues returns the top-level values of b (one for a JSON
// document, several for JSON Lines or concatenated values).
func streamValues(b []byte) [][]byte {
	var out [][]byte
	for i := skipWS(b, 0); i < len(b); i = skipWS(b, i) {
		e := skipValue(b, i)
		if e == i {
			break
		}
		out = append(out, b[i:e])
		i = e
	}
	return out
}

// keyText returns the text of a raw key.
func keyText(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// keyIs reports whether the raw key names name.
func keyIs(raw []byte, name string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1:len(raw)-1]) == name
	}
	return keyText(raw) == name
}

// lookup returns the value of the member name among ms.
func lookup(ms []rawMember, name string) ([]byte, bool) {
	for _, m := range ms {
		if keyIs(m.key, name) {
			return m.val, true
		}
	}
	return nil, false
}

// memberOf returns the value of member name of the object raw.
func memberOf(raw []byte, name string) ([]byte, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	i := skipWS(raw, 1)
	for i < len(raw) && raw[i] == '"' {
		k := skipString(raw, i)
		key := raw[i:k]
		i = skipWS(raw, k)
		i = skipWS(raw, i+1)
		e := skipValue(raw, i)
		if keyIs(key, name) {
			return raw[i:e], true
		}
		i = skipWS(raw, e)
		if i < len(raw) && raw[i] == ',' {
			i = skipWS(raw, i+1)
		}
	}
	return nil, false
}
