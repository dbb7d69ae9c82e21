package host

import (
	"errors"
	"fmt"
)

// Kind classifies a plugin fault.
type Kind string

// The kinds of plugin fault. The values appear in result actions and
// never change meaning.
const (
	// KindLoad: the plugin file is missing, unreadable or not valid WebAssembly.
	KindLoad Kind = "load"
	// KindABI: the plugin lacks a required export, has the wrong
	// signature, or declares an ABI version this host does not speak.
	KindABI Kind = "abi"
	// KindTrap: the plugin trapped (unreachable, out-of-bounds access, a
	// Go panic) or exited.
	KindTrap Kind = "trap"
	// KindTimeout: the call did not finish before its deadline.
	KindTimeout Kind = "timeout"
	// KindMemory: the plugin needed more memory than its cap.
	KindMemory Kind = "memory"
	// KindFailed: the plugin returned a non-zero status, usually with a
	// message set through error_set.
	KindFailed Kind = "failed"
	// KindFraming: the output is not a JSON header line, a newline and a
	// payload as ABI.md describes, or the header is invalid.
	KindFraming Kind = "framing"
	// KindSize: the payload is larger than the tool output it replaces.
	KindSize Kind = "size"
	// KindCount: the pipeline found that the output does not account for
	// every input record, or is not valid for its content type.
	KindCount Kind = "count"
	// KindContent: the counts hold but the payload shows something that
	// is not the input's: a changed value, a record out of order or
	// duplicated, a member, column or line not in the input, or a group
	// whose lines do not match its template (schemas/ABI.md §4).
	KindContent Kind = "content"
	// KindCoolDown: the plugin failed too often recently and was skipped.
	KindCoolDown Kind = "cooldown"
	// KindMissing: a builtin plugin has not been built.
	KindMissing Kind = "missing"
)

// PluginError is a fault of one plugin. A PluginError never fails a
// request: the pipeline falls back to the declarative rules and reports it.
type PluginError struct {
	// Plugin names the plugin (the registry path, or builtin:NAME).
	Plugin string
	// Kind classifies the fault.
	Kind Kind
	// Log is the plugin's captured log and stderr output, truncated.
	Log string
	// Err is the underlying error.
	Err error
}

// Error says which plugin failed, how and why.
func (e *PluginError) Error() string {
	return fmt.Sprintf("plugin %s: %s: %v", e.Plugin, e.Kind, e.Err)
}

// Unwrap returns the underlying error.
func (e *PluginError) Unwrap() error { return e.Err }

// ErrPluginNotBuilt is wrapped by the KindMissing error of a builtin
// plugin that is neither embedded in the binary nor in the plugin
// directory that overrides the embedded ones.
var ErrPluginNotBuilt = errors.New("builtin plugin missing")

// pluginErr builds a *PluginError.
func pluginErr(name string, kind Kind, format string, args ...any) *PluginError {
	return &PluginError{Plugin: name, Kind: kind, Err: fmt.Errorf(format, args...)}
}
