package budget

// RefPrefix starts the form in which compact prints an artifact's handle
// in text for a model or a person: "artifact:3d38d105ebf2" (a reference
// with a path: "artifact:3d38d105ebf2.items[3]"). A bare hex string
// occurs in ordinary data (git SHAs, container ids, md5 sums); this form
// does not, so a model that passes it on is understood for certain.
// Everything that reads a reference (compact artifact, read_artifact,
// GET /v1/artifacts, the MCP proxy's memory pointers) accepts it, and
// the bare handle too.
const RefPrefix = "artifact:"

// RefOf is the handle h as compact prints it: RefPrefix followed by h.
func RefOf[H ~string](h H) string { return RefPrefix + string(h) }
