package query

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/schemas"
)

// Sentinel errors; the errors returned wrap them and say what and where.
var (
	// ErrBadQuery: the jq filter does not parse or fails at run time, or
	// an offset, limit or collection path is wrong.
	ErrBadQuery = errors.New("bad query")
	// ErrLimit: a query ran past its deadline, or its input or output is
	// over a size cap.
	ErrLimit = errors.New("query limit exceeded")
	// ErrNotJSON: a JSON-only operation on an artifact that is not JSON.
	ErrNotJSON = errors.New("artifact is not JSON")
	// ErrNoValue: a reference's path does not exist in the artifact.
	ErrNoValue = errors.New("no value at path")
)

// Defaults of Options.
const (
	DefaultBudget     = 2000
	DefaultTimeout    = 5 * time.Second
	DefaultMaxInput   = 64 << 20
	DefaultMaxOutput  = 64 << 20
	DefaultMaxLoad    = 512 << 20
	DefaultMaxMemory  = 1 << 30
	DefaultCacheBytes = 256 << 20
	DefaultLimit      = 20
)

// Options configure a Querier; zero values mean the defaults.
type Options struct {
	// Budget is the token budget of an answer when a call passes 0.
	Budget int
	// Timeout is the deadline of one jq run.
	Timeout time.Duration
	// MaxInput caps the bytes of an artifact jq runs on: gojq's Go
	// builtins (sort, group_by, ...) cannot be interrupted by the
	// deadline, so their input must be bounded.
	MaxInput int64
	// MaxOutput caps the bytes a jq run may produce.
	MaxOutput int64
	// MaxLoad caps the bytes of an artifact any query loads.
	MaxLoad int64
	// MaxMemory stops a jq run when the process heap grows by more than
	// this many bytes while it runs (a filter building a huge value, such
	// as [range(1e9)]); 0 means DefaultMaxMemory. The heap is the whole
	// process's, so concurrent work counts too: it is a safety net, not
	// an accounting.
	MaxMemory int64
	// Cache holds parsed artifacts; nil means a new cache of
	// DefaultCacheBytes (NewCache(0) disables caching).
	Cache *Cache
	// Map reads artifacts from a store that can map them (Mapper:
	// artifact.DirStore on Unix) by mapping them into memory instead of
	// copying them into the heap: a query's memory is then the
	// artifact's pages in the file system's cache plus what it decodes,
	// and MaxLoad does not apply. A mapped artifact stays mapped for the
	// life of the process (records and answers point into it): for
	// one-shot processes such as the compact artifact commands, not a
	// long-running server.
	Map bool
}

// Mapper is implemented by stores that can map an artifact's verified
// bytes into memory (see Options.Map).
type Mapper interface {
	Map(ctx context.Context, h budget.Handle) (data []byte, m budget.Meta, release func(), err error)
}

// Stater is implemented by stores that can look up an artifact's metadata
// (and whether it still exists) without reading it. With it, cached
// artifacts are answered without touching their bytes on disk.
type Stater interface {
	Stat(ctx context.Context, h budget.Handle) (budget.Meta, error)
}

// Querier answers queries over the artifacts of one store. It is safe for
// concurrent use.
type Querier struct {
	store   budget.Store
	counter budget.Counter
	opt     Options
	cache   *Cache
	bnd     *bounded // jq's size-checked operators (bounded.go)
	// unbounded runs jq without bounded.go's wrappers: only
	// BenchmarkJQBounded sets it, as the baseline of the same run.
	unbounded bool
}

// New returns a Querier over store that counts answer tokens with counter.
// Answers too large for their budget are stored in store too.
func New(store budget.Store, counter budget.Counter, opt Options) (*Querier, error) {
	if store == nil {
		return nil, errors.New("query: no artifact store")
	}
	if counter == nil {
		return nil, errors.New("query: no token counter")
	}
	if opt.Budget <= 0 {
		opt.Budget = DefaultBudget
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.MaxInput <= 0 {
		opt.MaxInput = DefaultMaxInput
	}
	if opt.MaxOutput <= 0 {
		opt.MaxOutput = DefaultMaxOutput
	}
	if opt.MaxLoad <= 0 {
		opt.MaxLoad = DefaultMaxLoad
	}
	if opt.MaxMemory <= 0 {
		opt.MaxMemory = DefaultMaxMemory
	}
	c := opt.Cache
	if c == nil {
		c = NewCache(DefaultCacheBytes)
	}
	return &Querier{store: store, counter: counter, opt: opt, cache: c, bnd: newBounded(opt.MaxMemory)}, nil
}

// Cache returns the Querier's cache.
func (q *Querier) Cache() *Cache { return q.cache }

// Answer is a budgeted answer to one query.
type Answer struct {
	// Ref is the reference queried, in canonical form.
	Ref string `json:"ref"`
	// Op is "get", "jq", "slice" or "search".
	Op string `json:"op"`
	// Content is what the model sees; it fits Budget.
	Content string `json:"content"`
	// ContentType is the media type of Content when it is the answer
	// itself (a summary is text/plain).
	ContentType string `json:"content_type,omitempty"`
	// Collection is the collection path of a slice or search.
	Collection string `json:"collection,omitempty"`
	// Total is the exact number of items of the full answer: records of
	// the collection (slice), matching records (search), jq outputs, or 1
	// (get).
	Total int `json:"total"`
	// Returned is how many of them Content shows.
	Returned int `json:"returned"`
	// Positions are the record positions (0-based) of the returned items
	// of a slice or search, in the order shown.
	Positions []int `json:"positions,omitempty"`
	// Tokens is the exact token count of Content; Budget the budget.
	Tokens int `json:"tokens"`
	Budget int `json:"budget"`
	// FullTokens is the size of the full answer; FullEstimated says it is
	// an estimate (very large answers are not counted exactly).
	FullTokens    int  `json:"full_tokens"`
	FullEstimated bool `json:"full_estimated,omitempty"`
	// Source is the artifact that was queried.
	Source schemas.Artifact `json:"source"`
	// Stored is the artifact holding the full answer when it did not fit
	// (for a get of a whole artifact, the artifact itself); nil otherwise.
	Stored *schemas.Artifact `json:"stored,omitempty"`
	// Collections describes the full answer's collections, with exact
	// counts and how many records Content shows, when it was summarised.
	Collections []schemas.Collection `json:"collections,omitempty"`
}

// load returns the parsed artifact of h, from the cache when possible.
func (q *Querier) load(ctx context.Context, h budget.Handle) (*entry, error) {
	if sum, ok := q.cache.digestOf(h); ok {
		if st, ok := q.store.(Stater); ok {
			if _, err := st.Stat(ctx, h); err != nil {
				return nil, err
			}
			if e := q.cache.get(sum); e != nil {
				return e, nil
			}
		}
	}
	if mp, ok := q.store.(Mapper); ok && q.opt.Map {
		// Never released (see Options.Map): the mapping outlives the
		// entry's records and answers.
		data, m, _, err := mp.Map(ctx, h)
		if err == nil {
			ne := &entry{sum: m.SHA256, data: data, meta: m}
			e := q.cache.add(ne)
			q.cache.remember(h, m.SHA256)
			if e == ne {
				q.useIndex(e) // index.go
			}
			return e, nil
		}
		if !errors.Is(err, errors.ErrUnsupported) {
			return nil, err
		}
	}
	if st, ok := q.store.(Stater); ok { // refuse a huge artifact before reading it
		m, err := st.Stat(ctx, h)
		if err != nil {
			return nil, err
		}
		if m.Bytes > q.opt.MaxLoad {
			return nil, fmt.Errorf("%w: artifact %s is %d bytes; queries load at most %d bytes (get it whole with compact artifact get)", ErrLimit, h, m.Bytes, q.opt.MaxLoad)
		}
	}
	rc, m, err := q.store.Open(ctx, h)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if e := q.cache.get(m.SHA256); e != nil {
		q.cache.remember(h, m.SHA256)
		return e, nil
	}
	if m.Bytes > q.opt.MaxLoad {
		return nil, fmt.Errorf("%w: artifact %s is %d bytes; queries load at most %d bytes (get it whole with compact artifact get)", ErrLimit, h, m.Bytes, q.opt.MaxLoad)
	}
	// Room for the bytes and the final empty read: ReadFrom grows a
	// buffer with less than bytes.MinRead free, which doubled it.
	data := make([]byte, 0, m.Bytes+bytes.MinRead)
	buf := bytes.NewBuffer(data)
	if _, err := buf.ReadFrom(io.LimitReader(rc, q.opt.MaxLoad+1)); err != nil {
		return nil, fmt.Errorf("artifact %s: %w", h, err)
	}
	ne := &entry{sum: m.SHA256, data: buf.Bytes(), meta: m}
	e := q.cache.add(ne)
	q.cache.remember(h, m.SHA256)
	if e == ne {
		q.useIndex(e) // index.go
	}
	return e, nil
}

func (q *Querier) budgetOf(b int) int {
	if b <= 0 {
		return q.opt.Budget
	}
	return b
}

func (q *Querier) start(ctx context.Context, ref, op string, tokens int) (artifact.Ref, *entry, *Answer, error) {
	r, err := artifact.ParseRef(ref)
	if err != nil {
		return r, nil, nil, err
	}
	e, err := q.load(ctx, r.Handle)
	if err != nil {
		return r, nil, nil, err
	}
	a := &Answer{Ref: r.String(), Op: op, Budget: q.budgetOf(tokens),
		Source: schemas.Artifact{Handle: string(r.Handle), SHA256: e.sum, Bytes: int64(len(e.data))}}
	return r, e, a, nil
}

// Value returns the exact bytes at ref: the whole artifact's original
// bytes, or the original text of the sub-value at its path. It is not
// budgeted (the CLI's get writes it to a file or a pipe).
func (q *Querier) Value(ctx context.Context, ref string) ([]byte, budget.Meta, error) {
	r, e, _, err := q.start(ctx, ref, "get", 0)
	if err != nil {
		return nil, budget.Meta{}, err
	}
	v, err := q.subValue(r, e)
	return v, e.meta, err
}

func (q *Querier) subValue(r artifact.Ref, e *entry) ([]byte, error) {
	if r.Path == "" {
		return e.data, nil
	}
	shape, err := e.getShape()
	if err != nil {
		return nil, err
	}
	var v []byte
	switch shape.Format {
	case budget.FormatJSON, budget.FormatJSONL, budget.FormatConcat:
		v, err = subValue(e.data, shape.Format, r.Steps())
	case budget.FormatText, budget.FormatEmpty:
		v, err = lineAt(e.data, r.Steps())
	default:
		return nil, fmt.Errorf("%w: %s: a path applies to JSON or text; the artifact is %s (%s)", ErrNotJSON, r, shape.Format, e.meta.ContentType)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r, err)
	}
	return v, nil
}

// isText reports whether e is read as lines of text.
func isText(e *entry) bool {
	s, err := e.getShape()
	return err == nil && (s.Format == budget.FormatText || s.Format == budget.FormatEmpty)
}

// Get answers with the value at ref (the whole artifact, or the sub-value
// at its path) when it fits tokens (0: the default budget); otherwise with
// a summary of it: its collections with exact counts and fields, the first
// records that fit, and the handle holding it whole.
func (q *Querier) Get(ctx context.Context, ref string, tokens int) (Answer, error) {
	r, e, a, err := q.start(ctx, ref, "get", tokens)
	if err != nil {
		return Answer{}, err
	}
	v, err := q.subValue(r, e)
	if err != nil {
		return Answer{}, err
	}
	a.Total = 1
	var existing *schemas.Artifact
	ctype := e.meta.ContentType
	switch {
	case r.Path == "":
		existing = &a.Source
	case isText(e):
		ctype = budget.TypeText // one line, as its original text
	default:
		ctype = budget.TypeJSON
	}
	return q.fitValue(ctx, a, v, ctype, existing, "the value at "+a.Ref)
}

// JQ runs the jq program filter once on the value at ref with a deadline,
// and answers with its outputs, one compact JSON text a line, like jq -c.
// The input is the artifact read by its shape (see the package doc): a
// JSON value as itself, JSON Lines and concatenated JSON as one array of
// their values (like jq -s), text as one array of its lines (see Lines).
// A path in ref picks a part of that input first: HANDLE[3] is the 4th
// value of JSON Lines, or line 3 of text. A filter that does not parse
// or fails wraps ErrBadQuery; one that runs past the deadline or produces
// more than MaxOutput bytes wraps ErrLimit; a binary artifact ErrNotJSON.
func (q *Querier) JQ(ctx context.Context, ref, filter string, tokens int) (Answer, error) {
	parsed, err := gojq.Parse(filter)
	if err != nil {
		var pe *gojq.ParseError
		if errors.As(err, &pe) {
			return Answer{}, fmt.Errorf("%w: jq filter %q does not parse: %v at byte %d", ErrBadQuery, clip(filter), err, pe.Offset)
		}
		return Answer{}, fmt.Errorf("%w: jq filter %q does not parse: %v", ErrBadQuery, clip(filter), err)
	}
	var opts []gojq.CompilerOption
	if !q.unbounded {
		boundQuery(parsed)
		opts = q.bnd.opts
	}
	code, err := gojq.Compile(parsed, opts...)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: jq filter %q: %v", ErrBadQuery, clip(filter), err)
	}
	// A filter that iterates a collection first streams its records on
	// an artifact over MaxInput; any other is refused before the
	// artifact is read (jqstream.go).
	var it iteration
	streams := false
	if p, err := gojq.Parse(filter); err == nil {
		// The streamed rest runs bounded too (bounded.go).
		var opts []gojq.CompilerOption
		if !q.unbounded {
			boundQuery(p)
			opts = q.bnd.opts
		}
		it, streams = splitIteration(p, opts...)
	}
	if rr, err := artifact.ParseRef(ref); err == nil {
		if err := q.checkJQSize(ctx, rr, filter, streams); err != nil {
			return Answer{}, err
		}
	}
	r, e, a, err := q.start(ctx, ref, "jq", tokens)
	if err != nil {
		return Answer{}, err
	}
	if int64(len(e.data)) > q.opt.MaxInput {
		if r.Path != "" || !streams {
			return Answer{}, q.tooLargeForJQ(r.Handle, int64(len(e.data)), filter, "does not start with one")
		}
		outs, err := q.jqStream(ctx, r, e, it, filter)
		if err != nil {
			return Answer{}, err
		}
		return q.jqAnswer(ctx, a, outs, filter)
	}
	if q.opt.Map && streams && r.Path == "" && len(e.data) >= budget.IndexMinBytes && canStream(e, it) {
		// One query in this process: decoding the whole artifact into
		// one value (about ten times its size) would serve no later
		// query; streamed, the same answer takes a fraction of the
		// memory and about half the CPU (jqstream.go).
		outs, err := q.jqStream(ctx, r, e, it, filter)
		if err != nil {
			return Answer{}, err
		}
		return q.jqAnswer(ctx, a, outs, filter)
	}
	var input any
	switch {
	case r.Path == "":
		if input, err = e.getInput(); err != nil {
			return Answer{}, fmt.Errorf("artifact %s: %w", r.Handle, err)
		}
	case isText(e):
		v, err := q.subValue(r, e)
		if err != nil {
			return Answer{}, err
		}
		input = lineString(v)
	default:
		v, err := q.subValue(r, e)
		if err != nil {
			return Answer{}, err
		}
		vs, err := decodeAll(v)
		if err != nil {
			return Answer{}, fmt.Errorf("%s: %w", r, err)
		}
		if len(vs) != 1 {
			return Answer{}, fmt.Errorf("%w: %s: the path selects %d JSON values, want 1", ErrNoValue, r, len(vs))
		}
		input = vs[0]
	}
	tctx, cancelT := context.WithTimeout(ctx, q.opt.Timeout)
	defer cancelT()
	rctx, cancel := context.WithCancelCause(tctx)
	defer cancel(nil)
	stopWatch := watchHeap(rctx, cancel, q.opt.MaxMemory)
	defer stopWatch()
	var outs [][]byte
	var size int64
	{
		iter := code.RunWithContext(rctx, input)
		for {
			v, ok := iter.Next()
			if !ok {
				break
			}
			if err, ok := v.(error); ok {
				if rctx.Err() != nil {
					if ctx.Err() != nil {
						return Answer{}, ctx.Err()
					}
					if cause := context.Cause(rctx); errors.Is(cause, errHeap) {
						return Answer{}, fmt.Errorf("%w: jq filter %q: %v after %d outputs; narrow it, or count with length", ErrLimit, clip(filter), cause, len(outs))
					}
					return Answer{}, fmt.Errorf("%w: jq filter %q ran past its deadline of %s after %d outputs", ErrLimit, clip(filter), q.opt.Timeout, len(outs))
				}
				var he *gojq.HaltError
				if errors.As(err, &he) && he.Value() == nil {
					break
				}
				var ce *errValueCap
				if errors.As(err, &ce) {
					return Answer{}, fmt.Errorf("%w: jq filter %q: %v (after %d outputs); narrow it, or count with length", ErrLimit, clip(filter), ce, len(outs))
				}
				return Answer{}, fmt.Errorf("%w: jq filter %q failed: %v", ErrBadQuery, clip(filter), err)
			}
			if n := jsonSize(v, q.opt.MaxOutput-size); size+n > q.opt.MaxOutput {
				return Answer{}, fmt.Errorf("%w: jq filter %q produced more than %d bytes (%d outputs so far); narrow it, or count with length", ErrLimit, clip(filter), q.opt.MaxOutput, len(outs)+1)
			}
			b, err := gojq.Marshal(v)
			if err != nil {
				return Answer{}, fmt.Errorf("%w: jq filter %q: encoding output %d: %v", ErrBadQuery, clip(filter), len(outs), err)
			}
			size += int64(len(b)) + 1
			if size > q.opt.MaxOutput {
				return Answer{}, fmt.Errorf("%w: jq filter %q produced more than %d bytes (%d outputs so far); narrow it, or count with length", ErrLimit, clip(filter), q.opt.MaxOutput, len(outs)+1)
			}
			outs = append(outs, b)
		}
	}
	return q.jqAnswer(ctx, a, outs, filter)
}

// jqAnswer fits the outputs of jq filter into a's budget.
func (q *Querier) jqAnswer(ctx context.Context, a *Answer, outs [][]byte, filter string) (Answer, error) {
	a.Total = len(outs)
	if len(outs) == 1 {
		return q.fitValue(ctx, a, outs[0], budget.TypeJSON, nil, fmt.Sprintf("the output of jq %q", clip(filter)))
	}
	items := make([]item, len(outs))
	for i, b := range outs {
		items[i] = item{pos: i, text: string(b)}
	}
	var whole strings.Builder
	for _, b := range outs {
		whole.Write(b)
		whole.WriteByte('\n')
	}
	a.ContentType = budget.TypeNDJSON
	return q.fitList(ctx, a, listing{
		plain:    whole.String(),
		what:     fmt.Sprintf("jq %q on %s: %d outputs", clip(filter), a.Ref, len(outs)),
		unit:     "outputs",
		items:    items,
		body:     func() ([]byte, string) { return []byte(whole.String()), budget.TypeNDJSON },
		sliceCmd: "compact artifact slice %s --offset %d",
	})
}

// collection picks the collection of a slice or search: path, else the
// reference's path, else the artifact's first (outermost) collection.
func (q *Querier) collection(r artifact.Ref, e *entry, path string) (schemas.Collection, error) {
	shape, err := e.getShape()
	if err != nil {
		return schemas.Collection{}, err
	}
	if path == "" {
		path = r.Path
	}
	if len(shape.Collections) == 0 {
		return schemas.Collection{}, fmt.Errorf("%w: artifact %s (%s) has no records or lines", ErrBadQuery, r.Handle, shape.Format)
	}
	if path == "" {
		return shape.Collections[0], nil
	}
	var have []string
	for _, c := range shape.Collections {
		if c.Path == path || (path == "." && c.Path == ".") {
			return c, nil
		}
		have = append(have, fmt.Sprintf("%s (%s, %d)", c.Path, c.Kind, c.Count))
	}
	return schemas.Collection{}, fmt.Errorf("%w: artifact %s has no collection %s; it has %s", ErrBadQuery, r.Handle, path, strings.Join(have, ", "))
}

// SliceOptions select records for Slice.
type SliceOptions struct {
	// Path is the collection (as listed in the artifact's collections);
	// "" means the reference's path, else the first collection.
	Path string
	// Offset is the position of the first record (0-based).
	Offset int
	// Limit is how many records; 0 means DefaultLimit.
	Limit int
}

// startRecords starts a query over the records of one collection (or
// the lines of a text artifact): the reference, the cached entry, the
// answer being built, the collection at path and its records.
func (q *Querier) startRecords(ctx context.Context, ref, op, path string, tokens int) (artifact.Ref, *entry, *Answer, schemas.Collection, *records, error) {
	r, e, a, err := q.start(ctx, ref, op, tokens)
	if err != nil {
		return r, nil, nil, schemas.Collection{}, nil, err
	}
	c, err := q.collection(r, e, path)
	if err != nil {
		return r, nil, nil, schemas.Collection{}, nil, err
	}
	recs, err := e.getRecords(c.Path)
	if err != nil {
		return r, nil, nil, schemas.Collection{}, nil, fmt.Errorf("artifact %s: %w", r.Handle, err)
	}
	return r, e, a, c, recs, nil
}

// Slice answers with records Offset..Offset+Limit-1 of a collection (or
// lines of a text artifact), each with its position.
func (q *Querier) Slice(ctx context.Context, ref string, o SliceOptions, tokens int) (Answer, error) {
	if o.Offset < 0 || o.Limit < 0 {
		return Answer{}, fmt.Errorf("%w: offset %d and limit %d must not be negative", ErrBadQuery, o.Offset, o.Limit)
	}
	if o.Limit == 0 {
		o.Limit = DefaultLimit
	}
	r, _, a, c, recs, err := q.startRecords(ctx, ref, "slice", o.Path, tokens)
	if err != nil {
		return Answer{}, err
	}
	a.Collection = c.Path
	total := len(recs.raw)
	end := min(total, o.Offset+o.Limit)
	var items []item
	for i := o.Offset; i < end; i++ {
		items = append(items, item{pos: i, text: recordText(recs.raw[i], recs.kind)})
	}
	unit := unitOf(recs.kind)
	a.Total = total
	var what string
	switch {
	case o.Offset >= total:
		what = fmt.Sprintf("%s %s of %s: offset %d is past the end; there are %d %s (positions 0-%d)", unit, c.Path, r.Handle, o.Offset, total, unit, total-1)
	default:
		what = fmt.Sprintf("%s %d-%d of %d at %s of %s", unit, o.Offset, end-1, total, c.Path, r.Handle)
	}
	return q.fitList(ctx, a, listing{
		what: what, unit: unit, items: items,
		body:     func() ([]byte, string) { return joinRecords(items, recs.kind) },
		sliceCmd: "compact artifact slice %s --offset %d",
	})
}

// SearchOptions configure Search.
type SearchOptions struct {
	// Path is the collection, as for Slice.
	Path string
	// Limit caps the records returned, best first; 0 means DefaultLimit.
	Limit int
}

// Search answers with the records (or lines) that contain any term of
// text, ranked by BM25, best first, each with its position; Total is the
// number of matching records.
func (q *Querier) Search(ctx context.Context, ref, text string, o SearchOptions, tokens int) (Answer, error) {
	if strings.TrimSpace(text) == "" {
		return Answer{}, fmt.Errorf("%w: empty search text", ErrBadQuery)
	}
	if o.Limit < 0 {
		return Answer{}, fmt.Errorf("%w: limit %d must not be negative", ErrBadQuery, o.Limit)
	}
	if o.Limit == 0 {
		o.Limit = DefaultLimit
	}
	r, e, a, c, recs, err := q.startRecords(ctx, ref, "search", o.Path, tokens)
	if err != nil {
		return Answer{}, err
	}
	ix, err := e.getIndex(ctx, c.Path)
	if err != nil {
		return Answer{}, fmt.Errorf("artifact %s: %w", r.Handle, err)
	}
	hits, err := ix.search(ctx, text)
	if err != nil {
		return Answer{}, fmt.Errorf("artifact %s: search %q: %w", r.Handle, clip(text), err)
	}
	best := top(hits, o.Limit)
	a.Collection = c.Path
	a.Total = len(hits)
	n := len(best)
	items := make([]item, n)
	for i, h := range best {
		items[i] = item{pos: h.doc, text: recordText(recs.raw[h.doc], recs.kind)}
	}
	unit := unitOf(recs.kind)
	what := fmt.Sprintf("search %q in %s of %s: %d of %d %s match; best %d by BM25", clip(text), c.Path, r.Handle, len(hits), len(recs.raw), unit, n)
	return q.fitList(ctx, a, listing{
		what: what, unit: "matches", items: items,
		body: func() ([]byte, string) {
			var b bytes.Buffer
			for _, h := range top(hits, len(hits)) {
				rec := recs.raw[h.doc]
				line := map[string]any{"position": h.doc, "score": h.score}
				if recs.kind == "lines" {
					line["line"] = string(rec)
				} else {
					line["record"] = json.RawMessage(compact(rec))
				}
				enc, _ := json.Marshal(line)
				b.Write(enc)
				b.WriteByte('\n')
			}
			return b.Bytes(), budget.TypeNDJSON
		},
		sliceCmd: "compact artifact slice %s --offset %d",
	})
}

func unitOf(kind string) string {
	if kind == "lines" {
		return "lines"
	}
	return "records"
}

// recordText is a record as shown: compact JSON, or the line itself.
func recordText(raw []byte, kind string) string {
	if kind == "lines" {
		return string(raw)
	}
	return string(compact(raw))
}

func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

func joinRecords(items []item, kind string) ([]byte, string) {
	var b bytes.Buffer
	for _, it := range items {
		b.WriteString(it.text)
		b.WriteByte('\n')
	}
	if kind == "lines" {
		return b.Bytes(), budget.TypeText
	}
	return b.Bytes(), budget.TypeNDJSON
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
