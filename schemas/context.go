package schemas

// BlockKind is the kind of one prompt block.
type BlockKind string

// The block kinds of context.schema.json.
const (
	BlockSystem     BlockKind = "system"
	BlockHint       BlockKind = "hint"
	BlockUser       BlockKind = "user"
	BlockAssistant  BlockKind = "assistant"
	BlockToolResult BlockKind = "tool_result"
)

// Block is one block of a prompt given to the whole-context fitter.
type Block struct {
	// ID names the block in actions; it defaults to its index.
	ID string `json:"id,omitempty"`
	// Kind is the block kind.
	Kind BlockKind `json:"kind"`
	// Priority orders hint blocks: lower priorities are dropped first.
	Priority int `json:"priority,omitempty"`
	// Tool is the tool name of a tool_result block.
	Tool string `json:"tool,omitempty"`
	// Content is the block's text.
	Content string `json:"content"`
}
