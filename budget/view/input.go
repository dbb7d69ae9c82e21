package view

// Input is what Build needs to know about one output.
type Input struct {
	// Tool names the tool; ContentType is the output's media type.
	Tool, ContentType string
	// Format is the shape's format: "json", "jsonl", "concat", "text".
	Format string
	// Data is the full output.
	Data []byte
	// Handle is the artifact the full output is stored as, in the form
	// views print it (budget.RefOf: "artifact:3d38d105ebf2").
	Handle string
	// Budget is the token budget; TokensBefore the output's size in
	// tokens, an upper-bound estimate when BeforeEstimated.
	Budget          int
	TokensBefore    int
	BeforeEstimated bool
	// Collections are the output's record collections, outermost first.
	Collections []Collection
	// Args are the tool call's arguments as JSON, when known: rows
	// relevant to them are candidates.
	Args []byte
	// Drop reports whether a field path (relative to a record, as in the
	// profile: "user.avatar_url") is one the rules drop; such fields are
	// not shown as columns (they are still profiled and counted).
	Drop func(path string) bool
	// Identity are field paths relative to a record that name it (the
	// registry's identity): the first one present in every record wins
	// over the detected identity. Empty means detect it.
	Identity []string
	// Index are field paths relative to a record that a collection's
	// index shows after each record's identity, in order (the
	// registry's index); those the records lack are skipped. Empty
	// means the view picks them (index.go).
	Index []string
	// Sort are the keys the index lists records by (the registry's
	// sort): field paths relative to a record, each with a leading "-"
	// when the largest come first (all go one way). Empty means the
	// records' own order, a map's by key.
	Sort []string
	// Notes are lines to show after the header (what level 1 dropped,
	// for instance), each without its newline.
	Notes []string
}

// Collection is one record collection of an output.
type Collection struct {
	// Path is its jq-style path (".items", "." for the root); Kind is
	// "array", "map", "jsonl", "concat" or "lines".
	Path, Kind string
	// Count is the exact number of records.
	Count int
	// Each calls fn with every record in order (the JSON text of an
	// element, {"key": value} of a map member, a line of text).
	Each func(fn func(i int, raw []byte) error) error
	// Pinned are the record indices the registry's pin predicate
	// selects (in order, perhaps not all of them: PinnedCount is all),
	// and Pin the predicate.
	Pinned      []int
	PinnedCount int
	Pin         string
	// PinStopped is true when the pin predicate stopped at its deadline
	// after testing only the first PinTested records: PinnedCount then
	// counts the matches among those only, and the view says "at least".
	PinStopped bool
	PinTested  int
	// Also is true for a collection found besides the registry's.
	Also bool
	// Text is the collection as one slice of Data, when it is one (the
	// array, the object of a map, or the whole stream of a jsonl or
	// concat collection; nil otherwise). With it the view reads an
	// array's or a stream's records in the profile's own walk instead
	// of calling Each, and steps over the collection where it is no
	// fact.
	Text []byte
	// Fed, when not nil, is the collection's profile as another walk fed
	// it (feed.go: level 1's walk, package budget): Build starts from it
	// instead of reading the records again, when it holds Count records
	// of Data. A FedColl serves one Build.
	Fed *FedColl
	// nodes, when not nil, is the tree whose root's children are the
	// collection's records (json_nodes.go): the view shows its nodes
	// at every depth as a collection of their own.
	nodes *nodeTree
	// RecordLists is true for a map whose values are records and lists
	// of records of one shape (npm outdated --all --json: a package's
	// entry, or a list of entries, one per dependent): the view shows
	// every entry, with its key, as a record (json_items.go).
	RecordLists bool
	// inner, when not "", is the path prefix ("testsuite[]") of the
	// fields of the list each record holds whose items are shown as a
	// collection of their own (json_items.go, findNested): the
	// records' section gives them no line, column or reason.
	inner string
	// noSummary: the collection is a map's members without its
	// summaries (json_map.go): its ends are not looked at again.
	noSummary bool
}
