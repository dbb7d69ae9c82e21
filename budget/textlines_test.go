package budget_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// lineCases are texts whose line count level 1 once got wrong, or could:
// an empty last line (go doc ends its output with "\n\n"), runs of blank
// lines at the end, no final newline, CRLF, a lone "\r", fold markers,
// white space other than " \t\r\n" only.
var lineCases = map[string]string{
	"empty last line":         "a\n\n",
	"two empty last lines":    "a\n\n\n",
	"blank run at the end":    "a\n" + strings.Repeat("\n", 40),
	"only newlines":           "\n\n\n",
	"no final newline":        "a\nb",
	"crlf empty last line":    "a\r\n\r\n",
	"lone cr last line":       "a\n\r",
	"marker-like empty lines": "[×2] x\n\n[×2] x\n\n",
	"form feed":               "\f",
	"nbsp":                    "\u00a0\n",
	"long then empty":         strings.Repeat("x", 300) + "\n\n",
}

// TestTextLevel1LineCounts checks that level 1 keeps every line of text,
// including an empty last line, for each shape of lineCases and with and
// without shortening: CheckOutput (the pipeline's own re-count) accepts
// the output, and the output has as many lines as the input.
func TestTextLevel1LineCounts(t *testing.T) {
	for name, s := range lineCases {
		for _, max := range []int{0, 10} {
			data := []byte(s)
			shape, err := budget.DetectShape(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := budget.Declarative().Compact(context.Background(), budget.Request{Input: data,
				Rules: budget.Rules{Defaults: true, StringsMax: max}})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := budget.CheckOutput(shape, out); err != nil {
				t.Errorf("%s (strings max %d): %v\ninput %q\noutput %q", name, max, err, data, out.Content)
			}
		}
	}
	// The exact count of the shape that failed: 2 lines, "a" and "".
	s, _ := budget.DetectShape([]byte("a\n\n"), nil)
	if s.Collections[0].Count != 2 {
		t.Errorf(`"a\n\n" has %d lines, want 2`, s.Collections[0].Count)
	}
	bad := budget.Output{Content: []byte("a\n"), ContentType: budget.TypeText}
	if err := budget.CheckOutput(s, bad); err == nil {
		t.Error(`CheckOutput accepted "a\n" for "a\n\n": the empty last line is a line`)
	}
}

// TestGoDocLineCount is the regression test of "3,005 vs 3,006 lines":
// go doc -all net/http ends with an empty line, which level 1 dropped
// when it removed the final newline. Level 1 must keep all 3,006 lines at
// every budget and shortening, and say so.
func TestGoDocLineCount(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/go-doc-net-http.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, []byte("\n\n")) {
		t.Fatal("the capture no longer ends with an empty line; this test needs one")
	}
	shape, err := budget.DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := shape.Collections[0].Count; n != 3006 {
		t.Fatalf("DetectShape counts %d lines, want 3006 (wc -l)", n)
	}
	for _, max := range []int{0, 40, 2000} {
		out, err := budget.Declarative().Compact(context.Background(), budget.Request{Input: data,
			Rules: budget.Rules{Defaults: true, StringsMax: max}})
		if err != nil {
			t.Fatal(err)
		}
		if err := budget.CheckOutput(shape, out); err != nil {
			t.Errorf("strings max %d: %v", max, err)
		}
		if !bytes.HasSuffix(out.Content, []byte("\n\n")) {
			t.Errorf("strings max %d: the output lost the empty last line: ends %q", max, out.Content[len(out.Content)-20:])
		}
	}
	// Through Run, at the budgets of the report: level 1 fails or fits,
	// but never with a plugin_failed or count error.
	c := newCounter(t)
	p := budget.NewPipeline(c)
	for _, b := range []int{2000, 4000, 8000, 16000, 40000} {
		r, err := p.Run(context.Background(), budget.Input{Tool: "go.doc", Data: data, Budget: b,
			Rules: budget.Rules{Defaults: true, StringsMax: 40}})
		if err != nil && !strings.Contains(err.Error(), "cannot fit") {
			t.Errorf("budget %d: %v", b, err)
		}
		for _, a := range r.Actions {
			if a.Kind == "plugin_failed" {
				t.Errorf("budget %d: %+v", b, a)
			}
		}
		if err == nil && r.Collections[0].Count != 3006 {
			t.Errorf("budget %d: %d lines", b, r.Collections[0].Count)
		}
	}
}

// TestInvalidUTF8IsLossy checks that text with invalid UTF-8 is never
// shown as it is: level 1 replaces each bad byte sequence with U+FFFD, and
// this counts as lossy: the notice states how many bytes (one U+FFFD
// each, so the count matches what the reader sees), and the
// original is stored (with a store) so the exact bytes come back.
func TestInvalidUTF8IsLossy(t *testing.T) {
	data := []byte("caf\xe9 au lait\nna\xff\xfeve\nplain\n")
	p, _, st := storePipeline(t)
	r, err := p.Run(context.Background(), budget.Input{Tool: "t", Data: data, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Level != schemas.LevelFields {
		t.Fatalf("level %s, want fields", r.Level)
	}
	notice, payload := budget.SplitNotice(r.Content)
	if !strings.Contains(notice, "3 bytes that are not UTF-8 shown as U+FFFD, one per run of them") {
		t.Errorf("notice %q does not state the 3 bytes replaced", notice)
	}
	if want := "caf\uFFFD au lait\nna\uFFFDve\nplain\n"; payload != want {
		t.Errorf("payload %q, want %q", payload, want)
	}
	if r.Artifact == nil || !strings.Contains(notice, budget.RefOf(r.Artifact.Handle)) {
		t.Fatalf("artifact %+v not set or not named in %q", r.Artifact, notice)
	}
	rc, _, err := st.Open(context.Background(), budget.Handle(r.Artifact.Handle))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(orig, data) {
		t.Fatalf("artifact holds %q (%v), want the original bytes %q", orig, err, data)
	}
	found := false
	for _, a := range r.Actions {
		if a.Kind == budget.ActInvalidUTF8 {
			found = a.Count == 3
		}
	}
	if !found {
		t.Errorf("no %s action with count 3 in %+v", budget.ActInvalidUTF8, r.Actions)
	}

	// Without a store the notice says the original was not stored.
	c, _ := budget.NewCounter("")
	r, err = budget.NewPipeline(c).Run(context.Background(), budget.Input{Tool: "t", Data: data, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	notice, _ = budget.SplitNotice(r.Content)
	if r.Artifact != nil || !strings.Contains(notice, "3 bytes that are not UTF-8") || !strings.Contains(notice, "full original not stored") {
		t.Errorf("without a store: artifact %+v, notice %q", r.Artifact, notice)
	}
}
