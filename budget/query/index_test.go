package query

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// TestIndexReused checks the on-disk index: the first query of a large
// artifact writes it, a query in a fresh Querier (a new process) reads it
// instead of parsing, and every answer (slice, search, jq, get of a path)
// is the same as without an index. A damaged index, or one of another
// artifact, is ignored and rewritten.
func TestIndexReused(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"kind":"List","items":[`)
	for i := 0; b.Len() < 2<<20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"state":%q,"msg":"event number %d happened"}`, i, []string{"open", "closed"}[i%2], i)
	}
	b.WriteString(`],"tail":[1,2,3,4,5,6,7,8,9,10]}`)
	doc := []byte(b.String())
	dir := t.TempDir()
	ds, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctr, _ := budget.NewCounter("")
	h, m, err := ds.Put(context.Background(), strings.NewReader(string(doc)), budget.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() *Querier {
		q, err := New(ds, ctr, Options{Cache: NewCache(0)})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	answers := func(q *Querier) []string {
		ctx := context.Background()
		var out []string
		for _, f := range []func() (Answer, error){
			func() (Answer, error) { return q.Slice(ctx, string(h), SliceOptions{Offset: 1234, Limit: 3}, 2000) },
			func() (Answer, error) { return q.Slice(ctx, string(h), SliceOptions{Path: ".tail", Offset: 8}, 2000) },
			func() (Answer, error) { return q.Search(ctx, string(h), "number 4321", SearchOptions{Limit: 2}, 2000) },
			func() (Answer, error) { return q.Get(ctx, string(h)+".items[77]", 2000) },
			func() (Answer, error) { return q.JQ(ctx, string(h), `.items[] | select(.id == 99) | .msg`, 2000) },
		} {
			a, err := f()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s|%d|%d|%v", a.Content, a.Total, a.Returned, a.Positions))
		}
		return out
	}
	idx := filepath.Join(dir, "objects", m.SHA256[:2], m.SHA256+".idx")
	want := answers(fresh()) // no index yet: parses, and writes it
	if _, err := os.Stat(idx); err != nil {
		t.Fatalf("no index written: %v", err)
	}
	q := fresh()
	e, err := q.load(context.Background(), h)
	if err != nil || !e.indexed {
		t.Fatalf("the second load did not use the index: %v, indexed %v", err, e != nil && e.indexed)
	}
	if got := answers(fresh()); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("answers with the index differ:\n%v\nwant\n%v", got, want)
	}
	// Damaged: one byte flipped. Ignored, rebuilt, same answers.
	ib, _ := os.ReadFile(idx)
	ib[len(ib)/2] ^= 0xff
	if err := os.WriteFile(idx, ib, 0o600); err != nil {
		t.Fatal(err)
	}
	if e, _ := fresh().load(context.Background(), h); e.indexed {
		t.Fatal("a damaged index was used")
	}
	if got := answers(fresh()); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatal("answers after a damaged index differ")
	}
	if e, _ := fresh().load(context.Background(), h); !e.indexed {
		t.Fatal("the damaged index was not rewritten")
	}
	// Another artifact's index under this digest's name is refused.
	other := &entry{sum: strings.Repeat("ab", 32), data: doc}
	if _, _, err := decodeIndex(other, mustRead(t, idx)); err == nil {
		t.Fatal("an index was accepted for another digest")
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestIndexWrittenAtStoreTime: level 2 writes the index of the original
// it stores, so that even the first query in a new process reads it
// instead of parsing, with the same answers as a parse; an index written
// by a query from a parse is byte for byte the same. Before, the first
// query wrote it.
func TestIndexWrittenAtStoreTime(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"kind":"List","items":[`)
	for i := 0; b.Len() < 2<<20; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id":%d,"state":%q,"msg":"event number %d happened"}`, i, []string{"open", "closed"}[i%2], i)
	}
	b.WriteString(`],"tail":["a","b","c"]}`)
	doc := []byte(b.String())
	for _, records := range [][]string{nil, {".items"}} {
		dir := t.TempDir()
		ds, err := artifact.NewDir(dir, artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctr, _ := budget.NewCounter("")
		p := budget.NewPipeline(ctr, budget.WithStore(ds))
		res, err := p.Run(context.Background(), budget.Input{Tool: "t", Data: doc, Budget: 2000, Rules: budget.Rules{Records: records}})
		if err != nil || res.Artifact == nil {
			t.Fatalf("records %v: run: %v (artifact %v)", records, err, res.Artifact)
		}
		sum := res.Artifact.SHA256
		idx := filepath.Join(dir, "objects", sum[:2], sum+".idx")
		stored, err := os.ReadFile(idx)
		if err != nil {
			t.Fatalf("records %v: no index at store time: %v", records, err)
		}
		q, err := New(ds, ctr, Options{Cache: NewCache(0)})
		if err != nil {
			t.Fatal(err)
		}
		e, err := q.load(context.Background(), budget.Handle(res.Artifact.Handle))
		if err != nil || !e.indexed {
			t.Fatalf("records %v: the first query did not use the stored index: %v", records, err)
		}
		a, err := q.Slice(context.Background(), res.Artifact.Handle, SliceOptions{Offset: 4321, Limit: 2}, 2000)
		if err != nil || a.Total != res.Collections[0].Count || !strings.Contains(a.Content, `"id":4321,`) {
			t.Fatalf("records %v: slice over the stored index: %v, %+v", records, err, a)
		}
		// The same index as a query derives from a parse.
		os.Remove(idx)
		q2, _ := New(ds, ctr, Options{Cache: NewCache(0)})
		if _, err := q2.load(context.Background(), budget.Handle(res.Artifact.Handle)); err != nil {
			t.Fatal(err)
		}
		parsed, err := os.ReadFile(idx)
		if err != nil || string(parsed) != string(stored) {
			t.Fatalf("records %v: the index written at store time differs from the one a query writes (%d vs %d bytes, %v)", records, len(stored), len(parsed), err)
		}
	}
}

// TestMappedQuery: with Options.Map a DirStore's artifact is mapped, not
// read: the same answers as reading it, no MaxLoad cap (a Querier that
// reads refuses it), and a damaged object is still refused.
func TestMappedQuery(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[`)
	for i := 0; b.Len() < 64<<10; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"msg":"event %d"}`, i, i)
	}
	b.WriteString(`]`)
	dir := t.TempDir()
	ds, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctr, _ := budget.NewCounter("")
	ctx := context.Background()
	h, m, err := ds.Put(ctx, strings.NewReader(b.String()), budget.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(opt Options) (string, error) {
		opt.Cache = NewCache(0)
		q, err := New(ds, ctr, opt)
		if err != nil {
			t.Fatal(err)
		}
		a, err := q.JQ(ctx, string(h), `.[] | select(.id == 777) | .msg`, 2000)
		return a.Content, err
	}
	read, err := ask(Options{})
	if err != nil || !strings.Contains(read, "event 777") {
		t.Fatalf("read: %q, %v", read, err)
	}
	mapped, err := ask(Options{Map: true, MaxLoad: 1024})
	if err != nil || mapped != read {
		t.Fatalf("mapped: %q, %v; want %q", mapped, err, read)
	}
	if _, err := ask(Options{MaxLoad: 1024}); !errors.Is(err, ErrLimit) {
		t.Fatalf("read over MaxLoad: %v, want ErrLimit", err)
	}
	obj := filepath.Join(dir, "objects", m.SHA256[:2], m.SHA256)
	os.Chmod(obj, 0o600)
	raw, _ := os.ReadFile(obj)
	raw[10] ^= 1
	if err := os.WriteFile(obj, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ask(Options{Map: true}); !errors.Is(err, artifact.ErrCorrupt) {
		t.Fatalf("mapped damaged object: %v, want ErrCorrupt", err)
	}
}

// TestViewHandleWhilePrefixTaken: level 2 makes its view with the handle
// the store is expected to issue (the digest's first 12 digits) while the
// original is written; when another digest already holds that prefix,
// the store issues a longer handle and the view is made again: every
// handle the view names is the issued one, and it answers queries.
func TestViewHandleWhilePrefixTaken(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d"}`, i, i)
	}
	b.WriteString(`]}`)
	doc := []byte(b.String())
	sum := sha256.Sum256(doc)
	hexSum := hex.EncodeToString(sum[:])
	dir := t.TempDir()
	ds, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Another digest with the same first 12 digits holds the short handle.
	other := hexSum[:12] + strings.Repeat("0", 52)
	if other == hexSum {
		other = hexSum[:12] + strings.Repeat("1", 52)
	}
	shard := filepath.Join(dir, "handles", hexSum[:2])
	if err := os.MkdirAll(shard, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(shard, hexSum[:12])); err != nil {
		t.Fatal(err)
	}
	ctr, _ := budget.NewCounter("")
	p := budget.NewPipeline(ctr, budget.WithStore(ds))
	res, err := p.Run(context.Background(), budget.Input{Tool: "t", Data: doc, Budget: 600})
	if err != nil || res.Artifact == nil {
		t.Fatalf("run: %v", err)
	}
	h := res.Artifact.Handle
	if len(h) <= 12 || !strings.HasPrefix(hexSum, h) {
		t.Fatalf("handle %q: want a longer prefix of %s", h, hexSum)
	}
	named := regexp.MustCompile(`\b[0-9a-f]{12,64}\b`).FindAllString(res.Content, -1)
	if len(named) == 0 {
		t.Fatalf("the view names no handle:\n%s", res.Content)
	}
	for _, n := range named {
		if strings.HasPrefix(hexSum, n) && n != h {
			t.Errorf("the view names %s, the issued handle is %s:\n%s", n, h, res.Content)
		}
	}
	q, err := New(ds, ctr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := q.Slice(context.Background(), h, SliceOptions{Offset: 7, Limit: 1}, 500); err != nil || !strings.Contains(a.Content, `"id":7,`) {
		t.Fatalf("slice %s: %v %+v", h, err, a)
	}
}

// TestMappedQueryStreams: a one-shot (mapped) query of at least 1 MiB
// streams a filter of the form PATH[] | REST even under MaxInput: the
// answer of the whole-artifact run, without building the whole artifact
// as one jq value (about ten times its size, and no later query in that
// process would reuse it).
func TestMappedQueryStreams(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"kind":"List","items":[`)
	for i := 0; b.Len() < 3<<20/2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"state":%q,"msg":"event number %d happened","n":[%d,%d]}`, i, []string{"open", "closed"}[i%2], i, i%7, i%11)
	}
	b.WriteString(`]}`)
	ds, err := artifact.NewDir(t.TempDir(), artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctr, _ := budget.NewCounter("")
	ctx := context.Background()
	h, _, err := ds.Put(ctx, strings.NewReader(b.String()), budget.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(opt Options, filter string) (Answer, bool) {
		opt.Cache = NewCache(1 << 30)
		// The answers are compared, not timed: a loaded machine (or
		// -race) must not stop the whole-input run at the default 5 s.
		opt.Timeout = 5 * time.Minute
		q, err := New(ds, ctr, opt)
		if err != nil {
			t.Fatal(err)
		}
		a, err := q.JQ(ctx, string(h), filter, 2000)
		if err != nil {
			t.Fatalf("%s: %v", filter, err)
		}
		e, err := q.load(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		return a, e.inputOK
	}
	for _, f := range []string{`.items[] | select(.id % 1000 == 7) | .msg`, `.items[] | select(.state == "open") | .n | add`} {
		whole, built := ask(Options{}, f)
		mapped, mappedBuilt := ask(Options{Map: true}, f)
		if mapped.Content != whole.Content || mapped.Total != whole.Total {
			t.Errorf("%s: mapped answer differs:\n%+v\nwhole:\n%+v", f, mapped, whole)
		}
		if !built || mappedBuilt {
			t.Errorf("%s: whole input built: %v by the reading query (want true), %v by the mapped one (want false)", f, built, mappedBuilt)
		}
	}
	// A filter that does not stream still runs on the whole input.
	if a, built := ask(Options{Map: true}, `.items | length`); !built || !strings.Contains(a.Content, fmt.Sprint(strings.Count(b.String(), `"id":`))) {
		t.Errorf(".items | length: %q, whole input built %v", a.Content, built)
	}
}

// TestIndexOfDeclaredText: the index level 2 writes for a text declared
// text/plain with a NUL byte near its start describes it as lines, as the
// view and a query without the index see it, also when the registry
// names its records ("."). On the old code the index was made with a
// detection that ignored the content type: the text was binary in it, and
// a query in a new process (which reads the index) found no lines.
func TestIndexOfDeclaredText(t *testing.T) {
	var b strings.Builder
	b.WriteString("line 0: start \x00 with a NUL byte\n")
	for i := 1; b.Len() < 3<<20/2; i++ {
		fmt.Fprintf(&b, "line %d: something happened with value %d\n", i, 7*i)
	}
	data := []byte(b.String())
	lines := strings.Count(b.String(), "\n")
	for _, records := range [][]string{nil, {"."}} {
		ds, err := artifact.NewDir(t.TempDir(), artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctr, _ := budget.NewCounter("")
		p := budget.NewPipeline(ctr, budget.WithStore(ds))
		res, err := p.Run(context.Background(), budget.Input{Tool: "t", Data: data, ContentType: "text/plain", Budget: 800, Rules: budget.Rules{Records: records}})
		if err != nil || res.Artifact == nil {
			t.Fatalf("records %v: run: %v", records, err)
		}
		q, err := New(ds, ctr, Options{Cache: NewCache(0)})
		if err != nil {
			t.Fatal(err)
		}
		e, err := q.load(context.Background(), budget.Handle(res.Artifact.Handle))
		if err != nil || !e.indexed {
			t.Fatalf("records %v: the query did not read the index written at store time: %v", records, err)
		}
		a, err := q.Slice(context.Background(), res.Artifact.Handle, SliceOptions{Offset: 1000, Limit: 1}, 500)
		if err != nil || a.Total != lines || !strings.Contains(a.Content, "line 1000: ") {
			t.Fatalf("records %v: slice over the index: %v %+v", records, err, a)
		}
	}
}
