package view

import (
	"fmt"
	"strings"
	"testing"
)

// TestLocationForms: every form of a located line is split into its
// file, line and message, and lines that only look like one are not: a
// clock, a colon record, an address. On the old code grep -n's
// "file:line:text" and markdownlint's "file:line[:col] message" were no
// locations, so a grep -rn of 2,648 matches stated neither its files
// nor its highest line.
func TestLocationForms(t *testing.T) {
	for _, c := range []struct {
		line, file string
		n          int
		msg        string
	}{
		{"main.go:12:5: undefined: x", "main.go", 12, "undefined: x"},
		{"main.go:12: undefined: x", "main.go", 12, "undefined: x"},
		{"src/a.ts(3,7): error TS7006: bad", "src/a.ts", 3, "error TS7006: bad"},
		{"./cli/hints/hints.go:11:func Enabled() bool {", "./cli/hints/hints.go", 11, "func Enabled() bool {"},
		{"docs/README.md:3 error MD041/first-line-heading First line", "docs/README.md", 3, "error MD041/first-line-heading First line"},
		{"docs/README.md:5:81 error MD013/line-length Line length", "docs/README.md", 5, "error MD013/line-length Line length"},
		{"x.go:7:34abc", "x.go", 7, "34abc"},
		{"src/Makefile:4:\tgcc -o x", "src/Makefile", 4, "gcc -o x"},
	} {
		f, n, m, ok := location(c.line)
		if !ok || f != c.file || n != c.n || m != c.msg {
			t.Errorf("location(%q) = %q, %d, %q, %v; want %q, %d, %q", c.line, f, n, m, ok, c.file, c.n, c.msg)
		}
	}
	for _, line := range []string{
		"12:30:45 up 3 days",
		"pub:-:4096:1:AA:1:::",
		"10.0.0.1:8080 connected",
		"root:x:0:0:root:/root:/bin/bash",
		"http://example.com:80/x",
		"note:12 remember",
	} {
		if f, n, m, ok := location(line); ok {
			t.Errorf("location(%q) = %q, %d, %q: not a location", line, f, n, m)
		}
	}
}

// TestGrepLinesByFile: the matches of grep -rn are counted by file,
// with each file's highest line, and the text's highest line is named
// with its file.
func TestGrepLinesByFile(t *testing.T) {
	var b strings.Builder
	for f := 0; f < 40; f++ {
		for k := 0; k <= f%5; k++ {
			fmt.Fprintf(&b, "./pkg/dir%d/file%d.go:%d:func Name%d_%d(x int) (int, error) {\n", f%4, f, 10+k*100+f, f, k)
		}
	}
	data := []byte(b.String())
	text := fillText(t, data, 2000)
	for _, want := range []string{"in 40 files", "highest line 449 (in ./pkg/dir3/file39.go)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the view lacks %q:\n%s", want, text)
		}
	}
}

// TestSeverityWordInCode: grep -rn over Go source lists function
// signatures; "error" in "func f() (int, error) {" is a type, "panic(err)"
// a call: no error lines. A line with a level marker is still one (a
// compiler's "file:line:col: error:", a log line that ends with '{' under
// a level column). The profile and the jq query the view prints agree.
// On the old code every signature returning an error was an error line.
func TestSeverityWordInCode(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "./pkg/a%d.go:%d:func load%d(path string) (int, error) {\n", i, 10+i, i)
		fmt.Fprintf(&b, "./pkg/a%d.go:%d:\tif err != nil { panic(err) }\n", i, 20+i)
		fmt.Fprintf(&b, "./pkg/a%d.go:%d:\treturn fmt.Errorf(\"open %%s: failed\", path)\n", i, 30+i)
		fmt.Fprintf(&b, "./pkg/a%d.go:%d:func (e *Error) Fatal(x int) {\n", i, 40+i)
	}
	b.WriteString("./pkg/x.c:3:5: error: expected ';' before '{'\n")
	b.WriteString("2026-11-26T07:00:00Z ERROR request failed, body: {\n")
	data := []byte(b.String())
	p := analyzeText(data, nil)
	if p.errors != 2 {
		var ls []string
		for _, nb := range p.notables {
			ls = append(ls, nb.text)
		}
		t.Errorf("error lines: %d, want 2 (the compiler's error, the log line): %q", p.errors, ls)
	}
	if p.codeSev != 120 {
		t.Errorf("lines of code with a severity word: %d, want 120", p.codeSev)
	}
	if got := len(jqLines(t, data, p.severityQuery(sevError))); got != p.errors {
		t.Errorf("the view's query finds %d error lines, the profile %d", got, p.errors)
	}
}
