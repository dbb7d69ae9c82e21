package view

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

// textCaptures are the captured text outputs and the kind each must be
// detected as.
var textCaptures = map[string]string{
	"dpkg-log.txt":              textLog,
	"dpkg-status.txt":           textFields,
	"apt-history.txt":           textFields,
	"apt-cache-show.txt":        textFields,
	"apt-list-installed.txt":    textPlain,
	"find-usr-share-doc.txt":    textPlain,
	"go-build-fail.txt":         textPlain,
	"npm-install-fail.txt":      textPlain,
	"man-bash.txt":              textBlocks,
	"go-doc-net-http.txt":       textBlocks,
	"ls-l-usr-bin.txt":          textPlain,
	"git-log-fuller-go-sdk.txt": textBlocks,
	"go-nm-nmprog.txt":          textPlain,
}

// jqLines runs a jq filter on the lines of data as compact artifact query
// reads text (an array of the lines) and returns its outputs.
func jqLines(t *testing.T, data []byte, filter string) []any {
	t.Helper()
	var lines []any
	textLines(data, func(_ int, l string) { lines = append(lines, l) })
	if lines == nil {
		lines = []any{}
	}
	return runJQ(t, lines, filter)
}

func runJQ(t *testing.T, input any, filter string) []any {
	t.Helper()
	q, err := gojq.Parse(filter)
	if err != nil {
		t.Fatalf("%s: %v", filter, err)
	}
	it := q.Run(input)
	var out []any
	for {
		v, ok := it.Next()
		if !ok {
			return out
		}
		if err, ok := v.(error); ok {
			t.Fatalf("%s: %v", filter, err)
		}
		out = append(out, v)
	}
}

// TestTextKinds checks the kind each captured text is detected as, and
// small texts of each kind.
func TestTextKinds(t *testing.T) {
	for name, want := range textCaptures {
		if got := detectTextKind(readCapture(t, name)); got != want {
			t.Errorf("%s: kind %q, want %q", name, got, want)
		}
	}
	small := map[string]string{
		"=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n    b_test.go:3: no\n--- FAIL: TestB (0.00s)\nFAIL\nFAIL\texample.com/x\t0.002s\n": textGoTest,
		"1..3\nok 1 - a\nnot ok 2 - b\n  ---\n  message: bad\n  ...\nok 3 - c\n":                                                                       textTAP,
		"Nov 25 14:57:27 host sshd[1]: a\nNov 25 14:57:28 host sshd[1]: b\n":                                                                           textLog,
		"I1125 14:57:27.123456 1 main.go:1] a\nE1125 14:57:28.000001 1 main.go:2] b\n":                                                                 textLog,
		"a: 1\nb: 2\n\na: 3\nb: 4\n\na: 5\nb: 6\n":                                                                                                     textFields,
		"./a.go:1:2: undefined: x\n./a.go:3:4: undefined: y\n":                                                                                         textCompile,
		"":         textPlain,
		"\n\n  \n": textPlain,
	}
	for in, want := range small {
		if got := detectTextKind([]byte(in)); got != want {
			t.Errorf("%q: kind %q, want %q", in, got, want)
		}
	}
}

// TestTextProfileCounts checks every count the text view states against
// an independent count: jq (gojq) over the lines for lines, blank lines,
// error and warning lines (the very query the view prints), regular
// expressions for records and fields.
func TestTextProfileCounts(t *testing.T) {
	blankRe := regexp.MustCompile(`^\s*$`)
	for name, kind := range textCaptures {
		t.Run(name, func(t *testing.T) {
			data := readCapture(t, name)
			p := analyzeText(data, nil)
			if n := runJQ(t, len(jqLines(t, data, ".[]")), "."); n[0].(int) != p.lines {
				t.Errorf("lines: %d, jq length %d", p.lines, n[0])
			}
			if p.lines != countLines(data) {
				t.Errorf("lines: %d, DetectShape counts %d", p.lines, countLines(data))
			}
			blank := 0
			textLines(data, func(_ int, l string) {
				if blankRe.MatchString(l) {
					blank++
				}
			})
			if blank != p.blank {
				t.Errorf("blank lines: %d, want %d", p.blank, blank)
			}
			if got := len(jqLines(t, data, p.severityQuery(sevError))); got != p.errors {
				t.Errorf("error lines: profile %d, the view's jq query %d", p.errors, got)
			}
			if got := len(jqLines(t, data, p.severityQuery(sevWarn))); got != p.warns {
				t.Errorf("warning lines: profile %d, the view's jq query %d", p.warns, got)
			}
			sum := 0
			for _, nb := range p.notables {
				sum += nb.count
			}
			if sum+p.notableCut != p.errors+p.warns {
				t.Errorf("distinct error/warning lines count %d lines, want %d", sum+p.notableCut, p.errors+p.warns)
			}
			sum = p.miner.other
			for _, c := range p.miner.clusters {
				sum += c.count
			}
			if sum != p.lines-p.blank {
				t.Errorf("templates count %d lines, want the %d non-blank lines", sum, p.lines-p.blank)
			}
			if kind == textFields {
				blocks := 0
				for _, b := range regexp.MustCompile(`\n[ \t]*\n`).Split(string(data), -1) {
					if strings.TrimSpace(b) != "" {
						blocks++
					}
				}
				if blocks != p.records {
					t.Errorf("records: %d, want %d blocks", p.records, blocks)
				}
				// Every field: present count and, for numbers, the sum.
				for _, f := range p.fields {
					re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(f.name) + `:[ \t]*(.*?)[ \t\r]*$`)
					ms := re.FindAllStringSubmatch(string(data), -1)
					if len(ms) != f.present {
						t.Errorf("field %s: present %d, want %d", f.name, f.present, len(ms))
					}
					if f.numeric == f.present {
						var s int64
						for _, m := range ms {
							x, _ := strconv.ParseInt(m[1], 10, 64)
							s += x
						}
						if s != f.sum {
							t.Errorf("field %s: sum %d, want %d", f.name, f.sum, s)
						}
					}
				}
			}
		})
	}
}

// TestGoTestJSONCounts checks the go test -json summary against jq over
// the decoded events.
func TestGoTestJSONCounts(t *testing.T) {
	data := readCapture(t, "go-test-json.jsonl")
	if !isGoTestJSON(data) {
		t.Fatal("go-test-json.jsonl is not recognised as go test -json")
	}
	s := analyzeGoTestJSON(data)
	var events []any
	textLines(data, func(_ int, l string) {
		var v any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		events = append(events, v)
	})
	count := func(filter string) int { return runJQ(t, events, filter)[0].(int) }
	for _, c := range []struct {
		name   string
		got    int
		filter string
	}{
		{"events", s.events, "length"},
		{"packages passed", s.pkgPass, `[.[] | select(.Action == "pass" and (.Test | not))] | length`},
		{"packages failed", s.pkgFail, `[.[] | select(.Action == "fail" and (.Test | not))] | length`},
		{"tests passed", s.testPass, `[.[] | select(.Action == "pass" and .Test)] | length`},
		{"tests failed", s.testFail, `[.[] | select(.Action == "fail" and .Test)] | length`},
		{"tests skipped", s.testSkip, `[.[] | select(.Action == "skip" and .Test)] | length`},
		{"build failures", s.buildFails, `[.[] | select(.Action == "build-fail")] | length`},
		{"failed tests listed", len(s.failed), `[.[] | select(.Action == "fail" and .Test)] | length`},
	} {
		if want := count(c.filter); c.got != want {
			t.Errorf("%s: %d, jq %s says %d", c.name, c.got, c.filter, want)
		}
	}
	if s.testFail == 0 || s.pkgFail == 0 || s.buildFails == 0 {
		t.Fatalf("the capture should hold failed tests, packages and a build failure: %+v", s)
	}
	// The failed tests' own messages are kept.
	var found bool
	for _, f := range s.failed {
		for _, o := range f.output {
			if strings.Contains(o, "discount rounding: got 1999 cents, want 2000 cents") {
				found = true
			}
		}
	}
	if !found {
		t.Error("TestDiscountRounding's error message is not among its output")
	}
}

// TestLineSeverity pins the classification on lines of real tools.
func TestLineSeverity(t *testing.T) {
	cases := map[string]int{
		"orders/notify.go:5:9: undefined: sendMail":                 sevError,
		"npm ERR! code E404":                                        sevError,
		"npm error code 1":                                          sevError,
		"E: Unable to locate package foo":                           sevError,
		"E1125 14:57:28.000001 1 main.go:2] boom":                   sevError,
		"panic: assignment to entry in nil map":                     sevError,
		"--- FAIL: TestX (0.00s)":                                   sevError,
		"FAIL\texample.com/x\t0.002s":                               sevError,
		"Traceback (most recent call last):":                        sevError,
		"ValueError: invalid literal":                               sevError,
		"error[E0308]: mismatched types":                            sevError,
		"make: *** [all] Error 2":                                   sevError,
		"Process exited with code 137":                              sevError,
		"npm warn deprecated inflight@1.0.6: not supported":         sevWarn,
		"W1125 14:57:28.000001 1 main.go:2] slow":                   sevWarn,
		"warning: unused variable":                                  sevWarn,
		"Found 0 errors.":                                           sevNone,
		"Tests: 12 passed, 0 failed":                                sevNone,
		"err=nil status=200":                                        sevNone,
		"2026-05-09 07:29:12 install libgpg-error-dev:amd64 1.46-1": sevNone,
		"--- PASS: TestParseError (0.00s)":                          sevNone,
		"status installed libc-bin:amd64 2.36-9":                    sevNone,
		"":                                                          sevNone,
		" error.go      | 22 ++++++++++++++--------":                sevNone,
		"-rw-r--r--  1 root root  3101 2026-08-28 16:20 errors.go":  sevNone,
		"drwxr-xr-x 2 root root 4096 fail.d":                        sevNone,
		"open failed.":                                              sevError,
		"build failed. See the log":                                 sevError,
		"warning. disk almost full":                                 sevWarn,
		// A severity word glued to a name is part of the name (go tool
		// nm symbols); one that starts its token, after opening
		// punctuation or a key, is a level.
		"  5fad20         32 R go:itab.*os.SyscallError,error": sevNone,
		"  5fad40         32 R sync..dict.OnceValue[error]":    sevNone,
		"ls: cannot open /var/log/error":                       sevNone,
		"time=10:00 level=error msg=\"db down\"":               sevError,
		`{"level":"error","msg":"db down"}`:                    sevError,
		"[2026-01-02 10:00:00][ERROR] db down":                 sevError,
		"***ERROR*** db down":                                  sevError,
		"2026/01/02 10:00:00 [error] 12#0: connect() failed":   sevError,
		"[WARN] slow": sevWarn,
		// After a compiler's location prefix, the next word is the level.
		"kilo.c:536:7: warning: unused variable 'x' [-Wunused-variable]": sevWarn,
		"kilo.c:597:3: note: declared here":                              sevNone,
		"kilo.c:628:1: error: expected ';' before '}' token":             sevError,
		"kilo.c:12:1: fatal error: foo.h: No such file or directory":     sevError,
	}
	for line, want := range cases {
		if got := lineSeverity(line); got != want {
			t.Errorf("%q: severity %d, want %d", line, got, want)
		}
	}
}

// FuzzTextProfile checks the profile's invariants on any input: lines
// as compact counts them, templates and notable lines account for every
// line, the view fits and never panics; and lineSeverity's cheap
// pre-test never hides a line the patterns match.
func FuzzTextProfile(f *testing.F) {
	for _, s := range []string{
		"", "\n", "a\n\nb\n", "E: x\nW: y\n", "Package: a\nVersion: 1\n\nPackage: b\nVersion: 2\n\nPackage: c\nVersion: 3\n",
		"2026-01-02T03:04:05Z INFO start\n2026-01-02T03:04:06Z ERROR boom\n  at x\n",
		"./a.go:1:2: undefined: x\n", "=== RUN   TestA\n--- FAIL: TestA (0.00s)\nFAIL\tx\t0.1s\n",
		"1..2\nok 1\nnot ok 2\n", "0 errors\nerror=nil\nfatal: no\n", "\xff\xfe\r\n\r\n",
		"  PID USER  RSS CMD\n    1 root 10 init\n    2 root 0 a b c\n    3 man 5 x\n" + strings.Repeat("    9 root 7 w --f\n", 9),
		"a\t1\tx\na\t2\ty\nb\t3\t\n" + strings.Repeat("c\t4\tz\n", 9),
		"commit a1\nAuthor: A\n\n    m\n\ncommit b2\nAuthor: B\n\ncommit c3\nAuthor: A\n",
		"Unpacking x (1) ...\nUnpacking y (2) ...\nUnpacking z (3) over (2) ...\n",
		strings.Repeat("a", 1) + "='1'\nb='undef'\nc_d='undef'\nc_e=''\nd.x = 1\nAPT::X \"y\";\nE='define'\nF='define'\nG=''\n#define H 1\n",
		"[core]\n\tbare = false\n\tx = 1\n\ty = 2\n\tz = 2\n\tw = 3\n[user]\n\tname = A\n\temail = a@b\n\tq = 2\n",
		"Device: 254,0\tInode: 681  Links: 2\n  File: /etc\n  Size: 9431 \tBlocks: 24  IO Block: 4096  regular file\nDevice: 1\tInode: 2  Links: 3\n",
		// Lines of fields (text_fields.go): an access log with a
		// malformed request, logfmt with quoted values and a late key,
		// brackets that never close (rev16 R5).
		strings.Repeat("10.0.0.1 - - [27/Nov/2026:04:00:01 +0000] \"GET /a/1 HTTP/1.1\" 200 512 \"-\" \"curl/8.1\" rt=0.004 uct=0.000, 0.001, -\n", 6) +
			"10.0.0.2 - - [27/Nov/2026:04:00:02 +0000] \"GARBAGE\" 400 0 \"-\" \"-\" rt=0.000 uct=-\n" +
			strings.Repeat("10.0.0.3 - - [27/Nov/2026:04:00:03 +0000] \"POST /b HTTP/1.1\" 502 157 \"-\" \"x \\\"q\\\" y\" rt=2.001 uct=-\n", 3),
		strings.Repeat("time=2026-11-27T04:00:01Z level=INFO msg=\"walk dir\" path=/usr/share n=12\n", 5) +
			"time=2026-11-27T04:00:02Z level=ERROR msg=\"open failed\" path=\"/a b\" err=\"permission denied\" attempt=2\n",
		"[x [x [x a=1 b=\"2\n[y] c=3 \"unclosed\n[z] [w] d= e==f\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		p := analyzeText(data, nil)
		if p.lines != countLines(data) {
			t.Fatalf("lines %d, want %d", p.lines, countLines(data))
		}
		sum := p.miner.other
		for _, c := range p.miner.clusters {
			sum += c.count
		}
		if kv := p.kv; kv != nil { // key/value lines: entries and other lines, no templates
			sum = kv.entries + kv.other
			n := kv.longVals + kv.valsCap
			for _, c := range kv.vals {
				n += c
			}
			if n != kv.entries || kv.empty > kv.entries || len(kv.kept) > kv.entries {
				t.Fatalf("key/value lines: values count %d entries, %d empty, %d kept, of %d", n, kv.empty, len(kv.kept), kv.entries)
			}
		}
		if sum != p.lines-p.blank {
			t.Fatalf("templates count %d lines, want %d", sum, p.lines-p.blank)
		}
		if p.records > p.lines || p.errors+p.warns > p.lines {
			t.Fatalf("records %d, errors %d, warnings %d of %d lines", p.records, p.errors, p.warns, p.lines)
		}
		textLines(data, func(_ int, l string) {
			s := zeroRe.ReplaceAllString(l, "")
			want := sevNone
			if errorRe.MatchString(s) && !demoteRe.MatchString(s) {
				want = sevError
			} else if warnRe.MatchString(s) {
				want = sevWarn
			}
			if got := lineSeverity(l); got != want {
				t.Fatalf("%q: severity %d, the patterns say %d", l, got, want)
			}
		})
		if cp := p.cols; cp != nil {
			nonBlank, hp := p.lines-p.blank, 0
			if cp.split.headPos >= 0 {
				hp = 1
			}
			if cp.rows+cp.other+hp != nonBlank {
				t.Fatalf("rows %d + other %d + header %d != %d non-blank lines", cp.rows, cp.other, hp, nonBlank)
			}
			for _, c := range cp.cols {
				n := 0
				for _, k := range c.values {
					n += k
				}
				// A row may have fewer cells (a tab-separated row cut
				// short): a column's values count the rows that have it,
				// and the view says "in N of M rows".
				if c.rows > cp.rows || !c.overflow && n != c.rows {
					t.Fatalf("column %s: values count %d rows, the column is in %d of %d rows", c.name, n, c.rows, cp.rows)
				}
			}
		}
		if p.headKey != "" && p.records != p.nHead {
			t.Fatalf("records %d, headers %d", p.records, p.nHead)
		}
		if len(data) == 0 {
			return
		}
		v := buildText(t, data, 300)
		if f, err := v.Fill(wordCounter{}, 300); err == nil && (wordCounter{}).Count(f.Text) > 300 {
			t.Fatalf("view over budget")
		}
	})
}

// TestSeverityHintsByLetter checks that the per-letter hint lists used by
// mayHaveSeverity hold exactly severityHints.
func TestSeverityHintsByLetter(t *testing.T) {
	var all []string
	for _, l := range [][]string{hintsE, hintsF, hintsP, hintsT, hintsC, hintsA, hintsK, hintsO, hintsS, hintsD, hintsR, hintsW} {
		all = append(all, l...)
	}
	if len(all) != len(severityHints) {
		t.Fatalf("%d hints by letter, %d hints", len(all), len(severityHints))
	}
	for _, h := range severityHints {
		found := false
		for _, x := range all {
			found = found || x == h
		}
		if !found {
			t.Errorf("hint %q is not in its letter's list", h)
		}
	}
}

// TestSeverityNameColumns checks that a severity word inside a name (a
// symbol of go tool nm such as go:itab.*os.SyscallError,error, a file
// called crit in ls -l) makes no error line, while the view's query for
// error lines still returns exactly the lines counted.
func TestSeverityNameColumns(t *testing.T) {
	for name, words := range map[string]int{"go-nm-nmprog.txt": 30, "ls-l-usr-bin.txt": 1} {
		data := readCapture(t, name)
		p := analyzeText(data, nil)
		n := len(jqLines(t, data, `.[] | select(test("(?i)\\b(error|crit|fail)\\b"))`))
		if n < words {
			t.Fatalf("%s: %d lines with a severity word, want at least %d", name, n, words)
		}
		if p.cols == nil || len(p.cols.split.names) == 0 {
			t.Fatalf("%s: no name column found", name)
		}
		if p.nameSev == 0 {
			t.Errorf("%s: no row with a severity word in a name column counted", name)
		}
		if p.errors != 0 || p.warns != 0 {
			var ls []string
			for _, nb := range p.notables {
				ls = append(ls, nb.text)
			}
			t.Errorf("%s: %d error and %d warning lines, want none: %q", name, p.errors, p.warns, ls)
		}
		if got := len(jqLines(t, data, p.severityQuery(sevError))); got != p.errors {
			t.Errorf("%s: the query finds %d error lines, the profile %d", name, got, p.errors)
		}
	}
}

// TestSeverityCompilerLevels checks gcc's diagnostics: after the
// "file:line:col: " prefix the next word is the level, so the error lines
// are exactly those gcc calls errors, the warning lines those it calls
// warnings, and a note is neither (the old test called every prefixed
// line an error).
func TestSeverityCompilerLevels(t *testing.T) {
	data, err := os.ReadFile("testdata/gcc-warnings.txt") // testdata/gen/capture.sh gcc-warnings
	if err != nil {
		t.Fatal(err)
	}
	p := analyzeText(data, nil)
	count := func(re string) int {
		return len(jqLines(t, data, `.[] | select(test(`+jqString(re)+`))`))
	}
	errs, warns := count(`^[^\s:]+:\d+:\d+: (fatal )?error:`), count(`^[^\s:]+:\d+:\d+: warning:`)
	if errs != 2 || warns != 3 || count(`: note:`) != 1 {
		t.Fatalf("the capture has %d errors, %d warnings: not the one this test was written for", errs, warns)
	}
	if p.errors != errs || p.warns != warns {
		t.Errorf("error lines %d, warning lines %d; gcc printed %d errors and %d warnings", p.errors, p.warns, errs, warns)
	}
	for sev, n := range map[int]int{sevError: errs, sevWarn: warns} {
		if got := len(jqLines(t, data, p.severityQuery(sev))); got != n {
			t.Errorf("severity %d: the view's query finds %d lines, want %d", sev, got, n)
		}
	}
}
