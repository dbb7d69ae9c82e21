package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/registry"
)

func testEngine(t *testing.T) *host.Engine {
	t.Helper()
	ctx := context.Background()
	st, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctr, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	// Deadlines that catch a hang, not a slow run (plugins, and the
	// suggested queries the measures run): at the default 5 s a query a
	// view suggests failed TestBundledCorpusMonotone on the loaded machine.
	eng, err := host.New(ctx, host.WithStore(st), host.WithCounter(ctr), host.WithLazyPlugins(),
		host.WithRegistry(patientRegistry(t)), host.WithQueryTimeout(time.Minute),
		host.WithCompilationCache(""), host.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(ctx) })
	return eng
}

// patientRegistry is the built-in registry with every plugin's per-call
// deadline raised to a minute: on a loaded machine a plugin that misses
// its 250 ms deadline makes level 1 fall back to the declarative rules,
// another output, and the bench's results would depend on the load.
// Everything else is the built-in registry as shipped.
func patientRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	var tools []registry.Entry
	for _, e := range registry.Default().Entries() {
		if e.Plugin != nil {
			e.Plugin.Timeout = time.Minute
		}
		tools = append(tools, e)
	}
	b, err := yaml.Marshal(map[string]any{"version": 1, "builtin": false, "tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.Parse(b, "patient-registry.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func loadSmall(t *testing.T, names ...string) []*QuestionFile {
	t.Helper()
	var files []*QuestionFile
	for _, n := range names {
		qf, err := LoadQuestions(filepath.Join(corpusDir, n+QuestionsSuffix))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, qf)
	}
	return files
}

func find(t *testing.T, rep *Report, output string, s Strategy) Result {
	t.Helper()
	for _, r := range rep.Results {
		if r.Output == output && r.Strategy == s {
			return r
		}
	}
	t.Fatalf("no result for %s / %s", output, s)
	return Result{}
}

// TestHarnessSmallCorpus runs every strategy on two real captured outputs
// (a JSON tree and a text listing) at 2,000 tokens and checks the numbers
// each strategy must give.
func TestHarnessSmallCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine on real outputs")
	}
	files := loadSmall(t, "fs-tree", "apt-list-installed")
	h := &Harness{Engine: testEngine(t), Budgets: []int{2000}, PreviewDir: t.TempDir()}
	rep, err := h.Run(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rep.Results), 2*len(Strategies); got != want {
		t.Fatalf("%d results, want %d", got, want)
	}
	// The outputs and their true counts.
	if rep.Outputs[0].Name != "apt-list-installed.txt" || rep.Outputs[1].Name != "fs-tree.json" {
		t.Fatalf("outputs not sorted by name: %+v", rep.Outputs)
	}
	tree := rep.Outputs[1]
	if len(tree.Collections) != 1 || tree.Collections[0].Path != ".children" || tree.Collections[0].Count != 238 {
		t.Fatalf("fs-tree collections = %+v, want .children with 238 records", tree.Collections)
	}
	if tree.RawTokens <= 2000 {
		t.Fatalf("fs-tree raw tokens = %d, want over the budget", tree.RawTokens)
	}

	// Cutting JSON at 4 chars per token: invalid JSON, and over the budget
	// because JSON has fewer than 4 characters per token.
	cc := find(t, rep, "fs-tree.json", StrategyCharCut)
	if cc.Valid || !strings.Contains(cc.Invalid, "JSON") {
		t.Errorf("char-cut of JSON: valid=%v (%s), want invalid JSON", cc.Valid, cc.Invalid)
	}
	if cc.WithinBudget || cc.Tokens <= 2000 {
		t.Errorf("char-cut of JSON at 8,000 chars: %d tokens, within=%v; want over 2,000", cc.Tokens, cc.WithinBudget)
	}
	// Token cut: within budget, still invalid, no count stated.
	tc := find(t, rep, "fs-tree.json", StrategyTokenCut)
	if !tc.WithinBudget || tc.Tokens > 2000 || tc.Tokens < 1900 || tc.Valid {
		t.Errorf("token-cut: %d tokens, within=%v, valid=%v; want 1,900..2,000, within, invalid", tc.Tokens, tc.WithinBudget, tc.Valid)
	}
	// First rows: valid JSON within budget, but the count is not stated.
	fr := find(t, rep, "fs-tree.json", StrategyFirstRows)
	if !fr.Valid || !fr.WithinBudget || fr.CountsStated != 0 {
		t.Errorf("first-rows: valid=%v within=%v counts stated %d; want valid, within, 0", fr.Valid, fr.WithinBudget, fr.CountsStated)
	}
	// Raw does not fit.
	if raw := find(t, rep, "fs-tree.json", StrategyRaw); raw.Shown || raw.Answerable != 0 || raw.Tokens != 0 {
		t.Errorf("raw over budget: %+v, want nothing shown", raw)
	}
	// Preview: a note plus 2,000 characters, far under the budget, no handle.
	pv := find(t, rep, "fs-tree.json", StrategyPreview)
	if !pv.WithinBudget || pv.FollowUp != 0 || pv.Handle != "" {
		t.Errorf("preview: %+v", pv)
	}

	// compact: valid, within budget, states the count, and every question
	// of this JSON output is answered by one jq query through the handle,
	// run through the artifact query path on the stored artifact.
	cp := find(t, rep, "fs-tree.json", StrategyCompact)
	if !cp.Shown || !cp.Valid || !cp.WithinBudget {
		t.Errorf("compact: shown=%v valid=%v (%s) within=%v tokens=%d", cp.Shown, cp.Valid, cp.Invalid, cp.WithinBudget, cp.Tokens)
	}
	if cp.CountsStated != cp.Counts || cp.Counts != 1 {
		t.Errorf("compact states %d of %d counts (missing %v)", cp.CountsStated, cp.Counts, cp.CountsMissing)
	}
	if cp.Handle == "" || cp.Level != "artifact" {
		t.Errorf("compact: level %q handle %q, want the artifact level with a handle", cp.Level, cp.Handle)
	}
	if cp.FollowUp != cp.Questions || cp.Answerable != cp.Questions {
		t.Errorf("compact: %d follow-ups and %d answerable of %d questions; failures: %+v", cp.FollowUp, cp.Answerable, cp.Questions, cp.FollowUpFailures)
	}
	// Every follow-up that failed says why, and the answerable questions
	// are exactly those visible or followed up.
	for _, r := range rep.Results {
		if r.Handle != "" && len(r.FollowUpFailures) != r.Questions-r.FollowUp {
			t.Errorf("%s/%s: %d failures for %d of %d follow-ups", r.Output, r.Strategy, len(r.FollowUpFailures), r.FollowUp, r.Questions)
		}
		for _, f := range r.FollowUpFailures {
			if f.Reason == "" {
				t.Errorf("%s/%s: failure of %s has no reason", r.Output, r.Strategy, f.ID)
			}
		}
		if r.Answerable+len(r.Unanswerable) != r.Questions || r.Answerable < r.Inline || r.Answerable < r.FollowUp {
			t.Errorf("%s/%s: answerable %d, inline %d, follow-up %d, unanswerable %d of %d", r.Output, r.Strategy, r.Answerable, r.Inline, r.FollowUp, len(r.Unanswerable), r.Questions)
		}
	}
	// A text listing cut by characters is still valid text.
	if cc := find(t, rep, "apt-list-installed.txt", StrategyCharCut); !cc.Valid {
		t.Errorf("char-cut of text: invalid (%s)", cc.Invalid)
	}

	// Totals add up.
	tot, ok := rep.Total(2000, StrategyCompact)
	if !ok || tot.Outputs != 2 || tot.Questions != 20 || tot.RawTokens != rep.Outputs[0].RawTokens+rep.Outputs[1].RawTokens {
		t.Errorf("compact total %+v", tot)
	}
	if tot.Saved < 0.6 {
		t.Errorf("compact saved %.2f of raw tokens, want at least 0.60", tot.Saved)
	}

	// The reports render; the HTML needs no network.
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil || !strings.Contains(b.String(), "fs-tree.json") {
		t.Errorf("text report: %v", err)
	}
	b.Reset()
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if !strings.Contains(html, "answered from the view, per question category") && !strings.Contains(html, "Answered from the view, per question category") {
		t.Errorf("HTML report has no per-category table")
	}
	if !strings.Contains(html, "The view&#39;s goals") && !strings.Contains(html, "The view's goals") {
		t.Errorf("HTML report has no goals table")
	}
	if !strings.Contains(html, "<svg") || strings.Contains(html, "<script") || strings.Contains(html, "src=\"http") || strings.Contains(html, "href=\"http") {
		t.Errorf("HTML report is not self-contained with inline SVG charts")
	}
	b.Reset()
	if err := rep.WriteMarkdown(&b); err != nil || !strings.Contains(b.String(), "| compact |") {
		t.Errorf("markdown report: %v\n%s", err, b.String())
	}
}

// TestHarnessDeterministic runs the harness twice and compares the JSON
// reports without their wall times.
func TestHarnessDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine twice")
	}
	files := loadSmall(t, "go-list-modules")
	run := func() string {
		var steps []string
		h := &Harness{Engine: testEngine(t), Budgets: []int{4000, 1000, 4000}, PreviewDir: t.TempDir(),
			Progress: func(done, total int, what string) { steps = append(steps, fmt.Sprintf("%d/%d %s", done, total, what)) }}
		rep, err := h.Run(context.Background(), files)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"1/2 go-list-modules.json @1000", "2/2 go-list-modules.json @4000"}; !slices.Equal(steps, want) {
			t.Errorf("progress %q, want %q", steps, want)
		}
		if len(rep.Budgets) != 2 || rep.Budgets[0] != 1000 {
			t.Fatalf("budgets %v, want [1000 4000]", rep.Budgets)
		}
		for i := range rep.Results {
			rep.Results[i].WallMS, rep.Results[i].FollowUpMS = 0, 0
		}
		for i := range rep.Totals {
			rep.Totals[i].WallMS = 0
		}
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(b.String(), h.PreviewDir, "PREVIEW")
	}
	a, b := run(), run()
	if a != b {
		t.Errorf("two runs differ:\n%s\n----\n%s", a, b)
	}
	var rep Report
	if err := json.Unmarshal([]byte(a), &rep); err != nil {
		t.Fatal(err)
	}
}

// TestHarnessBadInput: a failing filter or a missing output is reported
// with the file and question, before anything runs.
func TestHarnessBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.json")
	if err := os.WriteFile(out, []byte(`{"items":[{"a":1},{"a":2}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	q := filepath.Join(dir, "x"+QuestionsSuffix)
	if err := os.WriteFile(q, []byte("output: x.json\ntool: t\ninput: json\nquestions:\n"+
		"  - {id: ok, question: n, kind: count, jq: '.items | length'}\n"+
		"  - {id: wrong-shape, question: n, kind: lookup, jq: '.items.a'}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	qf, err := LoadQuestions(q)
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{Engine: testEngine(t), Budgets: []int{100}}
	_, err = h.Run(context.Background(), []*QuestionFile{qf})
	if err == nil || !strings.Contains(err.Error(), q+":6: question \"wrong-shape\"") {
		t.Fatalf("error %v, want one naming %s:6 and the question", err, q)
	}
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	_, err = h.Run(context.Background(), []*QuestionFile{qf})
	if err == nil || !strings.Contains(err.Error(), q) || !strings.Contains(err.Error(), `output "x.json"`) {
		t.Fatalf("error %v, want one naming the questions file and the missing output", err)
	}
	if _, err := h.Run(context.Background(), nil); err == nil {
		t.Fatal("an empty corpus ran")
	}
	if _, err := (&Harness{Engine: h.Engine}).Run(context.Background(), []*QuestionFile{qf}); err == nil || !strings.Contains(err.Error(), "no budgets") {
		t.Fatalf("no budgets: %v", err)
	}
}

func TestFormatValid(t *testing.T) {
	cases := []struct {
		f    Format
		text string
		want bool
	}{
		{FormatJSON, `{"a":[1,2]}`, true},
		{FormatJSON, `{"a":[1,2`, false},
		{FormatJSON, `{"a":1} {"b":2}`, false},
		{FormatJSON, ``, false},
		{FormatValues, "{\"a\":1}\n{\"b\":2}\n", true},
		{FormatValues, "{\"a\":1}\n{\"b\":", false},
		{FormatText, "line 1\nline", true},
		{FormatText, "caf\xc3", false},
		{FormatTable, "name\tage\nann\t3\nbob\t4\n", true},
		{FormatTable, "name\tage\nann\t3\t5\n", false},
		{FormatTable, "no separators", false},
		{FormatSummary, "[compact: ...]", true},
		{FormatNone, "", false},
	}
	for _, c := range cases {
		if got, why := c.f.Valid(c.text); got != c.want {
			t.Errorf("%s.Valid(%q) = %v (%s), want %v", c.f, c.text, got, why, c.want)
		}
	}
}

// TestStrategiesOnRealCounter checks the cuts against the real tokenizer.
func TestStrategiesOnRealCounter(t *testing.T) {
	ctr, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(corpusDir, "sqlite-orders.json"))
	if err != nil {
		t.Fatal(err)
	}
	orig := string(data)
	if sh := tokenCut(orig, FormatJSON, 1, ctr); sh.claim != FormatNone || sh.content != "" {
		t.Errorf("token cut at 1 token shows %q, want nothing (the note does not fit)", sh.content)
	}
	for _, b := range []int{50, 1000} {
		sh := tokenCut(orig, FormatJSON, b, ctr)
		n := ctr.Count(sh.content)
		if n > b {
			t.Errorf("token cut at %d: %d tokens", b, n)
		}
		if !strings.HasPrefix(sh.content, "[output cut to fit") || !strings.HasPrefix(orig, sh.body) {
			t.Errorf("token cut at %d: no note before a prefix of the original", b)
		}
		// One more character would not fit.
		longer := tokenCutNote(len(sh.body)+1, len([]rune(orig)), b) + orig[:len(sh.body)+1]
		if ctr.Count(longer) <= b {
			t.Errorf("token cut at %d is not the longest prefix (%d bytes)", b, len(sh.body))
		}
		fr, err := firstRows(data, FormatJSON, b, ctr)
		if err != nil {
			t.Fatal(err)
		}
		if ok, why := fr.claim.Valid(fr.body); !ok || ctr.Count(fr.content) > b {
			t.Errorf("first rows at %d: valid=%v (%s), %d tokens", b, ok, why, ctr.Count(fr.content))
		}
	}
	// First rows of a map (like npm's .time) are a valid object of its
	// first members.
	var m strings.Builder
	m.WriteString(`{"time":{`)
	for i := range 400 {
		if i > 0 {
			m.WriteString(",")
		}
		fmt.Fprintf(&m, `"1.%d.0":"2026-01-%02dT10:00:00Z"`, i, i%28+1)
	}
	m.WriteString("}}")
	fr, err := firstRows([]byte(m.String()), FormatJSON, 100, ctr)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := fr.claim.Valid(fr.body); !ok || !strings.HasPrefix(fr.body, `{"1.0.0":`) || ctr.Count(fr.content) > 100 || ctr.Count(fr.content) < 80 {
		t.Errorf("first rows of a map: valid=%v (%s), %d tokens: %.80s", ok, why, ctr.Count(fr.content), fr.body)
	}
	// Whole outputs that fit are shown whole, without a note.
	if sh := tokenCut(`{"a":1}`, FormatJSON, 100, ctr); sh.content != `{"a":1}` {
		t.Errorf("token cut of a small output = %q", sh.content)
	}
	if got := prefixRunes("héllo", 2); got != "hé" {
		t.Errorf("prefixRunes = %q", got)
	}
	if got := group(1234567); got != "1,234,567" {
		t.Errorf("group = %q", got)
	}
}

func TestRunSpeed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark")
	}
	var b bytes.Buffer
	if err := RunSpeed(context.Background(), &b, SpeedOptions{BenchTime: 20e6, Only: "tokens-count"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "tokens-count") || !strings.Contains(b.String(), "×") {
		t.Errorf("speed output:\n%s", b.String())
	}
}

// BenchmarkSpeed runs the speed benchmarks of `compact bench --speed` as
// ordinary Go benchmarks, each operation next to its baseline:
//
//	go test ./cmd/compact/internal/bench -run '^$' -bench 'Speed/level1' -benchtime 3x
func BenchmarkSpeed(b *testing.B) {
	dir := b.TempDir()
	for _, sb := range SpeedBenches {
		size, run, base, cleanup, err := sb.Setup(context.Background(), dir)
		if err != nil {
			b.Run(sb.Name, func(b *testing.B) { b.Skip(err) })
			continue
		}
		for _, c := range []struct {
			name string
			fn   func() error
		}{{sb.Name, run}, {sb.Name + "/baseline", base}} {
			b.Run(c.name, func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if err := c.fn(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		if cleanup != nil {
			cleanup()
		}
	}
}
