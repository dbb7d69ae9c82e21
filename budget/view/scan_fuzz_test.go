package view

import (
	"encoding/json"
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
