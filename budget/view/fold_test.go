package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestFoldSiblingCollections: a map of names to arrays of records (npm
// outdated --all --json) has a collection per array; their heads alone
// were over a small budget (no view at all). Siblings are listed in one
// section with their exact counts, and the view fits.
func TestFoldSiblingCollections(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 120 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"package-with-a-long-name-%d": [`, i)
		for j := range 1 + i%4 {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"current": "1.%d.0", "latest": "2.0.0", "dependent": "dep-%d"}`, j, j)
		}
		b.WriteString("]")
	}
	b.WriteString("}")
	data := []byte(b.String())
	in := inputOf(t, data, 1000)
	if len(in.Collections) != 120 {
		t.Fatalf("%d collections", len(in.Collections))
	}
	v := buildView(t, in)
	fl := fillAt(t, v, 1000)
	if !strings.Contains(fl.Text, "120 collections of the same kind in . (array, 300 records in all)") ||
		!strings.Contains(fl.Text, "package-with-a-long-name-0\" 1 record\n") || !strings.Contains(fl.Text, "not listed: ") {
		t.Errorf("view:\n%s", fl.Text)
	}
	fl = fillAt(t, v, 8000)
	if strings.Contains(fl.Text, "not listed") || !strings.Contains(fl.Text, "package-with-a-long-name-119\" 4 records\n") {
		t.Errorf("at 8,000 tokens every collection is listed:\n%s", fl.Text)
	}
}

// TestDeclaredIdentity: the registry's identity wins over the detected
// one (name); a declared path the records lack is skipped.
func TestDeclaredIdentity(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 50 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name": "widget %d", "sku": "SKU-%04d", "price": %d}`, i, 7*i, 100+i)
	}
	b.WriteString("]")
	data := []byte(b.String())
	for _, tc := range []struct {
		identity []string
		want     string
	}{
		{nil, "identity: name"},
		{[]string{"serial", "sku"}, "identity: sku"},
	} {
		in := inputOf(t, data, 2000)
		in.Identity = tc.identity
		v := buildView(t, in)
		fl := fillAt(t, v, 2000)
		col := strings.TrimPrefix(tc.want, "identity: ")
		if !strings.Contains(fl.Text, tc.want+"\n") || !strings.Contains(fl.Text, "\n#\t"+col+"\t") {
			t.Errorf("identity %v:\n%s", tc.identity, fl.Text)
		}
	}
}

// TestFoldAroundNestedMember: siblings are folded though one of them
// holds a collection of its own (radon cc -j: a map of 87 files to their
// functions, one function with closures): that one keeps its section,
// the others are folded, and the view fits. Before, one nested array
// kept every sibling unfolded, and the heads alone were over the budget.
func TestFoldAroundNestedMember(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 90 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"pkg/module_with_a_long_name_%d.py": [`, i)
		for j := range 1 + i%5 {
			if j > 0 {
				b.WriteString(",")
			}
			closures := "[]"
			if i == 40 && j == 0 {
				closures = `[{"name": "inner", "complexity": 2}, {"name": "inner2", "complexity": 1}]`
			}
			fmt.Fprintf(&b, `{"name": "func_%d", "complexity": %d, "rank": "A", "closures": %s}`, j, 1+j, closures)
		}
		b.WriteString("]")
	}
	b.WriteString("}")
	data := []byte(b.String())
	in := inputOf(t, data, 2000)
	v := buildView(t, in)
	fl := fillAt(t, v, 2000)
	if !strings.Contains(fl.Text, "89 collections of the same kind in . (array,") {
		t.Errorf("the 89 siblings without a nested collection are not folded:\n%s", fl.Text)
	}
}
