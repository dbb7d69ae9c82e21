package view_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// esbuildSemverFile is a real esbuild metafile: `esbuild entry-semver.js
// --bundle --platform=node --metafile=meta-semver.json` over a one-line
// entry requiring semver 7 (esbuild 0.28.2 and semver from npm),
// captured 2026-11-27 by s18-trees. Its inputs map each module's path to
// {bytes, imports: [{path, kind, original}], format}: a graph whose
// records name each other by their keys.
const esbuildSemverFile = "testdata/esbuild-metafile-semver.json"

// TestGraphOfRecordsNamingEachOther: a collection whose records list
// other records of it by name is stated as a graph: the records that
// import nothing and those nothing imports, counted as jq counts them,
// the most imported record with its count, and a record in the middle
// with its own imports and the records importing it. Before, the view
// profiled imports[].path as strings and listed the first records' keys:
// "how many modules import X" was in no line.
func TestGraphOfRecordsNamingEachOther(t *testing.T) {
	data := readFile(t, esbuildSemverFile)
	v := buildView(t, inputOf(t, data, 8000))
	text := fillAt(t, v, 8000).Text
	if !strings.Contains(text, "graph of .inputs") {
		t.Fatalf("no graph of .inputs:\n%s", text)
	}
	none := jqAll(t, data, `[.inputs[] | select((.imports | length) == 0)] | length`)[0].(int)
	unnamed := jqAll(t, data, `.inputs as $in | [$in | keys[] | select(. as $k | [$in[].imports[] | select(.path == $k)] | length == 0)] | length`)[0].(int)
	if want := fmt.Sprintf("  %d with no imports, %d named by no record", none, unnamed); !strings.Contains(text, want) {
		t.Errorf("no line %q:\n%s", want, text)
	}
	top := jqAll(t, data, `.inputs as $in | [$in | to_entries[] | .key as $k | {k: $k, n: ([$in | to_entries[] | select(any(.value.imports[]; .path == $k))] | length)}] | (map(.n) | max) as $m | map(select(.n == $m))[0] | "\(.k) \(.n)"`)[0].(string)
	if !strings.Contains(text, "most pointed to (records naming them in imports[].path): "+top) {
		t.Errorf("the most imported record is not %q:\n%s", top, text)
	}
	// A record in the middle: its imports and its importers, as jq
	// lists them.
	const rec = "node_modules/semver/classes/range.js"
	out := jqAll(t, data, `[.inputs["`+rec+`"].imports[].path] | join(", ")`)[0].(string)
	in := jqAll(t, data, `[.inputs | to_entries[] | select(any(.value.imports[]; .path == "`+rec+`")) | .key] | "\(length) named by \(join(", "))"`)[0].(string)
	n := jqAll(t, data, `.inputs["`+rec+`"].imports | length`)[0].(int)
	if want := fmt.Sprintf("%s: %d imports %s; %s\n", rec, n, out, in); !strings.Contains(text, want) {
		t.Errorf("no line %q:\n%s", want, text)
	}
	// A list of the record's own name (an interface's addresses labelled
	// by its own name) is no graph.
	v2, _ := viewOf(t, "../../testdata/captured/ip-details-addr-lab.json")
	if text := fillAt(t, v2, 8000).Text; strings.Contains(text, "graph of") {
		t.Errorf("a list of the records' own names read as a graph:\n%s", text)
	}
}

// cargoMetadataFile is `cargo metadata --no-deps --format-version 1` of
// rust-analyzer's workspace (testdata/README.md): 44 packages whose
// dependencies[].name name 228 workspace packages among 540 crates.
const cargoMetadataFile = "testdata/cargo-metadata-rust-analyzer.json"

// TestGraphWhoseListsAlsoNameOthers: a collection whose lists name
// records of it among other names (a workspace's packages depending on
// each other and on crates from a registry: 42% of the names are
// packages here) is a graph; the records with no dependencies and those
// no package depends on are counted and named as jq finds them, and the
// most depended on is named with its count. On main the graph needed
// half of a list's values to be records, and the view had no line with
// "which packages depend on stdx".
func TestGraphWhoseListsAlsoNameOthers(t *testing.T) {
	data := readFile(t, cargoMetadataFile)
	v := buildView(t, inputOf(t, data, 8000))
	text := fillAt(t, v, 8000).Text
	if !strings.Contains(text, "graph of .packages (44 records named by their name)") {
		t.Fatalf("no graph of .packages:\n%s", text)
	}
	none := jqAll(t, data, `[.packages[] | select(.dependencies | length == 0) | .name] | "\(length) with no dependencies"`)[0].(string)
	unnamed := jqAll(t, data, `([.packages[].dependencies[].name] | unique) as $u | [.packages[] | select(.name as $n | $u | index($n) | not) | .name] | "\(length) named by no record"`)[0].(string)
	if want := "  " + none + ", " + unnamed; !strings.Contains(text, want) {
		t.Errorf("no line %q:\n%s", want, text)
	}
	top := jqAll(t, data, `[.packages[] | {n: .name, d: ([.dependencies[].name] | unique)}] as $p | [$p[] | .n as $x | {x: $x, c: ([$p[] | select(.d | index($x))] | length)}] | max_by(.c) | "\(.x) \(.c)"`)[0].(string)
	if !strings.Contains(text, "most pointed to (records naming them in dependencies[].name): "+top+",") {
		t.Errorf("the most depended on is not %q:\n%s", top, text)
	}
	edges := jqAll(t, data, `[.packages[].name] as $n | [.packages[].dependencies[].name] | "\(length) edges in dependencies[].name, \(map(select(. as $d | $n | index($d))) | length) to records here"`)[0].(string)
	if !strings.Contains(text, edges) {
		t.Errorf("no %q:\n%s", edges, text)
	}
}

// TestGraphOfAMapOfLists: a map of module -> the modules it requires
// (madge --json) is a graph whose records are named by their keys and
// whose lists are the values themselves: the modules nothing requires and
// the most required, as jq counts them. On main the map was profiled
// as lists of strings, and "which modules require X" was in no line.
func TestGraphOfAMapOfLists(t *testing.T) {
	data := readFile(t, madgeFile)
	in := inputOf(t, data, 8000)
	in.Tool = "madge"
	text := fillAt(t, buildView(t, in), 8000).Text
	if !strings.Contains(text, "graph of . (223 records named by their key)") {
		t.Fatalf("no graph of the map:\n%s", text)
	}
	empty := jqAll(t, data, `[.[] | select(length == 0)] | length`)[0].(int)
	unnamed := jqAll(t, data, `([.[][]] | unique) as $u | [keys[] | select(. as $k | $u | index($k) | not)] | length`)[0].(int)
	if want := fmt.Sprintf("  %d with an empty list, %d named by no record", empty, unnamed); !strings.Contains(text, want) {
		t.Errorf("no line %q:\n%s", want, text)
	}
	top := jqAll(t, data, `[.[][]] | group_by(.) | max_by(length) | "\(.[0]) \(length)"`)[0].(string)
	if !strings.Contains(text, "most pointed to (records naming them in their lists): "+top+",") {
		t.Errorf("the most required is not %q:\n%s", top, text)
	}
	// A record's line: what it requires and what requires it.
	const rec = "lib/create/check-overflow.js"
	out := jqAll(t, data, `.["`+rec+`"] | "\(length) names \(join(", "))"`)[0].(string)
	by := jqAll(t, data, `[to_entries[] | select(.value | index("`+rec+`")) | .key] | "\(length) named by \(join(", "))"`)[0].(string)
	if want := rec + ": " + out + "; " + by + "\n"; !strings.Contains(text, want) {
		t.Errorf("no line %q:\n%s", want, text)
	}
}

// graphRestFoot is the foot of a graph's record lines, with its query.
var graphRestFoot = regexp.MustCompile(`(?m)^  edges: ([\d,]+) of ([\d,]+) records not listed; list exactly them \(name, out, in\): compact artifact query \S+ --jq '([^\n]*)'$`)

// TestGraphRestQueryAsTheRecordsSay: the query of the records not
// listed returns, for each, its name, its edges out and the records
// naming it, as a scan of every record finds them (the quadratic query
// it replaces, REVIEW18 R12), on an array graph (cargo), a map of
// objects (esbuild) and a map of lists (madge).
func TestGraphRestQueryAsTheRecordsSay(t *testing.T) {
	for _, tc := range []struct {
		file, slow string
	}{
		{cargoMetadataFile, `.packages as $r | [$r[%s:][] | .name as $n | {name: $n, out: [.dependencies[]?.name | strings], in: [$r[] | select(any(.dependencies[]?.name | strings; . == $n)) | .name]}]`},
		{esbuildSemverFile, `.inputs | to_entries as $e | [$e[%s:][] | .key as $n | {name: $n, out: [.value | .imports[]?.path | strings], in: [$e[] | select(any(.value | .imports[]?.path | strings; . == $n)) | .key]}]`},
		{madgeFile, `. | to_entries as $e | [$e[%s:][] | .key as $n | {name: $n, out: [.value | .[]? | strings], in: [$e[] | select(any(.value | .[]? | strings; . == $n)) | .key]}]`},
	} {
		data := readFile(t, tc.file)
		v := buildView(t, inputOf(t, data, 4000))
		found := false
		for _, b := range []int{4000, 5000, 6000, 7000, 8000, 16000} {
			m := graphRestFoot.FindStringSubmatch(fillAt(t, v, b).Text)
			if m == nil {
				continue
			}
			found = true
			from := jqAll(t, data, strings.Replace(tc.slow, "%s", "0", 1)+" | length")[0].(int) - graphAtoi(t, m[1])
			got, _ := json.Marshal(jqAll(t, data, m[3]))
			want, _ := json.Marshal(jqAll(t, data, strings.Replace(tc.slow, "%s", strconv.Itoa(from), 1)))
			if string(got) != string(want) {
				t.Errorf("%s at %d: the query returns\n%.600s\nwant\n%.600s", tc.file, b, got, want)
			}
			break
		}
		if !found {
			t.Errorf("%s: no graph foot at 4k-16k", tc.file)
		}
	}
}

// graphAtoi reads a count written with thousands separators.
func graphAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sbomLike returns a CycloneDX-like document: n components with a
// description and a license each (the heavier collection), and
// .dependencies, each ref's dependsOn naming other refs (most of the
// records' bytes): every record names the next two, refs 2-8 are named
// by 3 records more (5 each: a tie the top 5 cuts), ref 0 by 9.
func sbomLike(n int) []byte {
	var comps, deps []string
	for i := 0; i < n; i++ {
		comps = append(comps, fmt.Sprintf(`{"bom-ref":"pkg%d@1.%d.0","name":"pkg%d","version":"1.%d.0","license":"%s","description":"the package number %d of the document, with words"}`,
			i, i%7, i, i%7, []string{"MIT", "ISC", "Apache-2.0"}[i%3], i))
	}
	named := map[int][]int{} // record -> the records it names
	for j := 0; j < 9; j++ {
		named[20+j] = append(named[20+j], 0)
	}
	for t := 2; t <= 8; t++ {
		for j := 0; j < 3; j++ {
			named[30+3*t+j] = append(named[30+3*t+j], t)
		}
	}
	for i := 0; i+2 < n; i++ {
		named[i] = append(named[i], i+1, i+2)
	}
	for i := 0; i < n; i++ {
		var on []string
		for _, t := range named[i] {
			on = append(on, fmt.Sprintf(`"pkg%d@1.%d.0"`, t, t%7))
		}
		deps = append(deps, fmt.Sprintf(`{"ref":"pkg%d@1.%d.0","dependsOn":[%s]}`, i, i%7, strings.Join(on, ",")))
	}
	return []byte(`{"bomFormat":"CycloneDX","components":[` + strings.Join(comps, ",") + `],"dependencies":[` + strings.Join(deps, ",") + `]}`)
}

// TestGraphTopSaysItsTie: the "most pointed to" list of five says how
// many more records are named as often as its fifth (REVIEW19 R12): of
// seven records named by 5 each, four follow the first; the other three
// were left out without a word.
func TestGraphTopSaysItsTie(t *testing.T) {
	data := sbomLike(120)
	text := fillAt(t, buildView(t, inputOf(t, data, 8000)), 8000).Text
	want := "most pointed to (records naming them in dependsOn[]): pkg0@1.0.0 9, pkg2@1.2.0 5, pkg3@1.3.0 5, pkg4@1.4.0 5, pkg5@1.5.0 5, and 3 more with 5 each\n"
	if !strings.Contains(text, want) {
		t.Errorf("no line %q:\n%s", want, text)
	}
}

// TestGraphOfALighterCollectionAfterItsRows: the summary of the graph of
// a collection lighter than another (an SBOM's .dependencies beside its
// .components) comes after the first rows of every collection, with the
// profiles' second lines (REVIEW19 R11: its lines took the room of 7 of
// an SBOM's component rows at 2,000 tokens); at a budget where the
// components' rows are cut, the graph's summary is not shown, and at a
// larger one it is. On the code before, the summary came with the
// profiles, before any row.
func TestGraphOfALighterCollectionAfterItsRows(t *testing.T) {
	data := sbomLike(120)
	v := buildView(t, inputOf(t, data, 8000))
	cut := 0
	for _, b := range []int{1200, 1400, 1600, 1800, 2000} {
		text := fillAt(t, v, b).Text
		if strings.Contains(text, "collection .components") && strings.Contains(text, "not shown: ") && !strings.Contains(text, "most pointed to") {
			cut = b
		}
	}
	if cut == 0 {
		t.Errorf("at every budget of 1,200 to 2,000 tokens the graph's summary is shown")
	}
	if text := fillAt(t, v, 8000).Text; !strings.Contains(text, "most pointed to") {
		t.Errorf("at 8,000 tokens no graph summary:\n%s", text)
	}
	// The graph of the heaviest collection (a madge map) keeps its
	// summary with the profiles.
	text := fillAt(t, buildView(t, inputOf(t, readFile(t, "testdata/madge-moment.json"), 2000)), 2000).Text
	if !strings.Contains(text, "most pointed to") {
		t.Errorf("madge's graph has no summary at 2,000 tokens:\n%s", text)
	}
}
