package plugintest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolcompact/compact/schemas"
)

// outHeader is the output header decoded with encoding/json into the
// wire type from schemas, independently of the pdk's own JSON code, plus
// the "actions" extension member the pdk may write.
type outHeader struct {
	schemas.OutputHeader
	Actions []schemas.Action `json:"actions,omitempty"`
}

func parseOutput(out []byte) (outHeader, []byte, error) {
	var h outHeader
	nl := bytes.IndexByte(out, '\n')
	if nl < 0 {
		return h, nil, errNoNewline
	}
	dec := json.NewDecoder(bytes.NewReader(out[:nl]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return h, nil, fmt.Errorf("output header %q: %w", out[:nl], err)
	}
	if h.ABI != schemas.ABIVersion {
		return h, nil, fmt.Errorf("output header abi %d, want %d", h.ABI, schemas.ABIVersion)
	}
	return h, out[nl+1:], nil
}
