package pdk

import (
	"bytes"
	"errors"
	"strconv"
)

// ABIVersion is the compact plugin ABI version this package speaks. It
// equals schemas.ABIVersion (a test checks it); the pdk does not import
// schemas so that plugins stay small and depend on the standard library
// only.
const ABIVersion = 1

// Header is the first line of a plugin's input (the ABI's input header).
type Header struct {
	// ABI is the ABI version of the host that sent the input.
	ABI int
	// Tool is the name of the tool whose output follows.
	Tool string
	// BudgetTokens is the token budget for the whole result.
	BudgetTokens int
	// ContentType is the MIME type of the tool output.
	ContentType string
	// Config is the plugin's string configuration from the registry entry.
	// It is never nil after ParseInput.
	Config map[string]string
	// Args holds the tool's call arguments as raw JSON, or nil.
	Args []byte
}

// Collection is a plugin's account of one input collection in the output
// header.
type Collection struct {
	// Path is the jq path of the collection in the input ("." for the
	// whole input, for example the lines of a text input or a top-level
	// array).
	Path string
	// Count is how many input records the payload represents.
	Count int
	// CountField, when set, names the member of each JSON record object
	// in the payload holding how many input records that element stands
	// for (absent means 1).
	CountField string
}

// OutputHeader is the first line of a plugin's output.
type OutputHeader struct {
	// ContentType is the MIME type of the payload.
	ContentType string
	// Collections lists, for each input collection the payload
	// represents, how many input records it stands for. Empty asks the
	// host to count them from the payload.
	Collections []Collection
	// Actions, when set, say what the payload leaves out or changes, in
	// the form of the result envelope's actions (schemas.Action): written
	// as the header member "actions", an extension the ABI allows (the
	// host ignores output members it does not know, or forwards these).
	Actions []Action
}

// Action is one step a plugin took, such as a field it did not show.
type Action struct {
	// Kind names the step: "drop_field", "drop_empty", ...
	Kind string
	// Target is what the step acted on, such as a field path.
	Target string
	// Count is how many values or records the step affected.
	Count int
	// Detail is a short human-readable explanation.
	Detail string
}

// ErrFraming reports an input that is not a JSON header line, a newline
// and the payload.
var ErrFraming = errors.New("pdk: bad input framing")

// ParseInput splits a plugin input into its header and the raw tool
// output that follows the first newline. The payload and Header.Args alias
// input; the header's strings do not.
func ParseInput(input []byte) (Header, []byte, error) {
	var h Header
	nl := indexNewline(input)
	if nl < 0 {
		return h, nil, Errorf("%w: no newline after the header in %d bytes of input", ErrFraming, len(input))
	}
	if err := parseHeader(input, nl, &h); err != nil {
		return h, nil, Errorf("%w: header: %w", ErrFraming, err)
	}
	return h, input[nl+1:], nil
}

// parseHeaderGeneric parses a header line with the Reader: any valid JSON
// object, in any form. parseHeader tries parseHeaderFast first.
func parseHeaderGeneric(line []byte, h *Header) error {
	h.Config = map[string]string{}
	r := NewReader(line)
	if err := r.BeginObject(); err != nil {
		return err
	}
	for r.More() {
		k, err := r.Key()
		if err != nil {
			return err
		}
		switch string(k) {
		case "abi":
			n, err := r.Int()
			if err != nil {
				return Errorf("abi: %w", err)
			}
			h.ABI = int(n)
		case "tool":
			s, err := r.String()
			if err != nil {
				return Errorf("tool: %w", err)
			}
			h.Tool = string(s)
		case "budget_tokens":
			n, err := r.Int()
			if err != nil {
				return Errorf("budget_tokens: %w", err)
			}
			h.BudgetTokens = int(n)
		case "content_type":
			s, err := r.String()
			if err != nil {
				return Errorf("content_type: %w", err)
			}
			h.ContentType = string(s)
		case "config":
			if r.Peek() == Null {
				r.Next()
				continue
			}
			if err := r.BeginObject(); err != nil {
				return Errorf("config: %w", err)
			}
			for r.More() {
				ck, err := r.Key()
				if err != nil {
					return Errorf("config: %w", err)
				}
				name := string(ck)
				v, err := r.String()
				if err != nil {
					return Errorf("config[%q]: %w", name, err)
				}
				h.Config[name] = string(v)
			}
		case "args":
			raw, err := r.RawValue()
			if err != nil {
				return Errorf("args: %w", err)
			}
			if string(raw) != "null" {
				h.Args = raw
			}
		default:
			if err := r.Skip(); err != nil {
				return Errorf("%s: %w", k, err)
			}
		}
	}
	if r.Err() != nil {
		return r.Err()
	}
	if t := r.Next(); t.Kind != EOF {
		if r.Err() != nil {
			return r.Err()
		}
		return Errorf("unexpected %s after header object", t.Kind)
	}
	return nil
}

// AppendOutput appends the framed output (header line, newline, payload)
// to dst.
func AppendOutput(dst []byte, h OutputHeader, payload []byte) []byte {
	dst = appendOutputHeader(dst, &h)
	dst = append(dst, '\n')
	return append(dst, payload...)
}

// Func is a plugin's compaction function: it receives the parsed header
// and the raw tool output and returns the output header and payload.
type Func func(h Header, payload []byte) (OutputHeader, []byte, error)

// Process runs fn over a framed input and returns the framed output. It
// is what Run does between reading the Extism input and setting the
// output, so that a plugin's whole logic can be tested natively. A panic
// in fn becomes an error.
func Process(input []byte, fn Func) (out []byte, err error) {
	h, payload, err := ParseInput(input)
	if err != nil {
		return nil, err
	}
	oh, body, err := call(fn, h, payload)
	if err != nil {
		return nil, err
	}
	return AppendOutput(make([]byte, 0, len(body)+128), oh, body), nil
}

// call runs fn, turning a panic into an error.
func call(fn Func, h Header, payload []byte) (oh OutputHeader, body []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			oh, body, err = OutputHeader{}, nil, Errorf("pdk: plugin panicked: %v", p)
		}
	}()
	return fn(h, payload)
}

// GroupMarker returns the text-payload prefix "[×N] " that marks a line
// standing for n input lines (the ABI's text grouping convention).
func GroupMarker(n int) string { return "[×" + strconv.Itoa(n) + "] " }

// AppendGroupMarker appends GroupMarker(n) to dst without allocating.
func AppendGroupMarker(dst []byte, n int) []byte {
	dst = append(dst, "[×"...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, ']', ' ')
}

// ParseGroupMarker reports how many input lines a payload line stands for:
// N and the rest of the line if it starts with "[×N] " (N ≥ 1), else 1 and
// the line itself.
func ParseGroupMarker(line []byte) (int, []byte) {
	const open = "[×"
	if !bytes.HasPrefix(line, []byte(open)) {
		return 1, line
	}
	i := len(open)
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j == i || j-i > 9 || j+2 > len(line) || line[j] != ']' || line[j+1] != ' ' {
		return 1, line
	}
	n, _ := strconv.Atoi(string(line[i:j]))
	if n < 1 || line[i] == '0' {
		return 1, line
	}
	return n, line[j+2:]
}
