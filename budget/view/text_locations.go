package view

import (
	"fmt"
	"strconv"
	"strings"
)

// Lines that start with a source location: compiler and linter
// diagnostics, grep -n ("file:line:col: message", "file:line: message",
// "file(line,col): message"). Counted exactly over every such line: by
// file, by the words after the location ("moved to", "error", "can
// inline"), and the highest line number with its file. When nearly
// every line has the form, the files and the words are what the text is
// made of, and the view says so with exact counts instead of showing
// the lines as rare.

const maxLocFiles = 4096 // files counted by name (more are counted as other)

// locStats counts located lines.
type locStats struct {
	lines     int
	files     map[string]int
	filesMore int // lines of files past maxLocFiles
	words     map[string]int
	wordsMore int
	maxLine   int
	maxFile   string
}

// location splits a line that starts with a source location: its file,
// line number and the message after it; ok is false otherwise.
func location(line string) (file string, ln int, msg string, ok bool) {
	i := strings.IndexAny(line, ":( \t")
	if i <= 0 {
		return "", 0, "", false
	}
	file = line[:i]
	rest := line[i:]
	if rest[0] == '(' {
		// file(line,col): message
		j := strings.Index(rest, "): ")
		if j < 0 {
			return "", 0, "", false
		}
		nums := strings.SplitN(rest[1:j], ",", 2)
		n, err := strconv.Atoi(nums[0])
		if err != nil {
			return "", 0, "", false
		}
		return file, n, rest[j+3:], true
	}
	if rest[0] != ':' {
		return "", 0, "", false
	}
	// :line[:col]: message
	parts := strings.SplitN(rest[1:], ":", 3)
	if len(parts) < 2 {
		return "", 0, "", false
	}
	n, err := strconv.Atoi(parts[0])
	if err != nil || n < 0 {
		return "", 0, "", false
	}
	msg = parts[1]
	if len(parts) == 3 {
		if _, err := strconv.Atoi(parts[1]); err == nil {
			msg = parts[2]
		} else {
			msg = parts[1] + ":" + parts[2]
		}
	}
	if !strings.HasPrefix(msg, " ") {
		return "", 0, "", false
	}
	return file, n, strings.TrimSpace(msg), true
}

// add counts a line when it starts with a location.
func (ls *locStats) add(line string) {
	file, n, msg, ok := location(line)
	if !ok {
		return
	}
	if ls.files == nil {
		ls.files, ls.words = map[string]int{}, map[string]int{}
	}
	ls.lines++
	if _, ok := ls.files[file]; ok || len(ls.files) < maxLocFiles {
		ls.files[file]++
	} else {
		ls.filesMore++
	}
	if n > ls.maxLine {
		ls.maxLine, ls.maxFile = n, file
	}
	w := lineKind(msg)
	if w == "" {
		return
	}
	if _, ok := ls.words[w]; ok || len(ls.words) < maxLocFiles {
		ls.words[w]++
	} else {
		ls.wordsMore++
	}
}

// facts are the located lines by file and by the words after the
// location, when at least a third of the non-blank lines (and 5) have a
// location; nil otherwise.
func (ls *locStats) facts(nonBlank int) []string {
	if ls.lines < 5 || 3*ls.lines < nonBlank {
		return nil
	}
	list := func(m map[string]int, more int) string {
		xs, total := byCount(m)
		var parts []string
		shown := 0
		for i, x := range xs {
			if i == 16 {
				break
			}
			parts = append(parts, fmt.Sprintf("%s %s", cut(x.k, 80), commas(x.n)))
			shown += x.n
		}
		s := strings.Join(parts, ", ")
		if rest := total + more - shown; rest > 0 {
			s += fmt.Sprintf("; %s more in %s lines", commas(len(xs)-len(parts)), commas(rest))
		}
		return s
	}
	nf := len(ls.files)
	files := commas(nf)
	if ls.filesMore > 0 {
		files = "more than " + files
	}
	out := []string{
		fmt.Sprintf("lines with a source location (file:line:col: or file(line,col):): %s, in %s files; highest line %s (in %s)", commas(ls.lines), files, commas(ls.maxLine), ls.maxFile),
		"  by file (exact): " + list(ls.files, ls.filesMore),
	}
	if len(ls.words) > 0 {
		out = append(out, "  by the first words after the location (exact): "+list(ls.words, ls.wordsMore))
	}
	return out
}

// errorsAreData reports whether at least half of the text's non-blank
// lines are error lines (go build -gcflags=-m: every diagnostic has a
// compiler's location prefix): they are what the text is made of, not
// its anomalies, and are offered after its structure (their count is
// still stated).
func (tc *textCands) errorsAreData() bool {
	p := tc.p
	return p != nil && p.errors >= 20 && 2*p.errors >= p.lines-p.blank
}
