package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/plugins/builtin"
)

// version overrides the module version read from the build info; a
// packager may set it with -ldflags "-X
// github.com/toolcompact/compact/cmd/compact/internal/cli.version=v1.2.3".
var version string

// buildVersion is what compact --version reports.
type buildVersion struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	// Plugins are the embedded first-party plugins, NAME -> SHA-256.
	Plugins map[string]string `json:"plugins"`
}

// readVersion reads the module version and the VCS revision from the
// build information the Go toolchain writes into every binary: go install
// module@v1.2.3 records v1.2.3; go build in a checkout records the
// revision (and, since Go 1.24, a version derived from the tags).
func readVersion() buildVersion {
	v := buildVersion{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, Plugins: map[string]string{}}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		v.Version = version
	}
	for _, name := range builtin.Names() {
		data, _ := builtin.Wasm(name)
		v.Plugins[name] = sha256Hex(data)
	}
	return v
}

// runVersion is "compact version [--json]" (and "compact --version").
func runVersion(e *env) int {
	fs := newFlagSet("version", "compact version [--json]", e.stderr)
	asJSON := fs.Bool("json", false, "print the version as a JSON object")
	pos, err := parseArgs(fs, e.args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 0 {
		fmt.Fprintf(e.stderr, "compact version: no arguments expected, got %q\n", pos)
		return ExitUsage
	}
	v := readVersion()
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return ExitFailure
		}
		return ExitOK
	}
	fmt.Fprintf(e.stdout, "compact %s\n", v.Version)
	if v.Revision != "" {
		rev := v.Revision
		if v.Time != "" {
			rev += " " + v.Time
		}
		if v.Modified {
			rev += " (modified)"
		}
		fmt.Fprintf(e.stdout, "revision: %s\n", rev)
	}
	fmt.Fprintf(e.stdout, "go: %s %s\n", v.Go, v.Platform)
	var ps []string
	for _, name := range builtin.Names() {
		ps = append(ps, fmt.Sprintf("%s (sha256 %s)", name, v.Plugins[name][:12]))
	}
	fmt.Fprintf(e.stdout, "embedded plugins: %s\n", strings.Join(ps, ", "))
	return ExitOK
}

const pluginListUsage = "compact plugin list [--registry FILE] [--plugin-dir DIR] [--json]"

// pluginList is "compact plugin list" (and "compact plugins"): every
// plugin the registry names, loaded as a run would load it, and every
// embedded one, with its source and SHA-256. It exits ExitCheck when a
// plugin the registry names failed to load (a missing builtin is only
// reported, as runs report it).
func pluginList(e *env, args []string) int {
	const cmd = "compact plugin list"
	var f engineFlags
	fs := newFlagSet("plugin list", pluginListUsage, e.stderr)
	fs.StringVar(&f.registry, "registry", "", "registry `FILE` layered over the built-in one (default $"+envRegistry+")")
	fs.StringVar(&f.pluginDir, "plugin-dir", "", "`DIR` of NAME.wasm files used for builtin:NAME in place of the embedded plugins (default $"+envPluginDir+")")
	fs.BoolVar(&f.json, "json", false, "print a JSON array")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 0 {
		fmt.Fprintf(e.stderr, "%s: no arguments expected, got %q\nusage: %s\n", cmd, pos, pluginListUsage)
		return ExitUsage
	}
	f.store = storeOff
	eng, err := f.engine(e.ctx, e.stderr)
	if err != nil {
		report(e.stderr, cmd, err)
		return exitCode(err)
	}
	defer eng.Close(e.ctx)
	infos := eng.Plugins(e.ctx)
	code := ExitOK
	for _, pi := range infos {
		if pi.Status == host.PluginFailed {
			code = ExitCheck
		}
	}
	if f.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(infos); err != nil {
			return ExitFailure
		}
		return code
	}
	fmt.Fprintf(e.stdout, "%-20s %-8s %-16s %-12s %s\n", "PLUGIN", "STATUS", "SOURCE", "SHA256", "TOOLS")
	for _, pi := range infos {
		sum := pi.SHA256
		if len(sum) > 12 {
			sum = sum[:12]
		}
		if sum == "" {
			sum = "-"
		}
		src := pi.Source
		if src == "" {
			src = "-"
		}
		tools := strings.Join(pi.Tools, ",")
		if tools == "" {
			tools = "-"
		}
		fmt.Fprintf(e.stdout, "%-20s %-8s %-16s %-12s %s\n", pi.Path, pi.Status, src, sum, tools)
		if pi.Error != "" {
			fmt.Fprintf(e.stdout, "  %s\n", pi.Error)
		}
	}
	return code
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
