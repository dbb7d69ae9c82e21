package view_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestTerminalTextReadAsShown: rkhunter --check run on a terminal
// (testdata/rkhunter-check-tty.txt: colour escapes around every status,
// ESC[nC cursor moves aligning the status column, CRLF ends) is read as
// the terminal shows it. The view holds no control sequence, its first
// line says how many it removed, a check's label and its status stand
// on one line as words of their own ("Checking LD_LIBRARY_PATH
// variable ... [ Not found ]"), and every query it prints reads the
// lines the same way: what a query yields has no ESC either. On the old
// code the view showed "^[[1;32mOK^[[0;39m" (the status glued to the
// colour's "m") and its queries returned the raw lines.
func TestTerminalTextReadAsShown(t *testing.T) {
	for _, b := range []int{2000, 4000, 8000} {
		text, data := textViewAt(t, "rkhunter-check-tty.txt", b)
		if strings.Contains(text, "\x1b") {
			t.Fatalf("at %d: the view holds a control sequence:\n%s", b, text)
		}
		if !regexp.MustCompile(`\d+ terminal control sequences \(colours, cursor moves\) removed`).MatchString(text) {
			t.Errorf("at %d: the view does not say it removed the sequences:\n%s", b, text)
		}
		if !regexp.MustCompile(`(?m)Checking LD_LIBRARY_PATH variable +\[ Not found \]$`).MatchString(text) {
			t.Errorf("at %d: the LD_LIBRARY_PATH check is not shown with its status:\n%s", b, text)
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			lines = append(lines, strings.TrimSuffix(l, "\r"))
		}
		for _, l := range strings.Split(text, "\n") {
			i := strings.Index(l, "--jq '")
			if i < 0 {
				continue
			}
			q := l[i+6:]
			q = q[:strings.LastIndex(q, "'")]
			for _, out := range runLinesQuery(t, q, lines) {
				if strings.Contains(out, "\x1b") {
					t.Errorf("at %d: the query %s yields %q", b, q, out)
					break
				}
			}
		}
	}
}
