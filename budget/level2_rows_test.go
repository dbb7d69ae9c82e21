package budget_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/schemas"
)

// githubRules mirror the registry's github.* entry (registry/default.yaml;
// package budget may not import the registry) without its plugin.
func githubRules() budget.Rules {
	return budget.Rules{Tool: "github.issues", Records: []string{"."},
		Drop: []string{"*_url", "url", "node_id", "user.*_url", "user.node_id", "user.gravatar_id", "user.user_view_type",
			"assignee.*_url", "assignee.node_id", "assignee.gravatar_id", "assignees[].*_url", "assignees[].node_id",
			"assignees[].gravatar_id", "closed_by.*_url", "closed_by.node_id", "closed_by.gravatar_id", "labels[].node_id",
			"labels[].url", "labels[].color", "labels[].default", "milestone.*_url", "milestone.creator", "reactions.url",
			"performed_via_github_app"},
		StringsMax: 400, Pin: `select(.state == "open")`, Format: "auto", Defaults: true}
}

var markerRE = regexp.MustCompile(`…\[\+([0-9]+) chars\]$`)

// TestLevel2GitHubIssuesCompactRows: at 4,000 tokens the summary of 100
// GitHub issues shows at least 15 rows in level 1's table form (not one
// raw row), every row is the record at the position stated, and every
// shortened body says exactly how much was cut.
func TestLevel2GitHubIssuesCompactRows(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/github-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	var orig []map[string]any
	if err := json.Unmarshal(data, &orig); err != nil {
		t.Fatal(err)
	}
	p, _, _ := storePipeline(t)
	res, err := p.Run(context.Background(), budget.Input{Tool: "github.issues", Data: data, Budget: 4000, Rules: githubRules()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Level != schemas.LevelArtifact || res.Tokens.After > 4000 {
		t.Fatalf("level %s tokens %+v", res.Level, res.Tokens)
	}
	c := res.Collections[0]
	if c.Shown < 15 {
		t.Fatalf("shows %d rows, want at least 15:\n%s", c.Shown, res.Content)
	}
	if !strings.Contains(res.Content, "showing "+strconv.Itoa(c.Shown)+" of 100") {
		t.Errorf("the content does not state showing %d of 100", c.Shown)
	}
	if strings.Contains(res.Content, "avatar_url") || strings.Contains(res.Content, "https://api.github.com") {
		t.Errorf("the view shows links the rules drop")
	}
	// Read the rows back: a header of columns, then one line per row:
	// the record's position, its cells, why it is there.
	lines := strings.Split(res.Content, "\n")
	var header []string
	rows := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "#\t") {
			header = strings.Split(l, "\t")
			continue
		}
		if header == nil || l == "" || l[0] < '0' || l[0] > '9' {
			continue
		}
		cells := strings.Split(l, "\t")
		if len(cells) != len(header) {
			t.Fatalf("row %q has %d cells, the header %d", l, len(cells), len(header))
		}
		pos, err := strconv.Atoi(cells[0])
		if err != nil || pos >= len(orig) {
			t.Fatalf("row %q: position %v", l, err)
		}
		rows++
		for k, h := range header[1 : len(header)-1] {
			want := orig[pos][h]
			if want == nil || strings.Contains(h, ".") {
				continue
			}
			got := cells[k+1]
			w := fmt.Sprint(want)
			if f, ok := want.(float64); ok {
				w = strconv.FormatFloat(f, 'f', -1, 64)
			}
			if m := markerRE.FindStringSubmatchIndex(got); m != nil {
				cut, _ := strconv.Atoi(got[m[2]:m[3]])
				kept := got[:m[0]]
				if !strings.HasPrefix(w, kept) || utf8.RuneCountInString(kept)+cut != utf8.RuneCountInString(w) {
					t.Errorf("row %d %s: marker says %d cut after %q; the original is %q", pos, h, cut, kept, w)
				}
				continue
			}
			if got != w && got != strconv.Quote(w) {
				t.Errorf("row %d %s: %q, the record has %q", pos, h, got, w)
			}
		}
		if cells[len(cells)-1] == "" {
			t.Errorf("row %d has no reason", pos)
		}
	}
	if rows != c.Shown {
		t.Fatalf("%d rows, shown %d", rows, c.Shown)
	}
}

// TestLevel2CountsEveryCollection: npm view's registry entry names
// .versions and .time; the summary counts every other collection of the
// output too (.exports, .optionalDependencies), in the text and in the
// envelope.
func TestLevel2CountsEveryCollection(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/npm-view-typescript.json")
	if err != nil {
		t.Fatal(err)
	}
	rules := budget.Rules{Tool: "npm.view", Records: []string{".versions", ".time"}, Drop: []string{"_*", "dist.signatures", "dist.npm-signature"}, StringsMax: 500, Format: "auto", Defaults: true}
	all, err := budget.DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Collections) < 4 {
		t.Fatalf("fixture: %d collections", len(all.Collections))
	}
	for _, b := range []int{2000, 4000} {
		p, _, _ := storePipeline(t)
		res, err := p.Run(context.Background(), budget.Input{Tool: "npm.view", Data: data, Budget: b, Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		if res.Level != schemas.LevelArtifact || res.Tokens.After > b {
			t.Fatalf("budget %d: level %s tokens %+v", b, res.Level, res.Tokens)
		}
		for _, c := range all.Collections {
			want := "collection " + c.Path + " ("
			i := strings.Index(res.Content, want)
			if i < 0 || !strings.Contains(res.Content[i:], "): "+commas(c.Count)+" records") {
				t.Errorf("budget %d: %s (%d) is not counted:\n%.1500s", b, c.Path, c.Count, res.Content)
			}
			found := false
			for _, e := range res.Collections {
				if e.Path == c.Path && e.Count == c.Count && e.Shown <= e.Count {
					found = true
				}
			}
			if !found {
				t.Errorf("budget %d: envelope lacks %s (%d): %+v", b, c.Path, c.Count, res.Collections)
			}
		}
	}
}

func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestLevel2FieldsQuery: the view says how many fields the records
// have, and its query lists exactly that many when run on the artifact.
func TestLevel2FieldsQuery(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/github-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	p, _, st := storePipeline(t)
	counter := newCounter(t)
	querier, err := query.New(st, counter, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`of ([0-9,]+) fields; list every field: compact artifact query (\S+) --jq '([^']*)'$`)
	found := false
	for _, b := range []int{1000, 3000} {
		res, err := p.Run(context.Background(), budget.Input{Tool: "github.issues", Data: data, Budget: b, Rules: githubRules()})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(res.Content, "\n") {
			m := re.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			found = true
			ans, err := querier.JQ(context.Background(), m[2], m[3], 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			if err := json.Unmarshal([]byte(ans.Content), &keys); err != nil {
				t.Fatal(err)
			}
			n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
			if len(keys) < n {
				t.Errorf("budget %d: the view says %d fields, the query lists %d", b, n, len(keys))
			}
		}
	}
	if !found {
		t.Error("no fields query in the views")
	}
}
