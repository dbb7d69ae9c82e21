// Package prompt fits a whole prompt, given as blocks, to a token budget
// without silent loss.
//
// A prompt is a list of schemas.Block values (kinds system, hint, user,
// assistant and tool_result). Fitter.Fit tries the levels in order and
// stops at the first that makes the prompt fit:
//
//   - levels 1 and 2 on tool_result blocks, through the CompactFunc the
//     caller supplies (host.Engine wires it to its pipeline), each block
//     given a max-min fair share of the tokens the other blocks leave;
//   - level 3 drops hint blocks, lowest priority first, later first among
//     equal priorities, only as many as needed;
//   - level 4 cuts the tail of the prompt at a block or line boundary
//     (never inside a JSON value or a fenced code block, never a
//     tool_result or system block) and leaves a marker saying what was cut.
//
// When even that cannot fit, Fit returns a *FitError (wrapping
// budget.ErrCannotFit) with the numbers, and no result. Every step is
// recorded in the result's manifest (Actions), with the tokens it removed
// and the handle of the artifact that holds what it removed, when a store
// is configured.
//
// A prompt's size is the sum of its blocks' token counts. The framing a
// chat template adds around each block (role markers, separators) is not
// counted: leave headroom for it in the budget.
package prompt

import (
	"context"
	"fmt"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// CompactFunc makes one tool result fit budget tokens with levels 1 and 2
// (host.Engine.Compact is one). It returns an error wrapping
// budget.ErrCannotFit when it cannot; the fitter then tries a larger share
// or gives up with the numbers. Any other error fails the fit.
type CompactFunc func(ctx context.Context, tool, content string, budget int) (schemas.Result, error)

// Fitter fits prompts to budgets. It is safe for concurrent use when its
// Counter, CompactFunc and Store are.
type Fitter struct {
	counter budget.Counter
	compact CompactFunc
	store   budget.Store
}

// Option configures a Fitter.
type Option func(*Fitter)

// WithStore stores what levels 3 and 4 remove (dropped hint blocks, the cut
// tail) in s, so the manifest can name a handle for everything the model
// does not see. Without a store the manifest names the blocks of the
// caller's input instead.
func WithStore(s budget.Store) Option { return func(f *Fitter) { f.store = s } }

// New returns a Fitter that counts tokens with c and compacts tool results
// with compact. A nil compact leaves tool results as they are (levels 1
// and 2 are then unavailable).
func New(c budget.Counter, compact CompactFunc, opts ...Option) *Fitter {
	f := &Fitter{counter: c, compact: compact}
	for _, o := range opts {
		o(f)
	}
	return f
}

// FitError is returned, wrapping budget.ErrCannotFit, when no level can make
// a prompt fit. It carries the numbers.
type FitError struct {
	// Budget is the budget asked for.
	Budget int `json:"budget"`
	// Before is the prompt's size as given.
	Before int `json:"before"`
	// Best is the smallest size any level reached.
	Best int `json:"best"`
	// Fixed is the part of Best no level may remove: system blocks,
	// tool_result blocks after compaction, and the blocks before the
	// cuttable tail.
	Fixed int `json:"fixed"`
	// System and ToolResults break Fixed down.
	System      int `json:"system"`
	ToolResults int `json:"tool_results"`
	// Reason says what stood in the way.
	Reason string `json:"reason"`
}

// Error gives the numbers: the best size reached, the budget, the prompt's
// size and what could not be removed.
func (e *FitError) Error() string {
	return fmt.Sprintf("prompt: %v: best was %d tokens, budget %d (prompt %d tokens; %d cannot be removed: system %d, tool results %d after compaction): %s",
		budget.ErrCannotFit, e.Best, e.Budget, e.Before, e.Fixed, e.System, e.ToolResults, e.Reason)
}

// Unwrap makes errors.Is(err, budget.ErrCannotFit) true.
func (e *FitError) Unwrap() error { return budget.ErrCannotFit }
