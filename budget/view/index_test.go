package view_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget/view"
)

// jq runs filter over the JSON document data and returns its outputs.
func jq(t *testing.T, data []byte, filter string) []any {
	t.Helper()
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatalf("%s: %v", filter, err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		t.Fatalf("%s: %v", filter, err)
	}
	var doc any
	if err := jsonUnmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []any
	iter := code.Run(doc)
	for {
		x, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := x.(error); ok {
			t.Fatalf("%s: %v", filter, err)
		}
		out = append(out, x)
	}
	return out
}

var indexFoot = regexp.MustCompile(`index: ([\d,]+) of ([\d,]+) records not listed; list exactly them: compact artifact query \S+ --jq '([^\n]*)'`)

// indexLines returns the index lines of the view text (after its
// "index of" head) and the foot's numbers and query.
func indexLines(t *testing.T, text string) (lines []string, rest, total int, query string) {
	t.Helper()
	i := strings.Index(text, "\nindex of ")
	if i < 0 {
		return nil, 0, 0, ""
	}
	for _, l := range strings.Split(text[i+1:], "\n")[1:] {
		if strings.HasPrefix(l, "  ") || l == "" || strings.HasPrefix(l, "collection ") {
			break
		}
		lines = append(lines, l)
	}
	if m := indexFoot.FindStringSubmatch(text); m != nil {
		fmt.Sscan(strings.ReplaceAll(m[1], ",", ""), &rest)
		fmt.Sscan(strings.ReplaceAll(m[2], ",", ""), &total)
		query = strings.ReplaceAll(m[3], `'\''`, `'`)
	}
	return lines, rest, total, query
}

var indexAsRows = regexp.MustCompile(`\n  index: ([\d,]+) of these ([\d,]+) records are shown as rows above, not repeated here\n`)

// indexSkipped returns how many records of the index's listed prefix
// it leaves out because their rows, shown before, hold their lines.
func indexSkipped(text string) int {
	n := 0
	if m := indexAsRows.FindStringSubmatch(text); m != nil {
		fmt.Sscan(strings.ReplaceAll(m[1], ",", ""), &n)
	}
	return n
}

// rowHolds reports whether a line of text other than an index line (a
// row) has every tab-separated cell of line among its cells.
func rowHolds(text, line string) bool {
	want := strings.Split(line, "\t")
	for _, l := range strings.Split(text, "\n") {
		cells := strings.Split(l, "\t")
		if len(cells) <= len(want) {
			continue // (an index line has exactly its cells)
		}
		ok := true
		for _, c := range want {
			ok = ok && slices.Contains(cells, c)
		}
		if ok {
			return true
		}
	}
	return false
}

// coveredLines checks that the index's lines are want's first n lines
// (n = the lines and the records left out as rows) in order, each left
// out line held by a row, and returns n.
func coveredLines(t *testing.T, text string, lines []string, want []string) int {
	t.Helper()
	n := len(lines) + indexSkipped(text)
	if n > len(want) {
		t.Fatalf("%d lines and %d left out as rows, %d records", len(lines), n-len(lines), len(want))
	}
	p := 0
	for i := 0; i < n; i++ {
		if p < len(lines) && lines[p] == want[i] {
			p++
			continue
		}
		if !rowHolds(text, want[i]) {
			t.Fatalf("record %d's line %q is neither the index's next line %q nor in a row", i, want[i], lines[min(p, len(lines)-1)])
		}
	}
	if p != len(lines) {
		t.Fatalf("%d of %d index lines are want's first %d in order", p, len(lines), n)
	}
	return n
}

// TestIndexListsRecordsInTheMiddle: the view of 2,400 orders lists, after
// its rows, one line per order (order_id, status, customer) in record
// order; at 4,000 tokens order 100101, record 100 of 2,400 that no row
// shows, is on its line with the values jq gives; a larger budget lists
// a longer prefix; the foot's query lists exactly the orders not
// listed, in the same form. The view before the index had no such line.
func TestIndexListsRecordsInTheMiddle(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/sqlite-orders.json")
	status := jq(t, data, `.[] | select(.order_id == 100101) | .status`)[0]
	customer := jq(t, data, `.[] | select(.order_id == 100101) | .customer`)[0]
	want := fmt.Sprintf("100101\t%s\t%s", status, customer)
	ids := jq(t, data, `[.[].order_id]`)[0].([]any)
	var all []string
	for _, x := range jq(t, data, `map([.order_id, .status, .customer] | map(tostring) | join("\t"))`)[0].([]any) {
		all = append(all, x.(string))
	}
	prev := 0
	for _, b := range []int{2000, 4000, 8000} {
		f := fillAt(t, v, b)
		lines, rest, total, query := indexLines(t, f.Text)
		if b >= 4000 && !strings.Contains(f.Text, "\n"+want+"\n") {
			t.Errorf("at %d: no index line %q", b, want)
		}
		if len(lines) < prev {
			t.Errorf("at %d: %d index lines, %d at a smaller budget", b, len(lines), prev)
		}
		prev = len(lines)
		if len(lines) == 0 {
			continue
		}
		n := coveredLines(t, f.Text, lines, all)
		if total != 2400 || rest != total-n {
			t.Fatalf("at %d: %d lines listed (%d records), foot says %d of %d not listed", b, len(lines), n, rest, total)
		}
		out := jq(t, data, query)
		got, _ := out[0].([]any)
		if len(got) != rest {
			t.Fatalf("at %d: %s lists %d orders, the foot says %d", b, query, len(got), rest)
		}
		first, _ := got[0].([]any)
		if wantID := ids[n]; len(first) != 3 || first[0] != wantID {
			t.Errorf("at %d: the rest starts with %v, want order %v", b, first, wantID)
		}
	}
	if prev == 0 {
		t.Fatal("no index at any budget")
	}
}

// TestIndexOfKeyedCollection: a map of scalars (npm view vite's .time,
// version → date) is indexed in key order, the order a query pages it
// in; the foot's query lists exactly the members not listed.
func TestIndexOfKeyedCollection(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/npm-view-vite.json")
	f := fillAt(t, v, 8000)
	lines, rest, total, query := indexLines(t, f.Text)
	if len(lines) == 0 || !strings.Contains(f.Text, "index of .time, ") {
		t.Fatalf("no index of .time:\n%s", f.Text)
	}
	n := jq(t, data, `.time | length`)[0]
	var all []string
	for _, x := range jq(t, data, `.time | to_entries | map(.key + "\t" + .value)`)[0].([]any) {
		all = append(all, x.(string))
	}
	covered := coveredLines(t, f.Text, lines, all)
	if fmt.Sprint(total) != fmt.Sprint(n) || rest != total-covered {
		t.Fatalf("%d listed (%d records), foot says %d of %d not listed; .time has %v", len(lines), covered, rest, total, n)
	}
	keys := jq(t, data, `.time | keys`)[0].([]any)
	times := jq(t, data, `.time`)[0].(map[string]any)
	for _, l := range lines {
		k, val, _ := strings.Cut(l, "\t")
		if got := times[k]; fmt.Sprint(got) != val {
			t.Errorf("%s: index says %q, jq %v", k, val, got)
		}
	}
	t.Logf("%d of %d members listed", len(lines), total)
	got := jq(t, data, query)[0].([]any)
	if len(got) != rest {
		t.Fatalf("%s lists %d members, the foot says %d", query, len(got), rest)
	}
	if first := got[0].([]any); first[0] != keys[covered] {
		t.Errorf("the rest starts with %v, want %v", first, keys[covered])
	}
}

// TestIndexSkipsNearlyConstantFields: the index shows the fields that
// tell records apart; a field whose one value covers nine records in ten
// (status.phase Running in 141 of 144 pods, stated by the profile) is not
// one of them: the pod's IP and node are, and a pod in the middle is on
// its line with the values jq gives.
func TestIndexSkipsNearlyConstantFields(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/kubectl-pods-restarts.json")
	f := fillAt(t, v, 8000)
	if !strings.Contains(f.Text, "(tab-separated: metadata.name, status.podIP, spec.nodeName):\n") {
		t.Fatalf("index fields:\n%s", f.Text)
	}
	pod := jq(t, data, `.items[] | select(.metadata.name == "basket-mwc9hn8gfk-6xnn6") | [.metadata.name, .status.podIP, .spec.nodeName] | join("\t")`)[0].(string)
	if !strings.Contains(f.Text, "\n"+pod+"\n") {
		t.Errorf("no index line %q", pod)
	}
}

// viewWith builds the view of a file with the registry's index fields
// and sort keys given.
func viewWith(t *testing.T, file string, index, sortKeys []string) (*view.View, []byte) {
	t.Helper()
	data := readFile(t, file)
	in := inputOf(t, data, 8000)
	in.Index, in.Sort = index, sortKeys
	return buildView(t, in), data
}

// TestIndexRegistryFieldsAndSort: the registry's index fields replace
// the ones the view picks, in the order given (a path the records lack
// is skipped), and its sort keys order the index the way jq's sort_by
// does: the 2,400 orders largest total first, ties in record order
// reversed (sort_by then reverse), each line with the values jq gives;
// the foot's query lists exactly the rest in the same order and form.
func TestIndexRegistryFieldsAndSort(t *testing.T) {
	v, data := viewWith(t, "../../testdata/captured/sqlite-orders.json", []string{"total_cents", "no.such", "country"}, []string{"-total_cents"})
	want := jq(t, data, `sort_by(.total_cents) | reverse | map([.order_id, .total_cents, .country] | map(tostring) | join("\t"))`)[0].([]any)
	prev := 0
	for _, b := range []int{2000, 4000, 8000} {
		f := fillAt(t, v, b)
		lines, rest, total, query := indexLines(t, f.Text)
		if len(lines) < prev || b == 8000 && len(lines) == 0 {
			t.Fatalf("at %d: %d index lines, %d at a smaller budget", b, len(lines), prev)
		}
		if len(lines) == 0 {
			continue
		}
		if !strings.Contains(f.Text, "in order of total_cents, largest first, one per line (tab-separated: order_id, total_cents, country):\n") {
			t.Fatalf("at %d: index head:\n%s", b, f.Text)
		}
		var wants []string
		for _, w := range want {
			wants = append(wants, w.(string))
		}
		n := coveredLines(t, f.Text, lines, wants)
		if total != 2400 || rest != total-n {
			t.Fatalf("at %d: %d lines (%d records; %d at a smaller budget), foot says %d of %d not listed", b, len(lines), n, prev, rest, total)
		}
		prev = len(lines)
		got := jq(t, data, query)[0].([]any)
		if len(got) != rest {
			t.Fatalf("at %d: %s lists %d orders, the foot says %d", b, query, len(got), rest)
		}
		for i, r := range got {
			var parts []string
			for _, x := range r.([]any) {
				parts = append(parts, fmt.Sprint(x))
			}
			if s := strings.Join(parts, "\t"); s != want[n+i] {
				t.Fatalf("at %d: the rest's item %d is %q, want %q", b, i, s, want[n+i])
			}
		}
	}
}

// TestIndexSortOfKeyedCollection: a keyed collection sorted by a field
// of its members (a lockfile's packages by version) lists its keys in
// sort_by's order, ties by key (jq's to_entries order), and the rest's
// query continues it exactly.
func TestIndexSortOfKeyedCollection(t *testing.T) {
	v, data := viewWith(t, "../../testdata/captured/npm-package-lock.json", []string{"version"}, []string{"version"})
	f := fillAt(t, v, 8000)
	want := jq(t, data, `.packages | to_entries | sort_by(.value.version) | map([.key, (.value.version // "-")] | join("\t"))`)[0].([]any)
	lines, rest, total, query := indexLines(t, f.Text)
	var wants []string
	for _, w := range want {
		k, val, _ := strings.Cut(w.(string), "\t")
		if k == "" {
			k = `""` // the root package's key, quoted in the index
		}
		wants = append(wants, k+"\t"+val)
	}
	n := coveredLines(t, f.Text, lines, wants)
	if len(lines) == 0 || total != len(want) || rest != total-n {
		t.Fatalf("%d lines (%d records), foot says %d of %d not listed; jq %d members:\n%s", len(lines), n, rest, total, len(want), f.Text)
	}
	got := jq(t, data, query)[0].([]any)
	if len(got) != rest || fmt.Sprint(got[0].([]any)[0]) != strings.SplitN(want[n].(string), "\t", 2)[0] {
		t.Fatalf("%s: %d members from %v, want %d from %v", query, len(got), got[0], rest, want[n])
	}
}

// indexCandidates returns the texts of the index candidates of a view
// (at any budget), in fill order.
// candidateTexts returns every candidate's text, one after another.
func candidateTexts(v *view.View) string {
	var b strings.Builder
	for _, c := range v.Candidates() {
		b.WriteString(c.Text + "\n")
	}
	return b.String()
}

func indexCandidates(v *view.View) []string {
	var out []string
	for _, c := range v.Candidates() {
		if c.Reason == "index" {
			out = append(out, c.Text)
		}
	}
	return out
}

// TestIndexFieldsByValue: the index's two fields are the telling ones
// by their values, not the first two by name: of 288 pods, the pod's IP
// and its node (not status.phase, Running in 237 of them, whose other
// values the profile counts and the pinned rows show), each with the
// values jq gives; of a package's versions (a map of version → its
// package.json), not the version member that repeats every key.
func TestIndexFieldsByValue(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/kubectl-pods.json")
	want := jq(t, data, `.items[] | select(.metadata.name == "ledger-db-1") | [.metadata.name, .status.podIP, .spec.nodeName] | join("\t")`)[0].(string)
	// (or a row shown before the index holds its cells: rowFirst)
	if lines := indexCandidates(v); !slices.Contains(lines, want) && !rowHolds(candidateTexts(v), want) {
		t.Errorf("no index line %q among %d; the first: %q", want, len(lines), lines[:min(3, len(lines))])
	}
	v, data = viewOf(t, "../../testdata/captured/npm-registry-debug.json")
	f := fillAt(t, v, 30000)
	head := regexp.MustCompile(`index of \.versions, [^\n]*\(tab-separated: key, ([^)]*)\):\n`).FindStringSubmatch(f.Text)
	if head == nil {
		t.Fatalf("no index of .versions:\n%s", f.Text)
	}
	for _, name := range strings.Split(head[1], ", ") {
		same := jq(t, data, fmt.Sprintf(`[.versions | to_entries[] | select(.key == (.value%s | tostring))] | length`, "."+name))[0]
		if n, _ := same.(int); n*10 >= 77*9 {
			t.Errorf("index field %s repeats the key in %d of 77 versions", name, n)
		}
	}
}

// TestNoIdentityOfFewValues: a field named like an identity whose values
// are a few kinds (a trace event's name: 5 values in 200 events) does
// not name the records (no field is unique: the timestamps come in pairs):
// the view states no identity, and its "one record
// by" query does not pick a record by it.
func TestNoIdentityOfFewValues(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	names := []string{"parse", "bind", "check", "emit", "findSourceFile"}
	for i := range 200 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":%q,"ph":"X","ts":%d,"dur":%d}`, names[i%len(names)], 1000+i/2*37, 5+i%13) // no field is unique
	}
	b.WriteString("]")
	v, data := viewOfData(t, []byte(b.String()))
	f := fillAt(t, v, 4000)
	if n := jq(t, data, `[.[].name] | unique | length`)[0]; n != 5 {
		t.Fatalf("fixture: %v names", n)
	}
	if strings.Contains(f.Text, "identity: name") || strings.Contains(f.Text, "one record by its name") {
		t.Errorf("name (5 values in 200 records) taken for the identity:\n%s", f.Text)
	}
}

// TestRowSaysTheValueItIsThereFor: a row chosen because it has a field
// most records lack ("has ExtendedStatistic (only 36 of 360 records
// do)") says that field's value when no column shows it, and the value
// and the count are jq's for that record.
func TestRowSaysTheValueItIsThereFor(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/cloudwatch-alarms.json")
	f := fillAt(t, v, 8000)
	re := regexp.MustCompile(`(?m)^(\d+)\t.*has ExtendedStatistic=(\S+) \((\d+) of (\d+)\)`)
	ms := re.FindAllStringSubmatch(f.Text, -1)
	if len(ms) == 0 {
		t.Fatalf("no row says its ExtendedStatistic:\n%s", f.Text)
	}
	n := jq(t, data, `[.MetricAlarms[] | select(has("ExtendedStatistic"))] | length`)[0]
	for _, m := range ms {
		got := jq(t, data, ".MetricAlarms["+m[1]+"].ExtendedStatistic")[0]
		if fmt.Sprint(got) != m[2] || fmt.Sprint(n) != m[3] {
			t.Errorf("row %s says ExtendedStatistic=%s (only %s records); jq: %v (%v records)", m[1], m[2], m[3], got, n)
		}
	}
}

// TestProfileMostCommonValues: a string field with too many values to
// list them all (engines.node: 45 in 287 packages) states its most
// common ones with their counts and how many values and records the rest
// are, each number jq's.
func TestProfileMostCommonValues(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/npm-package-lock.json")
	f := fillAt(t, v, 8000)
	m := regexp.MustCompile(`(?m)^  engines\.node \(string[^\n]*; most common: ([^\n]*?); (\d+) more values with (\d+)[;\n]`).FindStringSubmatch(f.Text)
	if m == nil {
		t.Fatalf("no most common values of engines.node:\n%s", f.Text)
	}
	counts := jq(t, data, `[.packages[] | .engines.node? // empty | select(type == "string")] | group_by(.) | map({key: .[0], value: length}) | from_entries`)[0].(map[string]any)
	total := 0
	for _, n := range counts {
		total += n.(int)
	}
	shown := 0
	for _, part := range strings.Split(m[1], ", ") {
		i := strings.LastIndexByte(part, ' ')
		val, n := part[:i], part[i+1:]
		if fmt.Sprint(counts[val]) != n {
			t.Errorf("%q: the view says %s, jq %v", val, n, counts[val])
		}
		shown++
		var x int
		fmt.Sscan(n, &x)
		total -= x
	}
	if m[2] != fmt.Sprint(len(counts)-shown) || m[3] != fmt.Sprint(total) {
		t.Errorf("the rest: %s more values with %s; jq %d with %d", m[2], m[3], len(counts)-shown, total)
	}
}

// TestProfileShowsARareValueWhole: a field with one value in a few
// records (an error message of 300 characters in 2 of 60) is shown
// with its end, where the cause is, not cut at 60 characters.
func TestProfileShowsARareValueWhole(t *testing.T) {
	msg := "verifying example.com/mod@v1.2.3: " + strings.Repeat("checking the module against the checksum database, ", 5) + "reading https://sum.golang.org/lookup: 403 Forbidden"
	var b strings.Builder
	b.WriteString("[")
	for i := range 60 {
		if i > 0 {
			b.WriteString(",")
		}
		if i == 17 || i == 41 {
			fmt.Fprintf(&b, `{"Path":"example.com/m%d","Version":"v1.%d.0","Error":%q}`, i, i, msg)
		} else {
			fmt.Fprintf(&b, `{"Path":"example.com/m%d","Version":"v1.%d.0"}`, i, i)
		}
	}
	b.WriteString("]")
	v, _ := viewOfData(t, []byte(b.String()))
	f := fillAt(t, v, 4000)
	line := regexp.MustCompile(`(?m)^  Error \(string, in 2 of 60 records\): .*$`).FindString(f.Text)
	if !strings.Contains(line, "403 Forbidden 2") || !strings.HasPrefix(strings.TrimPrefix(line, "  Error (string, in 2 of 60 records): "), "verifying example.com/mod@v1.2.3") {
		t.Errorf("the error's line does not show its head and its end:\n%s", f.Text)
	}
}

// TestProfileOfAFewRecordsFewValues: a nested field of a few records
// with a few values (args.kind in 27 of 400 trace events) gets its
// profile line with every count (jq's) before the even spread of rows,
// not after it.
func TestProfileOfAFewRecordsFewValues(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	kinds := []string{"RootFile", "Import", "LibFile"}
	for i := range 400 {
		if i > 0 {
			b.WriteString(",")
		}
		if i%15 == 7 {
			fmt.Fprintf(&b, `{"name":"findSourceFile","ts":%d,"args":{"kind":%q,"fileName":"/src/f%d.ts"}}`, 1000+i*13, kinds[i%len(kinds)], i)
		} else {
			fmt.Fprintf(&b, `{"name":"checkSourceFile","ts":%d,"dur":%d,"args":{"path":"/src/f%d.ts"}}`, 1000+i*13, 3+i%17, i)
		}
	}
	b.WriteString("]")
	v, data := viewOfData(t, []byte(b.String()))
	f := fillAt(t, v, 4000)
	counts := jq(t, data, `[.[].args.kind // empty] | group_by(.) | map("\(.[0]) \(length)") | join(", ")`)[0].(string)
	n := jq(t, data, `[.[] | select(.args.kind)] | length`)[0]
	m := regexp.MustCompile(`(?m)^  args\.kind \(string, in (\d+) of 400 records\): (.*)$`).FindStringSubmatch(f.Text)
	if m == nil {
		t.Fatalf("no line of args.kind:\n%s", f.Text)
	}
	got := strings.Split(strings.Split(m[2], ", missing")[0], ", ")
	slices.Sort(got)
	if m[1] != fmt.Sprint(n) || strings.Join(got, ", ") != counts {
		t.Errorf("args.kind in %s records: %s; jq: in %v: %s", m[1], m[2], n, counts)
	}
}

// TestRowsOfManyKindsShowTheirOwnMembers: in a collection of many kinds
// of records (trace events whose args differ by event name: 24 fields,
// a record has 6), a row shows the members of a few records each that
// no column shows, in its "other" cell, with the values jq gives.
func TestRowsOfManyKindsShowTheirOwnMembers(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 480 {
		if i > 0 {
			b.WriteString(",")
		}
		k := i % 8
		fmt.Fprintf(&b, `{"name":"event%d","ts":%d,"dur":%d,"args":{"a%d":"x%d","b%d":%d,"c%d":"/p/%d"}}`, k, 1000+i*7, 1+i%11, k, i%5, k, i%9, k, i)
	}
	b.WriteString("]")
	v, data := viewOfData(t, []byte(b.String()))
	f := fillAt(t, v, 4000)
	if !regexp.MustCompile(`(?m)^#\t.*\tother\twhy$`).MatchString(f.Text) {
		t.Fatalf("no other cell:\n%s", f.Text)
	}
	rows := regexp.MustCompile(`(?m)^(\d+)\t.*\t([^\t]*)\t[^\t]*$`).FindAllStringSubmatch(f.Text, -1)
	checked := 0
	for _, r := range rows {
		if r[2] == "-" || !strings.Contains(r[2], "=") {
			continue
		}
		for _, kv := range strings.Split(r[2], ", ") {
			name, val, _ := strings.Cut(kv, "=")
			got := jq(t, data, fmt.Sprintf(`.[%s].args.%s | tostring`, r[1], name))[0]
			if got != val {
				t.Errorf("row %s: %s=%s, jq %v", r[1], name, val, got)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatalf("no row shows a member of its own:\n%s", f.Text)
	}
}

// TestColumnsOfOneObjectAtMostTwo: the columns of a row are not filled
// with one object's members (an issue's reactions."+1", "-1", heart,
// rocket, ... pushed out the rest), nor with numbers that name
// something (user.id is no measure): at most two reactions columns, and
// every row's reactions.total_count the one jq gives.
func TestColumnsOfOneObjectAtMostTwo(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/github-issues.json")
	f := fillAt(t, v, 8000)
	head := regexp.MustCompile(`(?m)^#\t(.*)\twhy$`).FindStringSubmatch(f.Text)
	if head == nil {
		t.Fatalf("no rows:\n%s", f.Text)
	}
	cols := strings.Split(head[1], "\t")
	reactions, total := 0, -1
	for j, col := range cols {
		if strings.HasPrefix(col, "reactions.") {
			reactions++
		}
		if col == "reactions.total_count" {
			total = j
		}
		if col == "user.id" || col == "id" {
			t.Errorf("column %s: a number naming something, not a measure", col)
		}
	}
	if reactions > 2 || total < 0 {
		t.Fatalf("columns %v: %d of reactions", cols, reactions)
	}
	rows := regexp.MustCompile(`(?m)^\d+\t(\d+)\t.*$`).FindAllStringSubmatch(f.Text, -1)
	for _, r := range rows {
		cells := strings.Split(r[0], "\t")[1:]
		want := jq(t, data, fmt.Sprintf(`.[] | select(.number == %s) | .reactions.total_count`, r[1]))[0]
		if cells[total] != fmt.Sprint(want) {
			t.Errorf("issue %s: reactions.total_count %q, jq %v", r[1], cells[total], want)
		}
	}
}

// TestRowShowsTheRareObjectItIsThereFor: a record chosen because it has
// an object few records have (an Error in 1 of 90 modules) shows that
// object's members in its reason, the message with its end (where its
// cause is), not only its name.
func TestRowShowsTheRareObjectItIsThereFor(t *testing.T) {
	msg := "verifying example.com/m47@v1.47.0: checksum mismatch\n\tdownloaded: h1:abc\n\tgo.sum: h1:def\nSECURITY ERROR: 403 Forbidden"
	var b strings.Builder
	for i := range 90 {
		fmt.Fprintf(&b, `{"Path":"example.com/m%02d","Version":"v1.%d.0","Time":"2026-01-%02dT00:00:00Z"`, i, i, i%28+1)
		if i == 47 {
			fmt.Fprintf(&b, `,"Error":{"Err":%q}`, msg)
		}
		b.WriteString("}\n")
	}
	v, _ := viewOfData(t, []byte(b.String()))
	f := fillAt(t, v, 2000)
	want := fmt.Sprintf("has Error={Err: %q} (1 of 90)", msg)
	if !strings.Contains(f.Text, "\n47\texample.com/m47\t") || !strings.Contains(f.Text, want) {
		t.Errorf("no row 47 with %s:\n%s", want, f.Text)
	}
}

// TestPresenceLineSaysHowManyLackIt: a field some records lack says how
// many lack it ("how many pods have no start time" needs no
// subtraction), jq's count.
func TestPresenceLineSaysHowManyLackIt(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/kubectl-pods-restarts.json")
	f := fillAt(t, v, 8000)
	m := regexp.MustCompile(`(?m)^  status\.containerStatuses\[\]\.state\.running\.startedAt \(string, in (\d+) of 144 records, missing in (\d+)\)`).FindStringSubmatch(f.Text)
	if m == nil {
		t.Fatalf("no missing count for startedAt:\n%s", f.Text)
	}
	lack := jq(t, data, `[.items[] | select([.status.containerStatuses[]?.state.running.startedAt // empty] | length == 0)] | length`)[0]
	if m[2] != fmt.Sprint(lack) {
		t.Errorf("missing in %s, jq %v", m[2], lack)
	}
}

// TestIndexOfMapOfListsShowsTheLists: the index of a map of name -> list
// of names (madge's module -> the modules it requires) lists each key
// with its list, the items jq gives in order (the items past 128
// characters counted: "… +N more", an empty list "[]"), so "what does X
// require" is answered on X's line; a larger budget lists a longer
// prefix, and the foot's query lists exactly the rest in the same form.
// On the old code the lines were the keys alone.
func TestIndexOfMapOfListsShowsTheLists(t *testing.T) {
	v, data := viewOf(t, madgeFile)
	keys := jq(t, data, `keys`)[0].([]any)
	m := jq(t, data, `.`)[0].(map[string]any)
	more := regexp.MustCompile(`,… \+(\d+) more$`)
	prev, cut := 0, 0
	for _, b := range []int{1500, 2000, 4000} {
		f := fillAt(t, v, b)
		lines, rest, total, query := indexLines(t, f.Text)
		if len(lines) == 0 {
			t.Fatalf("at %d: no index:\n%s", b, f.Text)
		}
		if len(lines) < prev {
			t.Errorf("at %d: %d index lines, %d at a smaller budget", b, len(lines), prev)
		}
		prev = len(lines)
		if !strings.Contains(f.Text, "(tab-separated: key, value):") {
			t.Errorf("at %d: the index head does not name the value column", b)
		}
		for i, l := range lines {
			k, val, ok := strings.Cut(l, "\t")
			if !ok || k != keys[i] {
				t.Fatalf("at %d: index line %d is %q, key %d is %v", b, i, l, i, keys[i])
			}
			want := m[k].([]any)
			if len(want) == 0 {
				if val != "[]" {
					t.Errorf("at %d: %s has no requirements, its line says %q", b, k, val)
				}
				continue
			}
			left := 0
			if mm := more.FindStringSubmatch(val); mm != nil {
				fmt.Sscan(mm[1], &left)
				val = strings.TrimSuffix(val, mm[0])
				cut++
			}
			items := strings.Split(val, ",")
			if len(items)+left != len(want) {
				t.Errorf("at %d: %s: %d items shown and %d counted, jq has %d", b, k, len(items), left, len(want))
				continue
			}
			for j, it := range items {
				if it != want[j] {
					t.Errorf("at %d: %s: item %d is %q, jq %v", b, k, j, it, want[j])
				}
			}
		}
		if rest == 0 {
			continue
		}
		if total != len(keys) || rest != total-len(lines) {
			t.Fatalf("at %d: %d lines listed, foot says %d of %d not listed", b, len(lines), rest, total)
		}
		got := jq(t, data, query)[0].([]any)
		if len(got) != rest {
			t.Fatalf("at %d: %s lists %d records, the foot says %d", b, query, len(got), rest)
		}
		if first := got[0].([]any); first[0] != keys[len(lines)] {
			t.Errorf("at %d: the rest starts with %v, want %v", b, first, keys[len(lines)])
		}
	}
	if cut == 0 {
		t.Error("no list was long enough to be cut: the test does not check the count of the rest")
	}
}

// TestIndexLeavesOutRecordsShownAsRows: a record whose row comes before
// the index in the fill order, with every cell of its index line, has
// no index line: of 2,400 orders at 4,000 tokens, the rows of the first
// orders the index covers (the first, rare statuses, extremes) are not
// listed again, the foot says how many, each is in a row with its
// order_id, status and customer, and the index covers more orders for
// its lines. The index before listed every record of its prefix again.
func TestIndexLeavesOutRecordsShownAsRows(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/sqlite-orders.json")
	var all []string
	for _, x := range jq(t, data, `map([.order_id, .status, .customer] | map(tostring) | join("\t"))`)[0].([]any) {
		all = append(all, x.(string))
	}
	for _, b := range []int{4000, 8000} {
		f := fillAt(t, v, b)
		lines, rest, total, _ := indexLines(t, f.Text)
		skipped := indexSkipped(f.Text)
		if skipped == 0 {
			t.Fatalf("at %d: no record of the index's %d lines left out as a row:\n%s", b, len(lines), f.Text)
		}
		n := coveredLines(t, f.Text, lines, all) // (each left out line is in a row)
		if rest != total-n || n != len(lines)+skipped {
			t.Errorf("at %d: %d lines and %d rows cover %d orders; the foot says %d of %d not listed", b, len(lines), skipped, n, rest, total)
		}
		if !strings.Contains(f.Text, fmt.Sprintf("\n  index: %d of these %s records are shown as rows above, not repeated here\n", skipped, commas(n))) {
			t.Errorf("at %d: no foot line for the %d records shown as rows", b, skipped)
		}
	}
}
