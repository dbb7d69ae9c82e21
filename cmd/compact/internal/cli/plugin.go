package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/toolcompact/compact/host/conformance"
	"github.com/toolcompact/compact/registry"
)

const pluginUsage = `compact plugin list [--registry FILE] [--plugin-dir DIR] [--json]
       compact plugin test FILE.wasm [--tool NAME] [--input FILE ...] [--config KEY=VALUE ...]
                           [--timeout D] [--memory SIZE] [--registry FILE] [--bundled=false]`

// multiFlag collects a repeatable string flag.
type multiFlag []string

// String joins the values with commas.
func (m *multiFlag) String() string { return strings.Join(*m, ",") }

// Set adds one value.
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// runPlugin is the "compact plugin" subcommand.
func runPlugin(e *env) int {
	if len(e.args) == 0 {
		fmt.Fprintf(e.stderr, "usage: %s\n", pluginUsage)
		return ExitUsage
	}
	switch e.args[0] {
	case "test":
		return pluginTest(e, e.args[1:])
	case "list":
		return pluginList(e, e.args[1:])
	case "-h", "--help", "help":
		// The usage with the flags of "plugin test", the subcommand with
		// the most of them.
		return pluginTest(e, []string{"-h"})
	}
	fmt.Fprintf(e.stderr, "compact plugin: unknown subcommand %q\nusage: %s\n", e.args[0], pluginUsage)
	return ExitUsage
}

// pluginTest runs the conformance kit and prints one line per check:
// "PASS name" or "FAIL name: reason". It exits ExitCheck when any check
// fails.
func pluginTest(e *env, args []string) int {
	fs := newFlagSet("plugin test", pluginUsage, e.stderr)
	var (
		inputs, configs multiFlag
		tool, regFile   string
		memory          string
		timeout         time.Duration
		bundled         bool
	)
	fs.StringVar(&tool, "tool", "", "tool `NAME` sent to the plugin; its registry entry gives the record paths, config and limits")
	fs.Var(&inputs, "input", "sample tool output `FILE` to run the plugin on (repeatable)")
	fs.Var(&configs, "config", "plugin setting `KEY=VALUE` (repeatable; overrides the registry entry's)")
	fs.DurationVar(&timeout, "timeout", 0, "deadline of one call (default: the registry entry's, else 250ms)")
	fs.Var(sizeText{&memory}, "memory", "memory cap, a `SIZE` such as 64MiB (default: the registry entry's, else 64MiB)")
	fs.StringVar(&regFile, "registry", "", "registry `FILE` layered over the built-in one")
	fs.BoolVar(&bundled, "bundled", true, "also run the captured outputs in testdata/captured (found above the working directory)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintf(e.stderr, "compact plugin test: give exactly one plugin FILE.wasm, got %d\nusage: %s\n", len(pos), pluginUsage)
		return ExitUsage
	}
	// A plugin file that cannot be read is bad input (exit 3, like a
	// missing --input), not a failed check.
	if p := pos[0]; !strings.HasPrefix(p, "builtin:") {
		if st, err := os.Stat(p); err != nil {
			fmt.Fprintf(e.stderr, "compact plugin test: cannot read plugin: %v\n", err)
			return ExitInput
		} else if st.IsDir() {
			fmt.Fprintf(e.stderr, "compact plugin test: cannot read plugin %s: is a directory\n", p)
			return ExitInput
		}
	}
	o := conformance.Options{Tool: tool, Timeout: timeout, Config: map[string]string{}}

	reg := registry.Default()
	if regFile != "" {
		if reg, err = registry.Load(regFile); err != nil {
			report(e.stderr, "compact plugin test", err)
			return ExitRegistry
		}
	}
	if tool != "" {
		ent := reg.Lookup(tool)
		o.Records = ent.Records
		if ent.Plugin != nil {
			for k, v := range ent.Plugin.Config {
				o.Config[k] = v
			}
			if o.Timeout == 0 {
				o.Timeout = ent.Plugin.Timeout
			}
			o.Memory = ent.Plugin.Memory
		}
	}
	for _, kv := range configs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			fmt.Fprintf(e.stderr, "compact plugin test: --config %q: want KEY=VALUE\n", kv)
			return ExitUsage
		}
		o.Config[k] = v
	}
	if memory != "" {
		n, err := registry.ParseSize(memory)
		if err != nil {
			fmt.Fprintf(e.stderr, "compact plugin test: --memory: %v\n", err)
			return ExitUsage
		}
		o.Memory = n
	}
	if timeout < 0 {
		fmt.Fprintf(e.stderr, "compact plugin test: --timeout must be positive, got %v\n", timeout)
		return ExitUsage
	}
	for _, f := range inputs {
		in, err := conformance.ReadInput(f)
		if err != nil {
			fmt.Fprintf(e.stderr, "compact plugin test: %v\n", err)
			return ExitInput
		}
		o.Inputs = append(o.Inputs, in)
	}
	if bundled {
		if dir := conformance.BundledDir(); dir != "" {
			ins, err := conformance.Bundled(dir, 0)
			if err != nil {
				fmt.Fprintf(e.stderr, "compact plugin test: %v\n", err)
				return ExitInput
			}
			o.Inputs = append(o.Inputs, ins...)
		} else {
			fmt.Fprintln(e.stdout, "SKIP bundled inputs: no testdata/captured above the working directory")
		}
	}

	checks := conformance.Run(e.ctx, pos[0], o)
	for _, c := range checks {
		fmt.Fprintln(e.stdout, c)
	}
	if n := conformance.Failed(checks); n > 0 {
		fmt.Fprintf(e.stdout, "%d of %d checks failed\n", n, len(checks))
		return ExitCheck
	}
	fmt.Fprintf(e.stdout, "all %d checks passed\n", len(checks))
	return ExitOK
}
