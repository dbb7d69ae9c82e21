package view

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// v8Like is a help text like node --v8-options: a preamble (a line of
// CPU features, the syntax lines, indented 2 and starting with "--"
// too, but with no deeper line after them), one blank line, a heading,
// then n options, each "  --name (description)" and "        type: T
// default: D"; every fifth description holds a severity word.
func v8Like(n int) []byte {
	var b strings.Builder
	b.WriteString("SSE3=1 SSSE3=1 AVX=1\nThe following syntax for options is accepted:\n")
	b.WriteString("  --flag        (bool flags only)\n  --no-flag     (bool flags only)\n  --flag=value  (non-bool flags only)\n\nOptions:\n")
	words := []string{"abort by crashing", "print an error stack", "warn about deprecated use", "fail silently on invalid usage", "trace the compiler"}
	for i := 0; i < n; i++ {
		desc := fmt.Sprintf("enable feature %d", i)
		if i%5 == 0 {
			desc = words[(i/5)%len(words)]
		}
		fmt.Fprintf(&b, "  --option-%d (%s)\n        type: bool  default: --no-option-%d\n", i, desc, i)
	}
	return []byte(b.String())
}

// TestLeadRecords checks a text of records led by their indentation
// inside one big blank-line block: the records are the options (not the
// two blocks, not the syntax lines of the preamble), counted as jq
// counts the lines of the lead form whose next line is deeper; the
// severity words of their descriptions make no error or warning line,
// and the severity queries the view prints find none either. On the
// old code the text was 2 blocks with error lines.
func TestLeadRecords(t *testing.T) {
	data := v8Like(60)
	p := analyzeText(data, nil)
	if p.recs == nil || p.recs.lead == nil {
		t.Fatalf("no records led by their indentation (recs %+v)", p.recs)
	}
	q := p.recs.headerQuery()
	heads := jqLines(t, data, q)
	if len(heads) != 60 || p.records != 60 {
		t.Fatalf("records %d, header query %d lines, want 60", p.records, len(heads))
	}
	for i, h := range heads {
		if want := fmt.Sprintf("--option-%d ", i); !strings.Contains(h.(string), want) {
			t.Errorf("header %d is %q, want the line of %q", i, h, want)
		}
	}
	if p.errors != 0 || p.warns != 0 {
		t.Errorf("error lines %d, warning lines %d: the descriptions' words are no levels", p.errors, p.warns)
	}
	if p.leadSev+p.nameSev != 10 || p.leadSev == 0 {
		t.Errorf("lines with a severity word in a description: %d (and %d in a table's name columns), want 10", p.leadSev, p.nameSev)
	}
	for _, sev := range []int{sevError, sevWarn} {
		if got := jqLines(t, data, p.severityQuery(sev)); len(got) != 0 {
			t.Errorf("severity query %d finds %d lines the view does not count: %q", sev, len(got), got)
		}
	}
	text := fillText(t, data, 2000)
	for _, want := range []string{
		`60 records (each a line indented 2 starting like "--x" whose next line is indented deeper`,
		"error lines: 0 (0 distinct); warning lines: 0 (0 distinct)",
		"records' first lines have a severity word in their description, not marking the line (not counted)",
		"--option-0 (abort by crashing) | type: bool  default: --no-option-0",
		"--option-59 (enable feature 59) | type: bool  default: --no-option-59",
		"SSE3=1 SSSE3=1 AVX=1", // the preamble, before the first record
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view at 2,000 tokens lacks %q:\n%s", want, text)
		}
	}
	// A marked line keeps its level.
	marked := append(data, []byte("  --bad-flag (error: no such flag)\n        type: bool\n")...)
	if p := analyzeText(marked, nil); p.errors != 1 {
		t.Errorf("a record's first line with \"error:\": %d error lines, want 1", p.errors)
	}
}

// gdbLike is a gdb "bt full": the signal, n frames at column 0 ("#N")
// each with its indented locals, then the registers and the shared
// libraries at column 0 (lines of the same indentation that start no
// record).
func gdbLike(n int) []byte {
	var b strings.Builder
	b.WriteString("[Thread debugging using libthread_db enabled]\n\nProgram received signal SIGSEGV, Segmentation fault.\n0x000055555555541a in parse (p=0x1) at crash.c:48\n48\t  obj->key = strdup(key);\n")
	for i := 0; i < n; i++ {
		fn := []string{"parse_value", "parse_array", "parse_object"}[i%3]
		if i == n-1 {
			fn = "main"
		}
		fmt.Fprintf(&b, "#%d  0x%016x in %s (p=0x7fffffffe640) at crash.c:%d\n", i, 0x5555555552eb+i, fn, 20+i%7)
		if i == n-1 {
			b.WriteString("        depth = 150\n")
			continue
		}
		for k := 0; k <= i%3; k++ {
			fmt.Fprintf(&b, "        local%d = %d\n", k, i*k)
		}
	}
	for _, r := range []string{"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "rip"} {
		fmt.Fprintf(&b, "%-14s 0x0                 0\n", r)
	}
	b.WriteString("From                To                  Syms Read   Shared Object Library\n0x00007ffff7fcb060  0x00007ffff7ff0111  Yes         /lib64/ld-linux-x86-64.so.2\n")
	return []byte(b.String())
}

// TestLeadRecordsFrames checks the frames of a backtrace inside one
// block: the records are the frames (not the registers at the same
// column), their count is jq's, the outermost frame with its local is
// shown, and so are the lines before the first frame (the signal).
func TestLeadRecordsFrames(t *testing.T) {
	data := gdbLike(40)
	p := analyzeText(data, nil)
	if p.recs == nil || p.recs.lead == nil || p.recs.lead.form != "#0" {
		t.Fatalf("frames not read as records (recs %+v)", p.recs)
	}
	n := runJQ(t, jqLines(t, data, `[.[] | select(test("^#[0-9]+ "))] | length`)[0], ".")[0].(int)
	if p.records != n || n != 40 || len(jqLines(t, data, p.recs.headerQuery())) != n {
		t.Errorf("records %d, jq %d frames, want 40", p.records, n)
	}
	text := fillText(t, data, 2000)
	for _, want := range []string{
		"40 records (each a line at column 0 starting like \"#N\"",
		"#39  0x",
		"in main (p=0x7fffffffe640) at crash.c:",
		" | depth = 150",
		"Program received signal SIGSEGV, Segmentation fault.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view at 2,000 tokens lacks %q:\n%s", want, text)
		}
	}
}

// TestNoBlankLineOffered checks that a text of records offers no blank
// line among the last lines no record shows (memcheck: 39 blank lines
// were "last lines"), and that the records whose first line starts with
// a rare word (the tool's banner, the command, the error kinds among
// 123 loss records that start with a number) are shown.
func TestNoBlankLineOffered(t *testing.T) {
	data := readCapture(t, "valgrind-memcheck-leak.txt")
	text := fillText(t, data, 4000)
	if m := regexp.MustCompile(`(?m)^  \d+\t\s*$`).FindAllString(text, -1); len(m) > 0 {
		t.Errorf("the view offers %d blank lines: %q", len(m), m)
	}
	for _, want := range []string{
		"Using Valgrind-3.19.0 and LibVEX",
		"Command: ./leak",
		"Invalid read of size 4 | at 0x10BF2F: checksum (leak.c:41)",
		"Conditional jump or move depends on uninitialised value(s) | at 0x10BF59: use_uninit (leak.c:48)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the view at 4,000 tokens lacks %q:\n%s", want, text)
		}
	}
}

// TestLeadLineWithNoDeeperLineCounts checks that a line of the lead
// form with no deeper line after it starts no record, so a severity word
// in it is the line's level: v8Like's options with "  --broken-flag has
// failed to parse" and "  --legacy-mode is deprecated" between them,
// each followed by a line at the records' indentation (second read M1:
// 8aba075 counted 0 error and 0 warning lines and called both "records'
// first lines"). The view's counts equal what its severity queries
// return, and the 10 real first lines with a severity word stay exempt.
func TestLeadLineWithNoDeeperLineCounts(t *testing.T) {
	data := v8Like(60)
	data = append(data, []byte("  --broken-flag has failed to parse and was ignored\n  --legacy-mode is deprecated, support ends in v9\n")...)
	for i := 60; i < 70; i++ {
		data = fmt.Appendf(data, "  --option-%d (enable feature %d)\n        type: bool  default: false\n", i, i)
	}
	p := analyzeText(data, nil)
	if p.recs == nil || p.recs.lead == nil {
		t.Fatalf("no records led by their indentation (recs %+v)", p.recs)
	}
	if n := len(jqLines(t, data, p.recs.headerQuery())); p.records != n || n != 70 {
		t.Errorf("records %d, header query %d, want 70", p.records, n)
	}
	if p.errors != 1 || p.warns != 1 {
		t.Errorf("error lines %d, warning lines %d, want 1 and 1", p.errors, p.warns)
	}
	if p.leadSev+p.nameSev != 10 {
		t.Errorf("first lines with a severity word in a description: %d (+%d in name columns), want 10", p.leadSev, p.nameSev)
	}
	for sev, want := range map[int]string{sevError: "--broken-flag", sevWarn: "--legacy-mode"} {
		got := jqLines(t, data, p.severityQuery(sev))
		if len(got) != 1 || !strings.Contains(got[0].(string), want) {
			t.Errorf("severity query %d returns %q, want the one line of %s", sev, got, want)
		}
	}
}
