package budget_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
)

// TestViewsPrintReferences: wherever a view, a level-1 notice or a
// query answer names its artifact, it is in the form budget.RefOf prints
// (artifact:HANDLE), which ordinary data does not contain, never the
// bare handle (a bare hex string is a git SHA or a container id as
// often as a handle); and the printed form reads back (ParseRef) as the
// handle. On the old code views printed "artifact 3d38d105ebf2" and
// "compact artifact query 3d38d105ebf2 ...".
func TestViewsPrintReferences(t *testing.T) {
	p, _, st := storePipeline(t)
	files, err := filepath.Glob("../testdata/captured/*.*")
	if err != nil {
		t.Fatal(err)
	}
	bare := func(content, h string) int {
		n := 0
		for i := 0; ; {
			j := strings.Index(content[i:], h)
			if j < 0 {
				return n
			}
			end := i + j + len(h)
			longer := end < len(content) && strings.ContainsRune("0123456789abcdef", rune(content[end])) // a sha256, say
			if !strings.HasSuffix(content[:i+j], budget.RefPrefix) && !longer {
				n++
			}
			i += j + len(h)
		}
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".md") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		for _, b := range []int{1500, 4000} {
			res, err := p.Run(context.Background(), budget.Input{Tool: name, Data: data, Budget: b, Rules: budget.Rules{Tool: name, Defaults: true}})
			if err != nil || res.Artifact == nil {
				continue
			}
			h := res.Artifact.Handle
			if !strings.Contains(res.Content, budget.RefOf(h)) {
				t.Errorf("%s at %d: the content does not name %s:\n%.400s", name, b, budget.RefOf(h), res.Content)
			}
			if n := bare(res.Content, h); n > 0 {
				t.Errorf("%s at %d: the bare handle %s appears %d times:\n%s", name, b, h, n, res.Content)
			}
			for _, a := range res.Actions {
				if a.Detail != "" && bare(a.Detail, h) > 0 {
					t.Errorf("%s at %d: action %s names the bare handle: %s", name, b, a.Kind, a.Detail)
				}
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d outputs went to the store", checked)
	}

	// A query answer over its budget names its new artifact the same way.
	c := newCounter(t)
	q, err := query.New(st, c, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../testdata/captured/github-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := st.Put(context.Background(), strings.NewReader(string(data)), budget.Meta{Tool: "github"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := q.JQ(context.Background(), budget.RefOf(h), ".[]", 300)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Stored == nil || bare(ans.Content, ans.Stored.Handle) > 0 || !strings.Contains(ans.Content, budget.RefOf(ans.Stored.Handle)) {
		t.Errorf("answer over its budget:\n%s", ans.Content)
	}
	for _, s := range []string{budget.RefOf(h), budget.RefOf(h) + ".items[0]", string(h)} {
		r, err := artifact.ParseRef(s)
		if err != nil || r.Handle != h {
			t.Errorf("ParseRef(%q) = %v, %v", s, r, err)
		}
	}
}
