package view_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// rankedView builds the view of a captured output and fills it at budget.
func rankedView(t *testing.T, name string, budgetTokens int) (string, any) {
	t.Helper()
	data := readFile(t, "../../testdata/captured/"+name)
	in := inputOf(t, data, budgetTokens)
	in.Handle = "artifact:0123456789ab"
	v := buildView(t, in)
	fl := fillAt(t, v, budgetTokens)
	doc, err := decodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return fl.Text, doc
}

// jqOne runs filter over doc and returns its one result.
func jqOne(t *testing.T, doc any, filter string) any {
	t.Helper()
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := q.Run(doc).Next()
	if !ok {
		t.Fatalf("%s: no result", filter)
	}
	if err, ok := v.(error); ok {
		t.Fatalf("%s: %v", filter, err)
	}
	return v
}

// TestProfileAnswersFirst: in an npm package-lock.json at 2,000 tokens,
// the profile states how many packages are dev-only ("true N, missing
// M": absence is an answer) and the licenses with their counts, before
// any member of a map-like field (dependencies."graceful-fs" of a few
// packages); the dependencies are one line (entries, the package with the
// most, names by packages). Every number is jq's.
func TestProfileAnswersFirst(t *testing.T) {
	text, doc := rankedView(t, "npm-package-lock.json", 2000)
	n := jqOne(t, doc, ".packages | length")
	dev := jqOne(t, doc, "[.packages[] | select(.dev)] | length")
	want := fmt.Sprintf("  dev (bool, in %d of %d records): true %d, missing %d\n", dev, n, dev, n.(int)-dev.(int))
	if !strings.Contains(text, want) {
		t.Errorf("no line %q in:\n%s", want, text)
	}
	mit := jqOne(t, doc, `[.packages[] | select(.license == "MIT")] | length`)
	if !strings.Contains(text, fmt.Sprintf(": MIT %d, ", mit)) {
		t.Errorf("no license counts (MIT %d)", mit)
	}
	// No line of one member of a map: dependencies.debug, peerDependencies."@babel/core".
	if m := regexp.MustCompile(`(?m)^  (dependencies|devDependencies|peerDependencies|optionalDependencies)\.`).FindString(text); m != "" {
		t.Errorf("a line of one map member: %q", m)
	}
	stats := jqOne(t, doc, `[.packages[] | .dependencies | select(.) | length] | [min, max, add, length]`).([]any)
	most := jqOne(t, doc, `.packages | to_entries | max_by(.value.dependencies // {} | length) | .key`)
	names := jqOne(t, doc, `[.packages[] | .dependencies | select(.) | keys[]] | unique | length`)
	wantMap := fmt.Sprintf("  dependencies (map, in %d of %d records): %d-%d entries, %d in all, most in %s (%d); %d distinct names, by records holding them: ",
		stats[3], n, stats[0], stats[1], stats[2], most, stats[1], names)
	if !strings.Contains(text, wantMap) {
		t.Errorf("no line %q", wantMap)
	}
	// Which packages have an optional object or array member, in one
	// line: bin, engines, funding.
	for _, m := range []string{"bin", "engines", "funding", "peerDependencies"} {
		n := jqOne(t, doc, fmt.Sprintf(`[.packages[] | select(has(%q))] | length`, m))
		if !regexp.MustCompile(`(?m)^  records by the object and array members they have \(of \d+\): .*\b` + m + ` ` + fmt.Sprint(n) + `\b`).MatchString(text) {
			t.Errorf("the members line does not say %s %d", m, n)
		}
	}
	// The row header shows no opaque column (integrity: sha512 hashes,
	// each distinct); the foot names it.
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "#\t") && strings.Contains(l, "integrity") {
			t.Errorf("integrity is a column: %q", l)
		}
	}
	if !strings.Contains(text, "left out as opaque (long, nearly every value distinct): integrity") {
		t.Errorf("the foot does not name the opaque column")
	}
	// No row is chosen for a rare value of a map member or for one of
	// the field it lacks: dependency names are data, not fields.
	deps := map[string]bool{}
	for _, k := range jqOne(t, doc, `[.packages[] | (.dependencies, .devDependencies, .peerDependencies, .optionalDependencies, .peerDependenciesMeta) | select(.) | keys[]] | unique`).([]any) {
		deps[k.(string)] = true
		deps[`"`+k.(string)+`"`] = true
	}
	for _, m := range regexp.MustCompile(`(?:; |\t)(?:rare |has )([^=\t;( ]+)`).FindAllStringSubmatch(text, -1) {
		name := m[1]
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if deps[name] {
			t.Errorf("a row chosen for a map member: %q", m[0])
		}
	}
}

// TestProfileMissingCounts: in an npm registry document (a map of 77
// version manifests), the license ("MIT 55, missing 22") and the engine
// range (engines.node, a leaf of a small object, not "(object, in N
// records)") are profiled with their counts, at 2,000 and 8,000 tokens.
func TestProfileMissingCounts(t *testing.T) {
	text, doc := rankedView(t, "npm-registry-debug.json", 2000)
	n := jqOne(t, doc, ".versions | length").(int)
	mit := jqOne(t, doc, `[.versions[] | select(.license == "MIT")] | length`).(int)
	want := fmt.Sprintf("  license (string, in %d of %d records): MIT %d, missing %d\n", mit, n, mit, n-mit)
	if !strings.Contains(text, want) {
		t.Errorf("no line %q in:\n%s", want, text)
	}
	// engines.node (in a third of the versions) by 8,000 tokens.
	text, _ = rankedView(t, "npm-registry-debug.json", 8000)
	eng := jqOne(t, doc, `[.versions[] | select(.engines.node)] | length`).(int)
	six := jqOne(t, doc, `[.versions[] | select(.engines.node == ">=6.0")] | length`).(int)
	want = fmt.Sprintf("  engines.node (string, in %d of %d records): ", eng, n)
	if i := strings.Index(text, want); i < 0 || !strings.Contains(text[i:], fmt.Sprintf(">=6.0 %d", six)) {
		t.Errorf("no line %q with >=6.0 %d", want, six)
	}
	if strings.Contains(text, "engines (object") {
		t.Errorf("engines is shown as an object line")
	}
}

func decodeJSON(data []byte) (any, error) {
	var v any
	err := json.Unmarshal(data, &v)
	return v, err
}
