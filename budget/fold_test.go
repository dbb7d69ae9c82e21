package budget

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

// countNodes counts the nodes of the shape's path tree.
func countNodes(n *node) int {
	if n == nil {
		return 0
	}
	total := 1 + countNodes(n.elem)
	for _, c := range n.order {
		total += countNodes(c)
	}
	return total
}

// withNamedMembers runs f with maxNamedMembers set to m.
func withNamedMembers(m int, f func()) {
	defer func(old int) { maxNamedMembers = old }(maxNamedMembers)
	maxNamedMembers = m
	f()
}

// TestFoldedMembersBounded: the shape of an npm registry document grown
// from 1 to 4 MB (its versions and their times repeated under new
// names) has as many nodes at both sizes: the members of an object with
// many names share one node (they had one each, with its own subtree:
// 370,000 nodes at 40 MB, and a walk 30 times slower per byte than a
// kubectl list's).
func TestFoldedMembersBounded(t *testing.T) {
	vi := viewBenchInputs[2] // npm-view-react
	var nodes []int
	for _, mb := range []int{1, 4} {
		data := grownCaptured(t, vi.file, vi.grow, mb<<20)
		sh, err := DetectShape(data, vi.rules.Records)
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, countNodes(sh.tree))
	}
	if nodes[0] != nodes[1] || nodes[0] > 4*maxNamedMembers {
		t.Errorf("the shape's nodes grow with the input: %d at 1 MB, %d at 4 MB", nodes[0], nodes[1])
	}
}

// TestFoldedMembersSameShape: folding the members of wide objects
// changes no collection, count or field the shape reports, nor level
// 1's output and the sum of its actions' counts by kind: every captured
// JSON output (several hold objects of 400 to 3,500 members) and an npm
// document grown to 2 MB, with no records paths and with the registry's.
func TestFoldedMembersSameShape(t *testing.T) {
	type input struct {
		name    string
		data    []byte
		records []string
		rules   Rules
	}
	var ins []input
	files, err := filepath.Glob(filepath.Join("..", "testdata", "captured", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, input{filepath.Base(f), data, nil, Rules{Defaults: true}})
	}
	for _, vi := range viewBenchInputs {
		if strings.HasSuffix(vi.file, ".json") {
			ins = append(ins, input{vi.name + " 2MB", grownCaptured(t, vi.file, vi.grow, 2<<20), vi.rules.Records, vi.rules})
		}
	}
	folded := 0
	for _, in := range ins {
		run := func() (Shape, Output, int) {
			sh, err := DetectShape(in.data, in.records)
			if err != nil {
				t.Fatalf("%s: %v", in.name, err)
			}
			n := countNodes(sh.tree)
			req := Request{Tool: "t", Input: in.data, Budget: 1 << 30, Rules: in.rules, Shape: &sh}
			out, err := Declarative().Compact(context.Background(), req)
			if err != nil {
				t.Fatalf("%s: %v", in.name, err)
			}
			if err := checkOutput(sh, out); err != nil {
				t.Fatalf("%s: %v", in.name, err)
			}
			return sh, out, n
		}
		var wantSh Shape
		var want Output
		var before int
		withNamedMembers(1<<30, func() { wantSh, want, before = run() })
		sh, out, after := run()
		if after < before {
			folded++
		}
		if !reflect.DeepEqual(sh.Collections, wantSh.Collections) {
			t.Errorf("%s: collections with folded members:\n%v\nwithout:\n%v", in.name, sh.Collections, wantSh.Collections)
		}
		if string(out.Content) != string(want.Content) {
			t.Errorf("%s: level 1's output differs with folded members", in.name)
		}
		if a, b := actionCounts(out.Actions), actionCounts(want.Actions); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: level 1's actions by kind %v with folded members, %v without", in.name, a, b)
		}
	}
	if folded < 4 {
		t.Errorf("only %d inputs have an object wide enough to fold: the test tests little", folded)
	}
}

func actionCounts(acts []schemas.Action) map[string]int {
	m := map[string]int{}
	for _, a := range acts {
		m[a.Kind] += a.Count
	}
	return m
}

// TestFoldedMembersRecords: an object past maxNamedMembers names is a
// keyed collection with its exact count, found on its own and named by
// a records path; its records are read by EachRecord as before; a
// records path through one of its members by name is a clear error, and
// its values are named with [] as in jq.
func TestFoldedMembersRecords(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"name":"pkg","time":{`)
	n := maxNamedMembers + 50
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"1.%d.0":{"at":"2024-01-01","files":[{"f":%d}]}`, i, i)
	}
	b.WriteString(`}}`)
	data := []byte(b.String())
	sh, err := DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := collSummary(sh), fmt.Sprintf("json: .time map %d", n); got != want {
		t.Errorf("shape %q, want %q", got, want)
	}
	if !sh.tree.children["time"].folded {
		t.Fatal(".time is not folded")
	}
	count := 0
	if err := EachRecord(data, sh, ".time", func(i int, raw []byte) error {
		if want := fmt.Sprintf(`{"1.%d.0":{"at":"2024-01-01","files":[{"f":%d}]}}`, i, i); string(raw) != want {
			t.Fatalf("record %d: %s, want %s", i, raw, want)
		}
		count++
		return nil
	}); err != nil || count != n {
		t.Fatalf("EachRecord: %d records, %v", count, err)
	}
	sh, err = DetectShape(data, []string{".time[].files"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := collSummary(sh), fmt.Sprintf("json: .time[].files array %d", n); got != want {
		t.Errorf("shape %q, want %q", got, want)
	}
	count = 0
	if err := EachRecord(data, sh, ".time[].files", func(i int, raw []byte) error {
		if want := fmt.Sprintf(`{"f":%d}`, i); string(raw) != want {
			t.Fatalf("record %d: %s, want %s", i, raw, want)
		}
		count++
		return nil
	}); err != nil || count != n {
		t.Fatalf("EachRecord: %d records, %v", count, err)
	}
	if _, err := DetectShape(data, []string{`.time."1.3.0".files`}); err == nil || !strings.Contains(err.Error(), "member names") {
		t.Errorf("a records path through a folded member: %v", err)
	}
}

// TestDetectedFromTree: the shape with no records paths that level 2
// shows and indexes beside the registry's collections, made from the
// pipeline's path tree without a second walk (Shape.detected), is the
// one DetectShape finds: the same collections, counts and fields, the
// same records and collection texts; and level 1 run after it on the
// pipeline's shape writes the same output.
func TestDetectedFromTree(t *testing.T) {
	type input struct {
		name    string
		data    []byte
		records []string
	}
	ins := []input{{"jsonl", []byte("{\"a\":1}\n{\"a\":2}\n"), []string{"."}}, {"concat", []byte(`{"a":[{"b":1}]}{"a":[]}`), []string{"."}}}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "captured", "*.json*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, input{filepath.Base(f), data, []string{"."}})
	}
	for _, vi := range viewBenchInputs {
		ins = append(ins, input{vi.name + " 1MB", grownCaptured(t, vi.file, vi.grow, 1<<20), vi.rules.Records})
	}
	for _, in := range ins {
		sh, err := DetectShape(in.data, in.records)
		if err != nil {
			if sh, err = DetectShape(in.data, nil); err != nil {
				t.Fatalf("%s: %v", in.name, err)
			}
		}
		want, err := DetectShape(in.data, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := sh.detected()
		if !ok {
			if sh.Format == FormatJSON || sh.Format == FormatJSONL || sh.Format == FormatConcat {
				t.Errorf("%s: no shape from the tree of a %s input", in.name, sh.Format)
			}
			continue
		}
		if got.Format != want.Format || got.ContentType != want.ContentType || !reflect.DeepEqual(got.Collections, want.Collections) {
			t.Errorf("%s: from the tree %s %v, DetectShape %s %v", in.name, got.Format, got.Collections, want.Format, want.Collections)
			continue
		}
		for _, c := range want.Collections {
			if a, b := collectionText(in.data, got, c.Path), collectionText(in.data, want, c.Path); string(a) != string(b) {
				t.Errorf("%s: text of %s differs", in.name, c.Path)
			}
			var a, b []string
			_ = EachRecord(in.data, got, c.Path, func(_ int, raw []byte) error { a = append(a, string(raw)); return nil })
			_ = EachRecord(in.data, want, c.Path, func(_ int, raw []byte) error { b = append(b, string(raw)); return nil })
			if !reflect.DeepEqual(a, b) || len(a) != c.Count {
				t.Errorf("%s: records of %s differ (%d, %d, count %d)", in.name, c.Path, len(a), len(b), c.Count)
			}
		}
		// Level 1 on the pipeline's shape after it: the tree's marks are
		// still the pipeline's.
		fresh, _ := DetectShape(in.data, collectionPaths(sh))
		rules := Rules{Defaults: true, Records: collectionPaths(sh)}
		o1, err1 := Declarative().Compact(context.Background(), Request{Tool: "t", Input: in.data, Budget: 1 << 30, Rules: rules, Shape: &sh})
		o2, err2 := Declarative().Compact(context.Background(), Request{Tool: "t", Input: in.data, Budget: 1 << 30, Rules: rules, Shape: &fresh})
		if err1 != nil || err2 != nil || string(o1.Content) != string(o2.Content) {
			t.Errorf("%s: level 1 after the shape from the tree: %v %v, outputs equal %v", in.name, err1, err2, string(o1.Content) == string(o2.Content))
		}
	}
}

// TestFoldedTupleLists: a map of lists read by position (name ->
// [severity, options]) stays a keyed collection when its members are
// folded, and a list among them that leads with an object (seen after
// the fold) still makes it not one, as without folding.
func TestFoldedTupleLists(t *testing.T) {
	doc := func(odd int) []byte {
		var b strings.Builder
		b.WriteString(`{"rules":{`)
		for i := 0; i < maxNamedMembers+40; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if i == odd {
				fmt.Fprintf(&b, `"r%d":[{"x":1},"error"]`, i)
			} else {
				fmt.Fprintf(&b, `"r%d":["error",{"x":%d}]`, i, i)
			}
		}
		b.WriteString(`}}`)
		return []byte(b.String())
	}
	for _, odd := range []int{-1, 3, maxNamedMembers + 20} {
		data := doc(odd)
		var want Shape
		withNamedMembers(1<<30, func() {
			var err error
			if want, err = DetectShape(data, nil); err != nil {
				t.Fatal(err)
			}
		})
		got, err := DetectShape(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if collSummary(got) != collSummary(want) {
			t.Errorf("odd list at %d: %q folded, %q not", odd, collSummary(got), collSummary(want))
		}
		if odd == -1 && !strings.Contains(collSummary(got), ".rules map") {
			t.Errorf("no keyed collection: %q", collSummary(got))
		}
	}
}
