package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// benchCorpus writes a corpus directory with one output and a questions
// file made of the given question lines.
func benchCorpus(t *testing.T, output string, questions ...string) string {
	t.Helper()
	dir := t.TempDir()
	if output != "" {
		if err := os.WriteFile(filepath.Join(dir, "x.json"), []byte(output), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := "output: x.json\ntool: t\ninput: json\nquestions:\n" + strings.Join(questions, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "x.questions.yaml"), []byte(q), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBenchBadInput: bad questions files, missing outputs, an empty
// corpus and bad flags end with a clear error naming the file and
// question, and the documented exit code.
func TestBenchBadInput(t *testing.T) {
	t.Setenv(envRegistry, "")
	const out = `{"items":[{"id":1,"state":"open"},{"id":2,"state":"closed"}]}`
	const good = "  - {id: count, question: how many, kind: count, jq: '.items | length'}"
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"jq does not parse", []string{"--corpus", benchCorpus(t, out, good, "  - {id: broken, question: q, kind: count, jq: '.items | select(.a =='}")},
			ExitInput, []string{"x.questions.yaml:6: question \"broken\": jq \".items | select(.a ==\" does not parse"}},
		{"jq does not match the output", []string{"--corpus", benchCorpus(t, out, good, "  - {id: shape, question: q, kind: lookup, jq: '.items.id'}")},
			ExitInput, []string{"x.questions.yaml:6: question \"shape\": jq \".items.id\" fails on the output"}},
		{"jq gives no answer", []string{"--corpus", benchCorpus(t, out, good, "  - {id: none, question: q, kind: lookup, jq: '.items[] | select(.id == 9) | .state'}")},
			ExitInput, []string{"question \"none\"", "gives no result"}},
		{"missing output", []string{"--corpus", benchCorpus(t, "", good)},
			ExitInput, []string{"x.questions.yaml: output \"x.json\"", "no such file"}},
		{"empty corpus", []string{"--corpus", t.TempDir()}, ExitInput, []string{"no outputs"}},
		{"corpus not there", []string{"--corpus", filepath.Join(t.TempDir(), "nowhere")}, ExitInput, []string{"nowhere"}},
		{"bad budget", []string{"--budget", "0"}, ExitUsage, []string{`invalid value "0" for flag -budget`}},
		{"bad budget list", []string{"--budget", "2000,lots"}, ExitUsage, []string{`"lots"`}},
		{"stray argument", []string{"somewhere"}, ExitUsage, []string{`unexpected argument "somewhere"`}},
		{"bad query deadline", []string{"--query-timeout", "0s"}, ExitUsage, []string{"--query-timeout must be positive, got 0s"}},
		{"bad registry", []string{"--corpus", benchCorpus(t, out, good), "--registry", writeFile(t, "r.yaml", "version: 1\ntools:\n  - name: x\n    budget: lots\n")},
			ExitRegistry, []string{"r.yaml"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := execCLI(t, nil, append([]string{"bench"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr does not say %q:\n%s", w, stderr)
				}
			}
			if stdout != "" {
				t.Errorf("stdout on error: %q", stdout)
			}
		})
	}
}

// TestBenchRuns runs the command on a tiny corpus and checks the JSON
// report and the --check exit code.
func TestBenchRuns(t *testing.T) {
	t.Setenv(envRegistry, "")
	dir := benchCorpus(t, `{"items":[{"id":11,"state":"open"},{"id":12,"state":"closed"},{"id":13,"state":"open"}]}`,
		"  - {id: count, question: how many, kind: count, jq: '.items | length'}",
		"  - {id: open, question: open ones, kind: filter_count, jq: '[.items[] | select(.state == \"open\")] | length'}")
	html := filepath.Join(t.TempDir(), "r.html")
	stdout, stderr, code := execCLI(t, nil, "bench", "--corpus", dir, "--budget", "500", "--json", "--html", html)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Results []struct {
			Strategy   string `json:"strategy"`
			Shown      bool   `json:"shown"`
			Answerable int    `json:"answerable"`
			Questions  int    `json:"questions"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if len(rep.Results) != 7 {
		t.Fatalf("%d results, want one per strategy", len(rep.Results))
	}
	for _, r := range rep.Results {
		// The output fits, so every strategy shows it whole; but neither
		// answer (3 items, 2 open) is written in it, and a model would
		// have to count rows itself: not answerable under the rule.
		if !r.Shown || r.Answerable != 0 || r.Questions != 2 {
			t.Errorf("%s: shown %v, %d of %d answerable", r.Strategy, r.Shown, r.Answerable, r.Questions)
		}
	}
	if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("HTML report: %v", err)
	}
	// The default text table, and --check failing with the reasons.
	stdout, stderr, code = execCLI(t, nil, "bench", "--corpus", dir, "--budget", "500", "--check")
	if code != ExitCheck || !strings.Contains(stdout, "totals over 1 outputs") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, w := range []string{"target missed: x.json at 500 tokens: counts not stated: .items=3", "2 of 2 questions neither visible nor answered by one query: count, open"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("--check does not say %q:\n%s", w, stderr)
		}
	}
}

// TestBenchOutputsWithoutQuestions: a directory of outputs with no
// questions file is measured (tokens, validity, counts), as a team runs
// the bench on its own data; --tool names the registry entry.
func TestBenchOutputsWithoutQuestions(t *testing.T) {
	t.Setenv(envRegistry, "")
	dir := t.TempDir()
	var items []string
	for i := 0; i < 300; i++ {
		items = append(items, `{"id":`+strconv.Itoa(i)+`,"state":"open","title":"a title that takes a few tokens"}`)
	}
	if err := os.WriteFile(filepath.Join(dir, "items.json"), []byte(`{"total_count":300,"items":[`+strings.Join(items, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := execCLI(t, nil, "bench", "--corpus", dir, "--budget", "400", "--tool", "github.issues", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Outputs []struct {
			Name string `json:"name"`
			Tool string `json:"tool"`
		} `json:"outputs"`
		Results []struct {
			Strategy     string `json:"strategy"`
			Tokens       int    `json:"tokens"`
			WithinBudget bool   `json:"within_budget"`
			Valid        bool   `json:"valid"`
			CountsStated int    `json:"counts_stated"`
			Questions    int    `json:"questions"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if len(rep.Outputs) != 1 || rep.Outputs[0].Name != "items.json" || rep.Outputs[0].Tool != "github.issues" {
		t.Fatalf("outputs %+v", rep.Outputs)
	}
	r := rep.Results[0]
	if r.Strategy != "compact" || r.Tokens == 0 || !r.WithinBudget || !r.Valid || r.CountsStated != 1 || r.Questions != 0 {
		t.Errorf("compact on an output without questions: %+v", r)
	}
}

// TestBenchNoCorpus: outside the repository, without --corpus, the command
// says where the bundled corpus lives.
func TestBenchNoCorpus(t *testing.T) {
	t.Chdir(t.TempDir())
	_, stderr, code := execCLI(t, nil, "bench")
	if code != ExitInput || !strings.Contains(stderr, "give --corpus DIR") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
