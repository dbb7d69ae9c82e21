package schemas

// Plugin ABI v1. ABI.md in this directory is the prose contract with
// worked examples; abi-input.schema.json and abi-output.schema.json
// describe the two headers. These names and values never change within
// ABI v1; later versions extend them compatibly.
const (
	// ABIVersion is the plugin ABI version this host speaks.
	ABIVersion = 1

	// ExportCompactResult is the export the host calls once per tool
	// result. It takes no parameters and returns an i32: 0 for success,
	// anything else for failure with a message set through Extism's
	// error_set.
	ExportCompactResult = "compact_result"

	// ExportABIVersion is the export the host calls once at load time. It
	// takes no parameters and returns the plugin's ABI version as an i32.
	// The host refuses a plugin whose version it does not speak.
	ExportABIVersion = "compact_abi_version"
)

// InputHeader is the first line of a plugin's Extism input; the raw tool
// output bytes follow the newline exactly as the tool returned them.
type InputHeader struct {
	ABI          int               `json:"abi"`
	Tool         string            `json:"tool"`
	BudgetTokens int               `json:"budget_tokens"`
	ContentType  string            `json:"content_type"`
	Config       map[string]string `json:"config"`
	// Args holds the tool's call arguments, when the host knows them.
	Args any `json:"args,omitempty"`
}

// OutputHeader is the first line of a plugin's Extism output; the
// compacted payload follows the newline.
type OutputHeader struct {
	ABI         int    `json:"abi"`
	ContentType string `json:"content_type"`
	// Collections states, for each input collection the payload
	// represents, how many input records it represents. An empty list
	// asks the host to count them from the payload itself.
	Collections []DeclaredCollection `json:"collections"`
	// Actions, optional, say what the payload leaves out or changes
	// (dropped fields, folded columns), in the form of the result
	// envelope's actions. The host forwards them, at level "fields",
	// after its own "plugin" action; they never replace its checks.
	Actions []Action `json:"actions,omitempty"`
}

// DeclaredCollection is a plugin's account of one input collection.
type DeclaredCollection struct {
	// Path is the jq path of the collection in the input.
	Path string `json:"path"`
	// Count is how many input records the payload represents.
	Count int `json:"count"`
	// CountField, when set, names the member of each record object in a
	// JSON payload that holds how many input records that element stands
	// for (absent means 1). For a text payload, see ABI.md: a line that
	// starts with the marker "[×N] " stands for N input lines.
	CountField string `json:"count_field,omitempty"`
}
