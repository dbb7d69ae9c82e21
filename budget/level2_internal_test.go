package budget

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/schemas"
)

// memStore is an in-memory Store. The real stores (budget/artifact)
// import this package, so an internal test cannot use them; the
// end-to-end tests through Run in level2_test.go do.
type memStore struct {
	mu   sync.Mutex
	objs map[Handle][]byte
}

func (s *memStore) Put(ctx context.Context, r io.Reader, m Meta) (Handle, Meta, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return "", Meta{}, err
	}
	sum := sha256.Sum256(b)
	m.SHA256 = hex.EncodeToString(sum[:])
	m.Bytes = int64(len(b))
	h := Handle(m.SHA256[:12])
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.objs == nil {
		s.objs = map[Handle][]byte{}
	}
	s.objs[h] = b
	return h, m, nil
}

func (s *memStore) Open(ctx context.Context, h Handle) (io.ReadCloser, Meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.objs[h]
	if !ok {
		return nil, Meta{}, ErrNotFound
	}
	return io.NopCloser(bytes.NewReader(b)), Meta{Bytes: int64(len(b))}, nil
}

// runLevel2 runs level 2 on data as if level 1 had left it unchanged.
func runLevel2(t testing.TB, data []byte, tool string, rules Rules, budget int) (schemas.Result, *memStore, error) {
	t.Helper()
	c := counter(t)
	st := &memStore{}
	p := NewPipeline(c, WithStore(st))
	shape, err := DetectShape(data, rules.Records)
	if err != nil {
		t.Fatal(err)
	}
	colls := append([]schemas.Collection(nil), shape.Collections...)
	for i := range colls {
		colls[i].Shown = colls[i].Count
	}
	n := c.Count(string(data))
	best := Level1Result{Result: schemas.Result{
		Content: string(data), Level: schemas.LevelFields, Tool: tool, ContentType: shape.ContentType,
		Tokens:      schemas.Tokens{Before: n, After: n, Budget: budget, Encoding: c.Encoding()},
		Collections: colls,
	}}
	in := Input{Tool: tool, Data: data, Budget: budget, Rules: rules}
	res, err := p.level2(context.Background(), in, shape, best)
	return res, st, err
}

func jqAll(t *testing.T, filter string, data []byte) []any {
	t.Helper()
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatalf("example query %q does not parse: %v", filter, err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var out []any
	iter := q.Run(v)
	for {
		x, ok := iter.Next()
		if !ok {
			return out
		}
		if err, ok := x.(error); ok {
			t.Fatalf("example query %q: %v", filter, err)
		}
		out = append(out, x)
	}
}

var rowRE = regexp.MustCompile(`^[0-9]+\t`)

var exampleRE = regexp.MustCompile(`compact artifact query (\S+) --jq '([^']*)'`)

func TestLevel2CloudWatchPinsAlarms(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/cloudwatch-alarms.json")
	if err != nil {
		t.Fatal(err)
	}
	const budget = 16000
	rules := Rules{Tool: "cloudwatch.describe_alarms", Pin: `.StateValue == "ALARM"`}
	res, st, err := runLevel2(t, data, rules.Tool, rules, budget)
	if err != nil {
		t.Fatal(err)
	}
	c := counter(t)
	if res.Level != schemas.LevelArtifact || res.Tokens.After > budget || res.Tokens.After != c.Count(res.Content) {
		t.Fatalf("level %s, tokens %+v", res.Level, res.Tokens)
	}
	sum := sha256.Sum256(data)
	if res.Artifact == nil || res.Artifact.SHA256 != hex.EncodeToString(sum[:]) || res.Artifact.Bytes != int64(len(data)) {
		t.Fatalf("artifact %+v", res.Artifact)
	}
	if got := st.objs[Handle(res.Artifact.Handle)]; !bytes.Equal(got, data) {
		t.Fatal("the store does not hold the exact original")
	}
	// Every ALARM row is shown in full.
	var doc struct{ MetricAlarms []json.RawMessage }
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	alarms := 0
	for _, raw := range doc.MetricAlarms {
		var a struct{ StateValue, AlarmName string }
		json.Unmarshal(raw, &a)
		if a.StateValue == "ALARM" {
			alarms++
			found := false
			for _, l := range strings.Split(res.Content, "\n") {
				if strings.Contains(l, "\t"+a.AlarmName+"\t") && strings.Contains(l, "pinned") {
					found = true
				}
			}
			if !found {
				t.Errorf("ALARM row %s missing", a.AlarmName)
			}
		}
	}
	if alarms == 0 {
		t.Fatal("fixture has no ALARM rows")
	}
	var coll *schemas.Collection
	for i := range res.Collections {
		if res.Collections[i].Path == ".MetricAlarms" {
			coll = &res.Collections[i]
		}
	}
	if coll == nil || coll.Count != len(doc.MetricAlarms) || coll.Shown < alarms || coll.Shown >= coll.Count {
		t.Fatalf("collection %+v (alarms %d)", coll, alarms)
	}
	want := "showing " + commas(coll.Shown) + " of " + commas(coll.Count)
	if !strings.Contains(res.Content, want) {
		t.Errorf("content does not say %q", want)
	}
	// Shown is exact: count the rows (position, tab, cells).
	rows := 0
	for _, l := range strings.Split(res.Content, "\n") {
		if rowRE.MatchString(l) {
			rows++
		}
	}
	if rows != coll.Shown {
		t.Errorf("shown %d, rows in content %d", coll.Shown, rows)
	}
	// The example query is real jq over a real field and finds something.
	m := exampleRE.FindStringSubmatch(res.Content)
	if m == nil || m[1] != RefOf(res.Artifact.Handle) {
		t.Fatalf("no example query with the handle in:\n%s", res.Content)
	}
	if out := jqAll(t, m[2], data); len(out) == 0 {
		t.Errorf("example query %q yields nothing", m[2])
	}
	kinds := map[string]bool{}
	for _, a := range res.Actions {
		kinds[a.Kind] = true
	}
	if !kinds["store"] || !kinds["pin"] || !kinds["omit_records"] {
		t.Errorf("actions %+v", res.Actions)
	}
}

func TestLevel2ShrinksThenFails(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/github-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	rules := Rules{Tool: "github.list_issues"}
	big, _, err := runLevel2(t, data, rules.Tool, rules, 12000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(big.Content, "; identity: ") || big.Collections[0].Shown == 0 {
		t.Fatalf("a 12000-token summary should list fields and rows:\n%s", big.Content)
	}
	small, _, err := runLevel2(t, data, rules.Tool, rules, 120)
	if err != nil {
		t.Fatal(err)
	}
	if small.Tokens.After > 120 || small.Collections[0].Shown != 0 || !strings.Contains(small.Content, small.Artifact.Handle) {
		t.Fatalf("tiny summary: %d tokens, shown %d:\n%s", small.Tokens.After, small.Collections[0].Shown, small.Content)
	}
	if !strings.Contains(small.Content, commas(small.Collections[0].Count)+" records") {
		t.Errorf("tiny summary lost the count:\n%s", small.Content)
	}
	_, _, err = runLevel2(t, data, rules.Tool, rules, 10)
	var fe *FitError
	if !errors.As(err, &fe) || !errors.Is(err, ErrCannotFit) || fe.Budget != 10 || fe.Tokens <= 10 || fe.Level != schemas.LevelArtifact {
		t.Fatalf("want a FitError with numbers, got %v", err)
	}
}

func TestLevel2BinaryAndText(t *testing.T) {
	bin := bytes.Repeat([]byte{0, 1, 2, 0xff, 0xfe, 'P', 'K'}, 3000)
	res, st, err := runLevel2(t, bin, "download", Rules{}, 200)
	if err != nil {
		t.Fatal(err)
	}
	if res.Artifact == nil || !bytes.Equal(st.objs[Handle(res.Artifact.Handle)], bin) || !strings.Contains(res.Content, "compact artifact get "+RefOf(res.Artifact.Handle)) {
		t.Fatalf("binary: %+v\n%s", res.Artifact, res.Content)
	}
	text := []byte(strings.Repeat("INFO all good\n", 2000) + "ERROR disk \xff\xfe full\n" + strings.Repeat("INFO fine\n", 2000))
	res, _, err = runLevel2(t, text, "logs", Rules{Pin: `test("ERROR")`}, 300)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, "ERROR disk \uFFFD full") {
		t.Errorf("pinned ERROR line (invalid UTF-8 shown as U+FFFD) missing:\n%s", res.Content)
	}
	if !strings.Contains(res.Content, "compact artifact slice "+RefOf(res.Artifact.Handle)) {
		t.Errorf("text output needs a slice example:\n%s", res.Content)
	}
}

func TestLevel2BadPin(t *testing.T) {
	data := []byte(`[{"a":1},{"a":"x"},{"a":3}]`)
	res, _, err := runLevel2(t, bytes.Repeat(data, 1), "t", Rules{Pin: `.a > 2 and (.a | startswith("x"))`}, 500)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range res.Actions {
		if a.Kind == "pin_failed" && a.Count > 0 && strings.Contains(a.Detail, "record ") {
			found = true
		}
	}
	if !found {
		t.Errorf("a pin predicate that errors on records must be reported: %+v", res.Actions)
	}
	res, _, err = runLevel2(t, data, "t", Rules{Pin: `.a ==`}, 500)
	if err != nil || len(res.Actions) == 0 {
		t.Fatal(err)
	}
	if !strings.Contains(res.Actions[1].Detail, "does not compile") {
		t.Errorf("bad pin not reported: %+v", res.Actions)
	}
}

// TestLevel2PinnedRowsLeaveRoom: a page of 100 GitHub issues with the
// registry's pin on open ones (71) at 8,000 tokens. The pinned rows of
// the first round are capped (16), every other open issue is listed by
// its number, state and author (the pinned list), and the profile's
// other lines and the index get budget too. The old fill put all 71
// pinned rows first: 57 fitted, with no room for the index.
func TestLevel2PinnedRowsLeaveRoom(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/github-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	rules := Rules{Tool: "github.issues", Records: []string{"."}, Pin: `select(.state == "open")`,
		Index: []string{"state", "user.login"}, StringsMax: 400,
		// registry/default.yaml's github.* drops
		Drop: []string{"*_url", "url", "node_id", "user.*_url", "user.node_id", "user.gravatar_id", "user.user_view_type", "assignee.*_url", "assignee.node_id", "assignee.gravatar_id", "assignees[].*_url", "assignees[].node_id", "assignees[].gravatar_id", "closed_by.*_url", "closed_by.node_id", "closed_by.gravatar_id", "labels[].node_id", "labels[].url", "labels[].color", "labels[].default", "milestone.*_url", "milestone.creator", "reactions.url", "performed_via_github_app"}}
	res, _, err := runLevel2(t, data, rules.Tool, rules, 8000)
	if err != nil {
		t.Fatal(err)
	}
	var issues []struct {
		Number int
		State  string
		User   struct{ Login string }
	}
	if err := json.Unmarshal(data, &issues); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(res.Content, "\n")
	section := ""
	rows, listed := map[string]bool{}, map[string]bool{}
	for _, l := range lines {
		switch {
		case !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "#") && strings.Contains(l, ":") && !strings.Contains(l, "\t"):
			section = l
		case strings.HasPrefix(section, "pinned records of . past the first 16 rows") && strings.HasPrefix(l, "  "):
			listed[strings.SplitN(strings.TrimSpace(l), "\t", 2)[0]] = true
		case strings.Contains(l, "\t") && strings.Contains(l, "pinned"):
			rows[strings.Split(l, "\t")[1]] = true
		}
	}
	open := 0
	for _, is := range issues {
		if is.State != "open" {
			continue
		}
		open++
		n := strconv.Itoa(is.Number)
		if !rows[n] && !listed[n] {
			t.Errorf("open issue %d is neither a pinned row nor on the pinned list", is.Number)
		}
	}
	if open != 71 || len(rows) < 16 {
		t.Errorf("%d open issues, %d pinned rows", open, len(rows))
	}
	// The pinned list's lines are the index's form: number, state, author.
	for _, is := range issues {
		if n := strconv.Itoa(is.Number); listed[n] && !strings.Contains(res.Content, "\n  "+n+"\topen\t"+is.User.Login+"\n") {
			t.Errorf("pinned list line of %d is not %q", is.Number, n+"\topen\t"+is.User.Login)
		}
	}
	if !strings.Contains(res.Content, "\nindex of ., ") {
		t.Errorf("no index at 8,000 tokens:\n%s", res.Content)
	}
}
