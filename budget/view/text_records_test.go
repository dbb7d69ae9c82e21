package view

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestTextRecordHeaders checks records that are blank-line-separated
// blocks starting with the same kind of line (a commit of git log, a
// session of apt's term.log): the record count is the count of those
// lines (jq), each of which starts a block, the view states it and shows
// the first and the last header; and the Key: value lines of such a text
// are profiled by key, every count checked against jq.
func TestTextRecordHeaders(t *testing.T) {
	data := readCapture(t, "git-log-fuller-go-sdk.txt")
	p := analyzeText(data, nil)
	if p.headKey != "commit " {
		t.Fatalf("header key %q, want %q", p.headKey, "commit ")
	}
	n := runJQ(t, jqLines(t, data, `[.[] | select(startswith("commit "))] | length`)[0], ".")[0].(int)
	atStart := runJQ(t, jqLines(t, data, `. as $l | [range(0; length) | select($l[.] | startswith("commit ")) | select(. == 0 or ($l[. - 1] | test("^\\s*$")))] | length`)[0], ".")[0].(int)
	if p.records != n || atStart != n {
		t.Errorf("records %d; jq: %d commit lines, %d of them start a block", p.records, n, atStart)
	}
	if !p.loose {
		t.Fatal("Key: value lines of a git log are not profiled")
	}
	keys := map[string]bool{}
	for _, f := range p.fields {
		keys[f.name] = true
		re := regexp.MustCompile(`^` + regexp.QuoteMeta(f.name) + `:[ \t]*(.*?)[ \t]*$`)
		var vals []string
		textLines(data, func(_ int, l string) {
			if m := re.FindStringSubmatch(l); m != nil {
				vals = append(vals, m[1])
			}
		})
		if len(vals) != f.present {
			t.Errorf("key %s: %d lines, want %d", f.name, f.present, len(vals))
		}
		if f.values != nil {
			for v, c := range f.values {
				k := 0
				for _, x := range vals {
					if x == v {
						k++
					}
				}
				if k != c {
					t.Errorf("key %s value %q: %d lines, want %d", f.name, v, c, k)
				}
			}
		}
	}
	for _, k := range []string{"Author", "AuthorDate", "Commit", "CommitDate", "Merge"} {
		if !keys[k] {
			t.Errorf("key %s not profiled (have %v)", k, keys)
		}
	}
	text := fillText(t, data, 2000)
	for _, want := range []string{
		`75 records (blank-line-separated blocks, each starting with a line "commit …")`,
		`Author (75 lines): 13 distinct values; "Person 06 <person-06@example.invalid>" 29`,
		"\n  0\tcommit de6f8ac95721dff6cf8f5fdca26887699a53b3e9\n",
		"\tcommit ec36702d7cc7b8882fca4d004979bc4cee187217\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view at 2,000 tokens lacks %q:\n%s", want, text)
		}
	}
}

// TestHeaderKey checks which lines name a record's kind, and that a
// text whose blocks start differently has none.
func TestHeaderKey(t *testing.T) {
	for line, want := range map[string]string{
		"commit 4c776c00747bccb86e5b84f76f77975c885bbaf1": "commit ",
		"Log started: 2025-06-24  14:36:25":               "Log started: ",
		"Log ended: 2025-06-24  14:36:25":                 "Log ended: ",
		"2025-06-24 14:36:25 status installed":            "",
		"    indented":                                    "",
		"commit":                                          "",
		"Package: bash":                                   "Package: ",
	} {
		if got := headerKey(line); got != want {
			t.Errorf("headerKey(%q) = %q, want %q", line, got, want)
		}
	}
	var b strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "\nLog started: 2025-06-2%d  14:36:25\nSetting up a (1) ...\nLog ended: 2025-06-2%d  14:37:00\n", i, i)
	}
	if k := detectHeaderKey([]byte(b.String()), textPlain); k != "Log started: " {
		t.Errorf("sessions: key %q", k)
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.records != 5 || !strings.Contains(p.recordUnit, `"Log started: …"`) {
		t.Errorf("sessions: %d %s", p.records, p.recordUnit)
	}
	// The first line's kind recurs, but not at the start of blocks.
	if k := detectHeaderKey([]byte("x: 1\nx: 2\n\ny 3\nx: 4\nx: 5\n"), textPlain); k != "" {
		t.Errorf("no headers: key %q", k)
	}
}
