package query

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captured", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// countingStore counts the Opens that reach the disk.
type countingStore struct {
	*artifact.DirStore
	opens atomic.Int64
}

func (c *countingStore) Open(ctx context.Context, h budget.Handle) (io.ReadCloser, budget.Meta, error) {
	c.opens.Add(1)
	return c.DirStore.Open(ctx, h)
}

type env struct {
	q     *Querier
	store *countingStore
	ctr   budget.Counter
}

func newEnv(t testing.TB, opt Options) *env {
	t.Helper()
	ds, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctr, err := budget.NewCounter("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingStore{DirStore: ds}
	q, err := New(cs, ctr, opt)
	if err != nil {
		t.Fatal(err)
	}
	return &env{q: q, store: cs, ctr: ctr}
}

func (e *env) put(t testing.TB, data []byte) string {
	t.Helper()
	h, _, err := e.store.Put(context.Background(), bytes.NewReader(data), budget.Meta{Tool: "fixture"})
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

// checkBudget asserts the invariants of every answer.
func (e *env) checkBudget(t *testing.T, a Answer) {
	t.Helper()
	if a.Tokens != e.ctr.Count(a.Content) {
		t.Fatalf("Tokens = %d, but Content counts %d", a.Tokens, e.ctr.Count(a.Content))
	}
	if a.Tokens > a.Budget {
		t.Fatalf("answer of %d tokens is over its budget of %d", a.Tokens, a.Budget)
	}
	if len(a.Positions) != 0 && len(a.Positions) != a.Returned {
		t.Fatalf("%d positions for %d returned items", len(a.Positions), a.Returned)
	}
}

func (e *env) storedBytes(t *testing.T, h string) []byte {
	t.Helper()
	rc, _, err := e.store.Open(context.Background(), budget.Handle(h))
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	return b
}

func TestGet(t *testing.T) {
	e := newEnv(t, Options{})
	small := []byte(`{"a": [1, 2, {"b": "x y"}], "c": 12345678901234567890}`)
	h := e.put(t, small)
	a, err := e.q.Get(context.Background(), h, 100)
	if err != nil || a.Content != string(small) || a.Stored != nil || a.Total != 1 || a.Returned != 1 {
		t.Fatalf("Get whole = %+v, %v", a, err)
	}
	e.checkBudget(t, a)
	// A sub-value comes back as its exact original text.
	for ref, want := range map[string]string{
		h + `.a[2]`:  `{"b": "x y"}`,
		h + `.a[-1]`: `{"b": "x y"}`,
		h + `.c`:     `12345678901234567890`,
		h + `.a[0]`:  `1`,
	} {
		v, _, err := e.q.Value(context.Background(), ref)
		if err != nil || string(v) != want {
			t.Errorf("Value(%s) = %q, %v; want %q", ref, v, err, want)
		}
	}
	for ref, want := range map[string]string{
		h + `.nope`:    `at .: the object has no key "nope"`,
		h + `.a[3]`:    `at .a: index 3: the array has 3 elements`,
		h + `.a[-4]`:   `index -4: the array has 3 elements`,
		h + `.c.d`:     `at .c: key "d": the value is a number`,
		h + `.a.x`:     `the value is an array, not an object`,
		h + `.a[0][1]`: `the value is a number, not an array`,
	} {
		_, err := e.q.Get(context.Background(), ref, 100)
		if !errors.Is(err, ErrNoValue) || !strings.Contains(err.Error(), want) {
			t.Errorf("Get(%s) = %v; want ErrNoValue saying %q", ref, err, want)
		}
	}
	th := e.put(t, []byte("just\r\ntext \xff\n"))
	for ref, want := range map[string]string{
		th + ".a":    `key "a": the artifact is text, an array of lines; index a line first`,
		th + "[2]":   `index 2: the text has 2 lines`,
		th + "[-3]":  `index -3: the text has 2 lines`,
		th + "[0].a": `the line is a string`,
	} {
		if _, err := e.q.Get(context.Background(), ref, 100); !errors.Is(err, ErrNoValue) || !strings.Contains(err.Error(), want) {
			t.Errorf("Get(%s) = %v; want ErrNoValue saying %q", ref, err, want)
		}
	}
	// A line of text is addressed like an element of the array of lines;
	// get gives its original bytes without the line end.
	for ref, want := range map[string]string{th + "[0]": "just", th + ".[1]": "text \xff", th + "[-1]": "text \xff"} {
		v, _, err := e.q.Value(context.Background(), ref)
		if err != nil || string(v) != want {
			t.Errorf("Value(%s) = %q, %v; want %q", ref, v, err, want)
		}
	}
	if a, err := e.q.Get(context.Background(), th+"[0]", 100); err != nil || a.Content != "just" || a.ContentType != budget.TypeText {
		t.Errorf("Get(line 0) = %+v, %v", a, err)
	}
	if _, err := e.q.Get(context.Background(), "../etc/passwd", 100); !errors.Is(err, artifact.ErrBadRef) {
		t.Errorf("traversal: %v", err)
	}
	if _, err := e.q.Get(context.Background(), "0123456789ab", 100); !errors.Is(err, budget.ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
}

func TestGetTooLargeIsSummarised(t *testing.T) {
	e := newEnv(t, Options{})
	data := fixture(t, "kubectl-pods.json")
	h := e.put(t, data)
	a, err := e.q.Get(context.Background(), h, 800)
	if err != nil {
		t.Fatal(err)
	}
	e.checkBudget(t, a)
	if a.Stored == nil || a.Stored.Handle != h {
		t.Fatalf("a whole artifact too large is its own stored answer; got %+v", a.Stored)
	}
	var pods struct{ Items []json.RawMessage }
	json.Unmarshal(data, &pods)
	if len(a.Collections) == 0 || a.Collections[0].Path != ".items" || a.Collections[0].Count != len(pods.Items) {
		t.Fatalf("collections %+v; want .items with %d records", a.Collections, len(pods.Items))
	}
	if !strings.Contains(a.Content, "collection .items (array): "+strconv.Itoa(len(pods.Items))+" records") {
		t.Fatalf("summary does not give the exact count:\n%s", a.Content)
	}
	// The sub-value .items is too large too: it is stored as a new
	// artifact holding exactly its original bytes.
	a, err = e.q.Get(context.Background(), h+".items", 500)
	if err != nil {
		t.Fatal(err)
	}
	e.checkBudget(t, a)
	if a.Stored == nil || a.Stored.Handle == h {
		t.Fatalf("sub-value not stored as a new artifact: %+v", a.Stored)
	}
	sub, _, _ := e.q.Value(context.Background(), h+".items")
	if got := e.storedBytes(t, a.Stored.Handle); !bytes.Equal(got, sub) {
		t.Fatalf("stored sub-value differs from the original text")
	}
	// The shown records are the first ones, whole.
	shown := a.Collections[0].Shown
	lines := strings.Split(strings.TrimSpace(a.Content), "\n")
	recLines := 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") {
			recLines++
		}
	}
	if recLines != shown {
		t.Fatalf("%d record lines, Shown %d", recLines, shown)
	}
	// A budget too small for even the summary is an error naming the
	// stored artifact.
	if _, err := e.q.Get(context.Background(), h, 10); !errors.Is(err, budget.ErrCannotFit) || !strings.Contains(err.Error(), h) {
		t.Fatalf("tiny budget: %v", err)
	}
}

func TestJQ(t *testing.T) {
	e := newEnv(t, Options{})
	data := fixture(t, "github-issues.json")
	var issues []map[string]any
	json.Unmarshal(data, &issues)
	h := e.put(t, data)
	a, err := e.q.JQ(context.Background(), h, "length", 100)
	if err != nil || a.Content != strconv.Itoa(len(issues)) || a.Total != 1 {
		t.Fatalf("length = %+v, %v", a, err)
	}
	e.checkBudget(t, a)
	a, err = e.q.JQ(context.Background(), h, "[.[] | select(.state == \"open\")] | length", 100)
	open := 0
	for _, is := range issues {
		if is["state"] == "open" {
			open++
		}
	}
	if err != nil || a.Content != strconv.Itoa(open) {
		t.Fatalf("open count = %q, %v; want %d", a.Content, err, open)
	}
	// Many outputs that fit: jq -c form.
	a, err = e.q.JQ(context.Background(), h, ".[0:3][] | .number", 100)
	if err != nil || a.Total != 3 || a.Content != "" && strings.Count(a.Content, "\n") != 3 {
		t.Fatalf("three numbers = %+v, %v", a, err)
	}
	// Many outputs that do not fit: stored, summarised, never cut.
	a, err = e.q.JQ(context.Background(), h, ".[] | {number, title}", 300)
	if err != nil {
		t.Fatal(err)
	}
	e.checkBudget(t, a)
	if a.Total != len(issues) || a.Stored == nil || a.Returned == 0 || a.Returned >= len(issues) {
		t.Fatalf("total %d returned %d stored %v", a.Total, a.Returned, a.Stored)
	}
	stored := e.storedBytes(t, a.Stored.Handle)
	if n := bytes.Count(stored, []byte("\n")); n != len(issues) {
		t.Fatalf("stored answer has %d outputs, want %d", n, len(issues))
	}
	for i, p := range a.Positions {
		if p != i {
			t.Fatalf("positions %v", a.Positions)
		}
	}
	// The stored answer (JSON Lines, one output a line) is itself
	// queryable, as one array of the outputs.
	a2, err := e.q.JQ(context.Background(), a.Stored.Handle, ".[] | select(.number == "+strconv.Itoa(int(issues[5]["number"].(float64)))+") | .title", 100)
	if err != nil || a2.Content != mustJSON(issues[5]["title"]) {
		t.Fatalf("query of the stored answer = %q, %v", a2.Content, err)
	}
	// Integers beyond 2^53 stay exact; the environment is not visible.
	bh := e.put(t, []byte(`{"id":12345678901234567890,"small":9007199254740993,"f":1.5}`))
	a, err = e.q.JQ(context.Background(), bh, "[.id, .small, .f]", 100)
	if err != nil || a.Content != "[12345678901234567890,9007199254740993,1.5]" {
		t.Fatalf("numbers = %q, %v", a.Content, err)
	}
	t.Setenv("COMPACT_SECRET", "s3cr3t")
	a, err = e.q.JQ(context.Background(), bh, "$ENV", 100)
	if err != nil || a.Content != "{}" {
		t.Fatalf("$ENV = %q, %v", a.Content, err)
	}
	// With a path: the filter runs on the sub-value.
	a, err = e.q.JQ(context.Background(), h+"[1]", ".number", 100)
	if err != nil || a.Content != mustJSON(issues[1]["number"]) {
		t.Fatalf("path jq = %q, %v", a.Content, err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestJQBadInput(t *testing.T) {
	e := newEnv(t, Options{Timeout: 300 * time.Millisecond, MaxOutput: 1 << 20})
	h := e.put(t, []byte(`[3,1,2]`))
	for filter, want := range map[string]error{
		".[":                    ErrBadQuery,
		"foo(":                  ErrBadQuery,
		"nosuchfunc":            ErrBadQuery,
		".a":                    ErrBadQuery, // cannot index an array with "a"
		"last(range(1e12))":     ErrLimit,    // runs forever: the deadline stops it
		"def f: f; f":           ErrLimit,
		"range(1e9)":            ErrLimit, // output cap
		"[range(1e8)] | length": ErrLimit, // builds a huge value
	} {
		start := time.Now()
		_, err := e.q.JQ(context.Background(), h, filter, 100)
		if want == nil {
			if err != nil {
				t.Errorf("%s: %v", filter, err)
			}
			continue
		}
		if !errors.Is(err, want) {
			t.Errorf("jq %s = %v, want %v", filter, err, want)
		}
		if time.Since(start) > 5*time.Second {
			t.Errorf("jq %s took %s", filter, time.Since(start))
		}
	}
	// A huge value is stopped by the memory cap before the deadline.
	mem := newEnv(t, Options{Timeout: time.Minute, MaxMemory: 64 << 20})
	mh := mem.put(t, []byte(`[1]`))
	start := time.Now()
	if _, err := mem.q.JQ(context.Background(), mh, "[range(1e9)] | length", 100); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "memory cap") {
		t.Errorf("huge value: %v", err)
	}
	if time.Since(start) > 30*time.Second {
		t.Errorf("memory cap took %s", time.Since(start))
	}
	_, err := e.q.JQ(context.Background(), h, ".[", 100)
	if err == nil || !strings.Contains(err.Error(), "at byte") {
		t.Errorf("parse error does not say where: %v", err)
	}
	tiny := newEnv(t, Options{MaxLoad: 4})
	h = tiny.put(t, []byte(`[3,1,2]`))
	opens := tiny.store.opens.Load()
	if _, err := tiny.q.Slice(context.Background(), h, SliceOptions{}, 100); !errors.Is(err, ErrLimit) || tiny.store.opens.Load() != opens {
		t.Errorf("load cap: %v (opened %d times)", err, tiny.store.opens.Load()-opens)
	}
	small := newEnv(t, Options{MaxInput: 4})
	h = small.put(t, []byte(`[3,1,2]`))
	if _, err := small.q.JQ(context.Background(), h, "sort", 100); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "at most 4 bytes") {
		t.Errorf("input cap: %v", err)
	}
	bin := e.put(t, []byte("\x00\x01\x02\x03binary\x00\x00"))
	if _, err := e.q.JQ(context.Background(), bin, "length", 100); !errors.Is(err, ErrNotJSON) || !strings.Contains(err.Error(), "binary") {
		t.Errorf("jq on binary bytes: %v", err)
	}
}

func TestSlice(t *testing.T) {
	e := newEnv(t, Options{})
	data := fixture(t, "app-log.jsonl")
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	h := e.put(t, data)
	a, err := e.q.Slice(context.Background(), h, SliceOptions{Offset: 10, Limit: 5}, 2000)
	if err != nil {
		t.Fatal(err)
	}
	e.checkBudget(t, a)
	if a.Total != len(lines) || a.Returned != 5 || a.Collection != "." {
		t.Fatalf("slice %+v", a)
	}
	for i, p := range a.Positions {
		want := strconv.Itoa(10+i) + "\t" + lines[10+i] + "\n"
		if p != 10+i || !strings.Contains(a.Content, want) {
			t.Fatalf("record %d missing or changed:\n%s", 10+i, a.Content)
		}
	}
	// Past the end: nothing, and it says so with the count.
	a, err = e.q.Slice(context.Background(), h, SliceOptions{Offset: 9000, Limit: 5}, 2000)
	if err != nil || a.Returned != 0 || !strings.Contains(a.Content, "past the end; there are 9000 records") {
		t.Fatalf("past the end: %+v %v", a, err)
	}
	if _, err := e.q.Slice(context.Background(), h, SliceOptions{Offset: -1}, 2000); !errors.Is(err, ErrBadQuery) {
		t.Fatalf("negative offset: %v", err)
	}
	if _, err := e.q.Slice(context.Background(), h, SliceOptions{Path: ".items"}, 2000); !errors.Is(err, ErrBadQuery) || !strings.Contains(err.Error(), "it has . (jsonl, 9000)") {
		t.Fatalf("unknown collection: %v", err)
	}
	// A slice over the budget is stored whole.
	a, err = e.q.Slice(context.Background(), h, SliceOptions{Offset: 100, Limit: 500}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	e.checkBudget(t, a)
	if a.Stored == nil || a.Returned == 0 || a.Returned >= 500 || a.Total != 9000 {
		t.Fatalf("big slice %+v", a)
	}
	if got := string(e.storedBytes(t, a.Stored.Handle)); got != strings.Join(lines[100:600], "\n")+"\n" {
		t.Fatalf("stored slice differs from the records")
	}
	// Nested collection and text lines.
	ph := e.put(t, fixture(t, "kubectl-pods.json"))
	a, err = e.q.Slice(context.Background(), ph, SliceOptions{Path: ".items", Offset: 0, Limit: 1}, 5000)
	if err != nil || a.Returned != 1 || a.Collection != ".items" {
		t.Fatalf("pods slice %+v %v", a, err)
	}
	text := fixture(t, "dpkg-log.txt")
	tl := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	th := e.put(t, text)
	a, err = e.q.Slice(context.Background(), th, SliceOptions{Offset: 3, Limit: 2}, 500)
	if err != nil || a.Total != len(tl) || !strings.Contains(a.Content, "3\t"+tl[3]+"\n4\t"+tl[4]+"\n") {
		t.Fatalf("text slice %+v %v", a, err)
	}
}

func TestSearch(t *testing.T) {
	e := newEnv(t, Options{})
	data := fixture(t, "app-log.jsonl")
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	h := e.put(t, data)
	a, err := e.q.Search(context.Background(), h, "Timeout", SearchOptions{Limit: 5}, 3000)
	if err != nil {
		t.Fatal(err)
	}
	e.checkBudget(t, a)
	re := regexp.MustCompile(`(?i)(^|[^a-z0-9])timeout([^a-z0-9]|$)`)
	want := 0
	for _, l := range lines {
		if re.MatchString(l) {
			want++
		}
	}
	if want == 0 || a.Total != want || a.Returned != min(5, want) {
		t.Fatalf("search total %d returned %d; %d lines hold the word", a.Total, a.Returned, want)
	}
	for _, p := range a.Positions {
		if !re.MatchString(lines[p]) || !strings.Contains(a.Content, strconv.Itoa(p)+"\t"+lines[p]+"\n") {
			t.Fatalf("hit %d is not a whole matching record", p)
		}
	}
	// BM25: a line with both terms ranks above lines with one.
	bh := e.put(t, []byte("node b is fine\nthe disk is ok\nDisk full on node a\nfull moon tonight\ndisk disk disk\n"))
	a, err = e.q.Search(context.Background(), bh, "full disk", SearchOptions{Limit: 3}, 3000)
	if err != nil || a.Total != 4 || a.Positions[0] != 2 {
		t.Fatalf("a line with both terms should rank first: %+v %v", a, err)
	}
	a, err = e.q.Search(context.Background(), h, "zzzznotthere", SearchOptions{}, 3000)
	if err != nil || a.Total != 0 || a.Returned != 0 {
		t.Fatalf("no hits: %+v %v", a, err)
	}
	if _, err := e.q.Search(context.Background(), h, "  ", SearchOptions{}, 3000); !errors.Is(err, ErrBadQuery) {
		t.Fatalf("empty text: %v", err)
	}
	// All hits over the budget: stored with positions, never cut.
	a, err = e.q.Search(context.Background(), h, "orders", SearchOptions{Limit: 1000}, 500)
	if err != nil {
		t.Fatal(err)
	}
	e.checkBudget(t, a)
	if a.Stored == nil {
		t.Fatalf("large search not stored: %+v", a)
	}
	stored := e.storedBytes(t, a.Stored.Handle)
	if n := bytes.Count(stored, []byte("\n")); n != a.Total {
		t.Fatalf("stored %d hits, total %d", n, a.Total)
	}
	var first struct {
		Position int             `json:"position"`
		Record   json.RawMessage `json:"record"`
	}
	json.Unmarshal(stored[:bytes.IndexByte(stored, '\n')], &first)
	if first.Position != a.Positions[0] || string(first.Record) != lines[first.Position] {
		t.Fatalf("stored hit %+v does not match", first)
	}
}

func TestCacheAvoidsReparse(t *testing.T) {
	e := newEnv(t, Options{})
	h := e.put(t, fixture(t, "app-log.jsonl"))
	ctx := context.Background()
	if _, err := e.q.Search(ctx, h, "error", SearchOptions{}, 2000); err != nil {
		t.Fatal(err)
	}
	opens := e.store.opens.Load()
	for range 3 {
		if _, err := e.q.Search(ctx, h, "error", SearchOptions{}, 2000); err != nil {
			t.Fatal(err)
		}
		if _, err := e.q.Slice(ctx, h, SliceOptions{Offset: 5}, 2000); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.store.opens.Load(); got != opens {
		t.Fatalf("repeated queries opened the artifact %d more times", got-opens)
	}
	hits, _, size := e.q.Cache().Stats()
	if hits < 6 || size == 0 {
		t.Fatalf("cache hits %d size %d", hits, size)
	}
	// A bounded cache evicts least recently used.
	c := NewCache(3 << 20)
	small := newEnv(t, Options{Cache: c})
	a := small.put(t, fixture(t, "app-log.jsonl"))     // 2.3 MB
	b := small.put(t, fixture(t, "kubectl-pods.json")) // 2.3 MB
	small.q.Slice(ctx, a, SliceOptions{}, 2000)
	small.q.Slice(ctx, b, SliceOptions{}, 2000)
	if _, _, size := c.Stats(); size > 3<<20 {
		t.Fatalf("cache holds %d bytes, over its bound", size)
	}
	before := small.store.opens.Load()
	small.q.Slice(ctx, a, SliceOptions{}, 2000)
	if small.store.opens.Load() != before+1 {
		t.Fatal("the evicted artifact was not re-read")
	}
}

func TestExpiredWhileCached(t *testing.T) {
	now := time.Now()
	ds, _ := artifact.NewDir(t.TempDir(), artifact.Options{TTL: time.Hour, GCInterval: -1, Now: func() time.Time { return now }})
	ctr, _ := budget.NewCounter("")
	q, _ := New(ds, ctr, Options{})
	h, _, _ := ds.Put(context.Background(), strings.NewReader("a\nb\n"), budget.Meta{})
	if _, err := q.Slice(context.Background(), string(h), SliceOptions{}, 100); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Hour)
	if _, err := q.Slice(context.Background(), string(h), SliceOptions{}, 100); !errors.Is(err, budget.ErrExpired) {
		t.Fatalf("expired artifact served from the cache: %v", err)
	}
}

// Concurrent first queries on one artifact build its parts once and agree
// with a sequential run (run with -race).
func TestConcurrentQueries(t *testing.T) {
	e := newEnv(t, Options{})
	h := e.put(t, fixture(t, "github-issues.json"))
	ctx := context.Background()
	run := func() (string, error) {
		a, err := e.q.Search(ctx, h, "bug crash", SearchOptions{Limit: 3}, 3000)
		if err != nil {
			return "", err
		}
		b, err := e.q.Slice(ctx, h, SliceOptions{Offset: 7, Limit: 2}, 3000)
		if err != nil {
			return "", err
		}
		c, err := e.q.JQ(ctx, h, "map(.number) | add", 100)
		if err != nil {
			return "", err
		}
		return a.Content + b.Content + c.Content, nil
	}
	results := make([]string, 8)
	errs := make([]error, 8)
	done := make(chan int)
	for i := range 8 {
		go func() { results[i], errs[i] = run(); done <- i }()
	}
	for range 8 {
		<-done
	}
	fresh := newEnv(t, Options{})
	fh := fresh.put(t, fixture(t, "github-issues.json"))
	if fh != h {
		t.Fatal("same bytes, different handle")
	}
	e.q = fresh.q
	want, err := run()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if errs[i] != nil || results[i] != want {
			t.Fatalf("goroutine %d: %v\n%s\nwant\n%s", i, errs[i], results[i], want)
		}
	}
}

// TestSearchStopsAtDeadline: a search whose context has ended stops with
// the context's error inside its loops (building the index, scoring the
// postings), not after them; the index a stopped build leaves is not
// kept, and the next search builds it and answers.
func TestSearchStopsAtDeadline(t *testing.T) {
	e := newEnv(t, Options{})
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "line %d disk %d full\n", i, i%7)
	}
	h := e.put(t, []byte(b.String()))
	// The records are parsed and cached; the index is not built yet.
	if _, err := e.q.Slice(context.Background(), h, SliceOptions{Limit: 1}, 500); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.q.Search(ctx, h, "disk", SearchOptions{}, 3000); !errors.Is(err, context.Canceled) {
		t.Fatalf("search building its index after the deadline: %v, want context.Canceled", err)
	}
	a, err := e.q.Search(context.Background(), h, "disk", SearchOptions{}, 3000)
	if err != nil || a.Total != 5000 {
		t.Fatalf("search after a stopped one: %+v %v", a, err)
	}
	// The index is built now: scoring stops at the deadline too.
	if _, err := e.q.Search(ctx, h, "disk", SearchOptions{}, 3000); !errors.Is(err, context.Canceled) {
		t.Fatalf("search scoring after the deadline: %v, want context.Canceled", err)
	}
}

// TestDeclaredTextWithNULIsLines: text declared as text (an MCP text
// block) with a NUL byte near its start is shown by level 2 as text, with
// slices and searches of its lines suggested; those queries read it as
// lines too. On the old code the query detected the artifact again
// without its content type, called it binary and refused every query
// ("has no records or lines"): the view's way back failed.
func TestDeclaredTextWithNULIsLines(t *testing.T) {
	e := newEnv(t, Options{})
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		if i == 5 {
			b.WriteString("line 5: ERROR \x00 a NUL byte\n")
			continue
		}
		fmt.Fprintf(&b, "line %d: something happened with value %d\n", i, 7*i)
	}
	data := []byte(b.String())
	p := budget.NewPipeline(e.ctr, budget.WithStore(e.store))
	res, err := p.Run(context.Background(), budget.Input{Tool: "t", Data: data, ContentType: "text/plain", Budget: 600})
	if err != nil || res.Artifact == nil {
		t.Fatalf("run: %v", err)
	}
	if !strings.Contains(res.Content, "3,000 lines") || !strings.Contains(res.Content, "compact artifact slice") {
		t.Fatalf("the view does not show the text as lines:\n%s", res.Content)
	}
	h := res.Artifact.Handle
	a, err := e.q.Slice(context.Background(), h, SliceOptions{Offset: 4, Limit: 2}, 500)
	if err != nil || a.Total != 3000 || !strings.Contains(a.Content, "5\tline 5: ERROR") {
		t.Fatalf("slice: %+v %v", a, err)
	}
	a, err = e.q.Search(context.Background(), h, "ERROR", SearchOptions{Limit: 3}, 500)
	if err != nil || a.Returned != 1 || len(a.Positions) != 1 || a.Positions[0] != 5 {
		t.Fatalf("search: %+v %v", a, err)
	}
	a, err = e.q.JQ(context.Background(), h, "length", 500)
	if err != nil || strings.TrimSpace(a.Content) != "3000" {
		t.Fatalf("jq length: %+v %v", a, err)
	}
}

// TestMapRecords: each record of a map (a member, shown as the
// one-member object {"key": value}) is its own member in a slice and in a
// search. The records were kept as the walk's one reused buffer, so every
// slice and search showed the last member built, with the longer ones'
// closing braces after it.
func TestMapRecords(t *testing.T) {
	e := newEnv(t, Options{})
	data := fixture(t, "npm-view-react.json")
	var doc struct {
		Time map[string]json.RawMessage `json:"time"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	keys := timeKeys(t, dec)
	if len(keys) != len(doc.Time) || len(keys) < 50 {
		t.Fatalf("fixture: %d keys in .time", len(keys))
	}
	member := func(k string) string {
		name, _ := json.Marshal(k)
		return "{" + string(name) + ":" + string(doc.Time[k]) + "}"
	}
	h := e.put(t, data)
	a, err := e.q.Slice(context.Background(), h, SliceOptions{Path: ".time", Offset: 20, Limit: 5}, 4000)
	if err != nil {
		t.Fatal(err)
	}
	e.checkBudget(t, a)
	if a.Total != len(keys) || a.Returned != 5 {
		t.Fatalf("slice of .time: %+v", a)
	}
	for i := 20; i < 25; i++ {
		if want := strconv.Itoa(i) + "\t" + member(keys[i]) + "\n"; !strings.Contains(a.Content, want) {
			t.Fatalf("record %d is not the member %s:\n%s", i, want, a.Content)
		}
	}
	k := keys[len(keys)/2]
	a, err = e.q.Search(context.Background(), h, k, SearchOptions{Path: ".time", Limit: 3}, 4000)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range a.Positions {
		if want := strconv.Itoa(p) + "\t" + member(keys[p]) + "\n"; !strings.Contains(a.Content, want) {
			t.Fatalf("hit %d is not the member %s:\n%s", p, want, a.Content)
		}
	}
}

// timeKeys returns the member names of the document's "time" object in
// their order (its values are all strings: names and values alternate).
func timeKeys(t *testing.T, dec *json.Decoder) []string {
	t.Helper()
	depth, inTime := 0, false
	var toks []string
	for {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("reading the fixture's .time: %v", err)
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
				continue
			}
			depth--
			if inTime && depth == 1 {
				var keys []string
				for i := 0; i < len(toks); i += 2 {
					keys = append(keys, toks[i])
				}
				return keys
			}
		case string:
			switch {
			case depth == 1 && !inTime && v == "time" && len(toks) == 0:
				inTime = true
			case inTime && depth == 2:
				toks = append(toks, v)
			}
		default:
			if inTime {
				t.Fatalf("fixture: a %T in .time", v)
			}
		}
	}
}
