package view

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// TestListObjectsDecidedPerObject checks that a field whose first objects
// are lists in disguise (keyed "0", "1", ...) keeps the member names of a
// later object that is not one: each object is read by its own keys.
// Before, the field's indexed flag, set by its first object, made every
// later object a list, and {"alpha": 1, "beta": 2} became two items of
// m[] with its names lost.
func TestListObjectsDecidedPerObject(t *testing.T) {
	recs := []string{
		`{"id":"a","m":{"0":"x","1":"y","2":"z"}}`,
		`{"id":"b","m":{"0":"w"}}`,
		`{"id":"c","m":{"alpha":1,"beta":2}}`,
		`{"id":"d","m":{}}`,
	}
	p := NewProfile(false)
	for i, r := range recs {
		p.Add(i, []byte(r))
	}
	p.Finish()
	items := p.Field("m[]")
	if items == nil {
		t.Fatalf("no field m[]; fields: %v", fieldPaths(p))
	}
	if items.Values != 4 {
		t.Errorf("m[] has %d values, want the 4 items of the two lists", items.Values)
	}
	for _, path := range []string{"m.alpha", "m.beta"} {
		f := p.Field(path)
		if f == nil || f.Present != 1 {
			t.Errorf("no field %s in one record; fields: %v", path, fieldPaths(p))
		}
	}
	// The walk of a record reads it as the profile did.
	var got []string
	p.leaves([]byte(recs[2]), func(f *Field, raw []byte) { got = append(got, f.Path+"="+string(raw)) })
	if strings.Join(got, " ") != `id="c" m.alpha=1 m.beta=2` {
		t.Errorf("leaves of record c: %v", got)
	}
}

// TestPairMemberNamedTwice checks that a pair's member a list names twice
// (two {"Key": "team"} tags in one record) is listed by every value: in
// the index line and in the jq expression of the field (the query of the
// records not listed). Before, the index line and the expression showed
// the first value only ([0]).
func TestPairMemberNamedTwice(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 40; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"r%02d","Tags":[{"Key":"team","Value":"alpha%02d"},{"Key":"env","Value":"prod"},{"Key":"team","Value":"beta%02d"}]}`, i, i, i)
	}
	b.WriteString("]")
	data := []byte(b.String())
	p := NewProfile(false)
	var recs []any
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		raw, _ := json.Marshal(r)
		p.Add(i, raw)
	}
	p.Finish()
	f := p.Field("Tags.team")
	if f == nil {
		t.Fatalf("no field Tags.team; fields: %v", fieldPaths(p))
	}
	q, err := gojq.Parse(fieldExprOf("", f))
	if err != nil {
		t.Fatalf("%s: %v", fieldExprOf("", f), err)
	}
	v, _ := q.Run(recs[7]).Next()
	if got := fmt.Sprint(v); got != "[alpha07 beta07]" {
		t.Errorf("%s on record 7 = %s, want both values", fieldExprOf("", f), got)
	}
	in := Input{Tool: "t", Format: "json", Data: data, Handle: "artifact:0123456789ab", Budget: 8000, Index: []string{"Tags.team"},
		Collections: []Collection{{Path: ".", Kind: "array", Count: 40, Each: func(fn func(int, []byte) error) error {
			for i, r := range recs {
				raw, _ := json.Marshal(r)
				if err := fn(i, raw); err != nil {
					return err
				}
			}
			return nil
		}}}}
	view, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for i := range view.cands {
		c := &view.cands[i]
		if text := c.text(); c.Reason == "index" && strings.HasPrefix(text, "r07\t") {
			found = true
			if !strings.Contains(text, "alpha07") || !strings.Contains(text, "beta07") {
				t.Errorf("index line of r07 lacks a value: %q", text)
			}
		}
	}
	if !found {
		for i := range view.cands {
			t.Logf("%s %q", view.cands[i].Reason, view.cands[i].text())
		}
		t.Errorf("no index line of r07")
	}
}
