package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// duLike is du -ah of a tree of 60 packages of 40 files, each package's
// directory after its files, then more.
func duLike(more string) string {
	var b strings.Builder
	for d := 0; d < 60; d++ {
		for f := 0; f < 40; f++ {
			fmt.Fprintf(&b, "%dK\tnode_modules/pkg%02d/lib/file%02d.js\n", 4+(d*f)%97, d, f)
		}
		fmt.Fprintf(&b, "%dK\tnode_modules/pkg%02d/lib\n", 100+d, d)
		fmt.Fprintf(&b, "%dM\tnode_modules/pkg%02d\n", 1+d%9, d)
	}
	return b.String() + more
}

// Each line of the shallowest rows' listing is a candidate the fill may
// leave out, so each must say which of the listed rows it holds: a cut
// listing then shows where it ends, and the lines together list exactly
// the count the head states (the review found a head of "209 of 4,759
// rows" over 50 listed rows at 2,000 tokens).
func TestShallowListingLinesSayWhichRows(t *testing.T) {
	p := analyzeText([]byte(duLike("")+"99M\tnode_modules\n"), nil)
	if p.cols == nil {
		t.Fatal("no table")
	}
	var lines []string
	for i := range p.cols.cols {
		if l := p.cols.shallowLines(i); l != nil {
			lines = l
		}
	}
	if len(lines) < 3 {
		t.Fatalf("no listing of the shallowest rows: %q", lines)
	}
	head := regexp.MustCompile(`\(depths? [0-9-]+: ([0-9,]+) of [0-9,]+ rows; each line says which of them it lists\)`).FindStringSubmatch(lines[0])
	if head == nil {
		t.Fatalf("head %q does not state its rows and that each line says which it lists", lines[0])
	}
	total, _ := strconv.Atoi(strings.ReplaceAll(head[1], ",", ""))
	rng := regexp.MustCompile(`^    \[([0-9,]+)-([0-9,]+) of ([0-9,]+)\] (.*)$`)
	next := 1
	for _, l := range lines[1:] {
		m := rng.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("listing line %q does not say which rows it lists", l)
		}
		a, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		z, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
		n, _ := strconv.Atoi(strings.ReplaceAll(m[3], ",", ""))
		if a != next || n != total {
			t.Errorf("line %q: want rows from %d of %d", l, next, total)
		}
		if items := len(strings.Split(m[4], "; ")); items != z-a+1 {
			t.Errorf("line %q says rows %d-%d, lists %d", l, a, z, items)
		}
		next = z + 1
	}
	if next != total+1 {
		t.Errorf("the lines list rows 1-%d, the head says %d", next-1, total)
	}
}

// TestShallowListingRest checks that when the fill lists only some of
// the shallowest rows, the view gives a query that returns exactly the
// others (final second read F5: du -ah of python3 at 2,000 tokens listed
// 50 of 209 rows and gave no query for the 159). The input is du -ah of
// a tree of 60 packages with one link: the query's rows and the listed
// rows are disjoint and together the head's count, at 1,000-8,000 tokens.
func TestShallowListingRest(t *testing.T) {
	data := []byte(duLike("0\tnode_modules/.bin -> ../bin\n99M\tnode_modules\n"))
	head := regexp.MustCompile(`\(depths? [0-9-]+: ([0-9,]+) of [0-9,]+ rows;`)
	item := regexp.MustCompile(`(?m)^    \[[0-9,]+-[0-9,]+ of [0-9,]+\] (.*)$`)
	foot := regexp.MustCompile(`(?m)^the ([0-9,]+) rows of the shallowest paths \(column 2\) not listed below: compact artifact query 0123456789ab --jq '(.*)'$`)
	cut := 0
	for _, budget := range []int{1000, 1500, 2000, 4000, 8000} {
		text := fillText(t, data, budget)
		h := head.FindStringSubmatch(text)
		if h == nil {
			continue // no listing at this budget
		}
		total, _ := strconv.Atoi(strings.ReplaceAll(h[1], ",", ""))
		listed := map[string]bool{}
		for _, m := range item.FindAllStringSubmatch(text, -1) {
			for _, it := range strings.Split(m[1], "; ") {
				listed[strings.Fields(it)[0]] = true
			}
		}
		f := foot.FindStringSubmatch(text)
		if f == nil {
			if len(listed) != total {
				t.Errorf("at %d tokens the listing shows %d of %d rows and gives no query for the rest", budget, len(listed), total)
			}
			continue
		}
		cut++
		rest := jqLines(t, data, strings.ReplaceAll(f[2], `'\''`, `'`))
		if n, _ := strconv.Atoi(strings.ReplaceAll(f[1], ",", "")); n != len(rest) || len(rest)+len(listed) != total {
			t.Errorf("at %d tokens: %d listed, the query returns %d (its line says %s), the head %d", budget, len(listed), len(rest), f[1], total)
		}
		for _, r := range rest {
			path := strings.SplitN(r.(string), "\t", 3)[2]
			if listed[path] {
				t.Errorf("at %d tokens the query returns %q, which is listed", budget, path)
			}
		}
	}
	if cut == 0 {
		t.Error("no budget lists only some of the shallowest rows")
	}
}
