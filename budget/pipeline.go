package budget

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/toolcompact/compact/schemas"
)

// Input is one tool output for Pipeline.Run.
type Input struct {
	Tool string
	Data []byte
	// ContentType is the declared media type; "" means sniff it.
	ContentType string
	// Budget is the token budget; Rules.Budget wins when it is set and
	// Budget is 0.
	Budget int
	Rules  Rules
	// Compactor runs level 1; nil means the declarative rules.
	Compactor Compactor
	// Args are the tool's call arguments as JSON, when known.
	Args []byte
	// Spooled, when set, holds Data already written into the pipeline's
	// store (a pipe spooled while it was read): storing the original
	// commits it instead of writing Data again.
	Spooled Spooled
	// OnReject, when set, is told why the Compactor's output was
	// rejected (an error, a record count it did not account for, invalid
	// output); the pipeline then falls back to the declarative rules.
	OnReject func(err error)
}

// FitError is returned (wrapping ErrCannotFit) when no level could make an
// output fit; it carries the numbers.
type FitError struct {
	Tool   string `json:"tool"`
	Budget int    `json:"budget"`
	// Tokens is the smallest size any level reached.
	Tokens int `json:"tokens"`
	// AtLeast reports that Tokens is a lower bound (more than Budget),
	// not an exact count: the text was not counted to the end.
	AtLeast bool `json:"at_least,omitempty"`
	// Level is the last level tried.
	Level schemas.Level `json:"level"`
	// Reason says why the next level could not help.
	Reason string `json:"reason"`
}

// Error gives the tool, the budget, the best size and level reached, and
// the reason.
func (e *FitError) Error() string {
	least := ""
	if e.AtLeast {
		least = "at least "
	}
	return fmt.Sprintf("%s: %v: best was %s%d tokens at level %q, budget %d: %s",
		e.Tool, ErrCannotFit, least, e.Tokens, e.Level, e.Budget, e.Reason)
}

// Unwrap makes errors.Is(err, ErrCannotFit) true.
func (e *FitError) Unwrap() error { return ErrCannotFit }

// Level1Result is what level 1 produced, handed to level 2 when it did
// not fit.
type Level1Result struct {
	// Result is the result as level 1 left it: Content is level 1's
	// output (the smallest the pipeline got), Level is LevelFields,
	// Tokens.After the exact count of Content, Tokens.Before and
	// Tokens.Budget set, Collections the input's collections with exact
	// Count (Shown = Count, since level 1 keeps every record), Actions
	// everything done so far. When the declarative rules were stopped
	// because their output was already over the budget (a large input),
	// Content is empty, Tokens.After is only known to exceed the budget
	// (AfterAtLeast) and level 1's actions are not listed.
	Result schemas.Result
	// Declared is what the compactor that produced Content declared (nil
	// for the declarative rules).
	Declared []schemas.DeclaredCollection
	// AfterEstimated reports that Result.Tokens.After is Estimate's upper
	// bound, not an exact count.
	//
	// Deprecated: Run no longer estimates level 1's output; it sets
	// AfterAtLeast instead. Kept so that existing code compiles.
	AfterEstimated bool
	// AfterAtLeast reports that Result.Tokens.After is not an exact
	// count but a lower bound that already exceeds the budget: LowerBound
	// of the content, or the count of a prefix of it (CountUpTo). Counting
	// the rest would only confirm that it does not fit.
	AfterAtLeast bool
}

// Option configures a Pipeline.
type Option func(*Pipeline)

// WithStore enables level 2 with s as the artifact store.
func WithStore(s Store) Option { return func(p *Pipeline) { p.store = s } }

// WithMaxInput sets the largest input Run accepts, in bytes; larger
// inputs fail with ErrTooLarge. The limit is opt-in: by default
// (DefaultMaxInput, 0) any input is accepted.
func WithMaxInput(n int64) Option { return func(p *Pipeline) { p.maxInput = n } }

// WithDefaultBudget sets the budget used when neither Input.Budget nor
// Rules.Budget is set (default DefaultBudget).
func WithDefaultBudget(n int) Option { return func(p *Pipeline) { p.defBudget = n } }

// Defaults of a Pipeline.
const (
	// DefaultMaxInput is no limit: Run takes what its caller could
	// hold (the CLI maps files and spools pipes to disk).
	DefaultMaxInput = 0
	DefaultBudget   = 8000
	// exactBeforeLimit: inputs larger than this that do not fit get an
	// estimated Tokens.Before (Estimate's upper bound, BeforeEstimated),
	// since exact counting costs about 0.5 s and 200 MB of allocations
	// per MB and the model never sees the input. 64 KiB is about 30 ms of
	// counting; an input that fits is always counted exactly.
	exactBeforeLimit = 64 << 10
	// level1StopMin is the input size from which the declarative level 1
	// stops once its output is over the budget when a level 2 follows
	// (declarativeUpTo): below it, level 1 runs to its end (a few
	// milliseconds) and its actions are listed in the level-2 result.
	level1StopMin = 8 << 20
)

// ErrTooLarge is wrapped when an input is larger than the pipeline's
// maximum (WithMaxInput).
var ErrTooLarge = errors.New("input too large")

// Pipeline runs the levels in order on one output at a time. It is safe
// for concurrent use.
type Pipeline struct {
	counter   Counter
	store     Store
	maxInput  int64
	defBudget int
}

// NewPipeline returns a pipeline that counts tokens with c.
func NewPipeline(c Counter, opts ...Option) *Pipeline {
	p := &Pipeline{counter: c, maxInput: DefaultMaxInput, defBudget: DefaultBudget}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Run makes in fit its budget, trying the levels in order:
//
//   - none: the output as it is, when it fits (text that is not valid
//     UTF-8 and binary data never qualify);
//   - fields: in.Compactor (nil: Declarative()), whose output Run checks
//     itself: valid for its content type and every input collection
//     still represented by exactly as many records. A compactor that
//     fails either check, or errs, is reported to in.OnReject, listed as
//     a "plugin_failed" action, and replaced by the declarative rules;
//   - artifact: when the pipeline has a Store (see level2.go).
//
// A result that fits at level none or fields also stores the original
// when in.Rules.Store is "always" (storeAlways in level2.go). A lossy
// level-1 result starts with one notice line saying what was left out and
// where the original is (stored whenever the pipeline has a store); the
// notice counts in the budget (notice.go, SplitNotice).
//
// When nothing fits, Run returns a *FitError (errors.Is ErrCannotFit)
// with the numbers; it never cuts an output. An input larger than the
// maximum fails with ErrTooLarge before anything is read.
func (p *Pipeline) Run(ctx context.Context, in Input) (schemas.Result, error) {
	tool := in.Tool
	if tool == "" {
		tool = "(no tool)"
	}
	if p.counter == nil {
		return schemas.Result{}, fmt.Errorf("%s: pipeline has no token counter", tool)
	}
	if p.maxInput > 0 && int64(len(in.Data)) > p.maxInput {
		return schemas.Result{}, fmt.Errorf("%s: %w: %d bytes, the limit is %d bytes", tool, ErrTooLarge, len(in.Data), p.maxInput)
	}
	budget := in.Budget
	if budget == 0 {
		budget = in.Rules.Budget
	}
	if budget == 0 {
		budget = p.defBudget
	}
	if budget < 0 {
		return schemas.Result{}, fmt.Errorf("%s: budget %d: must be positive", tool, budget)
	}
	if err := ctx.Err(); err != nil {
		return schemas.Result{}, err
	}
	res := schemas.Result{
		Tool:        in.Tool,
		Tokens:      schemas.Tokens{Budget: budget, Encoding: p.counter.Encoding()},
		Collections: []schemas.Collection{},
		Actions:     []schemas.Action{},
	}
	// When a view is likely, level 1's walk also profiles the records
	// for it (feed.go); the walk's result is the same.
	shape, err := detectShapeFed(in.Data, in.Rules.Records, in.ContentType, p.feedFor(in, budget))
	if err != nil {
		res.Actions = append(res.Actions, schemas.Action{Level: schemas.LevelNone, Kind: ActRecordsMissing, Detail: err.Error() + "; collections detected instead"})
		if shape, err = DetectShapeAs(in.Data, nil, in.ContentType); err != nil {
			return schemas.Result{}, fmt.Errorf("%s: %w", tool, err)
		}
	}
	res.ContentType = in.ContentType
	if res.ContentType == "" {
		res.ContentType = shape.ContentType
	}
	if shape.LoneSurrogates > 0 {
		res.Actions = append(res.Actions, schemas.Action{Level: schemas.LevelNone, Kind: ActLoneSurrogate, Count: shape.LoneSurrogates,
			Detail: "string escapes of a lone UTF-16 surrogate (such as \\ud800): valid JSON, kept as written; a value decoded and re-encoded (a shortened string, a view's cell) shows each as U+FFFD; the artifact keeps the exact bytes"})
	}
	for _, c := range shape.Collections {
		c.Shown = c.Count
		res.Collections = append(res.Collections, c)
	}

	// Level none. The input is counted exactly when it fits (it is what
	// the model sees) or is small; otherwise only as far as it takes to
	// know that it does not fit.
	// The facts a whole result states, computed once when first needed
	// (notice.go).
	wf := &wholeFacts{}
	showable := shape.Format != FormatBinary && utf8.Valid(in.Data)
	if len(in.Data) > exactBeforeLimit {
		res.Tokens.Before, res.Tokens.BeforeEstimated = Estimate(in.Data), true
	}
	switch {
	case !res.Tokens.BeforeEstimated:
		res.Tokens.Before = p.counter.Count(string(in.Data))
		if showable && res.Tokens.Before <= budget {
			res.Content, res.Level, res.Tokens.After = string(in.Data), schemas.LevelNone, res.Tokens.Before
			if r, ok := p.withFacts(in, shape, res, wf); ok {
				return p.storeAlways(ctx, in, shape, r)
			}
		}
	case showable && !lowerBoundOver(in.Data, budget):
		text := string(in.Data)
		if n, over := CountUpTo(p.counter, text, budget); !over {
			res.Content, res.Level, res.Tokens.After = text, schemas.LevelNone, n
			res.Tokens.Before, res.Tokens.BeforeEstimated = n, false
			if r, ok := p.withFacts(in, shape, res, wf); ok {
				return p.storeAlways(ctx, in, shape, r)
			}
		}
	}

	// Level 1.
	req := Request{Tool: in.Tool, Input: in.Data, ContentType: res.ContentType, Budget: budget, Rules: in.Rules, Args: in.Args, Shape: &shape}
	var out Output
	var declared []schemas.DeclaredCollection
	done := false
	if in.Compactor != nil && shape.Format != FormatBinary {
		o, err := in.Compactor.Compact(ctx, req)
		if err == nil {
			err = checkOutput(shape, o)
		}
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return schemas.Result{}, fmt.Errorf("%s: %w", tool, ctxErr)
			}
			if in.OnReject != nil {
				in.OnReject(err)
			}
			res.Actions = append(res.Actions, schemas.Action{Level: schemas.LevelFields, Kind: "plugin_failed", Target: in.Tool,
				Detail: err.Error() + "; the declarative rules ran instead"})
		} else {
			out, declared, done = o, o.Declared, true
			res.Actions = append(res.Actions, schemas.Action{Level: schemas.LevelFields, Kind: "plugin", Target: in.Tool,
				Detail: "level 1 by the tool's compactor; record counts checked"})
		}
	}
	if !done {
		// With a store, a large output that level 1 cannot bring under
		// the budget goes to level 2, which builds its view from the
		// input: level 1 stops as soon as its output is proved over.
		stop := -1
		if p.store != nil && len(in.Data) >= level1StopMin {
			stop = budget
		}
		o, err := declarativeUpTo(ctx, req, stop)
		var st *level1Stopped
		if errors.As(err, &st) {
			// Its actions are left out: they counted part of an
			// output nobody sees.
			res.Level = schemas.LevelFields
			res.Tokens.After = budget + 1
			res.Actions = append(res.Actions, schemas.Action{Level: schemas.LevelFields, Kind: ActLevel1Stopped, Target: ".",
				Detail: fmt.Sprintf("level 1's output was over the budget after %s of the %s input bytes (%s bytes written); it was stopped there, and its actions are not listed: the view below is made from the original", commas(st.read), commas(len(in.Data)), commas(st.wrote))})
			return p.level2(ctx, in, shape, Level1Result{Result: res, AfterAtLeast: true})
		}
		if err != nil {
			return schemas.Result{}, fmt.Errorf("%s: level 1: %w", tool, err)
		}
		if err := checkOutput(shape, o); err != nil {
			return schemas.Result{}, fmt.Errorf("%s: level 1 (declarative) broke its own output, please report: %w", tool, err)
		}
		out = o
	}
	res.Actions = append(res.Actions, out.Actions...)
	res.Level = schemas.LevelFields
	if done || len(out.Content) == 0 {
		res.Content = string(out.Content)
	} else {
		// The declarative rules' output is a fresh buffer nothing else
		// holds or writes: share it rather than copy a large output.
		res.Content = unsafe.String(&out.Content[0], len(out.Content))
	}
	// Level 1's output is counted exactly only when it fits: LowerBound
	// rejects a hopeless one without counting, CountUpTo stops soon after
	// the budget. When over, Tokens.After is a lower bound above the
	// budget, which fitLevel1 rejects too.
	over := false
	if p.store != nil {
		// Level 2 recounts its own text: that level 1 is over is all it
		// needs, so the bound stops as soon as it passes the budget.
		if lb, lbOver := lowerBound(out.Content, budget); lbOver {
			res.Tokens.After, over = lb, true
		}
	} else if lb := LowerBound(out.Content); lb > budget {
		// No store: the bound is the figure the FitError reports.
		res.Tokens.After, over = lb, true
	}
	if !over {
		res.Tokens.After, over = CountUpTo(p.counter, res.Content, budget)
	}
	// The notice line of a lossy level 1, the way back, and the fit
	// decision with the notice counted: budget/notice.go.
	if !over {
		if r, ok, err := p.fitLevel1(ctx, in, shape, res, wf); err != nil || ok {
			return r, err
		}
	}
	if p.store != nil {
		return p.level2(ctx, in, shape, Level1Result{Result: res, Declared: declared, AfterAtLeast: over})
	}
	if !over {
		// It fitted, but not with its notice line: the exact figure.
		return schemas.Result{}, &FitError{Tool: in.Tool, Budget: budget, Tokens: res.Tokens.After, Level: schemas.LevelFields,
			Reason: fmt.Sprintf("level 1 left %d tokens of %d before, too many with its notice line; no artifact store is configured, and compact never cuts an output", res.Tokens.After, res.Tokens.Before)}
	}
	approx := ""
	if res.Tokens.BeforeEstimated {
		approx = " (estimated)"
	}
	return schemas.Result{}, &FitError{Tool: in.Tool, Budget: budget, Tokens: res.Tokens.After, AtLeast: true, Level: schemas.LevelFields,
		Reason: fmt.Sprintf("level 1 left more than %d tokens of %d%s before; no artifact store is configured, and compact never cuts an output", budget, res.Tokens.Before, approx)}
}
