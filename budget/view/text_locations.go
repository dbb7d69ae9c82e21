package view

import (
	"fmt"
	"sort"
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
	codes     map[string]int     // lines by their diagnostic code (diagCode)
	codesMore int                // lines of codes past maxLocFiles
	codeLine  map[string]posLine // per code its first line
	coded     int                // lines with a code
	maxLine   int
	maxFile   string
	fileMax   map[string]int // per file its highest line number
}

// location splits a line that starts with a source location: its file,
// line number and the message after it; ok is false otherwise. The
// forms: "file:line:col: message" and "file:line: message" (compilers,
// linters), "file(line,col): message" (MSBuild, tsc --pretty false),
// "file:line[:col] message" (markdownlint) and "file:line:text" (grep
// -n, the matched line right after the colon). The last two need a
// file that looks like a path (pathLike): "12:30:45 up" and
// "pub:-:4096:" are no locations.
func location(line string) (file string, ln int, msg string, ok bool) {
	if t := strings.TrimLeft(line, " \t"); strings.HasPrefix(t, "--> ") {
		return arrowLocation(t[4:])
	}
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
	// :line[:col] then ": ", " " or ":" and the message.
	n, j := leadingInt(rest[1:])
	if j == 0 {
		return "", 0, "", false
	}
	rest = rest[1+j:]
	if len(rest) > 1 && rest[0] == ':' && isDigitByte(rest[1]) {
		if _, k := leadingInt(rest[1:]); k > 0 {
			if m, ok := locMessage(rest[1+k:], file); ok {
				return file, n, m, true // :col
			}
		}
	}
	if m, ok := locMessage(rest, file); ok {
		return file, n, m, true
	}
	return "", 0, "", false
}

// arrowLocation reads the location of rustc's and clippy's "  -->
// src/lib.rs:9:21" lines (the line below the message "warning: ...",
// rest being what follows "--> "): a file that looks like a path, a line
// and a column, and nothing or a message after them.
func arrowLocation(rest string) (file string, ln int, msg string, ok bool) {
	i := strings.IndexByte(rest, ':')
	if i <= 0 || !pathLike(rest[:i]) || strings.ContainsAny(rest[:i], " \t") {
		return "", 0, "", false
	}
	file = rest[:i]
	n, j := leadingInt(rest[i+1:])
	if j == 0 {
		return "", 0, "", false
	}
	rest = rest[i+1+j:]
	if len(rest) > 1 && rest[0] == ':' && isDigitByte(rest[1]) {
		_, k := leadingInt(rest[1:])
		rest = rest[1+k:]
	}
	if strings.TrimSpace(rest) == "" {
		return file, n, "", true
	}
	if m, ok := locMessage(rest, file); ok {
		return file, n, m, true
	}
	return "", 0, "", false
}

// locMessage is the message after a location's numbers: after ": ", or
// (of a file that looks like a path) after a space, a tab or a colon.
func locMessage(rest, file string) (string, bool) {
	switch {
	case strings.HasPrefix(rest, ": "):
		return strings.TrimSpace(rest[2:]), true
	case !pathLike(file):
	case strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "\t"):
		return strings.TrimSpace(rest), true
	case strings.HasPrefix(rest, ":"):
		return strings.TrimSpace(rest[1:]), true
	}
	return "", false
}

// mostlyLocated reports whether 9 in 10 of the non-blank lines among
// the first 4,000 of sample (and 10 at least) start with a source
// location: such a text's lines are a file, a line and a message each,
// not a table whose cells are the words of the messages.
func mostlyLocated(sample []byte) bool {
	nonBlank, located := 0, 0
	sampleLines(sample, func(line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		nonBlank++
		if _, _, _, ok := location(line); ok {
			located++
		}
	})
	return located >= 10 && 10*located >= 9*nonBlank
}

// leadingInt is the non-negative decimal number s starts with and its
// length in bytes (0 when s starts with no digit; at most 9 digits).
func leadingInt(s string) (n, k int) {
	for k < len(s) && k < 9 && isDigitByte(s[k]) {
		n = 10*n + int(s[k]-'0')
		k++
	}
	if k < len(s) && isDigitByte(s[k]) {
		return 0, 0
	}
	return n, k
}

// pathLike reports whether s names a file: it has a '/' (not only as
// "//" of a URL) or ends in an extension that starts with a letter
// ("main.go", "README.md"), and it does not start with a digit.
func pathLike(s string) bool {
	if s == "" || isDigitByte(s[0]) || strings.Contains(s, "//") {
		return false
	}
	if strings.IndexByte(s, '/') >= 0 {
		return true
	}
	j := strings.LastIndexByte(s, '.')
	if j < 0 || j == len(s)-1 {
		return false
	}
	c := s[j+1] | 0x20
	return c >= 'a' && c <= 'z'
}

// add counts line pos when it starts with a location.
func (ls *locStats) add(pos int, line string) {
	file, n, msg, ok := location(line)
	if !ok {
		return
	}
	if ls.files == nil {
		ls.files, ls.words, ls.codes, ls.fileMax = map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
		ls.codeLine = map[string]posLine{}
	}
	if c := diagCode(msg); c != "" {
		ls.coded++
		if _, ok := ls.codes[c]; ok || len(ls.codes) < maxLocFiles {
			if ls.codes[c] == 0 {
				ls.codeLine[c] = posLine{pos, cut(line, textWidth)}
			}
			ls.codes[c]++
		} else {
			ls.codesMore++
		}
	}
	ls.lines++
	if _, ok := ls.files[file]; ok || len(ls.files) < maxLocFiles {
		ls.files[file]++
		ls.fileMax[file] = max(ls.fileMax[file], n)
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
// location, when at least a quarter of the non-blank lines (and 5), or
// a twentieth (and 20: diagnostics among a checker's progress lines, or each above its source excerpt and hints: biome, clippy) have
// a location (a compiler's diagnostic is often followed by its source
// line and a caret line); nil otherwise.
func (ls *locStats) facts(nonBlank int) []string {
	if ls.lines < 5 || 4*ls.lines < nonBlank && (ls.lines < 20 || 20*ls.lines < nonBlank) {
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
	byFile, _, moreFiles, rest := topCounts(ls.files, 16, 80)
	if len(ls.files) > 1 {
		// Each file's highest line number, in the same order.
		xs, _ := byCount(ls.files)
		var parts []string
		for _, x := range xs[:min(16, len(xs))] {
			parts = append(parts, fmt.Sprintf("%s %s (highest line %s)", cut(x.k, 80), commas(x.n), commas(ls.fileMax[x.k])))
		}
		byFile = strings.Join(parts, ", ")
	}
	if rest += ls.filesMore; rest > 0 {
		byFile += fmt.Sprintf("; %s more in %s lines", commas(moreFiles), commas(rest))
	}
	out := []string{
		fmt.Sprintf("lines with a source location (file:line[:col] or file(line,col)): %s, in %s files; highest line %s (in %s)", commas(ls.lines), files, commas(ls.maxLine), ls.maxFile),
		"  by file (exact): " + byFile,
	}
	if d := dirGroups(ls.files); d != "" {
		out = append(out, "  by directory (exact; a directory is listed where its files or subdirectories branch): "+d)
	}
	if len(ls.words) > 0 {
		out = append(out, "  by the first words after the location (exact): "+list(ls.words, ls.wordsMore))
	}
	return out
}

// dirGroups lists the directories of the files (each with its lines,
// the sum of its files' lines below it, at any depth) where they
// branch: a directory with two or more files or subdirectories that
// hold located lines, most lines first, the first 12; "" when there
// are fewer than 2 such directories (and files past maxLocFiles are in
// none).
func dirGroups(files map[string]int) string {
	lines := map[string]int{}
	kids := map[string]map[string]bool{}
	for f, n := range files {
		for i := 0; i < len(f); i++ {
			if f[i] != '/' || i == 0 && len(f) > 1 {
				continue
			}
			d := f[:i+1]
			lines[d] += n
			next := f[i+1:]
			if j := strings.IndexByte(next, '/'); j >= 0 {
				next = next[:j+1]
			}
			if kids[d] == nil {
				kids[d] = map[string]bool{}
			}
			kids[d][next] = true
		}
	}
	m := map[string]int{}
	for d, n := range lines {
		if len(kids[d]) >= 2 {
			m[d] = n
		}
	}
	if len(m) < 2 {
		return ""
	}
	s, _, more, _ := topCounts(m, 12, 80)
	if more > 0 {
		s += fmt.Sprintf("; %s more directories", commas(more))
	}
	return s
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
	return fmt.Sprintf("diagnostic codes: %s distinct codes in %s lines (of the %s lines with a source location); lines by code (exact): %s",
		commas(len(ls.codes)), commas(ls.coded), commas(ls.lines), s)
}

// rareCodeCandidates adds the line of every code that is in one line
// only (the anomaly among the diagnostics: tsc's one TS18048), when at
// least 3 lines have a code and there are 2 codes or more, in the
// order of the lines.
func (tc *textCands) rareCodeCandidates(add func(sec, key, rec int, reason, text string)) {
	ls := &tc.p.locs
	if ls.coded < 3 || len(ls.codes) < 2 {
		return
	}
	var lines []posLine
	for c, n := range ls.codes {
		if n == 1 {
			lines = append(lines, ls.codeLine[c])
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].pos < lines[j].pos })
	for _, l := range lines {
		add(tsCodes, l.pos, l.pos, "code in one line", fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.text)))
	}
}

// diagCode is the code of a diagnostic message (the text after its
// source location), or "": a code after the level word ("error TS7006:",
// "error[E0308]:", "warning C4996:", markdownlint's "error
// MD013/line-length"), a code that starts the message
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
		if i := strings.IndexByte(f[1], '/'); i > 0 && codeLike(f[1][:i]) {
			return f[1][:i] // error MD013/line-length (markdownlint)
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
	if rulePath(first) {
		return first // biome's lint/suspicious/noExplicitAny
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
		case open == '[' && close == ']' && isLevelWord(strings.TrimRight(first, ":")) && checkName(c):
			return c // cppcheck's "style: ... [unusedStructMember]"
		case open == '(' && close == ')' && codeLike(c):
			return c
		}
	}
	return ""
}

// rulePath reports whether w names a linter's rule by its group path,
// as biome starts its diagnostics: "lint/suspicious/noExplicitAny" (3
// or more segments of letters, digits and dashes, the first one lower
// case letters, each starting with a letter, the last one camelCase; no
// dot, so no file path).
func rulePath(w string) bool {
	seg := strings.Split(w, "/")
	if len(seg) < 3 {
		return false
	}
	last := seg[len(seg)-1]
	if strings.IndexAny(last, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") <= 0 {
		return false
	}
	for i, g := range seg {
		if g == "" || !(g[0]|0x20 >= 'a' && g[0]|0x20 <= 'z') {
			return false
		}
		for j := 0; j < len(g); j++ {
			c := g[j]
			if i == 0 && !(c >= 'a' && c <= 'z') || !(isAlnumByte(c) || c == '-') {
				return false
			}
		}
	}
	return true
}

// isLevelWord reports whether w is a diagnostic's level.
func isLevelWord(w string) bool {
	switch strings.ToLower(w) {
	case "error", "warning", "note", "info", "hint", "remark", "fatal",
		"style", "information", "performance", "portability", "convention", "refactor":
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

// checkName reports whether s is a checker's name: a letter, then 3 or
// more letters and digits (cppcheck's unusedStructMember, uninitvar).
func checkName(s string) bool {
	if len(s) < 4 || !(s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isAlnumByte(s[i]) {
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

// rareForms are the rare forms of a text of located diagnostics: the
// templates of at most 1% of the lines whose lines were all kept and
// that have two words of letters or more and whose words (the tokens
// that are not placeholders) hold those of no template of more lines
// (of the 256 with the most): "moved to heap:
// <*>" among "<*> escapes to heap" and "<*> does not escape", not "<*>
// f does not escape", which is "<*> <*> does not escape" with a name.
// Fewest lines first, then in the order of their first line.
func (p *textProfile) rareForms() []*cluster {
	big := append([]*cluster(nil), p.miner.clusters...)
	sort.SliceStable(big, func(i, j int) bool { return big[i].count > big[j].count })
	big = big[:min(len(big), 256)]
	var out []*cluster
	for _, c := range p.miner.clusters {
		if 100*c.count > p.lines || len(c.lines) != c.count {
			continue
		}
		words := map[string]bool{}
		named := 0 // words of two letters or more: "+" and "-" name no form
		for _, w := range c.literals() {
			words[w] = true
			if letterCount(w) >= 2 {
				named++
			}
		}
		if named < 2 {
			continue
		}
		special := false // the words of a form of more lines, and more
		for _, f := range big {
			if f.count <= c.count {
				break
			}
			all := false
			for _, w := range f.literals() {
				if all = words[w]; !all {
					break
				}
			}
			if special = all; special {
				break
			}
		}
		if !special {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.count < b.count || a.count == b.count && a.first < b.first
	})
	return out
}

// letterCount is the number of ASCII letters in s.
func letterCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z' {
			n++
		}
	}
	return n
}

// formCandidates adds the lines of the rare forms of a text of located
// diagnostics (rareForms), each line a candidate, the first of a form
// headed by its template and count: the first 8 lines of each form
// (PrioRare), or the rest (rest: PrioSecond).
func (tc *textCands) formCandidates(add func(sec, key, rec int, reason, text string), rest bool) {
	p := tc.p
	if p == nil || !p.locData {
		return
	}
	for i, c := range p.rareForms() {
		for j, l := range c.lines {
			if j >= 8 != rest {
				continue
			}
			text := fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.text))
			if j == 0 {
				text = fmt.Sprintf("  [%s lines] %s\n", commas(c.count), cutLine(c.template())) + text
			}
			add(tsKinds, i*2*maxFormLines+j, l.pos, "rare form", text)
		}
	}
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
