package host

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// compactor adapts one plugin to budget.Compactor for one registry entry.
type compactor struct {
	p       *plugin
	config  map[string]string
	timeout time.Duration
}

// Compact frames req, calls the plugin, parses its framing and verifies
// its output with VerifyOutput. The pipeline re-counts the records again;
// any error here makes it fall back to the declarative rules.
func (c *compactor) Compact(ctx context.Context, req budget.Request) (budget.Output, error) {
	h := schemas.InputHeader{
		ABI:          schemas.ABIVersion,
		Tool:         req.Tool,
		BudgetTokens: req.Budget,
		ContentType:  req.ContentType,
		Config:       c.config,
	}
	if len(req.Args) > 0 && json.Valid(req.Args) {
		h.Args = json.RawMessage(req.Args)
	}
	in, err := EncodeInput(h, req.Input)
	if err != nil {
		return budget.Output{}, err
	}
	out, err := c.p.call(ctx, in, c.timeout)
	if err != nil {
		return budget.Output{}, err
	}
	hdr, payload, err := DecodeOutput(out)
	if err != nil {
		return budget.Output{}, &PluginError{Plugin: c.p.name, Kind: KindFraming, Err: err}
	}
	if len(payload) > len(req.Input) {
		return budget.Output{}, pluginErr(c.p.name, KindSize,
			"payload is %d bytes, larger than the %d-byte input it replaces", len(payload), len(req.Input))
	}
	res := budget.Output{
		Content:     payload,
		ContentType: hdr.ContentType,
		Declared:    hdr.Collections,
		Actions:     hdr.Actions,
	}
	var verr error
	if req.Shape != nil {
		verr = verifyShape(req.Input, *req.Shape, res, c.config)
	} else {
		verr = verifyOutput(req.Input, req.Rules.Records, res, c.config)
	}
	if err := verr; err != nil {
		kind := KindCount
		if errors.Is(err, ErrContent) {
			kind = KindContent
		}
		return budget.Output{}, &PluginError{Plugin: c.p.name, Kind: kind, Err: err}
	}
	return res, nil
}
