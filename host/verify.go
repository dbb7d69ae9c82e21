package host

import (
	"fmt"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// VerifyOutput checks a compactor's output against its input the way the
// host checks every plugin call (ABI.md, section 4), without trusting the
// declared counts: every declared collection must exist in the input,
// then budget.CheckOutput applies the pipeline's own rules (declared
// counts equal the input's exact counts, the payload is valid for its
// content type, every input collection is still represented by exactly
// as many records).
//
// records are the registry's record paths for the tool (nil to detect
// them). Count errors wrap budget.ErrCountMismatch.
func VerifyOutput(input []byte, records []string, out budget.Output) error {
	in, err := budget.DetectShape(input, records)
	if err != nil && len(records) > 0 {
		in, err = budget.DetectShape(input, nil)
	}
	if err != nil {
		return fmt.Errorf("input: %w", err)
	}
	return verifyShape(in, out)
}

// verifyShape is VerifyOutput on an input already measured.
func verifyShape(in budget.Shape, out budget.Output) error {
	for _, d := range out.Declared {
		found := false
		for _, c := range in.Collections {
			found = found || c.Path == d.Path
		}
		if !found {
			return fmt.Errorf("%w: declares collection %s, which the input does not have (input collections: %s)",
				budget.ErrCountMismatch, d.Path, pathList(in.Collections))
		}
	}
	return budget.CheckOutput(in, out)
}

func pathList(cs []schemas.Collection) string {
	if len(cs) == 0 {
		return "none"
	}
	ps := make([]string, len(cs))
	for i, c := range cs {
		ps[i] = c.Path
	}
	return strings.Join(ps, ", ")
}
