package budget

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestShortenJSON(t *testing.T) {
	long := strings.Repeat("é", 100)
	cases := []struct {
		in, want       string
		max, nested, n int
	}{
		// Member names are never shortened; values are, with the exact
		// count of characters cut.
		{`{"` + long + `":"` + long + `"}`, `{"` + long + `":"` + strings.Repeat("é", 30) + `…[+70 chars]"}`, 30, 0, 1},
		// A string level 1 already shortened keeps an exact total.
		{`{"b":"` + long + `…[+400 chars]"}`, `{"b":"` + strings.Repeat("é", 30) + `…[+470 chars]"}`, 30, 0, 1},
		// Short strings and non-strings are untouched.
		{`{"a":1,"b":"short","c":[true,null]}`, `{"a":1,"b":"short","c":[true,null]}`, 3, 0, 0},
		// Nested objects and arrays keep `nested` members; the record's
		// own members are all kept.
		{`{"a":1,"b":2,"c":3,"o":{"x":1,"y":2,"z":3},"l":[1,2,3,4]}`, `{"a":1,"b":2,"c":3,"o":{"x":1,"y":2,"…":"+1 members"},"l":[1,2,"…[+2 items]"]}`, 30, 2, 2},
		{`[{"x":{"p":1,"q":2}}]`, `[{"x":{"p":1,"…":"+1 members"}}]`, 30, 1, 1},
		// Id-like members are kept first and their strings stay whole
		// (up to 100 characters), so a row can still be recognised.
		{`{"m":{"a":1,"b":2,"name":"pod-7"}}`, `{"m":{"name":"pod-7","…":"+2 members"}}`, 30, 1, 1},
		{`{"AlarmName":"prod-shipping-DynamoDB-ThrottledRequests-079","d":"prod-shipping-DynamoDB-ThrottledRequests-079"}`,
			`{"AlarmName":"prod-shipping-DynamoDB-ThrottledRequests-079","d":"prod-ship…[+35 chars]"}`, 9, 0, 1},
		// Not JSON: unchanged.
		{`{"a":` + long, `{"a":` + long, 30, 2, 0},
	}
	for _, c := range cases {
		got, n := shortenJSON(c.in, c.max, c.nested)
		if got != c.want || n != c.n {
			t.Errorf("shortenJSON(%.40q, %d, %d) = %q, %d; want %q, %d", c.in, c.max, c.nested, got, n, c.want, c.n)
		}
	}
}

func TestPositions(t *testing.T) {
	rows := []shownRow{{index: 0}, {index: 1}, {index: 2}, {index: 5}, {index: 7}, {index: 8}}
	if got := positions(rows); got != "0-2, 5, 7-8" {
		t.Errorf("positions = %q", got)
	}
}

// FuzzShortenJSON: valid JSON stays valid, strings never grow, and a
// value is only ever replaced by something that says how much was cut.
func FuzzShortenJSON(f *testing.F) {
	f.Add(`{"a":"hello world, this is long","b":{"c":[1,2,3],"d":"x"}}`, 5, 1)
	f.Add(`["abc…[+3 chars]",{"k":{"k":{"k":1,"j":2}}}]`, 1, 0)
	f.Add(`"plain string that is long enough"`, 4, 2)
	f.Fuzz(func(t *testing.T, in string, max, nested int) {
		if len(in) > 4096 || max < 0 || max > 100 || nested < 0 || nested > 10 {
			return
		}
		got, n := shortenJSON(in, max, nested)
		if !json.Valid([]byte(in)) {
			return
		}
		if !json.Valid([]byte(got)) {
			t.Fatalf("shortenJSON(%q, %d, %d) = %q: not JSON", in, max, nested, got)
		}
		if n == 0 && got != in {
			var a, b any
			json.Unmarshal([]byte(in), &a)
			json.Unmarshal([]byte(got), &b)
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Fatalf("shortenJSON(%q) changed the value without counting it: %q", in, got)
			}
		}
		if n > 0 && !strings.Contains(got, "…") {
			t.Fatalf("shortenJSON(%q) shortened %d values without a marker: %q", in, n, got)
		}
	})
}
