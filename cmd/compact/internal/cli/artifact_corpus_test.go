package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/cmd/compact/internal/bench"
)

// TestArtifactQueryAnswersEveryQuestion stores every captured output of the
// bundled corpus in a real directory store and runs every question's jq
// filter through `compact artifact query HANDLE --jq FILTER`, unchanged:
// the artifact query must read each output as the questions file feeds it
// (json: the value, values: one array like jq -s, lines: one array of
// lines) and give bench's ground truth, as one output.
func TestArtifactQueryAnswersEveryQuestion(t *testing.T) {
	t.Setenv(envRegistry, "")
	t.Setenv(envStore, "")
	files, err := bench.LoadCorpus(filepath.Join("..", "..", "..", "..", "testdata", "captured"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[bench.Input][]string{
		bench.InputJSON:   {budget.FormatJSON},
		bench.InputValues: {budget.FormatJSONL, budget.FormatConcat},
		bench.InputLines:  {budget.FormatText},
	}
	asked, matched := 0, 0
	for _, qf := range files {
		t.Run(filepath.Base(qf.OutputPath), func(t *testing.T) {
			data, err := qf.ReadOutput()
			if err != nil {
				t.Fatal(err)
			}
			truth, err := qf.Answer(data)
			if err != nil {
				t.Fatalf("ground truth: %v", err)
			}
			shape, err := budget.DetectShape(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(want[qf.Input], shape.Format) {
				t.Errorf("the questions feed input %q, but the artifact is detected as %s: its jq input differs", qf.Input, shape.Format)
			}
			h, _, err := st.Put(context.Background(), bytes.NewReader(data), budget.Meta{Tool: qf.Tool})
			if err != nil {
				t.Fatal(err)
			}
			for i, q := range qf.Questions {
				asked++
				out, errs, code := execCLI(t, nil, "artifact", "query", string(h), "--jq", q.JQ, "--store", dir, "--budget", "4000", "--json", "--timeout", "1m")
				if code != ExitOK {
					t.Errorf("%s: exit %d: %s", q.ID, code, errs)
					continue
				}
				var a struct {
					Content string `json:"content"`
					Total   int    `json:"total"`
				}
				if err := json.Unmarshal([]byte(out), &a); err != nil {
					t.Fatalf("%s: --json: %v: %s", q.ID, err, out)
				}
				if a.Total != 1 {
					t.Errorf("%s: %d outputs, want 1: %.200s", q.ID, a.Total, a.Content)
					continue
				}
				got, err := canonical(a.Content)
				if err != nil {
					t.Errorf("%s: answer %q: %v", q.ID, a.Content, err)
					continue
				}
				// The ground truth keeps a number as the output wrote
				// it ("143.350"); jq prints its value (143.35): both
				// are compared as values.
				exp, err := gojq.Marshal(truth[i].Value)
				if err == nil {
					var e string
					if e, err = canonical(string(exp)); err == nil {
						exp = []byte(e)
					}
				}
				if err != nil {
					t.Fatal(err)
				}
				if got != string(exp) {
					t.Errorf("%s (%s): artifact query gives %.200s, ground truth %.200s", q.ID, q.JQ, got, exp)
					continue
				}
				matched++
			}
		})
	}
	t.Logf("%d of %d questions answered by one artifact query, as the ground truth", matched, asked)
	if asked < 100 {
		t.Fatalf("only %d questions in the corpus", asked)
	}
}

// canonical re-encodes one JSON text as gojq prints it (numbers as gojq
// computes them).
func canonical(s string) (string, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	if dec.More() {
		return "", strconv.ErrSyntax
	}
	b, err := gojq.Marshal(numbers(v))
	return string(b), err
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.Atoi(x.String()); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}
