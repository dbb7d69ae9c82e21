package view

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDiffCounts checks the files, hunks and lines a diff's profile
// counts against git's own counts of the same diff (git diff --numstat
// and --summary, captured beside it): per file its added and deleted
// lines (binary files "-"), new, deleted and renamed files, the totals,
// and the file with the most changed lines. The old code read a diff as
// lines of text and counted none of these.
func TestDiffCounts(t *testing.T) {
	data := readCapture(t, "git-diff-compact.txt")
	p := analyzeText(data, nil)
	if p.kind != textDiff || p.diff == nil {
		t.Fatalf("kind %q, want %q", p.kind, textDiff)
	}
	ds := p.diff
	num, err := os.ReadFile("testdata/git-diff-compact.numstat")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(num)), "\n")
	if ds.nFiles != len(rows) || len(ds.files) != len(rows) {
		t.Fatalf("%d files (%d kept), git's numstat has %d", ds.nFiles, len(ds.files), len(rows))
	}
	added, deleted, most, mostN := 0, 0, "", -1
	for i, r := range rows {
		f := strings.SplitN(r, "\t", 3)
		got := ds.files[i]
		if f[0] == "-" {
			if !got.binary {
				t.Errorf("%s: git says binary", got.name)
			}
			continue
		}
		a, _ := strconv.Atoi(f[0])
		d, _ := strconv.Atoi(f[1])
		added += a
		deleted += d
		if a+d > mostN {
			most, mostN = got.name, a+d
		}
		if got.added != a || got.deleted != d {
			t.Errorf("%s: +%d -%d, git says +%d -%d", got.name, got.added, got.deleted, a, d)
		}
		if name := f[2]; !strings.Contains(name, "=>") && name != got.name {
			t.Errorf("file %d: %q, git says %q", i, got.name, name)
		}
	}
	if ds.added != added || ds.deleted != deleted {
		t.Errorf("+%d -%d in all, git says +%d -%d", ds.added, ds.deleted, added, deleted)
	}
	if ds.most == nil || ds.most.name != most {
		t.Errorf("most changed %v, git's numstat says %s", ds.most, most)
	}
	// The most hunks, with every file that has as many.
	perFile := map[string]int{}
	cur := ""
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "diff --git ") {
			cur = strings.TrimPrefix(strings.Fields(l)[3], "b/")
			perFile[cur] += 0
		} else if strings.HasPrefix(l, "@@ -") {
			perFile[cur]++
		}
	}
	maxH, holders := 0, []string{}
	for _, f := range ds.files {
		n := perFile[f.name]
		if n > maxH {
			maxH, holders = n, holders[:0]
		}
		if n == maxH {
			holders = append(holders, f.name)
		}
	}
	if ds.mostHunkN != maxH || strings.Join(ds.hunkTies, ",") != strings.Join(holders, ",") {
		t.Errorf("most hunks %d in %v, the hunk headers say %d in %v", ds.mostHunkN, ds.hunkTies, maxH, holders)
	}
	sum, err := os.ReadFile("testdata/git-diff-compact.summary")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(sum)), "\n") {
		switch strings.Fields(l)[0] {
		case "create":
			want["new"]++
		case "delete":
			want["deleted"]++
		case "rename":
			want["renamed"]++
		}
	}
	for st, n := range want {
		if ds.byStatus[st] != n {
			t.Errorf("%s files: %d, git's summary says %d", st, ds.byStatus[st], n)
		}
	}
	hunks := strings.Count("\n"+string(data), "\n@@ -")
	if ds.hunks != hunks {
		t.Errorf("%d hunks, the text has %d hunk headers", ds.hunks, hunks)
	}
	// The view states them at a small budget.
	out := fillText(t, data, 1500)
	for _, s := range []string{
		"kind: diff; 53 files",
		"files changed: 53; hunks: " + strconv.Itoa(hunks) + "; lines added: 1,285; lines deleted: 361",
		"new 12, deleted 1, renamed 30; binary files (any status): 2",
		"most changed lines: " + most,
		"budget/export_test.go: +0 -14, 1 hunk [deleted file]",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("the view at 1,500 tokens lacks %q:\n%s", s, out)
		}
	}
}

// TestDiffHunkContent checks that a hunk's lines are content, whatever
// they start with: a deleted line "-- x" reads "--- x" and an added
// line "++ y" reads "+++ y"; neither starts a file.
func TestDiffHunkContent(t *testing.T) {
	d := "diff --git a/a.sql b/a.sql\nindex 1..2 100644\n--- a/a.sql\n+++ b/a.sql\n@@ -1,3 +1,3 @@\n--- old comment\n+++ new comment\n keep\n-x\n+y\n" +
		"diff --git a/b.txt b/b.txt\nnew file mode 100644\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+hello\n\\ No newline at end of file\n"
	ds := newDiffStats()
	textLines([]byte(d), func(pos int, line string) { ds.add(pos, line) })
	ds.done()
	if ds.nFiles != 2 || ds.added != 3 || ds.deleted != 2 || ds.hunks != 2 {
		t.Errorf("files %d added %d deleted %d hunks %d, want 2 3 2 2", ds.nFiles, ds.added, ds.deleted, ds.hunks)
	}
	if ds.byStatus["new"] != 1 || ds.files[1].name != "b.txt" {
		t.Errorf("files %+v %+v", ds.files[0], ds.files[1])
	}
	// diff -u without git's headers.
	u := "--- a/x.c\t2024-01-01\n+++ b/x.c\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n--- a/y.c\n+++ b/y.c\n@@ -1,2 +1 @@\n-c\n d\n"
	ds = newDiffStats()
	textLines([]byte(u), func(pos int, line string) { ds.add(pos, line) })
	ds.done()
	if ds.nFiles != 2 || ds.files[0].name != "x.c" || ds.files[1].deleted != 1 || ds.added != 1 {
		t.Errorf("diff -u: %d files %+v", ds.nFiles, ds.files)
	}
}

// TestCommitListCounts checks a git log --graph --oneline --decorate
// --all of this repository (600 commits, a /tmp clone with tags added)
// against git: every commit line's hash, and which are merges, as git
// rev-list --parents says (captured beside it); the tags and refs of
// the decorations. The old code read it as lines, its commit subjects
// with "error" as error lines shown first.
func TestCommitListCounts(t *testing.T) {
	data := readCapture(t, "git-graph-compact.txt")
	p := analyzeText(data, nil)
	if p.kind != textCommits || p.graph == nil {
		t.Fatalf("kind %q, want %q", p.kind, textCommits)
	}
	gs := p.graph
	par, err := os.ReadFile("testdata/git-graph-compact.parents")
	if err != nil {
		t.Fatal(err)
	}
	commits, merges := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(string(par)), "\n") {
		f := strings.Fields(l)
		commits++
		if n, _ := strconv.Atoi(f[1]); n > 1 {
			merges++
		}
	}
	if gs.commits != commits || gs.merges != merges {
		t.Errorf("%d commits, %d merges; git says %d, %d", gs.commits, gs.merges, commits, merges)
	}
	tags := strings.Count(string(data), "tag: ")
	if gs.tags != tags {
		t.Errorf("%d tags, the decorations have %d", gs.tags, tags)
	}
	out := fillText(t, data, 1500)
	for _, s := range []string{
		"kind: commit list; 600 commits",
		"merges: " + strconv.Itoa(merges) + " (drawn with a second parent)",
		"tags: " + strconv.Itoa(tags),
		"HEAD: f9ba367 (HEAD -> main, tag: v1.20.1)",
		"tag: v1.6.0 4db0904@1176",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("the view at 1,500 tokens lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "error and warning lines") {
		t.Errorf("commit subjects shown as error lines at 1,500 tokens:\n%s", out)
	}
}

// TestRecordKindsAndSums checks the per-record counts of an ls -laR of
// a module in the Go module cache (64 directory blocks "./dir:" with a
// "total" line and one entry a line) against an independent walk of its
// lines: each directory's entries by their mode, the sum of their sizes
// (column 5), the directory with the most files and with the largest
// sum; the view's index line of each shown directory states exactly
// those. The old code counted the blocks as paragraphs and nothing per
// block.
func TestRecordKindsAndSums(t *testing.T) {
	data := readCapture(t, "ls-laR-mcp-sdk.txt")
	p := analyzeText(data, nil)
	rs := p.recs
	if rs == nil || !rs.colon || !rs.tabular() {
		t.Fatalf("records %+v: want directory blocks read as a table", rs)
	}
	type dir struct {
		name        string
		files, dirs int
		size        int
	}
	var dirs []*dir
	prevBlank := true
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch {
		case prevBlank && strings.HasSuffix(l, ":"):
			dirs = append(dirs, &dir{name: l})
		case strings.HasPrefix(l, "-") || strings.HasPrefix(l, "d"):
			d := dirs[len(dirs)-1]
			if l[0] == '-' {
				d.files++
			} else {
				d.dirs++
			}
			n, _ := strconv.Atoi(strings.Fields(l)[4])
			d.size += n
		}
		prevBlank = strings.TrimSpace(l) == ""
	}
	if rs.n != len(dirs) {
		t.Fatalf("%d records, %d directories", rs.n, len(dirs))
	}
	most, big, total := dirs[0], dirs[0], 0
	for _, d := range dirs {
		if d.files > most.files {
			most = d
		}
		if d.size > big.size {
			big = d
		}
		total += d.size
	}
	if u := rs.kinds["-r--r--r--"]; u == nil || u.maxRec != most.name || int(u.max) != most.files {
		t.Errorf("most files %+v, the lines say %s (%d)", u, most.name, most.files)
	}
	if u := rs.colMax[4]; u.maxRec != big.name || int(u.max) != big.size || int(u.total) != total {
		t.Errorf("largest sum %s %d of %d, the lines say %s %d of %d", u.maxRec, u.max, u.total, big.name, big.size, total)
	}
	byName := map[string]*dir{}
	for _, d := range dirs {
		byName[d.name] = d
	}
	out := fillText(t, data, 4000)
	n := 0
	for _, l := range strings.Split(out, "\n") {
		f := strings.SplitN(strings.TrimPrefix(l, "  "), "\t", 2)
		if len(f) != 2 || !strings.Contains(f[1], ": [") {
			continue
		}
		name := f[1][:strings.Index(f[1], " [")]
		d := byName[name]
		if d == nil {
			continue
		}
		n++
		want := "column 5: " + commas(d.size) + "]"
		if d.files > 0 && !strings.Contains(f[1], "-r--r--r-- "+strconv.Itoa(d.files)) || !strings.HasSuffix(f[1], want) {
			t.Errorf("index line %q: the lines say %d files, %s", l, d.files, want)
		}
	}
	if n < 20 {
		t.Errorf("%d directories in the index at 4,000 tokens:\n%s", n, out)
	}
	for _, s := range []string{`"-r--r--r--": 217 lines in 56 records, most 59 (in "./mcp:")`, "column 5: 3,042,514 in all, most 1,294,081 (in \"./mcp:\")"} {
		if !strings.Contains(out, s) {
			t.Errorf("the view lacks %q", s)
		}
	}
}

// TestFormTextIsInTheData checks that a record form is stated as a word
// of the data: the word itself when every record of the form has it
// (ldd's "linux-vdso.so.1", which the old code printed as
// "linux-vdso.so.0", a word in no line), else with <n> for its digits.
func TestFormTextIsInTheData(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 6; i++ {
		b.WriteString("/usr/bin/prog" + strconv.Itoa(i) + ":\n\tlinux-vdso.so.1 (0x00007ffd)\n\tlibc.so.6 => /lib/libc.so.6\n")
	}
	for i := 0; i < 4; i++ {
		b.WriteString("/usr/bin/tool" + strconv.Itoa(i) + ":\n\tlib" + strconv.Itoa(i) + ".so => /lib/x\n")
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.recs == nil {
		t.Fatal("no records")
	}
	line := p.recs.formLine()
	if !strings.Contains(line, `"linux-vdso.so.1" 6`) || !strings.Contains(line, `"lib<n>.so" 4`) || strings.Contains(line, "so.0") {
		t.Errorf("form line %q", line)
	}
}

// TestRecordLinesTies checks that the records with the most lines are
// all named when several have as many (ldd: 3 binaries with 70
// libraries; the old line named the first and said "first in").
func TestRecordLinesTies(t *testing.T) {
	text := "commit a\n x\n y\n\ncommit b\n x\n y\n z\n\ncommit c\n x\n y\n z\n\ncommit d\n x\n"
	p := analyzeText([]byte(text), nil)
	if p.recs == nil {
		t.Fatal("no records")
	}
	if l := p.recs.linesLine(); !strings.Contains(l, `most 4 (3 after the first line; in 2 records: "commit b", "commit c")`) {
		t.Errorf("lines line %q", l)
	}
}

// TestBigBlocksAreRecords checks that a text of a few big blank-line
// blocks (npm explain: a block per installed version) counts them as
// records, each with its lines, and names the biggest (heldout8
// FINDINGS R-c: "kind: text" with no record on the old code).
func TestBigBlocksAreRecords(t *testing.T) {
	var b strings.Builder
	sizes := []int{20, 300, 60}
	for k, n := range sizes {
		b.WriteString("semver@" + strconv.Itoa(7-k) + ".0.0\nnode_modules/semver\n")
		for i := 0; i < n; i++ {
			b.WriteString(strings.Repeat("  ", 1+i%3) + "semver@\"^" + strconv.Itoa(k) + "\" from pkg" + strconv.Itoa(i) + "\n")
		}
		b.WriteString("\n")
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.recs == nil || !p.recs.blocks || p.recs.n != 3 || p.records != 3 {
		t.Fatalf("records %+v", p.recs)
	}
	if l := p.recs.linesLine(); !strings.Contains(l, `most 302 (301 after the first line; first in "semver@6.0.0")`) {
		t.Errorf("lines line %q", l)
	}
	if l := p.indentLine(); l != "  indentation: deepest 6 spaces (first at line 4)" {
		t.Errorf("indentation line %q", l)
	}
}
