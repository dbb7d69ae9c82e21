package view

import (
	"fmt"
	"sort"
	"strings"
)

// Records of "key value" lines under a header line.
//
// git blame --porcelain writes, the first time a commit appears, its
// header line ("<sha> <orig> <final> <n>") and then a run of lines
// "author Eric Paris", "author-mail <...>", "author-time 1439663784",
// "summary ...", "filename flag.go"; every other line of the file only
// its header and its content after a TAB. git cat-file --batch, git log
// --format=raw and mail headers write records the same way: a key that
// is one lower-case word (with '-'), one space, the value. Read as lines,
// "author Eric Paris" is a template whose slots split a name in two;
// read as records, each run with the line before it is a record (a
// commit) with named fields: how many there are, who wrote how many,
// the newest by author-time and its summary. So a run of at least 3
// such lines whose keys recur (each of at least 3 keys in half of the
// runs or more), after lines of one shape (a commit's "<sha> <n> <n>
// <n>", not a build log's commands), makes the line before it a
// record's first line; the record is that line and the run; the lines after the run (a content
// line, a repeated header) are no record's. The keys are then profiled
// per record like Key: value records (text_kvrecords.go).

// keyRuns are the keys of a text's "key value" runs.
type keyRuns struct {
	keys map[string]bool // the keys that recur in the runs
	list []string        // the same, in order of first appearance
}

const (
	keyRunMin  = 3  // lines of a run at least
	keyRunRecs = 5  // runs at least
	keyRunKeys = 3  // keys in half the runs at least
	keyMaxLen  = 30 // a key's length at most
)

// keyLine splits a line "key value" (or a key alone: "boundary"): a key
// of lower-case ASCII letters, digits and '-', starting with a letter,
// at column 0, then one space and the value.
func keyLine(line string) (key, val string, ok bool) {
	if line == "" || line[0] < 'a' || line[0] > 'z' {
		return "", "", false
	}
	i := 1
	for i < len(line) && (line[i] >= 'a' && line[i] <= 'z' || isDigitByte(line[i]) || line[i] == '-') {
		i++
	}
	if i > keyMaxLen || i < 2 || line[i-1] == '-' {
		return "", "", false
	}
	if i == len(line) {
		return line, "", true
	}
	if line[i] != ' ' || i+1 == len(line) || line[i+1] == ' ' {
		return "", "", false
	}
	return line[:i], line[i+1:], true
}

// detectKeyRuns finds the "key value" runs of a text (of kind) from its
// first 4,000 lines, or nil: at least keyRunRecs runs of keyRunMin lines
// or more, each after a line that is no key line, and at least
// keyRunKeys keys in half of the runs or more.
func detectKeyRuns(data []byte, kind string) *keyRuns {
	switch kind {
	case textPlain, textBlocks:
	default:
		return nil
	}
	var runs [][]string
	var cur []string
	prevOther := false // the line before the current run is no key line
	prev := ""
	started := false
	shapes := map[string]int{} // the runs' first lines by their shape
	end := func() {
		if started && len(cur) >= keyRunMin {
			runs = append(runs, cur)
		}
		cur, started = nil, false
	}
	sampleLines(data, func(line string) {
		k, _, ok := keyLine(line)
		if !ok {
			end()
			prevOther = strings.TrimSpace(line) != ""
			prev = line
			return
		}
		if !started {
			if !prevOther {
				prevOther = false
				return // a run needs a first line before it
			}
			started = true
			shapes[lineShape(prev)]++
		}
		cur = append(cur, k)
		prevOther = false
	})
	end()
	if len(runs) < keyRunRecs {
		return nil
	}
	// The runs' first lines are of one shape (a commit's "<sha> <n> <n>
	// <n>"), not commands of a log that happen to start with a word.
	if ks, total := byCount(shapes); 10*ks[0].n < 8*total {
		return nil
	}
	in := map[string]int{}
	var order []string
	for _, r := range runs {
		seen := map[string]bool{}
		for _, k := range r {
			if !seen[k] {
				seen[k] = true
				if in[k] == 0 {
					order = append(order, k)
				}
				in[k]++
			}
		}
	}
	kr := &keyRuns{keys: map[string]bool{}}
	for _, k := range order {
		if 2*in[k] >= len(runs) {
			kr.keys[k] = true
			kr.list = append(kr.list, k)
		}
	}
	if len(kr.list) < keyRunKeys {
		return nil
	}
	return kr
}

// lineShape is the shape of a line: the class of each of its first 6
// white-space-separated tokens (h: 7 hexadecimal digits or more with a
// digit, n: a number, w: a word of letters, x: anything else).
func lineShape(line string) string {
	var b strings.Builder
	for i, t := range strings.Fields(line) {
		if i == 6 {
			break
		}
		c := byte('x')
		switch {
		case len(t) >= 7 && isHexString(t) && strings.ContainsAny(t, "0123456789"):
			c = 'h'
		case strings.Trim(t, "0123456789") == "":
			c = 'n'
		case letters(t):
			c = 'w'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// starts reports whether a run starts at line (a key line of a key that
// recurs).
func (kr *keyRuns) starts(line string) bool {
	k, _, ok := keyLine(line)
	return ok && kr.keys[k]
}

// unit is how the view names the records.
func (kr *keyRuns) unit() string {
	ks := kr.list
	more := ""
	if len(ks) > 6 {
		ks, more = ks[:6], ", ..."
	}
	return fmt.Sprintf("records (each a line and the run of \"key value\" lines after it: %s%s; the lines after a run are no record's)", strings.Join(ks, ", "), more)
}

// headerQuery is the jq of every record's first line with its number: a
// line that is no key line followed by a line of a recurring key.
func (kr *keyRuns) headerQuery() string {
	keys := append([]string(nil), kr.list...)
	sort.Strings(keys)
	return fmt.Sprintf(`. as $l | range(length) | select(($l[.] | test(%s) | not) and (($l[.] | test("\\S"))) and (($l[. + 1] // "") | test(%s))) | "\(.)\t\($l[.])"`,
		jqString(`^[a-z][a-z0-9-]{0,29}(?: [^ ]|$)`), jqString(`^(?:`+strings.Join(keys, "|")+`)(?: [^ ]|$)`))
}

// feedKeyRun places the pending line of records of key runs, next being
// the line after it: a record's first line (no key line, a recurring
// key's line after it), a line of the current record's run, or no
// record's line.
func (rs *recordStats) feedKeyRun(pl *pendLine, next string) {
	_, _, isKey := keyLine(pl.text)
	switch {
	case !pl.blank && !isKey && rs.keys.starts(next):
		rs.add(pl.pos, pl.text, false, true, pl.sev)
	case isKey && rs.cur != nil:
		rs.add(pl.pos, pl.text, false, false, pl.sev)
	default:
		rs.finish()
		rs.prevBlank = pl.blank
	}
}

// tabContentPattern: a line of the content that records of key runs
// annotate (git blame's source line after its TAB), with no level marker
// (codeMarkerPattern: "error:", "ERROR"): a severity word in it is the
// content's ("panic(msg)" of the blamed file), not a level of the text.
const tabContentPattern = `^\t`

// tabContent reports whether line is such a line of content.
func tabContent(line string) bool {
	return strings.HasPrefix(line, "\t") && !codeMarkRe.MatchString(line)
}

// splitLine splits a line of a record's body into its key and value:
// kvRecLine's Key: value, or a key run's "key value".
func (kp *kvRecProfile) splitLine(line string) (key, val string, ok bool) {
	if kp.keyRuns {
		return keyLine(line)
	}
	return kvRecLine(line)
}

// keysInOrder orders the keys of records of key runs for their profile:
// the first key (the record's main field: a commit's author) first, then
// the keys only some records have (a commit's "previous": 110 of 111;
// "boundary": the one without), then the others, each group in order of
// first appearance. (A key every record has is summed and counted like
// the others; one some records lack is also a distribution.)
func (rs *recordStats) keysInOrder() {
	if rs.keys == nil || rs.kv == nil || len(rs.kv.order) < 2 {
		return
	}
	o := rs.kv.order
	rest := append([]*kvRecKey(nil), o[1:]...)
	sort.SliceStable(rest, func(i, j int) bool {
		return rest[i].records < rs.n && rest[j].records == rs.n
	})
	copy(o[1:], rest)
}
