package schemas

import (
	"embed"
	"fmt"
	"io/fs"
)

// Files holds the JSON Schemas of this directory, embedded so every
// binary carries the exact contracts it was built against.
//
// Each go:embed pattern must match at least one file, or the package does
// not compile: add a pattern (for example *.md or *.yaml) in the same
// commit as the first file it matches.
//
//go:embed *.json
var Files embed.FS

// RegistrySchemaFile is the name, in Files, of the JSON Schema of the field
// registry. Editors can use it with a comment on a registry's first line:
//
//	# yaml-language-server: $schema=../schemas/registry.schema.json
const RegistrySchemaFile = "registry.schema.json"

// ResultSchemaFile is the name, in Files, of the JSON Schema of the result
// envelope (Result), printed by "compact run --json".
const ResultSchemaFile = "result.schema.json"

// RegistrySchemaID is the $id of the registry schema.
const RegistrySchemaID = "https://github.com/toolcompact/compact/schemas/registry.schema.json"

// File returns the bytes of the embedded file name, such as
// RegistrySchemaFile.
func File(name string) ([]byte, error) {
	b, err := fs.ReadFile(Files, name)
	if err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}
	return b, nil
}
