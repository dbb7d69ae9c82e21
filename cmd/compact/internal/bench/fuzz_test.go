package bench

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseQuestions feeds arbitrary bytes to the questions-file parser:
// it must never panic, and every problem it reports is a *QuestionError
// naming the file.
func FuzzParseQuestions(f *testing.F) {
	f.Add([]byte("output: a.json\ntool: t\ninput: json\nquestions:\n  - {id: n, question: q, kind: count, jq: length}\n"))
	f.Add([]byte("output: a.json\ntool: t\ninput: lines\nquestions:\n  - {id: n, question: q, kind: lookup, jq: '.[0] | ('}\n"))
	f.Add([]byte("questions: [{id: a}, {id: a}]\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte("{1: 2}\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		qf, errs := parseQuestions("fuzz.questions.yaml", src)
		for _, err := range errs {
			var qe *QuestionError
			if !errors.As(err, &qe) || qe.File != "fuzz.questions.yaml" {
				t.Fatalf("error %v does not name the file", err)
			}
		}
		if qf == nil && len(errs) == 0 {
			t.Fatal("no file and no error")
		}
		if qf != nil && len(errs) == 0 {
			for _, q := range qf.Questions {
				if q.code == nil || q.ID == "" {
					t.Fatalf("question %+v accepted without a compiled filter or an id", q)
				}
			}
		}
	})
}

// FuzzFeedLines checks the lines input mode: one element per line, and the
// lines joined again give back the (valid UTF-8, CR-free) input.
func FuzzFeedLines(f *testing.F) {
	for _, s := range []string{"", "\n", "a\nb\n", "a\r\nb", "caf\xe9", "\n\n\n", "no newline"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		v, err := Feed(InputLines, in)
		if err != nil {
			t.Fatal(err)
		}
		lines := v.([]any)
		s := string(in)
		if !utf8.ValidString(s) || strings.Contains(s, "\r") {
			return
		}
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l.(string))
			b.WriteByte('\n')
		}
		want := s
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if b.String() != want {
			t.Fatalf("lines %q do not give back %q", lines, s)
		}
	})
}

// FuzzVisibleIn checks the visibility rule: a needle surrounded by spaces is
// always visible, and VisibleIn never panics.
func FuzzVisibleIn(f *testing.F) {
	f.Add("Running", "phase: Running")
	f.Add("12", "1.12.5")
	f.Add("ü", "xüx")
	f.Add(`a"b`, `"a\"b"`)
	f.Fuzz(func(t *testing.T, needle, content string) {
		if needle == "" || !utf8.ValidString(needle) {
			return
		}
		a := Answer{Value: needle, Needles: []string{needle}}
		a.VisibleIn(content)
		if !a.VisibleIn(content + " " + needle + " ") {
			t.Fatalf("%q not visible when surrounded by spaces", needle)
		}
	})
}
