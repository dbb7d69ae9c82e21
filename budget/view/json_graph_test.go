package view_test

import (
	"fmt"
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
