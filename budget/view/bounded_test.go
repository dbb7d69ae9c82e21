package view

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// selectOneWalk is selectOver with the collection's text given: the
// records are read in the profile's own walk (profileRecords), not
// through Each.
func selectOneWalk(t *testing.T, n int) *coll {
	t.Helper()
	in, c := genCollection(n, false)
	c.Text = in.Data
	c.Each = func(func(int, []byte) error) error { t.Fatal("Each called"); return nil }
	in.Collections = []Collection{c}
	return selectedColl(t, in, c)
}

// TestOneWalkSameSelection: reading the records in the profile's walk
// (the record's end found by the walk itself, the request's words
// matched at its end) chooses the same records for the same reasons, with
// the same cells, as reading them through Each, and keeps exact texts
// of the records it keeps.
func TestOneWalkSameSelection(t *testing.T) {
	const n = 5000
	a, b := selectOver(t, n, false), selectOneWalk(t, n)
	if len(a.why) != len(b.why) {
		t.Fatalf("%d reasons through Each, %d in one walk", len(a.why), len(b.why))
	}
	for i := range a.why {
		if !reflect.DeepEqual(a.why[i].recs, b.why[i].recs) || !reflect.DeepEqual(a.why[i].text, b.why[i].text) {
			t.Errorf("reason %d: %v %v through Each, %v %v in one walk", i, a.why[i].recs, a.why[i].text, b.why[i].recs, b.why[i].text)
		}
	}
	if len(a.rows) != len(b.rows) || len(a.t.hits) != len(b.t.hits) || len(a.t.hits) == 0 {
		t.Fatalf("rows %d/%d, request matches %d/%d", len(a.rows), len(b.rows), len(a.t.hits), len(b.t.hits))
	}
	for i := range a.rows {
		ra, rb := a.row(i), b.row(i)
		if rb == nil || !reflect.DeepEqual(ra.cells, rb.cells) || ra.ident != rb.ident {
			t.Errorf("row %d: %v through Each, %v in one walk", i, ra, rb)
		}
	}
	for i, raw := range b.t.raws {
		if !bytes.Equal(raw, a.t.raws[i]) {
			t.Errorf("record %d kept as %.60q, want %.60q", i, raw, a.t.raws[i])
		}
	}
}

// TestRowsMadeWhenReached: the fill makes the text of the rows it
// reaches, not of every row a reason chose (each made row reads its
// record again).
func TestRowsMadeWhenReached(t *testing.T) {
	in, _ := genCollection(20000, false)
	v, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	rows, made := 0, 0
	for _, c := range v.cands {
		if c.Record >= 0 {
			rows++
		}
	}
	f, err := v.Fill(wordCounter{}, 2000)
	if err != nil {
		t.Fatal(err)
	}
	shown := 0
	for _, c := range f.Chosen {
		if c.Record >= 0 {
			shown++
			if c.Text == "" {
				t.Errorf("chosen row %d has no text", c.Record)
			}
		}
	}
	for _, c := range v.cands {
		if c.Record >= 0 && c.lazy != nil && c.lazy.make == nil {
			made++
		}
	}
	if rows < 200 || shown == 0 || made > 2*shown+20 {
		t.Errorf("%d row candidates, %d shown, %d made: rows are made before the fill reaches them", rows, shown, made)
	}
	t.Logf("%d row candidates, %d shown, %d made", rows, shown, made)
}

// genTree returns n directory records of 3 files each, with a nested
// directory in every tenth, as one JSON array.
func genTree(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"d%d","type":"directory","size":4096,"children":[`, i)
		for j := 0; j < 3; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name":"f%d","type":"file","size":%d}`, j, i*3+j)
		}
		if i%10 == 0 {
			b.WriteString(`,{"name":"sub","type":"directory","size":4096,"children":[{"name":"x","type":"file","size":1}]}`)
		}
		b.WriteString("]}")
	}
	b.WriteByte(']')
	return b.Bytes()
}

// TestTreeWalkBoundedByCaps: the tree view holds at most twice the nodes
// it can list (20,000), whatever the size of the tree; it neither copies
// the records nor holds a whole level of the tree (it held a copy of
// every record, then every node of the next level: at 80,000 records
// the whole input and 248,000 nodes at once), and still counts every
// node and lists the first 20,000 breadth-first.
func TestTreeWalkBoundedByCaps(t *testing.T) {
	for _, n := range []int{10_000, 80_000} {
		data := genTree(n)
		w := &treeWalk{key: "children", nameM: "name", typeM: "type", stats: map[string]*memberStat{}, types: map[string]int{}}
		c := &coll{in: Input{Data: data}, c: Collection{Path: ".", Kind: "array", Count: n, Text: data}}
		if err := c.eachRecord(func(i int, raw []byte) error { w.node(raw, 0, i, "", 0); return nil }); err != nil {
			t.Fatal(err)
		}
		w.prune()
		total := n + 3*n + n/10 + n/10
		if w.total != total || w.perDepth[0] != n || w.perDepth[1] != 3*n+n/10 || w.perDepth[2] != n/10 {
			t.Errorf("%d records: %d nodes, per depth %v; want %d", n, w.total, w.perDepth, total)
		}
		listed := 0
		for d, l := range w.lists {
			for i, nd := range l {
				if nd.depth != d || nd.pos != i {
					t.Fatalf("%d records: listed node %d of depth %d is %d of depth %d", n, i, d, nd.pos, nd.depth)
				}
			}
			listed += len(l)
		}
		if listed != maxTreeNodes {
			t.Errorf("%d records: %d nodes listed, want the first %d", n, listed, maxTreeNodes)
		}
		if w.maxHeld > 2*maxTreeNodes+1 {
			t.Errorf("%d records: %d nodes held at once", n, w.maxHeld)
		}
		t.Logf("%d records, %d nodes: at most %d held at once", n, w.total, w.maxHeld)
	}
}

// genTestEvents returns go test -json events of n failing tests (each
// with an output line) in n/2 packages, and n/4 tests that print and
// never end.
func genTestEvents(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		pkg := fmt.Sprintf("example.com/p%d", i/2)
		fmt.Fprintf(&b, `{"Action":"run","Package":%q,"Test":"TestF%d"}`+"\n", pkg, i)
		fmt.Fprintf(&b, `{"Action":"output","Package":%q,"Test":"TestF%d","Output":"    f_test.go:%d: want %d\n"}`+"\n", pkg, i, i, i)
		fmt.Fprintf(&b, `{"Action":"fail","Package":%q,"Test":"TestF%d","Elapsed":0.01}`+"\n", pkg, i)
		if i%2 == 1 {
			fmt.Fprintf(&b, `{"Action":"fail","Package":%q,"Elapsed":0.02}`+"\n", pkg)
		}
		if i%4 == 0 {
			fmt.Fprintf(&b, `{"Action":"output","Package":%q,"Test":"TestHang%d","Output":"waiting\n"}`+"\n", pkg, i)
		}
	}
	return b.Bytes()
}

// TestGoTestSummaryBoundedByCaps: a go test -json stream's summary holds
// at most maxFailedKept failed tests, maxFailedPkgs failed packages and
// maxRunningKept running tests, whatever the number of events, and
// still counts every failed test and package exactly; the view states
// the exact numbers and how many more packages failed than it names.
func TestGoTestSummaryBoundedByCaps(t *testing.T) {
	for _, n := range []int{1_000, 40_000} {
		data := genTestEvents(n)
		s := analyzeGoTestJSON(data)
		if s.testFail != n || s.pkgFail != n/2 {
			t.Errorf("%d failing tests: counted %d failed tests, %d failed packages", n, s.testFail, s.pkgFail)
		}
		if len(s.failed) != min(n, maxFailedKept) || len(s.failedPkgs) != min(n/2, maxFailedPkgs) {
			t.Errorf("%d failing tests: %d failed tests held, %d failed packages", n, len(s.failed), len(s.failedPkgs))
		}
		if len(s.failed) > 0 && (len(s.failed[0].output) != 1 || !strings.Contains(s.failed[0].output[0], "want")) {
			t.Errorf("the first failed test's output: %q", s.failed[0].output)
		}
		lines := strings.Join(testTotals(s, true), "\n")
		want := fmt.Sprintf("tests (subtests counted, a parent fails with its subtest): %s (0 passed, %s failed", commas(n), commas(n))
		if !strings.Contains(lines, want) {
			t.Errorf("%d failing tests: totals %q lack %q", n, lines, want)
		}
		if more := n/2 - maxFailedPkgs; more > 0 && !strings.Contains(lines, fmt.Sprintf(" and %s more", commas(more))) {
			t.Errorf("%d failing tests: totals do not say how many more packages failed: %.300q", n, lines)
		}
		in := Input{Format: "jsonl", Data: data, Budget: 4000, Handle: "0123456789ab",
			Collections: []Collection{{Path: ".", Kind: "jsonl", Count: bytes.Count(data, []byte("\n"))}}}
		v, err := Build(in)
		if err != nil {
			t.Fatal(err)
		}
		f, err := v.Fill(wordCounter{}, 4000)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.Text, fmt.Sprintf("failed tests (%s; showing", commas(n))) {
			t.Errorf("%d failing tests: the view does not state them all:\n%.2000s", n, f.Text)
		}
	}
	// The tests that print and never end are held up to the cap.
	big := analyzeGoTestJSON(genTestEvents(80_000))
	if big.testFail != 80_000 || len(big.failed) != maxFailedKept || big.runningMax > maxRunningKept {
		t.Errorf("80,000 failing tests: %d counted, %d held, %d running held", big.testFail, len(big.failed), big.runningMax)
	}
}

// genNumbers returns n records of a few skewed numeric fields (for odd
// seeds one under an array too, for multiples of 3 one under an array
// with two far numbers in a record) as a collection.
func genNumbers(n int, seed uint64) (Input, Collection) {
	var b bytes.Buffer
	b.WriteByte('[')
	x := seed
	next := func(m uint64) uint64 { x = x*6364136223846793005 + 1442695040888963407; return (x >> 33) % m }
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		heavy := next(1000)
		if heavy > 990 {
			heavy *= 50
		}
		fmt.Fprintf(&b, `{"id":"r%d","a":%d,"b":%d,"c":%d`, i, heavy, next(10), next(3)*next(3)*next(100))
		if seed%2 == 1 {
			fmt.Fprintf(&b, `,"v":[%d,%d]`, next(50), next(1000)*next(1000))
		}
		if seed%3 == 0 {
			// Two far numbers in one record: the kept numbers of w
			// are of fewer records than kept.
			w := next(100) * next(100) * next(100)
			fmt.Fprintf(&b, `,"w":[%d,%d]`, w, w+1)
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	d := b.Bytes()
	c := Collection{Path: ".", Kind: "array", Count: n, Text: d}
	in := Input{Format: "json", Data: d, Budget: 4000, Collections: []Collection{c}}
	return in, c
}

// TestOutliersReadOnlyBeyond: reading again only the records that hold
// a kept number beyond 2σ, and of those only the ones whose deviation
// can be among the maxPerWhy farthest, chooses the same outliers, for
// the same reasons, as reading every record kept among the largest and
// smallest numbers.
func TestOutliersReadOnlyBeyond(t *testing.T) {
	sel := func(in Input, c Collection) *coll { return selectedColl(t, in, c) }
	outliers := func(k *coll) []string {
		var out []string
		for _, r := range k.why {
			for _, i := range r.recs {
				if strings.Contains(r.text[i], "σ") {
					out = append(out, fmt.Sprintf("%d %s", i, r.text[i]))
				}
			}
		}
		return out
	}
	bounded := 0
	for seed := uint64(1); seed <= 6; seed++ {
		in, c := genNumbers(3000+int(seed)*500, seed)
		readEveryKept = true
		all := sel(in, c)
		readEveryKept = false
		few := sel(in, c)
		a, b := outliers(all), outliers(few)
		if len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("seed %d: %d outliers reading every kept record, %d reading those beyond 2σ:\n%v\n%v", seed, len(a), len(b), a, b)
		}
		if few.readAgain > all.readAgain {
			t.Errorf("seed %d: %d records read again, %d reading every kept record", seed, few.readAgain, all.readAgain)
		}
		if few.readAgain <= maxPerWhy+10 {
			bounded++
		}
	}
	// Of the records beyond 2σ (hundreds here), those whose deviation
	// cannot reach the maxPerWhy farthest are not read again (reading
	// 455 of 1,200 GitHub issues again was a sixth of the view's time).
	if bounded < 4 {
		t.Errorf("only %d of 6 inputs read at most %d records again", bounded, maxPerWhy+10)
	}
	// The kept largest numbers of w are the pairs of 30 records; 40
	// records with a far w of their own are kept only among the largest
	// of c, within 2σ there: they are outliers all the same.
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		w, c := "[0]", (i*7)%980
		switch {
		case i < 30:
			w = "[1000,1000]"
		case i >= 100 && i < 140:
			w, c = "[400]", 990+(i-100)/4
		}
		fmt.Fprintf(&b, `{"id":"r%d","c":%d,"w":%s}`, i, c, w)
	}
	b.WriteByte(']')
	col := Collection{Path: ".", Kind: "array", Count: 3000, Text: b.Bytes()}
	in := Input{Format: "json", Data: b.Bytes(), Budget: 4000, Collections: []Collection{col}}
	readEveryKept = true
	all := outliers(sel(in, col))
	readEveryKept = false
	if few := outliers(sel(in, col)); len(all) < 40 || !reflect.DeepEqual(all, few) {
		t.Errorf("pairs: %d outliers reading every kept record, %d reading those beyond 2σ:\n%v\n%v", len(all), len(few), all, few)
	}
	for _, asMap := range []bool{false, true} {
		readEveryKept = true
		a := outliers(selectOver(t, 20_000, asMap))
		readEveryKept = false
		if b := outliers(selectOver(t, 20_000, asMap)); len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("map %v: %v\n%v", asMap, a, b)
		}
	}
}

// TestOutliersOfArraysByRecord: the kept largest numbers of a field under
// an array are of distinct records. When 30 records each held two of the
// 60 largest numbers of w, the 40 records with the next far w (beyond
// 2σ) were never considered, and the outlier rows were only those 30.
func TestOutliersOfArraysByRecord(t *testing.T) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		w := "[0]"
		switch {
		case i < 30:
			w = "[1000,1000]"
		case i >= 100 && i < 140:
			w = "[400]"
		}
		fmt.Fprintf(&b, `{"id":"r%d","c":%d,"w":%s}`, i, (i*7)%980, w)
	}
	b.WriteByte(']')
	col := Collection{Path: ".", Kind: "array", Count: 3000, Text: b.Bytes()}
	in := Input{Format: "json", Data: b.Bytes(), Budget: 4000, Collections: []Collection{col}}
	k := selectedColl(t, in, col)
	far := 0
	for _, r := range k.why {
		for _, i := range r.recs {
			if strings.Contains(r.text[i], "σ") && i >= 100 && i < 140 {
				far++
			}
		}
	}
	if far != 30 {
		t.Errorf("%d of the records with w=400 are outlier rows, want 30 (60 in all, after the 30 with w=1000)", far)
	}
}

// TestTreeLinesConstantsAndFewValues: the profile lines of a nesting
// collection state the fields with one value at every node once,
// together, and list the values of a field with a few strings even when
// each is rare (a plan's two sort methods, one of them the disk sort),
// where they took a line each and said only "longest 14 chars".
func TestTreeLinesConstantsAndFewValues(t *testing.T) {
	node := func(typ, extra, kids string) string {
		return `{"Node Type":"` + typ + `","Shared Read Blocks":0,"Async Capable":false` + extra + `,"Plans":[` + kids + `]}`
	}
	leaf := func(typ, extra string) string {
		return `{"Node Type":"` + typ + `","Shared Read Blocks":0,"Async Capable":false` + extra + `}`
	}
	data := []byte(`[` +
		node("Limit", "", node("Sort", `,"Sort Method":"quicksort"`, leaf("Seq Scan", ""))) + `,` +
		node("Hash Join", "", leaf("Seq Scan", "")+`,`+node("Sort", `,"Sort Method":"external merge"`, leaf("Seq Scan", ""))) + `]`)
	col := Collection{Path: ".", Kind: "array", Count: 2, Text: data}
	v, err := Build(Input{Format: "json", Data: data, Budget: 4000, Handle: "0123456789ab", Collections: []Collection{col}})
	if err != nil {
		t.Fatal(err)
	}
	var tree []string
	for _, c := range v.Candidates() {
		if c.Reason == "tree" {
			tree = append(tree, c.Text)
		}
	}
	all := strings.Join(tree, "\n")
	if !strings.Contains(all, `every node (7) has: "Shared Read Blocks"=0, "Async Capable"=false`) {
		t.Errorf("the constant fields are not stated once:\n%s", all)
	}
	if !strings.Contains(all, `"Sort Method" (2 values): external merge 1, quicksort 1`) {
		t.Errorf("the sort methods are not listed:\n%s", all)
	}
	if strings.Count(all, "Shared Read Blocks") != 1 {
		t.Errorf("a constant field on two lines:\n%s", all)
	}
}

// TestDuplicatesFromTheProfilePass: fields with the same value in every
// record are found from the fingerprints the profile's pass sums, without
// reading the records again (Each fails here; the check walked every
// record again when two fields were duplicates); two fields with the
// same values, profiles and counts but paired differently in two records
// are not duplicates.
func TestDuplicatesFromTheProfilePass(t *testing.T) {
	var recs [][]byte
	for i := 0; i < 500; i++ {
		a, c := i%37, i%37
		if i == 100 {
			c = 200 % 37 // swapped with record 200: the same values in all
		}
		if i == 200 {
			c = 100 % 37
		}
		recs = append(recs, []byte(fmt.Sprintf(`{"id":"r%d","a":%d,"b":%d,"c":%d}`, i, a, a, c)))
	}
	col := Collection{Path: ".", Kind: "array", Count: len(recs),
		Each: func(func(int, []byte) error) error { return fmt.Errorf("the records were read again") }}
	k := &coll{in: Input{Format: "json"}, c: col, p: NewProfile(false), rows: map[int]*row{}}
	for i, raw := range recs {
		k.p.Add(i, raw)
	}
	k.p.Finish()
	fa, fb, fc := k.p.Field("a"), k.p.Field("b"), k.p.Field("c")
	if !sameProfile(fa, fc) {
		t.Fatal("a and c should have the same profile")
	}
	k.findDuplicates()
	if k.dupOf[fb] != fa {
		t.Errorf("b repeats a in every record: dupOf %v", k.dupOf)
	}
	if k.dupOf[fc] != nil {
		t.Errorf("c differs from a in records 100 and 200, but is %v's duplicate", k.dupOf[fc].Path)
	}
}

// TestOutliersKnownNotReadAgain: a record whose farthest number the kept
// largest and smallest numbers tell is not read again for it; only the
// extremes' records and those the kept numbers leave open are. The
// reasons are those of reading every kept record, also where two fields
// of a record are equally far (the read names the first in the record):
// genNumbers' records read again went from up to 70 to 6, and the 93 of
// a 10 MB kubectl pod list (each ~5 KB) were ~0.03x of level 1.
func TestOutliersKnownNotReadAgain(t *testing.T) {
	outliers := func(k *coll) []string {
		var out []string
		for _, r := range k.why {
			for _, i := range r.recs {
				if strings.Contains(r.text[i], "σ") {
					out = append(out, fmt.Sprintf("%d %s", i, r.text[i]))
				}
			}
		}
		return out
	}
	for seed := uint64(1); seed <= 3; seed++ {
		in, c := genNumbers(3000+int(seed)*500, seed)
		if few := selectedColl(t, in, c); few.readAgain > 20 {
			t.Errorf("seed %d: %d records read again", seed, few.readAgain)
		}
	}
	// a and b alike; record 7 is as far in both (a named: first), record
	// 11 farther in b than in a, record 13 in an array.
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		a, bb, w := i%50, i%50, fmt.Sprintf("[%d,%d]", i%40, i%30)
		switch i {
		case 7:
			a, bb = 1000, 1000
		case 11:
			a, bb = 600, 900
		case 13:
			w = "[-800,3,900]"
		}
		fmt.Fprintf(&b, `{"id":"r%d","a":%d,"b":%d,"w":%s}`, i, a, bb, w)
	}
	b.WriteByte(']')
	col := Collection{Path: ".", Kind: "array", Count: 3000, Text: b.Bytes()}
	in := Input{Format: "json", Data: b.Bytes(), Budget: 4000, Collections: []Collection{col}}
	readEveryKept = true
	all := outliers(selectedColl(t, in, col))
	readEveryKept = false
	few := outliers(selectedColl(t, in, col))
	if !reflect.DeepEqual(all, few) {
		t.Errorf("reading every kept record:\n%v\nreading those the kept numbers leave open:\n%v", all, few)
	}
	for _, want := range []string{"7 a ", "11 b ", "13 w[]=900 is"} {
		if !slices.ContainsFunc(few, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("no outlier %q in %v", want, few)
		}
	}
}
