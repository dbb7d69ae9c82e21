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
// inline"), by the diagnostic's code (TS7006, -Wsign-conversion, SA1019,
// E501: see diagCode), and the highest line number with its file. When
// many lines have the form, the files and the words are what the text
// is made of, and the view says so with exact counts instead of showing
// the lines as rare.

const maxLocFiles = 4096 // files counted by name (more are counted as other)

// locStats counts located lines.
type locStats struct {
	lines     int
	files     map[string]int
	filesMore int // lines of files past maxLocFiles
	words     map[string]int
	wordsMore int
	codes     map[string]int // lines by their diagnostic code (diagCode)
	codesMore int            // lines of codes past maxLocFiles
	coded     int            // lines with a code
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
		ls.files, ls.words, ls.codes = map[string]int{}, map[string]int{}, map[string]int{}
	}
	if c := diagCode(msg); c != "" {
		ls.coded++
		if _, ok := ls.codes[c]; ok || len(ls.codes) < maxLocFiles {
			ls.codes[c]++
		} else {
			ls.codesMore++
		}
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
// location, when at least a quarter of the non-blank lines (and 5) have
// a location (a compiler's diagnostic is often followed by its source
// line and a caret line); nil otherwise.
func (ls *locStats) facts(nonBlank int) []string {
	if ls.lines < 5 || 4*ls.lines < nonBlank {
		return nil
	}
	list := func(m map[string]int, more int) string {
		s, _, moreKeys, rest := topCounts(m, 16, 80)
		if rest += more; rest > 0 {
			s += fmt.Sprintf("; %s more in %s lines", commas(moreKeys), commas(rest))
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

// codeFact is the diagnostics by their code, "diagnostics by code
// (exact; 114 of the 114 lines with a source location have one): TS7006
// 96, TS2322 6, ...", when at least 3 lines have a code; "" otherwise.
func (ls *locStats) codeFact() string {
	if ls.coded < 3 {
		return ""
	}
	s, _, moreKeys, rest := topCounts(ls.codes, 24, 60)
	if rest += ls.codesMore; rest > 0 {
		s += fmt.Sprintf("; %s more codes in %s lines", commas(moreKeys), commas(rest))
	}
	return fmt.Sprintf("diagnostics by code (exact; %s of the %s lines with a source location have one, %s distinct): %s",
		commas(ls.coded), commas(ls.lines), commas(len(ls.codes)), s)
}

// diagCode is the code of a diagnostic message (the text after its
// source location), or "": a code after the level word ("error TS7006:",
// "error[E0308]:", "warning C4996:"), a code that starts the message
// ("E501 line too long", "C0114: Missing module docstring"), or one in
// brackets or parentheses that ends it ("[-Wsign-conversion]",
// "(SA1019)", "[attr-defined]", "[Error/no-unused-vars]"). A code is
// 1 to 5 capital letters then 2 to 6 digits, or a -W option; in
// brackets, a lower-case name with dashes too.
func diagCode(msg string) string {
	f := strings.Fields(msg)
	if len(f) == 0 {
		return ""
	}
	first := f[0]
	if isLevelWord(strings.TrimRight(first, ":")) && len(f) > 1 {
		if c := strings.TrimSuffix(f[1], ":"); len(c) < len(f[1]) && codeLike(c) {
			return c // error TS7006:
		}
	}
	if i := strings.IndexByte(first, '['); i > 0 && strings.HasSuffix(first, "]:") && isLevelWord(first[:i]) {
		if c := first[i+1 : len(first)-2]; codeLike(c) {
			return c // error[E0308]:
		}
	}
	if c := strings.TrimSuffix(first, ":"); codeLike(c) && len(f) > 1 {
		return c // E501 line too long
	}
	last := f[len(f)-1]
	if len(f) > 1 && len(last) > 2 {
		open, close := last[0], last[len(last)-1]
		c := last[1 : len(last)-1]
		if j := strings.LastIndexByte(c, '/'); j >= 0 && open == '[' {
			c = c[j+1:] // [Error/no-unused-vars]
		}
		switch {
		case open == '[' && close == ']' && (codeLike(c) || dashedName(c)):
			return c
		case open == '(' && close == ')' && codeLike(c):
			return c
		}
	}
	return ""
}

// isLevelWord reports whether w is a diagnostic's level.
func isLevelWord(w string) bool {
	switch strings.ToLower(w) {
	case "error", "warning", "note", "info", "hint", "remark", "fatal":
		return true
	}
	return false
}

// codeLike reports whether s has the form of a diagnostic code: 1 to 5
// capital letters then 2 to 6 digits (TS7006, E501, SA1019, SC2086), or
// a compiler's -W option (-Wsign-conversion, -Werror=unused-variable).
func codeLike(s string) bool {
	if strings.HasPrefix(s, "-W") && len(s) > 2 {
		for i := 2; i < len(s); i++ {
			if c := s[i]; !(isAlnumByte(c) || c == '-' || c == '_' || c == '=' || c == '+') {
				return false
			}
		}
		return true
	}
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	d := len(s) - i
	if i < 1 || i > 5 || d < 2 || d > 6 {
		return false
	}
	for ; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return true
}

// dashedName reports whether s is a lower-case name with at least one
// dash (mypy's [attr-defined], clang-tidy's [readability-braces]).
func dashedName(s string) bool {
	if len(s) < 3 || s[0] < 'a' || s[0] > 'z' || s[len(s)-1] == '-' || strings.IndexByte(s, '-') < 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || isDigitByte(c) || c == '-' || c == '.') {
			return false
		}
	}
	return true
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
