package bench_test

import (
	"fmt"
	"log"

	"github.com/toolcompact/compact/cmd/compact/internal/bench"
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
