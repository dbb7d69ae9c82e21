package host

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// verifyActions checks the actions a plugin declares: the host renders
// their kinds, targets and (for drop_constant) values into the notice
// line the model reads, so they must not carry text the input does not
// have. A kind is a lower-case word (letters, digits, "_"); a target is
// "." or a jq path whose member names all occur in the input; a
// drop_constant's value ("... has VALUE") must be the input's value at
// its target. The words of the plugin's config values count as names
// too: a column the config asks for may be absent from every record and
// reported as empty.
func verifyActions(input []byte, in budget.Shape, acts []schemas.Action, config map[string]string) error {
	var names map[string]bool
	for i, a := range acts {
		where := "actions[" + strconv.Itoa(i) + "]"
		if !actionKind(a.Kind) {
			return contentErr(where+".kind", "%q is not an action kind (lower-case letters, digits and _, at most 32)", clip(a.Kind, 40))
		}
		if a.Target == "" || a.Target == "." {
			continue
		}
		steps, ok := parseTarget(a.Target)
		if !ok {
			return contentErr(where+".target", "%q is not a jq path", clip(a.Target, 80))
		}
		if names == nil {
			names = map[string]bool{}
			if in.Format != budget.FormatText {
				for _, v := range streamValues(input) {
					collectNames(names, v)
				}
			}
			for _, val := range config {
				for _, w := range strings.FieldsFunc(val, func(r rune) bool {
					return r == ',' || r == '.' || r == ' ' || r == '[' || r == ']' || r == '\t'
				}) {
					names[w] = true
				}
			}
		}
		for _, s := range steps {
			if !s.each && !names[s.key] {
				return contentErr(where+".target", "%q names %q, which is not a member name of the input", clip(a.Target, 80), clip(s.key, 40))
			}
		}
		if a.Kind == budget.ActDropConstant {
			if k := strings.LastIndex(a.Detail, " has "); k >= 0 {
				claimed := a.Detail[k+len(" has "):]
				var got []byte
				for _, v := range streamValues(input) {
					if vals := extractPath(nil, v, steps); len(vals) > 0 {
						got = vals[0]
						break
					}
				}
				var cb bytes.Buffer
				if got == nil || json.Compact(&cb, got) != nil || cb.String() != claimed {
					return contentErr(where+".detail", "says %s has %s; the input has %s", a.Target, clip(claimed, 60), clip(cb.String(), 60))
				}
			}
		}
	}
	return nil
}

// actionKind reports whether k is a lower-case identifier of at most 32
// bytes.
func actionKind(k string) bool {
	if k == "" || len(k) > 32 || k[0] < 'a' || k[0] > 'z' {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// parseTarget parses a jq path of member names and "[]": .a.b, .[].a,
// .items[].user.login, .["a b"], ."a b".
func parseTarget(p string) ([]colStep, bool) {
	if !strings.HasPrefix(p, ".") {
		return nil, false
	}
	var steps []colStep
	i := 0
	for i < len(p) {
		switch {
		case strings.HasPrefix(p[i:], "[]"):
			steps = append(steps, colStep{each: true})
			i += 2
		case strings.HasPrefix(p[i:], ".[\""), strings.HasPrefix(p[i:], "[\""):
			j := strings.Index(p[i:], "[") + i + 1
			end := skipString([]byte(p), j)
			var name string
			if end > len(p) || end >= len(p) || p[end] != ']' || json.Unmarshal([]byte(p[j:end]), &name) != nil {
				return nil, false
			}
			steps = append(steps, colStep{key: name})
			i = end + 1
		case strings.HasPrefix(p[i:], ".\""):
			end := skipString([]byte(p), i+1)
			var name string
			if end > len(p) || json.Unmarshal([]byte(p[i+1:end]), &name) != nil {
				return nil, false
			}
			steps = append(steps, colStep{key: name})
			i = end
		case p[i] == '.':
			j := i + 1
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			if j == i+1 {
				if j == len(p) || p[j] == '[' {
					i = j // "." before "[]"
					continue
				}
				return nil, false
			}
			steps = append(steps, colStep{key: p[i+1 : j]})
			i = j
		default:
			return nil, false
		}
	}
	return steps, true
}

// collectNames adds every member name of the JSON text v to names: one
// pass over the bytes, a string followed by ':' being a name.
func collectNames(names map[string]bool, v []byte) {
	for i := 0; i < len(v); {
		k := bytes.IndexByte(v[i:], '"')
		if k < 0 {
			return
		}
		start := i + k
		end := skipString(v, start)
		j := skipWS(v, end)
		if j < len(v) && v[j] == ':' {
			raw := v[start:end]
			if bytes.IndexByte(raw, '\\') < 0 {
				if !names[string(raw[1:len(raw)-1])] {
					names[string(raw[1:len(raw)-1])] = true
				}
			} else {
				names[keyText(raw)] = true
			}
		}
		i = end
	}
}
