package view_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
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
	sh, err := budget.DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sh.Collections) != 120 {
		t.Fatalf("%d collections", len(sh.Collections))
	}
	in := view.Input{Tool: "t", ContentType: sh.ContentType, Format: sh.Format, Data: data, Handle: "0123456789ab", Budget: 1000}
	for _, col := range sh.Collections {
		in.Collections = append(in.Collections, view.Collection{Path: col.Path, Kind: col.Kind, Count: col.Count,
			Each: func(fn func(int, []byte) error) error { return budget.EachRecord(data, sh, col.Path, fn) }})
	}
	v, err := view.Build(in)
	if err != nil {
		t.Fatal(err)
	}
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	fl, err := v.Fill(c, 1000)
	if err != nil {
		t.Fatalf("at 1,000 tokens: %v (bare view %d tokens)", err, fl.Minimum)
	}
	if !strings.Contains(fl.Text, "120 collections of the same kind in . (array, 300 records in all)") ||
		!strings.Contains(fl.Text, "package-with-a-long-name-0\" 1 record\n") || !strings.Contains(fl.Text, "not listed: ") {
		t.Errorf("view:\n%s", fl.Text)
	}
	fl, err = v.Fill(c, 8000)
	if err != nil || strings.Contains(fl.Text, "not listed") || !strings.Contains(fl.Text, "package-with-a-long-name-119\" 4 records\n") {
		t.Errorf("at 8,000 tokens every collection is listed: %v\n%s", err, fl.Text)
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
	sh, err := budget.DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		identity []string
		want     string
	}{
		{nil, "identity: name"},
		{[]string{"serial", "sku"}, "identity: sku"},
	} {
		in := view.Input{Tool: "t", ContentType: sh.ContentType, Format: sh.Format, Data: data, Handle: "0123456789ab", Budget: 2000, Identity: tc.identity}
		for _, col := range sh.Collections {
			in.Collections = append(in.Collections, view.Collection{Path: col.Path, Kind: col.Kind, Count: col.Count,
				Each: func(fn func(int, []byte) error) error { return budget.EachRecord(data, sh, col.Path, fn) }})
		}
		v, err := view.Build(in)
		if err != nil {
			t.Fatal(err)
		}
		fl, err := v.Fill(c, 2000)
		if err != nil {
			t.Fatal(err)
		}
		col := strings.TrimPrefix(tc.want, "identity: ")
		if !strings.Contains(fl.Text, tc.want+"\n") || !strings.Contains(fl.Text, "\n#\t"+col+"\t") {
			t.Errorf("identity %v:\n%s", tc.identity, fl.Text)
		}
	}
}
