package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/toolcompact/compact/schemas"
)

// MaxHeaderBytes bounds the JSON header line of a plugin's output.
const MaxHeaderBytes = 1 << 20

// EncodeInput frames a plugin's input as ABI v1 says: the header as one
// line of JSON, a newline, then data exactly as the tool returned it.
func EncodeInput(h schemas.InputHeader, data []byte) ([]byte, error) {
	if h.Config == nil {
		h.Config = map[string]string{}
	}
	hdr, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("encode plugin input header: %w", err)
	}
	out := make([]byte, 0, len(hdr)+1+len(data))
	out = append(out, hdr...)
	out = append(out, '\n')
	return append(out, data...), nil
}

// DecodeOutput parses a plugin's output framing: one line of JSON (the
// OutputHeader), a newline, then the payload. It checks the header
// strictly: abi must be 1, content_type must be set, collections must be
// a list whose paths are jq paths ("." or starting with ".") and whose
// counts are not negative. Unknown header members are ignored, so later
// ABI versions can add some.
func DecodeOutput(out []byte) (schemas.OutputHeader, []byte, error) {
	var h schemas.OutputHeader
	nl := bytes.IndexByte(out, '\n')
	if nl < 0 {
		if len(out) > 40 {
			out = append(out[:40:40], "..."...)
		}
		return h, nil, fmt.Errorf("no newline after the header line (output starts %q)", out)
	}
	if nl > MaxHeaderBytes {
		return h, nil, fmt.Errorf("header line is %d bytes, more than %d", nl, MaxHeaderBytes)
	}
	line := out[:nl]
	var raw struct {
		ABI         *int                          `json:"abi"`
		ContentType *string                       `json:"content_type"`
		Collections *[]schemas.DeclaredCollection `json:"collections"`
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&raw); err != nil {
		return h, nil, fmt.Errorf("header line is not a JSON object: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return h, nil, errors.New("header line holds more than one JSON value")
	}
	if bytes.TrimSpace(line)[0] != '{' {
		return h, nil, errors.New("header line is not a JSON object")
	}
	switch {
	case raw.ABI == nil:
		return h, nil, errors.New(`header has no "abi"`)
	case *raw.ABI != schemas.ABIVersion:
		return h, nil, fmt.Errorf(`header says "abi":%d, this host speaks %d`, *raw.ABI, schemas.ABIVersion)
	case raw.ContentType == nil || strings.TrimSpace(*raw.ContentType) == "":
		return h, nil, errors.New(`header has no "content_type"`)
	case raw.Collections == nil:
		return h, nil, errors.New(`header has no "collections" list (use [] to let the host count)`)
	}
	for i, c := range *raw.Collections {
		if c.Path != "." && !strings.HasPrefix(c.Path, ".") {
			return h, nil, fmt.Errorf("collections[%d].path %q is not a jq path (\".\" or starting with \".\")", i, c.Path)
		}
		if c.Count < 0 {
			return h, nil, fmt.Errorf("collections[%d].count is negative (%d)", i, c.Count)
		}
	}
	h.ABI, h.ContentType, h.Collections = *raw.ABI, *raw.ContentType, *raw.Collections
	return h, out[nl+1:], nil
}
