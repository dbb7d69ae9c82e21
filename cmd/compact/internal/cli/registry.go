package cli

import (
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/toolcompact/compact/registry"
	"github.com/toolcompact/compact/schemas"
)

const registryUsage = `compact registry validate FILE...
       compact registry show TOOL [--registry FILE]
       compact registry list [--registry FILE]
       compact registry schema`

// runRegistry is the "compact registry" subcommand.
func runRegistry(e *env) int {
	if len(e.args) == 0 {
		fmt.Fprintf(e.stderr, "usage: %s\n", registryUsage)
		return ExitUsage
	}
	switch e.args[0] {
	case "validate":
		return registryValidate(e, e.args[1:])
	case "show":
		return registryShow(e, e.args[1:])
	case "list":
		return registryList(e, e.args[1:])
	case "schema":
		return registrySchema(e, e.args[1:])
	case "-h", "--help", "help":
		fmt.Fprintf(e.stdout, "usage: %s\n", registryUsage)
		return ExitOK
	}
	fmt.Fprintf(e.stderr, "compact registry: unknown subcommand %q\nusage: %s\n", e.args[0], registryUsage)
	return ExitUsage
}

// registryValidate checks each file and prints "FILE: OK" or every error
// at file:line:col. It exits ExitRegistry when any file is invalid.
func registryValidate(e *env, args []string) int {
	fs := newFlagSet("registry validate", "compact registry validate FILE...", e.stderr)
	files, err := parseArgs(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) == 0 {
		fmt.Fprintln(e.stderr, "compact registry validate: give at least one FILE")
		return ExitUsage
	}
	code := ExitOK
	for _, file := range files {
		r, err := registry.Load(file)
		if err != nil {
			var list registry.Errors
			if errors.As(err, &list) {
				for _, le := range list {
					fmt.Fprintln(e.stdout, le)
				}
				fmt.Fprintf(e.stdout, "%s: invalid (%d %s)\n", file, len(list), plural(len(list), "error", "errors"))
			} else {
				fmt.Fprintln(e.stdout, err)
			}
			code = ExitRegistry
			continue
		}
		own := 0
		for _, ent := range r.Entries() {
			if ent.Source.File == file {
				own++
			}
		}
		fmt.Fprintf(e.stdout, "%s: OK (%d %s)\n", file, own, plural(own, "entry", "entries"))
	}
	return code
}

// registryShow prints the entry a tool gets, as YAML with every default
// spelled out, after a comment saying which entry matched and where it is
// defined.
func registryShow(e *env, args []string) int {
	fs := newFlagSet("registry show", "compact registry show TOOL [--registry FILE]", e.stderr)
	var f engineFlags
	fs.StringVar(&f.registry, "registry", "", "registry `FILE` layered over the built-in one (default $"+envRegistry+")")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(e.stderr, "usage: compact registry show TOOL [--registry FILE]")
		return ExitUsage
	}
	reg, err := f.loadRegistry()
	if err != nil {
		report(e.stderr, "compact registry show", err)
		return exitCode(err)
	}
	ent, how := reg.Resolve(pos[0])
	switch how {
	case registry.MatchFallback:
		fmt.Fprintf(e.stdout, "# tool %q: no entry matched and the registry has no \"default\" entry; built-in fallback\n", pos[0])
	default:
		fmt.Fprintf(e.stdout, "# tool %q matched entry %q (%s), defined at %s\n", pos[0], ent.Name, how, ent.Source)
	}
	return writeYAML(e, ent)
}

// registryList prints every entry in matching order with where it is
// defined.
func registryList(e *env, args []string) int {
	fs := newFlagSet("registry list", "compact registry list [--registry FILE]", e.stderr)
	var f engineFlags
	fs.StringVar(&f.registry, "registry", "", "registry `FILE` layered over the built-in one (default $"+envRegistry+")")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 0 {
		fmt.Fprintln(e.stderr, "usage: compact registry list [--registry FILE]")
		return ExitUsage
	}
	reg, err := f.loadRegistry()
	if err != nil {
		report(e.stderr, "compact registry list", err)
		return exitCode(err)
	}
	for _, ent := range reg.Entries() {
		fmt.Fprintf(e.stdout, "%-24s %s\n", ent.Name, ent.Source)
	}
	return ExitOK
}

// registrySchema prints the registry's JSON Schema (for editors).
func registrySchema(e *env, args []string) int {
	if len(args) != 0 {
		fmt.Fprintln(e.stderr, "usage: compact registry schema")
		return ExitUsage
	}
	b, err := schemas.File(schemas.RegistrySchemaFile)
	if err != nil {
		report(e.stderr, "compact registry schema", err)
		return ExitFailure
	}
	if _, err := e.stdout.Write(b); err != nil {
		return ExitFailure
	}
	return ExitOK
}

func writeYAML(e *env, v any) int {
	enc := yaml.NewEncoder(e.stdout)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		report(e.stderr, "compact registry", err)
		return ExitFailure
	}
	if err := enc.Close(); err != nil {
		return ExitFailure
	}
	return ExitOK
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
