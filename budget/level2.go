package budget

import (
	"context"

	"github.com/toolcompact/compact/schemas"
)

// level2 is the artifact level. PLACEHOLDER: the level-2 work replaces
// this file; until then no output that level 1 cannot fit is ever cut,
// and Run reports the numbers.
//
// Contract (see Pipeline.Run): Run calls level2 only when p.store != nil
// and level 1's best output (best) is still over budget. in is the
// original input (in.Data the full bytes), shape its detected shape
// (use EachRecord to walk it), and best what level 1 made of it. level2
// returns the final result (Level LevelArtifact, Artifact set, every
// collection's Shown filled) or an error; a *FitError when even the
// summary does not fit.
func (p *Pipeline) level2(ctx context.Context, in Input, shape Shape, best Level1Result) (schemas.Result, error) {
	return schemas.Result{}, &FitError{
		Tool:   in.Tool,
		Budget: best.Result.Tokens.Budget,
		Tokens: best.Result.Tokens.After,
		Level:  schemas.LevelFields,
		Reason: "the artifact level is not available yet",
	}
}
