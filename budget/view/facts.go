package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Facts: what a JSON document holds outside its collections (a package's
// name, description and version, an envelope's total_count). Scalars are
// shown verbatim (long strings cut, with their length), small objects and
// arrays inline, larger ones by their keys and sizes and then member by
// member.

const (
	maxPromoted  = 24  // short scalars of nested objects shown with the profiles
	maxPromoted2 = 48  // short values deeper down shown before the later rows
	maxFactLen   = 300 // characters of a string fact before it is cut
	maxInline    = 200 // bytes of an object or array shown inline
	maxFactDepth = 3
	maxSummary   = 360 // characters of an object's members in its summary
)

type fact struct {
	path string // jq path: .name, .repository.url, ."dist-tags"
}

// addFacts adds the facts of a JSON document whose root is an object.
func addFacts(v *View, in Input) {
	s := jscan{d: in.Data}
	s.ws()
	if s.peek() != '{' {
		return
	}
	colls := map[string]bool{}
	texts := map[string][]byte{}
	for _, c := range in.Collections {
		colls[c.Path] = true
		texts[c.Path] = c.Text
	}
	if colls["."] {
		// The root object is itself a keyed collection (npm view NAME
		// time --json, a media-type database): its members are records,
		// shown by the collection's own section, not facts.
		return
	}
	holds := func(path string) bool {
		for _, c := range in.Collections {
			if strings.HasPrefix(c.Path, path+".") || strings.HasPrefix(c.Path, path+"[") {
				return true
			}
		}
		return false
	}
	var facts []fact
	promoted, promoted2 := 0, 0
	sec := v.AddSection(&Section{Order: 0,
		Head: func(ch []Candidate) string {
			if len(ch) == 0 {
				return ""
			}
			return "outside the collections:\n"
		},
	})
	v.sections[sec].Foot = func(ch []Candidate) string {
		if len(ch) == len(facts) {
			return ""
		}
		shown := map[int]bool{}
		for _, c := range ch {
			shown[c.Key] = true
		}
		var rest []string
		for i, f := range facts {
			if !shown[i] {
				rest = append(rest, f.path)
			}
		}
		if len(rest) == 0 {
			return ""
		}
		var q string
		if len(rest) <= 12 {
			parts := make([]string, len(rest))
			for i, p := range rest {
				parts[i] = jsonQuote(strings.TrimPrefix(p, ".")) + ": " + p
			}
			q = "{" + strings.Join(parts, ", ") + "}"
		} else {
			var cs []string
			for _, c := range in.Collections {
				if !strings.Contains(c.Path, "[]") && c.Path != "." {
					cs = append(cs, c.Path)
				}
			}
			q = "."
			if len(cs) > 0 {
				q = "del(" + strings.Join(cs, ", ") + ")"
			}
		}
		return fmt.Sprintf("  not shown: %s of %s facts; get them: %s\n", commas(len(facts)-len(ch)), commas(len(facts)), jqCommand(in.Handle, q))
	}
	var walk func(s *jscan, prefix string, depth int, covered map[string]bool)
	walk = func(s *jscan, prefix string, depth int, covered map[string]bool) {
		s.eachMember(func(name string) {
			path := prefix + "." + name
			if !plainName(name) {
				path = prefix + "." + jsonQuote(name)
			}
			start := s.pos
			c := s.peek()
			if covered[name] {
				s.skipValue() // stated whole in its object's summary
				return
			}
			switch {
			case colls[path]:
				// A collection whose text is known is stepped over whole.
				if t := texts[path]; offsetIn(s.d, t) == start {
					s.pos = start + len(t)
				} else {
					s.skipValue()
				}
			case c == '{' && holds(path):
				walk(s, path, depth+1, nil)
			case holds(path):
				s.skipValue()
			default:
				s.skipValue()
				raw := s.d[start:s.pos]
				var inl string
				var whole bool
				if c == '{' || c == '[' {
					inl, whole = inline(raw)
				}
				prio := PrioFact
				if depth > 0 {
					prio = PrioObject
					// A short scalar of an object near the top (an API
					// document's info.title and info.version) is a fact
					// as telling as those of the root.
					if depth == 1 && (c != '{' && c != '[' && len(raw) <= 80 || whole) && promoted < maxPromoted {
						// (a small object there too, shown inline: a
						// media file's format.tags with its title)
						prio = PrioProfile
						promoted++
					} else if len(raw) <= 80 && promoted2 < maxPromoted2 {
						// A short value deeper down (esbuild's
						// outputs."dist/app.js".bytes) comes before
						// the rows past the first rounds.
						prio = PrioProfile2
						promoted2++
					}
				}
				text := ""
				switch {
				case c == '"':
					str := unquote(raw)
					n := len([]rune(str))
					text = cell(string(raw), maxFactLen)
					if n > maxFactLen+12 {
						text += fmt.Sprintf(" (%s chars)", commas(n))
						if prio == PrioFact && n > 2*maxFactLen {
							prio = PrioObject
						}
					}
				case c == '{' || c == '[':
					if text = inl; !whole {
						if c == '{' && depth+1 < maxFactDepth {
							facts = append(facts, fact{path})
							v.Add(Candidate{Section: sec, Key: len(facts) - 1, Record: -1, Prio: prio, Reason: "fact", Text: "  " + strings.TrimPrefix(path, ".") + ": " + text})
							var cov map[string]bool
							if prio == PrioFact {
								// The summary comes first: the members
								// it states whole get no line of their
								// own (TestFactsNotRestated).
								_, _, cov = summaryParts(raw)
							}
							walk(&jscan{d: raw}, path, depth+1, cov)
							text = "" // added above
						}
					}
				default:
					text = string(raw)
				}
				if text != "" {
					facts = append(facts, fact{path})
					v.Add(Candidate{Section: sec, Key: len(facts) - 1, Record: -1, Prio: prio, Reason: "fact", Text: "  " + strings.TrimPrefix(path, ".") + ": " + text})
				}
			}
		})
	}
	walk(&s, "", 0, nil)
}

// inline is the object or array raw on one line (compacted) when it is at
// most maxInline bytes (whole), else its summary.
func inline(raw []byte) (text string, whole bool) {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(raw)
	}
	if b.Len() > maxInline {
		return summarize(raw), false
	}
	return b.String(), true
}

// summaryParts is what summarize states of object raw: its number of
// members, the parts shown (each member's name, with its scalar value
// cut at 40 characters), up to maxSummary characters, and the names of
// the members whose value a part states whole.
func summaryParts(raw []byte) (n int, parts []string, whole map[string]bool) {
	whole = map[string]bool{}
	s := jscan{d: raw}
	size := 0
	s.members(func(k string, val []byte) {
		n++
		if size > maxSummary {
			return
		}
		label := k
		if !plainName(k) {
			label = jsonQuote(k)
		}
		part := label
		if len(val) > 0 && val[0] != '{' && val[0] != '[' {
			c := cell(string(val), 40)
			part = label + "=" + c
			if c == cell(string(val), 1<<30) {
				whole[k] = true
			}
		}
		parts = append(parts, part)
		size += len(part) + 2
	})
	return n, parts, whole
}

// summarize describes a large object or array by its size and members:
// an object's scalar members with their values (cut), its objects and
// arrays by name, up to maxSummary characters (a process's resource
// usage shows its rss, not only the word).
func summarize(raw []byte) string {
	s := jscan{d: raw}
	n := 0
	if s.elements(func([]byte) { n++ }) {
		return fmt.Sprintf("array of %s items (%s bytes)", commas(n), commas(len(raw)))
	}
	n, parts, _ := summaryParts(raw)
	more := ""
	if n > len(parts) {
		more = fmt.Sprintf(", … %d more", n-len(parts))
	}
	return fmt.Sprintf("object of %s members (%s bytes): %s%s", commas(n), commas(len(raw)), strings.Join(parts, ", "), more)
}
