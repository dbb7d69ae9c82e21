package view

import (
	"fmt"
	"strings"
	"testing"
)

// TestWidthIndentedFirstColumn: a fixed-width table indented by one
// space whose first column holds names of several words (gcc
// -ftime-report's " phase setup      :   0.00 (  0%)   1326k") has its
// names as its first column. On the code before, a column started only
// after two spaces, so the names (after one) were in no column: the
// table's first cell was the ":" and no row could be looked up by name.
func TestWidthIndentedFirstColumn(t *testing.T) {
	names := []string{"phase setup", "phase parsing", "dump files", "callgraph construction", "tree PRE",
		"integrated RA", "combiner", "tree SSA rewrite", "LRA non-specific", "dominator optimization",
		"reload CSE regs", "scheduling 2", "expand", "CSE", "loop init", "rest of compilation"}
	for i := 0; len(names) < 60; i++ {
		names = append(names, fmt.Sprintf("%s %d", names[i%16], i))
	}
	var b strings.Builder
	b.WriteString("Time variable                        usr       GGC\n")
	for i, n := range names {
		fmt.Fprintf(&b, " %-30s :  %4.2f  %6dk\n", n, float64(i)/100, 100+37*i*i)
	}
	sp := detectWidth([]byte(b.String()))
	if sp == nil {
		t.Fatal("no fixed-width columns")
	}
	if sp.starts[0] != 1 {
		t.Fatalf("columns start at %v, want the first at 1 (the names)", sp.starts)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, n := range names {
		f := sp.cells(lines[i+1])
		if f == nil || f[0] != n {
			t.Errorf("line %q: cells %q, want the first %q", lines[i+1], f, n)
		}
	}
}

// TestIndexSkipsNearConstantColumns: ls -l /usr/bin (1,143 rows) has a
// link count of 1 in 1,132 rows and the group root in 1,140: the index
// lists each row by its name and size only (awk's $9 and $5), not by
// words that tell no row apart, and those columns take their places
// among the three the index may list (no longer line instead). On the
// code before, every index line carried "1 root" (line<TAB>column 8
// column 2 column 4 column 5).
func TestIndexSkipsNearConstantColumns(t *testing.T) {
	p := analyzeText(readCapture(t, "ls-l-usr-bin.txt"), nil)
	if p.cols == nil {
		t.Fatal("no table")
	}
	got := p.cols.indexColumns()
	if fmt.Sprint(got) != "[7 4]" {
		t.Errorf("index columns %v, want [7 4] (column 8, the name, and column 5, the size)", got)
	}
}

// TestIndexChunkOrder: the index offers its first chunk, then the
// others from the middle on, coarse to fine, each once.
func TestIndexChunkOrder(t *testing.T) {
	for n := 0; n < 300; n++ {
		o := indexChunkOrder(n, 1)
		if len(o) != n {
			t.Fatalf("n=%d: %d chunks in the order %v", n, len(o), o)
		}
		seen := map[int]bool{}
		for _, c := range o {
			if c < 0 || c >= n || seen[c] {
				t.Fatalf("n=%d: order %v", n, o)
			}
			seen[c] = true
		}
		if n > 0 && o[0] != 0 {
			t.Fatalf("n=%d: first %d", n, o[0])
		}
		// The second is in the middle third of the table.
		if n >= 6 && (3*o[1] < n || 3*o[1] >= 2*n) {
			t.Errorf("n=%d: the second chunk %d is not in the middle third", n, o[1])
		}
	}
	if got := fmt.Sprint(indexChunkOrder(9, 1)); got != "[0 4 2 6 1 5 3 7 8]" {
		t.Errorf("order of 9: %s", got)
	}
	if got := fmt.Sprint(indexChunkOrder(9, 3)); got != "[0 1 2 5 3 7 6 4 8]" {
		t.Errorf("order of 9 after 3: %s", got)
	}
}

// TestColumnsNamedByUnit: GODEBUG=inittrace=1 prints "init PKG @T ms, C
// ms clock, B bytes, A allocs"; split at spaces, each number is followed
// by a column of one word in every row, its unit. The columns of numbers
// are named by it ("column 10 (allocs)"), so the profile line that says
// how many rows hold 0 says of what; the other columns keep their
// names. On the code before, every column was "column N".
func TestColumnsNamedByUnit(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		allocs := (i * 7) % 5
		fmt.Fprintf(&b, "init example.com/pkg%d @%d.%d ms, 0.%03d ms clock, %d bytes, %d allocs\n", i, i/10, i%10, i*3, allocs*48, allocs)
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.cols == nil {
		t.Fatal("no table")
	}
	var names []string
	for _, c := range p.cols.cols {
		names = append(names, c.name)
	}
	want := "[column 1 column 2 column 3 column 4 column 5 (ms) column 6 column 7 column 8 (bytes) column 9 column 10 (allocs) column 11]"
	if fmt.Sprint(names) != want {
		t.Errorf("columns %v\nwant %s", names, want)
	}
	// ls -l's link count is followed by the owner, root in every row:
	// no unit.
	ls := analyzeText(readCapture(t, "ls-l-usr-bin.txt"), nil)
	if n := ls.cols.cols[1].name; n != "column 2" {
		t.Errorf("ls -l's link count named %q", n)
	}
}
