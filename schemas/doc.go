// Package schemas is the leaf every other package of compact imports: the
// JSON Schemas of its public contracts (the field registry, the --json
// result envelope, the prompt block format, the bench questions files, the
// plugin ABI headers and the HTTP API), embedded with go:embed, and the Go
// wire types and ABI constants that match them.
//
// Nothing here has behaviour beyond encoding; it imports the standard
// library only.
package schemas
