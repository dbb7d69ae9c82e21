package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/toolcompact/compact/schemas"
)

// MaxHeaderBytes bounds the JSON header line of a plugin's output.
const MaxHeaderBytes = 1 << 20

// MaxPluginActions bounds the actions one plugin output may list.
const MaxPluginActions = 256

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

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
// counts are not negative, and the optional actions must have a kind
// (they are forwarded at level "fields", clipped). Unknown header members
// are ignored, so later ABI versions can add some.
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
		Actions     []schemas.Action              `json:"actions"`
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
	if len(raw.Actions) > MaxPluginActions {
		return h, nil, fmt.Errorf("header lists %d actions, more than %d", len(raw.Actions), MaxPluginActions)
	}
	for i, a := range raw.Actions {
		if strings.TrimSpace(a.Kind) == "" {
			return h, nil, fmt.Errorf("actions[%d] has no kind", i)
		}
		if a.Count < 0 {
			return h, nil, fmt.Errorf("actions[%d].count is negative (%d)", i, a.Count)
		}
		// A plugin speaks for level 1 only, and sizes are the host's to measure.
		raw.Actions[i] = schemas.Action{Level: schemas.LevelFields, Kind: clip(a.Kind, 64), Target: clip(a.Target, 256),
			Detail: clip(a.Detail, 512), Count: a.Count}
	}
	h.ABI, h.ContentType, h.Collections, h.Actions = *raw.ABI, *raw.ContentType, *raw.Collections, raw.Actions
	return h, out[nl+1:], nil
}
