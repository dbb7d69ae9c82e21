package prompt

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// item is one block while the prompt is being fitted.
type item struct {
	index   int // in the input
	block   schemas.Block
	orig    int // tokens of the input block
	tokens  int // tokens of block.Content now
	dropped bool
	// estimated reports that orig is budget.Estimate's upper bound.
	estimated bool
	// compacted holds the level 1 or 2 result of a tool_result block.
	compacted *schemas.Result
	share     int
}

// state is one fit in progress.
type state struct {
	f      *Fitter
	budget int
	items  []*item
	before int
}

func (s *state) total() int {
	n := 0
	for _, it := range s.items {
		if !it.dropped {
			n += it.tokens
		}
	}
	return n
}

// Fit returns blocks fitted to budget tokens, with a manifest of every
// step, or an error: ErrInvalid for a malformed prompt or budget, a
// *FitError (wrapping budget.ErrCannotFit) when no level can make it fit,
// or the CompactFunc's or Store's error. On error nothing is returned.
func (f *Fitter) Fit(ctx context.Context, blocks []schemas.Block, tokens int) (schemas.ContextResult, error) {
	if tokens <= 0 {
		return schemas.ContextResult{}, fmt.Errorf("%w: budget must be a positive number of tokens, got %d", ErrInvalid, tokens)
	}
	if f.counter == nil {
		return schemas.ContextResult{}, errors.New("prompt: Fitter has no Counter")
	}
	if err := Validate(blocks); err != nil {
		return schemas.ContextResult{}, err
	}
	s := &state{f: f, budget: tokens, items: make([]*item, len(blocks))}
	for i, b := range blocks {
		if err := ctx.Err(); err != nil {
			return schemas.ContextResult{}, fmt.Errorf("prompt: %w", err)
		}
		b.ID = blockID(b, i)
		it := &item{index: i, block: b}
		if b.Kind == schemas.BlockToolResult && len(b.Content) > exactCountLimit {
			// Counting costs about 0.5 s per MB, and a large tool
			// result is compacted anyway: estimate it (an upper bound)
			// and count it exactly only if it is kept as it is.
			it.orig, it.estimated = budget.Estimate([]byte(b.Content)), true
		} else {
			it.orig = f.counter.Count(b.Content)
		}
		it.tokens = it.orig
		s.items[i] = it
		s.before += it.orig
	}
	res := schemas.ContextResult{
		Level:   schemas.LevelNone,
		Tokens:  schemas.Tokens{Before: s.before, Budget: tokens, Encoding: f.counter.Encoding()},
		Actions: []schemas.ContextAction{},
	}
	if s.before > tokens {
		if err := s.compactToolResults(ctx); err != nil {
			return schemas.ContextResult{}, err
		}
	}
	for _, it := range s.items {
		if it.estimated && it.compacted == nil {
			// Kept whole: its size must be exact.
			n := f.counter.Count(it.block.Content)
			s.before -= it.orig - n
			it.orig, it.tokens, it.estimated = n, n, false
		}
		if it.estimated {
			res.Tokens.BeforeEstimated = true
		}
	}
	res.Tokens.Before = s.before
	for _, it := range s.items {
		if it.compacted == nil {
			continue
		}
		r := it.compacted
		res.Level = maxLevel(res.Level, r.Level)
		a := schemas.ContextAction{Block: it.block.ID, Action: schemas.Action{
			Level: r.Level, Kind: "compact", Target: it.block.ID,
			Detail:       compactDetail(it, r),
			TokensBefore: it.orig, TokensAfter: it.tokens,
		}, Steps: r.Actions}
		if r.Artifact != nil {
			a.Handle = r.Artifact.Handle
		}
		res.Actions = append(res.Actions, a)
		res.Results = append(res.Results, schemas.BlockResult{
			Block: it.block.ID, Tool: it.block.Tool, Level: r.Level, Share: it.share,
			Tokens: r.Tokens, Collections: r.Collections, Artifact: r.Artifact,
		})
	}
	if s.total() > tokens {
		acts, err := s.dropHints(ctx)
		if err != nil {
			return schemas.ContextResult{}, err
		}
		if len(acts) > 0 {
			res.Level = schemas.LevelHints
			res.Actions = append(res.Actions, acts...)
		}
	}
	if s.total() > tokens {
		acts, err := s.cutTail(ctx)
		if err != nil {
			return schemas.ContextResult{}, err
		}
		res.Level = schemas.LevelTruncate
		res.Actions = append(res.Actions, acts...)
	}
	res.Blocks = make([]schemas.Block, 0, len(s.items))
	for _, it := range s.items {
		if !it.dropped {
			res.Blocks = append(res.Blocks, it.block)
		}
	}
	res.Tokens.After = s.total()
	if res.Tokens.After > tokens {
		// cutTail either fits or fails; this is a bug guard, not a path.
		return schemas.ContextResult{}, fmt.Errorf("prompt: internal error: %d tokens after all levels, budget %d", res.Tokens.After, tokens)
	}
	return res, nil
}

// exactCountLimit is the size above which a tool_result block's tokens
// are estimated rather than counted (see Fit).
const exactCountLimit = 1 << 20

// levelRank orders levels from least to most lossy.
var levelRank = map[schemas.Level]int{
	schemas.LevelNone: 0, schemas.LevelFields: 1, schemas.LevelArtifact: 2,
	schemas.LevelHints: 3, schemas.LevelTruncate: 4,
}

func maxLevel(a, b schemas.Level) schemas.Level {
	if levelRank[b] > levelRank[a] {
		return b
	}
	return a
}

func compactDetail(it *item, r *schemas.Result) string {
	d := fmt.Sprintf("tool result of %q compacted to its share of %d tokens", it.block.Tool, it.share)
	for _, c := range r.Collections {
		if c.Shown < c.Count {
			d += fmt.Sprintf("; %s: showing %d of %d records", c.Path, c.Shown, c.Count)
		}
	}
	if r.Artifact != nil {
		d += fmt.Sprintf("; the full original is %s (%d bytes)", budget.RefOf(r.Artifact.Handle), r.Artifact.Bytes)
	}
	return d
}

// compactToolResults runs levels 1 and 2 on the tool_result blocks. The
// tokens the other blocks leave (the pool) are shared max-min fairly among
// the tool results: a result smaller than an equal share keeps its size and
// the rest is split evenly among the larger ones, which are compacted to
// their share. The pool is first what all other blocks leave (hints
// included, so that no hint is dropped when compaction alone suffices);
// when a share cannot be met, it grows to what the blocks levels 3 and 4
// can never remove leave, in two steps.
func (s *state) compactToolResults(ctx context.Context) error {
	var tools []*item
	var all, noHints, fixed int // tokens of non-tool blocks each pool keeps
	lastFixed := -1             // the last block level 4 may not cut
	for i, it := range s.items {
		if it.block.Kind == schemas.BlockToolResult || it.block.Kind == schemas.BlockSystem {
			lastFixed = i
		}
	}
	for i, it := range s.items {
		switch {
		case it.block.Kind == schemas.BlockToolResult:
			tools = append(tools, it)
			continue
		case it.block.Kind == schemas.BlockHint:
		case i < lastFixed || it.block.Kind == schemas.BlockSystem:
			noHints += it.tokens
			fixed += it.tokens
		default:
			noHints += it.tokens
		}
		all += it.tokens
	}
	if len(tools) == 0 || s.f.compact == nil {
		return nil
	}
	reserve := 0
	if fixed < noHints {
		reserve = s.f.counter.Count(markerText(cutInfo{lines: 99999, lineTokens: 999999, blocks: 9999, blockTokens: 9999999, partial: "a-long-block-id", handle: "0123456789abcdef"}))
	}
	pools := []int{s.budget - all, s.budget - noHints, s.budget - fixed - reserve, s.budget - fixed}
	var lastErr error
	tried := -1 << 62
	for _, pool := range pools {
		if pool == tried || pool <= 0 {
			continue
		}
		tried = pool
		err := s.compactPass(ctx, tools, pool)
		if err == nil {
			return nil
		}
		if !errors.Is(err, budget.ErrCannotFit) {
			return err
		}
		lastErr = err
	}
	toolMin := 0
	for _, it := range tools {
		toolMin += it.tokens
	}
	reason := "the tool results cannot be compacted into the tokens the other blocks leave"
	if lastErr != nil {
		reason += ": " + lastErr.Error()
	}
	sys := 0
	for _, it := range s.items {
		if it.block.Kind == schemas.BlockSystem {
			sys += it.tokens
		}
	}
	return &FitError{Budget: s.budget, Before: s.before, Best: fixed + toolMin, Fixed: fixed + toolMin,
		System: sys, ToolResults: toolMin, Reason: reason}
}

// compactPass compacts every tool result larger than its share of pool.
// On error every tool result is left as it was given.
func (s *state) compactPass(ctx context.Context, tools []*item, pool int) error {
	sizes := make([]int, len(tools))
	for i, it := range tools {
		sizes[i] = it.orig
	}
	shares := FairShares(sizes, pool)
	type done struct {
		it  *item
		r   schemas.Result
		n   int
		cap int
	}
	var out []done
	for i, it := range tools {
		if it.orig <= shares[i] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("prompt: %w", err)
		}
		if shares[i] <= 0 {
			return &FitError{Budget: s.budget, Before: s.before, Best: s.before,
				Reason: fmt.Sprintf("block %q: a pool of %d tokens leaves no share for each of %d tool results", it.block.ID, pool, len(tools))}
		}
		r, err := s.f.compact(ctx, it.block.Tool, it.block.Content, shares[i])
		if err != nil {
			return fmt.Errorf("prompt: block %q (tool %q, %d tokens, share %d): %w", it.block.ID, it.block.Tool, it.orig, shares[i], err)
		}
		n := s.f.counter.Count(r.Content)
		if n > shares[i] {
			return &FitError{Budget: s.budget, Before: s.before, Best: s.before - it.orig + n,
				Reason: fmt.Sprintf("block %q: the compactor returned %d tokens for a share of %d", it.block.ID, n, shares[i])}
		}
		out = append(out, done{it, r, n, shares[i]})
	}
	for _, d := range out {
		r := d.r
		d.it.block.Content = r.Content
		d.it.tokens = d.n
		d.it.compacted = &r
		d.it.share = d.cap
	}
	return nil
}

// FairShares splits pool tokens max-min fairly among items of the given
// sizes: every item gets min(size, c), where c is the largest cap whose
// shares add up to at most pool. Caps are whole tokens; the tokens left by
// rounding go to the earliest of the capped items, one each.
func FairShares(sizes []int, pool int) []int {
	shares := make([]int, len(sizes))
	if pool < 0 {
		pool = 0
	}
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	left := pool
	for k, i := range order {
		n := len(order) - k
		if sizes[i] <= left/n {
			shares[i] = sizes[i]
			left -= sizes[i]
			continue
		}
		// Every remaining item is larger than an equal share: cap them.
		rest := order[k:]
		sort.Ints(rest)
		for j, r := range rest {
			shares[r] = left / n
			if j < left%n {
				shares[r]++
			}
		}
		break
	}
	return shares
}

// dropHints is level 3: it drops hint blocks, lowest priority first and,
// among equal priorities, the later block first, until the prompt fits or
// no hint is left.
func (s *state) dropHints(ctx context.Context) ([]schemas.ContextAction, error) {
	var hints []*item
	for _, it := range s.items {
		if it.block.Kind == schemas.BlockHint && !it.dropped {
			hints = append(hints, it)
		}
	}
	sort.SliceStable(hints, func(a, b int) bool {
		if hints[a].block.Priority != hints[b].block.Priority {
			return hints[a].block.Priority < hints[b].block.Priority
		}
		return hints[a].index > hints[b].index
	})
	var acts []schemas.ContextAction
	total := s.total()
	for _, it := range hints {
		if total <= s.budget {
			break
		}
		it.dropped = true
		total -= it.tokens
		acts = append(acts, schemas.ContextAction{Block: it.block.ID, Action: schemas.Action{
			Level: schemas.LevelHints, Kind: "drop_hint", Target: it.block.ID, Count: 1,
			Detail:       fmt.Sprintf("hint block dropped (priority %d, %d tokens)", it.block.Priority, it.tokens),
			TokensBefore: it.tokens, TokensAfter: 0,
		}})
	}
	// Store what was dropped only once the drops are decided.
	for i := range acts {
		it := s.byID(acts[i].Block)
		h, err := s.put(ctx, it.block.Content, "text/plain; charset=utf-8")
		if err != nil {
			return nil, err
		}
		acts[i].Handle = h
		acts[i].Detail += whereText(h, it.index)
	}
	return acts, nil
}

func (s *state) byID(id string) *item {
	for _, it := range s.items {
		if it.block.ID == id {
			return it
		}
	}
	return nil
}

func whereText(handle string, index int) string {
	if handle == "" {
		return fmt.Sprintf("; not stored (no store configured): it is blocks[%d] of the input", index)
	}
	return "; stored as artifact " + handle
}
