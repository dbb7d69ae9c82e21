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
// Then the content is checked (ABI.md §4, "What the payload may
// contain"): every output record stands for its input record in order,
// every value is the input's at the same path or a marked shortening of
// it, no member, column or line is new, and every "[×N]" group's lines
// match its template, with errors and warnings verbatim.
//
// records are the registry's record paths for the tool (nil to detect
// them). Count errors wrap budget.ErrCountMismatch; content errors wrap
// ErrContent and start with the first offending path.
func VerifyOutput(input []byte, records []string, out budget.Output) error {
	return verifyOutput(input, records, out, nil)
}

// VerifyPluginOutput is VerifyOutput for the output of a plugin run with
// config (its registry config): the words of the config's values may
// name action targets too, as on every call the host makes. The
// conformance kit uses it.
func VerifyPluginOutput(input []byte, records []string, out budget.Output, config map[string]string) error {
	return verifyOutput(input, records, out, config)
}

// verifyOutput is VerifyOutput with the plugin's config (see verifyShape).
func verifyOutput(input []byte, records []string, out budget.Output, config map[string]string) error {
	in, err := budget.DetectShape(input, records)
	if err != nil && len(records) > 0 {
		in, err = budget.DetectShape(input, nil)
	}
	if err != nil {
		return fmt.Errorf("input: %w", err)
	}
	return verifyShape(input, in, out, config)
}

// verifyShape is VerifyOutput on an input already measured. config is
// the plugin's registry config: the words of its values may appear in
// action targets too (a configured column the input lacks is reported
// as empty).
func verifyShape(input []byte, in budget.Shape, out budget.Output, config ...map[string]string) error {
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
	if err := budget.CheckOutput(in, out); err != nil {
		return err
	}
	var cfg map[string]string
	if len(config) > 0 {
		cfg = config[0]
	}
	return verifyContent(input, in, out, cfg)
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
