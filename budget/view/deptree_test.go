package view_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	depTreeHead = regexp.MustCompile(`(?m)^dependency tree \(nodes nest through "dependencies"\): ([\d,]+) nodes below the root, (\d+) levels deep, ([\d,]+) distinct names; [^\n]*\n`)
	depTreeFoot = regexp.MustCompile(`(?m)^  tree: ([\d,]+) of ([\d,]+) nodes not listed; list exactly them: compact artifact query \S+ --jq '([^\n]*)'$`)
)

// TestDepTreeListsEveryNodeByVersion: npm ls --all --json nests its
// packages through "dependencies" maps; the view lists the tree
// breadth-first, one line per node with dependencies, each dependency as
// name@version. Its counts (nodes, depth, distinct names) are jq's; every
// listed dependency has the version jq gives at its path; at 4,000
// tokens jest-cli (a dependency of jest, in no collection's rows) is
// listed with its version; a larger budget lists a longer prefix; and the
// foot's query lists exactly the nodes not listed, so that listed and
// not listed are every node once.
func TestDepTreeListsEveryNodeByVersion(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/npm-ls-all.json")
	nodesQ := `[paths(objects) as $p | select(($p | length) > 0 and ($p | length) % 2 == 0 and ([$p[range(0; $p | length; 2)]] | all(. == "dependencies"))) | [$p[range(1; $p | length; 2)]] as $n | {path: ($n | join(" > ")), name: $n[-1], depth: ($n | length), version: (getpath($p).version // null)}]`
	nodes := jq(t, data, nodesQ)[0].([]any)
	byPath := map[string]map[string]any{}
	names := map[string]bool{}
	depth := 0
	for _, n := range nodes {
		m := n.(map[string]any)
		byPath[m["path"].(string)] = m
		names[m["name"].(string)] = true
		depth = max(depth, m["depth"].(int))
	}
	prev := 0
	for _, b := range []int{2000, 4000, 8000} {
		f := fillAt(t, v, b)
		h := depTreeHead.FindStringSubmatch(f.Text)
		if h == nil && b == 2000 {
			continue // not even its first line fits
		}
		if h == nil {
			t.Fatalf("at %d: no dependency tree:\n%s", b, f.Text)
		}
		if want := fmt.Sprintf("%s %d %s", commas(len(nodes)), depth, commas(len(names))); h[1]+" "+h[2]+" "+h[3] != want {
			t.Errorf("at %d: head says %s nodes, %s levels, %s names; jq: %s", b, h[1], h[2], h[3], want)
		}
		i := strings.Index(f.Text, h[0]) + len(h[0])
		var listed []string
		lines := 0
		for _, l := range strings.Split(f.Text[i:], "\n") {
			if !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "  tree: ") {
				break
			}
			lines++
			parent, kids, ok := strings.Cut(strings.TrimPrefix(l, "  "), ": ")
			if !ok {
				t.Fatalf("at %d: line %q", b, l)
			}
			prefix := ""
			if parent != "(root)" {
				prefix = parent + " > "
			}
			for _, kid := range strings.Split(kids, ", ") {
				kid, _, _ = strings.Cut(kid, " (")
				name, ver, hasVer := strings.Cut(kid, "@")
				if strings.HasPrefix(kid, "@") { // a scoped name
					name, ver, hasVer = strings.Cut(kid[1:], "@")
					name = "@" + name
				}
				n := byPath[prefix+name]
				if n == nil {
					t.Fatalf("at %d: %q is no node", b, prefix+name)
				}
				if got := n["version"]; hasVer && got != ver || !hasVer && got != nil {
					t.Errorf("at %d: %s listed as %q, jq's version %v", b, prefix+name, kid, got)
				}
				listed = append(listed, prefix+kid)
			}
		}
		if lines < prev {
			t.Errorf("at %d: %d lines, %d at a smaller budget", b, lines, prev)
		}
		prev = lines
		if b == 4000 && !slices.Contains(listed, "jest > jest-cli@"+fmt.Sprint(byPath["jest > jest-cli"]["version"])) {
			t.Errorf("at 4000 jest-cli is not listed with its version")
		}
		m := depTreeFoot.FindStringSubmatch(f.Text)
		if m == nil {
			if len(listed) != len(nodes) {
				t.Fatalf("at %d: %d of %d nodes listed and no foot", b, len(listed), len(nodes))
			}
			continue
		}
		rest := jq(t, data, strings.ReplaceAll(m[3], `'\''`, `'`))[0].([]any)
		if m[1] != commas(len(rest)) || m[2] != commas(len(nodes)) || len(rest)+len(listed) != len(nodes) {
			t.Fatalf("at %d: foot says %s of %s not listed; %d listed, the query gives %d, jq %d nodes", b, m[1], m[2], len(listed), len(rest), len(nodes))
		}
		all := map[string]bool{}
		for _, x := range append(listed, func() []string {
			var s []string
			for _, r := range rest {
				s = append(s, r.(string))
			}
			return s
		}()...) {
			all[x] = true
		}
		if len(all) != len(nodes) {
			t.Errorf("at %d: listed and the rest make %d distinct nodes, jq %d", b, len(all), len(nodes))
		}
	}
}
