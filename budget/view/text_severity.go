package view

import (
	"regexp"
	"strings"
)

// Which lines of a text are errors or warnings.
//
// A line is an error line when, after every "zero phrase" ("0 errors",
// "no failures", "error=nil", "errors: 0", an XML report's attribute
// failures="0") is removed from it, it matches
// errorPattern: a severity word that acts as a level (error, fatal, panic, FAIL,
// "3 errors" but not a bare "errors", which is also Go's package name,
// npm's ERR!, Traceback, denied, killed, ...), an exception type that ends
// a line or precedes a colon (ValueError:, NullPointerException), an
// ERR_* code, a non-zero exit status, a klog/glog or apt prefix (E1125,
// F1125, "E: "), or a compiler's location prefix (file:line:col:) not
// followed by a lower level (warning:, note: make a warning line or
// none, see demotePattern). The
// word must start its white-space-separated token, after opening
// punctuation ("[error]", "***ERROR***", "(error)") or "key=" / "key:"
// prefixes ("level=error", `"level":"error"`), or follow a ']', ')', '>'
// or '|': a severity word glued to a name ("OnceValue[error]",
// "go:itab.*os.SyscallError,error", "errors.go", "/var/log/error") is
// part of that name. Of a table's rows, the name columns are not tested
// at all (colSplit.severityText). A line
// that is not an error line is a warning line when it matches
// warnPattern. Both are plain regular expressions that jq (gojq uses Go's
// regexp) evaluates exactly as compact does, so the query the view prints
// for the lines it does not show fetches exactly those lines.
//
// The words are severity concepts, not spellings of one tool's messages:
// a log's unusual lines are found by a second, independent test (lines
// whose template is rare, see text_template.go), which needs no word at
// all.
const (
	errorPattern = `(?i:(?:^|[\s\])>|])(?:[^\s=:]*[=:])*[^\w\s./-]*(?:error|err|fatal|panic|panicked|exception|traceback|fail|failed|failures?|critical|crit|emerg|abort|aborted|killed|oom|segfault|denied|refused)(?:$|[^\w./-]|\.(?:$|[^\w]))|\b[1-9]\d* errors(?:$|[^\w.]|\.(?:$|\W))|\bexit (?:status|code) [1-9]|exited with (?:code|status) [1-9]|non-zero exit)|\bERR_[A-Z0-9_]+(?:$|[^\w])|(?:^|[^\w])[A-Za-z]*[a-z](?:Error|Exception)(?::|$)|^[EF]\d{4} |^[EF]: |^[^\s:]+:\d+:\d+: `
	warnPattern  = `(?i:(?:^|[\s\])>|])(?:[^\s=:]*[=:])*[^\w\s./-]*(?:warn|warning|warnings|deprecated)(?:$|[^\w./-]|\.(?:$|[^\w])))|^W\d{4} |^W: `
	// demotePattern: a compiler's location prefix followed by a level
	// below error ("kilo.c:12:5: warning: ...", "... note: ...",
	// cppcheck's "style:", "information:", "performance:"): the
	// word after the prefix is the line's level, so the prefix makes no
	// error line of it.
	demotePattern = `^[^\s:]+:\d+:\d+: (?i:warning|note|remark|info|information|style|performance|portability|hint|convention|refactor)\b`
	// In a text of located diagnostics (textProfile.locData), a line
	// with the location prefix is an error line only when the word
	// after it says so (locErrorPattern), a warning line when it says
	// warning, else neither: the words of its message (an "&Error{...}"
	// that escapes to the heap) are data.
	locationPattern = `^[^\s:]+:\d+(?::\d+)?: `
	locErrorPattern = `^[^\s:]+:\d+(?::\d+)?: (?i:(?:fatal )?error|fatal|panic)\b`
	locWarnPattern  = `^[^\s:]+:\d+(?::\d+)?: (?i:warning)\b`
	locLevelPattern = `^[^\s:]+:\d+(?::\d+)?: (?i:(?:fatal )?error|fatal|panic|warning|note|remark|info|information|style|performance|portability|hint|convention|refactor)\b`
	// proseMarkerPattern: in prose (paragraphs: a changelog, a man
	// page, a git log's messages) a severity word marks a line only at
	// its start (after the indentation and a bullet) or before a ':'
	// ("error: ...", "ValueError:"); "they fail on i386" is a sentence.
	proseMarkerPattern = `^\s*(?:[-*+]\s+)?(?i:errors?|fatal|panic|fail|failed|failure|warnings?|warn|critical|exception|traceback)\b|(?i:\b(?:errors?|fatal|panic|failed|failure|warnings?|critical|exceptions?)):|[A-Za-z](?:Error|Exception):|^[EFW]: `
	// codePattern: a line of source code (grep -rn over a source tree,
	// a compiler's excerpt of the line it complains about): after an
	// optional location prefix, a declaration or statement keyword
	// with a '(', '{' or '=' after it ("func f() (int, error)",
	// "return err"), or a line that ends with '{', ';', '(' or '[' or
	// "=>". A severity word in code is a name or a type ("error" of a
	// Go signature, "panic(err)", "Fatal" of a method), not the line's
	// level, unless a marker says so (codeMarkerPattern).
	codePattern = `^(?:[^\s:]+:\d+(?::\d+)?:)?\s*(?:(?:func|def|fn|pub fn|class|return|import|package|public|private|protected|static|const|var|let|function|async function|if|else|for|while|switch|case)\s[^\n]*[({=]|[^\n]*(?:[{;(\[]|=>)\s*$)`
	// codeMarkerPattern: what makes a line that looks like code a
	// message with a level after all: a severity word that opens the
	// message (after a location) followed by ':' ("error: expected ';'"),
	// "E: ", a klog prefix, a level column in capitals (ERROR, FATAL,
	// WARN) or a "level=error" / "[error" field.
	codeMarkerPattern = `^(?:[^\s:]+:\d+(?::\d+)?:\s*)?\s*[\[(]?(?i:error|err|fatal|panic|warning|warn|critical|failed|failure|exception)[\])]?:|^[EFW]: |^[EFW]\d{4} |\b(?:ERROR|FATAL|CRITICAL|WARN|WARNING|PANIC)\b|(?i:level=|\[)(?i:error|fatal|warn|warning|critical)\b`
	// summaryPattern: a tool's summary line counts diagnostics ("Summary:
	// 2467 error(s)", "Found 3 errors in 2 files.", "✖ 12 problems (9
	// errors, 3 warnings)"): it is no diagnostic itself, so it is not an
	// error or warning line (the view states it as a fact).
	summaryPattern = `(?i:(?:^|[\s(\[])[1-9][\d,]*\s+(?:errors?|error\(s\)|warnings?|warning\(s\)|problems?)\b)`
	zeroPattern    = `(?i:\b(?:0|no|zero) (?:errors?|warnings?|failures?|failed)\b|\b(?:errors?|err|warnings?|failures?|failed)"?\s?[:=]\s?"?(?:0|nil|null|none|false)\b)`
	// zeroUnquoted is zeroPattern without the quote before the value
	// (failures="0"): the query a text with no such attribute prints
	// (it finds the same lines, and is shorter).
	zeroUnquoted = `(?i:\b(?:0|no|zero) (?:errors?|warnings?|failures?|failed)\b|\b(?:errors?|err|warnings?|failures?|failed)"?\s?[:=]\s?(?:0|nil|null|none|false)\b)`
)

var (
	errorRe    = regexp.MustCompile(errorPattern)
	locRe      = regexp.MustCompile(locationPattern)
	locErrorRe = regexp.MustCompile(locErrorPattern)
	locWarnRe  = regexp.MustCompile(locWarnPattern)
	locLevelRe = regexp.MustCompile(locLevelPattern)
	demoteRe   = regexp.MustCompile(demotePattern)
	warnRe     = regexp.MustCompile(warnPattern)
	zeroRe     = regexp.MustCompile(zeroPattern)
	zeroUnqRe  = regexp.MustCompile(zeroUnquoted)
	proseRe    = regexp.MustCompile(proseMarkerPattern)
	codeRe     = regexp.MustCompile(codePattern)
	summaryRe  = regexp.MustCompile(summaryPattern)
	codeMarkRe = regexp.MustCompile(codeMarkerPattern)
)

// Severities of a line.
const (
	sevNone = iota
	sevWarn
	sevError
)

// severityHints are lower-case letter runs of which every match of
// errorPattern and warnPattern (apart from the prefixes mayHaveSeverity
// tests itself) contains one: a line with none of them skips the regular
// expressions, the slow part of the pass.
var severityHints = []string{"err", "fatal", "panic", "exception", "traceback", "fail", "crit", "emerg", "abort", "killed", "oom", "segfault", "denied", "refused", "exit", "warn", "deprecated"}

// lineSeverity classifies one line (see errorPattern).
func lineSeverity(line string) int { return lineSeverityOf(line, false) }

// lineSeverityOf classifies one line; locData: of a text of located
// diagnostics (see locErrorPattern).
func lineSeverityOf(line string, locData bool) int {
	if !mayHaveSeverity(line) {
		return sevNone
	}
	s := line
	if zeroRe.MatchString(s) {
		s = zeroRe.ReplaceAllString(s, "")
	}
	if locData && locRe.MatchString(s) {
		switch {
		case locErrorRe.MatchString(s):
			return sevError
		case locWarnRe.MatchString(s):
			return sevWarn
		}
		return sevNone
	}
	if errorRe.MatchString(s) && !demoteRe.MatchString(s) {
		return sevError
	}
	if warnRe.MatchString(s) {
		return sevWarn
	}
	return sevNone
}

// isSummaryLine reports whether a line counts diagnostics
// (summaryPattern) and is not itself one (no location prefix).
func isSummaryLine(line string) bool {
	return summaryRe.MatchString(line) && !locRe.MatchString(line)
}

// isCodeLine reports whether a line with a severity word is a line of
// source code whose severity word is a name, not a level (codePattern
// without a codeMarkerPattern).
func isCodeLine(line string) bool {
	return codeRe.MatchString(line) && !codeMarkRe.MatchString(line)
}

// mayHaveSeverity is a cheap pre-test: false only when neither pattern
// can match line.
func mayHaveSeverity(line string) bool {
	if len(line) >= 2 && (line[0] == 'E' || line[0] == 'F' || line[0] == 'W') && (line[1] == ':' || isDigitByte(line[1])) {
		return true // "E: ", "W: ", "E1125"
	}
	if hasLocationPrefix(line) {
		return true
	}
	// One pass: at each byte, the hints that start with it.
	for i := 0; i < len(line); i++ {
		var hs []string
		switch line[i] | 0x20 {
		case 'e':
			hs = hintsE
		case 'f':
			hs = hintsF
		case 'p':
			hs = hintsP
		case 't':
			hs = hintsT
		case 'c':
			hs = hintsC
		case 'a':
			hs = hintsA
		case 'k':
			hs = hintsK
		case 'o':
			hs = hintsO
		case 's':
			hs = hintsS
		case 'd':
			hs = hintsD
		case 'r':
			hs = hintsR
		case 'w':
			hs = hintsW
		default:
			continue
		}
		for _, h := range hs {
			if hasPrefixFold(line[i:], h) {
				return true
			}
		}
	}
	return false
}

// severityHints by their first letter (TestSeverityHintsByLetter checks
// that they are exactly severityHints).
var (
	hintsE = []string{"err", "exception", "emerg", "exit"}
	hintsF = []string{"fatal", "fail"}
	hintsP = []string{"panic"}
	hintsT = []string{"traceback"}
	hintsC = []string{"crit"}
	hintsA = []string{"abort"}
	hintsK = []string{"killed"}
	hintsO = []string{"oom"}
	hintsS = []string{"segfault"}
	hintsD = []string{"denied", "deprecated"}
	hintsR = []string{"refused"}
	hintsW = []string{"warn"}
)

// hasPrefixFold reports whether s starts with lower-case ASCII prefix,
// ignoring the case of s.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for k := 0; k < len(prefix); k++ {
		if s[k]|0x20 != prefix[k] {
			return false
		}
	}
	return true
}

// detectLocData reports whether nearly every line of a text is a
// diagnostic with a compiler's location prefix and no level word after
// it (go build -gcflags=-m: "x.go:12:6: can inline f"), from its first
// 4,000 lines: at least 20 such lines and 90% of the non-blank lines.
// Such lines are what the text is made of: neither the prefix nor the
// words of the message make an error line of them (locErrorPattern;
// they are profiled by file and form, text_locations.go), and a rare
// form among them is the anomaly.
func detectLocData(data []byte) bool {
	nonBlank, bare := 0, 0
	sampleLines(data, func(line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		nonBlank++
		if locRe.MatchString(line) && !locLevelRe.MatchString(line) {
			bare++
		}
	})
	return bare >= 20 && 10*bare >= 9*nonBlank
}

// hasLocationPrefix reports whether line starts like "file:12:3: ".
func hasLocationPrefix(line string) bool {
	i := 0
	for i < len(line) && line[i] != ':' && line[i] != ' ' && line[i] != '\t' {
		i++
	}
	if i == 0 || i == len(line) || line[i] != ':' {
		return false
	}
	for k := 0; k < 2; k++ {
		i++
		j := i
		for i < len(line) && isDigitByte(line[i]) {
			i++
		}
		if i == j || i == len(line) || line[i] != ':' {
			return false
		}
	}
	return i+1 < len(line) && line[i+1] == ' '
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// severityQuery is the jq filter (over the lines of a text, as compact
// artifact query reads text) that yields "position<TAB>line" for every
// line of severity sev, the lines the profile classified so: of a
// table's rows, the columns other than the name columns are tested (see
// colSplit.severityText); of a text of located diagnostics (locData),
// a located line by the level word after its location.
func (p *textProfile) severityQuery(sev int) string {
	q := jqString(zeroUnquoted)
	if p != nil && p.zeroQuoted {
		q = jqString(zeroPattern)
	}
	e := jqString(errorPattern)
	text := ""
	if p != nil && p.cols != nil && len(p.cols.split.names) > 0 && !p.locData {
		text = p.cols.split.jqSeverityText() + " | "
	}
	if p != nil && p.kind == textGoTest {
		// A test's name is no level (text_testrun.go's testFraming).
		text = `(if test("` + testFramingRe + `") then "" else . end) | `
	}
	isErr := `(test(` + e + `) and (test(` + jqString(demotePattern) + `) | not))`
	if p != nil && p.locPrefixed == 0 {
		// No line starts "file:line:col: ", so the demotion matches
		// none: the query leaves it out and stays short.
		isErr = `test(` + e + `)`
	}
	if p != nil && p.locData {
		loc := `test(` + jqString(locationPattern) + `)`
		isErr = `(if ` + loc + ` then test(` + jqString(locErrorPattern) + `) else ` + isErr + ` end)`
		if sev == sevWarn {
			return `to_entries[] | select(.value | ` + text + `gsub(` + q + `; "") | (if ` + loc + ` then test(` + jqString(locWarnPattern) + `) else (` + isErr + ` | not) and test(` + jqString(warnPattern) + `) end)) | "\(.key)\t\(.value)"`
		}
	}
	var cond string
	if sev == sevError {
		cond = text + `gsub(` + q + `; "") | ` + isErr
	} else {
		cond = text + `gsub(` + q + `; "") | (` + isErr + ` | not) and test(` + jqString(warnPattern) + `)`
	}
	if p != nil && p.kind == textBlocks {
		// Prose: only a severity word that marks its line.
		cond = `test(` + jqString(proseMarkerPattern) + `) and (` + cond + `)`
	}
	// A summary line counts diagnostics; it is none. (Each test is
	// written only when it took a line out: the query stays short and
	// finds the same lines.)
	if p != nil && p.nSummaries > 0 {
		cond = `((test(` + jqString(summaryPattern) + `) and (test(` + jqString(locationPattern) + `) | not)) | not) and (` + cond + `)`
	}
	// The first lines of records led by their indentation: only a
	// severity word that marks the line (text_lead.go).
	lines := `to_entries[]`
	if p != nil && p.leadSev > 0 {
		// $d: the next line is deeper (leadForm.headerQuery's test).
		lines = `. as $l | to_entries[] | (($l[.key + 1] // "") | test(` + jqString(p.recs.lead.deeperRE()) + `)) as $d`
		cond = `((test(` + jqString(p.recs.lead.leadRE()) + `) and $d and (test(` + jqString(proseMarkerPattern) + `) | not)) | not) and (` + cond + `)`
	}
	// The titles of a table's sections (sectionTitle).
	if p != nil && p.titleSev > 0 {
		if lines == `to_entries[]` {
			lines = `. as $l | to_entries[]`
		}
		lines += ` | ($l[.key + 1] // "") as $next`
		cond = `(` + p.cols.split.jqSectionTitle() + ` | not) and (` + cond + `)`
	}
	// The content lines records of key runs annotate (text_keyruns.go).
	if p != nil && p.tabSev > 0 {
		cond = `((test(` + jqString(tabContentPattern) + `) and (test(` + jqString(codeMarkerPattern) + `) | not)) | not) and (` + cond + `)`
	}
	// Code: only a severity word with a marker (isCodeLine).
	if p != nil && p.codeSev > 0 {
		cond = `((test(` + jqString(codePattern) + `) and (test(` + jqString(codeMarkerPattern) + `) | not)) | not) and (` + cond + `)`
	}
	return lines + ` | select(.value | ` + cond + `) | "\(.key)\t\(.value)"`
}

// sectionTitle reports whether line is the title of a section of a
// table (not a list): no row itself, it ends in ':' and the line after
// it is a row, and its severity word is inside a sentence, not a marker
// (proseMarkerPattern: "error: ...", "3 warnings:"). "The following
// options control compiler warning messages:" names what the rows below
// it are; it is no warning (gcc -Q --help=warnings).
func (sp *colSplit) sectionTitle(line, next string) bool {
	if sp.mode == byLine || !strings.HasSuffix(strings.TrimRight(line, " \t"), ":") || proseRe.MatchString(line) {
		return false
	}
	if sp.fields(line) != nil {
		return false
	}
	return sp.fields(next) != nil
}

// jqSectionTitle is sectionTitle in jq, over a line (.value) and the
// line after it ($next).
func (sp *colSplit) jqSectionTitle() string {
	return `(test(":[ \t]*$") and (test(` + jqString(proseMarkerPattern) + `) | not) and ([` + sp.jqFields() + `] | length == 0) and ([$next | ` + sp.jqFields() + `] | length > 0))`
}

// zeroQuotedDiffers reports whether the zero phrases of line differ
// with and without the quote before the value (failures="0"): then the
// view's severity queries need zeroPattern, else zeroUnquoted finds the
// same lines.
func zeroQuotedDiffers(line string) bool {
	return strings.Contains(line, "=\"") && zeroRe.MatchString(line) &&
		zeroRe.ReplaceAllString(line, "") != zeroUnqRe.ReplaceAllString(line, "")
}

// jqString writes s as a jq (JSON) string literal.
func jqString(s string) string {
	b := make([]byte, 0, len(s)+8)
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, c)
		}
	}
	return string(append(b, '"'))
}
