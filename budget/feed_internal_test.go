package budget

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/view"
)

// TestFedTreeSame: the fed walk (walkValue[fedWalk]) makes the path
// tree of the plain walk (walkValue[plainWalk]): the same collections,
// counts and fields, and the same level-1 output from it, on every
// captured JSON output and the generated records, with the records
// paths of the benchmark's rules and with none.
func TestFedTreeSame(t *testing.T) {
	var ins []benchInput
	for _, f := range capturedFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, benchInput{f, data, Rules{Defaults: true}})
	}
	ins = append(ins, viewBenchData(t, 1<<20)...)
	fed := 0
	for _, in := range ins {
		for _, rules := range []Rules{in.rules, {Defaults: true}} {
			plain, perr := DetectShape(in.data, rules.Records)
			plan := newFeedPlan(in.data, rules, nil)
			if plan == nil {
				continue
			}
			got, gerr := detectShapeFed(in.data, rules.Records, "", plan)
			if (perr == nil) != (gerr == nil) {
				t.Fatalf("%s: errors differ: %v, fed %v", in.name, perr, gerr)
			}
			if perr != nil {
				continue
			}
			if !reflect.DeepEqual(plain.Collections, got.Collections) || plain.Format != got.Format || plain.LoneSurrogates != got.LoneSurrogates {
				t.Errorf("%s: the fed walk's shape differs:\n%+v\nwant\n%+v", in.name, got.Collections, plain.Collections)
				continue
			}
			fed += len(plan.colls)
			out := func(sh Shape) []byte {
				o, err := Declarative().Compact(context.Background(), Request{Input: in.data, Budget: 4000, Rules: rules, Shape: &sh})
				if err != nil {
					t.Fatal(err)
				}
				return o.Content
			}
			if !bytes.Equal(out(plain), out(got)) {
				t.Errorf("%s: level 1's output differs after the fed walk", in.name)
			}
		}
	}
	if fed < 10 {
		t.Errorf("only %d collections fed", fed)
	}
}

// FuzzFedWalk: on any input, the fed walk (feed.go) finds the shape the
// plain walk finds (or fails alike), and the view made from its fed
// profiles is the view made by the view's own walk.
func FuzzFedWalk(f *testing.F) {
	for _, s := range []string{
		`[{"a":1,"b":"x"},{"a":2,"c":[1,2]},{"a":null}]`,
		"{\"a\":1}\n{\"a\":2,\"b\":{\"c\":\"d\"}}\n{\"b\":[]}\n",
		`{"items":[{"name":"x","env":[{"name":"A","value":"1"}]},{"name":"y","m":{"0":1,"1":2}}],"kind":"List"}`,
		`[{"k\u0061":"v","ka":"w"},{"\"q":1,"0":{"0":"a","1":"b"}}]`,
		`{"items":[{"a":1}]}{"items":[{"a":2}]}`,
		`[[1,2],[3],[],{"x":[{"y":1}]}]`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	c := counter(f)
	f.Fuzz(func(t *testing.T, data []byte, items bool) {
		rules := Rules{Defaults: true}
		if items {
			rules.Records = []string{".items"}
		}
		plan := newFeedPlan(data, rules, nil)
		if plan == nil {
			return
		}
		plain, perr := DetectShape(data, rules.Records)
		fed, ferr := detectShapeFed(data, rules.Records, "", plan)
		if (perr == nil) != (ferr == nil) {
			t.Fatalf("errors differ: %v, fed %v", perr, ferr)
		}
		if perr != nil {
			return
		}
		if !reflect.DeepEqual(plain.Collections, fed.Collections) || plain.Format != fed.Format {
			t.Fatalf("shapes differ:\n%+v\n%+v", fed.Collections, plain.Collections)
		}
		viewOf := func(sh Shape) string {
			v, err := view.Build(viewInput(data, sh, 500))
			if err != nil {
				return "error: " + err.Error()
			}
			fl, err := v.Fill(c, 500)
			if err != nil {
				return "error: " + err.Error()
			}
			return fl.Text
		}
		if a, b := viewOf(fed), viewOf(plain); a != b {
			t.Fatalf("views differ:\n%s\nwant\n%s", a, b)
		}
	})
}

// TestFedViewsSameLarge: on BenchmarkViewOverLevel1's inputs grown to
// 4 MB (collections of up to 10^5 records: past the 16,384 record offsets
// a fed collection keeps, so that the records the rows want are found
// again from every second, fourth, ... record's offset), the view from
// the fed profiles is the view from the view's own walk, at 2,000 and
// 8,000 tokens.
func TestFedViewsSameLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds views of 4 MB outputs")
	}
	c := counter(t)
	ins := viewBenchData(t, 4<<20)
	strided := 0
	for _, in := range ins {
		plain := level1Once(t, in.data, in.rules)
		for _, b := range []int{2000, 8000} {
			fed := level1Fed(t, in.data, in.rules, newFeedPlan(in.data, in.rules, nil))
			for _, coll := range fed.Collections {
				if b == 2000 && coll.Count > 1<<14 {
					strided++
				}
			}
			viewOf := func(sh Shape) string {
				vin := viewInput(in.data, sh, b)
				vin.Drop = dropFunc(in.rules)
				v, err := view.Build(vin)
				if err != nil {
					t.Fatal(err)
				}
				f, err := v.Fill(c, b)
				if err != nil {
					t.Fatal(err)
				}
				return f.Text
			}
			if got, want := viewOf(fed), viewOf(plain); got != want {
				t.Errorf("%s at %d tokens: the fed view differs:\n%s\nwant\n%s", in.name, b, got, want)
			}
		}
	}
	if strided == 0 {
		t.Error("no collection past 16,384 records: the offsets' stride is not tested")
	}
	t.Logf("%d collections past 16,384 records", strided)
}

// TestFedMapKeysWindow: a fed map's last keys (the keys line's window,
// made from the map's text once the walk has ended: FedColl.lastKeys)
// are the ones Build's own pass keeps key by key, escaped names too, in
// maps whose values are scalars, objects or both, of 30 to 40,000
// members (past 16,384 the kept offsets are strided).
func TestFedMapKeysWindow(t *testing.T) {
	c := counter(t)
	for _, n := range []int{30, 51, 300, 40000} {
		for _, vals := range []string{"scalar", "object", "mixed"} {
			var b bytes.Buffer
			b.WriteString(`{"name":"pkg","time":{`)
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				key := fmt.Sprintf("1.%d.0-canary-%08x-2024", i, i*2654435761%(1<<32))
				switch {
				case i == n-3:
					key = `caf\u00e9-` + key
				case i == n-7:
					key = `a\"quoted\"-` + key
				}
				v := fmt.Sprintf(`"2024-05-%02dT10:%02d:00Z"`, i%28+1, i%60)
				if vals == "object" || vals == "mixed" && i%3 == 0 {
					v = fmt.Sprintf(`{"at":%s,"n":%d}`, v, i)
				}
				fmt.Fprintf(&b, `"%s":%s`, key, v)
			}
			b.WriteString("}}")
			data := b.Bytes()
			rules := Rules{Records: []string{".time"}, Defaults: true}
			plain := level1Once(t, data, rules)
			fed := level1Fed(t, data, rules, newFeedPlan(data, rules, nil))
			viewOf := func(sh Shape) string {
				v, err := view.Build(viewInput(data, sh, 4000))
				if err != nil {
					t.Fatal(err)
				}
				f, err := v.Fill(c, 4000)
				if err != nil {
					t.Fatal(err)
				}
				return f.Text
			}
			got, want := viewOf(fed), viewOf(plain)
			if got != want {
				t.Errorf("%d members (%s): the fed view differs:\n%s\nwant\n%s", n, vals, got, want)
			}
			if last := fmt.Sprintf("1.%d.0-canary-", n-1); !strings.Contains(got, last) {
				t.Errorf("%d members (%s): the last key (%s…) is not in the view:\n%s", n, vals, last, got)
			}
			if n > 50 && !strings.Contains(got, `café-1.`) {
				t.Errorf("%d members (%s): the escaped key near the end is not in the view:\n%s", n, vals, got)
			}
		}
	}
}
