package view_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// eslintStandard is a linter's resolved configuration (`npx eslint
// --print-config`, eslint 8.57 with standard, n and promise): its .rules
// map each rule's name to [severity, options...].
const eslintStandard = "../../testdata/captured/eslint-print-config-standard.json"

// TestTupleMapReadByPosition: a map of name -> list that leads with a
// scalar is a keyed collection whose lists are read by position: how many
// lists have each length, the first item's values with their counts and
// the keys of its rare values, and in how many lists the second item is
// (the rules with options), each number computed again with jq. On the
// old code .rules was "outside the collections": its members listed one
// by one, 185 rules with no count of how many are off.
func TestTupleMapReadByPosition(t *testing.T) {
	v, data := viewOf(t, eslintStandard)
	fl := fillAt(t, v, 2000)
	text := fl.Text
	one := func(filter string) any { return jq(t, data, filter)[0] }
	rules := toInt(one(`.rules | length`))
	want := []string{fmt.Sprintf("collection .rules (map): %s rules", commas(rules))}

	// Lists by their number of items.
	var lens []string
	for _, x := range one(`[.rules[] | length] | group_by(.) | map([.[0], length])`).([]any) {
		p := x.([]any)
		unit := "items"
		if toInt(p[0]) == 1 {
			unit = "item"
		}
		lens = append(lens, fmt.Sprintf("%d %s %d", toInt(p[0]), unit, toInt(p[1])))
	}
	want = append(want, "lists by their number of items: "+strings.Join(lens, ", "))

	// The first item: its values, most first, and the keys of the rare
	// ones in the order of the map.
	type vc struct {
		v string
		n int
	}
	var firsts []vc
	for _, x := range one(`[.rules[] | .[0]] | group_by(.) | map([.[0], length])`).([]any) {
		p := x.([]any)
		firsts = append(firsts, vc{p[0].(string), toInt(p[1])})
	}
	sort.SliceStable(firsts, func(i, j int) bool { return firsts[i].n > firsts[j].n })
	var parts []string
	for _, f := range firsts {
		parts = append(parts, fmt.Sprintf("%s %d", f.v, f.n))
	}
	want = append(want, fmt.Sprintf("[0] the first item (string, in %d of %d lists): %s", rules, rules, strings.Join(parts, ", ")))
	rare := 0
	for _, f := range firsts[1:] {
		if f.n > 12 {
			continue
		}
		var keys []string
		for _, k := range jq(t, data, fmt.Sprintf(`.rules | to_entries[] | select(.value[0] == %q) | .key`, f.v)) {
			keys = append(keys, k.(string))
		}
		// (listed in the map's order; jq's in key order)
		head := fmt.Sprintf("; %s (%d): ", f.v, f.n)
		i := strings.Index(text, head)
		if i < 0 {
			t.Errorf("view lacks %q", head)
			continue
		}
		list := text[i+len(head):]
		list = list[:strings.IndexAny(list, ";\n")]
		got := strings.Split(list, ", ")
		sort.Strings(got)
		if strings.Join(got, ", ") != strings.Join(keys, ", ") {
			t.Errorf("keys with %s: %q, jq %q", f.v, got, keys)
		}
		rare++
	}
	if rare < 2 {
		t.Fatalf("only %d rare severities: the test checks little", rare)
	}
	// The second item: in how many lists (the rules with options).
	want = append(want, fmt.Sprintf("[1] the second item (in %d of %d lists)", toInt(one(`[.rules[] | select(length > 1)] | length`)), rules))
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("view lacks %q", w)
		}
	}
	// The merged items are not profiled as one field beside them.
	if strings.Contains(text, "\n  [] (") {
		t.Errorf("the lists' merged items have a line of their own:\n%s", text)
	}
	if t.Failed() {
		t.Logf("view:\n%s", text)
	}
}

// madgeRamda maps each of ramda's modules to the modules it requires
// (`npx madge --json`): 355 distinct modules are required, far more than
// the profile counts one by one.
const madgeRamda = "../../testdata/captured/madge-ramda.json"

// TestTopValuesPastTheCap: a field with more distinct values than the
// profile counts one by one (64) still states its most common values,
// each with its exact count (jq's group_by), so "which module is required
// most" is answered from the view. On the old code the line said only
// "355 distinct".
func TestTopValuesPastTheCap(t *testing.T) {
	v, data := viewOf(t, madgeRamda)
	fl := fillAt(t, v, 2000)
	if n := toInt(jq(t, data, `[.[][]] | unique | length`)[0]); n <= 64 {
		t.Fatalf("only %d distinct values: the cap is not passed", n)
	}
	top := jq(t, data, `[.[][]] | group_by(.) | map([.[0], length]) | sort_by(-.[1]) | .[:4] | map("\(.[0]) \(.[1])") | join(", ")`)[0].(string)
	if want := "most common: " + top; !strings.Contains(fl.Text, want) {
		t.Errorf("view lacks %q:\n%s", want, fl.Text)
	}
}

// TestTupleMapLongLists: lists longer than the positions that have a
// line of their own share one line ("[3] and later items"), counted
// exactly (a rule whose options are 61 restricted globals). The first
// version indexed past its table of ordinals there and panicked.
func TestTupleMapLongLists(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"rules": {`)
	for i := 0; i < 300; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		switch {
		case i%10 == 0:
			fmt.Fprintf(&b, `"r%d": ["error", "a", {"x": %d}, "b", "c", {"y": 1}]`, i, i)
		case i%3 == 0:
			fmt.Fprintf(&b, `"r%d": ["off"]`, i)
		default:
			fmt.Fprintf(&b, `"r%d": ["error", {"max": %d}]`, i, i)
		}
	}
	b.WriteString(`}}`)
	v, data := viewOfData(t, []byte(b.String()))
	fl := fillAt(t, v, 1500)
	later := toInt(jq(t, data, `[.rules[] | select(length > 3)] | length`)[0])
	items := toInt(jq(t, data, `[.rules[] | .[3:][]] | length`)[0])
	byType := jq(t, data, `[.rules[] | .[3:][] | type] | group_by(.) | map([.[0], length]) | sort_by(-.[1]) | map("\(.[0]) \(.[1])") | join(", ")`)[0].(string)
	want := fmt.Sprintf("[3] and later items (in %d of 300 lists, %d items): by type: %s", later, items, byType)
	if !strings.Contains(fl.Text, want) {
		t.Errorf("view lacks %q:\n%s", want, fl.Text)
	}
}

// TestKeyPartsAreFacts: the counts of a keyed collection's keys by their
// parts ("keys before the first /: promise 14, ...") are facts, stated
// also in the notice of a whole output (View.Facts), unlike the keys
// themselves. On the old code they were on the keys' line, a listing, so
// a budget large enough for the whole output stated fewer facts than a
// smaller one (hf7-clean: "how many import/ rules" answered at 4,000
// tokens, not at 8,000).
func TestKeyPartsAreFacts(t *testing.T) {
	v, data := viewOf(t, eslintStandard)
	want := map[string]int{}
	for _, k := range jq(t, data, `.rules | keys[] | select(contains("/")) | split("/")[0]`) {
		want[k.(string)]++
	}
	if len(want) < 2 {
		t.Fatalf("%d key prefixes: the test checks little", len(want))
	}
	facts := strings.Join(v.Facts(), "\n")
	for pre, n := range want {
		if !strings.Contains(facts, fmt.Sprintf(" %s %d", pre, n)) || !strings.Contains(facts, "keys before the first /: ") {
			t.Errorf("the facts do not count the keys before the first / (%s %d):\n%s", pre, n, facts)
		}
	}
}
