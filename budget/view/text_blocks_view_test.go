package view_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestBracedRecordsSummed: gdb's ptype /o of 153 structs and unions
// (testdata/gdb-ptype-o-glibc-structs.txt: each a "/* offset | size */
// type = struct X {" line, its members with their offsets at column 0,
// nested structs, a "/* total size (bytes): N */" line and a closing
// "}") is read as 153 braced records named "struct X", and the total
// size of each record (its own, not a nested struct's, read here as the
// line at the record's indentation) is summed, with the largest named;
// the query of every record's first line yields the 153 headers. On the
// old code the text was "261 records (blank-line-separated paragraphs)"
// (a blank line sits before each total size), with no total size and no
// largest struct.
func TestBracedRecordsSummed(t *testing.T) {
	data := readFile(t, "testdata/gdb-ptype-o-glibc-structs.txt")
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	head := regexp.MustCompile(`^/\* offset +\| +size \*/  type = ((struct|union) [A-Za-z_0-9]+) \{$`)
	total := regexp.MustCompile(`^ {31}/\* total size \(bytes\): +(\d+) \*/$`)
	var heads []string
	sum, most, mostName, name := 0, 0, "", ""
	for i, l := range lines {
		if m := head.FindStringSubmatch(l); m != nil {
			heads = append(heads, fmt.Sprintf("%d\t%s", i, l))
			name = m[1]
		}
		if m := total.FindStringSubmatch(l); m != nil {
			v, _ := strconv.Atoi(m[1])
			sum += v
			if v > most {
				most, mostName = v, name
			}
		}
	}
	if len(heads) != 153 {
		t.Fatalf("%d headers read", len(heads))
	}
	want := fmt.Sprintf("  total size (bytes) (numbers, in %d records): sum %d, ", len(heads), sum)
	wantMax := fmt.Sprintf("max %d (in %q)", most, mostName)
	for _, b := range []int{2000, 4000, 8000} {
		text, _ := textViewAt(t, "gdb-ptype-o-glibc-structs.txt", b)
		if !strings.Contains(text, fmt.Sprintf("; %d records (each a line ending with \"{\" at depth 0", len(heads))) {
			t.Fatalf("at %d: not read as %d braced records:\n%s", b, len(heads), text)
		}
		var line string
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "  total size (bytes) (") {
				line = l
			}
		}
		if !strings.HasPrefix(line, want) || !strings.Contains(line, wantMax) {
			t.Errorf("at %d: total size line %q, want %q...%q", b, line, want, wantMax)
		}
		if b == 2000 {
			var q string
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(l, "every record's first line: ") {
					q = l[strings.Index(l, "--jq '")+6 : len(l)-1]
				}
			}
			if q == "" {
				t.Fatalf("no query of the records' first lines:\n%s", text)
			}
			got := runLinesQuery(t, q, lines)
			if strings.Join(got, "\n") != strings.Join(heads, "\n") {
				t.Errorf("the query of the first lines yields %d lines, want the %d headers", len(got), len(heads))
			}
		}
	}
}

// TestLeadRecordsByWord: dumpe2fs (testdata/dumpe2fs-ext4-1k-blocks.txt:
// 55 "Key:  value" lines of the superblock at column 0, then 75 block
// groups, each a "Group N: (Blocks a-b) ..." line at column 0 and its
// indented lines) is read as the 75 groups, told from the superblock's
// lines at the same column by their first word; each group's "8192
// free blocks, 512 free inodes, 0 directories" is summed over the
// groups (checked against the lines), and the index lists the groups by
// name with their free blocks. On the old code the text was 2
// blank-line blocks of 55 and 543 lines.
func TestLeadRecordsByWord(t *testing.T) {
	data := readFile(t, "testdata/dumpe2fs-ext4-1k-blocks.txt")
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	counts := regexp.MustCompile(`^  (\d+) free blocks, (\d+) free inodes, (\d+) directories`)
	groups, free, dirs := 0, 0, 0
	freeOf := map[string]int{}
	cur := ""
	for _, l := range lines {
		if regexp.MustCompile(`^Group \d+: `).MatchString(l) {
			groups++
			cur = l[:strings.Index(l, ":")]
		}
		if m := counts.FindStringSubmatch(l); m != nil {
			f, _ := strconv.Atoi(m[1])
			d, _ := strconv.Atoi(m[3])
			free += f
			dirs += d
			freeOf[cur] = f
		}
	}
	text, _ := textViewAt(t, "dumpe2fs-ext4-1k-blocks.txt", 8000)
	if !strings.Contains(text, fmt.Sprintf("; %d records (each a line at column 0 starting with \"Group\"", groups)) {
		t.Fatalf("not read as %d groups:\n%s", groups, text)
	}
	for _, w := range []string{
		fmt.Sprintf("\n  free blocks (numbers, in %d records): sum %d, ", groups, free),
		fmt.Sprintf("\n  directories (numbers, in %d records): sum %d;", groups, dirs),
	} {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in the view:\n%s", w, text)
		}
	}
	indexed := 0
	for _, l := range strings.Split(text, "\n") {
		m := regexp.MustCompile(`^  \d+\t(Group \d+) (\d+); \d+$`).FindStringSubmatch(l)
		if m == nil {
			continue
		}
		indexed++
		if f, _ := strconv.Atoi(m[2]); f != freeOf[m[1]] {
			t.Errorf("index line %q: free blocks %d", l, freeOf[m[1]])
		}
	}
	if indexed != groups {
		t.Errorf("%d groups in the index, want %d", indexed, groups)
	}
}
