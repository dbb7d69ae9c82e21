package view

import (
	"os"
	"strings"
	"testing"
)

// The scaffolding of the package's own tests, once (they cannot import
// budget, which imports this package: helpers_test.go has the external
// tests' version, with budget.DetectShape): a text's Input as level 2
// builds it, its View, and the view filled with a counter of bytes.

// readCapture reads a capture of testdata/captured, or one kept beside
// the view's tests when name starts with "testdata/"; an error fails the
// test.
func readCapture(t testing.TB, name string) []byte {
	t.Helper()
	path := "../../testdata/captured/" + name
	if strings.HasPrefix(name, "testdata/") {
		path = name // captured for this package alone
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readTestdata reads a capture kept beside the view's tests.
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	return readCapture(t, "testdata/"+name)
}

// textInput is the Input of a text as level 2 builds it: one collection
// of its lines, tool "t", handle "0123456789ab", budget b.
func textInput(data []byte, b int) Input {
	return Input{Tool: "t", ContentType: "text/plain", Format: "text", Data: data, Handle: "0123456789ab", Budget: b,
		Collections: []Collection{{Path: ".", Kind: "lines", Count: countLines(data)}}}
}

// buildText builds the view of textInput(data, b); an error fails the
// test.
func buildText(t testing.TB, data []byte, b int) *View {
	t.Helper()
	v, err := Build(textInput(data, b))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// fillText builds the view of a text and fills it to budget with a
// counter of one token per 4 bytes.
func fillText(t *testing.T, data []byte, budget int) string {
	t.Helper()
	f, err := buildText(t, data, budget).Fill(byteCounter{}, budget)
	if err != nil {
		t.Fatal(err)
	}
	return f.Text
}

// profiledColl profiles collection c of in as addRecords does: its
// records read in the profile's own walk, with the tracker that gathers
// what the choice of rows needs. An error fails the test.
func profiledColl(t testing.TB, in Input, c Collection) *coll {
	t.Helper()
	k := &coll{in: in, c: c, p: NewProfile(c.Kind == "map"), rows: map[int]*row{}}
	k.t = newTracker(k)
	k.p.t = k.t
	if err := k.profileRecords(); err != nil {
		t.Fatal(err)
	}
	k.p.Finish()
	return k
}

// selectedColl is profiledColl with the columns and the rows chosen: the
// state the tests of the selection look into.
func selectedColl(t testing.TB, in Input, c Collection) *coll {
	t.Helper()
	k := profiledColl(t, in, c)
	k.chooseColumns()
	k.selectRows()
	return k
}

// byteCounter counts one token per 4 bytes: a fast stand-in for the
// tokenizer, which this package's tests cannot import.
type byteCounter struct{}

func (byteCounter) Count(s string) int { return (len(s) + 3) / 4 }

// wordCounter counts words: a stand-in whose counts add up like tokens.
type wordCounter struct{}

func (wordCounter) Count(s string) int { return len(strings.Fields(s)) }
