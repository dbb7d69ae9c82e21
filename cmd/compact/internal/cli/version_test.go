package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/plugins/builtin"
)

func TestVersion(t *testing.T) {
	out, errs, code := execCLI(t, nil, "--version")
	if code != ExitOK || !strings.HasPrefix(out, "compact ") || !strings.Contains(out, "go: go1.") {
		t.Fatalf("--version: exit %d\n%s%s", code, out, errs)
	}
	out, _, code = execCLI(t, nil, "version", "--json")
	var v buildVersion
	if code != ExitOK || json.Unmarshal([]byte(out), &v) != nil || v.Version == "" {
		t.Fatalf("version --json: exit %d %q", code, out)
	}
	for _, name := range builtin.Names() {
		data, _ := builtin.Wasm(name)
		if v.Plugins[name] != sha256Hex(data) {
			t.Errorf("version names plugin %s as %q", name, v.Plugins[name])
		}
	}
	if _, _, code := execCLI(t, nil, "version", "extra"); code != ExitUsage {
		t.Errorf("version extra: exit %d", code)
	}
}

func TestHelpCommand(t *testing.T) {
	_, errs, code := execCLI(t, nil, "help", "run")
	if code != ExitOK || !strings.Contains(errs, "usage: compact run") || !strings.Contains(errs, "-plugin-dir") {
		t.Errorf("help run: exit %d\n%s", code, errs)
	}
	if _, _, code := execCLI(t, nil, "help", "nosuch"); code != ExitUsage {
		t.Errorf("help nosuch: exit %d", code)
	}
	out, _, code := execCLI(t, nil, "help")
	if code != ExitOK || !strings.Contains(out, "version") || !strings.Contains(out, "plugins") {
		t.Errorf("help: %d %s", code, out)
	}
}

// TestRunWarnsAboutSkippedPlugin: in text mode a plugin that is missing
// is said on stderr (the content alone does not say the declarative
// rules ran in its place); before, only --json and -v said it.
func TestRunWarnsAboutSkippedPlugin(t *testing.T) {
	t.Setenv(host.EnvPluginDir, "")
	empty := t.TempDir()
	in := filepath.Join(t.TempDir(), "issues.json")
	var b strings.Builder
	b.WriteString("[")
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"title":"issue number %d","url":"https://example.com/issues/%d","state":"open"}`, i, i, i)
	}
	b.WriteString("]")
	os.WriteFile(in, []byte(b.String()), 0o644)
	out, errs, code := execCLI(t, nil, "run", "--store", t.TempDir(), "--plugin-dir", empty, "--tool", "github.issues", "--budget", "3000", in)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "compact run: warning: plugin skipped builtin:restlist: missing:") {
		t.Errorf("stderr %q lacks the skipped plugin", errs)
	}
	if strings.Contains(out, "warning") {
		t.Errorf("warning on stdout: %q", out)
	}
	if _, errs, code := execCLI(t, nil, "run", "--plugin-dir", filepath.Join(empty, "nope"), in); code != ExitUsage || !strings.Contains(errs, "--plugin-dir") {
		t.Errorf("--plugin-dir to nothing: exit %d %q", code, errs)
	}
}

func TestPluginList(t *testing.T) {
	t.Setenv(host.EnvPluginDir, "")
	t.Setenv(envRegistry, "")
	out, errs, code := execCLI(t, nil, "plugin", "list")
	if code != ExitOK {
		t.Fatalf("plugin list: exit %d\n%s", code, errs)
	}
	for _, name := range builtin.Names() {
		data, _ := builtin.Wasm(name)
		if !strings.Contains(out, "builtin:"+name) || !strings.Contains(out, sha256Hex(data)[:12]) {
			t.Errorf("plugin list lacks %s:\n%s", name, out)
		}
	}
	if !strings.Contains(out, "embedded") {
		t.Errorf("plugin list:\n%s", out)
	}
	alias, _, _ := execCLI(t, nil, "plugins")
	if alias != out {
		t.Errorf("plugins differs from plugin list:\n%s\n%s", alias, out)
	}
}
