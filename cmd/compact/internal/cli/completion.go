package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Shell completion: "compact completion bash|zsh|fish" prints a script
// that asks the binary itself for candidates ("compact __complete WORDS"),
// so completion always knows the commands and flags of the binary it
// runs: the flags are read from each command's own -h output, the single
// source of truth for them.

const bashCompletion = `# bash completion for compact: source it, or put it in
# /etc/bash_completion.d/compact (compact completion bash > ...).
_compact() {
	local cur="${COMP_WORDS[COMP_CWORD]}"
	local IFS=$'\n'
	local cands
	cands=$(compact __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
	COMPREPLY=($(compgen -W "$cands" -- "$cur"))
}
complete -o default -F _compact compact
`

const zshCompletion = `#compdef compact
# zsh completion for compact: put it in a directory of $fpath as _compact
# (compact completion zsh > "${fpath[1]}/_compact"), or source it.
_compact() {
	local -a cands
	cands=("${(@f)$(compact __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
	if (( ${#cands} )) && [[ -n "${cands[1]}" ]]; then
		compadd -a cands
	else
		_files
	fi
}
# Autoloaded from $fpath, this file is the body of _compact: complete now
# (the first Tab); sourced, register the function.
if [[ "${funcstack[1]}" == _compact ]]; then
	_compact "$@"
elif (( $+functions[compdef] )); then
	compdef _compact compact
fi
`

const fishCompletion = `# fish completion for compact:
# compact completion fish > ~/.config/fish/completions/compact.fish
complete -c compact -a '(compact __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`

// subcommands of the commands that have them.
var subcommands = map[string][]string{
	"artifact":   {"get", "query", "slice", "search", "gc"},
	"registry":   {"validate", "show"},
	"plugin":     {"list", "test"},
	"store":      {"stats", "gc"},
	"completion": {"bash", "zsh", "fish"},
}

// runCompletion is "compact completion bash|zsh|fish".
func runCompletion(e *env) int {
	if len(e.args) != 1 {
		fmt.Fprintln(e.stderr, "usage: compact completion bash|zsh|fish")
		return ExitUsage
	}
	switch e.args[0] {
	case "bash":
		fmt.Fprint(e.stdout, bashCompletion)
	case "zsh":
		fmt.Fprint(e.stdout, zshCompletion)
	case "fish":
		fmt.Fprint(e.stdout, fishCompletion)
	case "-h", "--help", "help":
		fmt.Fprintln(e.stdout, "usage: compact completion bash|zsh|fish")
	default:
		fmt.Fprintf(e.stderr, "compact completion: unknown shell %q (want bash, zsh or fish)\n", e.args[0])
		return ExitUsage
	}
	return ExitOK
}

var flagLine = regexp.MustCompile(`(?m)^\s+-([a-zA-Z][\w-]*)`)

// runComplete is the hidden "compact __complete WORDS...": WORDS are the
// words after "compact", the last one the word being completed (possibly
// empty). It prints the candidates, one per line; nothing means "complete
// file names".
func runComplete(e *env) int {
	words := e.args
	if len(words) == 0 {
		words = []string{""}
	}
	cur := words[len(words)-1]
	var cands []string
	switch {
	case len(words) == 1:
		for name := range commands {
			if !strings.HasPrefix(name, "__") {
				cands = append(cands, name)
			}
		}
		cands = append(cands, "help", "--version")
	case words[0] == "help" && len(words) == 2:
		for name := range commands {
			if !strings.HasPrefix(name, "__") {
				cands = append(cands, name)
			}
		}
	case strings.HasPrefix(cur, "-"):
		cmd := []string{words[0]}
		if subs, ok := subcommands[words[0]]; ok && len(words) > 2 {
			for _, s := range subs {
				if s == words[1] {
					cmd = append(cmd, s)
				}
			}
		}
		if _, ok := commands[words[0]]; !ok || words[0] == "completion" {
			return ExitOK
		}
		var out bytes.Buffer
		Main(append(cmd, "-h"), strings.NewReader(""), &out, &out)
		seen := map[string]bool{}
		for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				cands = append(cands, "--"+m[1])
			}
		}
	case len(words) == 2:
		cands = subcommands[words[0]]
	}
	sort.Strings(cands)
	for _, c := range cands {
		if strings.HasPrefix(c, cur) {
			fmt.Fprintln(e.stdout, c)
		}
	}
	return ExitOK
}
