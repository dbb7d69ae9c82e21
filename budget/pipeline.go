package budget

import (
	"context"
	"errors"
	"fmt"

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
	// OnReject, when set, is told why the Compactor's output was
	// rejected (an error, a record count it did not account for, invalid
	// output); the pipeline then falls back to the declarative rules.
	OnReject func(err error)
}

// FitError is returned (wrapping ErrCannotFit) when no level could make an
// output fit; it carries the numbers.
type FitError struct {
	Tool   string
	Budget int
	// Tokens is the smallest size any level reached.
	Tokens int
	// Level is the last level tried.
	Level schemas.Level
	// Reason says why the next level could not help.
	Reason string
}

func (e *FitError) Error() string {
	return fmt.Sprintf("%s: %v: best was %d tokens at level %q, budget %d: %s",
		e.Tool, ErrCannotFit, e.Tokens, e.Level, e.Budget, e.Reason)
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
	// everything done so far.
	Result schemas.Result
	// Declared is what the compactor that produced Content declared (nil
	// for the declarative rules).
	Declared []schemas.DeclaredCollection
}

// Option configures a Pipeline.
type Option func(*Pipeline)

// WithStore enables level 2 with s as the artifact store.
func WithStore(s Store) Option { return func(p *Pipeline) { p.store = s } }

// Pipeline runs the levels in order on one output at a time. It is safe
// for concurrent use.
type Pipeline struct {
	counter Counter
	store   Store
}

// NewPipeline returns a pipeline that counts tokens with c.
func NewPipeline(c Counter, opts ...Option) *Pipeline {
	p := &Pipeline{counter: c}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Run makes in fit its budget. PLACEHOLDER until level 1 lands.
func (p *Pipeline) Run(ctx context.Context, in Input) (schemas.Result, error) {
	return schemas.Result{}, errors.New("budget: pipeline not implemented yet")
}
