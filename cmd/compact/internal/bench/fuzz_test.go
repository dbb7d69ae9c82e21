package bench

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
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

// FuzzBaselines runs the token cut and the first-rows baseline on
// arbitrary outputs with the real tokenizer: they never panic, always fit
// the budget, and show a prefix of the original (token cut) or valid JSON
// when they claim it (first rows of a JSON collection).
func FuzzBaselines(f *testing.F) {
	f.Add([]byte(`{"items":[{"id":1,"s":"a"},{"id":2,"s":"b"}]}`), uint16(8))
	f.Add([]byte(`[1,2,3,{"a":[4,5]}]`), uint16(3))
	f.Add([]byte("{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n"), uint16(5))
	f.Add([]byte(`{"time":{"1.0.0":"2020","1.0.1":"2021","1.0.2":"2022","1.0.3":"2023","1.1.0":"2024","1.2.0":"2025","2.0.0":"2026","2.1.0":"2027"}}`), uint16(12))
	f.Add([]byte("line one\nline two\nlíne three\n"), uint16(2))
	f.Add([]byte("caf\xc3\xa9 \xff\xfe"), uint16(1))
	ctr, err := budget.NewCounter("")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, b uint16) {
		if len(data) > 2048 || b == 0 || b > 400 {
			return
		}
		budgetTokens := int(b)
		sh := tokenCut(string(data), FormatText, budgetTokens, ctr)
		if sh.claim != FormatNone {
			if n := ctr.Count(sh.content); n > budgetTokens {
				t.Fatalf("token cut: %d tokens over %d", n, budgetTokens)
			}
			if !strings.HasPrefix(string(data), sh.body) || !strings.HasSuffix(sh.content, sh.body) {
				t.Fatalf("token cut body %q is not a prefix of the input shown last", sh.body)
			}
		}
		fr, err := firstRows(data, FormatText, budgetTokens, ctr)
		if err != nil {
			return // shapes DetectShape refuses are reported, not shown
		}
		if n := ctr.Count(fr.content); n > budgetTokens && fr.content != "[]" && fr.content != "{}" {
			t.Fatalf("first rows: %d tokens over %d", n, budgetTokens)
		}
		if fr.claim == FormatJSON {
			if ok, why := FormatJSON.Valid(fr.body); !ok && utf8.Valid(data) {
				t.Fatalf("first rows claim JSON but %q is not: %s", fr.body, why)
			}
		}
	})
}

// FuzzSuggestedQueries feeds arbitrary view text to the parser of the
// follow-up queries a view suggests: it must never panic, every query it
// returns refers to the view's handle, and the command it prints parses
// back to the same query.
func FuzzSuggestedQueries(f *testing.F) {
	const h = "3d38d105ebf2"
	f.Add("get the rest:\n  compact artifact query 3d38d105ebf2 --jq '.items[] | .metadata.name'\n")
	f.Add("  read_artifact {\"ref\":\"3d38d105ebf2\",\"op\":\"slice\",\"offset\":0,\"limit\":50}\n")
	f.Add("compact artifact search 3d38d105ebf2 \"it's \\\"x\\\"\" --limit 5 | head\n")
	f.Add("compact artifact slice 3d38d105ebf2.items --offset=40 --limit=10 --path .items\n")
	f.Add("compact artifact query 3d38d105ebf2 --jq '")
	f.Add("read_artifact {\"ref\":\"3d38d105ebf2\",\"op\":\"search\",\"query\":\"x\"")
	f.Fuzz(func(t *testing.T, view string) {
		for _, q := range SuggestedQueries(view, h) {
			if !strings.HasPrefix(q.Ref, h) {
				t.Fatalf("query %+v is not about the handle", q)
			}
			back := SuggestedQueries(q.String(), h)
			if len(back) != 1 || back[0] != q {
				t.Fatalf("%q parses back to %+v, want %+v", q.String(), back, q)
			}
		}
	})
}

// FuzzVisibleFor: the field-aware rule never panics and is never looser
// than the word-boundary rule it refines.
func FuzzVisibleFor(f *testing.F) {
	f.Add("ledger-db-1\tRunning\t10.0.0.7\n", "10.0.0.7", "ledger-db-1", true)
	f.Add("12\tPackage: curl\n13\tVersion: 7.88\n", "7.88", "curl", true)
	f.Add("status.phase: Running 40, Pending 3\n", "3", "Pending", false)
	f.Add("{\"a\":1}\n{\"b\":3}", "3", "a", false)
	f.Fuzz(func(t *testing.T, content, needle, record string, field bool) {
		if needle == "" || record == "" {
			return
		}
		a := Answer{Needles: []string{needle}, Record: []string{record}}
		if field {
			a.Category = CategoryRecord
		}
		if a.VisibleFor(content) && !a.VisibleIn(content) {
			t.Fatalf("visible near %q but not at word boundaries: %q in %q", record, needle, content)
		}
	})
}
