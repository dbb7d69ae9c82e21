package host

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toolcompact/compact/plugins/builtin"
)

// BuiltinPrefix marks a registry plugin path that names a first-party
// plugin: "builtin:NAME" is the module NAME embedded in the binary, or
// NAME.wasm in an explicitly set plugin directory.
const BuiltinPrefix = "builtin:"

// EnvPluginDir names the environment variable that overrides where
// builtin plugins are found (a directory of NAME.wasm files, in place of
// the embedded ones).
const EnvPluginDir = "COMPACT_PLUGIN_DIR"

// SourceEmbedded is the PluginInfo.Source of a plugin embedded in the
// binary.
const SourceEmbedded = "embedded"

var builtinName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// resolved is a plugin module found for a registry plugin path.
type resolved struct {
	// file names the module in messages: its path, or "builtin:NAME
	// (embedded)".
	file string
	// source is the file's path, or SourceEmbedded.
	source string
	data   []byte
	sha256 string
}

// resolvePlugin finds the module of a registry plugin path. A plain path
// is read as a file. A builtin is looked up in exactly one place: the
// directory $COMPACT_PLUGIN_DIR names, else the WithPluginDir directory,
// else the modules embedded in the binary (package plugins/builtin). The
// working directory is never searched: a plugins/dist or any other file
// planted there is not loaded. A builtin that is not where it was looked
// for is a KindMissing error wrapping ErrPluginNotBuilt.
func resolvePlugin(path, pluginDir string) (resolved, error) {
	name, ok := strings.CutPrefix(path, BuiltinPrefix)
	if !ok {
		if path == "" {
			return resolved{}, pluginErr(path, KindLoad, "empty plugin path")
		}
		return readPlugin(path, path, path)
	}
	if !builtinName.MatchString(name) {
		return resolved{}, pluginErr(path, KindLoad, "builtin plugin name %q: want lower-case letters, digits, '-' and '_'", name)
	}
	var dir, from string
	switch {
	case os.Getenv(EnvPluginDir) != "":
		dir, from = os.Getenv(EnvPluginDir), "$"+EnvPluginDir
	case pluginDir != "":
		dir, from = pluginDir, "the plugin directory"
	default:
		data, ok := builtin.Wasm(name)
		if !ok {
			return resolved{}, &PluginError{Plugin: path, Kind: KindMissing,
				Err: fmt.Errorf("%w: no plugin %q is embedded in this binary (embedded: %s)", ErrPluginNotBuilt, name, strings.Join(builtin.Names(), ", "))}
		}
		return resolved{file: path + " (embedded)", source: SourceEmbedded, data: data, sha256: sha256Hex(data)}, nil
	}
	file := filepath.Join(dir, name+".wasm")
	if _, err := os.Stat(file); err != nil {
		return resolved{}, &PluginError{Plugin: path, Kind: KindMissing,
			Err: fmt.Errorf("%w: %s (from %s, which replaces the embedded plugins) does not exist; build the first-party plugins there with go generate ./plugins/... or drop the override", ErrPluginNotBuilt, file, from)}
	}
	return readPlugin(path, file, file)
}

func readPlugin(name, file, source string) (resolved, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return resolved{}, pluginErr(name, KindLoad, "read %s: %w", file, err)
	}
	return resolved{file: file, source: source, data: data, sha256: sha256Hex(data)}, nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
