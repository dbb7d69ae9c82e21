package query

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
)

// entry is one parsed artifact. Its parts are built on first use.
type entry struct {
	sum  string
	data []byte
	meta budget.Meta

	mu       sync.Mutex
	shape    *budget.Shape
	shapeErr error
	input    any // the jq input of the whole artifact (see getInput)
	inputOK  bool
	inputErr error
	records  map[string]*records // by collection path
	indexed  bool                // shape and records came from the on-disk index (index.go)
	indexes  map[string]*index   // by collection path
	cost     int64               // guarded by the cache's mutex
	onGrow   func(*entry, int64) // set once, before e is shared
}

// records are the raw records of one collection, in order.
type records struct {
	path string
	kind string
	raw  [][]byte
}

// grow accounts n more bytes to e (with e.mu held).
func (e *entry) grow(n int64) {
	if e.onGrow != nil {
		e.onGrow(e, n)
	}
}

// getShape detects the artifact's shape once, as level 2 did when it made
// the view: with the content type stored with it (text declared as text
// is lines even with a NUL byte; budget.DetectShapeAs).
func (e *entry) getShape() (budget.Shape, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.shape == nil && e.shapeErr == nil {
		s, err := budget.DetectShapeAs(e.data, nil, e.meta.ContentType)
		e.shape, e.shapeErr = &s, err
	}
	if e.shapeErr != nil {
		return budget.Shape{}, e.shapeErr
	}
	return *e.shape, nil
}

// getInput builds the artifact's jq input once (see the package doc): the
// value of a single JSON value; one array of the values of JSON Lines or
// concatenated JSON (like jq -s); one array of the lines of text (like
// jq -R -s 'split("\n")' without the empty string after a final newline,
// with a "\r" before each "\n" removed and invalid UTF-8 replaced by
// U+FFFD). Numbers stay exact: integers that fit become ints, other
// numbers float64, larger integers json.Number, which gojq understands.
func (e *entry) getInput() (any, error) {
	shape, err := e.getShape()
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.inputOK && e.inputErr == nil {
		switch shape.Format {
		case budget.FormatJSON:
			var vs []any
			if vs, e.inputErr = decodeAll(e.data); e.inputErr == nil {
				if len(vs) != 1 {
					e.inputErr = fmt.Errorf("%w: the artifact was detected as one JSON value but holds %d", ErrNotJSON, len(vs))
				} else {
					e.input = vs[0]
				}
			}
			e.grow(4 * int64(len(e.data))) // decoded values take a few times the text
		case budget.FormatJSONL, budget.FormatConcat:
			var vs []any
			if vs, e.inputErr = decodeAll(e.data); e.inputErr == nil {
				e.input = vs
			}
			e.grow(4 * int64(len(e.data)))
		case budget.FormatText, budget.FormatEmpty:
			lines := Lines(e.data)
			e.input = lines
			e.grow(int64(len(e.data)) + 32*int64(len(lines)))
		default:
			e.inputErr = fmt.Errorf("%w: the artifact is %s (%s): jq reads JSON or text; get it whole with compact artifact get", ErrNotJSON, shape.Format, e.meta.ContentType)
		}
		e.inputOK = e.inputErr == nil
	}
	return e.input, e.inputErr
}

// Lines returns text as the jq input of a text artifact: an array of its
// lines, as strings. Lines end at "\n"; a final "\n" does not start an
// empty line (empty text has no lines); a "\r" ending a line is removed
// (so "\r\n" text reads like "\n" text); invalid UTF-8 becomes U+FFFD, one
// per run of bad bytes. This is how `jq -R -s 'split("\n")'` reads text,
// without its empty last element, and how compact bench feeds questions
// of input "lines"; line i is also record i of the artifact's "lines"
// collection (slice and search positions) and the reference HANDLE[i].
func Lines(data []byte) []any {
	lines := []any{}
	for len(data) > 0 {
		line := data
		var rest []byte
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, rest = data[:j], data[j+1:]
		}
		lines = append(lines, lineString(bytes.TrimSuffix(line, []byte("\r"))))
		data = rest
	}
	return lines
}

// lineString is a line (without its line end) as jq sees it: valid UTF-8.
func lineString(line []byte) string {
	if utf8.Valid(line) {
		return string(line)
	}
	return strings.ToValidUTF8(string(line), "\uFFFD")
}

// normalize turns json.Numbers into what gojq computes with fastest: an
// int when the number is an integer that fits, a float64 otherwise. Only
// integers beyond int64 stay json.Number, which gojq handles exactly.
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return int(i)
		}
		if strings.ContainsAny(string(x), ".eE") {
			if f, err := x.Float64(); err == nil {
				return f
			}
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
	}
	return v
}

func decodeAll(data []byte) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var vs []any
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return vs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("decoding JSON value %d: %w", len(vs), err)
		}
		vs = append(vs, normalize(v))
	}
}

// getRecords splits one collection into its raw records once.
func (e *entry) getRecords(path string) (*records, error) {
	shape, err := e.getShape()
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if r, ok := e.records[path]; ok {
		return r, nil
	}
	kind := ""
	for _, c := range shape.Collections {
		if c.Path == path {
			kind = c.Kind
		}
	}
	r := &records{path: path, kind: kind}
	var extra int64
	if e.indexed {
		// The index's shape has no path tree: a path it does not list
		// needs the full detection.
		if shape, err = budget.DetectShapeAs(e.data, nil, e.meta.ContentType); err != nil {
			return nil, err
		}
	}
	err = budget.EachRecord(e.data, shape, path, func(i int, raw []byte) error {
		if kind == "map" {
			// A map's record is built in a buffer the walk reuses.
			raw = bytes.Clone(raw)
			extra += int64(len(raw))
		}
		r.raw = append(r.raw, raw)
		extra += 24
		return nil
	})
	if err != nil {
		return nil, err
	}
	if e.records == nil {
		e.records = map[string]*records{}
	}
	e.records[path] = r
	e.grow(extra)
	return r, nil
}

// getIndex builds the search index of one collection once; a build that
// ctx ends is not kept.
func (e *entry) getIndex(ctx context.Context, path string) (*index, error) {
	recs, err := e.getRecords(path)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if ix, ok := e.indexes[path]; ok {
		return ix, nil
	}
	ix, err := buildIndex(ctx, recs.raw)
	if err != nil {
		return nil, err
	}
	if e.indexes == nil {
		e.indexes = map[string]*index{}
	}
	e.indexes[path] = ix
	e.grow(ix.cost)
	return ix, nil
}

// Cache holds parsed artifacts, bounded by an estimate of their memory
// (bytes, decoded values, records, indexes), least recently used out
// first. It is safe for concurrent use.
type Cache struct {
	max int64

	mu      sync.Mutex
	size    int64
	lru     *list.List // of *entry, most recent first
	byS     map[string]*list.Element
	handles map[budget.Handle]string // handle -> digest; handles never change meaning
	hits    int64
	misses  int64
}

// NewCache returns a cache of at most maxBytes; 0 or less disables it.
func NewCache(maxBytes int64) *Cache {
	return &Cache{max: maxBytes, lru: list.New(), byS: map[string]*list.Element{}, handles: map[budget.Handle]string{}}
}

// Stats returns the cache's hits, misses and estimated size in bytes.
func (c *Cache) Stats() (hits, misses, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses, c.size
}

func (c *Cache) get(sum string) *entry {
	if c == nil || c.max <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byS[sum]; ok {
		c.lru.MoveToFront(el)
		c.hits++
		return el.Value.(*entry)
	}
	c.misses++
	return nil
}

func (c *Cache) add(e *entry) *entry {
	if c == nil || c.max <= 0 {
		return e
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byS[e.sum]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*entry)
	}
	e.cost = int64(len(e.data))
	e.onGrow = c.grew
	c.byS[e.sum] = c.lru.PushFront(e)
	c.size += e.cost
	c.evict()
	return e
}

// grew is called (with e.mu held) when a lazy part of e was built.
func (c *Cache) grew(e *entry, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byS[e.sum]; !ok {
		return
	}
	e.cost += n
	c.size += n
	c.evict()
}

// evict drops least recently used entries until the cache fits; the most
// recent entry stays even when it alone is larger (it is in use).
func (c *Cache) evict() {
	for c.size > c.max && c.lru.Len() > 1 {
		el := c.lru.Back()
		e := el.Value.(*entry)
		c.lru.Remove(el)
		delete(c.byS, e.sum)
		c.size -= e.cost
	}
}

func (c *Cache) digestOf(h budget.Handle) (string, bool) {
	if c == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.handles[h]
	return s, ok
}

func (c *Cache) remember(h budget.Handle, sum string) {
	if c == nil || c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.handles) > 100000 {
		clear(c.handles)
	}
	c.handles[h] = sum
}
