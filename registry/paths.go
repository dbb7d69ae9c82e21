package registry

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Path is a parsed field path (keep, drop).
type Path struct {
	// Anchored reports a leading ".": the path is a full jq-style path
	// from the document root (".[].user.login", ".items[].metadata.uid").
	// Without it the path matches the end of a field's path at any depth
	// ("*_url" matches every member ending in _url, "user.login" every
	// login inside a user).
	Anchored bool
	Steps    []Step
}

// wildcard reports whether a step of p has a "*".
func (p Path) wildcard() bool {
	for _, s := range p.Steps {
		if s.Wildcard {
			return true
		}
	}
	return false
}

// SortKey splits a sort key of an entry (Entry.Sort) into its field
// path and its direction: "-size" is the path "size", largest first.
func SortKey(key string) (path string, desc bool) {
	if strings.HasPrefix(key, "-") {
		return key[1:], true
	}
	return key, false
}

// Step is one step of a parsed field or record path.
type Step struct {
	// Key is the member name; "" for a step that only enters array
	// elements (a path starting with "[]").
	Key string
	// Wildcard reports that Key contains "*", which matches any run of
	// characters within one member name (quoted or not).
	Wildcard bool
	// Arrays is how many "[]" follow the key: each enters the elements of
	// an array.
	Arrays int
}

// ParsePath parses a field path as used by keep and drop: member names
// joined with ".", each optionally followed by "[]" to step into array
// elements, "*" as a wildcard within one name, and "quoted" names (JSON
// string syntax, also as jq's ["name"]) for names holding ".", "[", "]",
// '"' or spaces. A leading "." anchors the path at the document root (see
// Path). Examples: "id", "user.login", "labels[].name", "*_url", "[].id",
// `."dist-tags".latest`, `.["dist-tags"].latest`, ".items[].metadata.uid".
func ParsePath(p string) (Path, error) {
	steps, err := parsePath(p, true)
	if err != nil {
		return Path{}, err
	}
	return Path{Anchored: strings.HasPrefix(p, "."), Steps: steps}, nil
}

// ParseRecordPath parses a record collection path as used by records: a
// jq path that starts with ".", with no wildcards. "." is the root.
// Examples: ".", ".items", ".data.rows", ".[].items", `."dist-tags"`,
// `.["dist-tags"]`.
func ParseRecordPath(p string) ([]Step, error) {
	if !strings.HasPrefix(p, ".") {
		return nil, fmt.Errorf("record path %q must start with \".\" (jq style; \".\" is the root)", p)
	}
	if p == "." {
		return nil, nil
	}
	return parsePath(p, false)
}

func parsePath(p string, wildcards bool) ([]Step, error) {
	if p == "" {
		return nil, fmt.Errorf("empty path")
	}
	if !utf8.ValidString(p) {
		return nil, fmt.Errorf("path %q is not valid UTF-8", p)
	}
	bad := func(i int, format string, args ...any) error {
		return fmt.Errorf("path %q, at offset %d: %s", p, i, fmt.Sprintf(format, args...))
	}
	i := 0
	if p[0] == '.' {
		i = 1
		if len(p) == 1 {
			return nil, bad(0, "a field path needs at least one name (\".\" alone is the whole document)")
		}
	}
	var steps []Step
	for i < len(p) {
		if len(steps) > 0 {
			switch {
			case p[i] == '.':
				i++
				if i == len(p) {
					return nil, bad(i, "the path ends with \".\"; expected a name")
				}
			case strings.HasPrefix(p[i:], `["`):
				// jq's .a["b"]: a new step without a dot.
			default:
				return nil, bad(i, "unexpected %q; expected \".\" or \"[]\"", p[i])
			}
		}
		var st Step
		start := i
		switch {
		case p[i] == '"':
			end, key, err := quoted(p, i)
			if err != nil {
				return nil, bad(i, "%v", err)
			}
			st.Key, i = key, end
			st.Wildcard = strings.Contains(key, "*")
		case strings.HasPrefix(p[i:], `["`):
			end, key, err := quoted(p, i+1)
			if err != nil {
				return nil, bad(i+1, "%v", err)
			}
			if end >= len(p) || p[end] != ']' {
				return nil, bad(end, `expected "]" after the quoted name`)
			}
			st.Key, i = key, end+1
			st.Wildcard = strings.Contains(key, "*")
		case p[i] == '[':
			if len(steps) > 0 {
				return nil, bad(i, `"[]" must follow a name, as in "items[]"`)
			}
		default:
			for i < len(p) && p[i] != '.' && p[i] != '[' {
				c := rune(p[i])
				switch {
				case c == ']' || c == '"':
					return nil, bad(i, "unexpected %q inside a name (quote the name: \"...\")", c)
				case c < 0x80 && (unicode.IsSpace(c) || unicode.IsControl(c)):
					return nil, bad(i, "unexpected %q inside a name (quote the name: \"...\")", c)
				case c == '*' && !wildcards:
					return nil, bad(i, "wildcards are not allowed in record paths")
				}
				i++
			}
			st.Key = p[start:i]
			st.Wildcard = strings.Contains(st.Key, "*")
			if st.Key == "" {
				return nil, bad(i, "empty name between dots")
			}
		}
		for i < len(p) && p[i] == '[' && !strings.HasPrefix(p[i:], `["`) {
			if i+1 >= len(p) || p[i+1] != ']' {
				return nil, bad(i, `expected "[]" (indexes and slices are not field paths)`)
			}
			st.Arrays++
			i += 2
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// quoted reads the JSON string starting at p[i] == '"' and returns the
// offset just after it and its value.
func quoted(p string, i int) (int, string, error) {
	j := i + 1
	for j < len(p) {
		switch p[j] {
		case '\\':
			j += 2
			continue
		case '"':
			var s string
			if err := json.Unmarshal([]byte(p[i:j+1]), &s); err != nil {
				return 0, "", fmt.Errorf("bad quoted name %s: %v", p[i:j+1], err)
			}
			return j + 1, s, nil
		}
		j++
	}
	return 0, "", fmt.Errorf("unterminated quoted name")
}

// FormatPath renders a path that ParsePath reads back to the same Path:
// names that are not plain are quoted.
func FormatPath(p Path) string {
	var b strings.Builder
	if p.Anchored {
		b.WriteByte('.')
	}
	for i, st := range p.Steps {
		if i > 0 {
			b.WriteByte('.')
		}
		switch {
		case st.Key == "" && st.Arrays > 0 && i == 0:
		case plainName(st.Key):
			b.WriteString(st.Key)
		default:
			q, _ := json.Marshal(st.Key)
			b.Write(q)
		}
		b.WriteString(strings.Repeat("[]", st.Arrays))
	}
	return b.String()
}

// plainName reports whether name can be written without quotes.
func plainName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case c == '.' || c == '[' || c == ']' || c == '"':
			return false
		case c < 0x80 && (unicode.IsSpace(c) || unicode.IsControl(c)):
			return false
		}
	}
	return true
}
