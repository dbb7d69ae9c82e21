package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir is the bundled corpus, relative to this package.
const corpusDir = "../../../../testdata/captured"

var showAnswers = flag.Bool("answers", false, "print every ground-truth answer of the corpus")

var update = flag.Bool("update", false, "rewrite testdata/answers.golden.json from the corpus")

// goldenPath records every ground-truth answer of the corpus, so that a
// change of an output, a filter or gojq shows up in review.
const goldenPath = "testdata/answers.golden.json"

// allCategories are the outputs whose questions must cover every
// category.
var allCategories = map[string]bool{
	"npm-ls-all.json": true, "npm-view-vite.json": true, "go-test-shop.jsonl": true, "go-build-failed.txt": true,
	"apt-cache-show-node.txt": true, "tree-pip.json": true, "kubectl-pods-restarts.json": true, "github-search-repos.json": true,
	"gpg-list-keys-colons.txt": true, "update-alternatives.log": true, "make-p-database.txt": true,
	"redis-info-everything.txt": true, "yamllint-node-modules.txt": true, "ip-details-addr-lab.json": true,
	"pytest-v-rA-stdlib.txt": true, "coverage-json-stdlib.json": true, "cmake-trace-json-reconfigure.jsonl": true,
	"gcc-json-limited-api-fail.jsonl": true, "readelf-a-libcurl.txt": true, "objdump-dr-int-ops.txt": true,
	"valgrind-memcheck-leak.txt": true, "go-test-bench-count3.txt": true, "hyperfine-compressors.json": true,
	"mocha-json-license-checker.json": true,
}

// TestCorpus loads every questions file of the bundled corpus (validating
// each against the schema and compiling every filter) and computes every
// answer with gojq over the real captured output.
func TestCorpus(t *testing.T) {
	files, err := LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 12 {
		t.Errorf("corpus has %d questions files, want at least 12", len(files))
	}
	covered := map[string]bool{}
	tools := map[string]bool{}
	got := map[string]map[string]json.RawMessage{}
	total := 0
	for _, qf := range files {
		t.Run(filepath.Base(qf.Path), func(t *testing.T) {
			covered[filepath.Clean(qf.OutputPath)] = true
			tools[qf.Tool] = true
			if filepath.Dir(filepath.Clean(qf.OutputPath)) != filepath.Clean(corpusDir) {
				t.Errorf("output %s is not beside its questions file", qf.Output)
			}
			if want := strings.TrimSuffix(filepath.Base(qf.Path), QuestionsSuffix); !strings.HasPrefix(filepath.Base(qf.Output), want+".") {
				t.Errorf("output %s is not named %s.<ext> like its questions file", qf.Output, want)
			}
			if src, err := os.ReadFile(qf.Path); err != nil || !bytes.HasPrefix(src, []byte(header)) {
				t.Errorf("does not start with %q (err %v)", header, err)
			}
			if len(qf.Questions) < 8 {
				t.Errorf("%d questions, want at least 8", len(qf.Questions))
			}
			kinds := map[Kind]bool{}
			for _, q := range qf.Questions {
				kinds[q.Kind] = true
			}
			for _, k := range []Kind{"count", "lookup", "filter_count"} {
				if !kinds[k] {
					t.Errorf("no question of kind %s", k)
				}
			}
			// The outputs added for issue 11 ask all seven sorts of
			// question, so that every category is measured on each.
			if allCategories[filepath.Base(qf.Output)] {
				cats := map[Category]bool{}
				for _, q := range qf.Questions {
					cats[q.Cat()] = true
				}
				for _, c := range Categories {
					if !cats[c] {
						t.Errorf("no question of category %s", c)
					}
				}
			}
			orig, err := qf.ReadOutput()
			if err != nil {
				t.Fatal(err)
			}
			answers, err := qf.Answer(orig)
			if err != nil {
				t.Fatal(err)
			}
			if len(answers) != len(qf.Questions) {
				t.Fatalf("%d answers for %d questions", len(answers), len(qf.Questions))
			}
			total += len(answers)
			perFile := map[string]json.RawMessage{}
			got[filepath.Base(qf.Path)] = perFile
			for i, a := range answers {
				perFile[a.ID] = json.RawMessage(a.String())
				if a.ID != qf.Questions[i].ID {
					t.Errorf("answer %d is for %q, want %q", i, a.ID, qf.Questions[i].ID)
				}
				if *showAnswers {
					t.Logf("%-28s %-12s %s", a.ID, a.Kind, a.String())
				}
				// A value read from the output (not computed) must be
				// visible in the output itself: this checks the
				// visibility rule on real data.
				switch a.Kind {
				case "lookup", "first", "last", "distinct":
					if !a.VisibleIn(string(orig)) {
						t.Errorf("question %q: answer %s (%s) is not visible in the full output", a.ID, a.String(), a.Kind)
					}
					// The field-aware rule must hold on the full output
					// too, or it is stricter than the data allows. A
					// pretty-printed JSON record can be kilobytes long
					// (a pod), so JSON is checked in compact form (each
					// record on one line is what a faithful display of
					// records does).
					if !a.VisibleFor(oneLine(qf.Input, orig)) {
						t.Errorf("question %q: answer %s (%s) is not near its record %q in the full output", a.ID, a.String(), a.Kind, a.Record)
					}
				}
				if weakNeedle(a) && len(a.Record) == 0 {
					t.Errorf("question %q: answer %s needs a record (a small number or a boolean is no answer without its label)", a.ID, a.String())
				}
				// A record's identifier must be in the output (a typo
				// would make the question unanswerable); a label of a
				// count ("records", "sections") need not be.
				for _, r := range a.Record {
					if a.Category == CategoryRecord && len(occurrences(string(orig), r)) == 0 {
						t.Errorf("question %q: record %q does not occur in the output at word boundaries", a.ID, r)
					}
				}
			}
		})
	}
	// Every output in the corpus has its questions.
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), QuestionsSuffix) {
			continue
		}
		if !covered[filepath.Join(filepath.Clean(corpusDir), e.Name())] {
			t.Errorf("output %s has no questions file", e.Name())
		}
	}
	if len(tools) < 10 {
		t.Errorf("corpus covers %d tools, want at least 10", len(tools))
	}
	t.Logf("%d questions over %d outputs and %d tools", total, len(files), len(tools))

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if *update {
		if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (run go test -run TestCorpus -update to create it)", err)
	}
	if !bytes.Equal(b, want) {
		t.Errorf("answers differ from %s (if the change is intended, run go test -run TestCorpus -update and review the diff):\n%s", goldenPath, lineDiff(string(want), string(b)))
	}
}

// oneLine is the output as checked by the field-aware rule in TestCorpus:
// text as it is, JSON values compacted.
func oneLine(mode Input, orig []byte) string {
	if mode == InputLines {
		return string(orig)
	}
	var b bytes.Buffer
	dec := json.NewDecoder(bytes.NewReader(orig))
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			break
		}
		_ = json.Compact(&b, raw)
		b.WriteByte('\n')
	}
	return b.String()
}

// lineDiff lists the lines of got that are not in want and the reverse.
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// writeFile writes name under dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const header = "# yaml-language-server: $schema=../../schemas/questions.schema.json\n"

func TestLoadQuestionsErrors(t *testing.T) {
	cases := []struct {
		name  string
		yaml  string
		wants []string // substrings the error must contain
	}{
		{
			name: "jq does not parse",
			yaml: `output: out.json
tool: t
input: json
questions:
  - id: good
    question: how many?
    kind: count
    jq: length
  - id: broken-filter
    question: what?
    kind: lookup
    jq: '.items[] | select(.a =='
`,
			wants: []string{"bad.questions.yaml:9:", `question "broken-filter"`, "does not parse"},
		},
		{
			name: "missing output",
			yaml: `output: nowhere.json
tool: t
input: json
questions:
  - {id: n, question: "how many?", kind: count, jq: length}
`,
			wants: []string{"bad.questions.yaml", `output "nowhere.json"`, "no such file"},
		},
		{
			name: "unknown key and bad kind",
			yaml: `output: out.json
tool: t
input: json
questions:
  - id: first
    question: how many?
    kind: count
    jq: length
  - id: second
    question: what?
    kind: guess
    jq: .a
    expected: 3
`,
			wants: []string{"bad.questions.yaml:9:", `question "second"`, "/questions/1/kind", "expected"},
		},
		{
			name: "missing required field",
			yaml: `output: out.json
tool: t
questions:
  - {id: n, question: "how many?", jq: length}
`,
			wants: []string{"schema at /: missing property 'input'"},
		},
		{
			name: "question without kind",
			yaml: `output: out.json
tool: t
input: json
questions:
  - {id: n, question: "how many?", jq: length}
`,
			wants: []string{"bad.questions.yaml:5:", `question "n"`, "missing property 'kind'"},
		},
		{
			name: "duplicate id",
			yaml: `output: out.json
tool: t
input: json
questions:
  - {id: n, question: "how many?", kind: count, jq: length}
  - {id: n, question: "how many again?", kind: count, jq: length}
`,
			wants: []string{"bad.questions.yaml:6:", `question "n"`, "duplicate id (first at line 5)"},
		},
		{
			name: "schema error and jq error reported together",
			yaml: `output: out.json
tool: t
input: json
questions:
  - {id: a, question: q, kind: count, jq: '.items[] | select(.a =='}
  - {id: b, question: q, kind: guess, jq: '.'}
`,
			wants: []string{"bad.questions.yaml:5: question \"a\"", "unexpected EOF", "bad.questions.yaml:6: question \"b\"", "value must be one of"},
		},
		{
			name:  "not YAML",
			yaml:  "output: [unclosed\n",
			wants: []string{"bad.questions.yaml", "parse YAML"},
		},
		{
			name:  "empty",
			yaml:  "",
			wants: []string{"bad.questions.yaml", "empty file"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "out.json", `{"a": 1}`)
			p := writeFile(t, dir, "bad.questions.yaml", c.yaml)
			qf, err := LoadQuestions(p)
			if err == nil {
				t.Fatalf("loaded %+v, want an error", qf)
			}
			for _, w := range c.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			var qe *QuestionError
			if !errors.As(err, &qe) || qe.File != p {
				t.Errorf("error %v is not a *QuestionError naming %s", err, p)
			}
		})
	}
}

func TestAnswerErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "out.json", `{"items": [{"id": "a", "n": 1}, {"id": "b", "n": null}]}`)
	p := writeFile(t, dir, "x.questions.yaml", header+`output: out.json
tool: t
input: json
questions:
  - {id: ok, question: "how many?", kind: count, jq: '.items | length'}
  - {id: errors-on-output, question: "what?", kind: lookup, jq: '.items.id'}
  - {id: two-results, question: "which?", kind: lookup, jq: '.items[].id'}
  - {id: null-result, question: "n of b?", kind: lookup, jq: '.items[1].n'}
  - {id: no-result, question: "c?", kind: lookup, jq: '.items[] | select(.id == "c") | .n'}
  - {id: object-result, question: "a?", kind: lookup, jq: '.items[0]'}
  - {id: empty-string, question: "s?", kind: lookup, jq: '""'}
`)
	qf, err := LoadQuestions(p)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := qf.ReadOutput()
	if err != nil {
		t.Fatal(err)
	}
	answers, err := qf.Answer(orig)
	if len(answers) != 1 || answers[0].ID != "ok" || answers[0].String() != "2" {
		t.Errorf("answers = %+v, want only ok = 2", answers)
	}
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, w := range []string{
		`x.questions.yaml:7: question "errors-on-output": jq ".items.id" fails on the output: expected an object but got: array`,
		`x.questions.yaml:8: question "two-results": jq ".items[].id" gives more than one result`,
		`x.questions.yaml:9: question "null-result"`, "null (want a value)",
		`x.questions.yaml:10: question "no-result"`, "gives no result",
		`question "object-result"`, "an object (want a scalar)",
		`question "empty-string"`, "empty string",
	} {
		if !strings.Contains(msg, w) {
			t.Errorf("error does not contain %q:\n%s", w, msg)
		}
	}
}

func TestAnswerBadOutput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "out.json", "{\"a\": 1,\n \"b\": }")
	p := writeFile(t, dir, "x.questions.yaml", `output: out.json
tool: t
input: json
questions:
  - {id: n, question: "how many?", kind: count, jq: length}
`)
	qf, err := LoadQuestions(p)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := qf.ReadOutput()
	if err != nil {
		t.Fatal(err)
	}
	_, err = qf.Answer(orig)
	if err == nil || !strings.Contains(err.Error(), "x.questions.yaml") || !strings.Contains(err.Error(), "line 2, column 7") {
		t.Errorf("error = %v, want one naming the file and line 2, column 7", err)
	}
	_, err = qf.Answer([]byte(`{"a":1} {"b":2}`))
	if err == nil || !strings.Contains(err.Error(), "use input: values") {
		t.Errorf("error = %v, want a hint to use input: values", err)
	}
}

func TestLoadCorpusErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadCorpus(dir); !errors.Is(err, ErrEmptyCorpus) {
		t.Errorf("empty corpus: error = %v, want ErrEmptyCorpus", err)
	}
	if _, err := LoadCorpus(filepath.Join(dir, "absent")); err == nil || !strings.Contains(err.Error(), "absent") {
		t.Errorf("absent corpus: error = %v", err)
	}
	writeFile(t, dir, "a.json", `[]`)
	writeFile(t, dir, "a.questions.yaml", "output: a.json\ntool: t\ninput: json\nquestions:\n  - {id: n, question: q, kind: count, jq: length}\n")
	writeFile(t, dir, "b.questions.yaml", "output: b.json\ntool: t\ninput: json\nquestions:\n  - {id: n, question: q, kind: count, jq: '('}\n")
	_, err := LoadCorpus(dir)
	if err == nil || !strings.Contains(err.Error(), "b.questions.yaml:5: question \"n\"") || !strings.Contains(err.Error(), `output "b.json"`) {
		t.Errorf("error = %v, want both problems of b.questions.yaml", err)
	}
}

func TestFeed(t *testing.T) {
	cases := []struct {
		mode Input
		in   string
		want string // the fed value as jq prints it
	}{
		{InputLines, "a\nb\n", `["a","b"]`},
		{InputLines, "a\r\nb", `["a","b"]`},
		{InputLines, "a\n\nb\n\n", `["a","","b",""]`},
		{InputLines, "", `[]`},
		{InputLines, "\n", `[""]`},
		{InputLines, "caf\xe9\n", `["caf` + "\uFFFD" + `"]`},
		{InputValues, "{\"a\":1}\n{\"a\":2}\n", `[{"a":1},{"a":2}]`},
		{InputValues, `{"a":1}{"a":2} 3`, `[{"a":1},{"a":2},3]`},
		{InputValues, "", `[]`},
		{InputJSON, ` {"n": 12345678901234567890} `, `{"n":12345678901234567890}`},
	}
	for _, c := range cases {
		v, err := Feed(c.mode, []byte(c.in))
		if err != nil {
			t.Errorf("Feed(%s, %q): %v", c.mode, c.in, err)
			continue
		}
		if got := (Answer{Value: v}).String(); got != c.want {
			t.Errorf("Feed(%s, %q) = %s, want %s", c.mode, c.in, got, c.want)
		}
	}
	for _, bad := range []struct {
		mode Input
		in   string
	}{{InputJSON, ""}, {InputJSON, "[1,"}, {InputValues, "{} {"}, {"csv", "a,b"}} {
		if _, err := Feed(bad.mode, []byte(bad.in)); err == nil {
			t.Errorf("Feed(%s, %q): no error", bad.mode, bad.in)
		}
	}
}

func TestVisibleIn(t *testing.T) {
	cases := []struct {
		value   any
		content string
		want    bool
	}{
		{"Running", "phase: Running", true},
		{"Running", "phase: NotRunning", false},
		{"run", "phase: Running", false},
		{"18.2.0", `"18.2.0": "2024-02-23"`, true},
		{"18.2.0", `"18.2.0-rc.1"`, true}, // '-' is a boundary
		{"18.2.0", `"118.2.0"`, false},
		{12, "12 records", true},
		{12, "count=12", true},
		{12, "112 records", false},
		{12, "12.5 seconds", false},
		{12, "version 12.", true},
		{12, "1.12", false},
		// A number after a number and a colon is part of that run
		// (heldout12w npm ci: the column of "reify.js:353:11").
		{11, "reify.js:353:11)", false},
		{353, "reify.js:353:11)", true},
		{30, "at 12:30", false},
		// ... and a number between dashes after a number is the middle of
		// a date ("11" of "2026-11-26"); the year still is a number.
		{11, "_logs/2026-11-26T01_44", false},
		{2026, "_logs/2026-11-26T01_44", true},
		{true, `"ready": true`, true},
		{`say "hi"`, `{"msg":"say \"hi\""}`, true},
		{"C:\\temp", `{"p":"C:\\temp"}`, true},
		{[]any{"a", "b"}, "a, b", true},
		{[]any{"a", "b"}, "a, c", false},
		{"/usr/share/doc", "/usr/share/doc/bash", true},
		// The tail of a longer name joined the same way is another name
		// (heldout8: openssl's last suite PSK-NULL-SHA "seen" in
		// ECDHE-PSK-NULL-SHA, npm explain's node_modules/semver in
		// node_modules/make-dir/node_modules/semver).
		{"PSK-NULL-SHA", "ECDHE-PSK-NULL-SHA           TLSv1", false},
		{"PSK-NULL-SHA", "PSK-NULL-SHA                 SSLv3", true},
		{"node_modules/semver", "node_modules/make-dir/node_modules/semver", false},
		{"node_modules/semver", "282\tnode_modules/semver", true},
		// A relative path is the tail of the same file's absolute path
		// (the final set, session 12: a file's line numbers on records
		// that carry its absolute path were "not near" its relative one).
		{"pkg/x.py", "/usr/lib/python3/dist-packages/pkg/x.py:12: W0611", true},
		{"node_modules/semver", "/tmp/app/node_modules/make-dir/node_modules/semver", false},
		// The tail of a relative path, or of a vendored copy, is another
		// package (second read, session 12).
		{"net/http", "vendor/golang.org/x/net/http/httpguts\t12", false},
		{"src/main.go", "/home/u/other/vendor/src/main.go:3: error", false},
		{"crypto/rand", "vendor/golang.org/x/crypto/rand", false},
		{"example.com", "www.example.com", false},
		{"semver", "node_modules/semver", true},     // a joiner the needle lacks still bounds it
		{"2024-02", `"2024-02-03T10:00:00Z"`, true}, // the head: the month of a date
		{"01-05", "2024-01-05", true},               // a digit before the joiner: parts of one number
		{"ünïcode", "xünïcode", false},
		// Letters in any script are word characters; punctuation outside
		// ASCII is not (gcc quotes names in ‘’; heldout4's gcc-make-kilo
		// "busiest function" was invisible in "In function ‘editorRefreshScreen’:").
		{"editorRefreshScreen", "kilo.c: In function ‘editorRefreshScreen’:", true},
		{"buf", "declaration of ‘buf’ shadows a previous local", true},
		{"Pins", "IPFS » Pins", true},
		{"naïve", "«naïve»", true},
		{"na", "naïve", false},
		{"ve", "naïve", false},
		{"Straße", "Straßen", false},
		{12, "12€", true},
		{12, "１2", false}, // a fullwidth digit is a digit
		{9000, "9,000 records", true},
		{9000, "collection . (jsonl): 9,000 records", true},
		{9000, "19,000 records", false},
		{9000, "9,000,1", false},
		{9000, "9,000.5", false},
		{1234567, "1,234,567 bytes", true},
		{1234567, "1,234,56", false},
		{-4096, "delta -4,096", true},
		{288, "288 pods", true},
	}
	for _, c := range cases {
		n, err := needlesOf(c.value)
		if err != nil {
			t.Fatal(err)
		}
		a := Answer{Value: c.value, Needles: n}
		if got := a.VisibleIn(c.content); got != c.want {
			t.Errorf("%v visible in %q = %v, want %v", c.value, c.content, got, c.want)
		}
	}
	if (Answer{}).VisibleIn("anything") {
		t.Error("an answer without needles is visible")
	}
}

// TestSchemaMatchesConstants guards against drift between the schema's
// enums and the Go constants.
func TestSchemaMatchesConstants(t *testing.T) {
	raw, err := os.ReadFile("../../../../schemas/questions.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Input struct{ Enum []string } `json:"input"`
		} `json:"properties"`
		Defs struct {
			Question struct {
				Properties struct {
					Kind struct{ Enum []string } `json:"kind"`
				} `json:"properties"`
			} `json:"question"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	kinds := []Kind{KindCount, KindLookup, KindFilterCount, KindMax, KindMin, KindSum, KindDistinct, KindExists, KindFirst, KindLast}
	if got, want := fmt.Sprint(s.Defs.Question.Properties.Kind.Enum), fmt.Sprint(kinds); got != want {
		t.Errorf("schema kinds %s, constants %s", got, want)
	}
	inputs := []Input{InputJSON, InputValues, InputLines}
	if got, want := fmt.Sprint(s.Properties.Input.Enum), fmt.Sprint(inputs); got != want {
		t.Errorf("schema inputs %s, constants %s", got, want)
	}
	for _, in := range inputs {
		if _, err := Feed(in, []byte("[]")); err != nil {
			t.Errorf("Feed(%s): %v", in, err)
		}
	}
}

// A record that is one JSON object on its line (rclone lsjson, JSON lines)
// holds its own fields, whatever "; " a string of it contains ("MimeType":
// "text/plain; charset=utf-8" is no boundary between lists).
func TestVisibleForOwnJSONLineWithSemicolonInAValue(t *testing.T) {
	s := "[\n" +
		`{"Path":"d/a.txt","Name":"a.txt","Size":1740,"MimeType":"text/plain; charset=utf-8","ModTime":"2025-03-10T00:22:33.1Z","IsDir":false,"Hashes":{"md5":"ac36c7bd2c2bfb7aac84a53b55643cc1"}},` + "\n" +
		`{"Path":"d/b.png","Name":"b.png","Size":1777,"MimeType":"image/png","ModTime":"2025-04-11T01:23:33.1Z","IsDir":false,"Hashes":{"md5":"04edefae58297df923e68001072a8a46"}}` + "\n]\n"
	for _, n := range []string{"1740", "2025-03-10T00:22:33.1Z", "ac36c7bd2c2bfb7aac84a53b55643cc1"} {
		a := Answer{Kind: KindLookup, Category: CategoryRecord, Record: []string{"d/a.txt"}, Needles: []string{n}}
		if !a.VisibleFor(s) {
			t.Errorf("%s on the line of d/a.txt is not visible for it", n)
		}
	}
	// Another record's line still does not answer for it.
	a := Answer{Kind: KindLookup, Category: CategoryRecord, Record: []string{"d/a.txt"}, Needles: []string{"04edefae58297df923e68001072a8a46"}}
	if a.VisibleFor(s) {
		t.Errorf("b.png's md5 counts for d/a.txt")
	}
}
