package view_test

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// runJQ runs filter over data with gojq and returns its first result.
func runJQ(t *testing.T, data []byte, filter string) any {
	t.Helper()
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatalf("parse %q: %v", filter, err)
	}
	v, ok := q.Run(doc).Next()
	if !ok {
		t.Fatalf("%q: no result", filter)
	}
	if err, ok := v.(error); ok {
		t.Fatalf("%q: %v", filter, err)
	}
	return v
}

// TestTreeNodes fills the views of two captured directory trees at 2,000,
// 4,000 and 8,000 tokens: the tree section lists more nodes at a bigger
// budget (a superset), states the node counts jq counts, and its query
// for the rest yields exactly the nodes not listed.
func TestTreeNodes(t *testing.T) {
	for _, tc := range []struct{ file, all string }{
		{"tree-pip.json", `[.[] | recurse(.contents[]?)] | length`},
		{"fs-tree.json", `[.children[] | recurse(.children[]?)] | length`},
	} {
		data := readFile(t, "../../testdata/captured/"+tc.file)
		in := inputOf(t, data, 8000)
		in.Tool = "fs.tree"
		v := buildView(t, in)
		total := runJQ(t, data, tc.all).(int)
		head := regexp.MustCompile(`(?m)^tree of .*: ([0-9,]+) of ([0-9,]+) nodes shown \(breadth-first\)`)
		foot := regexp.MustCompile(`(?m)^  nodes not shown: ([0-9,]+) of [0-9,]+ .*--jq '(.*)'$`)
		num := func(s string) int { n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", "")); return n }
		prev := -1
		var prevLines []string
		for _, b := range []int{2000, 4000, 8000} {
			fl := fillAt(t, v, b)
			var lines []string
			for _, ch := range fl.Chosen {
				if ch.Reason == "tree node" {
					lines = append(lines, ch.Text)
				}
			}
			m := head.FindStringSubmatch(fl.Text)
			if m == nil {
				t.Fatalf("%s at %d: no tree head in\n%s", tc.file, b, fl.Text)
			}
			if num(m[1]) != len(lines) || num(m[2]) != total {
				t.Errorf("%s at %d: head says %s of %s, %d listed, jq counts %d", tc.file, b, m[1], m[2], len(lines), total)
			}
			if len(lines) <= prev {
				t.Errorf("%s: %d nodes at %d tokens, %d at a smaller budget", tc.file, len(lines), b, prev)
			}
			for i := range prevLines {
				if prevLines[i] != lines[i] {
					t.Errorf("%s at %d: node %d differs from the smaller view's", tc.file, b, i)
					break
				}
			}
			prev, prevLines = len(lines), lines
			if len(lines) == total {
				continue
			}
			f := foot.FindStringSubmatch(fl.Text)
			if f == nil {
				t.Fatalf("%s at %d: no foot", tc.file, b)
			}
			if num(f[1]) != total-len(lines) {
				t.Errorf("%s at %d: foot says %s not shown, want %d", tc.file, b, f[1], total-len(lines))
			}
			rest := runJQ(t, data, strings.ReplaceAll(f[2], `'\''`, `'`)).([]any)
			if len(rest) != total-len(lines) {
				t.Errorf("%s at %d: the query yields %d nodes, want %d", tc.file, b, len(rest), total-len(lines))
			}
			listed := map[string]bool{}
			for _, l := range lines {
				listed[strings.SplitN(strings.TrimPrefix(l, "  "), "  ", 2)[0]] = true
			}
			for _, r := range rest {
				if p := r.(map[string]any)["path"].(string); listed[p] {
					t.Errorf("%s at %d: the query yields %s, which is listed", tc.file, b, p)
				}
			}
		}
	}
}

// TestTreeRootListing: at 4,000 tokens the pip tree lists its root and
// every entry of it, and the Go tree (whose root is outside the
// collection) every one of its 238 records.
func TestTreeRootListing(t *testing.T) {
	for _, tc := range []struct{ file, names string }{
		{"tree-pip.json", `[.[0].contents[].name]`},
		{"fs-tree.json", `[.children[].name]`},
	} {
		data := readFile(t, "../../testdata/captured/"+tc.file)
		in := inputOf(t, data, 4000)
		in.Tool = "fs.tree"
		v := buildView(t, in)
		fl := fillAt(t, v, 4000)
		names := runJQ(t, data, tc.names).([]any)
		for _, n := range names {
			if !strings.Contains(fl.Text, "\n  "+n.(string)+"  ") {
				t.Errorf("%s: root entry %s not listed at 4,000 tokens", tc.file, n)
			}
		}
	}
}

// TestTreeNodesCap: a tree of 30,103 nodes lists at most 20,000 as
// candidates, and the head and foot still state the exact total.
func TestTreeNodesCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"name":"root","children":[`)
	for i := 0; i < 100; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"name":"d` + strconv.Itoa(i) + `","type":"directory","children":[`)
		for j := 0; j < 300; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"name":"f` + strconv.Itoa(j) + `","type":"file","size":` + strconv.Itoa(j) + `}`)
		}
		b.WriteString("]}")
	}
	b.WriteString(`,{"name":"x","type":"directory","children":[{"name":"y","type":"file","size":1,"children":[{"name":"z","type":"file","size":2}]}]}]}`)
	data := []byte(b.String())
	in := inputOf(t, data, 4000)
	in.Tool = "fs.tree"
	v := buildView(t, in)
	n := 0
	for _, c := range v.Candidates() {
		if c.Reason == "tree node" {
			n++
		}
	}
	if n != 20000 {
		t.Errorf("%d node candidates, want 20,000", n)
	}
	fl := fillAt(t, v, 4000)
	total := runJQ(t, data, `[.children[] | recurse(.children[]?)] | length`).(int)
	if total != 30103 {
		t.Fatalf("jq counts %d", total)
	}
	if !regexp.MustCompile(`(?m)^tree of .*: [0-9,]+ of 30,103 nodes shown \(breadth-first\);.*; only the first 20,000 nodes of the 30,103 can be listed here$`).MatchString(fl.Text) {
		t.Errorf("head does not state the cap:\n%s", fl.Text)
	}
	m := regexp.MustCompile(`(?m)^  nodes not shown: ([0-9,]+) of 30,103 .*--jq '(.*)'$`).FindStringSubmatch(fl.Text)
	if m == nil {
		t.Fatalf("no foot in\n%s", fl.Text)
	}
	rest := runJQ(t, data, m[2]).([]any)
	shown := 0
	for _, c := range fl.Chosen {
		if c.Reason == "tree node" {
			shown++
		}
	}
	if len(rest) != total-shown || m[1] != commas(total-shown) {
		t.Errorf("foot says %s, query yields %d, want %d", m[1], len(rest), total-shown)
	}
}

// TestTreeFieldsNotPerDepth: a plan tree (one record whose nodes nest
// through Plans[], as EXPLAIN (FORMAT JSON) prints it) states each node
// field once over every depth, not once more per depth: the per-depth
// lines ("Plans[].Plans[]."Node Type" (string, 2 values): ...") split the
// same counts and made the view's facts cost more than the plan itself,
// so a whole plan could not be shown with them (budget's facts notice).
// Fails on the old code, which added a line per depth.
func TestTreeFieldsNotPerDepth(t *testing.T) {
	var node func(d, i int) string
	node = func(d, i int) string {
		types := []string{"Hash Join", "Seq Scan", "Hash", "Sort"}
		s := `{"Node Type": "` + types[(d+i)%4] + `", "Actual Rows": ` + strconv.Itoa(100*d+i) + `, "Relation Name": "t` + strconv.Itoa(d) + `"`
		if d < 5 {
			s += `, "Plans": [` + node(d+1, 0) + `, ` + node(d+1, 1) + `]`
		}
		return s + "}"
	}
	data := []byte(`[{"Plan": ` + node(0, 0) + `, "Planning Time": 0.5, "Execution Time": 12.25}]`)
	v, _ := viewOfData(t, data)
	facts := strings.Join(v.Facts(), "\n")
	// The plan's nodes are one collection (json_nodes.go): the root and
	// the 62 nodes under it, each field one line over every depth.
	for _, want := range []string{`"Node Type" (string): Seq Scan 25, Hash 19, Hash Join 13, Sort 6`, `"Relation Name" (string, 6 distinct): t5 32, t4 16, t3 8, t2 4, t1 2, t0 1`} {
		if !strings.Contains(facts, want) {
			t.Errorf("no %q in the facts:\n%s", want, facts)
		}
	}
	if regexp.MustCompile(`Plans\[\]\.Plans\[\]\.[^\n]*\(string|Plans\[\]\.Plans\[\]\.[^\n]*\(number`).MatchString(facts) {
		t.Errorf("a line per depth:\n%s", facts)
	}
}
