package mcpproxy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/budget/query"
)

// Query is one read_artifact request.
type Query struct {
	// Ref is a handle, optionally followed by a jq path
	// ("a1b2c3d4e5f6.items[3]").
	Ref string `json:"ref"`
	// Op is "get", "jq", "slice" or "search".
	Op string `json:"op"`
	// Filter is the jq program of op "jq".
	Filter string `json:"filter,omitempty"`
	// Offset and Limit select records or lines for op "slice", and cap
	// the hits of op "search".
	Offset int `json:"offset,omitempty"`
	Limit  int `json:"limit,omitempty"`
	// Text is the search text of op "search".
	Text string `json:"text,omitempty"`
	// Budget is the token budget of the answer; 0 means the default.
	Budget int `json:"budget,omitempty"`
}

// Querier answers queries over stored artifacts; each answer is itself a
// budgeted result (an answer too large becomes a new artifact with a
// summary, never cut).
type Querier interface {
	QueryArtifact(ctx context.Context, q Query) (query.Answer, error)
}

const readArtifactDescription = `Read a stored artifact. When a tool result is too large, compact stores the full output and shows a summary with exact counts and a reference (artifact: and 12+ hex digits, e.g. artifact:3f9a1c0b7d2e). Nothing is lost: query it here.
ref: the reference, optionally with a path: artifact:3f9a1c0b7d2e.items[0].name
op "get": the value at ref. op "jq": run the jq program "filter" once on it, e.g. [.[] | select(.state=="open") | .title] or length. jq reads JSON as itself, JSON Lines as one array of the values (like jq -s), text as one array of its lines; a path indexes the same way (artifact:3f9a1c0b7d2e[3] is value or line 3). op "slice": records (or lines) offset..offset+limit. op "search": records matching "text", best first, with their positions.
Answers are budgeted too: a large answer comes back as a new reference with a summary. Any tool argument may also be a ref; the proxy passes the stored value.`

func readArtifactTool() *mcp.Tool {
	schema := json.RawMessage(`{
  "type": "object",
  "properties": {
    "ref": {"type": "string", "description": "artifact reference (artifact:HANDLE), optionally followed by a jq path such as .items[0]"},
    "op": {"type": "string", "enum": ["get", "jq", "slice", "search"], "default": "get"},
    "filter": {"type": "string", "description": "jq program (op jq)"},
    "offset": {"type": "integer", "minimum": 0, "description": "first record or line (op slice)"},
    "limit": {"type": "integer", "minimum": 1, "description": "number of records or lines (op slice), or of hits (op search)"},
    "text": {"type": "string", "description": "what to look for (op search)"},
    "budget": {"type": "integer", "minimum": 1, "description": "token budget of the answer"}
  },
  "required": ["ref"],
  "additionalProperties": false
}`)
	return &mcp.Tool{
		Name:        ReadArtifactTool,
		Title:       "Read artifact",
		Description: readArtifactDescription,
		InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)},
	}
}

// readArtifact is the read_artifact tool handler.
func (p *Proxy) readArtifact(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := rawArgs(req.Params.Arguments)
	if err != nil {
		return errorResult("read_artifact: " + err.Error()), nil
	}
	var q Query
	dec := json.NewDecoder(strings.NewReader(string(args)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return errorResult(fmt.Sprintf("read_artifact: bad arguments: %v (want ref, op, filter, offset, limit, text, budget)", err)), nil
	}
	if q.Op == "" {
		q.Op = "get"
	}
	if q.Budget == 0 {
		q.Budget = p.opts.Budget
	}
	if err := checkQuery(q); err != nil {
		return errorResult("read_artifact: " + err.Error()), nil
	}
	qr, ok := p.engine.(Querier)
	if !ok {
		return errorResult("read_artifact: this engine cannot query artifacts"), nil
	}
	r, err := qr.QueryArtifact(ctx, q)
	if err != nil {
		return errorResult("read_artifact: " + err.Error()), nil
	}
	p.issue(r.Source.Handle)
	if r.Stored != nil {
		p.issue(r.Stored.Handle)
		if p.holdsStandIns(r.Source.Handle) {
			// An answer stored whole holds what its artifact held.
			p.markStandIns(r.Stored.Handle)
		}
	}
	content := r.Content
	r.Content = ""
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: content}},
		Meta:    mcp.Meta{MetaKey: Meta{Answer: &r}},
	}, nil
}

// checkQuery rejects a query whose op and parameters do not go together.
func checkQuery(q Query) error {
	if q.Ref == "" {
		return fmt.Errorf("ref is required: the handle shown in a compacted result")
	}
	if q.Offset < 0 || q.Limit < 0 || q.Budget < 0 {
		return fmt.Errorf("offset, limit and budget must not be negative")
	}
	switch q.Op {
	case "get":
	case "jq":
		if strings.TrimSpace(q.Filter) == "" {
			return fmt.Errorf(`op "jq" needs a filter, such as "length" or ".[0]"`)
		}
	case "slice":
	case "search":
		if strings.TrimSpace(q.Text) == "" {
			return fmt.Errorf(`op "search" needs text`)
		}
	default:
		return fmt.Errorf("op %q: want get, jq, slice or search", q.Op)
	}
	return nil
}

// readArtifactResult is the read_artifact answer res as the client
// receives it: an answer read from an artifact that holds lone
// surrogates as stand-ins (see surrogate.go) has them written back as
// their escapes ("\ud800"), so the client reads the text the upstream
// wrote; any other answer is res.
func (p *Proxy) readArtifactResult(res mcp.Result, version string) mcp.Result {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil {
		return res
	}
	m, ok := r.Meta[MetaKey].(Meta)
	if !ok || m.Answer == nil || !p.holdsStandIns(m.Answer.Source.Handle) {
		return res
	}
	b, err := json.Marshal(r)
	if err != nil {
		return res
	}
	return rawFor(escapeStandIns(b), "tools/call", version)
}
