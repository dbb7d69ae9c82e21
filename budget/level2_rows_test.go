package budget_test

import (
	"context"
	"encoding/json"
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
	p, _ := l2Pipeline(t)
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
		t.Errorf("rows are not in level 1's form (links the rules drop are shown)")
	}
	// Read the rows section back: its line gives the positions, then a
	// table header and one line per row.
	lines := strings.Split(res.Content, "\n")
	var posLine string
	var table []string
	for i, l := range lines {
		if strings.HasPrefix(l, "pinned rows of .") || strings.HasPrefix(l, "leading rows of .") {
			if !strings.Contains(l, "as a table") {
				t.Fatalf("rows are not a table: %s", l)
			}
			posLine = l
			for _, r := range lines[i+1:] {
				if strings.HasPrefix(r, "get the rest:") || strings.HasPrefix(r, "leading rows of") {
					break
				}
				table = append(table, r)
			}
			break
		}
	}
	if len(table)-1 != c.Shown {
		t.Fatalf("%d table rows, shown %d", len(table)-1, c.Shown)
	}
	pos := expandPositions(t, posLine[strings.LastIndex(posLine, "positions ")+len("positions "):len(posLine)-1])
	if len(pos) != c.Shown {
		t.Fatalf("positions %v for %d rows", pos, c.Shown)
	}
	js, err := budget.TableToJSON([]byte(strings.Join(table, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(js, &rows); err != nil {
		t.Fatal(err)
	}
	shortened := 0
	for k, r := range rows {
		o := orig[pos[k]]
		if r["number"] != o["number"] || r["state"] != "open" {
			t.Errorf("row %d: number %v state %v, the record at position %d has %v", k, r["number"], r["state"], pos[k], o["number"])
		}
		body, _ := r["body"].(string)
		if m := markerRE.FindStringSubmatchIndex(body); m != nil {
			shortened++
			cut, _ := strconv.Atoi(body[m[2]:m[3]])
			kept := body[:m[0]]
			ob := o["body"].(string)
			if !strings.HasPrefix(ob, kept) || utf8.RuneCountInString(kept)+cut != utf8.RuneCountInString(ob) {
				t.Errorf("row %d: body marker says %d cut after %d characters; the original has %d", k, cut, utf8.RuneCountInString(kept), utf8.RuneCountInString(ob))
			}
		}
	}
	if shortened == 0 {
		t.Error("no body was shortened")
	}
	var short *schemas.Action
	for i, a := range res.Actions {
		if a.Kind == "shorten_strings" && a.Level == schemas.LevelArtifact {
			short = &res.Actions[i]
		}
	}
	if short == nil || short.Count < shortened || short.Handle != res.Artifact.Handle {
		t.Errorf("no level 2 shorten_strings action counting %d values: %+v", shortened, short)
	}
	// The fields line names every field, grouped by type, with the
	// optional ones' presence counts.
	shape, err := budget.DetectShape(data, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	fl := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "  fields (") {
			fl = l
		}
	}
	for _, f := range shape.Collections[0].Fields {
		name := f.Name
		if f.Present < 100 {
			name += " (" + strconv.Itoa(f.Present) + ")"
		}
		if !strings.Contains(fl, name) {
			t.Errorf("fields line lacks %q: %s", name, fl)
		}
	}
	if !strings.Contains(fl, "number: comments, id, number") {
		t.Errorf("fields are not grouped by type: %s", fl)
	}
}

func expandPositions(t *testing.T, s string) []int {
	t.Helper()
	var out []int
	for _, part := range strings.Split(s, ", ") {
		a, b, isRange := strings.Cut(part, "-")
		lo, err := strconv.Atoi(a)
		if err != nil {
			t.Fatalf("positions %q: %v", s, err)
		}
		hi := lo
		if isRange {
			if hi, err = strconv.Atoi(b); err != nil {
				t.Fatalf("positions %q: %v", s, err)
			}
		}
		for i := lo; i <= hi; i++ {
			out = append(out, i)
		}
	}
	return out
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
		p, _ := l2Pipeline(t)
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

// TestLevel2FieldsLineShrinks: when the fields line must shrink, it says
// exactly how many fields it leaves out, and its query lists them all
// when run on the artifact.
func TestLevel2FieldsLineShrinks(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/github-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	p, st := l2Pipeline(t)
	counter, err := budget.NewCounter(budget.EncodingO200k)
	if err != nil {
		t.Fatal(err)
	}
	querier, err := query.New(st, counter, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	moreRE := regexp.MustCompile(`^  fields \(34(?:; \(n\) = in n records only)?\): (.*); and ([0-9]+) more fields: compact artifact query (\S+) --jq '([^']*)'$`)
	countRE := regexp.MustCompile(`^  34 fields; list them: compact artifact query (\S+) --jq '([^']*)'$`)
	seen := map[string]bool{}
	for _, b := range []int{300, 500} {
		res, err := p.Run(context.Background(), budget.Input{Tool: "github.issues", Data: data, Budget: b, Rules: githubRules()})
		if err != nil {
			t.Fatal(err)
		}
		var handle, filter string
		for _, l := range strings.Split(res.Content, "\n") {
			if m := moreRE.FindStringSubmatch(l); m != nil {
				named := 0
				for _, g := range strings.Split(m[1], "; ") {
					_, names, _ := strings.Cut(g, ": ")
					named += len(strings.Split(names, ", "))
				}
				if k, _ := strconv.Atoi(m[2]); named+k != 34 {
					t.Errorf("budget %d: %d fields named and %d more, want 34 in all: %s", b, named, k, l)
				}
				handle, filter = m[3], m[4]
				seen["more"] = true
			} else if m := countRE.FindStringSubmatch(l); m != nil {
				handle, filter = m[1], m[2]
				seen["count"] = true
			}
		}
		if filter == "" {
			t.Fatalf("budget %d: no shrunk fields line:\n%s", b, res.Content)
		}
		ans, err := querier.JQ(context.Background(), handle, filter, 100000)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		if err := json.Unmarshal([]byte(ans.Content), &keys); err != nil || len(keys) != 34 {
			t.Errorf("budget %d: the fields query gives %d fields (%v): %.200s", b, len(keys), err, ans.Content)
		}
	}
	if !seen["more"] || !seen["count"] {
		t.Errorf("expected both shrunk forms across the budgets, saw %v", seen)
	}
}
