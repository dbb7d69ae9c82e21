package view

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzErrWord: the byte scan errWord says what the regexp errWords says,
// on any text.
//
//	go test ./budget/view -run '^$' -fuzz FuzzErrWord -fuzztime 20s
func FuzzErrWord(f *testing.F) {
	for _, s := range []string{`"CrashLoopBackOff"`, `"Running"`, `"not ready"`, `"NotReady"`, `"not\nready"`, `"timed out"`,
		`"TimeOut"`, `"timedout"`, `"time  out"`, `"OOMKilled"`, `"Unavailable"`, `"errno"`, `"terror"`, `"ſtatus"`, `"KİLLED"`,
		`"\u212Aill"`, `"warn"`, `"w"`, `"no"`, `"nota"`, `"not_ready"`, `"ALARM"`, `"ok"`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := errWord(s), errWords.MatchString(s); got != want {
			t.Errorf("errWord(%q) = %v, the regexp says %v", s, got, want)
		}
	})
}

// FuzzEscapedRunes: escapedRunes counts the characters encoding/json
// unquotes a string to, for any valid JSON string.
//
//	go test ./budget/view -run '^$' -fuzz FuzzEscapedRunes -fuzztime 20s
func FuzzEscapedRunes(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`,
		`"\u00e9t\u00E9"`, `"é\"\\\/"`, "\"\xff\xfe\"", `"\ud800\udc00\ud800"`, `""`, `"\u002f"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var out string
		if json.Unmarshal([]byte(s), &out) != nil || len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
			return // not one JSON string
		}
		if got, want := escapedRunes([]byte(s[1:len(s)-1])), utf8.RuneCountInString(out); got != want {
			t.Errorf("escapedRunes(%q) = %d, encoding/json gives %d characters", s, got, want)
		}
	})
}

// FuzzSkipString: skipString ends a JSON string literal where it ends,
// short or long, whatever its escapes.
func FuzzSkipString(f *testing.F) {
	for _, s := range []string{"a", `a"b`, `\`, `\\"`, strings.Repeat(`x\"`, 20), strings.Repeat("é", 40) + `\`, strings.Repeat("y", 31) + `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit, err := json.Marshal(s)
		if err != nil {
			t.Skip()
		}
		s2 := jscan{d: append(append([]byte(nil), lit...), `,"x\"y"`...)}
		s2.skipString()
		if s2.pos != len(lit) {
			t.Errorf("%s: ends at %d, want %d", lit, s2.pos, len(lit))
		}
	})
}

// FuzzMemberName: a member name is read to its end, as its bytes when it
// has no escape, else unquoted, whatever its length.
func FuzzMemberName(f *testing.F) {
	for _, s := range []string{"a", `a"b`, `\`, strings.Repeat("n", 31), strings.Repeat("n", 32), strings.Repeat("n", 40) + `"`, "é\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit, err := json.Marshal(s)
		if err != nil {
			t.Skip()
		}
		sc := jscan{d: append(append([]byte(nil), lit...), `:1`...)}
		raw, name := sc.memberName()
		if raw != nil {
			name = string(raw)
		}
		var want string
		if err := json.Unmarshal(lit, &want); err != nil {
			t.Fatal(err)
		}
		if name != want || sc.pos != len(lit) {
			t.Errorf("%s: %q ending at %d, want %q at %d", lit, name, sc.pos, want, len(lit))
		}
	})
}

// FuzzMembers: members and elements read a valid JSON object's members
// (names unquoted, values as their text) and an array's elements as
// encoding/json reads them, end past the value, and end (never hang or
// panic) on any other text.
//
//	go test ./budget/view -run '^$' -fuzz FuzzMembers -fuzztime 20s
func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{"a":1,"b\"c":[1,{"d":"}"}],"e":{"f":null}}`, `[1, "a,b", {"x":[]}, []]`, `{}`, `[]`, ` { "a" : "b" } `,
		`{"a":}`, `{"a"`, `[,]`, `[}`, `{"a":1,,"b":2}`, `{1:2}`, `"s"`, ``, `{"\u00e9":"\ud83d\ude00"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		type kv struct {
			k string
			v string
		}
		var got []kv
		var elems []string
		sc := jscan{d: []byte(s)}
		obj := sc.members(func(name string, val []byte) { got = append(got, kv{name, string(val)}) })
		endObj := sc.pos
		sa := jscan{d: []byte(s)}
		arr := sa.elements(func(val []byte) { elems = append(elems, string(val)) })
		if endObj > len(s) || sa.pos > len(s) {
			t.Fatalf("%q: ends past the text (%d, %d)", s, endObj, sa.pos)
		}
		var v any
		if json.Unmarshal([]byte(s), &v) != nil || !utf8.ValidString(s) {
			// Not valid JSON (or not UTF-8, which encoding/json
			// replaces and the walk keeps as it is): ending is all
			// that is asked.
			return
		}
		end := len(strings.TrimRight(s, " \t\r\n"))
		dec := json.NewDecoder(strings.NewReader(s))
		tok, _ := dec.Token()
		switch tok {
		case json.Delim('{'):
			if !obj || endObj != end {
				t.Fatalf("%q: object %v ending at %d, want %d", s, obj, endObj, end)
			}
			var want []kv
			for dec.More() {
				k, _ := dec.Token()
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					t.Fatal(err)
				}
				want = append(want, kv{k.(string), string(raw)})
			}
			if len(got) != len(want) {
				t.Fatalf("%q: %d members, want %d", s, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%q: member %d is %q, want %q", s, i, got[i], want[i])
				}
			}
		case json.Delim('['):
			if !arr || sa.pos != end {
				t.Fatalf("%q: array %v ending at %d, want %d", s, arr, sa.pos, end)
			}
			var want []string
			for dec.More() {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					t.Fatal(err)
				}
				want = append(want, string(raw))
			}
			if strings.Join(elems, "\x00") != strings.Join(want, "\x00") || len(elems) != len(want) {
				t.Errorf("%q: elements %q, want %q", s, elems, want)
			}
		default:
			if obj || arr {
				t.Errorf("%q: read as an object (%v) or an array (%v)", s, obj, arr)
			}
		}
	})
}

// FuzzIsLiteral: isLiteral says what strconv.ParseFloat and the JSON
// literals say, on any string (it asks ParseFloat only of strings that
// may be numbers).
func FuzzIsLiteral(f *testing.F) {
	for _, s := range []string{"1", "-1.5e3", "+.5", "Inf", "-infinity", "NaN", "nan", "0x1p-2", "1_000", "0x_1p0", "true", "null", "x1", "", "-", "+-1", "--1", "é", "i", "n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, err := strconv.ParseFloat(s, 64)
		want := err == nil || s == "true" || s == "false" || s == "null"
		if got := isLiteral(s); got != want {
			t.Errorf("isLiteral(%q) = %v, want %v", s, got, want)
		}
	})
}
