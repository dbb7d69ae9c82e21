package view

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// policyLike is a text like apt-cache policy: n records, each a package
// name with ':' at column 0, its Installed and Candidate versions and a
// version table, indented.
func policyLike(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		cand := fmt.Sprintf("1.%d-2", i)
		if i%7 == 0 {
			cand = fmt.Sprintf("1.%d-3", i)
		}
		fmt.Fprintf(&b, "pkg-%03d:\n  Installed: 1.%d-2\n  Candidate: %s\n  Version table:\n *** 1.%d-2 500\n        500 http://deb.debian.org/debian bookworm/main amd64 Packages\n        100 /var/lib/dpkg/status\n", i, i, cand, i)
	}
	return []byte(b.String())
}

// TestRecordIndexByName checks the index of a text's records by name:
// one line per record in record order, its name and the values of the
// Key: value keys every record has, the one in the middle at 4,000
// tokens (an even spread of whole records showed 36 of 400 and missed
// it on the old code), each line's values those of the record's lines.
func TestRecordIndexByName(t *testing.T) {
	data := policyLike(400)
	text := fillText(t, data, 4000)
	if !strings.Contains(text, "index of the records by name, in record order (showing ") ||
		!strings.Contains(text, "line<TAB>name Installed; Candidate;") {
		t.Fatalf("no index of the records by name at 4,000 tokens:\n%s", text)
	}
	re := regexp.MustCompile(`(?m)^  (\d+)\t(pkg-\d+) (\S+); (\S+)$`)
	ms := re.FindAllStringSubmatch(text, -1)
	if len(ms) < 60 {
		t.Fatalf("the index lists %d records at 4,000 tokens, want 60 or more:\n%s", len(ms), text)
	}
	lines := strings.Split(string(data), "\n")
	for _, m := range ms {
		var pos int
		fmt.Sscan(m[1], &pos)
		if lines[pos] != m[2]+":" || lines[pos+1] != "  Installed: "+m[3] || lines[pos+2] != "  Candidate: "+m[4] {
			t.Errorf("index line %q does not state its record (lines %d-%d: %q)", m[0], pos, pos+2, lines[pos:pos+3])
		}
	}
	if !strings.Contains(text, "\tpkg-028 1.28-2; 1.28-3\n") {
		t.Errorf("the view at 4,000 tokens lacks record pkg-028 by name:\n%s", text)
	}
}

// TestRecordIndexColumns checks the index of records with no Key: value
// keys: the short columns of their first lines (a frame's function and
// file:line), not its address, not a column of one value.
func TestRecordIndexColumns(t *testing.T) {
	data := gdbLike(120)
	text := fillText(t, data, 8000)
	if !strings.Contains(text, "line<TAB>name column 4; column 7;") {
		t.Fatalf("no index of the frames by their function and location at 8,000 tokens:\n%s", text)
	}
	for _, want := range []string{"\t#61 parse_array; crash.c:", "\t#62 parse_object; crash.c:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the view at 8,000 tokens lacks %q:\n%s", want, text)
		}
	}
}

// TestZeroAttribute checks that an XML report's attributes failures="0"
// and errors="0" are zero phrases: no error line, and the view's error
// query finds none either; and that its suites are its records (a line
// indented once with deeper lines below it), each shown with its counts
// (the largest suite's time is what is asked).
func TestZeroAttribute(t *testing.T) {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"40\" failures=\"0\" errors=\"0\" time=\"1.5\">\n")
	for s := 0; s < 6; s++ {
		fmt.Fprintf(&b, "\t<testsuite tests=\"10\" failures=\"0\" time=\"0.%d\" name=\"pkg%d\">\n", s, s)
		for i := 0; i < 10; i++ {
			fmt.Fprintf(&b, "\t\t<testcase classname=\"pkg%d\" name=\"Test%d\" time=\"0.0%d\"></testcase>\n", s, i, i)
		}
		b.WriteString("\t</testsuite>\n")
	}
	b.WriteString("</testsuites>\n")
	data := []byte(b.String())
	p := analyzeText(data, nil)
	if p.errors != 0 {
		t.Errorf("%d error lines in a report of no failures", p.errors)
	}
	if got := jqLines(t, data, p.severityQuery(sevError)); len(got) != 0 {
		t.Errorf("the error query finds %q", got)
	}
	if p.recs == nil || p.recs.lead == nil || p.records != 6 {
		t.Errorf("records %d, want the 6 suites", p.records)
	}
	text := fillText(t, data, 2000)
	for s := 0; s < 6; s++ {
		if want := fmt.Sprintf("<testsuite tests=\"10\" failures=\"0\" time=\"0.%d\" name=\"pkg%d\"> [11 lines", s, s); !strings.Contains(text, want) {
			t.Errorf("the view at 2,000 tokens lacks %q:\n%s", want, text)
		}
	}
	if lineSeverity(`<testsuite tests="3" failures="2">`) != sevError {
		t.Error(`failures="2" is no longer an error line`)
	}
}

// TestRecordIndexRest checks that the index of records by name, when it
// shows some of its chunks, gives a query that returns exactly the
// records it does not list, in record order (final second read F3:
// "showing 20 of 120" and no way to the other 100 but a line slice). At
// several budgets: the names the query returns and the names listed are
// disjoint and together every record.
func TestRecordIndexRest(t *testing.T) {
	data := policyLike(400)
	all := jqLines(t, data, `.[] | select(test("^pkg-"))`)
	listed := regexp.MustCompile(`(?m)^  \d+\t(pkg-\d+) `)
	foot := regexp.MustCompile(`(?m)^the ([\d,]+) records not in this index, by their first lines: compact artifact query 0123456789ab --jq '(.*)'$`)
	checked := 0
	for _, budget := range []int{1500, 2500, 3500, 4000} {
		text := fillText(t, data, budget)
		m := foot.FindStringSubmatch(text)
		if m == nil {
			if !strings.Contains(text, "in record order (showing 400 of 400;") {
				t.Errorf("at %d tokens, no query for the records the index does not list:\n%s", budget, text)
			}
			continue
		}
		checked++
		seen := map[string]bool{}
		for _, l := range listed.FindAllStringSubmatch(text, -1) {
			seen[l[1]] = true
		}
		rest := jqLines(t, data, strings.ReplaceAll(m[2], `'\''`, `'`))
		if fmt.Sprint(len(rest)) != strings.ReplaceAll(m[1], ",", "") || len(rest)+len(seen) != len(all) {
			t.Errorf("at %d tokens: the index lists %d, the query returns %d (the head says %s), of %d records", budget, len(seen), len(rest), m[1], len(all))
		}
		for _, r := range rest {
			name := strings.TrimSuffix(strings.SplitN(r.(string), "\t", 2)[1], ":")
			if seen[name] {
				t.Errorf("at %d tokens the query returns %s, which the index lists", budget, name)
			}
		}
	}
	if checked < 2 {
		t.Errorf("the index showed only some records at %d budgets, want 2 or more", checked)
	}
}
