package bench

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
)

// TestVisibleFor checks the field-aware rule: with a record, the answer
// counts only next to the record's identifier (same line, or within the
// window), a number only right beside its label, and a bare occurrence
// elsewhere does not count. VisibleIn (the loose rule) accepts them all.
func TestVisibleFor(t *testing.T) {
	ip := Answer{Needles: []string{"10.0.0.7"}, Record: []string{"ledger-db-1"}, Category: CategoryRecord}
	pending := Answer{Needles: []string{"3"}, Record: []string{"Pending"}, Category: CategoryDistribution}
	pipeDeps := Answer{Needles: []string{"4"}, Record: []string{"pipe.js"}, Kind: KindCount, Category: CategoryRecord}
	far := strings.Repeat("x ", 400) // 800 bytes
	cases := []struct {
		name    string
		a       Answer
		content string
		want    bool
	}{
		{"same row", ip, "ledger-db-1\tRunning\t10.0.0.7\n", true},
		// A whole output shows a map of name -> list as it is: the count
		// of a short list is read off it (bundled madge-ramda's pipe-deps
		// at 8,000 tokens, shown whole, was answered by nothing).
		{"a short list shown whole", pipeDeps, `{"pick.js":["a.js"],"pipe.js":["internal/_arity.js","internal/_pipe.js","reduce.js","tail.js"]}`, true},
		{"a short list, indented", pipeDeps, "{\n  \"pipe.js\": [\n    \"a\",\n    \"b\",\n    \"c\",\n    \"d\"\n  ]\n}", true},
		{"a list of another length", pipeDeps, `{"pipe.js":["a","b","c"]}`, false},
		{"a list cut short is no count", pipeDeps, `{"pipe.js":["a","b","c","d"`, false},
		{"the name not as a member", pipeDeps, `pipe.js ["a","b","c","d"]`, false},
		{"too long to count at a glance", Answer{Needles: []string{"13"}, Record: []string{"pipe.js"}, Kind: KindCount}, `{"pipe.js":["a","b","c","d","e","f","g","h","i","j","k","l","m"]}`, false},
		{"other row", ip, "ledger-db-1\tRunning\t10.0.0.9\nledger-db-2\tRunning\t10.0.0.7\n", false},
		{"next line, close", ip, "name: ledger-db-1\nip: 10.0.0.7\n", true},
		{"far away", ip, "name: ledger-db-1\n" + far + "\nip: 10.0.0.7\n", false},
		{"identifier inside a longer name", ip, "ledger-db-10\t10.0.0.7\n", false},
		{"no identifier", ip, "10.0.0.7\n", false},
		{"count beside its label", pending, "status.phase: Running 40, Pending 3, Failed 1\n", true},
		{"count beside its label, JSON", pending, "{\"phase\": \"Pending\",\n \"count\": 3}", true},
		{"count on another line, far", pending, "Pending\n" + strings.Repeat("-", 100) + "\nrestarts 3\n", false},
		{"a 3 somewhere else", pending, "Pending pods are listed below\n" + far + "\n3 nodes\n", false},
		{"numbered text lines are not table rows", ip, "12\tPackage: ledger-db-1\n13\tIP: 10.0.0.7\n", true},
		{"numbered table rows are", ip, "12\tledger-db-1\tRunning\n13\tledger-db-2\t10.0.0.7\n", false},
		{"grouped number", Answer{Needles: []string{"9000"}, Record: []string{"lines"}}, "9,000 lines", true},
		{"array needs every element near", Answer{Needles: []string{"a1", "b2"}, Record: []string{"pod"}}, "pod a1\n" + far + "\nb2\n", false},
		// A count of what the view shows is no answer (npm-ls-all's
		// jest-scope was "answered" at 4,000 tokens by "showing 14 of
		// 29" and lost at 8,000 by "showing 29 of 29").
		// heldout15w: a name in the middle of a list is not singled out
		// (jscpd's largest source "found" as one value of another field's
		// census; pytest's biggest module as one item of "skipped tests:").
		{"a census value after the first is no extreme", Answer{Needles: []string{"ls.js"}, Kind: KindMax, Category: CategoryExtremes},
			"  firstFile.name (string, 15 distinct): a.js 3, b.js 3, ls.js 1, x.js 1\n", false},
		{"the last census value is no extreme either", Answer{Needles: []string{"ls.js"}, Kind: KindMax, Category: CategoryExtremes},
			"  firstFile.name (string, 15 distinct): a.js 3, b.js 3, ls.js 1\n", false},
		{"the first census value is the most frequent", Answer{Needles: []string{"a.js"}, Kind: KindMax, Category: CategoryExtremes},
			"  firstFile.name (string, 15 distinct): a.js 3, b.js 3, ls.js 1\n", true},
		{"the tail of an item in the middle of a list", Answer{Needles: []string{"/usr/lib/ls.js"}, Kind: KindMax, Category: CategoryExtremes},
			"  name: ../../usr/lib/a.js 2, ../../usr/lib/ls.js 1, ../../usr/lib/b.js 1\n", false},
		{"an item in the middle of a list", Answer{Needles: []string{"t/b.py"}, Kind: KindMax, Category: CategoryExtremes},
			"skipped tests: t/a.py › x; t/b.py › y; t/c.py › z\n", false},
		{"the last item of a cell's list", Answer{Needles: []string{"/x/publish.js"}, Kind: KindMax, Category: CategoryExtremes},
			"53\tlibnpmpack\t/x/pack.js,/x/publish.js\tspread\n", false},
		{"the last item of a list ending its line", Answer{Needles: []string{"tap"}, Kind: KindLast, Category: CategoryEnd},
			"  every item, in order: ajv, nock, tap\n", true},
		{"a member name is no list item", Answer{Needles: []string{"index.js"}, Kind: KindLookup, Category: CategoryExtremes},
			`{"F.js":[],"index.js":["a.js","b.js"],"z.js":[]}`, true},
		{"a name on its own", Answer{Needles: []string{"ls.js"}, Kind: KindMax, Category: CategoryExtremes},
			"124\t/usr/lib/ls.js\t572\tlargest lines\n", true},
		// A reason's "(N of M)" counts the records with what its clause
		// names, not the record named in another cell of the row
		// (heldout15w cmake: "frame=1 is rare (20 of 1,511)" on a row of
		// CMakeLists.txt "answered" how many commands come from that file).
		{"a reason's part count labels its own clause", Answer{Needles: []string{"20"}, Record: []string{"CMakeLists.txt"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"1\tproject\t/tmp/CMakeLists.txt\tframe=1 is rare (20 of 1,511)\n", false},
		{"a reason's part count, its clause's field", Answer{Needles: []string{"20"}, Record: []string{"frame"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"1\tproject\t/tmp/CMakeLists.txt\tframe=1 is rare (20 of 1,511)\n", true},
		{"a part count after only", Answer{Needles: []string{"129"}, Record: []string{"CMakeLists.txt"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"160\tset\t/tmp/CMakeLists.txt\thas line_end=44 (only 129 of 1,512 records do)\n", false},
		// A count of records is no cell of one record's row (heldout15w
		// cmake: the row of CMakeLists.txt's line 20 "answered" how many
		// commands come from that file, 20 by chance).
		{"a count is no field of the record's row", Answer{Needles: []string{"20"}, Record: []string{"/tmp/h15/cm/CMakeLists.txt"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"1511\t1795688528.713995\t1\ttarget_link_libraries\t20\t/tmp/h15/cm/CMakeLists.txt\tgtest_main,PUBLIC,gtest\tlast\n", false},
		{"a line number is no count of the line's record", Answer{Needles: []string{"17"}, Record: []string{"error"}, Kind: KindFilterCount, Category: CategoryHowMany},
			"  17\tsrc/a.c:3: error: x undeclared\n", false},
		{"a count of the record's own, in its row", Answer{Needles: []string{"4"}, Record: []string{"pipe.js"}, Kind: KindCount, Category: CategoryRecord},
			"7\tpipe.js\t4\n", true},
		{"a count beside its label in one cell", Answer{Needles: []string{"213"}, Record: []string{"printf"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"example.com/vetlab/printf\tprintf 213,unusedresult 4\n", true},
		// heldout15w depcheck: the first item of a row's list cell is one
		// of the row's items, not the file that requires the most packages.
		{"the first item of a cell's list", Answer{Needles: []string{"/x/publish.js"}, Kind: KindMax, Category: CategoryExtremes},
			"55\tlibnpmpublish\t/x/publish.js,/x/unpublish.js\tspread\n", false},
		{"the last item of a cell's list ending its line", Answer{Needles: []string{"/x/publish.js"}, Kind: KindMax, Category: CategoryExtremes},
			"libnpmpack\t/x/pack.js,/x/publish.js\n", false},
		{"the first item of the last row's list, for a position", Answer{Needles: []string{"gtest_main"}, Kind: KindLast, Category: CategoryEnd},
			"1511\t1\ttarget_link_libraries\t20\t/x/CMakeLists.txt\tgtest_main,PUBLIC,gtest\tlast\n", true},
		{"a cell's only item", Answer{Needles: []string{"/x/publish.js"}, Kind: KindMax, Category: CategoryExtremes},
			"55\tlibnpmpublish\t/x/publish.js\tspread\n", true},
		// A list ordered by count says nothing of position (hf10
		// html-validate: the most frequent rule "answered" which rule the
		// last file reports last; heldout15w make -d: a template's values).
		{"a census's first value is no last", Answer{Needles: []string{"attr-quotes"}, Kind: KindLast, Category: CategoryEnd},
			"  messages[].ruleId (string, 4,716 values, 16 distinct): attr-quotes 2,579, no-deprecated-attr 1,405\n", false},
		{"a census's first value is still the most frequent", Answer{Needles: []string{"attr-quotes"}, Kind: KindMax, Category: CategoryExtremes},
			"  messages[].ruleId (string, 4,716 values, 16 distinct): attr-quotes 2,579, no-deprecated-attr 1,405\n", true},
		{"a template's values are no last", Answer{Needles: []string{"gtest_main.o"}, Kind: KindLast, Category: CategoryEnd},
			"  [5 lines] Considering target file <*>.\n      values: <*>1 (5 values): 'all', 'libgtest.a', 'gtest_main.o'\n", false},
		{"a census value is no last, with a record", Answer{Needles: []string{"tap"}, Record: []string{"devDependencies"}, Kind: KindLast, Category: CategoryEnd},
			"  devDependencies[] (string, 20 values): ajv 3, tap 1\n", false},
		{"the last of a list in order, with a record", Answer{Needles: []string{"tap"}, Record: []string{"devDependencies"}, Kind: KindLast, Category: CategoryEnd},
			"  devDependencies: ajv, nock, tap\n", true},
		// A record in the plural stands for its singular (heldout15w
		// clang-tidy: record "warnings", view "warning lines: 174").
		{"a plural record, the singular in the view", Answer{Needles: []string{"174"}, Record: []string{"warnings"}, Kind: KindCount, Category: CategoryHowMany},
			"error lines: 0 (0 distinct); warning lines: 174 (174 distinct)\n", true},
		{"status is no plural", Answer{Needles: []string{"3"}, Record: []string{"status"}, Kind: KindCount, Category: CategoryHowMany},
			"statu 3\n", false},
		// A small value shown whole on a line of facts is counted by the
		// reader (heldout15w depcheck: "missing: {}" for 0 missing).
		{"an empty object shown whole", Answer{Needles: []string{"0"}, Record: []string{"missing"}, Kind: KindCount, Category: CategoryDistribution},
			"outside the collections:\n  missing: {}\n", true},
		{"a short list on a line of facts", Answer{Needles: []string{"2"}, Record: []string{"dependencies"}, Kind: KindCount, Category: CategoryAnomaly},
			"outside the collections:\n  dependencies: [\"a\",\"b\"]\n", true},
		{"an object of members shown whole", Answer{Needles: []string{"2"}, Record: []string{"invalidDirs"}, Kind: KindCount, Category: CategoryHowMany},
			`{"invalidDirs": {"a": 1, "b": 2}, "x": [1, 2, 3]}`, true},
		{"the key inside a sentence is no member", Answer{Needles: []string{"0"}, Record: []string{"missing"}, Kind: KindCount, Category: CategoryDistribution},
			"nothing is missing: {}\n", false},
		{"count of rows shown", Answer{Needles: []string{"14"}, Record: []string{"@jest"}}, "collection .x.\"@jest/core\" (map): 29 records; showing 14 of 29\n", false},
		{"count of rows not shown", Answer{Needles: []string{"9"}, Record: []string{"@jest"}}, "  not shown: 9 of 12 records; jq '.\"@jest/core\"'\n", false},
		// heldout16w npm explain: with no node of a tree shown, a part of
		// what is not shown equals the number of records (a violation of
		// monotonicity: answered at 2,000 tokens, not at 4,000).
		{"a part of what is not shown", Answer{Needles: []string{"9"}, Record: []string{"nodes"}, Kind: KindCount, Category: CategoryHowMany},
			"  nodes not shown: 29 of 29 (all 9 at depth 0, all 20 at depth 1); get exactly them\n", false},
		{"the total of what is not shown", Answer{Needles: []string{"29"}, Record: []string{"nodes"}, Kind: KindCount, Category: CategoryHowMany},
			"  nodes not shown: 17 of 29 (all 17 at depth 1); get exactly them\n", true},
		{"count shown, level 1", Answer{Needles: []string{"90"}, Record: []string{"records"}}, "[compact: 90 of 100 records shown]", false},
		{"the total shown, level 1", Answer{Needles: []string{"100"}, Record: []string{"records"}}, "[compact: 90 of 100 records shown]", true},
		// Word forms: the JSON says "skip", the view "skipped" or "SKIP".
		{"word form of the record", Answer{Needles: []string{"TestZones"}, Record: []string{"skip"}}, "skipped tests: example.com/shop/shipping TestZones\n", true},
		{"upper case record", Answer{Needles: []string{"TestZones"}, Record: []string{"skip"}}, "  --- SKIP: TestZones (0.00s)\n", true},
		{"word form of the answer", Answer{Needles: []string{"fail"}, Record: []string{"pricing"}}, "example.com/shop/pricing\tfailed\n", true},
		{"a longer word is no form", Answer{Needles: []string{"TestZones"}, Record: []string{"skip"}}, "skipper TestZones\n", false},
		{"a form far away is not near", Answer{Needles: []string{"fail"}, Record: []string{"pricing"}}, "pricing\tok\nother\tfailed\n", false},
		{"a form inside a word is none", Answer{Needles: []string{"fail"}, Record: []string{"pricing"}}, "pricing\tfailsafe\n", false},
		// The view's own words are no data: heldout2 ps-eo's kworker count
		// (33) was "answered" by the foot line's range "33-77:" within 80
		// bytes of the last kworker row.
		{"a line range of the foot", Answer{Needles: []string{"33"}, Record: []string{"kworker"}, Category: CategoryDistribution},
			"  31463     2 root     I      0     0      0  0.0       09:18 kworker/1:2-virtio_vsock\n" +
				"not shown: 74 of 98 lines (numbered from 0); 33-77: compact artifact slice artifact:ddfae7caa728 --offset 33 --limit 45\n", false},
		{"a line range of a heading", Answer{Needles: []string{"97"}, Record: []string{"lines"}}, "last 20 lines (lines 78-97):\n", false},
		{"a template's line range", Answer{Needles: []string{"9"}, Record: []string{"lines"}}, "  [4 lines] GET /x  (lines 3 … 9)\n", false},
		{"a number inside a suggested query", Answer{Needles: []string{"14"}, Record: []string{"records"}},
			"  not shown: 280 of 288 records; get exactly them: compact artifact query artifact:3d38 --jq '.items | del(.[0], .[14])'\n", false},
		{"a record named only inside a query", ip,
			"  find it: compact artifact search artifact:3d38 ledger-db-1\n  ip: 10.0.0.7\n", false},
		{"the row beside the query still counts", ip,
			"ledger-db-1\tRunning\t10.0.0.7\n  one record by its name: compact artifact query artifact:3d38 --jq '.items[] | select(.name == \"ledger-db-1\")'\n", true},
		{"a count beside the range still counts", Answer{Needles: []string{"33"}, Record: []string{"kworker"}, Category: CategoryDistribution},
			"COMMAND: kworker 33, bash 12\nnot shown: 74 of 98 lines (numbered from 0); 33-77: compact artifact slice a --offset 33 --limit 45\n", true},
		{"data after a command on its line", Answer{Needles: []string{"71"}, Record: []string{"open"}, Category: CategoryDistribution},
			"[compact: 100 of 100 records shown; full original: artifact:e447 (compact artifact get / read_artifact); values in .: state open 71, closed 29]\n", true},
		{"data after a quoted filter", Answer{Needles: []string{"71"}, Record: []string{"open"}, Category: CategoryDistribution},
			"get them: compact artifact query artifact:e447 --jq '.[] | select(.state == \"open\") | .n, 71'; state open 71\n", true},
		{"a number inside a quoted filter", Answer{Needles: []string{"71"}, Record: []string{"open"}, Category: CategoryDistribution},
			"get them: compact artifact query artifact:e447 --jq '.[] | select(.state == \"open\") | limit(71; .)'\n", false},
		// A table cell is labelled by its column header, however far up
		// (heldout4 pg-explain-analyze at level fields: a one-row table
		// whose last cell is the execution time, 13 KB from its header).
		{"a cell under its column header", Answer{Needles: []string{"431.729"}, Record: []string{"Execution Time"}, Kind: KindLookup, Category: CategoryFacts},
			"[compact: 1 of 1 records shown]\nPlan\tPlanning Time\tExecution Time\n{" + strings.Repeat("\"x\":1,", 200) + "}\t1.091\t431.729\n", true},
		{"a cell under another header", Answer{Needles: []string{"1.091"}, Record: []string{"Execution Time"}, Kind: KindLookup, Category: CategoryFacts},
			"Plan\tPlanning Time\tExecution Time\n{" + strings.Repeat("\"x\":1,", 200) + "}\t1.091\t431.729\n", false},
		{"a count is no cell", Answer{Needles: []string{"431.729"}, Record: []string{"Execution Time"}, Kind: KindSum, Category: CategoryHowMany},
			"Plan\tPlanning Time\tExecution Time\n{" + strings.Repeat("\"x\":1,", 200) + "}\t1.091\t431.729\n", false},
		{"numbered text lines have no header", Answer{Needles: []string{"1.2"}, Record: []string{"Version: 0.9"}, Kind: KindLookup, Category: CategoryRecord},
			"0\tVersion: 0.9\n" + strings.Repeat("1\tx\n", 300) + "7\tVersion: 1.2\n", false},
		{"the length of the head shown", Answer{Needles: []string{"88"}, Record: []string{"lines"}}, "first 88 lines (lines 0-87):\n", false},
		{"the length of the tail shown", Answer{Needles: []string{"12"}, Record: []string{"lines"}}, "the last 12 output lines of the run (the Output of events 3-14):\n", false},
		{"a count of lines in the data", Answer{Needles: []string{"88"}, Record: []string{"lines"}}, "text: 88 lines; kind: text\n", true},
		// heldout4 git-diff-gojq: "32 lines added to compiler_test.go" was
		// "answered" by the count of an unrelated template two lines away.
		{"a template's count is its own", Answer{Needles: []string{"32"}, Record: []string{"compiler_test.go"}, Category: CategoryRecord},
			"      values: <*>1 (22 values): a/CHANGELOG.md, a/compiler_test.go\n  [32 lines] -const <*> = <*>  (lines 3 … 9)\n", false},
		{"a template's count on its line", Answer{Needles: []string{"282"}, Record: []string{"dep"}, Category: CategoryDistribution},
			"  [282 lines] dep <*> <*> <*>  (lines 3 … 337)\n", true},
		{"a repeat count on its line", Answer{Needles: []string{"2"}, Record: []string{"return err"}, Category: CategoryRecord},
			"  471\t[2 times, first at line 462] return err\n", true},
		// bundled npm-ls-all: jest-cli's version was "found" in the row of
		// one of its dependencies, under the head of jest-cli's collection.
		{"a cell of another record's row", Answer{Needles: []string{"29.7.0"}, Record: []string{"jest-cli"}, Category: CategoryRecord},
			"collection .dependencies.jest.dependencies.\"jest-cli\".dependencies (map): 12 records\n#\tkey\tversion\n0\t@jest/core\t29.7.0\n", false},
		{"a value several records share", Answer{Needles: []string{"29.7.0"}, Record: []string{"jest-cli"}, Category: CategoryRecord},
			"collection .dependencies.jest.dependencies.\"jest-cli\".dependencies (map): 12 records\n  version (string): 29.7.0 6, 0.1.2 1\n", false},
		{"a value one record holds", Answer{Needles: []string{"0.1.2"}, Record: []string{"jest-cli"}, Category: CategoryRecord},
			"jest-cli:\n  version (string): 0.1.2 1, 29.7.0 6\n", true},
		// heldout8 ldd-usr-bin: a library line indented by a tab under
		// its binary was taken for a table row, so nothing on the
		// binary's line was near it.
		{"an indenting tab is no cell", Answer{Needles: []string{"libonig.so.5"}, Record: []string{"/usr/bin/jq"}, Category: CategoryRecord},
			"/usr/bin/jq:\n\tlinux-vdso.so.1 (0x00007f29016d3000)\n\tlibonig.so.5 => /lib/x86_64-linux-gnu/libonig.so.5 (0x00007f2901312000)\n", true},
		// heldout12w stat-etc: stat's "  Size: 9431      \tBlocks: 24 ..."
		// separates labelled fields of the file named on the line above by
		// a tab; such a line is a line of the record, not a row of its own.
		{"a tab between labelled fields is no row", Answer{Needles: []string{"9431"}, Record: []string{"/etc/locale.gen"}, Kind: KindLookup, Category: CategoryRecord},
			"  File: /etc/locale.gen\n  Size: 9431      \tBlocks: 24         IO Block: 4096   regular file\n", true},
		{"a row with one labelled cell still is a row", ip, "ledger-db-1\tRunning\nledger-db-2\tip: 10.0.0.7\n", false},
		// heldout12w node-prof-process: a count of one value of a list
		// ("0.0% 227") was "near" a word of another list on the same line,
		// after a "; " ("<*>1 (3 values): JS: 355, ..."); the "(3 values)"
		// that heads a list was "near" a value inside it ("RegExp: 1"); and
		// the "11" of a location "reify.js:353:11" was a count near "stack".
		{"a count in another list of the line", Answer{Needles: []string{"227"}, Record: []string{"JS"}, Category: CategoryDistribution},
			"      values: <n>% (7 values): 0.0% 227, 0.1% 111; <*>1 (3 values): JS: 355, RegExp: 1\n", false},
		{"a count in its own list", Answer{Needles: []string{"355"}, Record: []string{"JS"}, Category: CategoryDistribution},
			"      values: <n>% (7 values): 0.0% 227, 0.1% 111; <*>1 (3 values): JS: 355, RegExp: 1\n", true},
		{"a list's own label across the list", Answer{Needles: []string{"36"}, Record: []string{"Version"}, Category: CategoryExtremes},
			"  Version (string): 151 distinct; shapes: *.#.# 167; longest 36 chars\n", true},
		{"the number of values of a list is no count of one of them", Answer{Needles: []string{"3"}, Record: []string{"RegExp"}, Category: CategoryAnomaly},
			"      values: <*>1 (3 values): JS: 355, std::x 2, RegExp: 1\n", false},
		{"the number of values of a list answers for its label", Answer{Needles: []string{"3"}, Record: []string{"<*>1"}, Category: CategoryHowMany},
			"      values: <*>1 (3 values): JS: 355, std::x 2, RegExp: 1\n", true},
		// bundled apt-cache-rdepends and strace-make: the words right after
		// the number are what it counts.
		{"the number of values beside its words", Answer{Needles: []string{"674"}, Record: []string{"distinct", "names"}, Category: CategoryHowMany},
			"  column 1, rows by the mark before the name: \"|\" 719; 159 rows without one; without the mark, 674 distinct names\n", true},
		{"the number of distinct values before the list", Answer{Needles: []string{"10"}, Record: []string{"distinct"}, Category: CategoryHowMany},
			"  column 1: numbers, 10 distinct values: 501 1,525, 494 828\n", true},
		{"a column of a location is no count", Answer{Needles: []string{"11"}, Record: []string{"stack"}, Category: CategoryHowMany},
			"npm verbose stack     at async #reifyPackages (/usr/lib/npm/reify.js:353:11)\n", false},
		{"a line of a location still is a number", Answer{Needles: []string{"353"}, Record: []string{"reify.js"}, Kind: KindLookup, Category: CategoryRecord},
			"npm verbose stack     at async #reifyPackages (/usr/lib/npm/reify.js:353:11)\n", true},
		// heldout12w: npm's exit code "read" off the count of the word
		// "exit" in a template slot's census, webpack's depth 4 off the
		// count of records missing a field, near the module's name.
		{"a census count is no field value", Answer{Needles: []string{"1"}, Record: []string{"exit"}, Kind: KindLookup, Category: CategoryEnd},
			"      values: <*>2 (7 values): code 2, using 2, cwd 1, exit 1; <*>3 (8 values): 1 2\n", false},
		{"a census count still counts", Answer{Needles: []string{"1"}, Record: []string{"exit"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"      values: <*>2 (7 values): code 2, using 2, cwd 1, exit 1; <*>3 (8 values): 1 2\n", true},
		{"a count of missing values is no field of a record", Answer{Needles: []string{"4"}, Record: []string{"buildLocalizeFn.js"}, Kind: KindLookup, Category: CategoryRecord},
			"  reasons (array): 0-510 items, most in ./locale/_lib/buildLocalizeFn.js (510)\n  issuerId (null, in 852 of 856 records, 852 null): null 852, missing 4\n", false},
		// bundled npm-ls-all: 4 direct dependencies "stated" by the count of
		// records missing "overridden", right above the "dependencies" line.
		{"a census count belongs to its line", Answer{Needles: []string{"4"}, Record: []string{"dependencies"}, Kind: KindCount, Category: CategoryHowMany},
			"  overridden (bool, in 25 of 29 records): false 25, missing 4\n  dependencies (map, in 20 of 29 records): 1-25 entries\n", false},
		{"a census count of another value on the label's line", Answer{Needles: []string{"4"}, Record: []string{"dependencies"}, Kind: KindCount, Category: CategoryHowMany},
			"  dependencies (map, in 20 of 29 records): 1-25 entries; names by records holding them: chalk 12, micromatch 4\n", false},
		{"a census count under its field's label", Answer{Needles: []string{"65"}, Record: []string{"ActionsEnabled"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"  ActionsEnabled (bool): true 295, false 65\n", true},
		{"a census count of its own value", Answer{Needles: []string{"12"}, Record: []string{"chalk"}, Kind: KindCount, Category: CategoryHowMany},
			"  dependencies (map, in 20 of 29 records): 1-25 entries; names by records holding them: chalk 12, micromatch 4\n", true},
		{"a census count of a quoted value holding the record", Answer{Needles: []string{"3"}, Record: []string{"curl"}, Kind: KindFilterCount, Category: CategoryRecord},
			"  column 1, values in more than one row: most repeated: \"openssh-client,zlib1g\" 4, \"curl,zlib1g\" 3, \"x,zlib1g\" 2\n", true},
		{"a field value on a record's line still is one", Answer{Needles: []string{"4"}, Record: []string{"buildLocalizeFn.js"}, Kind: KindLookup, Category: CategoryRecord},
			"  ./locale/_lib/buildLocalizeFn.js\tdepth 4\n", true},
		{"an indented table row still is one", ip, "  ledger-db-1\tRunning\t10.0.0.9\n  ledger-db-2\tRunning\t10.0.0.7\n", false},
		{"an indented cell under its column header", Answer{Needles: []string{"431.729"}, Record: []string{"Execution Time"}, Kind: KindLookup, Category: CategoryFacts},
			"\tPlan\tPlanning Time\tExecution Time\n\t{" + strings.Repeat("\"x\":1,", 200) + "}\t1.091\t431.729\n", true},
		{"an indented line under an indented line is no cell", Answer{Needles: []string{"0x00007f2901312000"}, Record: []string{"libjq.so.1"}, Kind: KindLookup, Category: CategoryRecord},
			"\tlibjq.so.1 => /lib/x86_64-linux-gnu/libjq.so.1\n" + strings.Repeat("\tlibx.so => /lib/libx.so\n", 40) + "\tlibonig.so.5 => /lib/x86_64-linux-gnu/libonig.so.5 (0x00007f2901312000)\n", false},
		// heldout8 go-build-gcflags-m: 4,455 diagnostics "stated" by the
		// position of the last error line (numbered from 0, after a
		// package line).
		{"a line's position is no count", Answer{Needles: []string{"4455"}},
			"error and warning lines, each distinct line once at its last position, after the line before it (showing 40 of 4,298 distinct error lines):\n" +
				"all error lines: compact artifact query artifact:f8af --jq '.'\n  4455\tbudget/view/rows.go:306:107: index bounds check elided\n", false},
		{"a repeat's first position is no count", Answer{Needles: []string{"4446"}},
			"lines unlike the rest, line<TAB>text:\n  4447\t[2 times, first at line 4446] x := y\n", false},
		{"a record's row number is no count", Answer{Needles: []string{"107"}, Record: []string{"Error"}},
			"#\tPath\tVersion\twhy\n107\tgithub.com/itchyny/go-yaml\tv0.0.0\thas Error (only 1 of 203 records do)\n", false},
		{"a cell of a numbered row stays under its header", Answer{Needles: []string{"30865"}, Record: []string{"sourceId"}, Kind: KindLookup, Category: CategoryAnomaly},
			"#\tname\tdur\targs.sourceId\twhy\n1629\tstructuredTypeRelatedTo\t988048.3\t31035\tdur\n1634\tstructuredTypeRelatedTo\t1007436.8\t30865\tdur=1.00744e+06 is 5.9σ from the mean 54374\n", true},
		{"the text of a numbered line is data", Answer{Needles: []string{"4455"}},
			"lines unlike the rest, line<TAB>text:\n  12\tdiagnostics: 4455\n", true},
		{"a raw line's leading number is data", Answer{Needles: []string{"4096"}, Record: []string{"runtime/proc.go"}},
			"first 2 lines (lines 0-1):\n  4096\truntime/proc.go\n  8\truntime/x.go\n", true},
		// heldout8 npm-config-ls-l: 7 overridden settings "stated" by the
		// count of the value "[]" beside the value "= true ; overridden by user".
		{"the count of another quoted value", Answer{Needles: []string{"7"}, Record: []string{"overridden"}, Category: CategoryHowMany},
			`column 3: "false" 55, "[]" 7, "= true ; overridden by user" 3` + "\n", false},
		{"the count of another quoted value, escaped quotes before it", Answer{Needles: []string{"7"}, Record: []string{"overridden"}, Category: CategoryHowMany},
			`column 3: "false" 55, "\"x" 11, "[]" 7, "= true ; overridden by user" 3` + "\n", false},
		{"a number far along the notice of a whole output", Answer{Needles: []string{"7"}, Record: []string{"overridden"}, Category: CategoryHowMany},
			"[compact: the output as it is; text: 201 lines (7 blank); " + strings.Repeat("column x: 12 distinct values; ", 20) + "overridden by user 3]\n", false},
		{"a number beside its label in the notice", Answer{Needles: []string{"3"}, Record: []string{"overridden"}, Category: CategoryHowMany},
			"[compact: the output as it is; text: 201 lines (7 blank); " + strings.Repeat("column x: 12 distinct values; ", 20) + "overridden by user 3]\n", true},
		{"a number far along a field's profile line", Answer{Needles: []string{"20"}, Record: []string{"Version", "*.#.#-#-*"}, Category: CategoryDistribution},
			"  Version (string, in 190 of 191 records): 151 distinct, longest 36 chars; shapes (# digits, * mixed letters and digits): *.#.# 167, *.#.#-#-* 20, *.#.#-#.#-* 3\n", true},
		{"a census count counts its value, not the field", Answer{Needles: []string{"20"}, Record: []string{"Version"}, Category: CategoryDistribution},
			"  Version (string, in 190 of 191 records): 151 distinct, longest 36 chars; shapes (# digits, * mixed letters and digits): *.#.# 167, *.#.#-#-* 20, *.#.#-#.#-* 3\n", false},
		// heldout13w c8 coverage: 19 functions never called "stated" by
		// the name "19" of a map's members listed with the number of
		// records holding each (and in an unquoted census, the value 2
		// held by 15 files is no count of anything).
		{"a quoted value of a census is no count", Answer{Needles: []string{"19"}, Record: []string{"0"}, Kind: KindFilterCount, Category: CategoryDistribution},
			`  statementMap (map of object): 30-66 entries; names (not all counted) by records holding them: "0" 18, "1" 18, "19" 18` + "\n", false},
		{"a value of a census is no count", Answer{Needles: []string{"2"}, Record: []string{"clones"}, Kind: KindCount, Category: CategoryHowMany},
			"  clones (number, 13 distinct): 0 341, 1 16, 2 15, 4 12; sum 210\n", false},
		{"the count after a census value still counts", Answer{Needles: []string{"19"}, Record: []string{"0"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"  f[] (number, 81 values): 0 19, 1 12, 7 40\n", true},
		{"a census value read off a record still is one", Answer{Needles: []string{"2"}, Record: []string{"clones"}, Kind: KindLookup, Category: CategoryFacts},
			"  clones (number, 13 distinct): 0 341, 1 16, 2 15, 4 12; sum 210\n", true},
		// heldout13w gpg: 28 keys of 4096 bits "stated" by the length of a
		// cut ("…[+28 chars]") beside a raw "pub:-:4096:..." line; typedoc:
		// YAMLMap's 30 members by the key "30" of another map's key list.
		{"the length of a cut is no data", Answer{Needles: []string{"28"}, Record: []string{"4096"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"  0-39\tuid:-::Debian Stable Release Key (12/bookworm) <debian-release@l…[+28 chars] pub:-:4096:1:73A4F27B8D\n", false},
		{"an item of another line's list is not near", Answer{Needles: []string{"30"}, Record: []string{"YAMLMap"}, Kind: KindLookup, Category: CategoryRecord},
			"  keys (1,796): 0, 1, 2, 28, 29, 30, 31, 32, … 1,746 more\n  packageName (string): yaml 1,507\n  packagePath (string): dist/nodes/YAMLMap.d.ts 145\n", false},
		{"an item of the anchor's own list is", Answer{Needles: []string{"30"}, Record: []string{"YAMLMap"}, Kind: KindLookup, Category: CategoryRecord},
			"  members of YAMLMap: 28, 29, 30, 31\n", true},
		{"a lone value on the next line still is near", Answer{Needles: []string{"443"}, Record: []string{"web-1"}, Kind: KindLookup, Category: CategoryRecord},
			"name: web-1\nport: 443\n", true},
		// heldout13w TAP report at 8,000 tokens: a failed test's location
		// on the next line of a numbered section; its masked position
		// ("####\t") made each line look like a table row.
		{"a numbered section's text lines are not table rows", Answer{Needles: []string{"/tmp/t/refund.test.js:11:5"}, Record: []string{"returns the total"}, Kind: KindLookup, Category: CategoryRecord},
			"lines unlike the rest (the only line of their template, latest first; showing 85 of 100), line<TAB>text:\n  1362\t    # Subtest: refundTotal\n  1369\t        not ok 2 - returns the total\n  1372\t          location: '/tmp/t/refund.test.js:11:5'\n", true},
		{"a numbered section's table rows still are", Answer{Needles: []string{"10.0.0.7"}, Record: []string{"ledger-db-1"}, Kind: KindLookup, Category: CategoryRecord},
			"rows chosen by their columns (showing 2), line<TAB>text<TAB>[why]:\n  12\tledger-db-1\tRunning\t[first]\n  13\tledger-db-2\t10.0.0.7\t[last]\n", false},
		// heldout14w nginx -T at 8,000 tokens (shown whole): 3 server
		// blocks "stated" by the next template's count in the one-line
		// notice and by "weight=3" on an upstream's server line.
		{"a template count across the notice's sections", Answer{Needles: []string{"3"}, Record: []string{"server"}, Kind: KindFilterCount, Category: CategoryHowMany},
			"[compact: the output as it is, nothing left out; templates: [4 lines] server <*>  (lines 195 … 343); [3 lines] access_log <*>  (lines 42 … 238)]\n", false},
		{"a template count in its own section of the notice", Answer{Needles: []string{"3"}, Record: []string{"access_log"}, Kind: KindFilterCount, Category: CategoryHowMany},
			"[compact: the output as it is, nothing left out; templates: [4 lines] server <*>  (lines 195 … 343); [3 lines] access_log <*>  (lines 42 … 238)]\n", true},
		{"the value of another key is no count", Answer{Needles: []string{"3"}, Record: []string{"server"}, Kind: KindFilterCount, Category: CategoryHowMany},
			"upstream app_backend {\n    server 127.0.0.1:8081 weight=3 max_fails=2;\n", false},
		// heldout14w redis INFO: 8 commands with failed calls "stated" by
		// "reply_buffer_shrinks:8" and "usec=8" beside "failed_calls=0".
		{"a key:value number of another key is no count", Answer{Needles: []string{"8"}, Record: []string{"failed_calls"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"cmdstat_append:calls=1,usec=8,usec_per_call=8.00,rejected_calls=0,failed_calls=0\nreply_buffer_shrinks:8\n", false},
		{"the record's own key holds the count", Answer{Needles: []string{"8"}, Record: []string{"failed_calls"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"commands with failures: failed_calls=8\n", true},
		{"a key's value read off a record is", Answer{Needles: []string{"4003"}, Record: []string{"cmdstat_set"}, Kind: KindLookup, Category: CategoryRecord},
			"cmdstat_set:calls=4003,usec=690,usec_per_call=0.17\n", true},
		{"a time is no key", Answer{Needles: []string{"32"}, Record: []string{"files"}, Kind: KindCount, Category: CategoryHowMany},
			"32 files at 10:32\n", true},
		// heldout14w ip addr: br0's STP state "read off" the last count of
		// a parenthesised census and a cell of veth1's row, which names
		// br0 as its master.
		{"the last count of a census in parentheses", Answer{Needles: []string{"1"}, Record: []string{"br0"}, Kind: KindLookup, Category: CategoryFacts},
			"  addr_info[].label (string, in 10 of 22 records, 11 values): 11 distinct (br0 1, br1 1, tun0 1), longest 8 chars\n", false},
		{"a census count in parentheses still counts its value", Answer{Needles: []string{"2"}, Record: []string{"tun0"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"  label (string, 3 values): 3 distinct (br0 1, br1 1, tun0 2), longest 8 chars\n", true},
		// bundled node-test-tap-units at 2,000 tokens: the reason closing
		// a parenthesis on a line with a count in parentheses before it.
		{"words closing a parenthesis are no census count", Answer{Needles: []string{"coupons come with the promotions service"}, Record: []string{"TODO", "todo"}, Kind: KindLookup, Category: CategoryAnomaly},
			"todo tests (1): cart > applies a coupon (TODO coupons come with the promotions service)\n", true},
		// bundled eslint-print-config-standard at 2,000 tokens: the rules
		// whose first item is "warn", listed under it; the value "warn"
		// before "(9)" was taken for a census count and skipped.
		{"a value heading its own list is no count", Answer{Needles: []string{"warn"}, Record: []string{"no-console"}, Kind: KindLookup, Category: CategoryRecord},
			"  [0] the first item (string, in 185 of 185 lists): error 173, warn 9, off 3; warn (9): no-console, promise/always-return\n", true},
		// bundled ls-laR-mcp-sdk at 2,000 tokens: ./mcp's 59 files stated as
		// the extreme of a per-record count, labelled by the record after it.
		{"an extreme names its record after it", Answer{Needles: []string{"59"}, Record: []string{"./mcp"}, Kind: KindFilterCount, Category: CategoryRecord},
			`  lines after each record's first, counted per record by their first words (exact): "-r--r--r--": 217 lines in 56 records, most 59 (in "./mcp:"); "dr-xr-xr-x": 190 lines in 64 records, most 16 (in "./examples/server:")` + "\n", true},
		{"an extreme names no other record", Answer{Needles: []string{"16"}, Record: []string{"./mcp"}, Kind: KindFilterCount, Category: CategoryRecord},
			`  lines after each record's first, counted per record by their first words (exact): "-r--r--r--": 217 lines in 56 records, most 59 (in "./mcp:"); "dr-xr-xr-x": 190 lines in 64 records, most 16 (in "./examples/server:")` + "\n", false},
		{"a row naming the record in a key=value cell is another record's", Answer{Needles: []string{"1"}, Record: []string{"br0"}, Kind: KindLookup, Category: CategoryFacts},
			"#\tifname\tmtu\tpromiscuity\tother\n4\tveth1\t1500\t1\tmaster=br0, state=learning\n", false},
		{"the record's own row", Answer{Needles: []string{"1"}, Record: []string{"br0"}, Kind: KindLookup, Category: CategoryFacts},
			"#\tifname\tmtu\tstp_state\tother\n2\tbr0\t1500\t1\tkind=bridge\n", true},
		{"a cell far along a long row", ip, "ledger-db-1\t" + strings.Repeat("x", 900) + "\t10.0.0.7\n", true},
		{"the count of the quoted value", Answer{Needles: []string{"3"}, Record: []string{"overridden"}, Category: CategoryHowMany},
			`column 3: "false" 55, "[]" 7, "= true ; overridden by user" 3` + "\n", true},
		{"a column's label before quoted values", Answer{Needles: []string{"55"}, Record: []string{"column 3"}, Category: CategoryDistribution},
			`column 3: "false" 55, "[]" 7` + "\n", true},
		{"a range in the data is data", Answer{Needles: []string{"33"}, Record: []string{"ports"}}, "ports 33-77 open\n", true},
		{"the total beside it is", Answer{Needles: []string{"29"}, Record: []string{"@jest"}}, "collection .x.\"@jest/core\" (map): 29 records; showing 14 of 29\n", true},
		{"a count of the data is", Answer{Needles: []string{"14"}, Record: []string{"@jest"}}, "@jest/ 14 packages, showing them\n", true},
		// held12 (session 12): gdb's "bt full" prints a C string's bytes as
		// octal escapes; the "\300" of one was "the outermost frame 300".
		{"a number after a backslash is an escape", Answer{Needles: []string{"300"}, Kind: KindMax, Category: CategoryExtremes},
			`      values: <*>2 (4 values): \000\000\000\000\000\000\000\300\225UUUU\000\000@ 1` + "\n", false},
		{"the number itself", Answer{Needles: []string{"300"}, Kind: KindMax, Category: CategoryExtremes},
			"#300 0x00005555555555f1 in main (argc=2, argv=0x7fffffffe7a8) at crash.c:70\n", true},
		// held12 apt-cache policy: gnupg's version "found" on gnupg-l10n's
		// record; a '-' and a letter after a name make another name.
		{"a record is not the head of a longer name", Answer{Needles: []string{"2.2.40-1.1+deb12u2"}, Record: []string{"gnupg"}, Kind: KindLookup, Category: CategoryRecord},
			"  557\tgnupg-l10n: | Installed: 2.2.40-1.1+deb12u2 | Candidate: 2.2.40-1.1+deb12u2\n", false},
		{"the record itself", Answer{Needles: []string{"2.2.40-1.1+deb12u2"}, Record: []string{"gnupg"}, Kind: KindLookup, Category: CategoryRecord},
			"  557\tgnupg: | Installed: 2.2.40-1.1+deb12u2 | Candidate: 2.2.40-1.1+deb12u2\n", true},
		{"a record with a variant number after a dash", Answer{Needles: []string{"192"}, Record: []string{"BenchmarkUnquoteHard"}, Kind: KindLookup, Category: CategoryRecord},
			"BenchmarkUnquoteHard-2 2000 435.4 ns/op 192 B/op 2 allocs/op\n", true},
		{"a field of a record after a dot", Answer{Needles: []string{"1964"}, Record: []string{"fix"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"  fix.replacements (array, in 1,964 of 5,118 records, missing in 3,154): 1-2 items\n", true},
		// held12 valgrind: "32 bytes ... still reachable" is a size, not
		// 32 loss records that are still reachable.
		{"a measure is no count of records", Answer{Needles: []string{"32"}, Record: []string{"still reachable"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"  45\t[4 lines] 32 bytes in 1 blocks are still reachable in loss record 1 of 124 | at 0x48417B4: malloc\n", false},
		{"a measure answers a sum", Answer{Needles: []string{"32"}, Record: []string{"still reachable"}, Kind: KindSum, Category: CategoryHowMany},
			"still reachable: 32 bytes in 1 blocks\n", true},
		{"a count of records beside its label", Answer{Needles: []string{"32"}, Record: []string{"still reachable"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"loss records by kind: definitely lost 61, still reachable 32, possibly lost 30\n", true},
		// held12 mocha: "duration (number, 7 distinct)" of the failures
		// "stated" that 7 tests took 500 ms or more.
		{"the number of distinct values counts no records", Answer{Needles: []string{"7"}, Record: []string{"duration"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"  duration (number, 7 distinct): 0 6, 1 3, 17 1, 3 1, 4 1, 42 1, 755 1; sum 824\n", false},
		{"the number of distinct values is a count of them", Answer{Needles: []string{"7"}, Record: []string{"duration"}, Kind: KindCount, Category: CategoryHowMany},
			"  duration (number, 7 distinct): 0 6, 1 3, 17 1, 3 1, 4 1, 42 1, 755 1; sum 824\n", true},
		// held12 git blame --porcelain: the final line number 1406 of the
		// last header shown "counted" the lines of flag.go because the
		// notice below it says "lines".
		{"a notice's words label only their own line", Answer{Needles: []string{"1406"}, Record: []string{"lines", "flag.go"}, Kind: KindFilterCount, Category: CategoryHowMany},
			"last 2 lines (lines 4031-4032):\n  6bdb0b3748b247a8c28532fcd78b60c1a7ec07db 796 1406 1\n  \t}\nnot shown: 3,966 of 4,033 lines (numbered from 0)\n", false},
		{"a notice's own count", Answer{Needles: []string{"4033"}, Record: []string{"lines"}, Kind: KindCount, Category: CategoryHowMany},
			"  \t}\nnot shown: 3,966 of 4,033 lines (numbered from 0)\n", true},
		// S12 defect 4: a count in a cell of the record's own row (its name
		// is the row's first cell) is the record's own; a record named in
		// another cell is still not the row's (the cmake case above).
		{"a count in the record's own row", Answer{Needles: []string{"235"}, Record: []string{"/usr/bin/pg_buildext"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"#\tfile\tfindings\tlevels\n7\t/usr/bin/pg_buildext\t235\tinfo 180, warning 55\n", true},
		{"a relative path names the file of its absolute path", Answer{Needles: []string{"12", "40"}, Record: []string{"pkg/x.py"}, Kind: KindDistinct, Category: CategoryRecord},
			"/usr/lib/python3/dist-packages/pkg/x.py:12: W0611 unused import\n/usr/lib/python3/dist-packages/pkg/x.py:40: W0612 unused variable\n", true},
		{"a count in a row the record is a field of", Answer{Needles: []string{"20"}, Record: []string{"/tmp/h15/cm/CMakeLists.txt"}, Kind: KindFilterCount, Category: CategoryDistribution},
			"1511\ttarget_link_libraries\t20\t/tmp/h15/cm/CMakeLists.txt\tlast\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.a.VisibleFor(c.content); got != c.want {
				t.Errorf("VisibleFor = %v, want %v", got, c.want)
			}
		})
	}
	// Without a record the field-aware rule is the loose rule.
	a := Answer{Needles: []string{"288"}}
	for _, s := range []string{"288 records", "x 288", "2880", "1.288", "compact artifact slice a --offset 288"} {
		if a.VisibleFor(s) != a.VisibleIn(s) {
			t.Errorf("no record: VisibleFor(%q) != VisibleIn", s)
		}
	}
}

// TestSuggestedQueries parses the follow-up commands a view suggests.
func TestSuggestedQueries(t *testing.T) {
	const h = "3d38d105ebf2"
	view := `collection .items (array): 288 records
get the rest:
  compact artifact query 3d38d105ebf2 --jq '.items[] | select(.status.phase == "Pending") | .metadata.name'
  read_artifact {"ref":"3d38d105ebf2","op":"jq","filter":".items[] | .metadata.name"}
  compact artifact slice 3d38d105ebf2 --offset 40 --limit 10
  search: compact artifact search 3d38d105ebf2 'error' --limit 5 (matching lines)
  compact artifact query 3d38d105ebf2.items[3] --jq . > pod.json
  compact artifact get 3d38d105ebf2 > output
  compact artifact query ffffffffffff --jq .   (another artifact)
  compact artifact query 3d38d105ebf2 --jq '.items[] | .metadata.name'
`
	qs := SuggestedQueries(view, h)
	var got []string
	for _, q := range qs {
		got = append(got, q.String())
	}
	want := []string{
		`compact artifact query 3d38d105ebf2 --jq '.items[] | select(.status.phase == "Pending") | .metadata.name'`,
		`compact artifact query 3d38d105ebf2 --jq '.items[] | .metadata.name'`,
		`compact artifact slice 3d38d105ebf2 --offset 40 --limit 10`,
		`compact artifact search 3d38d105ebf2 'error' --limit 5`,
		`compact artifact query 3d38d105ebf2.items[3] --jq '.'`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("suggested queries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if qs := SuggestedQueries(view, ""); qs != nil {
		t.Errorf("no handle: %v", qs)
	}
}

// TestHeadTail: the head+tail baseline fits the budget exactly (within a
// few tokens of it), shows the first and the last characters, and says how
// many characters it left out, exactly.
func TestHeadTail(t *testing.T) {
	ctr, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("é", i%7))
		b.WriteString(" ")
		b.WriteString(group(i))
		b.WriteString("\n")
	}
	b.WriteString("error: the last line\n")
	orig := b.String()
	sh := headTail(orig, FormatText, 500, ctr)
	n := ctr.Count(sh.content)
	if n > 500 || n < 480 {
		t.Errorf("head+tail is %d tokens, want 480..500", n)
	}
	if !strings.HasPrefix(sh.content, "line  0\n") || !strings.HasSuffix(sh.content, "error: the last line\n") {
		t.Errorf("head+tail does not keep the head and the tail:\n%s", sh.content)
	}
	total := utf8.RuneCountInString(orig)
	shown := utf8.RuneCountInString(sh.body)
	if !strings.Contains(sh.content, "[… "+group(total-shown)+" of "+group(total)+" characters not shown …]") {
		t.Errorf("note does not state the %d characters left out:\n%s", total-shown, sh.content)
	}
	if !utf8.ValidString(sh.content) {
		t.Error("head+tail cut a character")
	}
	// An output that fits is shown whole, without a note.
	if sh := headTail("short", FormatText, 500, ctr); sh.content != "short" {
		t.Errorf("short output: %q", sh.content)
	}
}

// TestLoadOutputsWithoutQuestions runs the bench on a directory of outputs
// without any questions file, plus one with: tokens, validity and counts
// are measured for all, the answerable shares only where there are
// questions.
func TestLoadOutputsWithoutQuestions(t *testing.T) {
	dir := t.TempDir()
	var items []string
	for i := 0; i < 400; i++ {
		items = append(items, `{"id":`+group(i + 1000)[:1]+`0`+strings.Repeat("1", i%5)+`,"state":"open","title":"an item with a longish title for the tokens"}`)
	}
	writeFile(t, dir, "items.json", `{"total_count":400,"items":[`+strings.Join(items, ",")+`]}`)
	var lines []string
	for i := 0; i < 2000; i++ {
		lines = append(lines, "2026-11-20T10:00:00Z INFO request served in 12ms path=/api/items")
	}
	writeFile(t, dir, "app.log", strings.Join(lines, "\n")+"\nERROR the end\n")
	writeFile(t, dir, "events.jsonl", "{\"a\":1}\n{\"a\":2}\n")
	writeFile(t, dir, "README.md", "not an output")
	writeFile(t, dir, "x.json", `{"items":[{"id":1},{"id":2}]}`)
	writeFile(t, dir, "x"+QuestionsSuffix, "output: x.json\ntool: t\ninput: json\nquestions:\n  - {id: n, question: how many, kind: count, jq: '.items | length'}\n")

	files, err := LoadOutputs(dir, "default")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Output+"="+string(f.Input))
	}
	if got := strings.Join(names, " "); got != "app.log=lines events.jsonl=values items.json=json x.json=json" {
		t.Fatalf("outputs %s", got)
	}
	if testing.Short() {
		return
	}
	h := &Harness{Engine: testEngine(t), Budgets: []int{300}, PreviewDir: t.TempDir()}
	rep, err := h.Run(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	cp := find(t, rep, "items.json", StrategyCompact)
	if cp.Questions != 0 || !cp.Shown || !cp.Valid || !cp.WithinBudget || cp.Counts != 1 || cp.CountsStated != 1 {
		t.Errorf("items.json without questions: %+v", cp)
	}
	if lg := find(t, rep, "app.log", StrategyCompact); !lg.Shown || !lg.WithinBudget || lg.Tokens == 0 {
		t.Errorf("app.log without questions: %+v", lg)
	}
	if x := find(t, rep, "x.json", StrategyCompact); x.Questions != 1 {
		t.Errorf("x.json keeps its question: %+v", x)
	}
	if _, err := LoadOutputs(t.TempDir(), "default"); err == nil || !strings.Contains(err.Error(), "no outputs") {
		t.Errorf("empty directory: %v", err)
	}
}

// TestViolations: a question answered from the view at a smaller budget
// and not at a larger one is a monotonicity violation, counted in the
// totals of its strategy.
func TestViolations(t *testing.T) {
	rep := &Report{Budgets: []int{2000, 4000, 8000}, Strategies: []Strategy{StrategyCompact},
		Outputs: []OutputInfo{{Name: "o", QuestionCategories: map[string]Category{"a": CategoryRecord, "b": CategoryEnd}}},
		Results: []Result{
			{Output: "o", Strategy: StrategyCompact, Budget: 2000, Questions: 2, FromViewIDs: []string{"a", "b"}},
			{Output: "o", Strategy: StrategyCompact, Budget: 4000, Questions: 2, FromViewIDs: []string{"b"}},
			{Output: "o", Strategy: StrategyCompact, Budget: 8000, Questions: 2, FromViewIDs: []string{"a", "b"}},
		}}
	rep.Violations = violations(rep)
	if len(rep.Violations) != 1 || rep.Violations[0] != (Violation{Output: "o", Strategy: StrategyCompact, Question: "a", Smaller: 2000, Larger: 4000}) {
		t.Fatalf("violations %+v", rep.Violations)
	}
	rep.Totals = totals(rep)
	if tot, _ := rep.Total(8000, StrategyCompact); tot.Violations != 1 {
		t.Errorf("total counts %d violations", tot.Violations)
	}
	// A violation is a missed target.
	if m := rep.CheckTargets(); !slices.ContainsFunc(m, func(s string) bool { return strings.Contains(s, "monotonicity violations (all budgets) is 1, want 0") }) {
		t.Errorf("misses %v", m)
	}
	cats := byCategory(rep)
	if len(cats) != 6 || cats[0].Category != CategoryRecord || cats[0].FromView != 1 || cats[1].Category != CategoryEnd || cats[1].FromView != 1 {
		t.Errorf("by category %+v", cats)
	}
}

// TestModelQueries runs compact on a real output at the artifact level:
// every query the view suggests is run through the artifact query path,
// and a question about a record in the middle is answered by a search for
// that record, for compact and for preview+file (over its saved file),
// never by the question's own filter.
func TestModelQueries(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine on a real output")
	}
	files := loadSmall(t, "kubectl-pods")
	h := &Harness{Engine: testEngine(t), Budgets: []int{2000}, PreviewDir: t.TempDir()}
	rep, err := h.Run(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	cp := find(t, rep, "kubectl-pods.json", StrategyCompact)
	if len(cp.SuggestedQueries) == 0 {
		t.Errorf("compact's view suggests no query: %+v", cp)
	}
	for _, f := range cp.SuggestedFailed {
		t.Errorf("suggested query %s fails: %s", f.ID, f.Reason)
	}
	pv := find(t, rep, "kubectl-pods.json", StrategyPreview)
	for _, r := range []Result{cp, pv} {
		if !slices.Contains(r.ViewAnswerableIDs, "node-of-ledger-db-1") {
			t.Errorf("%s: a search for ledger-db-1 does not answer its node: %v", r.Strategy, r.ViewAnswerableIDs)
		}
		if r.ViewAnswerable != len(r.ViewAnswerableIDs) || r.FromView != len(r.FromViewIDs) || r.FromView+len(r.NotFromView) != r.Questions {
			t.Errorf("%s: counts and ids disagree: %+v", r.Strategy, r)
		}
	}
	// Truncation baselines have no query ability.
	if ht := find(t, rep, "kubectl-pods.json", StrategyHeadTail); ht.ViewQuery != 0 || ht.ViewAnswerable != ht.FromView {
		t.Errorf("head+tail: %+v", ht)
	}
}

var otherCorpus = flag.String("corpus", "", "a corpus directory to check like the bundled one (TestOtherCorpus), e.g. a held-out set")

// TestOtherCorpus checks a corpus given with -corpus DIR the way
// TestCorpus checks the bundled one: every questions file loads, every
// answer is computed, every read-off answer (lookup, first, last,
// distinct) is visible by the field-aware rule in the full output, and
// every record string occurs in it. Skipped without -corpus.
func TestOtherCorpus(t *testing.T) {
	if *otherCorpus == "" {
		t.Skip("no -corpus DIR")
	}
	files, err := LoadCorpus(*otherCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, qf := range files {
		t.Run(filepath.Base(qf.Path), func(t *testing.T) {
			orig, err := qf.ReadOutput()
			if err != nil {
				t.Fatal(err)
			}
			answers, err := qf.Answer(orig)
			if err != nil {
				t.Fatal(err)
			}
			cats := map[Category]bool{}
			for _, a := range answers {
				cats[a.Category] = true
				if *showAnswers {
					t.Logf("%-28s %-12s %s", a.ID, a.Kind, a.String())
				}
				if weakNeedle(a) && len(a.Record) == 0 {
					t.Errorf("question %q: answer %s needs a record (a small number or a boolean is no answer without its label)", a.ID, a.String())
				}
				switch a.Kind {
				case KindLookup, KindFirst, KindLast, KindDistinct:
					if !a.VisibleFor(oneLine(qf.Input, orig)) {
						t.Errorf("question %q: answer %s is not visible near %q in the full output", a.ID, a.String(), a.Record)
					}
				}
				// A record's identifier must be in the output (a typo
				// would make the question unanswerable); a label of a
				// count ("records", "sections") need not be.
				for _, r := range a.Record {
					if a.Category == CategoryRecord && len(occurrences(string(orig), r)) == 0 {
						t.Errorf("question %q: record %q does not occur in the output", a.ID, r)
					}
				}
			}
			for _, c := range Categories {
				if !cats[c] {
					t.Errorf("no question of category %s", c)
				}
			}
		})
	}
}

// weakNeedle reports whether an answer is a value that says nothing
// without a label: a number between -100 and 100 or a boolean (or an
// array holding one). Such a question must name its record, or a stray
// "3" anywhere would answer it. Strings are never weak ("3.134" is a
// version).
func weakNeedle(a Answer) bool {
	vals := []any{a.Value}
	if arr, ok := a.Value.([]any); ok {
		vals = arr
	}
	for _, v := range vals {
		switch x := v.(type) {
		case bool:
			return true
		case string:
		default:
			if f, err := strconv.ParseFloat(fmt.Sprint(x), 64); err == nil && f > -100 && f < 100 {
				return true
			}
		}
	}
	return false
}

// TestBundledCorpusMonotone runs the bench over the bundled corpus at
// 2,000, 4,000 and 8,000 tokens: no question answered from compact's view
// at a smaller budget is lost at a larger one, no plugin falls back, and
// the targets of CheckTargets (issue 11's goals at 4,000 tokens among
// them) are met. It failed on the code before the facts notice of whole
// outputs and the view's own counts of rows shown were told apart from
// answers (3 violations: github-issues most-reactions 2k/4k -> 8k,
// npm-ls-all jest-scope 4k -> 8k).
func TestBundledCorpusMonotone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine on the whole corpus")
	}
	// A loaded machine must not stop the pin predicate early (the view
	// would then pin fewer rows at one budget than at another).
	defer func(d time.Duration) { budget.PinTimeout = d }(budget.PinTimeout)
	budget.PinTimeout = 5 * time.Minute
	files, err := LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{Engine: testEngine(t), Budgets: []int{2000, 4000, 8000}, PreviewDir: t.TempDir()}
	rep, err := h.Run(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	// The engine's plugins have deadlines a loaded machine cannot miss
	// (patientRegistry): a plugin fault is a failure, not load.
	for _, r := range rep.Results {
		if r.Strategy == StrategyCompact && len(r.Notes) > 0 {
			t.Errorf("%s at %d tokens: %s", r.Output, r.Budget, strings.Join(r.Notes, "; "))
		}
	}
	for _, v := range rep.Violations {
		if v.Strategy == StrategyCompact {
			t.Errorf("%s %s: answered from the view at %d tokens, not at %d", v.Output, v.Question, v.Smaller, v.Larger)
		}
	}
	for _, m := range rep.CheckTargets() {
		t.Errorf("target missed: %s", m)
	}
}

// TestCheckTargetsSuggestedQueries: a query the view suggests that fails
// to run is a missed target, and so are the goals met on the bundled
// corpus (answered from the view, lead over truncation) at 4,000 tokens;
// monotonicity is reported by Goals but is not a target.
func TestCheckTargetsSuggestedQueries(t *testing.T) {
	ok := Result{Output: "o", Strategy: StrategyCompact, Budget: 4000, Shown: true, Valid: true, WithinBudget: true, Questions: 2, Answerable: 2, FromView: 0, SuggestedQueries: []string{"q1"}}
	rep := &Report{Budgets: []int{4000}, Strategies: []Strategy{StrategyCompact, StrategyHeadTail}, Outputs: []OutputInfo{{Name: "o", RawTokens: 100000}},
		Results: []Result{ok, {Output: "o", Strategy: StrategyHeadTail, Budget: 4000, Shown: true, Questions: 2, FromView: 1, FromViewIDs: []string{"a"}}}}
	rep.Totals = totals(rep)
	if m := rep.CheckTargets(); len(m) != 2 || !strings.Contains(m[0], "answerable from the view at 4,000 tokens is 0% (0/2), want ≥ 60%") || !strings.Contains(m[1], "lead over") {
		t.Errorf("misses %v, want the two goals met on the bundled corpus", m)
	}
	goals := rep.Goals()
	if len(goals) != 3 || goals[0].Met || goals[1].Met || !goals[2].Met {
		t.Errorf("goals %+v", goals)
	}
	rep.Budgets = []int{3000} // the goals are targets at 4,000 tokens only
	for i := range rep.Results {
		rep.Results[i].Budget = 3000
	}
	rep.Totals = totals(rep)
	if m := rep.CheckTargets(); len(m) != 0 {
		t.Errorf("misses at 3,000 tokens %v, want none", m)
	}
	rep.Results[0].SuggestedFailed = []Failure{{ID: "q1", Reason: "jq: error"}}
	rep.Totals = totals(rep)
	if m := rep.CheckTargets(); len(m) != 1 || !strings.Contains(m[0], "the suggested query q1 fails: jq: error") {
		t.Errorf("misses %v", m)
	}
}

// TestAdapt: a suggested query that selects one value is adapted to the
// record a question names, as a model would.
func TestAdapt(t *testing.T) {
	q := ModelQuery{Op: "jq", Ref: "abc123abc123", Filter: `.items[] | select(.metadata.name == "catalog-api-x") | .spec`}
	a, ok := q.Adapt(`basket-"1"`)
	if !ok || a.Filter != `.items[] | select(.metadata.name == "basket-\"1\"") | .spec` || a.Source != "adapted" {
		t.Errorf("adapted %+v %v", a, ok)
	}
	if _, ok := (ModelQuery{Op: "jq", Filter: ".items | length"}).Adapt("x"); ok {
		t.Error("a filter without a compared string was adapted")
	}
	if _, ok := (ModelQuery{Op: "search", Text: "x"}).Adapt("y"); ok {
		t.Error("a search was adapted")
	}
}

// TestVisibleInIgnoresQueries: the loose rule does not find an answer in a
// suggested query or a line range of the view's layout either.
func TestVisibleInIgnoresQueries(t *testing.T) {
	a := Answer{Needles: []string{"checkout-web-1"}}
	if a.VisibleIn("more: compact artifact query artifact:3d38 --jq '.[] | select(.name == \"checkout-web-1\")'\n") {
		t.Error("a name inside a suggested query counted as visible")
	}
	if !a.VisibleIn("checkout-web-1 Failed\nmore: compact artifact query artifact:3d38 --jq '.[0]'\n") {
		t.Error("a name in a row before a query not visible")
	}
	if (Answer{Needles: []string{"77"}}).VisibleIn("not shown: 74 of 98 lines (numbered from 0); 33-77: compact artifact slice a --offset 33 --limit 45") {
		t.Error("the end of a line range counted as visible")
	}
}
