package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/itchyny/gojq"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolcompact/compact/schemas"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"
)

// QuestionsSuffix ends the name of every questions file. A corpus directory
// holds <name>.<ext> outputs and, beside each, <name>.questions.yaml.
const QuestionsSuffix = ".questions.yaml"

// MaxOutputBytes caps the size of an output whose ground truth is computed:
// gojq builtins such as sort cannot be interrupted, so the input is bounded.
const MaxOutputBytes = 64 << 20

// MaxAnswerElements caps the length of an array answer, so that a harness
// can check whether the whole answer is visible.
const MaxAnswerElements = 50

// QuestionTimeout bounds the run of one filter.
const QuestionTimeout = 30 * time.Second

// ErrEmptyCorpus is returned by LoadCorpus for a directory with no
// questions files.
var ErrEmptyCorpus = errors.New("no questions files")

// Input says how an output is fed to jq; see schemas/questions.schema.json.
type Input string

// The input modes.
const (
	// InputJSON: the output is one JSON value.
	InputJSON Input = "json"
	// InputValues: the output is a sequence of JSON values (JSON Lines or
	// concatenated), collected into one array as `jq -s` does.
	InputValues Input = "values"
	// InputLines: the output is text, fed as an array of its lines.
	InputLines Input = "lines"
)

// Kind says what sort of answer a question has.
type Kind string

// The kinds a questions file may use (the schema's enum).
const (
	KindCount       Kind = "count"        // records of a collection
	KindLookup      Kind = "lookup"       // a field of one record picked by id or position
	KindFilterCount Kind = "filter_count" // records matching a condition
	KindMax         Kind = "max"          // the record or value with the largest field
	KindMin         Kind = "min"          // the record or value with the smallest field
	KindSum         Kind = "sum"          // a total over a field
	KindDistinct    Kind = "distinct"     // the set of distinct values of a field
	KindExists      Kind = "exists"       // whether some record matches
	KindFirst       Kind = "first"        // a field of the first record
	KindLast        Kind = "last"         // a field of the last record
)

// Category is which of the seven sorts of question a user asks about an
// output a question is; the report counts answers per category.
type Category string

// The categories a questions file may use (the schema's enum), in report
// order.
const (
	CategoryHowMany      Category = "how_many"     // how many records, in total or per type
	CategoryRecord       Category = "record"       // a field of one record in the middle, by name or id
	CategoryAnomaly      Category = "anomaly"      // the one that failed, is not running; the error
	CategoryExtremes     Category = "extremes"     // largest, newest, oldest
	CategoryFacts        Category = "facts"        // facts outside any collection
	CategoryEnd          Category = "end"          // the end of a log or report
	CategoryDistribution Category = "distribution" // how many have status X; which values occur
)

// Categories lists every category in report order.
var Categories = []Category{CategoryHowMany, CategoryRecord, CategoryAnomaly, CategoryExtremes, CategoryFacts, CategoryEnd, CategoryDistribution}

// categoryOfKind is the category of a question that names none.
func categoryOfKind(k Kind) Category {
	switch k {
	case KindCount, KindSum:
		return CategoryHowMany
	case KindLookup:
		return CategoryRecord
	case KindFilterCount, KindDistinct:
		return CategoryDistribution
	case KindMax, KindMin:
		return CategoryExtremes
	case KindExists:
		return CategoryAnomaly
	case KindFirst:
		return CategoryFacts
	case KindLast:
		return CategoryEnd
	}
	return CategoryFacts
}

// Names is one string or a list of alternatives in a questions file.
type Names []string

// UnmarshalYAML accepts a string or a sequence of strings.
func (n *Names) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode {
		*n = Names{v.Value}
		return nil
	}
	var list []string
	if err := v.Decode(&list); err != nil {
		return err
	}
	*n = list
	return nil
}

// QuestionFile is a loaded, validated questions file whose filters all
// parse and whose output exists.
type QuestionFile struct {
	// Path is the questions file as given to LoadQuestions.
	Path string `yaml:"-"`
	// OutputPath is the output file: Output resolved against Path's directory.
	OutputPath string `yaml:"-"`
	// Output is the output's path as written in the file.
	Output string `yaml:"output"`
	// Tool is the registry tool name of the output.
	Tool string `yaml:"tool"`
	// Input says how the output is fed to jq.
	Input Input `yaml:"input"`
	// Description is free text.
	Description string `yaml:"description"`
	// Questions in file order.
	Questions []Question `yaml:"questions"`
}

// Question is one question with its ground-truth filter.
type Question struct {
	// ID is unique within the file.
	ID string `yaml:"id"`
	// Question is the text a user would ask.
	Question string `yaml:"question"`
	// Kind is the sort of answer.
	Kind Kind `yaml:"kind"`
	// Category is the sort of question as the file names it ("" when
	// it names none; see Cat).
	Category Category `yaml:"category"`
	// Record is what the answer must be read next to for the
	// field-aware rule: the record's identifier, or the word the answer
	// is stated with; empty for none.
	Record Names `yaml:"record"`
	// JQ is the filter over the original output.
	JQ string `yaml:"jq"`
	// Note is free text.
	Note string `yaml:"note"`
	// Line is the question's line in the file.
	Line int `yaml:"-"`

	code *gojq.Code
}

// Cat is the question's category: as named, else derived from its kind.
func (q *Question) Cat() Category {
	if q.Category != "" {
		return q.Category
	}
	return categoryOfKind(q.Kind)
}

// Answer is the ground truth of one question.
type Answer struct {
	// ID, Question and Kind repeat the question's; Category is its
	// Cat() and Record its record strings.
	ID       string
	Question string
	Kind     Kind
	Category Category
	Record   []string
	// Value is the filter's result: a string, a number (int, float64,
	// *big.Int or json.Number), a bool, or a []any of those.
	Value any
	// Needles are the canonical string forms that must all be visible in a
	// shown text for the answer to count as visible (see VisibleIn).
	Needles []string
}

// QuestionError is an error about one question of a questions file.
type QuestionError struct {
	// File is the questions file.
	File string
	// Line is the question's line in File, or 0 when unknown.
	Line int
	// ID is the question's id, or "" for an error about the file itself.
	ID string
	// Err is the cause.
	Err error
}

// Error implements error: "file:line: question "id": cause".
func (e *QuestionError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.ID != "" {
		fmt.Fprintf(&b, ": question %q", e.ID)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

// Unwrap returns the cause.
func (e *QuestionError) Unwrap() error { return e.Err }

// LoadQuestions reads, validates and compiles the questions file at path.
// The file must validate against schemas/questions.schema.json, its ids be
// unique, every filter parse and compile, and its output exist as a regular
// file. Every error names the file, and the question's line and id when it
// is about one question; all problems are reported at once.
func LoadQuestions(path string) (*QuestionFile, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, &QuestionError{File: path, Err: err}
	}
	qf, errs := parseQuestions(path, src)
	if qf != nil {
		if fi, err := os.Stat(qf.OutputPath); err != nil {
			errs = append(errs, &QuestionError{File: path, Err: fmt.Errorf("output %q: %w", qf.Output, err)})
		} else if !fi.Mode().IsRegular() {
			errs = append(errs, &QuestionError{File: path, Err: fmt.Errorf("output %q is not a regular file", qf.Output)})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return qf, nil
}

// parseQuestions decodes, validates and compiles a questions file's bytes;
// path names the file in errors and anchors the output path. It returns
// the file (nil when it cannot be decoded) and every problem found.
func parseQuestions(path string, src []byte) (*QuestionFile, []error) {
	fail := func(err error) (*QuestionFile, []error) {
		return nil, []error{&QuestionError{File: path, Err: err}}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return fail(fmt.Errorf("parse YAML: %w", err))
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return fail(errors.New("empty file: want a mapping with output, tool, input and questions"))
	}
	doc := root.Content[0]
	lines := questionLines(doc)
	ids := questionIDs(doc)

	if err := validateSchema(doc); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return fail(err)
		}
		errs := schemaErrors(path, ve, lines, ids)
		// Report filters that do not parse too, so one run shows every problem.
		if seq := mappingValue(doc, "questions"); seq != nil && seq.Kind == yaml.SequenceNode {
			for i, n := range seq.Content {
				if jq := mappingValue(n, "jq"); jq != nil && jq.Kind == yaml.ScalarNode {
					if _, err := gojq.Parse(jq.Value); err != nil {
						errs = append(errs, &QuestionError{File: path, Line: lines[i], ID: ids[i], Err: fmt.Errorf("jq %q does not parse: %w", jq.Value, err)})
					}
				}
			}
		}
		return nil, errs
	}

	qf := &QuestionFile{Path: path}
	if err := doc.Decode(qf); err != nil {
		return fail(fmt.Errorf("decode: %w", err))
	}
	qf.OutputPath = qf.Output
	if !filepath.IsAbs(qf.OutputPath) {
		qf.OutputPath = filepath.Join(filepath.Dir(path), qf.Output)
	}

	var errs []error
	seen := map[string]int{}
	for i := range qf.Questions {
		q := &qf.Questions[i]
		if i < len(lines) {
			q.Line = lines[i]
		}
		if first, dup := seen[q.ID]; dup {
			errs = append(errs, &QuestionError{File: path, Line: q.Line, ID: q.ID, Err: fmt.Errorf("duplicate id (first at line %d)", first)})
			continue
		}
		seen[q.ID] = q.Line
		parsed, err := gojq.Parse(q.JQ)
		if err != nil {
			errs = append(errs, &QuestionError{File: path, Line: q.Line, ID: q.ID, Err: fmt.Errorf("jq %q does not parse: %w", q.JQ, err)})
			continue
		}
		code, err := gojq.Compile(parsed)
		if err != nil {
			errs = append(errs, &QuestionError{File: path, Line: q.Line, ID: q.ID, Err: fmt.Errorf("jq %q does not compile: %w", q.JQ, err)})
			continue
		}
		q.code = code
	}
	return qf, errs
}

// LoadCorpus loads every questions file (*.questions.yaml) of dir, sorted
// by name. A directory without any is ErrEmptyCorpus; errors of all files
// are reported at once.
func LoadCorpus(dir string) ([]*QuestionFile, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*"+QuestionsSuffix))
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("corpus %s: not a directory", dir)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("corpus %s: %w (want <name>%s beside each output)", dir, ErrEmptyCorpus, QuestionsSuffix)
	}
	sort.Strings(paths)
	var files []*QuestionFile
	var errs []error
	for _, p := range paths {
		qf, err := LoadQuestions(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files = append(files, qf)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return files, nil
}

// ReadOutput reads the output the questions are about.
func (qf *QuestionFile) ReadOutput() ([]byte, error) {
	b, err := os.ReadFile(qf.OutputPath)
	if err != nil {
		return nil, &QuestionError{File: qf.Path, Err: fmt.Errorf("output %q: %w", qf.Output, err)}
	}
	return b, nil
}

// Answer computes the ground truth of every question over original, the
// full output. See AnswerContext.
func (qf *QuestionFile) Answer(original []byte) ([]Answer, error) {
	return qf.AnswerContext(context.Background(), original)
}

// AnswerContext computes the ground truth of every question over original,
// fed to jq as qf.Input says. Each filter must give exactly one non-null
// result, a scalar or an array of at most MaxAnswerElements scalars, within
// QuestionTimeout. On errors it returns the answers it could compute (in
// question order) and an error joining one *QuestionError per failure.
func (qf *QuestionFile) AnswerContext(ctx context.Context, original []byte) ([]Answer, error) {
	if len(original) > MaxOutputBytes {
		return nil, &QuestionError{File: qf.Path, Err: fmt.Errorf("output %q is %d bytes, more than the %d bytes ground truth is computed on", qf.Output, len(original), MaxOutputBytes)}
	}
	input, err := Feed(qf.Input, original)
	if err != nil {
		return nil, &QuestionError{File: qf.Path, Err: fmt.Errorf("output %q: %w", qf.Output, err)}
	}
	var answers []Answer
	var errs []error
	for i := range qf.Questions {
		q := &qf.Questions[i]
		a, err := q.answer(ctx, input)
		if err != nil {
			errs = append(errs, &QuestionError{File: qf.Path, Line: q.Line, ID: q.ID, Err: err})
			continue
		}
		answers = append(answers, a)
	}
	return answers, errors.Join(errs...)
}

func (q *Question) answer(ctx context.Context, input any) (Answer, error) {
	if q.code == nil {
		return Answer{}, errors.New("question was not compiled (load the file with LoadQuestions)")
	}
	ctx, cancel := context.WithTimeout(ctx, QuestionTimeout)
	defer cancel()
	iter := q.code.RunWithContext(ctx, input)
	var results []any
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			var he *gojq.HaltError
			if errors.As(err, &he) && he.Value() == nil {
				break
			}
			return Answer{}, fmt.Errorf("jq %q fails on the output: %w", q.JQ, err)
		}
		results = append(results, v)
		if len(results) > 1 {
			return Answer{}, fmt.Errorf("jq %q gives more than one result (want exactly one; wrap it in [...] or add | length)", q.JQ)
		}
	}
	if len(results) == 0 {
		return Answer{}, fmt.Errorf("jq %q gives no result (want exactly one)", q.JQ)
	}
	v := results[0]
	needles, err := needlesOf(v)
	if err != nil {
		return Answer{}, fmt.Errorf("jq %q: %w", q.JQ, err)
	}
	return Answer{ID: q.ID, Question: q.Question, Kind: q.Kind, Category: q.Cat(), Record: q.Record, Value: v, Needles: needles}, nil
}

// Feed turns an output into the value its filters run on, as the input
// mode says (see schemas/questions.schema.json).
func Feed(mode Input, original []byte) (any, error) {
	switch mode {
	case InputJSON:
		dec := json.NewDecoder(bytes.NewReader(original))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("input json: %w", jsonErr(original, dec, err))
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, fmt.Errorf("input json: more than one JSON value at byte %d (use input: values)", dec.InputOffset())
		}
		return v, nil
	case InputValues:
		dec := json.NewDecoder(bytes.NewReader(original))
		dec.UseNumber()
		vs := []any{}
		for {
			var v any
			err := dec.Decode(&v)
			if err == io.EOF {
				return vs, nil
			}
			if err != nil {
				return nil, fmt.Errorf("input values: value %d: %w", len(vs)+1, jsonErr(original, dec, err))
			}
			vs = append(vs, v)
		}
	case InputLines:
		s := string(original)
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		s = strings.TrimSuffix(s, "\n")
		lines := []any{}
		if len(original) == 0 {
			return lines, nil
		}
		for _, l := range strings.Split(s, "\n") {
			lines = append(lines, strings.TrimSuffix(l, "\r"))
		}
		return lines, nil
	default:
		return nil, fmt.Errorf("unknown input mode %q (want json, values or lines)", mode)
	}
}

// jsonErr adds the line and column to a JSON syntax error.
func jsonErr(src []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 {
		off = se.Offset - 1 // Offset is just after the offending byte
	}
	if off > int64(len(src)) {
		off = int64(len(src))
	}
	if off < 0 {
		off = 0
	}
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(src[:off], '\n'))
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// needlesOf gives the canonical forms of an answer, or an error when the
// value is not an answer a harness can look for.
func needlesOf(v any) ([]string, error) {
	if arr, ok := v.([]any); ok {
		if len(arr) == 0 {
			return nil, errors.New("answer is an empty array (want a scalar or 1 to 50 scalars)")
		}
		if len(arr) > MaxAnswerElements {
			return nil, fmt.Errorf("answer is an array of %d elements (at most %d)", len(arr), MaxAnswerElements)
		}
		var out []string
		seen := map[string]bool{}
		for i, e := range arr {
			n, err := scalarNeedle(e)
			if err != nil {
				return nil, fmt.Errorf("answer element %d: %w", i, err)
			}
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
		return out, nil
	}
	n, err := scalarNeedle(v)
	if err != nil {
		return nil, fmt.Errorf("answer: %w", err)
	}
	return []string{n}, nil
}

func scalarNeedle(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", errors.New("null (want a value)")
	case string:
		if x == "" {
			return "", errors.New("empty string (cannot be looked for)")
		}
		return x, nil
	case map[string]any:
		return "", errors.New("an object (want a scalar)")
	case []any:
		return "", errors.New("an array (want a scalar)")
	default:
		b, err := gojq.Marshal(x)
		if err != nil {
			return "", fmt.Errorf("encode %T: %w", x, err)
		}
		return string(b), nil
	}
}

// String is the answer as jq prints it in compact form.
func (a Answer) String() string {
	b, err := gojq.Marshal(a.Value)
	if err != nil {
		return fmt.Sprint(a.Value)
	}
	return string(b)
}

// VisibleIn reports whether the answer is visible in content: every needle
// occurs, as itself or JSON-escaped, at word boundaries (the characters
// around it are not letters, digits or '_', and a number is not continued
// by a decimal point and a digit). This is the rule the questions schema
// suggests to harnesses. An integer of four digits or more also matches
// written with thousands separators ("9,000" for 9000), as long as the
// match is not part of a longer comma-separated digit run ("19,000" or
// "9,000,1"). A view's suggested queries and the line ranges of its layout
// are no data and are not searched (see maskNotData).
func (a Answer) VisibleIn(content string) bool {
	content = maskNotData(content)
	for _, n := range a.Needles {
		if !needleVisible(content, n) {
			return false
		}
	}
	return len(a.Needles) > 0
}

// needleVisible applies the visibility rule to one needle.
func needleVisible(content, n string) bool {
	if containsAtBoundary(content, n) {
		return true
	}
	if esc := jsonEscape(n); esc != n && containsAtBoundary(content, esc) {
		return true
	}
	if g, ok := groupedInteger(n); ok && containsGrouped(content, g) {
		return true
	}
	return false
}

// groupedInteger returns n with thousands separators when n is an integer
// of at least four digits.
func groupedInteger(n string) (string, bool) {
	digits := strings.TrimPrefix(n, "-")
	if len(digits) < 4 || digits[0] == '0' {
		return "", false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "", false
		}
	}
	var b strings.Builder
	if len(digits) != len(n) {
		b.WriteByte('-')
	}
	for i := 0; i < len(digits); i++ {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(digits[i])
	}
	return b.String(), true
}

// containsGrouped finds a grouped integer at word boundaries that is not
// continued by ",<digit>" nor preceded by "<digit>,".
func containsGrouped(s, g string) bool {
	for from := 0; from <= len(s)-len(g); {
		i := strings.Index(s[from:], g)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(g)
		ok := boundaryBefore(s, start, g) && boundaryAfter(s, end, g) &&
			!(end+1 < len(s) && s[end] == ',' && s[end+1] >= '0' && s[end+1] <= '9') &&
			!(start >= 2 && s[start-1] == ',' && s[start-2] >= '0' && s[start-2] <= '9') &&
			!(end+1 < len(s) && s[end] == '.' && s[end+1] >= '0' && s[end+1] <= '9')
		if ok {
			return true
		}
		from = start + 1
	}
	return false
}

func jsonEscape(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return s
	}
	out := strings.TrimSuffix(buf.String(), "\n")
	return out[1 : len(out)-1]
}

func containsAtBoundary(s, needle string) bool {
	for from := 0; from <= len(s)-len(needle); {
		i := strings.Index(s[from:], needle)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(needle)
		if boundaryBefore(s, start, needle) && boundaryAfter(s, end, needle) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[start:])
		from = start + size
	}
	return false
}

// isWordRune reports whether r is part of a word: a letter, a mark, a
// digit or '_' (the schema's "letters, digits or underscores", in any
// script). Punctuation outside ASCII (‘’ “” « » … —) is not: a needle
// quoted as in gcc's "In function ‘main’" stands at word boundaries.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// wordBefore and wordAfter report whether a word rune stands just before
// byte i of s, or starts at byte i.
func wordBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return i > 0 && isWordRune(r)
}

func wordAfter(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return i < len(s) && isWordRune(r)
}

func isNumeric(needle string) bool {
	_, err := strconv.ParseFloat(needle, 64)
	return err == nil
}

func boundaryBefore(s string, start int, needle string) bool {
	if start == 0 || !wordAfter(needle, 0) {
		return true
	}
	if wordBefore(s, start) {
		return false
	}
	// A number after a number and '.' is its fraction ("12" of "1.12"),
	// after a number and ':' the column of a location or the minutes of a
	// time ("11" of "reify.js:353:11", "30" of "12:30").
	if isNumeric(needle) && (s[start-1] == '.' || s[start-1] == ':') && start >= 2 && s[start-2] >= '0' && s[start-2] <= '9' {
		return false
	}
	// After a backslash a number is an escape of a quoted string (the
	// octal byte "\300" of a C string gdb prints, "\0"), not a number.
	if isNumeric(needle) && s[start-1] == '\\' {
		return false
	}
	// Between dashes after a number, it is the middle of a date or a
	// version ("11" of "2026-11-26").
	if end := start + len(needle); isNumeric(needle) && s[start-1] == '-' && start >= 2 && isDigit(s[start-2]) &&
		end+1 < len(s) && s[end] == '-' && isDigit(s[end+1]) {
		return false
	}
	// The tail of a longer name joined the same way ("PSK-NULL-SHA" in
	// "ECDHE-PSK-NULL-SHA", "node_modules/semver" in
	// "node_modules/x/node_modules/semver") is another name. (Its head is
	// not: "/usr/share/doc" names the directory of "/usr/share/doc/bash",
	// "2024-02" the month of "2024-02-03".)
	if c := s[start-1]; isJoiner(c) && strings.IndexByte(needle, c) >= 0 && letterBefore(s, start-1) {
		// A relative path is the tail of the same file's absolute path
		// ("pkg/x.py" in "/usr/lib/python3/dist-packages/pkg/x.py:12:"),
		// unless the longer path is itself relative ("net/http" in
		// "vendor/golang.org/x/net/http": another package), holds a
		// vendored copy, or nests a copy of its first part (a package
		// under another package's "node_modules/").
		return c == '/' && absoluteHead(s, start) && !nestedCopy(s, start, needle)
	}
	return true
}

// absoluteHead reports whether the longer path that ends at start of s
// (the needle follows) is absolute and holds no vendored copy: it starts
// with "/" and has no "vendor/" or "node_modules/" part.
func absoluteHead(s string, start int) bool {
	from := start
	for from > 0 && !strings.ContainsRune(" \t\n\"'`(<[=,;", rune(s[from-1])) {
		from--
	}
	head := s[from:start]
	return strings.HasPrefix(head, "/") && !strings.Contains(head, "/vendor/") && !strings.Contains(head, "/node_modules/")
}

// nestedCopy reports whether the path needle at start of s is the tail of
// a longer path that holds the needle's first segment before it
// ("node_modules/semver" in "node_modules/make-dir/node_modules/semver"):
// a name nested under a copy of its own first part is another name.
func nestedCopy(s string, start int, needle string) bool {
	seg, _, _ := strings.Cut(needle, "/")
	if seg == "" {
		return true // an absolute path has no shorter form
	}
	from := start
	for from > 0 && !strings.ContainsRune(" \t\n\"'`(<[=,;", rune(s[from-1])) {
		from--
	}
	head := s[from:start]
	return strings.HasPrefix(head, seg+"/") || strings.Contains(head, "/"+seg+"/")
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// letterBefore reports whether a letter stands just before byte i of s.
func letterBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return i > 0 && unicode.IsLetter(r)
}

// isJoiner reports whether c joins the parts of one name: '-' in
// "ECDHE-RSA-AES128", '/' in a path, '.' in a host or a file name.
func isJoiner(c byte) bool {
	return c == '-' || c == '/' || c == '.'
}

func boundaryAfter(s string, end int, needle string) bool {
	if end == len(s) || !wordBefore(needle, len(needle)) {
		return true
	}
	if wordAfter(s, end) {
		return false
	}
	if isNumeric(needle) && s[end] == '.' && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9' {
		return false
	}
	return true
}

// ---------------------------------------------------------------- schema

var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	raw, err := schemas.File(schemas.QuestionsSchemaFile)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("questions schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.QuestionsSchemaID, doc); err != nil {
		return nil, fmt.Errorf("questions schema: %w", err)
	}
	s, err := c.Compile(schemas.QuestionsSchemaID)
	if err != nil {
		return nil, fmt.Errorf("questions schema: %w", err)
	}
	return s, nil
})

// validateSchema validates a YAML document against the questions schema,
// through its JSON form so that YAML and JSON values mean the same.
func validateSchema(doc *yaml.Node) error {
	s, err := compiledSchema()
	if err != nil {
		return err
	}
	var v any
	if err := doc.Decode(&v); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("not representable as JSON: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("not representable as JSON: %w", err)
	}
	return s.Validate(inst)
}

// schemaErrors turns a validation error into one QuestionError per leaf
// cause, naming the question's id and line when the cause is inside one.
func schemaErrors(path string, ve *jsonschema.ValidationError, lines []int, ids []string) []error {
	printer := message.NewPrinter(language.English)
	var errs []error
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		qe := &QuestionError{File: path}
		if len(e.InstanceLocation) >= 2 && e.InstanceLocation[0] == "questions" {
			if i, err := strconv.Atoi(e.InstanceLocation[1]); err == nil && i < len(lines) {
				qe.Line, qe.ID = lines[i], ids[i]
				if qe.ID == "" {
					qe.ID = fmt.Sprintf("#%d", i+1)
				}
			}
		}
		loc := "/" + strings.Join(e.InstanceLocation, "/")
		qe.Err = fmt.Errorf("does not match the questions schema at %s: %s", loc, e.ErrorKind.LocalizedString(printer))
		errs = append(errs, qe)
	}
	walk(ve)
	if len(errs) == 0 {
		errs = append(errs, &QuestionError{File: path, Err: fmt.Errorf("does not match the questions schema: %w", ve)})
	}
	return errs
}

// questionLines gives the line of each item of the questions sequence.
func questionLines(doc *yaml.Node) []int {
	seq := mappingValue(doc, "questions")
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]int, len(seq.Content))
	for i, n := range seq.Content {
		out[i] = n.Line
	}
	return out
}

// questionIDs gives the id of each item of the questions sequence ("" when
// it has none).
func questionIDs(doc *yaml.Node) []string {
	seq := mappingValue(doc, "questions")
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]string, len(seq.Content))
	for i, n := range seq.Content {
		if id := mappingValue(n, "id"); id != nil && id.Kind == yaml.ScalarNode {
			out[i] = id.Value
		}
	}
	return out
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
