package budget

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/itchyny/gojq"
)

func TestPinFields(t *testing.T) {
	cases := []struct {
		pred string
		want string // sorted names, or "-" when the whole record is needed
	}{
		{`.state == "ALARM"`, "state"},
		{`select(.state == "open")`, "state"},
		{`select(.status.phase != "Running" and .status.phase != "Succeeded")`, "status"},
		{`.level == "error" or .level == "fatal"`, "level"},
		{`."odd key" == 1`, "odd key"},
		{`.["a"] > 3`, "a"},
		{`.msg | test("ERROR")`, "msg"},
		{`(.level // .msg // "" | tostring) | test("(?i)error")`, "level msg"},
		{`if .a then .b else .c end`, "a b c"},
		{`try (.a | tonumber > 3) catch false`, "a"},
		{`.a as $x | .b == $x`, "a b"},
		{`[.a, .b] | length > 1`, "a b"},
		{`true`, ""},
		{`select(.a) | .b == 1`, "a b"},
		{`select(.a).b == 1`, "a b"},
		// Anything that reads the record otherwise needs all of it.
		{`. == {}`, "-"},
		{`keys | length > 3`, "-"},
		{`length > 3`, "-"},
		{`.. | numbers > 3`, "-"},
		{`has("a")`, "-"},
		{`to_entries | length > 1`, "-"},
		{`select(.a) == {"a": 1}`, "-"},
		{`select(.a) | keys`, "-"},
		{`select(.a) as $r | $r.b`, "-"},
		{`[select(.a)] | .[0].b`, "-"},
		{`if .a then . else null end | .b`, "-"},
		{`.[.k]`, "-"},
		{`def f: .a; f`, "-"},
		{`.a |= 1`, "-"},
		{`not`, "-"},
		{`"\(.)" | test("x")`, "-"},
		{`reduce .[] as $x (0; . + 1)`, "-"},
	}
	for _, tc := range cases {
		q, err := gojq.Parse(tc.pred)
		if err != nil {
			t.Fatalf("%s: %v", tc.pred, err)
		}
		names, ok := pinFields(q)
		got := "-"
		if ok {
			slices.Sort(names)
			got = strings.Join(names, " ")
		}
		if got != tc.want {
			t.Errorf("pinFields(%s) = %q, want %q", tc.pred, got, tc.want)
		}
	}
}

func TestPinLiterals(t *testing.T) {
	cases := map[string]string{
		`.state == "ALARM"`:                          `"ALARM"`,
		`select(.state == "open")`:                   `"open"`,
		`"error" == .level and .n > 3`:               `"error"`,
		`(.a.b == "x") and (.c == "y")`:              `"x" "y"`,
		`.state != "ALARM"`:                          ``,
		`.state == "ALARM" or .state == "OK"`:        ``,
		`.state == "ALARM" | not`:                    ``,
		`(.a + "LARM") == "ALARM"`:                   ``,
		`.tags[] == "x"`:                             ``,
		`.state == "ÄLARM"`:                          ``,
		`.s == "tab\there"`:                          `"tab\there"`,
		`select(.level == "error") | .msg == "boom"`: ``,
	}
	for pred, want := range cases {
		q, err := gojq.Parse(pred)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range pinLiterals(q) {
			got = append(got, string(l))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("pinLiterals(%s) = %q, want %q", pred, got, want)
		}
	}
	if mayMatch([]byte(`{"state":"OK"}`), [][]byte{[]byte(`"ALARM"`)}) || !mayMatch([]byte(`{"state":"\u0041LARM"}`), [][]byte{[]byte(`"ALARM"`)}) {
		t.Error("mayMatch: wrong on plain text or did not give up on an escape")
	}
}

// TestPinProjectionAgrees evaluates predicates on every record of captured
// outputs both on the whole record and on its projection, and requires
// the same verdict (or the same failure) for each.
func TestPinProjectionAgrees(t *testing.T) {
	preds := map[string][]string{
		"cloudwatch-alarms.json": {`.StateValue == "ALARM"`, `select(.Threshold > 80)`, `.Dimensions[0].Value | test("prod")`, `.Statistic == null`, `select(.Statistic) | .Period > 60`},
		"kubectl-pods.json":      {`select(.status.phase != "Running")`, `.metadata.labels.app == "payments"`, `([.status.containerStatuses[]?.restartCount] | add) > 2`},
		"app-log.jsonl":          {`.level == "ERROR"`, `(.level // .msg // "" | tostring) | test("(?i)\\b(error|fatal)")`, `.status >= 500`, `.duration_ms > 1000 and .method == "POST"`},
		"github-issues.json":     {`select(.state == "open")`, `.labels | map(.name) | index("bug")`, `.comments > 5 or .locked`},
	}
	for file, list := range preds {
		data, err := os.ReadFile("../testdata/captured/" + file)
		if err != nil {
			t.Fatal(err)
		}
		shape, err := DetectShape(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, pred := range list {
			q, err := gojq.Parse(pred)
			if err != nil {
				t.Fatal(err)
			}
			code, err := gojq.Compile(q)
			if err != nil {
				t.Fatal(err)
			}
			names, ok := pinFields(q)
			if !ok {
				t.Errorf("%s: %s should be projectable", file, pred)
				continue
			}
			want := map[string]bool{}
			for _, n := range names {
				want[n] = true
			}
			matched, skipped := 0, 0
			lits := pinLiterals(q)
			pr := newProjector(want)
			for _, c := range shape.Collections {
				err := EachRecord(data, shape, c.Path, func(i int, raw []byte) error {
					var full any
					if err := jsonv2.Unmarshal(raw, &full, lenient); err != nil {
						return err
					}
					proj, err := recordValue(c.Kind, raw, pr)
					if err != nil {
						return err
					}
					a, aerr := truthy(context.Background(), code, full)
					b, berr := truthy(context.Background(), code, proj)
					if a != b || (aerr == nil) != (berr == nil) {
						t.Errorf("%s %s record %d: whole %v/%v, projected %v/%v", file, pred, i, a, aerr, b, berr)
					}
					if a && !mayMatch(raw, lits) {
						t.Errorf("%s %s record %d matches but the literal prefilter skips it", file, pred, i)
					}
					if !mayMatch(raw, lits) {
						skipped++
					}
					if a {
						matched++
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("%s: %s matches %d records; %d skipped by literals %q", file, pred, matched, skipped, lits)
		}
	}
}

// FuzzProject checks the byte scanner of pin projections against a full
// decode: for any JSON object, the projected members equal the decoded
// ones; for anything else, no panic.
func FuzzProject(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":"x"}`, `{"a\"q":{"b":[1,"}"]},"c":null}`, ` { "a" : [ {"x":"\\"}"} ] , "b":true } `, `{}`, `[1]`, `{"a":1,}`, `{"\u0061":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1024 {
			return
		}
		want := map[string]bool{"a": true, "c": true, "a\"q": true}
		got, isObj, err := newProjector(want).project(raw)
		var full any
		if jsonv2.Unmarshal(raw, &full, lenient) != nil {
			return // not JSON: only "no panic" applies
		}
		m, ok := full.(map[string]any)
		if !ok {
			if isObj && err == nil {
				t.Fatalf("%q: not an object, but projected", raw)
			}
			return
		}
		if err != nil || !isObj {
			t.Fatalf("%q: object not projected: %v", raw, err)
		}
		for k := range want {
			a, aok := m[k]
			b, bok := got[k]
			if aok != bok || fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("%q: member %q: full %v, projected %v", raw, k, a, b)
			}
		}
	})
}
