package schemas

// Level names the least lossy step of the pipeline that made a result fit.
// The values are part of the --json envelope and never change meaning.
type Level string

// The levels, in the order the pipeline tries them.
const (
	// LevelNone: the output fitted as it was.
	LevelNone Level = "none"
	// LevelFields: field compression (a plugin or the declarative rules)
	// removed or shortened fields; every record is still shown.
	LevelFields Level = "fields"
	// LevelArtifact: the full output was stored; the model sees a summary
	// with exact counts, some rows and a handle.
	LevelArtifact Level = "artifact"
	// LevelHints: low-priority hint blocks of a prompt were dropped.
	LevelHints Level = "hints"
	// LevelTruncate: the tail of a prompt was cut at a block boundary.
	LevelTruncate Level = "truncate"
)

// Result is the --json result envelope of one tool output, described by
// result.schema.json. Fields are only ever added, never renamed.
type Result struct {
	// Content is the exact text the model sees.
	Content string `json:"content"`
	// Level is the step that made the output fit.
	Level Level `json:"level"`
	// Tool is the registry name the output was compacted for.
	Tool string `json:"tool,omitempty"`
	// ContentType is the sniffed or declared media type of the input.
	ContentType string `json:"content_type,omitempty"`
	// Tokens gives the sizes before and after, in the budget's encoding.
	Tokens Tokens `json:"tokens"`
	// Collections lists every record collection found in the input.
	Collections []Collection `json:"collections"`
	// Artifact is the stored original, or nil when nothing was stored.
	Artifact *Artifact `json:"artifact"`
	// Actions lists what was done, in order.
	Actions []Action `json:"actions"`
}

// Tokens holds token counts of one result.
type Tokens struct {
	// Before is the size of the original output. It is exact unless
	// BeforeEstimated is set (very large inputs are estimated, because an
	// exact count costs far more than the compaction itself).
	Before int `json:"before"`
	// BeforeEstimated reports that Before is an upper-bound estimate.
	BeforeEstimated bool `json:"before_estimated,omitempty"`
	// After is the exact count of Content.
	After int `json:"after"`
	// Budget is the budget the result was fitted to.
	Budget int `json:"budget"`
	// Encoding is the tokenizer encoding, such as "o200k_base".
	Encoding string `json:"encoding"`
}

// Collection is one record collection of the input.
type Collection struct {
	// Path is a jq path into the original output; "." is the root.
	Path string `json:"path"`
	// Kind says what holds the records: "array", "map", "jsonl",
	// "concat" or "lines".
	Kind string `json:"kind,omitempty"`
	// Count is the exact number of records in the original.
	Count int `json:"count"`
	// Shown is how many of them are visible in Content.
	Shown int `json:"shown"`
	// Fields describes the records' fields, where they are objects.
	Fields []Field `json:"fields,omitempty"`
}

// Field describes one field of the records of a collection.
type Field struct {
	// Name is the member name.
	Name string `json:"name"`
	// Types lists the JSON types seen: "string", "number", "boolean",
	// "null", "object", "array".
	Types []string `json:"types"`
	// Present is how many records have the field.
	Present int `json:"present"`
}

// Artifact identifies a stored original output.
type Artifact struct {
	// Handle is the short handle the model uses.
	Handle string `json:"handle"`
	// SHA256 is the hex digest of the stored bytes.
	SHA256 string `json:"sha256"`
	// Bytes is the size of the stored bytes.
	Bytes int64 `json:"bytes"`
}

// Action records one step that changed what the model sees.
type Action struct {
	// Level is the level the step belongs to.
	Level Level `json:"level"`
	// Kind names the step, such as "drop_field", "shorten_strings",
	// "table", "plugin", "plugin_failed", "store", "drop_hint", "cut_tail".
	Kind string `json:"kind"`
	// Target is what the step acted on: a field path, a collection path,
	// a plugin name or a block id.
	Target string `json:"target,omitempty"`
	// Detail is a short human-readable explanation.
	Detail string `json:"detail,omitempty"`
	// Count is how many values, records or blocks the step affected.
	Count int `json:"count,omitempty"`
	// TokensBefore and TokensAfter size the content around the step,
	// where the step measured it.
	TokensBefore int `json:"tokens_before,omitempty"`
	TokensAfter  int `json:"tokens_after,omitempty"`
	// Handle names the artifact that holds what the step removed.
	Handle string `json:"handle,omitempty"`
}
