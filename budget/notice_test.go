package budget_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// noticeEntries parses the "path ×N" lists of a notice (inside the
// parentheses of "left out" and "strings shortened"), expanding
// "prefix{a,b} ×N" into one entry per path.
func noticeEntries(t *testing.T, notice string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, part := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(notice, budget.NoticePrefix), "]"), "; ") {
		if !strings.HasPrefix(part, "left out") && !strings.Contains(part, "strings shortened") {
			continue
		}
		open := strings.LastIndex(part, " (")
		list := strings.TrimSuffix(part[open+2:], ")")
		depth, start := 0, 0
		var items []string
		for i := 0; i < len(list); i++ {
			switch list[i] {
			case '{':
				depth++
			case '}':
				depth--
			case ',':
				if depth == 0 && strings.HasPrefix(list[i:], ", ") {
					items = append(items, list[start:i])
					start = i + 2
				}
			}
		}
		items = append(items, list[start:])
		for _, it := range items {
			// "{user ×100,assignee ×60}.{login,id}": each parent with its
			// count, each leaf under it.
			if strings.HasPrefix(it, "{") && strings.HasSuffix(it, "}") && strings.Contains(it, "}.{") {
				k := strings.Index(it, "}.{")
				for _, pc := range strings.Split(it[1:k], ",") {
					j := strings.LastIndex(pc, " ×")
					n, err := strconv.Atoi(pc[j+len(" ×"):])
					if j < 0 || err != nil {
						t.Fatalf("notice entry %q: bad parent %q", it, pc)
					}
					for _, leaf := range strings.Split(it[k+3:len(it)-1], ",") {
						got[pc[:j]+"."+leaf] += n
					}
				}
				continue
			}
			j := strings.LastIndex(it, " ×")
			if j < 0 {
				t.Fatalf("notice entry %q has no count: %s", it, notice)
			}
			n, err := strconv.Atoi(it[j+len(" ×"):])
			if err != nil {
				t.Fatalf("notice entry %q: %v", it, err)
			}
			p := it[:j]
			if k := strings.IndexByte(p, '{'); k >= 0 && strings.HasSuffix(p, "}") {
				for _, leaf := range strings.Split(p[k+1:len(p)-1], ",") {
					got[p[:k]+leaf] += n
				}
			} else {
				got[p] += n
			}
		}
	}
	return got
}

// relTarget is the action target relative to one record of coll.
func relTarget(target, coll string) string {
	pre := coll + "[]"
	if coll == "." {
		pre = ".[]"
	}
	for _, p := range []string{pre, coll} {
		if strings.HasPrefix(target, p) {
			if r := strings.TrimPrefix(target[len(p):], "."); r != "" {
				return r
			}
		}
	}
	return target
}

// TestNoticeCaptured runs level 1 with the default rules on captured
// outputs, with a budget that level 1 meets: the notice states every
// field path left out with its count, every constant with its value, the
// strings shortened; the artifact is set and holds the original; the
// payload after the notice is valid; tokens.after is the exact count.
func TestNoticeCaptured(t *testing.T) {
	p, c, st := storePipeline(t)
	// Budgets between level 1's size and the raw size (testdata/README.md
	// and the bench give the raw sizes).
	for name, b := range map[string]int{"github-issues.json": 200000, "kubectl-pods.json": 450000, "sqlite-orders.json": 240000,
		"fs-tree.json": 20000, "go-list-std.json": 200000, "cloudwatch-alarms.json": 180000} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../testdata/captured", name))
			if err != nil {
				t.Fatal(err)
			}
			rules := budget.Rules{Defaults: true, StringsMax: 2000}
			r, err := p.Run(context.Background(), budget.Input{Tool: name, Data: data, Budget: b, Rules: rules})
			if err != nil {
				t.Fatal(err)
			}
			if r.Level != schemas.LevelFields {
				t.Fatalf("level %s, want fields", r.Level)
			}
			notice, payload := budget.SplitNotice(r.Content)
			if notice == "" || !strings.HasSuffix(notice, "]") || strings.Contains(notice, "\n") {
				t.Fatalf("no notice line: %.200q", r.Content)
			}
			if got := c.Count(r.Content); r.Tokens.After != got {
				t.Errorf("tokens.after %d, the content counts %d", r.Tokens.After, got)
			}
			if r.Artifact == nil || !strings.Contains(notice, budget.RefOf(r.Artifact.Handle)) {
				t.Fatalf("artifact %+v not named in %s", r.Artifact, notice)
			}
			rc, _, err := st.Open(context.Background(), budget.Handle(r.Artifact.Handle))
			if err != nil {
				t.Fatal(err)
			}
			orig, err := io.ReadAll(rc)
			rc.Close()
			if err != nil || !bytes.Equal(orig, data) {
				t.Fatalf("artifact does not hold the original: %v, %d of %d bytes", err, len(orig), len(data))
			}
			if r.ContentType == budget.TypeTable || strings.Contains(payload, "\t") && !strings.HasPrefix(payload, "{") && !strings.HasPrefix(payload, "[") {
				if _, err := budget.TableToJSON([]byte(payload)); err != nil {
					t.Errorf("payload table: %v", err)
				}
			} else {
				dec := json.NewDecoder(strings.NewReader(payload))
				for {
					var v any
					if err := dec.Decode(&v); errors.Is(err, io.EOF) {
						break
					} else if err != nil {
						t.Fatalf("payload is not JSON: %v", err)
					}
				}
			}
			entries := noticeEntries(t, notice)
			coll := r.Collections[0].Path
			checked := 0
			for _, a := range r.Actions {
				rel := relTarget(a.Target, coll)
				switch a.Kind {
				case budget.ActDropField, budget.ActDropURL, budget.ActDropID, budget.ActDropEmpty, budget.ActShorten:
					if entries[rel] != a.Count {
						t.Errorf("%s %s ×%d: the notice says ×%d: %s", a.Kind, rel, a.Count, entries[rel], notice)
					}
					checked++
				case budget.ActDropConstant:
					v := a.Detail[strings.LastIndex(a.Detail, " has ")+len(" has "):]
					if !strings.Contains(notice, rel+"="+v) {
						t.Errorf("constant %s=%s not in the notice: %s", rel, v, notice)
					}
					if len(v) > 64 {
						t.Errorf("constant %s of %d bytes dropped", rel, len(v))
					}
					checked++
				}
			}
			if checked == 0 {
				t.Errorf("no lossy action to check: %v", r.Actions)
			}
			t.Logf("%d actions checked, notice %d tokens", checked, c.Count(notice+"\n"))
		})
	}
}

// TestNoticeLossless: level 1 that only minified (npm view react) stores
// nothing and its notice only states facts counted over the records: the
// output is whole after it.
func TestNoticeLossless(t *testing.T) {
	p, c, _ := storePipeline(t)
	data, err := os.ReadFile("../testdata/captured/npm-view-react.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Run(context.Background(), budget.Input{Tool: "npm.view", Data: data, Budget: 170000})
	if err != nil {
		t.Fatal(err)
	}
	notice, payload := budget.SplitNotice(r.Content)
	if r.Level != schemas.LevelFields || !strings.HasPrefix(notice, budget.FactsHead+"; counted: .versions 2,963 records") || r.Artifact != nil {
		t.Fatalf("level %s, artifact %v, content %.100q", r.Level, r.Artifact, r.Content)
	}
	if !json.Valid([]byte(payload)) || r.Tokens.After != c.Count(r.Content) {
		t.Errorf("content not JSON or tokens.after %d wrong", r.Tokens.After)
	}
}

// TestNoticeInBudget: the notice counts in the budget. With a store,
// level 1's output is shown with a notice stating every fact its view
// states (the view at a smaller budget stated them), at exactly that size
// too; one token below, level 2 takes over (its view at this budget holds
// everything the view at a smaller one holds). Without a store (no view,
// so nothing to be monotone with) the notice states as many facts as fit,
// none at the size of the plain notice, and one token below that it is
// an error with the numbers, never a cut.
func TestNoticeInBudget(t *testing.T) {
	p, c, _ := storePipeline(t)
	data, err := os.ReadFile("../testdata/captured/fs-tree.json")
	if err != nil {
		t.Fatal(err)
	}
	in := budget.Input{Tool: "fs.tree", Data: data, Budget: 20000, Rules: budget.Rules{Defaults: true}}
	r, err := p.Run(context.Background(), in)
	if err != nil || r.Level != schemas.LevelFields {
		t.Fatalf("%v, level %s", err, r.Level)
	}
	in.Budget = r.Tokens.After
	if r2, err := p.Run(context.Background(), in); err != nil || r2.Level != schemas.LevelFields || r2.Content != r.Content {
		t.Fatalf("at exactly its size: %v, level %s", err, r2.Level)
	}
	if !strings.Contains(r.Content, "; counted: .children 238 records; ") {
		t.Fatalf("the notice states no facts: %.300s", r.Content)
	}
	var facts *schemas.Action
	for i, a := range r.Actions {
		if a.Kind == budget.ActFacts {
			facts = &r.Actions[i]
		}
	}
	if facts == nil || facts.Count < 10 {
		t.Fatalf("no facts action, or too few facts: %+v", r.Actions)
	}
	in.Budget = r.Tokens.After - 1
	r1, err := p.Run(context.Background(), in)
	if err != nil || r1.Level != schemas.LevelArtifact || r1.Tokens.After > in.Budget {
		t.Fatalf("one token short of the notice with every fact: %v, level %s, %d tokens", err, r1.Level, r1.Tokens.After)
	}
	// Without a store it is an error with the numbers, never a cut.
	np := budget.NewPipeline(c)
	in.Budget = 20000
	r3, err := np.Run(context.Background(), in)
	if err != nil || r3.Level != schemas.LevelFields || r3.Artifact != nil {
		t.Fatalf("without a store: %v, level %s", err, r3.Level)
	}
	notice, payload := budget.SplitNotice(r3.Content)
	plain := notice[:strings.Index(notice, "; counted: ")] + "]"
	in.Budget = c.Count(plain+"\n") + c.Count(payload) + 40
	r4, err := np.Run(context.Background(), in)
	if n, _ := budget.SplitNotice(r4.Content); err != nil || r4.Level != schemas.LevelFields || len(n) >= len(notice) || !strings.HasPrefix(n, notice[:len(plain)-1]) {
		t.Fatalf("without a store, with room for a few facts: %v, %.300s", err, n)
	}
	in.Budget = c.Count(plain+"\n") + c.Count(payload)
	r4, err = np.Run(context.Background(), in)
	if err != nil || r4.Content != plain+"\n"+payload {
		t.Fatalf("without a store, at the size of the plain notice: %v", err)
	}
	in.Budget = r4.Tokens.After - 1
	if _, err := np.Run(context.Background(), in); !errors.Is(err, budget.ErrCannotFit) {
		t.Errorf("without a store, one token short: %v", err)
	}
}

// TestNoticeConstants: the directory_tree case. Children that are the
// same in every record are stated as a constant when short, and stay in
// the records when long; without a store the notice says the original
// was not stored.
func TestNoticeConstants(t *testing.T) {
	c, _ := budget.NewCounter("")
	p := budget.NewPipeline(c)
	tree := func(children string) []byte {
		var b bytes.Buffer
		b.WriteString("[")
		for i := range 20 {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `{"name": "dir%02d", "type": "directory", "children": %s}`, i, children)
		}
		b.WriteString("]")
		return b.Bytes()
	}
	in := budget.Input{Tool: "directory_tree", Budget: 1 << 20, Rules: budget.Rules{Defaults: true}}
	// Small enough data fits at level none; force level 1 with a budget
	// just under the raw size.
	for _, tc := range []struct {
		children string
		dropped  bool
	}{
		{`[{"name": "a.go", "type": "file"}]`, true},
		{`[{"name": "main.go", "type": "file"}, {"name": "main_test.go", "type": "file"}, {"name": "README.md", "type": "file"}]`, false},
	} {
		in.Data = tree(tc.children)
		in.Budget = c.Count(string(in.Data)) - 1
		r, err := p.Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		notice, payload := budget.SplitNotice(r.Content)
		if strings.Contains(payload, `"children"`) == tc.dropped {
			t.Errorf("children %s: dropped=%v wanted %v: %s", tc.children, !tc.dropped, tc.dropped, r.Content)
		}
		if tc.dropped && !strings.Contains(notice, `children=[{"name":"a.go","type":"file"}]`) {
			t.Errorf("the constant is not stated: %s", notice)
		}
		if !strings.Contains(notice, `type="directory"`) || !strings.Contains(notice, "20 of 20 records shown") ||
			!strings.Contains(notice, "; full original not stored: no artifact store is configured") {
			t.Errorf("notice: %s", notice)
		}
		if r.Tokens.After != c.Count(r.Content) || r.Tokens.After > in.Budget {
			t.Errorf("tokens.after %d, budget %d", r.Tokens.After, in.Budget)
		}
	}
}

// TestNoticeText: folded lines in text are stated with their count.
func TestNoticeText(t *testing.T) {
	c, _ := budget.NewCounter("")
	p := budget.NewPipeline(c)
	data := []byte(strings.Repeat("starting worker pool with 16 threads and a queue of 1024 jobs\n", 200) + "done\n")
	r, err := p.Run(context.Background(), budget.Input{Tool: "log", Data: data, Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	notice, payload := budget.SplitNotice(r.Content)
	if !strings.Contains(notice, "199 repeated lines folded") || !strings.HasPrefix(payload, "[×200] starting") {
		t.Errorf("notice %q, payload %q", notice, payload)
	}
}

func TestSplitNotice(t *testing.T) {
	for _, tc := range []struct{ in, notice, payload string }{
		{"[compact: 3 of 3 records shown; left out: 1 field (url ×3)]\n[1,2,3]", "[compact: 3 of 3 records shown; left out: 1 field (url ×3)]", "[1,2,3]"},
		{`[1,2,3]`, "", `[1,2,3]`},
		{"[compact: x]", "[compact: x]", ""},
		{"", "", ""},
		{"[compact:no space]\n{}", "", "[compact:no space]\n{}"},
	} {
		n, p := budget.SplitNotice(tc.in)
		if n != tc.notice || p != tc.payload {
			t.Errorf("SplitNotice(%q) = %q, %q", tc.in, n, p)
		}
	}
}

func ExampleSplitNotice() {
	content := "[compact: 2 of 2 records shown; left out: 1 field (node_id ×2)]\n" + `[{"id":1},{"id":2}]`
	notice, payload := budget.SplitNotice(content)
	fmt.Println(notice)
	fmt.Println(json.Valid([]byte(payload)))
	// Output:
	// [compact: 2 of 2 records shown; left out: 1 field (node_id ×2)]
	// true
}

// FuzzNotice checks the notice on any input: a level-1 result has a notice
// exactly when an action removed or changed data; the notice is one line
// starting with NoticePrefix and ending with "]", states the record counts
// of a single collection, and the payload after it passes the pipeline's
// own output check.
func FuzzNotice(f *testing.F) {
	for _, s := range []string{
		`[{"a":1,"b":"x"},{"a":2,"b":"x","c":null}]`,
		`{"total_count":2,"items":[{"id":1,"user":{"login":"a","avatar_url":"https://x"}},{"id":2,"labels":[{"name":"bug"}]}]}`,
		"{\"a\":1,\"s\":\"same\"}\n{\"a\":2,\"s\":\"same\"}\n",
		"line 1\nline 1\nline 1\nline 2\n[compact: not a notice]\n",
		"[compact: x]\n[compact: x]\n[compact: x]\n",
		`[{"n":"a","children":[{"n":"x"}]},{"n":"b","children":[{"n":"x"}]}]`,
	} {
		f.Add([]byte(s), uint16(30))
	}
	c := newCounter(f)
	p := budget.NewPipeline(c)
	lossy := map[string]bool{budget.ActDropField: true, budget.ActDropEmpty: true, budget.ActDropConstant: true, budget.ActDropID: true,
		budget.ActDropURL: true, budget.ActShorten: true, budget.ActCollapse: true, budget.ActShortenLines: true, budget.ActInvalidUTF8: true}
	f.Fuzz(func(t *testing.T, data []byte, b uint16) {
		if len(data) > 2048 {
			return
		}
		res, err := p.Run(context.Background(), budget.Input{Tool: "fuzz", Data: data, Budget: int(b%400) + 1,
			Rules: budget.Rules{Defaults: true, StringsMax: 16, Format: "auto"}})
		if err != nil || res.Level != schemas.LevelFields {
			return
		}
		notice, payload := budget.SplitNotice(res.Content)
		changed, table := false, false
		for _, a := range res.Actions {
			changed = changed || lossy[a.Kind]
			table = table || a.Kind == budget.ActTable
		}
		if changed != (notice != "") {
			t.Fatalf("lossy %v, notice %q; actions %+v", changed, notice, res.Actions)
		}
		if notice == "" {
			return
		}
		if !strings.HasSuffix(notice, "]") || strings.Contains(notice, "\n") {
			t.Fatalf("notice %q", notice)
		}
		if len(res.Collections) == 1 {
			n := commas(res.Collections[0].Count)
			if !strings.Contains(notice, n+" of "+n+" records shown") {
				t.Fatalf("notice %q does not state %s records", notice, n)
			}
		}
		shape, err := budget.DetectShape(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		ct := ""
		if table {
			ct = budget.TypeTable
		} else if shape.Format == budget.FormatJSONL || shape.Format == budget.FormatConcat {
			ct = budget.TypeNDJSON
		} else if shape.Format == budget.FormatJSON {
			ct = budget.TypeJSON
		} else {
			ct = budget.TypeText
		}
		if err := budget.CheckOutput(shape, budget.Output{Content: []byte(payload), ContentType: ct}); err != nil {
			t.Fatalf("payload after the notice: %v\n%q", err, res.Content)
		}
	})
}

// TestFactsNotice: an output that fits as it is gets a notice of the facts
// counted over its records when there is room (a view at a smaller budget
// states them), the output unchanged after it; an output that starts like
// a notice always gets one, or leaves level none.
func TestFactsNotice(t *testing.T) {
	c := newCounter(t)
	p := budget.NewPipeline(c)
	ctx := context.Background()
	var b strings.Builder
	b.WriteString(`{"dependencies": {`)
	for i := range 100 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"pkg-%d": {"version": "1.%d.0", "state": "%s"}`, i, i, map[bool]string{true: "ok", false: "extraneous"}[i%10 != 3])
	}
	b.WriteString("}}")
	data := b.String()
	r, err := p.Run(ctx, budget.Input{Tool: "t", Data: []byte(data), Budget: 8000})
	if err != nil {
		t.Fatal(err)
	}
	notice, payload := budget.SplitNotice(r.Content)
	if r.Level != schemas.LevelNone || payload != data || r.Tokens.After != c.Count(r.Content) || r.Tokens.Before != c.Count(data) {
		t.Fatalf("level %s, tokens %+v, payload %.80q", r.Level, r.Tokens, payload)
	}
	if want := budget.FactsHead + "; counted: .dependencies 100 records; state (string): ok 90, extraneous 10"; !strings.HasPrefix(notice, want) {
		t.Errorf("notice %q, want it to start with %q", notice, want)
	}
	// No room: the output alone.
	r, err = p.Run(ctx, budget.Input{Tool: "t", Data: []byte(data), Budget: c.Count(data)})
	if err != nil || r.Level != schemas.LevelNone || r.Content != data {
		t.Errorf("at its own size: %v, level %s, %.80q", err, r.Level, r.Content)
	}
	// A tiny output: the notice would cost more than a tenth of it.
	r, err = p.Run(ctx, budget.Input{Tool: "t", Data: []byte("[1,2,3]"), Budget: 8000})
	if err != nil || r.Content != "[1,2,3]" {
		t.Errorf("tiny: %v, %q", err, r.Content)
	}
	// Text gets the facts its view states.
	var log strings.Builder
	for i := range 400 {
		level := "INFO"
		if i%50 == 7 {
			level = "ERROR"
		}
		fmt.Fprintf(&log, "2026-11-25T10:%02d:%02dZ %s request %d served in %d ms\n", i/60, i%60, level, i, i%17)
	}
	r, err = p.Run(ctx, budget.Input{Tool: "t", Data: []byte(log.String()), Budget: 20000})
	notice, payload = budget.SplitNotice(r.Content)
	if err != nil || r.Level != schemas.LevelNone || payload != log.String() || !strings.HasPrefix(notice, budget.FactsHead+"; text: 400 lines") || !strings.Contains(notice, "error lines: 8") {
		t.Errorf("text: %v, level %s, notice %.300q", err, r.Level, notice)
	}
	// An output that starts like a notice is never taken for one.
	fake := "[compact: not a notice]\nline 2\nline 3\n"
	r, err = p.Run(ctx, budget.Input{Tool: "t", Data: []byte(fake), Budget: 8000})
	if _, payload := budget.SplitNotice(r.Content); err != nil || r.Level != schemas.LevelNone || payload != fake {
		t.Errorf("fake notice: %v, level %s, %q", err, r.Level, r.Content)
	}
	r, err = p.Run(ctx, budget.Input{Tool: "t", Data: []byte(fake), Budget: c.Count(fake)})
	if err == nil {
		if r.Level == schemas.LevelNone {
			t.Errorf("fake notice, no room: level %s, %q", r.Level, r.Content)
		}
	}
}
