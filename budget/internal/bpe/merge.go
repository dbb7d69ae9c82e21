package bpe

import "container/heap"

// smallPiece is the length up to which a pre-token is merged by
// mergeSmall, in arrays on the stack; longer ones go to mergeHeap.
const smallPiece = 64

// none is the rank of a pair that is not a token.
const none = ^uint32(0)

// mergeSmall counts the parts byte-pair encoding merges p into, as
// tiktoken does: repeatedly merge the adjacent pair whose concatenation
// has the lowest rank (the leftmost of equals) until no pair is a token.
// Each merge costs a scan of the parts: O(len(p)^2), for short p.
func (e *Encoding) mergeSmall(p string) int {
	var posBuf [smallPiece + 1]int32
	var rankBuf [smallPiece + 1]uint32
	n := len(p) + 1 // boundaries
	pos, rank := posBuf[:n], rankBuf[:n]
	for i := range pos {
		pos[i] = int32(i)
	}
	pair := func(i int) uint32 { // rank of the parts i and i+1 joined
		if i+2 >= len(pos) {
			return none
		}
		if r, ok := e.lookup(p[pos[i]:pos[i+2]]); ok {
			return uint32(r)
		}
		return none
	}
	for i := range rank {
		rank[i] = pair(i)
	}
	for len(pos) > 2 {
		m, mi := none, -1
		for i, r := range rank[:len(pos)-1] {
			if r < m {
				m, mi = r, i
			}
		}
		if mi < 0 {
			break
		}
		copy(pos[mi+1:], pos[mi+2:])
		copy(rank[mi+1:], rank[mi+2:])
		pos, rank = pos[:len(pos)-1], rank[:len(rank)-1]
		rank[mi] = pair(mi)
		if mi > 0 {
			rank[mi-1] = pair(mi - 1)
		}
	}
	return len(pos) - 1
}

// mergeHeap counts like mergeSmall in O(n log n): the parts form a linked
// list and the candidate merges a heap ordered by rank, then position
// (so the leftmost of equal ranks merges first, as in mergeSmall). An
// entry whose part has since merged or changed its rank is skipped.
func (e *Encoding) mergeHeap(p string) int {
	n := len(p)
	next := make([]int32, n) // start of the next part, n at the end
	prev := make([]int32, n) // start of the previous part, -1 at the start
	rank := make([]uint32, n)
	alive := make([]bool, n)
	for i := range n {
		next[i], prev[i], alive[i] = int32(i+1), int32(i-1), true
	}
	pairRank := func(i int32) uint32 {
		j := next[i]
		if int(j) >= n {
			return none
		}
		if r, ok := e.lookup(p[i:next[j]]); ok {
			return uint32(r)
		}
		return none
	}
	h := &mergeQueue{}
	for i := range int32(n) {
		rank[i] = pairRank(i)
		if rank[i] != none {
			h.items = append(h.items, mergeItem{rank[i], i})
		}
	}
	heap.Init(h)
	parts := n
	for h.Len() > 0 {
		it := heap.Pop(h).(mergeItem)
		i := it.pos
		if !alive[i] || rank[i] != it.rank {
			continue
		}
		// Merge part i with the next one.
		j := next[i]
		alive[j] = false
		next[i] = next[j]
		if int(next[j]) < n {
			prev[next[j]] = i
		}
		parts--
		rank[i] = pairRank(i)
		if rank[i] != none {
			heap.Push(h, mergeItem{rank[i], i})
		}
		if pi := prev[i]; pi >= 0 {
			rank[pi] = pairRank(pi)
			if rank[pi] != none {
				heap.Push(h, mergeItem{rank[pi], pi})
			}
		}
	}
	return parts
}

type mergeItem struct {
	rank uint32
	pos  int32
}

// mergeQueue is a min-heap of merges by rank, then position.
type mergeQueue struct{ items []mergeItem }

func (q *mergeQueue) Len() int { return len(q.items) }
func (q *mergeQueue) Less(a, b int) bool {
	x, y := q.items[a], q.items[b]
	return x.rank < y.rank || x.rank == y.rank && x.pos < y.pos
}
func (q *mergeQueue) Swap(a, b int) { q.items[a], q.items[b] = q.items[b], q.items[a] }
func (q *mergeQueue) Push(x any)    { q.items = append(q.items, x.(mergeItem)) }
func (q *mergeQueue) Pop() any {
	it := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return it
}
