package schemas

// ContextSchemaFile is the name, in Files, of the JSON Schema of the prompt
// block format (the input of compact context) and of its result.
const ContextSchemaFile = "context.schema.json"

// ContextSchemaID is the $id of the context schema.
const ContextSchemaID = "https://github.com/toolcompact/compact/schemas/context.schema.json"

// ContextInput is the input document of compact context: the blocks of one
// prompt, in order. A bare JSON array of blocks is accepted too.
type ContextInput struct {
	// Blocks are the prompt's blocks, in order.
	Blocks []Block `json:"blocks"`
}

// ContextResult is what the whole-context fitter made of a prompt. It is
// described by the "result" definition of context.schema.json. Fields are
// only ever added, never renamed.
type ContextResult struct {
	// Blocks are the fitted blocks, in prompt order. Every block carries
	// its ID (the input's, or its index in the input). A cut marker, when
	// level 4 ran, is a block of its own or the end of the block it cut.
	Blocks []Block `json:"blocks"`
	// Level is the most lossy level that ran: "none", "fields",
	// "artifact", "hints" or "truncate".
	Level Level `json:"level"`
	// Tokens gives the prompt's sizes before and after.
	Tokens Tokens `json:"tokens"`
	// Actions is the manifest: every step that changed what the model
	// sees, in order, one per block it changed.
	Actions []ContextAction `json:"actions"`
	// Results summarises the level 1 or 2 result of every tool_result
	// block that was compacted (its collections with exact counts and
	// the artifact holding its original).
	Results []BlockResult `json:"results,omitempty"`
}

// ContextAction is one entry of the manifest of a fitted prompt. Its
// embedded Action says what was done (level, kind, tokens before and
// after, the handle that holds what was removed); Block names the block.
//
// For every entry, TokensBefore - TokensAfter is the number of tokens the
// step removed from the prompt (negative for an added cut marker), so the
// entries add up to Tokens.Before - Tokens.After.
type ContextAction struct {
	// Block is the ID of the block the step changed.
	Block string `json:"block"`
	Action
	// Steps are the actions of the tool result's own compaction (level 1
	// field drops, level 2 store), when the step was a compaction.
	Steps []Action `json:"steps,omitempty"`
}

// BlockResult summarises the compaction of one tool_result block.
type BlockResult struct {
	// Block is the ID of the tool_result block.
	Block string `json:"block"`
	// Tool is the block's tool name.
	Tool string `json:"tool,omitempty"`
	// Level is the level that made the block fit its share.
	Level Level `json:"level"`
	// Share is the token budget the block was given.
	Share int `json:"share"`
	// Tokens are the block's sizes before and after.
	Tokens Tokens `json:"tokens"`
	// Collections lists the block's record collections with exact
	// counts of records in the original and shown.
	Collections []Collection `json:"collections"`
	// Artifact is the stored original, or nil.
	Artifact *Artifact `json:"artifact"`
}
