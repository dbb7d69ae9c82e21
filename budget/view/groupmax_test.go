package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// filesJSON returns an array of n files (name, ext, size, owner): ext
// one of 4 values, sizes all different but for two records (10 and 20)
// sharing the largest.
func filesJSON(n int) ([]byte, []map[string]any) {
	exts := []string{"go", "md", "txt", "json"}
	var recs []map[string]any
	var b strings.Builder
	b.WriteString("[\n")
	for i := 0; i < n; i++ {
		size := (i*7919)%100000 + i
		if i == 10 || i == 20 {
			size = 999999
		}
		r := map[string]any{"name": fmt.Sprintf("file-%03d", i), "ext": exts[(i*i+i/3)%len(exts)], "size": size, "owner": fmt.Sprintf("user%02d", i%37)}
		recs = append(recs, r)
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name":%q,"ext":%q,"size":%d,"owner":%q}`, r["name"], r["ext"], size, r["owner"])
	}
	b.WriteString("\n]\n")
	return []byte(b.String()), recs
}

// The profile line of a number names the record holding its largest:
// the one record ("(file-123)"), or the first of a few ("(the first of
// 2: file-010)"); and per value of a field of few values (ext, whose
// name says nothing of a kind), each value's records, sum and largest
// with the first record holding it, computed here apart from the view.
func TestExtremesNamedByTheirRecords(t *testing.T) {
	data, recs := filesJSON(300)
	v, _ := viewOfData(t, data)
	got := fillAt(t, v, 8000).Text
	// The whole field's extremes.
	minI := 0
	for i, r := range recs {
		if r["size"].(int) < recs[minI]["size"].(int) {
			minI = i
		}
	}
	want := fmt.Sprintf("size (number): min %d, max 999999 (the first of 2: file-010)", recs[minI]["size"])
	if !strings.Contains(got, want) {
		t.Errorf("the view lacks %q:\n%s", want, got)
	}
	// Per ext, in the order of their counts (most first).
	type agg struct {
		n, sum, max, min int
		maxName, minName string
	}
	per := map[string]*agg{}
	var order []string
	for _, r := range recs {
		e, s, name := r["ext"].(string), r["size"].(int), r["name"].(string)
		a := per[e]
		if a == nil {
			a = &agg{max: s, min: s, maxName: name, minName: name}
			per[e] = a
			order = append(order, e)
		}
		a.n++
		a.sum += s
		if s > a.max {
			a.max, a.maxName = s, name
		}
		if s < a.min {
			a.min, a.minName = s, name
		}
	}
	for _, e := range order {
		a := per[e]
		want := fmt.Sprintf(" %s %d records sum %d max %d (%s)", e, a.n, a.sum, a.max, a.maxName)
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q", want)
		}
	}
	if !strings.Contains(got, "size by ext: ") || !strings.Contains(got, "(max: with the first record holding it)") {
		t.Errorf("no line of size by ext:\n%s", got)
	}
	// owner has 37 values: no group.
	if strings.Contains(got, "size by owner") {
		t.Errorf("a line per value of owner, a field of 37 values:\n%s", got)
	}
}
