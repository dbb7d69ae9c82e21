package budget

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/view"
)

// capturedJSON returns the JSON outputs of testdata/captured by name.
func capturedJSON(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "captured", "*.json*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no captured JSON outputs: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	return out
}

// TestViewReadsRecordsInItsOwnWalk: with the collection's text known
// (level 1's walk has it), the view reads an array's or a stream's
// records in the profile's walk and never calls Each, which scanned
// every record once more before the profile did (and skipped the whole
// collection once more for the facts around it); the view is the same
// text at every budget as the one read through Each.
func TestViewReadsRecordsInItsOwnWalk(t *testing.T) {
	c := counter(t)
	errCalled := errors.New("Each called")
	oneWalk := 0
	for name, data := range capturedJSON(t) {
		sh, err := DetectShape(data, nil)
		if err != nil || sh.Format == FormatText {
			t.Fatalf("%s: %v (%s)", name, err, sh.Format)
		}
		in := viewInput(data, sh, 4000)
		bare := viewInput(data, sh, 4000)
		for i := range bare.Collections {
			bare.Collections[i].Text = nil
		}
		for i, col := range in.Collections {
			if col.Kind == "map" || len(col.Text) == 0 {
				continue
			}
			if !strings.Contains(col.Path, "[]") && col.Kind != "jsonl" && col.Kind != "concat" && (col.Text[0] != '[' || col.Text[len(col.Text)-1] != ']') {
				t.Errorf("%s %s: the text is not the array: %.40q", name, col.Path, col.Text)
			}
			oneWalk++
			in.Collections[i].Each = func(func(int, []byte) error) error { return errCalled }
		}
		v, err := view.Build(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, err := view.Build(bare)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, budget := range []int{2000, 4000, 8000} {
			f, err1 := v.Fill(c, budget)
			g, err2 := w.Fill(c, budget)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s at %d: %v, %v", name, budget, err1, err2)
			}
			if f.Text != g.Text {
				t.Errorf("%s at %d: the view read in one walk differs from the view read through Each", name, budget)
			}
		}
	}
	if oneWalk < 10 {
		t.Errorf("only %d collections were read in the profile's walk", oneWalk)
	}
}

// TestCollectionText: the collection's text is given only where it is
// one slice of the input, and is exactly that value.
func TestCollectionText(t *testing.T) {
	for _, tc := range []struct {
		data, path, want string
	}{
		{`{"a": 1, "items": [{"x": 1}, {"x": 2}, {"x": 3}], "b": 2}`, ".items", `[{"x": 1}, {"x": 2}, {"x": 3}]`},
		{` [1, 2, 3, 4] `, ".", `[1, 2, 3, 4]`},
		{"{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", ".", "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n"},
		{`[{"c": [1, 2, 3]}, {"c": [4, 5, 6]}]`, ".[].c", ""}, // at two places
	} {
		data := []byte(tc.data)
		sh, err := DetectShape(data, []string{tc.path})
		if err != nil {
			t.Fatalf("%s: %v", tc.data, err)
		}
		got := collectionText(data, sh, tc.path)
		if string(got) != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.data, tc.path, got, tc.want)
		}
		if other := append([]byte(nil), data...); collectionText(other, sh, tc.path) != nil {
			t.Errorf("%s: a text given for data the shape was not made of", tc.data)
		}
	}
}
