package view

import (
	"encoding/json"
	"testing"

	"github.com/itchyny/gojq"
)

// The jq expression of a pair's member (fieldExprOf) yields the value of
// the pair with that name: the queries the index and the lookups write
// with it run as written, on records with the pair, without it, and on a
// map's entry.
func TestFieldExprOfPairMember(t *testing.T) {
	recs := []string{
		`{"id":"a","Tags":[{"Key":"Name","Value":"web-1"},{"Key":"env","Value":"prod"}]}`,
		`{"id":"b","Tags":[{"Key":"env","Value":"dev"}]}`,
		`{"id":"c","Tags":[]}`,
	}
	p := NewProfile(false)
	for i, r := range recs {
		p.Add(i, []byte(r))
	}
	p.Finish()
	f := p.Field("Tags.Name")
	if f == nil {
		t.Fatalf("no field Tags.Name; fields: %v", fieldPaths(p))
	}
	for prefix, want := range map[string][]any{"": {"web-1", nil, nil}, ".value": {"web-1", nil, nil}} {
		q, err := gojq.Parse(fieldExprOf(prefix, f))
		if err != nil {
			t.Fatalf("%s: %v", fieldExprOf(prefix, f), err)
		}
		for i, r := range recs {
			var doc any
			_ = json.Unmarshal([]byte(r), &doc)
			if prefix != "" {
				doc = map[string]any{"key": "k", "value": doc}
			}
			v, _ := q.Run(doc).Next()
			if err, ok := v.(error); ok {
				t.Fatalf("%s on %s: %v", fieldExprOf(prefix, f), r, err)
			}
			if v != want[i] {
				t.Errorf("%s on %s = %v, want %v", fieldExprOf(prefix, f), r, v, want[i])
			}
		}
	}
}

func fieldPaths(p *Profile) []string {
	var out []string
	for _, f := range p.Fields {
		out = append(out, f.Path)
	}
	return out
}
