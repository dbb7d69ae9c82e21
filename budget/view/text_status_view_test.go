package view_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// termLines are the lines of data as a terminal shows them: colours
// removed, a cursor move forward by n columns as n spaces, the final CR
// dropped (an independent reading of the test's own, by regular
// expressions).
func termLines(data []byte) []string {
	move := regexp.MustCompile("\x1b\\[([0-9]*)C")
	other := regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		l = strings.TrimSuffix(l, "\r")
		l = move.ReplaceAllStringFunc(l, func(m string) string {
			n := 1
			fmt.Sscanf(m[2:len(m)-1], "%d", &n)
			return strings.Repeat(" ", n)
		})
		out = append(out, other.ReplaceAllString(l, ""))
	}
	return out
}

// TestStatusReportCounted: a report of status lines (rkhunter --check,
// testdata/rkhunter-check-tty.txt) is counted by status, exactly, in a
// line always shown; the lines of the rarer statuses (every Warning
// first) are shown whole with their positions, and its query of one
// status's lines yields exactly them; every other check is listed by
// its label on a line that starts with its status ("OK (125 lines; ...):
// ...; /usr/bin/curl; ..."). The counts are checked against the lines
// read here by a regular expression. On the old code the view had no
// count of any status (templates "<*> [ OK ]" at best) and showed the
// Warning lines only when they fell in the head or the tail.
func TestStatusReportCounted(t *testing.T) {
	data := readFile(t, "testdata/rkhunter-check-tty.txt")
	lines := termLines(data)
	status := regexp.MustCompile(`^(.*[^ ]) {2,}\[ ([A-Za-z ]+) \]$`)
	count := map[string]int{}
	label := map[string]string{}
	warn := map[int]string{}
	n := 0
	for i, l := range lines {
		m := status.FindStringSubmatch(strings.TrimRight(l, " "))
		if m == nil {
			continue
		}
		n++
		count[m[2]]++
		label[strings.Join(strings.Fields(m[1]), " ")] = m[2]
		if m[2] == "Warning" {
			warn[i] = l
		}
	}
	var names []string
	for s := range count {
		names = append(names, s)
	}
	sort.Slice(names, func(i, j int) bool { return count[names[i]] > count[names[j]] })
	var parts []string
	for _, s := range names {
		parts = append(parts, fmt.Sprintf("%s %d", s, count[s]))
	}
	want := fmt.Sprintf("): %d of %d non-blank lines, by status: %s\n", n, 263, strings.Join(parts, ", "))
	for _, b := range []int{2000, 4000, 8000} {
		text, _ := textViewAt(t, "rkhunter-check-tty.txt", b)
		if !strings.Contains(text, "\nstatus lines (") || !strings.Contains(text, want) {
			t.Fatalf("at %d: no status line %q:\n%s", b, want, text)
		}
		for i, l := range warn {
			if !strings.Contains(text, fmt.Sprintf("\n  %d\t%s\n", i, l)) {
				t.Errorf("at %d: the Warning line %d is not shown whole: %q", b, i, l)
			}
		}
		if b < 4000 {
			continue
		}
		// The labels listed by status stand beside their status.
		listed := 0
		for _, l := range strings.Split(text, "\n") {
			m := regexp.MustCompile(`^  ([A-Za-z ]+) \(\d+ lines; [\d,]+-[\d,]+, lines \d+-\d+\): (.*)$`).FindStringSubmatch(l)
			if m == nil {
				continue
			}
			for _, lb := range strings.Split(m[2], "; ") {
				if label[lb] != m[1] {
					t.Errorf("at %d: %q listed under %s, its status is %q", b, lb, m[1], label[lb])
				}
				listed++
			}
		}
		if listed < 100 {
			t.Errorf("at %d: %d labels listed by status", b, listed)
		}
		// The query of the Warning lines yields exactly them.
		var q string
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "every line of one status (here Warning): ") {
				q = l[strings.Index(l, "--jq '")+6 : len(l)-1]
			}
		}
		if q == "" {
			t.Fatalf("at %d: no query of one status's lines:\n%s", b, text)
		}
		var raw []string
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			raw = append(raw, strings.TrimSuffix(l, "\r"))
		}
		got := runLinesQuery(t, q, raw)
		if len(got) != len(warn) {
			t.Fatalf("at %d: the query yields %d lines, want %d: %q", b, len(got), len(warn), got)
		}
		for _, g := range got {
			var i int
			fmt.Sscanf(g, "%d", &i)
			if g != fmt.Sprintf("%d\t%s", i, warn[i]) {
				t.Errorf("at %d: the query yields %q, want %q", b, g, warn[i])
			}
		}
	}
}

// TestStatusNotReadInDiagnostics: a type checker's diagnostics whose
// messages end in a code in brackets (mypy --strict --pretty,
// testdata/mypy-strict-pretty-aptsources.txt: "...  [no-untyped-def]")
// are no report of status lines: the code follows two blanks only where
// the message wrapped before it, so a count of such lines is partial.
// Any count the view states by status or by code must equal the count
// of lines ending in that code in brackets, whatever comes before it,
// and every such line is counted by its code; on the old code the view
// said "no-untyped-call 6" (36 lines end in it) and "arg-type 16" (17)
// as whole counts (rev17 R4). A '[' right after a name opens a type's
// parameters, no code (rev18 R11).
func TestStatusNotReadInDiagnostics(t *testing.T) {
	data := readFile(t, "testdata/mypy-strict-pretty-aptsources.txt")
	code := regexp.MustCompile(`\[\s*([a-z-]+)\s*\]\s*$`)
	count := map[string]int{}
	for _, l := range strings.Split(string(data), "\n") {
		if m := code.FindStringSubmatch(l); m != nil {
			count[m[1]]++
		}
	}
	if count["no-untyped-call"] != 36 {
		t.Fatalf("the capture has %d lines ending in [no-untyped-call], want 36", count["no-untyped-call"])
	}
	part := regexp.MustCompile(`^([a-z-]+) ([\d,]+)$`)
	for _, b := range []int{2000, 4000, 8000} {
		text, _ := textViewAt(t, "mypy-strict-pretty-aptsources.txt", b)
		if !strings.Contains(text, "\ncodes in brackets at the end of a line (") || !strings.Contains(text, " no-untyped-call 36, ") {
			t.Errorf("at %d: no line of the codes, every line counted:\n%s", b, text)
		}
		for _, l := range strings.Split(text, "\n") {
			sep := " by status: "
			if strings.HasPrefix(l, "codes in brackets") {
				sep = " by code: "
			}
			i := strings.Index(l, sep)
			if !strings.HasPrefix(l, "status lines (") && !strings.HasPrefix(l, "codes in brackets") || i < 0 {
				continue
			}
			for _, p := range strings.Split(l[i+len(sep):], ", ") {
				m := part.FindStringSubmatch(p)
				if m == nil {
					if sep == " by code: " {
						// "ModuleSpec 1": line 344 ends "-> Optional[ModuleSpec]",
						// a type's parameter, no code (rev18 R11).
						t.Errorf("at %d: %q is no count of a code in brackets", b, p)
					}
					continue
				}
				if want := fmt.Sprint(count[m[1]]); strings.ReplaceAll(m[2], ",", "") != want {
					t.Errorf("at %d: the view counts %s %s lines, %s lines end in [%s]", b, m[1], m[2], want, m[1])
				}
			}
		}
	}
}

// TestTypeParameterIsNoCode: mypy --pretty prints a diagnostic's source
// line under it, and a line of source may end in a type's parameters in
// brackets ("-> Optional[ModuleSpec]"). That is no code: the codes line
// counts only brackets that open the line or follow a blank. On the old
// code it said "ModuleSpec 1" among the codes (rev18 R11).
func TestTypeParameterIsNoCode(t *testing.T) {
	data := readFile(t, "testdata/mypy-strict-pretty-aptsources.txt")
	lines := strings.SplitAfter(string(data), "\n")
	src := "        def find_spec(self, fullname, path, target=None) -> Optional[ModuleSpec]\n"
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i == 40 {
			b.WriteString(src)
		}
	}
	v, _ := viewOfData(t, []byte(b.String()))
	text := fillAt(t, v, 8000).Text
	i := strings.Index(text, "codes in brackets at the end of a line (")
	if i < 0 {
		t.Fatalf("no line of the codes:\n%s", text)
	}
	codes := text[i:]
	codes = codes[:strings.IndexAny(codes, ";\n")]
	if strings.Contains(codes, "ModuleSpec") || !strings.Contains(codes, "no-untyped-call 36") {
		t.Errorf("the codes line counts a type's parameter as a code: %s", codes)
	}
}
