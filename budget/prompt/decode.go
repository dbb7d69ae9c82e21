package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/schemas"
)

// ErrInvalid is wrapped by every error about a malformed prompt: bad JSON,
// an unknown block kind or field, a duplicate block id.
var ErrInvalid = errors.New("invalid prompt")

// blockFields are the members a block may have, in schema order.
var blockFields = []string{"id", "kind", "priority", "tool", "content"}

// Decode reads a prompt from r: a JSON array of blocks or an object
// {"blocks": [...]} (context.schema.json). It is strict: unknown members,
// wrong types, a missing kind or content, unknown kinds and duplicate ids
// are errors naming the block (blocks[3].kind) and what is expected. IDs
// are not defaulted; Fit does that.
func Decode(r io.Reader) ([]schemas.Block, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("prompt: read blocks: %w", err)
	}
	return DecodeBytes(data)
}

// DecodeBytes is Decode over a byte slice.
func DecodeBytes(data []byte) ([]schemas.Block, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%w: empty input; want a JSON array of blocks or {\"blocks\": [...]}", ErrInvalid)
	}
	var raws []json.RawMessage
	switch trimmed[0] {
	case '[':
		if err := strictUnmarshal(data, &raws); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
	case '{':
		var doc map[string]json.RawMessage
		if err := strictUnmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		for k := range doc {
			if k != "blocks" && k != "$schema" {
				return nil, fmt.Errorf("%w: unknown member %q at the top level; want \"blocks\"", ErrInvalid, k)
			}
		}
		b, ok := doc["blocks"]
		if !ok {
			return nil, fmt.Errorf("%w: the top-level object has no \"blocks\" member", ErrInvalid)
		}
		if err := json.Unmarshal(b, &raws); err != nil || raws == nil {
			return nil, fmt.Errorf("%w: \"blocks\" must be an array of blocks", ErrInvalid)
		}
		if sch, ok := doc["$schema"]; ok {
			var s string
			if json.Unmarshal(sch, &s) != nil {
				return nil, fmt.Errorf("%w: \"$schema\" must be a string", ErrInvalid)
			}
		}
	default:
		return nil, fmt.Errorf("%w: input starts with %q; want a JSON array of blocks or {\"blocks\": [...]}", ErrInvalid, trimmed[0])
	}
	blocks := make([]schemas.Block, len(raws))
	for i, raw := range raws {
		b, err := decodeBlock(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: blocks[%d]%s", ErrInvalid, i, err.Error())
		}
		blocks[i] = b
	}
	if err := Validate(blocks); err != nil {
		return nil, err
	}
	return blocks, nil
}

// strictUnmarshal decodes exactly one JSON value.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fmt.Errorf("the JSON ends at %s before its arrays, objects or strings are closed", where(data, int64(len(data))))
		case errors.As(err, &se):
			// Offset counts the bytes read, the offending one included.
			return fmt.Errorf("%v at %s", err, where(data, max(se.Offset-1, 0)))
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("unexpected data after the JSON value at %s", where(data, dec.InputOffset()))
	}
	return nil
}

// where names the byte at offset off of data as "line L, column C
// (byte N)": line and column count from 1, the byte offset from 0.
func where(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fmt.Sprintf("line %d, column %d (byte %d)", line, col, off)
}

// decodeBlock decodes one block; its errors start with the member path
// (".kind: ...") or ": ..." for the block itself.
func decodeBlock(raw json.RawMessage) (schemas.Block, error) {
	var b schemas.Block
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return b, fmt.Errorf(": a block must be an object with \"kind\" and \"content\"")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !contains(blockFields, k) {
			return b, fmt.Errorf(": unknown member %q; want one of %s", k, strings.Join(blockFields, ", "))
		}
	}
	str := func(name string, dst *string) error {
		v, ok := m[name]
		if !ok {
			return nil
		}
		if err := json.Unmarshal(v, dst); err != nil || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return fmt.Errorf(".%s: must be a string, got %s", name, abbrev(v))
		}
		return nil
	}
	if _, ok := m["kind"]; !ok {
		return b, fmt.Errorf(": missing \"kind\"; want one of %s", kindList())
	}
	if _, ok := m["content"]; !ok {
		return b, fmt.Errorf(": missing \"content\" (a string)")
	}
	var kind string
	for _, f := range []struct {
		name string
		dst  *string
	}{{"id", &b.ID}, {"kind", &kind}, {"tool", &b.Tool}, {"content", &b.Content}} {
		if err := str(f.name, f.dst); err != nil {
			return b, err
		}
	}
	b.Kind = schemas.BlockKind(kind)
	if v, ok := m["priority"]; ok {
		p, err := parseInt(v)
		if err != nil {
			return b, fmt.Errorf(".priority: %v", err)
		}
		b.Priority = p
	}
	return b, nil
}

// parseInt accepts a JSON integer, including an integral number written
// with a fraction or exponent (1.0, 1e2), as JSON Schema does.
func parseInt(v json.RawMessage) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return 0, fmt.Errorf("must be an integer, got %s", abbrev(v))
	}
	n, ok := x.(json.Number)
	if !ok {
		return 0, fmt.Errorf("must be an integer, got %s", abbrev(v))
	}
	if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		if i < math.MinInt32 || i > math.MaxInt32 {
			return 0, fmt.Errorf("%d is out of range (32-bit integer)", i)
		}
		return int(i), nil
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) {
		return 0, fmt.Errorf("must be an integer, got %s", abbrev(v))
	}
	if f < math.MinInt32 || f > math.MaxInt32 {
		return 0, fmt.Errorf("%s is out of range (32-bit integer)", n)
	}
	return int(f), nil
}

// Validate checks blocks as Fit does: every kind is known and ids are
// unique once defaulted (a block without an id is named by its index).
func Validate(blocks []schemas.Block) error {
	seen := make(map[string]int, len(blocks))
	for i, b := range blocks {
		if !knownKind(b.Kind) {
			return fmt.Errorf("%w: blocks[%d].kind: unknown kind %q; want one of %s", ErrInvalid, i, b.Kind, kindList())
		}
		id := blockID(b, i)
		if j, dup := seen[id]; dup {
			return fmt.Errorf("%w: blocks[%d]: id %q is already the id of blocks[%d] (a block without an id is named by its index)", ErrInvalid, i, id, j)
		}
		seen[id] = i
	}
	return nil
}

func blockID(b schemas.Block, i int) string {
	if b.ID != "" {
		return b.ID
	}
	return strconv.Itoa(i)
}

var kinds = []schemas.BlockKind{schemas.BlockSystem, schemas.BlockHint, schemas.BlockUser, schemas.BlockAssistant, schemas.BlockToolResult}

func knownKind(k schemas.BlockKind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

func kindList() string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func abbrev(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) > 40 {
		return string(v[:40]) + "..."
	}
	return string(v)
}
