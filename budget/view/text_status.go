package view

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Reports of status lines.
//
// Audit and check tools report one line per check: a label, a gap, and
// a status (lynis and rkhunter "  - Checking X ...   [ OK ]", chkrootkit
// "Checking `amd'...   not found", an init script's "Starting x ...
// [ done ]"). What a user asks of such a report is the statuses: how
// many checks got each, which ones did not pass, and what one check
// (named by its label) got. A line's status is a word of its own only
// once the report is read so (a template "<*> <*> [ <*> ]" says
// nothing), so the view states over every line, exactly:
//
//   - the status lines counted by status ("OK 125, Not found 79,
//     Warning 8");
//   - the lines of the rarer statuses whole (the Warning ones first:
//     a status that is a severity word, then the rarest), with their
//     positions;
//   - per status, the checks' labels in line order, several on a line
//     that starts with the status, so that a check is found by its
//     name with its status beside it.
//
// Two forms are read, one per text (the one with more lines): a status
// in brackets at the end after a gap ("label  [ OK ]", "label [ OK ]"
// with spaces inside the brackets, "label... [OK]"), and a status of one
// to three words after a gap of two spaces, a TAB or dots ("label...
// not found", "path   FAILED"); a status has letters (and '/', '-',
// '_', an apostrophe), no digit, at most statusMaxLen characters. A
// label that ends with ':' or '=' makes no status line (a setting's
// value). The text is such a report when its status lines are at least
// statusMinLines and one in seven of the non-blank lines, of at most
// maxStatuses statuses, the statuses of two lines or more holding 80% of
// them; not a table (its columns count the same values) nor a test
// report (text_testreport.go, text_testrun.go), nor a compiler's or a
// type checker's diagnostics: when the text's error and warning lines
// that are no status lines are at least half as many as its status
// lines, the "statuses" are the codes in brackets after each message
// (mypy --pretty's "  [no-untyped-def]"), found only where a message
// wrapped before its code, so counting them would state partial counts
// as whole (rev17 R4); every line ending in a code in brackets is
// counted by its code instead, whatever comes before it (codesLine). Memory: per status its first statusKeepRows
// lines and statusKeepLabels labels.

const (
	statusMaxLen     = 24  // a status's characters at most
	statusMinLines   = 8   // status lines at least
	maxStatuses      = 48  // statuses at most
	statusKeepRows   = 40  // lines kept per status (the rows of rare statuses)
	statusKeepLabels = 600 // labels kept per status (the lists)
	statusListChunk  = 25  // labels per list candidate
	statusRowsFirst  = 12  // rows per status offered before the spread
)

// Forms of status lines.
const (
	statusBracket = iota // label, gap, [ STATUS ]
	statusWord           // label, gap, STATUS
	statusForms
)

// statusLine is one status line kept.
type statusLine struct {
	pos          int
	label, whole string
}

// statusCount is one status of one form: its lines counted, the first
// kept.
type statusCount struct {
	name   string
	n      int
	first  int
	rows   []statusLine // the first statusKeepRows lines
	labels []statusLine // the first statusKeepLabels labels
}

// statusStats are the status lines of a text, per form.
type statusStats struct {
	nonBlank int
	lines    [statusForms]int
	byName   [statusForms]map[string]*statusCount
	over     [statusForms]bool // more than maxStatuses statuses: no report
	form     int               // the form chosen (finish), -1 when none
	last     int               // the position of the last status line (any form), -1 before one
	diag     int               // error and warning lines that are no status lines (diagnostic)
	// codes counts the lines by the code in brackets they end with,
	// whatever comes before it (nil past maxStatuses codes); codesOut:
	// the text is a diagnostics' (diag), its codes are stated instead of
	// statuses (codesLine).
	codes    map[string]int
	codesOut bool
}

func newStatusStats() *statusStats {
	st := &statusStats{form: -1, last: -1, codes: map[string]int{}}
	for f := range st.byName {
		st.byName[f] = map[string]*statusCount{}
	}
	return st
}

// statusWordsOK reports whether s is a status: one to three words of
// letters ('/', '-', '_' and an apostrophe inside), at least one
// letter, no digit, at most statusMaxLen characters.
func statusWordsOK(s string) bool {
	if s == "" || len(s) > statusMaxLen {
		return false
	}
	f := strings.Fields(s)
	if len(f) > 3 {
		return false
	}
	letter := false
	for _, w := range f {
		for i := 0; i < len(w); i++ {
			c := w[i]
			switch {
			case isLetterByte(c):
				letter = true
			case c == '/' || c == '-' || c == '_' || c == '\'':
			default:
				return false
			}
		}
	}
	return letter
}

// labelOK reports whether a status line's label is one: it has a
// letter, and it is no setting ("Name:", "key =").
func labelOK(l string) bool {
	if l == "" || strings.HasSuffix(l, ":") || strings.HasSuffix(l, "=") {
		return false
	}
	for i := 0; i < len(l); i++ {
		if isLetterByte(l[i]) {
			return true
		}
	}
	return false
}

// trimLabel is a status line's label as listed: its runs of blanks as
// one space, trailing dots and blanks dropped.
func trimLabel(s string) string {
	return strings.TrimRight(strings.Join(strings.Fields(s), " "), " .")
}

// statusOf splits a line into its label and its status, in the form
// given; ok is false when the line has no status of that form.
func statusOf(line string, form int) (label, status string, ok bool) {
	t := strings.TrimRight(line, " \t")
	switch form {
	case statusBracket:
		if !strings.HasSuffix(t, "]") {
			return "", "", false
		}
		i := strings.LastIndexByte(t, '[')
		if i <= 0 {
			return "", "", false
		}
		inner := t[i+1 : len(t)-1]
		s := strings.TrimSpace(inner)
		if !statusWordsOK(s) {
			return "", "", false
		}
		pre := t[:i]
		gap := len(pre) - len(strings.TrimRight(pre, " \t"))
		l := strings.TrimSpace(pre)
		spaced := strings.HasPrefix(inner, " ")
		if !(gap >= 2 || spaced && gap >= 1 || strings.HasSuffix(l, "...")) || !labelOK(l) {
			return "", "", false
		}
		return trimLabel(l), strings.Join(strings.Fields(s), " "), true
	case statusWord:
		// The last gap: two blanks, a TAB, or dots.
		j := -1
		for _, g := range []string{"  ", "\t", "..."} {
			if k := strings.LastIndex(t, g); k > j {
				j = k
			}
		}
		if j <= 0 {
			return "", "", false
		}
		s := strings.TrimSpace(strings.TrimLeft(t[j:], " \t."))
		l := strings.TrimSpace(t[:j])
		if !statusWordsOK(s) || !labelOK(strings.TrimRight(l, ".")) {
			return "", "", false
		}
		return trimLabel(l), strings.Join(strings.Fields(s), " "), true
	}
	return "", "", false
}

// add reads one line.
func (st *statusStats) add(pos int, line string) {
	if strings.TrimSpace(line) == "" {
		return
	}
	st.nonBlank++
	if st.codes != nil {
		if c := trailingCode(line); c != "" {
			if st.codes[c]++; len(st.codes) > maxStatuses {
				st.codes = nil
			}
		}
	}
	for f := 0; f < statusForms; f++ {
		if st.over[f] {
			continue
		}
		l, s, ok := statusOf(line, f)
		if !ok {
			continue
		}
		c := st.byName[f][s]
		if c == nil {
			if len(st.byName[f]) >= maxStatuses {
				st.over[f] = true
				st.byName[f] = nil
				continue
			}
			c = &statusCount{name: s, first: pos}
			st.byName[f][s] = c
		}
		c.n++
		st.lines[f]++
		st.last = pos
		if len(c.rows) < statusKeepRows {
			c.rows = append(c.rows, statusLine{pos, l, line})
		}
		if len(c.labels) < statusKeepLabels {
			c.labels = append(c.labels, statusLine{pos: pos, label: l})
		}
		break // a line has one status: the first form's
	}
}

// trailingCode is the code in brackets a line ends with ("...
// [no-untyped-def]", "[import]" alone on a wrapped line): a status's
// words (statusWordsOK) between '[' and ']', blanks around them
// trimmed, the '[' opening the line or after a blank; "" when the line
// ends otherwise.
func trailingCode(line string) string {
	t := strings.TrimRight(line, " \t")
	if !strings.HasSuffix(t, "]") {
		return ""
	}
	i := strings.LastIndexByte(t, '[')
	if i < 0 || i > 0 && t[i-1] != ' ' && t[i-1] != '\t' {
		// A '[' after a name opens a type's parameters or an index
		// ("-> Optional[ModuleSpec]"), no code (REVIEW18 R11).
		return ""
	}
	c := strings.TrimSpace(t[i+1 : len(t)-1])
	if !statusWordsOK(c) {
		return ""
	}
	return strings.Join(strings.Fields(c), " ")
}

// codesLine states, in a type checker's diagnostics that end each
// message with a code in brackets (codesOut: mypy's "  [no-untyped-def]",
// the code on the message's line or on the line the message wrapped
// to), every such line counted by its code: "" otherwise.
func (st *statusStats) codesLine() string {
	if st == nil || !st.codesOut || st.codes == nil {
		return ""
	}
	ks, total := byCount(st.codes)
	var parts []string
	for _, x := range ks {
		parts = append(parts, fmt.Sprintf("%s %s", x.k, commas(x.n)))
	}
	return fmt.Sprintf("codes in brackets at the end of a line (a diagnostic's code after its message, on its line or on the line it wrapped to): %s lines, by code: %s",
		commas(total), strings.Join(parts, ", "))
}

// diagnostic reads the severity of the line at pos (text_profile.go):
// an error or a warning line that is no status line is a diagnostic.
func (st *statusStats) diagnostic(pos int) {
	if st.last != pos {
		st.diag++
	}
}

// finish chooses the form of the report, or none: the form with the
// most status lines, when they are a report (see the file's comment).
func (st *statusStats) finish() {
	best := -1
	for f := 0; f < statusForms; f++ {
		if !st.over[f] && (best < 0 || st.lines[f] > st.lines[best]) {
			best = f
		}
	}
	if best < 0 {
		return
	}
	n := st.lines[best]
	if n < statusMinLines || 7*n < st.nonBlank {
		return
	}
	if 2*st.diag >= n {
		st.codesOut = best == statusBracket && len(st.codes) >= 2
		return
	}
	rep := 0
	for _, c := range st.byName[best] {
		if c.n >= 2 {
			rep += c.n
		}
	}
	if 10*rep < 8*n {
		return
	}
	st.form = best
}

// active reports whether the text is a report of status lines.
func (st *statusStats) active() bool { return st != nil && st.form >= 0 }

// statuses are the statuses of the chosen form, most lines first (then
// the first to appear).
func (st *statusStats) statuses() []*statusCount {
	var out []*statusCount
	for _, c := range st.byName[st.form] {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].first < out[j].first
	})
	return out
}

// formText says how the status lines are written.
func (st *statusStats) formText() string {
	if st.form == statusBracket {
		return "a label, then a status in brackets at the end: label  [ STATUS ]"
	}
	return "a label, then a status of one to three words after a gap of spaces or dots: label...  STATUS"
}

// factLine states the status lines by status: always shown.
func (st *statusStats) factLine() string {
	var parts []string
	for _, c := range st.statuses() {
		parts = append(parts, fmt.Sprintf("%s %s", c.name, commas(c.n)))
	}
	return fmt.Sprintf("status lines (%s): %s of %s non-blank lines, by status: %s",
		st.formText(), commas(st.lines[st.form]), commas(st.nonBlank), strings.Join(parts, ", "))
}

// severe reports whether a status says something failed or needs a
// look: a severity word, or a word of failure.
func severeStatus(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		switch w {
		case "warning", "warn", "error", "fail", "failed", "failure", "critical", "bad", "infected", "vulnerable",
			"suggestion", "different", "weak", "unsafe", "insecure", "missing", "denied", "invalid", "alert", "danger":
			return true
		}
	}
	return false
}

// rareStatuses are the statuses whose lines the view shows whole: all
// but the commonest, of at most a tenth of the status lines (at least
// 3) or a severe one; severe first, then the rarest.
func (st *statusStats) rareStatuses() []*statusCount {
	all := st.statuses()
	n := st.lines[st.form]
	var out []*statusCount
	for i, c := range all {
		if i > 0 && (10*c.n <= n || c.n <= 3 || severeStatus(c.name)) {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := severeStatus(out[i].name), severeStatus(out[j].name)
		if a != b {
			return a
		}
		return out[i].n < out[j].n
	})
	return out
}

// statusRE is the regular expression (as jq tests a line) of a line of
// status s in the report's form.
func (st *statusStats) statusRE(s string) string {
	q := regexp.QuoteMeta(s)
	q = strings.ReplaceAll(q, " ", " +")
	if st.form == statusBracket {
		return `\[ *` + q + ` *\][ \t]*$`
	}
	return `(  |\t|\.\.\.)[ \t.]*` + q + `[ \t]*$`
}

// statusCandidates adds the rows of the rarer statuses (tsStatus) and
// the labels by status (tsStatusLabels).
func (tc *textCands) statusCandidates(add func(sec, key, rec int, reason, text string), setPrio func(int)) {
	st := tc.p.status
	if !st.active() {
		return
	}
	rows := map[string]bool{} // statuses whose every line is a row
	for _, c := range st.rareStatuses() {
		rows[c.name] = len(c.rows) == c.n
		for i, l := range c.rows {
			// A failure's first lines with the anomalies, the other
			// rare statuses' after the structure (templates, records).
			p := PrioSecond
			switch {
			case severeStatus(c.name) && i < statusRowsFirst:
				p = PrioAnomaly
			case i >= statusRowsFirst:
				p = PrioSpread
			}
			setPrio(p)
			add(tsStatus, l.pos, l.pos, "status "+c.name, fmt.Sprintf("  %d\t%s", l.pos, cutLine(l.whole)))
		}
	}
	k := 0
	for _, c := range st.statuses() {
		if rows[c.name] {
			continue
		}
		for i := 0; i < len(c.labels); i += statusListChunk {
			ls := c.labels[i:min(i+statusListChunk, len(c.labels))]
			var names []string
			for _, l := range ls {
				names = append(names, cut(l.label, 100))
			}
			p := PrioSecond
			if i > 0 {
				p = PrioSpread
			}
			setPrio(p)
			add(tsStatusLabels, k, -1, "status labels", fmt.Sprintf("  %s (%s lines; %s-%s, lines %d-%d): %s",
				c.name, commas(c.n), commas(i+1), commas(i+len(ls)), ls[0].pos, ls[len(ls)-1].pos, strings.Join(names, "; ")))
			k++
		}
	}
}

// statusHead is the head of the rows of the rarer statuses.
func (tc *textCands) statusHead(cs []Candidate) string {
	st := tc.p.status
	n := 0
	for _, c := range st.rareStatuses() {
		n += c.n
	}
	ex := st.rareStatuses()[0].name
	return fmt.Sprintf("status lines of the rarer statuses (a status that says something failed first, then the rarest; showing %s of %s), line<TAB>text:\nevery line of one status (here %s): compact artifact query %s --jq %s\n",
		commas(len(cs)), commas(n), ex, tc.in.Handle, tc.jq(`to_entries[] | select(.value | test(`+jqString(st.statusRE(ex))+`)) | "\(.key)\t\(.value)"`))
}

// statusLabelsHead is the head of the labels by status.
func (tc *textCands) statusLabelsHead(cs []Candidate) string {
	st := tc.p.status
	top := st.statuses()[0].name
	return fmt.Sprintf("the checks by status, their labels in line order (the line before its status, blanks as one space; showing %s lists of %s labels each, the first %s labels of a status at most), status (its lines; which of them, their line range): label; label:\nevery line of one status (here %s): compact artifact query %s --jq %s\n",
		commas(len(cs)), commas(statusListChunk), commas(statusKeepLabels), top, tc.in.Handle, tc.jq(`to_entries[] | select(.value | test(`+jqString(st.statusRE(top))+`)) | "\(.key)\t\(.value)"`))
}
