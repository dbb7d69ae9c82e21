package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
)

// MaxViewQueries caps the suggested queries run per view, so a view that
// lists hundreds of commands cannot make the bench slow.
const MaxViewQueries = 16

// ModelQuery is one follow-up query a model could write from what it was
// shown, without knowing the ground truth: a query the view itself
// suggests (compact artifact query|slice|search, or read_artifact), or a
// search for the record the question names (the user named it, so the
// model knows it). Its result is judged by the same field-aware rule as
// the view.
type ModelQuery struct {
	// Source is "view" (suggested by the view), "adapted" (a suggested
	// jq query with its compared string replaced by the question's
	// record) or "record" (a search for the question's record).
	Source string `json:"source"`
	// Op is "jq", "slice" or "search".
	Op string `json:"op"`
	// Ref is the artifact reference (a handle, optionally with a path).
	Ref    string `json:"ref"`
	Filter string `json:"filter,omitempty"`
	Text   string `json:"text,omitempty"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Path   string `json:"path,omitempty"`
}

// String is the query as the CLI command a model would run.
func (q ModelQuery) String() string {
	switch q.Op {
	case "jq":
		return fmt.Sprintf("compact artifact query %s --jq %s", q.Ref, shellQuote(q.Filter))
	case "slice":
		s := fmt.Sprintf("compact artifact slice %s --offset %d", q.Ref, q.Offset)
		if q.Limit > 0 {
			s += fmt.Sprintf(" --limit %d", q.Limit)
		}
		if q.Path != "" {
			s += " --path " + shellQuote(q.Path)
		}
		return s
	case "search":
		s := fmt.Sprintf("compact artifact search %s %s", q.Ref, shellQuote(q.Text))
		if q.Limit > 0 {
			s += fmt.Sprintf(" --limit %d", q.Limit)
		}
		if q.Path != "" {
			s += " --path " + shellQuote(q.Path)
		}
		return s
	}
	return q.Op + " " + q.Ref
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// SuggestedQueries parses the follow-up queries a view suggests for the
// artifact handle: every `compact artifact query|slice|search REF ...`
// command and every `read_artifact {...}` call in content whose reference
// is the handle (or a path under it), in order, without duplicates, at
// most MaxViewQueries. `get` is skipped: it returns the whole output.
func SuggestedQueries(content, handle string) []ModelQuery {
	if handle == "" {
		return nil
	}
	var out []ModelQuery
	seen := map[string]bool{}
	add := func(q ModelQuery, ok bool) {
		q.Ref = strings.TrimPrefix(q.Ref, budget.RefPrefix) // the form views print
		if !ok || !strings.HasPrefix(q.Ref, handle) || len(out) >= MaxViewQueries {
			return
		}
		q.Source = "view"
		k := q.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, q)
		}
	}
	for _, line := range strings.Split(content, "\n") {
		for rest := line; ; {
			i := strings.Index(rest, "compact artifact ")
			if i < 0 {
				break
			}
			rest = rest[i+len("compact artifact "):]
			add(parseCommand(rest))
		}
		if i := strings.Index(line, "read_artifact "); i >= 0 {
			add(parseReadArtifact(line[i+len("read_artifact "):]))
		}
	}
	return out
}

// parseCommand parses the arguments of one `compact artifact` command.
func parseCommand(s string) (ModelQuery, bool) {
	words, ok := shellWords(s)
	if !ok || len(words) < 2 {
		return ModelQuery{}, false
	}
	q := ModelQuery{Ref: words[1]}
	switch words[0] {
	case "query":
		q.Op = "jq"
	case "slice", "search":
		q.Op = words[0]
	default:
		return ModelQuery{}, false
	}
	rest := words[2:]
	if q.Op == "search" {
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return ModelQuery{}, false
		}
		q.Text, rest = rest[0], rest[1:]
	}
	for i := 0; i < len(rest); i++ {
		flag := strings.TrimLeft(rest[i], "-")
		val := ""
		if k, v, has := strings.Cut(flag, "="); has {
			flag, val = k, v
		} else if i+1 < len(rest) {
			val = rest[i+1]
			i++
		}
		switch flag {
		case "jq":
			q.Filter = val
		case "offset":
			q.Offset, _ = strconv.Atoi(val)
		case "limit":
			q.Limit, _ = strconv.Atoi(val)
		case "path":
			q.Path = val
		case "budget", "store":
		default:
			// a shell operator or prose after the command ends it
			i = len(rest)
		}
	}
	if q.Op == "jq" && q.Filter == "" {
		return ModelQuery{}, false
	}
	return q, true
}

// shellWords splits a command line the way a POSIX shell splits words
// with single quotes, double quotes and backslashes, stopping at an
// unquoted shell operator (|, >, ;, &, #) or a closing parenthesis.
func shellWords(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, false
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.IndexByte("|>;&#)`", c) >= 0 && !inWord:
			return words, true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}

// parseReadArtifact parses the JSON arguments of a read_artifact call.
func parseReadArtifact(s string) (ModelQuery, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var a struct {
		Ref    string `json:"ref"`
		Op     string `json:"op"`
		Filter string `json:"filter"`
		Text   string `json:"text"`
		Query  string `json:"query"`
		Offset int    `json:"offset"`
		Limit  int    `json:"limit"`
		Path   string `json:"path"`
	}
	if err := dec.Decode(&a); err != nil {
		return ModelQuery{}, false
	}
	q := ModelQuery{Op: a.Op, Ref: a.Ref, Filter: a.Filter, Text: a.Text, Offset: a.Offset, Limit: a.Limit, Path: a.Path}
	if q.Text == "" {
		q.Text = a.Query
	}
	switch q.Op {
	case "jq":
		return q, q.Filter != ""
	case "slice":
		return q, true
	case "search":
		return q, q.Text != ""
	}
	return ModelQuery{}, false
}

// eqLiteral finds the first string literal compared with == in a jq
// filter: `select(.metadata.name == "web-1")` gives the span of web-1.
var eqLiteral = regexp.MustCompile(`==\s*"((?:[^"\\]|\\.)*)"`)

// Adapt returns q with the first string literal a jq filter compares with
// == replaced by value, the way a model adapts a suggested query to the
// record it is asked about (`select(.metadata.name == "web-1")` becomes
// `select(.metadata.name == "<value>")`), or false when q has no such
// literal or is not a jq query.
func (q ModelQuery) Adapt(value string) (ModelQuery, bool) {
	if q.Op != "jq" {
		return ModelQuery{}, false
	}
	m := eqLiteral.FindStringSubmatchIndex(q.Filter)
	if m == nil {
		return ModelQuery{}, false
	}
	lit, _ := json.Marshal(value)
	a := q
	a.Source = "adapted"
	a.Filter = q.Filter[:m[0]] + "== " + string(lit) + q.Filter[m[1]:]
	return a, a.Filter != q.Filter
}

// runModelQuery runs one query through the engine's artifact query path
// (the code `compact artifact query|slice|search` runs) with the answer
// fitted to tokens, and returns what the model is shown.
func runModelQuery(ctx context.Context, eng *host.Engine, q ModelQuery, tokens int) (string, error) {
	var a query.Answer
	var err error
	switch q.Op {
	case "jq":
		a, err = eng.ArtifactJQ(ctx, q.Ref, q.Filter, tokens)
	case "slice":
		a, err = eng.ArtifactSlice(ctx, q.Ref, query.SliceOptions{Path: q.Path, Offset: q.Offset, Limit: q.Limit}, tokens)
	case "search":
		a, err = eng.ArtifactSearch(ctx, q.Ref, q.Text, query.SearchOptions{Path: q.Path, Limit: q.Limit}, tokens)
	default:
		return "", fmt.Errorf("unknown query op %q", q.Op)
	}
	if err != nil {
		return "", err
	}
	return a.Content, nil
}
