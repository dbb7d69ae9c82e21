package bench_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/cmd/compact/internal/bench"
	"github.com/toolcompact/compact/host"
)

// Load a questions file, compute the ground truth over its output, and
// check which answers a compacted view still shows.
func ExampleLoadQuestions() {
	qf, err := bench.LoadQuestions("testdata/example/pods.questions.yaml")
	if err != nil {
		log.Fatal(err)
	}
	original, err := qf.ReadOutput()
	if err != nil {
		log.Fatal(err)
	}
	answers, err := qf.Answer(original)
	if err != nil {
		log.Fatal(err)
	}
	shown := `3 pods (showing 2): db-0 Running restarts=12; api-1 Running restarts=0`
	for _, a := range answers {
		fmt.Printf("%s (%s) = %s, visible: %v\n", a.ID, a.Kind, a, a.VisibleIn(shown))
	}
	// Output:
	// pod-count (count) = 3, visible: true
	// not-running (distinct) = ["api-2"], visible: false
	// most-restarts (max) = "db-0", visible: true
}

// A filter that fails on the output is reported with the file, the line
// and the id of the question.
func ExampleQuestionFile_Answer_error() {
	qf, err := bench.LoadQuestions("testdata/example/pods.questions.yaml")
	if err != nil {
		log.Fatal(err)
	}
	_, err = qf.Answer([]byte(`{"items": {"not": "an array"}}`))
	fmt.Println(err)
	// Output:
	// testdata/example/pods.questions.yaml:10: question "not-running": jq "[.items[] | select(.status.phase != \"Running\") | .metadata.name]" fails on the output: expected an object but got: string ("an array")
	// testdata/example/pods.questions.yaml:14: question "most-restarts": jq ".items | max_by(.status.restarts) | .metadata.name" fails on the output: expected an object but got: string ("an array")
}

// Format.Valid is how the bench judges whether what a strategy shows is
// well-formed: a JSON document cut in the middle is not.
func ExampleFormat_Valid() {
	full := `{"items":[{"id":1},{"id":2}]}`
	for _, shown := range []string{full, full[:16]} {
		if ok, why := bench.FormatJSON.Valid(shown); ok {
			fmt.Printf("%q is valid\n", shown)
		} else {
			fmt.Printf("%q is not: %s\n", shown, why)
		}
	}
	// Output:
	// "{\"items\":[{\"id\":1},{\"id\":2}]}" is valid
	// "{\"items\":[{\"id\":" is not: JSON value 1 is cut off at the end of the text (byte 16)
}

// Run every strategy on a small corpus at a budget of 70 tokens and print
// what each one shows: the 3-pod list (about 80 tokens) does not fit. The
// char-cut overshoots the budget; the token cut fits but is no longer
// JSON; the 260-character output is under the preview's 2,000 characters,
// so the preview shows it whole, over the budget.
func ExampleHarness_Run() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "bench-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ctr, err := budget.NewCounter("o200k_base")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := host.New(ctx, host.WithStore(store), host.WithCounter(ctr), host.WithLazyPlugins(),
		host.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	qf, err := bench.LoadQuestions("testdata/example/pods.questions.yaml")
	if err != nil {
		log.Fatal(err)
	}
	h := &bench.Harness{Engine: eng, Budgets: []int{70}, PreviewDir: dir}
	rep, err := h.Run(ctx, []*bench.QuestionFile{qf})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rep.Results {
		fmt.Printf("%-12s shown=%-5v within=%-5v valid=%-5v from-view=%d/%d view-answerable=%d/%d\n", r.Strategy, r.Shown, r.WithinBudget, r.Valid, r.FromView, r.Questions, r.ViewAnswerable, r.Questions)
	}
	// Output:
	// compact      shown=true  within=true  valid=true  from-view=3/3 view-answerable=3/3
	// head+tail    shown=true  within=true  valid=false from-view=1/3 view-answerable=1/3
	// char-cut     shown=true  within=false valid=true  from-view=3/3 view-answerable=3/3
	// token-cut    shown=true  within=true  valid=false from-view=1/3 view-answerable=1/3
	// first-rows   shown=true  within=true  valid=true  from-view=2/3 view-answerable=2/3
	// preview+file shown=true  within=false valid=true  from-view=3/3 view-answerable=3/3
	// raw          shown=false within=false valid=false from-view=0/3 view-answerable=0/3
}
