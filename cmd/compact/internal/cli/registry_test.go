package cli

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/toolcompact/compact/registry"
)

func TestRegistryValidate(t *testing.T) {
	good := writeFile(t, "good.yaml", "version: 1\ntools:\n  - {name: my.tool, keep: [id]}\n")
	bad := writeFile(t, "bad.yaml", "version: 1\ntools:\n  - name: x\n    kepe: [a]\n    pin: 'select(.a =='\n")
	out, errs, code := execCLI(t, nil, "registry", "validate", good)
	if code != ExitOK || out != good+": OK (1 entry)\n" {
		t.Errorf("good: exit %d out %q err %q", code, out, errs)
	}
	out, _, code = execCLI(t, nil, "registry", "validate", good, bad)
	want := good + ": OK (1 entry)\n" +
		bad + `:4:5: tools[0]: unknown key "kepe" (did you mean "keep"?); expected one of: budget, defaults, drop, format, identity, index, keep, name, pin, plugin, records, sort, store, strings` + "\n" +
		bad + `:5:10: tools[0].pin: bad jq predicate "select(.a ==": unexpected EOF (after 12 bytes)` + "\n" +
		bad + ": invalid (2 errors)\n"
	if code != ExitRegistry || out != want {
		t.Errorf("bad: exit %d\n got %q\nwant %q", code, out, want)
	}
	if _, _, code := execCLI(t, nil, "registry", "validate"); code != ExitUsage {
		t.Errorf("no file: exit %d", code)
	}
	if out, _, code := execCLI(t, nil, "registry", "validate", "/nonexistent/r.yaml"); code != ExitRegistry || !strings.Contains(out, "/nonexistent/r.yaml: cannot read registry: no such file or directory") {
		t.Errorf("missing file: exit %d out %q", code, out)
	}
}

func TestRegistryShow(t *testing.T) {
	t.Setenv(envRegistry, "")
	out, errs, code := execCLI(t, nil, "registry", "show", "github.list_issues")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	head, body, _ := strings.Cut(out, "\n")
	if head != `# tool "github.list_issues" matched entry "github.*" (glob), defined at builtin:registry/default.yaml:`+lineOf(t, "github.*") {
		t.Errorf("header: %q", head)
	}
	// The body is a valid entry that resolves to the same settings.
	var ent map[string]any
	if err := yaml.Unmarshal([]byte(body), &ent); err != nil {
		t.Fatal(err)
	}
	doc, _ := yaml.Marshal(map[string]any{"version": 1, "builtin": false, "tools": []any{ent}})
	r, err := registry.Parse(doc, "shown.yaml")
	if err != nil {
		t.Fatalf("shown entry does not validate: %v\n%s", err, body)
	}
	if got, want := r.Lookup("github.list_issues"), registry.Default().Lookup("github.list_issues"); got.Pin != want.Pin || len(got.Drop) != len(want.Drop) || got.Plugin.Path != want.Plugin.Path || got.Plugin.Timeout != want.Plugin.Timeout || got.Plugin.Memory != want.Plugin.Memory {
		t.Errorf("shown entry differs:\n%+v\n%+v", got, want)
	}

	user := writeFile(t, "user.yaml", "version: 1\ntools:\n  - {name: 'github.*', budget: 900}\n")
	out, _, code = execCLI(t, nil, "registry", "show", "--registry", user, "github.list_issues")
	if code != ExitOK || !strings.Contains(out, `matched entry "github.*" (glob), defined at `+user+":3:5") || !strings.Contains(out, "budget: 900") || strings.Contains(out, "plugin:") {
		t.Errorf("user layer did not win:\n%s", out)
	}
	out, _, _ = execCLI(t, nil, "registry", "show", "never.heard_of")
	if !strings.Contains(out, `matched entry "default" (default)`) {
		t.Errorf("unknown tool: %s", out)
	}
	if _, _, code := execCLI(t, nil, "registry", "show"); code != ExitUsage {
		t.Errorf("no tool: exit %d", code)
	}
	bad := writeFile(t, "bad.yaml", "version: one\ntools: []\n")
	if _, errs, code := execCLI(t, nil, "registry", "show", "--registry", bad, "x"); code != ExitRegistry || !strings.Contains(errs, bad+`:1:10: version: expected 1, got "one"`) {
		t.Errorf("bad registry: exit %d: %s", code, errs)
	}
}

func TestRegistryListAndSchema(t *testing.T) {
	t.Setenv(envRegistry, "")
	out, _, code := execCLI(t, nil, "registry", "list")
	if code != ExitOK || !strings.HasPrefix(out, "default ") || !strings.Contains(out, "npm.view") {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	out, _, code = execCLI(t, nil, "registry", "schema")
	if code != ExitOK || !strings.Contains(out, `"$id": "https://github.com/toolcompact/compact/schemas/registry.schema.json"`) {
		t.Errorf("schema: exit %d", code)
	}
	if _, _, code := execCLI(t, nil, "registry", "frobnicate"); code != ExitUsage {
		t.Errorf("unknown subcommand: exit %d", code)
	}
}

// lineOf returns "line:col" of the built-in entry name.
func lineOf(t *testing.T, name string) string {
	t.Helper()
	for _, e := range registry.Default().Entries() {
		if e.Name == name {
			return e.Source.String()[len(registry.DefaultFile)+1:]
		}
	}
	t.Fatalf("no built-in entry %q", name)
	return ""
}
