package budget_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
)

// surrogateList is 300 records, one of which holds a lone surrogate
// escape, as Python's json.dumps writes one.
func surrogateList() []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		name := fmt.Sprintf("record %d with a name long enough to shorten", i)
		if i == 5 {
			name = `bad \ud800 name with a lone surrogate escape in it`
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"%s"}`, i, name)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// TestLoneSurrogateIsJSON: a JSON array holding a lone surrogate escape
// ("\ud800") is JSON with 300 records, not one line of text (on the old
// code DetectShape called it text: "1 records (lines)"); a shortened
// value shows U+FFFD, and the result states the change.
func TestLoneSurrogateIsJSON(t *testing.T) {
	in := surrogateList()
	s, err := budget.DetectShape(in, nil)
	if err != nil || s.Format != budget.FormatJSON || len(s.Collections) != 1 || s.Collections[0].Count != 300 || s.LoneSurrogates != 1 {
		t.Fatalf("shape = %s %+v (lone %d), %v; want JSON with 300 records", s.Format, s.Collections, s.LoneSurrogates, err)
	}
	ctr := newCounter(t)
	p := budget.NewPipeline(ctr)
	res, err := p.Run(context.Background(), budget.Input{Tool: "t", Data: in, Budget: 5000, Rules: budget.Rules{StringsMax: 10}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range res.Actions {
		found = found || a.Kind == budget.ActLoneSurrogate && a.Count == 1
	}
	if !found || res.Collections[0].Count != 300 || res.Level != "fields" {
		t.Fatalf("level %s, actions %+v, collections %+v: want level fields, a %s action and 300 records", res.Level, res.Actions, res.Collections, budget.ActLoneSurrogate)
	}
	if !strings.Contains(res.Content, "bad \ufffd name…[+") && !strings.Contains(res.Content, "bad \ufffd nam") && !strings.Contains(res.Content, "bad �") {
		t.Errorf("the shortened value does not show U+FFFD: %.300s", res.Content)
	}
}
