package view_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// jobsLike is a benchmark's report of 7 jobs (fio's): each job a record
// with a number as its identity (ctx), its name, and 60 measures, most
// of them 0 in the jobs that do not read (or write), the others each the
// job's own.
func jobsLike() []byte {
	names := []string{"seq-read", "seq-write", "rand-read", "rand-write", "fsync", "mix", "mix-2"}
	var b strings.Builder
	b.WriteString(`{"jobs":[`)
	for i, name := range names {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"ctx":%d,"jobname":%q`, 400+i*97, name)
		for _, dir := range []string{"read", "write"} {
			fmt.Fprintf(&b, `,%q:{`, dir)
			for j := range 30 {
				if j > 0 {
					b.WriteString(",")
				}
				x := 0
				if dir == "read" && i%2 == 0 || dir == "write" && i%2 == 1 {
					x = 1000 + i*7919 + j*131
				}
				fmt.Fprintf(&b, `"m%02d":%d`, j, x)
			}
			b.WriteString("}")
		}
		b.WriteString("}")
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// TestProfileNamesHolderInFewRecords: in a collection of a few records
// with more fields than its rows show (7 jobs of 61 fields), a profile
// line states a value only one record holds with that record's name
// ("read.m03 (...): 0 3, 1393 (seq-read), ..."), as jq gives it: what is
// rand-read's read.m03 is answered by the line. On the old code the
// value was followed by its count, 1.
func TestProfileNamesHolderInFewRecords(t *testing.T) {
	v, data := viewOfData(t, jobsLike())
	f := fillAt(t, v, 4000)
	line := regexp.MustCompile(`\n  read\.m03 \([^\n]*`).FindString(f.Text)
	if line == "" {
		t.Fatalf("no profile line of read.m03:\n%s", f.Text)
	}
	for _, name := range []string{"seq-read", "rand-read", "fsync"} {
		want := fmt.Sprintf("%v (%s)", jq(t, data, fmt.Sprintf(`.jobs[] | select(.jobname == %q) | .read.m03`, name))[0], name)
		if !strings.Contains(line, want) {
			t.Errorf("read.m03's line %q does not say %q", line, want)
		}
	}
	if !strings.Contains(line, ": 0 3, ") {
		t.Errorf("read.m03's line %q does not count the 3 jobs at 0", line)
	}
}
