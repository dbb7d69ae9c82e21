package host

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// BuiltinPrefix marks a registry plugin path that names a first-party
// plugin: "builtin:NAME" is the file NAME.wasm in the plugin directory.
const BuiltinPrefix = "builtin:"

// EnvPluginDir names the environment variable that overrides where
// builtin plugins are found.
const EnvPluginDir = "COMPACT_PLUGIN_DIR"

var builtinName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// resolvePath turns a registry plugin path into a file name. For a
// builtin plugin it looks in $COMPACT_PLUGIN_DIR, else the WithPluginDir
// directory, else plugins/dist under the module root found by walking up
// from the working directory. A builtin that is not there is a KindMissing
// error wrapping ErrPluginNotBuilt.
func resolvePath(path, pluginDir string) (string, error) {
	name, ok := strings.CutPrefix(path, BuiltinPrefix)
	if !ok {
		if path == "" {
			return "", pluginErr(path, KindLoad, "empty plugin path")
		}
		return path, nil
	}
	if !builtinName.MatchString(name) {
		return "", pluginErr(path, KindLoad, "builtin plugin name %q: want lower-case letters, digits, '-' and '_'", name)
	}
	var dir, from string
	switch {
	case os.Getenv(EnvPluginDir) != "":
		dir, from = os.Getenv(EnvPluginDir), "$"+EnvPluginDir
	case pluginDir != "":
		dir, from = pluginDir, "the plugin directory"
	default:
		root, err := moduleRoot()
		if err != nil {
			return "", &PluginError{Plugin: path, Kind: KindMissing,
				Err: fmt.Errorf("%w: no plugin directory set ($%s) and %v", ErrPluginNotBuilt, EnvPluginDir, err)}
		}
		dir, from = filepath.Join(root, "plugins", "dist"), "plugins/dist in the module"
	}
	file := filepath.Join(dir, name+".wasm")
	if _, err := os.Stat(file); err != nil {
		return "", &PluginError{Plugin: path, Kind: KindMissing,
			Err: fmt.Errorf("%w: %s (from %s) does not exist", ErrPluginNotBuilt, file, from)}
	}
	return file, nil
}

// moduleRoot walks up from the working directory to the first directory
// holding a go.mod file.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
