package query

import (
	"container/heap"
	"context"
	"math"
	"sort"
	"unicode"
	"unicode/utf8"
)

// BM25 parameters (the usual defaults of Lucene and Elasticsearch).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

type posting struct {
	doc int32
	tf  int32
}

// index is an inverted index of the records of one collection.
type index struct {
	n     int
	lens  []int32
	avg   float64
	post  map[string][]posting
	cost  int64
	terms int
}

// tokenize splits text into lower-case terms: runs of letters and digits
// (so "created_at" is "created" and "at", and JSON punctuation is no term).
func tokenize(text []byte, fn func(term string)) {
	start := -1
	var buf []byte
	flush := func(end int) {
		if start < 0 {
			return
		}
		buf = buf[:0]
		for i := start; i < end; {
			r, size := utf8.DecodeRune(text[i:])
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			i += size
		}
		fn(string(buf))
		start = -1
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' {
				if start < 0 {
					start = i
				}
			} else {
				flush(i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
		} else {
			flush(i)
		}
		i += size
	}
	flush(len(text))
}

// ctxEvery is how many records (or postings) the index's loops handle
// between two checks of the context: a check costs ~20 ns, a record's
// tokenizing some microseconds.
const ctxEvery = 1024

// buildIndex indexes recs; it stops with ctx's error when ctx ends.
func buildIndex(ctx context.Context, recs [][]byte) (*index, error) {
	ix := &index{n: len(recs), lens: make([]int32, len(recs)), post: map[string][]posting{}}
	var total int64
	tf := map[string]int32{}
	for d, r := range recs {
		if d%ctxEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		clear(tf)
		var l int32
		tokenize(r, func(t string) {
			tf[t]++
			l++
		})
		ix.lens[d] = l
		total += int64(l)
		for t, f := range tf {
			ix.post[t] = append(ix.post[t], posting{doc: int32(d), tf: f})
		}
	}
	if ix.n > 0 {
		ix.avg = float64(total) / float64(ix.n)
	}
	var cost int64 = int64(len(recs)) * 4
	for t, p := range ix.post {
		cost += int64(len(t)) + 48 + int64(cap(p))*8
	}
	ix.cost = cost
	ix.terms = len(ix.post)
	return ix, nil
}

// hit is one matching record.
type hit struct {
	doc   int
	score float64
}

// better orders hits: higher score first, then earlier record.
func better(a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.doc < b.doc
}

// top returns the best k hits, in order, leaving hits unsorted; it costs
// O(n log k) rather than a full sort.
func top(hits []hit, k int) []hit {
	if k >= len(hits) {
		out := append([]hit(nil), hits...)
		sort.Slice(out, func(i, j int) bool { return better(out[i], out[j]) })
		return out
	}
	h := make(worst, 0, k)
	for _, x := range hits {
		if len(h) < k {
			heap.Push(&h, x)
		} else if better(x, h[0]) {
			h[0] = x
			heap.Fix(&h, 0)
		}
	}
	sort.Slice(h, func(i, j int) bool { return better(h[i], h[j]) })
	return h
}

// worst is a heap of hits with the worst on top.
type worst []hit

func (w worst) Len() int           { return len(w) }
func (w worst) Less(i, j int) bool { return better(w[j], w[i]) }
func (w worst) Swap(i, j int)      { w[i], w[j] = w[j], w[i] }
func (w *worst) Push(x any)        { *w = append(*w, x.(hit)) }
func (w *worst) Pop() any {
	old := *w
	x := old[len(old)-1]
	*w = old[:len(old)-1]
	return x
}

// search returns every record that holds at least one of the terms of
// text, unordered (see top and sortHits); it stops with ctx's error when
// ctx ends.
func (ix *index) search(ctx context.Context, text string) ([]hit, error) {
	seen := map[string]bool{}
	var terms []string
	tokenize([]byte(text), func(t string) {
		if !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	})
	scores := map[int32]float64{}
	seenPostings := 0
	for _, t := range terms {
		ps := ix.post[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (float64(ix.n)-df+0.5)/(df+0.5))
		for _, p := range ps {
			if seenPostings%ctxEvery == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			seenPostings++
			tf := float64(p.tf)
			norm := tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(ix.lens[p.doc])/ix.avg))
			scores[p.doc] += idf * norm
		}
	}
	hits := make([]hit, 0, len(scores))
	for d, s := range scores {
		hits = append(hits, hit{doc: int(d), score: s})
	}
	return hits, nil
}
