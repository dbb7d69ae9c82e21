package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/plugins/builtin"
	"github.com/toolcompact/compact/registry"
	"gopkg.in/yaml.v3"
)

// TestInstalledBinaryIsWhole installs compact as a user does, `go install
// github.com/toolcompact/compact/cmd/compact@VERSION` from a module proxy
// serving this checkout (goInstallAtVersion), copies it to an empty
// directory and runs it there with an empty HOME and a planted
// plugins/dist (junk modules in a go.mod tree, which
// the old resolution loaded as first-party): the first-party plugins come
// from the binary and are applied to the bundled samples, `compact
// plugins` lists them as embedded with the SHA-256 of the committed
// modules, and --version answers with the installed version.
func TestInstalledBinaryIsWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the compact binary")
	}
	gobin := t.TempDir()
	_, version, ok := goInstallAtVersion(t, gobin)
	if !ok {
		install := exec.Command("go", "install", "./cmd/compact")
		install.Dir = filepath.Join("..", "..")
		install.Env = append(os.Environ(), "GOBIN="+gobin)
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("go install: %v\n%s", err, out)
		}
	}
	src, err := os.ReadFile(filepath.Join(gobin, "compact"))
	if err != nil {
		t.Fatal(err)
	}
	work, home := t.TempDir(), t.TempDir()
	bin := filepath.Join(t.TempDir(), "compact")
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(work, "go.mod"), []byte("module example.com/planted\n"), 0o644)
	os.MkdirAll(filepath.Join(work, "plugins", "dist"), 0o755)
	for _, name := range []string{"logs", "restlist"} {
		os.WriteFile(filepath.Join(work, "plugins", "dist", name+".wasm"), []byte("\x00asm\x01\x00\x00\x00planted"), 0o644)
	}
	captured, err := filepath.Abs(filepath.Join("..", "..", "testdata", "captured"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		var env []string
		for _, kv := range os.Environ() {
			if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "COMPACT_") || k == "HOME" || k == "XDG_CACHE_HOME" {
				continue
			}
			env = append(env, kv)
		}
		cmd.Env = append(env, "HOME="+home)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}

	out, errs, err := run("--version")
	if err != nil || !strings.HasPrefix(out, "compact ") || !strings.Contains(out, "embedded plugins: logs") {
		t.Errorf("--version: %v %q %q", err, out, errs)
	}
	if version != "" && !strings.HasPrefix(out, "compact "+version) {
		t.Errorf("--version of a go install @%s: %q", version, out)
	}

	// Shell completion, for real: bash sources the script and completes
	// through this binary.
	script, _, err := run("completion", "bash")
	if err != nil {
		t.Fatal(err)
	}
	if bash, lerr := exec.LookPath("bash"); lerr == nil {
		sp := filepath.Join(t.TempDir(), "compact.bash")
		os.WriteFile(sp, []byte(script), 0o644)
		cmd := exec.Command(bash, "-c", `source "$1"; COMP_WORDS=(compact artifact g); COMP_CWORD=2; _compact; echo "${COMPREPLY[*]}"; `+
			`COMP_WORDS=(compact serve --store-m); COMP_CWORD=2; _compact; echo "${COMPREPLY[*]}"`, "bash", sp)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		b, err := cmd.CombinedOutput()
		if err != nil || string(b) != "gc get\n--store-max-bytes\n" {
			t.Errorf("bash completion: %v %q, want \"gc get\" and \"--store-max-bytes\"", err, b)
		}
	}

	// zsh autoloads the script from $fpath as the body of _compact: the
	// first Tab must complete already (on the old script it only defined
	// the function, so the first Tab offered nothing).
	zscript, _, err := run("completion", "zsh")
	if err != nil {
		t.Fatal(err)
	}
	if zsh, lerr := exec.LookPath("zsh"); lerr != nil {
		if os.Getenv("CI") != "" {
			t.Error("zsh is not installed (apt-get install -y zsh; .ci/run does it)")
		}
	} else {
		fdir := t.TempDir()
		os.WriteFile(filepath.Join(fdir, "_compact"), []byte(zscript), 0o644)
		// compadd and compdef stand in for the completion system's
		// builtins, which exist only inside a completion widget.
		cmd := exec.Command(zsh, "-f", "-c", `fpath=("$1" $fpath); autoload -Uz _compact; `+
			`compdef() { :; }; compadd() { [[ $1 == -a ]] && print -r -- "${(P)2}"; }; _files() { print files; }; `+
			`words=(compact artifact g); CURRENT=3; _compact; words=(compact serve --store-m); CURRENT=3; _compact`, "zsh", fdir)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		b, err := cmd.CombinedOutput()
		if err != nil || string(b) != "gc get\n--store-max-bytes\n" {
			t.Errorf("zsh completion (autoloaded from $fpath): %v %q, want \"gc get\" and \"--store-max-bytes\"", err, b)
		}
	}

	out, errs, err = run("plugins", "--json")
	if err != nil {
		t.Fatalf("plugins: %v\n%s", err, errs)
	}
	var infos []struct{ Path, Source, SHA256, Status string }
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatalf("plugins --json: %v\n%s", err, out)
	}
	listed := 0
	for _, pi := range infos {
		name, _ := strings.CutPrefix(pi.Path, "builtin:")
		wasm, ok := builtin.Wasm(name)
		if !ok {
			continue
		}
		listed++
		if pi.Source != "embedded" || pi.Status != "loaded" || pi.SHA256 != sha256Hex(wasm) {
			t.Errorf("plugins: %+v, want loaded from the embedded module", pi)
		}
	}
	if listed != 2 {
		t.Errorf("plugins listed %d first-party plugins, want 2:\n%s", listed, out)
	}

	// README's first command, and the two first-party plugins on their
	// bundled samples. The registry is the built-in one with each
	// plugin's deadline raised to a minute (a deadline that catches a
	// hang): at the shipped 2 s a loaded machine turned the logs plugin
	// into its declarative fallback and failed the test.
	var tools []registry.Entry
	for _, e := range registry.Default().Entries() {
		if e.Plugin != nil {
			e.Plugin.Timeout = time.Minute
		}
		tools = append(tools, e)
	}
	reg, err := yaml.Marshal(map[string]any{"version": 1, "builtin": false, "tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	patient := filepath.Join(t.TempDir(), "registry.yaml")
	if err := os.WriteFile(patient, reg, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tool, file, plugin string }{
		{"kubectl.pods", "kubectl-pods.json", ""},
		{"github.issues", "github-issues.json", "builtin:restlist"},
		{"logs.dpkg", "dpkg-log.txt", "builtin:logs"},
	} {
		file := filepath.Join(captured, c.file)
		if _, err := os.Stat(file); err != nil {
			t.Fatalf("sample %s: %v", c.file, err)
		}
		out, errs, err := run("run", "--json", "--registry", patient, "--tool", c.tool, "--budget", "2000", file)
		if err != nil {
			t.Fatalf("run %s: %v\n%s", c.file, err, errs)
		}
		var res struct {
			Actions []struct{ Kind, Target string }
			Tokens  struct{ After, Budget int }
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("run %s: %v", c.file, err)
		}
		if res.Tokens.After > 2000 {
			t.Errorf("run %s: %d tokens", c.file, res.Tokens.After)
		}
		ran := false
		for _, a := range res.Actions {
			if strings.HasPrefix(a.Kind, "plugin_") {
				t.Errorf("run %s: %s %s", c.file, a.Kind, a.Target)
			}
			ran = ran || (a.Kind == "plugin" && a.Target == c.plugin)
		}
		if c.plugin != "" && !ran {
			t.Errorf("run %s: plugin %s did not run: %s", c.file, c.plugin, out[:min(len(out), 2000)])
		}
	}
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
