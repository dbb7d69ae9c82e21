package bench

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineNumberPrefix is a line number and a tab at the start of a shown
// text line, also once maskNotData has blanked the number with '#'.
var lineNumberPrefix = regexp.MustCompile(`^\s*[\d#]+\t`)

// NearBytes is how far a string needle may stand from an occurrence of its
// question's record (the record's identifier, or the word the answer is
// stated with) when they are not on the same line; NearNumberBytes is the
// distance for a number or boolean needle, which must stand right beside
// its label ("Pending 3", "3 pods failed", "\"restarts\": 3").
const (
	NearBytes       = 600
	NearNumberBytes = 80
)

// span is one occurrence of a needle in a text: [start, end) in bytes.
type span struct{ start, end int }

// VisibleFor is the field-aware visibility rule, the "from the view"
// measure of compact bench. Without a record it is VisibleIn: every needle
// at word boundaries anywhere. With one (Answer.Record, alternatives),
// every needle must occur near an occurrence of one of the record strings:
// on the same line, or within NearBytes of it (NearNumberBytes for a
// number or boolean needle, unless the question is of the record
// category: a field of a record may stand further from its identifier
// than a count from its label). When the identifier's line is a whole
// record by itself (a table row, a JSON object on one line), only that
// line is near it. A needle that occurs only elsewhere (a "3"
// in another row, a name in an unrelated list) does not count. Neither
// needles nor record strings are found inside the view's suggested
// queries or the line ranges of its layout (maskNotData).
//
// Without a record, an answer that is one name (the largest, the last,
// the failed one) is not singled out by standing in the middle of a list
// of names: an item after a ", " or "; " with more items after it on its
// line, or a value of a census list after its first (the most frequent)
// item (listedAmongOthers), nor by being an item of a list in a cell of a
// table row, the first included ("libnpmpublish\t/x/publish.js,/x/unpublish.js"
// says which files require libnpmpublish, not which file requires the
// most packages). The first or the last of something (KindFirst, KindLast)
// is not read off a census or a template's values: those lists are
// ordered by count, not by position (orderedList). A count of records
// (how many, how many have X) is no cell of a table row that names its
// record in another cell (rowField): the row is one record, and its cells
// are that record's fields ("…\ttarget_link_libraries\t20\tCMakeLists.txt"
// is line 20 of the file, not 20 commands from it). A record written in
// the plural also stands for its singular ("warnings" for "warning lines:
// 174").
func (a Answer) VisibleFor(content string) bool {
	ordered := a.Kind == KindFirst || a.Kind == KindLast
	if len(a.Record) == 0 {
		if len(a.Needles) == 1 && !isNumeric(a.Needles[0]) {
			return singledOut(maskNotData(content), a.Needles[0], ordered)
		}
		return a.VisibleIn(content)
	}
	content = maskNotData(content)
	if len(a.Needles) == 0 {
		return false
	}
	var anchors []span
	for _, r := range a.Record {
		anchors = append(anchors, nameOccurrences(content, r)...)
		if sg, ok := singular(r); ok {
			anchors = append(anchors, nameOccurrences(content, sg)...)
		}
	}
	if len(anchors) == 0 {
		return false
	}
	readOff := a.Kind == KindLookup || a.Kind == KindFirst || a.Kind == KindLast
	counted := a.Kind == KindCount || a.Kind == KindFilterCount || a.Kind == KindSum
	// records counted: how many records (all of them or those with X),
	// not a total over a field.
	records := a.Kind == KindCount || a.Kind == KindFilterCount
	if a.Kind == KindCount && len(a.Needles) == 1 && wholeListOf(content, a.Needles[0], anchors) {
		return true
	}
	for _, n := range a.Needles {
		if !needleNear(content, n, anchors, a.Category == CategoryRecord, readOff, counted, records, a.Kind == KindFilterCount || a.Kind == KindSum, ordered) &&
			!(readOff && underHeader(content, n, anchors)) {
			return false
		}
	}
	return true
}

// nameOccurrences lists the occurrences of a record string r that name
// that record: not the head of a longer name joined by a '-' and a letter
// ("gnupg" in "gnupg-l10n", "curl" in "curl-config"), which is another
// record. A '-' and a digit goes on with a version or a variant of the
// same name ("BenchmarkAdd-2", "curl-7.88"), and a '.' or '/' opens a
// member or a child of the record ("fix.replacements" is a field of fix,
// "cmd/cgo" a directory under cmd), which still speaks of it. (A needle
// keeps every head occurrence: "/usr/share/doc" names the directory of
// "/usr/share/doc/bash", "2024-02" the month of "2024-02-03".)
func nameOccurrences(s, r string) []span {
	out := occurrences(s, r)
	if r == "" || r[len(r)-1] == '-' {
		return out
	}
	kept := out[:0]
	for _, o := range out {
		if o.end+1 < len(s) && s[o.end] == '-' && letterAt(s, o.end+1) {
			continue
		}
		kept = append(kept, o)
	}
	return kept
}

// letterAt reports whether a letter starts at byte i of s.
func letterAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return i < len(s) && unicode.IsLetter(r)
}

// underHeader reports whether some occurrence of needle n lies in a cell
// of a tab-separated table row whose column header is one of the anchors:
// the first line of the run of lines with the same number of tab-separated
// cells that holds the row, its cell at the same index containing the
// anchor. A table labels each cell by its column, however far below the
// header the row is ("Plan\tPlanning Time\tExecution Time" above a row
// ending in "\t1.091\t431.729"). Only a value read off one record (a
// lookup, the first or the last) counts this way: a count or a sum is no
// cell of the table.
func underHeader(content, n string, anchors []span) bool {
	for _, o := range occurrences(content, n) {
		lineStart := strings.LastIndexByte(content[:o.start], '\n') + 1
		rowEnd := len(content)
		if i := strings.IndexByte(content[o.end:], '\n'); i >= 0 {
			rowEnd = o.end + i
		}
		// Tabs that indent the row separate no cells.
		rowStart := lineStart + indent(content[lineStart:o.start])
		row := content[rowStart:rowEnd]
		cells := strings.Count(row, "\t") + 1
		if cells < 2 || strings.Contains(content[o.start:o.end], "\t") {
			continue
		}
		col := strings.Count(content[rowStart:o.start], "\t")
		// Walk up to the first line of the run of lines with as many cells.
		hLine, hStart, hEnd := lineStart, rowStart, rowEnd
		for hLine > 0 {
			prevEnd := hLine - 1
			prevLine := strings.LastIndexByte(content[:prevEnd], '\n') + 1
			prevStart := prevLine + indent(content[prevLine:prevEnd])
			if strings.Count(content[prevStart:prevEnd], "\t")+1 != cells {
				break
			}
			hLine, hStart, hEnd = prevLine, prevStart, prevEnd
		}
		if hStart == rowStart {
			continue // the row is the header itself
		}
		// A header names columns; a line that starts with a number is a
		// row (the numbered lines of a text view, "12\tPackage: x").
		first := strings.TrimSpace(content[hStart:hEnd])
		if i := strings.IndexByte(first, '\t'); i >= 0 {
			first = first[:i]
		}
		if isNumeric(first) {
			continue
		}
		// The span of cell col of the header line.
		cStart := hStart
		for i := 0; i < col; i++ {
			cStart += strings.IndexByte(content[cStart:hEnd], '\t') + 1
		}
		cEnd := hEnd
		if i := strings.IndexByte(content[cStart:hEnd], '\t'); i >= 0 {
			cEnd = cStart + i
		}
		for _, a := range anchors {
			if a.start >= cStart && a.end <= cEnd {
				return true
			}
		}
	}
	return false
}

// indent is the length of the run of spaces and tabs that opens line.
func indent(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// needleNear reports whether some occurrence of needle n is near one of
// the anchors. A value read off one record (readOff) is not the count a
// census states after a value (censusCount), and a count or a sum
// (counted) is not a value such a census lists (censusValue). A count of
// records (records) is no measure written with its unit ("32 bytes",
// "416.8 ns/op", "12%": measured), and a count of the records that have
// something, or a sum (some), is not the number of a field's distinct
// values ("duration (number, 7 distinct)"). The first or the last of
// something (ordered) is no value of a census or of a template's slot
// (orderedList). A count of records that is not about one record
// (counted, not field) is no cell of a row whose record an anchor names
// in another cell (rowField).
func needleNear(content, n string, anchors []span, field, readOff, counted, records, some, ordered bool) bool {
	window := NearBytes
	if !field && (isNumeric(n) || n == "true" || n == "false") {
		window = NearNumberBytes
	}
	for _, o := range occurrences(content, n) {
		if readOff && censusCount(content, o) {
			continue
		}
		if records && measured(content, o) {
			continue // "32 bytes in 1 blocks are still reachable": a size, not 32 records
		}
		if some && distinctCount(content, o) {
			continue // the number of a field's values, not of records with one
		}
		if counted && censusValue(content, o) {
			continue // a value of the list, counted by the number after it
		}
		if ordered && orderedList(content, o) {
			continue // a list ordered by count says nothing of position
		}
		w := window
		if censusCount(content, o) {
			// The count of the value before it, labelled by that value or
			// by the head of its line when the list is the head's own
			// ("ActionsEnabled (bool): true 295, false 65"), not by the
			// head of another list of the line (after a "; ") nor by a word
			// of another line.
			for _, a := range anchors {
				if censusItem(content, o, a) || a.end <= o.start && inLineHead(content, a) &&
					!strings.ContainsAny(content[a.end:o.start], "\n") && !strings.Contains(content[a.end:o.start], "; ") {
					return true
				}
			}
			continue
		}
		if clauseStart, ok := partCount(content, o); ok {
			// "frame=1 is rare (20 of 1,511)": the 20 counts the records
			// with frame=1, not the file named in another cell of the row.
			for _, a := range anchors {
				if a.start >= clauseStart && a.end <= o.start {
					return true
				}
			}
			continue
		}
		if templateCount(content, o) || field && sharedValue(content, o) {
			w = 0 // labelled by its own line: only that line is near
		}
		label, labelled := quotedLabel(content, o)
		key, keyed := valueOfKey(content, o)
		for _, a := range anchors {
			if labelled && !(a.start >= label.start && a.end <= label.end) && inOtherQuote(content, a) {
				continue // the count of another value of the list
			}
			if counted && keyed && !(a.start >= key.start && a.end <= key.end) {
				continue // the value of another key ("weight=3", "shrinks:8")
			}
			if referenced(content, a) && selfContained(lineAt(content, a.start)) {
				continue // another record named by a cell of this row ("master=br0")
			}
			if counted && !field && rowField(content, o, a) {
				continue // a field of the row's record, not a count of records
			}
			if near(content, o, a, w) {
				return true
			}
		}
	}
	return false
}

// unitAfter recognises a unit of measure written right after a number:
// a size ("32 bytes", "114 B/op", "4 KiB"), a time ("416.8 ns/op", "12
// ms", "3 seconds") or a percentage ("12%").
var unitAfter = regexp.MustCompile(`^(?:%| (?:bytes?|[kKMGT]i?B|B|ms|µs|us|ns|s|secs?|seconds?|minutes?|hours?)\b)`)

// measured reports whether the number at o is a measure with its unit
// (unitAfter): it says how large or how long something is, never how
// many records there are (valgrind's "32 bytes in 1 blocks are still
// reachable in loss record 1 of 124" does not say that 32 loss records
// are still reachable).
func measured(s string, o span) bool {
	return unitAfter.MatchString(s[o.end:min(len(s), o.end+12)])
}

// distinctAfter recognises the count of a field's distinct values: "(7
// distinct)", "15 distinct values", "143 distinct".
var distinctAfter = regexp.MustCompile(`^ distinct\b`)

// distinctCount reports whether the number at o counts the distinct
// values of a field ("duration (number, 7 distinct): 0 6, 1 3, ..."): it
// says how many different values there are, not how many records have a
// value or what they add up to.
func distinctCount(s string, o span) bool {
	return distinctAfter.MatchString(s[o.end:min(len(s), o.end+12)])
}

// valueOfKey returns the unquoted key a number is the value of, written
// right before it as "key=N" or "key:N" (redis INFO's
// "reply_buffer_shrinks:8", "usec=8", nginx's "weight=3"), and whether
// there is one: a key is a run of letters, digits, '_', '.', '-' and '|'
// opening with a letter (so "10:32" and "127.0.0.1:8081" are no key).
// Such a number is what that key holds: it counts nothing else, so a
// count question is answered by it only when the key is the record
// ("failed_calls=1" for failed calls), never by a record nearby.
func valueOfKey(s string, o span) (span, bool) {
	if o.start < 2 || s[o.start-1] != '=' && s[o.start-1] != ':' {
		return span{}, false
	}
	end := o.start - 1
	start := end
	for start > 0 {
		c := s[start-1]
		if c == '_' || c == '.' || c == '-' || c == '|' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			start--
			continue
		}
		break
	}
	if start == end || !(s[start] >= 'a' && s[start] <= 'z' || s[start] >= 'A' && s[start] <= 'Z') {
		return span{}, false
	}
	return span{start, end}, true
}

// referenced reports whether the anchor a is the value of a "key=" cell
// ("master=br0", `table="200"`): a row that names another record in one
// of its cells is not that record's row (ip addr's veth1 row, enslaved to
// br0, holds veth1's promiscuity, not br0's STP state).
func referenced(s string, a span) bool {
	i := a.start
	if i > 0 && s[i-1] == '"' {
		i--
	}
	return i > 0 && s[i-1] == '='
}

// censusList recognises a line that lists values with their counts: a
// profile line ("issuerId (null, in 852 of 856 records): null 852,
// missing 4"), a template slot's values ("<*>2 (7 values): code 2, exit
// 1"), the counts of a column or of lines ("most frequent: ...", "(exact
// counts): ..."). The submatch ends where the list starts.
var censusList = regexp.MustCompile(`^\s*(?:\S[^:]* \([^)]*\)|.*?values\)|.*?most frequent|.*?most repeated|.*?\(exact counts\)): `)

// censusCountAfter is what follows a count in such a list: the next
// item, the end of the line or of a list in parentheses ("11 distinct
// (br0 1, br1 1, ..., tun0 1), longest 8 chars": the 1 after tun0 counts
// the records holding tun0, like every other count of the list).
var censusCountAfter = regexp.MustCompile(`^(?:$|[,;]| \(|\)(?:$|[,;]))`)

// censusCount reports whether the number at o is a count in a census list:
// it follows a value and a space, after the list's start, and ends an
// item. It says how many records hold the value before it, not what a
// record holds ("exit 1": one line has "exit" there; "missing 4": four
// records lack the field).
func censusCount(s string, o span) bool {
	start := strings.LastIndexByte(s[:o.start], '\n') + 1
	end := strings.IndexByte(s[o.end:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += o.end
	}
	if !countText(s[o.start:o.end]) {
		return false // a word is no count ("warn (9): no-console, ...": the list's head)
	}
	if before := s[start:o.start]; strings.HasSuffix(before, "most ") || strings.HasSuffix(before, "fewest ") {
		return false // an extreme, labelled by the record after it: `most 59 (in "./mcp:")`
	}
	m := censusList.FindStringIndex(s[start:end])
	if m == nil || start+m[1] > o.start || o.start < 2 || s[o.start-1] != ' ' || s[o.start-2] == ',' || s[o.start-2] == ':' {
		return false
	}
	return censusCountAfter.MatchString(s[o.end:end])
}

// countText reports whether t is written as a count: digits, with
// thousands separators or a decimal point ("3", "1,314", "2.5").
func countText(t string) bool {
	digits := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9':
			digits = true
		case c == ',' || c == '.':
		default:
			return false
		}
	}
	return digits
}

// censusValue reports whether the needle at o is a value of a census
// list, followed by its own count (`"19" 18`, `2 15` in "clones (number):
// 0 341, 1 16, 2 15"): it says which value the records hold, so it is no
// count of anything (heldout13w: 19 functions never called "stated" by
// a map's member name "19" listed with the 18 records holding it).
func censusValue(s string, o span) bool {
	end := strings.IndexByte(s[o.end:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += o.end
	}
	i := o.end
	if i < end && s[i] == '"' {
		i++
	}
	if i+1 >= end || s[i] != ' ' || s[i+1] < '0' || s[i+1] > '9' {
		return false
	}
	j := i + 1
	for j < end && (s[j] >= '0' && s[j] <= '9' || s[j] == ',' && j+1 < end && s[j+1] >= '0' && s[j+1] <= '9') {
		j++
	}
	return censusCount(s, span{i + 1, j})
}

// censusItem reports whether anchor a is (or is inside) the value whose
// census count stands at o: before it in the same item of the list ("Pending
// 3", "shadow) 4", "\"curl,zlib1g\" 3"), not the list's label nor another item.
func censusItem(s string, o, a span) bool {
	if a.end > o.start {
		return false
	}
	gap := s[a.end:o.start]
	return len(gap) <= 48 && !strings.Contains(gap, "\n") && !strings.Contains(gap, ", ") &&
		!strings.Contains(gap, "; ") && !strings.Contains(gap, ": ")
}

// quotedLabel returns the quoted value a number counts in a list of
// values with their counts ("\"[]\" 7" in `"false" 55, "null" 39, "[]" 7`):
// the span of the quoted string just before it, and whether there is one.
func quotedLabel(s string, o span) (span, bool) {
	if o.start < 3 || s[o.start-1] != ' ' || s[o.start-2] != '"' {
		return span{}, false
	}
	lineStart := strings.LastIndexByte(s[:o.start], '\n') + 1
	for i := o.start - 3; i >= lineStart; i-- {
		if s[i] == '"' && !escaped(s, i) {
			return span{i, o.start - 1}, true
		}
	}
	return span{}, false
}

// escaped reports whether the byte at i is escaped by an odd run of
// backslashes before it ("\"" inside a quoted "\"\"").
func escaped(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// inOtherQuote reports whether the anchor a stands inside a quoted string
// of its line (an odd number of quotes before it on the line): a value of
// a list, whose count is the number after it, not a label of other counts.
func inOtherQuote(s string, a span) bool {
	lineStart := strings.LastIndexByte(s[:a.start], '\n') + 1
	n := 0
	for i := lineStart; i < a.start; i++ {
		if s[i] == '"' && !escaped(s, i) {
			n++
		}
	}
	return n%2 == 1
}

// sharedValueAfter recognises the count after a value in a profile's list
// of values: "29.7.0 17, 29.6.3 2", "main 75; ...".
var sharedValueAfter = regexp.MustCompile(`^ (\d[\d,]*)(?:[,;]|$)`)

// sharedValue reports whether the needle at o is a value that a profile
// line lists with the number of records holding it, two or more: the
// line says how many records have it, not that the record named on
// another line is one of them (npm-ls-all's jest-cli version was "found"
// in "version (string, in 28 of 29 records): 29.7.0 17, ..." of a sibling
// collection).
func sharedValue(s string, o span) bool {
	end := strings.IndexByte(s[o.end:], '\n')
	if end < 0 {
		end = len(s) - o.end
	}
	m := sharedValueAfter.FindStringSubmatch(s[o.end : o.end+min(end, 24)])
	if m == nil {
		return false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return err == nil && n >= 2
}

// templateCountAfter recognises the count that opens a template line of a
// text view: "[32 lines] -const <*> = <*>", "[2 times, first at line 462]".
var templateCountAfter = regexp.MustCompile(`^ (?:lines\]|times, first at line )`)

// templateCount reports whether the number at o is the count of a
// template line: it says how many lines have that line's form, so it is
// the answer to nothing but a question about that form (on its line), not
// a field of a record that happens to stand on a line nearby.
func templateCount(s string, o span) bool {
	return o.start > 0 && s[o.start-1] == '[' && templateCountAfter.MatchString(s[o.end:min(len(s), o.end+24)])
}

// near reports whether spans o and a are on one line or within window
// bytes of each other. A needle that is the anchor itself (the same
// bytes) is near. A line that is a whole record by itself (a table row, a
// JSON object on one line) is near nothing on another line, whichever of
// the two stands on it: its cells belong to its own record.
func near(s string, o, a span, window int) bool {
	lo, hi := o, a
	if a.start < o.start {
		lo, hi = a, o
	}
	if hi.start <= lo.end { // overlapping
		return true
	}
	gap := s[lo.end:hi.start]
	if !strings.Contains(gap, "\n") {
		// A line of lists ("<n>% (7 values): 0.0% 227, 0.1% 111; <*>1 (3
		// values): JS: 355, RegExp: 1"): a list after a "; " is another
		// list, whose words label nothing in this one (only the head of
		// the line, before its first ": ", labels them all); and the number of
		// values that heads a list ("(3 values)", "22 distinct values")
		// counts the list, not a value inside it. Table rows (tabs) keep
		// their cells together whatever they hold.
		if line := lineAt(s, o.start); !strings.Contains(line, "\t") && !selfContained(line) && !strings.HasPrefix(strings.TrimLeft(line, " "), "[compact:") {
			if strings.Contains(gap, "; ") && !inLineHead(s, a) {
				return false
			}
			if a.start > o.start && listCount(s, o) && strings.Contains(gap, ": ") {
				return false
			}
		}
		// One line: a row or a line of facts. The notice of an output
		// shown as it is ("[compact: the output as it is, ...; text: 201
		// lines (7 blank); ...; column 3: ...]") is every section of a view
		// on one line, its sections joined by "; ": across a "; " it is
		// near only within the window (its "(7 blank)" says nothing about
		// the "overridden" 500 bytes further on).
		// A count near only its own line (window 0: a template's "[3
		// lines]") is near nothing across a "; " of the notice: the next
		// section's "[4 lines] server <*>" is another template.
		if len(gap) > window && strings.Contains(gap, "; ") &&
			strings.HasPrefix(strings.TrimLeft(lineAt(s, a.start), " "), "[compact:") {
			return false
		}
		return true
	}
	if selfContained(lineAt(s, a.start)) || selfContained(lineAt(s, o.start)) {
		return false
	}
	if viewNotice(lineAt(s, a.start)) || viewNotice(lineAt(s, o.start)) {
		return false // the view's word about its own layout labels nothing on another line
	}
	if enumerated(s, o) {
		return false // an item of its own line's list
	}
	return len(gap) <= window
}

// notice recognises a line in which a view speaks of its own layout:
// what it leaves out ("not shown: 3,966 of 4,033 lines ...", "profile
// lines not shown: 5 of 32 fields", "index: 198 of 235 records not
// listed", "rows show 11 of 32 fields") and the heading of a run of the
// output's lines ("first 15 lines (lines 0-14):", "last 11 lines (lines
// 2266-2276):", "lines spread over the middle, line<TAB>text:").
var notice = regexp.MustCompile(`^\s*(?:not shown: |profile lines not shown: |rows show [\d,]+ of |index: [\d,]+ of |(?:first|last) [\d,]+ (?:output )?lines \(|lines spread over the middle)`)

// viewNotice reports whether line is such a notice. Its words ("lines",
// "records") name what the view shows, so they label only the numbers of
// their own line: the number of a shown output line below a heading (the
// final line 1406 of git blame's last header line under "not shown: ...
// lines") is no count of lines.
func viewNotice(line string) bool {
	return notice.MatchString(line)
}

// enumerated reports whether the number at o is an item of a plain list
// of values on a labelled line ("keys (1,796): 0, 1, 2, …, 30, 31"): after
// the line's head (before its first ": "), between ", " (or that ": ")
// and a "," or the line's end, with no count of its own. It is one of the
// values the line's label lists, so it is near nothing on another line
// (heldout13w typedoc: the key "30" of a symbol map two lines above a
// path naming YAMLMap "stated" that YAMLMap has 30 members).
func enumerated(s string, o span) bool {
	if !isNumeric(s[o.start:o.end]) {
		return false
	}
	start := strings.LastIndexByte(s[:o.start], '\n') + 1
	head := strings.Index(s[start:], ": ")
	if head < 0 || start+head+2 > o.start {
		return false
	}
	before := s[start:o.start]
	if !strings.HasSuffix(before, ", ") && len(before) != head+2 {
		return false
	}
	after := s[o.end:]
	if i := strings.IndexByte(after, '\n'); i >= 0 {
		after = after[:i]
	}
	items := strings.Count(s[start+head+2:o.start]+after, ", ")
	return items >= 2 && (after == "" || strings.HasPrefix(after, ","))
}

// inLineHead reports whether span a stands in the head of its line, before
// the line's first ": " (the field a profile line is about labels every
// list of the line: "Version (string, ...): 151 distinct; shapes: ... 20").
func inLineHead(s string, a span) bool {
	start := strings.LastIndexByte(s[:a.start], '\n') + 1
	head := strings.Index(s[start:], ": ")
	return head >= 0 && a.end <= start+head
}

// listCountAfter recognises the number of values that heads a list:
// "(3 values): ...", "22 distinct values; most frequent: ...".
var listCountAfter = regexp.MustCompile(`^ (?:values\)|distinct\b)`)

// listCount reports whether the number at o heads a list of values.
func listCount(s string, o span) bool {
	return listCountAfter.MatchString(s[o.end:min(len(s), o.end+16)])
}

// lineAt is the line of s around byte i.
func lineAt(s string, i int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}

// selfContained reports whether a line is a whole record by itself: a
// table row (tab- or pipe-separated) or a JSON object on one line. The
// fields of such a record are on its line; the next line is another
// record, so nothing there is near its identifier.
func selfContained(line string) bool {
	// A line number and a tab before a text line ("6396\tVersion: 1.2")
	// do not make it a table row.
	if m := lineNumberPrefix.FindStringIndex(line); m != nil {
		line = line[m[1]:]
	}
	// Tabs that indent a line (ldd's libraries under their binary, a
	// Makefile recipe) separate no cells.
	line = strings.TrimLeft(line, " \t")
	if strings.Contains(line, " | ") {
		return true
	}
	if strings.Contains(line, "\t") {
		// Cells that each open with their own label ("Size: 9431 \tBlocks:
		// 24", stat's lines) are fields of a record spread over several
		// lines, not a row of a table.
		return !labelledCells(line)
	}
	l := strings.TrimSpace(line)
	l = strings.TrimSuffix(l, ",")
	return len(l) > 1 && l[0] == '{' && l[len(l)-1] == '}'
}

// labelledCell is a cell that opens with its own label: a word (letters,
// digits, spaces, '_', '-', '.', '(' and ')'), a colon and a space.
var labelledCell = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9 _.()-]*: `)

// labelledCells reports whether every tab-separated cell of line opens
// with its own label ("Size: 9431      \tBlocks: 24 ...",
// "Device: 254,0\tInode: 681").
func labelledCells(line string) bool {
	for _, c := range strings.Split(line, "\t") {
		if !labelledCell.MatchString(strings.TrimSpace(c) + " ") {
			return false
		}
	}
	return true
}

// occurrences lists every occurrence of needle in s under the visibility
// rule: as itself or JSON-escaped at word boundaries, and an integer of
// four digits or more also with thousands separators.
//
// A number that counts what the view shows ("showing 14 of 29", "not
// shown: 9 of 12", "22 of 71 shown") is not an occurrence: it depends on
// the budget and says nothing about the data.
func occurrences(s, needle string) []span {
	out := boundaryOccurrences(s, needle)
	if esc := jsonEscape(needle); esc != needle {
		out = append(out, boundaryOccurrences(s, esc)...)
	}
	if g, ok := groupedInteger(needle); ok {
		out = append(out, groupedOccurrences(s, g)...)
	}
	out = append(out, wordFormOccurrences(s, needle)...)
	if isNumeric(needle) {
		kept := out[:0]
		for _, o := range out {
			if !shownCount(s, o) {
				kept = append(kept, o)
			}
		}
		out = kept
	}
	return out
}

// suggestedQuery starts a query the view suggests ("... get them: compact
// artifact query artifact:3d38d105ebf2 --jq '.items[] | select(...)'",
// "33-77: compact artifact slice artifact:ddf --offset 33 --limit 45").
const suggestedQuery = "compact artifact "

// lineRange recognises a range of line (or event) positions that a view
// states about its own layout: "(lines 78-97)", "(lines 3 … 9)", "(the
// Output of events 556-945)", "; 33-77: compact artifact slice".
var lineRange = regexp.MustCompile(`(?:\blines |\bevents |; )[\d,]+(?:-| … )[\d,]+[):]`)

// cutMark is the mark of a cell or value the view cut, with the length
// it left out ("…[+28 chars]"): the view's word, not data.
var cutMark = regexp.MustCompile(`…\[\+[\d,]+ chars\]`)

// firstAtLine recognises the position a repeated line was first seen at:
// "[2 times, first at line 4446]".
var firstAtLine = regexp.MustCompile(`first at line (\d+)\]`)

// positionPrefix is the position a view writes before a line or record it
// numbers: "  4455\tbudget/view/rows.go:306:107: ...", "107\tgithub.com/x\t...".
var positionPrefix = regexp.MustCompile(`^ *(\d+)\t`)

// numberedHeading recognises the heading of a section whose lines a view
// numbers with their position: "..., line<TAB>text:", "line<TAB>record:",
// "event<TAB>output:", the distinct error lines "at its last position",
// and a table of records whose first column is "#".
func numberedHeading(line string) bool {
	return strings.Contains(line, "line<TAB>") || strings.Contains(line, "event<TAB>") ||
		strings.Contains(line, "each distinct line once at its last position") || strings.HasPrefix(line, "#\t")
}

// positionPrefixes are the positions written before the lines of numbered
// sections (numberedHeading up to the first line that is neither numbered
// nor a query). A line's position is the view's layout, not its data: the
// last line of a log numbered 4455 from 0 says nothing about how many
// diagnostics it holds (heldout8 go-build-gcflags-m's 4,455 was "stated" so).
// Lines outside such sections keep their numbers: a raw "4096\truntime"
// of du is data.
func positionPrefixes(s string) []span {
	var out []span
	numbered := false
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		line := s[start:end]
		switch {
		case numberedHeading(line):
			numbered = true
		case numbered:
			if m := positionPrefix.FindStringSubmatchIndex(line); m != nil {
				out = append(out, span{start + m[2], start + m[3]})
			} else if !strings.Contains(line, suggestedQuery) {
				numbered = false
			}
		}
		start = end + 1
	}
	return out
}

// maskNotData returns s with the view's own words that are no data
// blanked out (each byte replaced by a space, so offsets and line breaks
// stay): every suggested query, from "compact artifact " to the end of
// the command (commandEnd), and every line range of the view's layout. A
// query names what to fetch, not what the data says: a "33" in "--offset
// 33", a pod name in "select(.metadata.name == ...)" or a number in
// ".[14]" answers nothing; nor does the "33" of "33-77:".
func maskNotData(s string) string {
	var spans []span
	for from := 0; ; {
		i := strings.Index(s[from:], suggestedQuery)
		if i < 0 {
			break
		}
		start := from + i
		end := start + len(suggestedQuery) + commandEnd(s[start+len(suggestedQuery):])
		spans = append(spans, span{start, end})
		from = end
	}
	for _, m := range lineRange.FindAllStringIndex(s, -1) {
		spans = append(spans, span{m[0], m[1]})
	}
	for _, m := range cutMark.FindAllStringIndex(s, -1) {
		spans = append(spans, span{m[0], m[1]})
	}
	for _, m := range firstAtLine.FindAllStringSubmatchIndex(s, -1) {
		spans = append(spans, span{m[2], m[3]})
	}
	positions := positionPrefixes(s)
	if len(spans) == 0 && len(positions) == 0 {
		return s
	}
	b := []byte(s)
	for _, sp := range spans {
		for i := sp.start; i < sp.end; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	// A position is blanked with '#', not spaces: the line keeps its
	// first cell, so it is not taken for one indented by spaces and its
	// cells stay under their column headers (underHeader).
	for _, sp := range positions {
		for i := sp.start; i < sp.end; i++ {
			b[i] = '#'
		}
	}
	return string(b)
}

// commandEnd is the length of the command arguments at the start of s: up
// to the end of the line, or to the first ';', ')', ',', '|' or '&'
// outside quotes (the prose around a command: "(compact artifact get /
// read_artifact); values in .: state open 71" goes on with data). A
// quoted argument ('...' as the view quotes a jq filter, or "...") is
// skipped whole; an unclosed quote (a line cut short) runs to the end of
// the line.
func commandEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n', ';', ')', ',', '|', '&':
			return i
		case '\'', '"':
			j := i + 1
			for j < len(s) && s[j] != c && s[j] != '\n' {
				if c == '"' && s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) || s[j] != c {
				if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
					return i + k
				}
				return len(s)
			}
			i = j
		}
	}
	return len(s)
}

// shownBefore and shownAfter recognise a count of what a view shows
// around a number: "showing N of M", "not shown: N of M", "N of M
// records shown"; headTailBefore and headTailAfter the count of a text
// view's head or tail: "first N lines (lines ...)".
var (
	shownBefore = regexp.MustCompile(`(?:\bshowing|\bshows?|\bshown:) $`)
	shownAfter  = regexp.MustCompile(`^ of [\d,]+(?: [a-z]+){0,2} shown\b`)
	// "first 88 lines (lines 0-87):", "last 20 lines (lines 78-97):", "the
	// last 12 output lines of the run (the Output of events ...)": how many
	// lines a text view shows of its head or tail.
	headTailBefore = regexp.MustCompile(`\b(?:first|last) $`)
	headTailAfter  = regexp.MustCompile(`^ (?:output )?lines (?:of the run )?\(`)
)

// notShownParts recognises the parenthesis that splits a count of what a
// view leaves out: "nodes not shown: 29 of 29 (all 9 at depth 0, all 20
// at depth 1)". Submatch 1 is its inside.
var notShownParts = regexp.MustCompile(`not shown: [\d,]+ of [\d,]+[^;(\n]*\(([^)\n]*)\)`)

// shownCount reports whether the number at o counts what the view shows,
// or a part of what it leaves out (notShownParts: with nothing of a tree
// shown, "all 9 at depth 0" equals the number of records, and stops
// equalling it once rows are shown).
func shownCount(s string, o span) bool {
	before := s[max(0, o.start-12):o.start]
	after := s[o.end:min(len(s), o.end+40)]
	if shownBefore.MatchString(before) || shownAfter.MatchString(after) ||
		headTailBefore.MatchString(before) && headTailAfter.MatchString(after) {
		return true
	}
	lineStart := strings.LastIndexByte(s[:o.start], '\n') + 1
	line := lineAt(s, o.start)
	for _, m := range notShownParts.FindAllStringSubmatchIndex(line, -1) {
		if lineStart+m[2] <= o.start && o.end <= lineStart+m[3] {
			return true
		}
	}
	return false
}

func boundaryOccurrences(s, needle string) []span {
	var out []span
	if needle == "" {
		return nil
	}
	for from := 0; from <= len(s)-len(needle); {
		i := strings.Index(s[from:], needle)
		if i < 0 {
			break
		}
		start, end := from+i, from+i+len(needle)
		if boundaryBefore(s, start, needle) && boundaryAfter(s, end, needle) {
			out = append(out, span{start, end})
		}
		_, size := utf8.DecodeRuneInString(s[start:])
		from = start + size
	}
	return out
}

func groupedOccurrences(s, g string) []span {
	var out []span
	for from := 0; from <= len(s)-len(g); {
		i := strings.Index(s[from:], g)
		if i < 0 {
			break
		}
		start, end := from+i, from+i+len(g)
		if containsGrouped(s[start:end+min(2, len(s)-end)], g) && boundaryBefore(s, start, g) &&
			!(start >= 2 && s[start-1] == ',' && s[start-2] >= '0' && s[start-2] <= '9') {
			out = append(out, span{start, end})
		}
		from = start + 1
	}
	return out
}

// wordFormOccurrences lists the occurrences of another form of a word
// needle (letters only, three or more): in any case, and followed by s,
// es, d, ed or ing, the last letter doubled before ed or ing ("skip" in
// "SKIP:", "skipped tests:"; "fail" in "failed", "FAIL"), at word
// boundaries. A go test view says "2 failed" and "--- SKIP:" where the
// JSON says "fail" and "skip". The word itself, as written, is found by
// boundaryOccurrences; a longer word ("skipper", "failure") is not a form.
func wordFormOccurrences(s, word string) []span {
	if len(word) < 3 {
		return nil
	}
	for i := 0; i < len(word); i++ {
		c := word[i] | 0x20
		if c < 'a' || c > 'z' {
			return nil
		}
	}
	lw := strings.ToLower(word)
	last := lw[len(lw)-1:]
	suffixes := []string{"", "s", "es", "d", "ed", "ing", last + "ed", last + "ing"}
	ls := strings.ToLower(s) // ASCII case folding keeps byte offsets
	if len(ls) != len(s) {
		return nil
	}
	var out []span
	for from := 0; from <= len(ls)-len(lw); {
		i := strings.Index(ls[from:], lw)
		if i < 0 {
			break
		}
		start := from + i
		from = start + 1
		if wordBefore(s, start) {
			continue
		}
		for _, suf := range suffixes {
			end := start + len(lw) + len(suf)
			if end > len(ls) || ls[start+len(lw):end] != suf || wordAfter(s, end) {
				continue
			}
			if s[start:end] != word { // the word as written is found already
				out = append(out, span{start, end})
			}
			break
		}
	}
	return out
}

// MaxCountedItems is the longest list whose items a reader counts at a
// glance: a count question is answered by its record's JSON list shown
// whole with that many items ("pipe.js": [four names]), up to this many.
const MaxCountedItems = 12

// wholeListOf reports whether some anchor is a member name whose value,
// shown whole right after it, is a JSON list of exactly needle items or an
// object of exactly needle members (0 to MaxCountedItems): a whole output
// shows a map of name → list as it is, a view's line of facts shows a
// small value as it is ("  missing: {}", "  dependencies: [\"a\",\"b\"]"),
// and the count of a short list is read off it, not stated. The name is
// a JSON member name (in quotes) or opens its line.
func wholeListOf(content, needle string, anchors []span) bool {
	n, err := strconv.Atoi(needle)
	if err != nil || n < 0 || n > MaxCountedItems {
		return false
	}
	for _, a := range anchors {
		quoted := a.start > 0 && content[a.start-1] == '"'
		lineStart := strings.LastIndexByte(content[:a.start], '\n') + 1
		if !quoted && strings.TrimLeft(content[lineStart:a.start], " \t") != "" {
			continue
		}
		rest := content[a.end:]
		if quoted {
			rest = strings.TrimPrefix(rest, "\"")
		}
		rest = strings.TrimLeft(rest, " \t\r\n")
		if !strings.HasPrefix(rest, ":") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t\r\n")
		dec := json.NewDecoder(strings.NewReader(rest))
		switch {
		case strings.HasPrefix(rest, "["):
			var items []json.RawMessage
			if dec.Decode(&items) == nil && len(items) == n {
				return true
			}
		case strings.HasPrefix(rest, "{"):
			var members map[string]json.RawMessage
			if dec.Decode(&members) == nil && len(members) == n {
				return true
			}
		}
	}
	return false
}

// partCount reports whether the number at o is the part of a count "(N of
// M" (a reason's "frame=1 is rare (20 of 1,511)", "has line_end=44 (only
// 129 of 1,512 records do)"), and where the clause it counts begins: after
// the last "; ", tab or "[" before the parenthesis on its line. Such a
// number counts the records that have what its clause names, so only a
// record named inside that clause labels it.
func partCount(s string, o span) (int, bool) {
	open := o.start - 1
	if strings.HasSuffix(s[:o.start], "(only ") {
		open = o.start - len("(only ")
	}
	if open < 0 || s[open] != '(' || !strings.HasPrefix(s[o.end:], " of ") {
		return 0, false
	}
	if after := s[o.end+len(" of "):]; after == "" || after[0] < '0' || after[0] > '9' {
		return 0, false
	}
	lineStart := strings.LastIndexByte(s[:open], '\n') + 1
	start := lineStart
	for _, sep := range []string{"; ", "\t", "["} {
		if i := strings.LastIndex(s[lineStart:open], sep); i >= 0 && lineStart+i+len(sep) > start {
			start = lineStart + i + len(sep)
		}
	}
	return start, true
}

// singular returns the singular of a record that is one plural word
// (letters only, four or more, ending in "s" but not "ss", "us" or "is":
// "warnings", "files", not "status" or "analysis"), and whether there is
// one. A view counts "warning lines: 174" where a question names its
// record "warnings".
func singular(r string) (string, bool) {
	if len(r) < 4 || r[len(r)-1] != 's' || strings.IndexByte("sSuUiI", r[len(r)-2]) >= 0 {
		return "", false
	}
	for i := 0; i < len(r); i++ {
		if c := r[i] | 0x20; c < 'a' || c > 'z' {
			return "", false
		}
	}
	return r[:len(r)-1], true
}

// singledOut reports whether the name n stands in content somewhere other
// than in the middle of a list of names (listedAmongOthers): a question
// without a record asks for one name (the largest, the last, the one
// that failed), and a list that names it among others does not say which.
// The first or the last (ordered) is not singled out by a list ordered by
// count (orderedList), whatever its place there.
func singledOut(content, n string, ordered bool) bool {
	for _, o := range boundaryOccurrences(content, n) {
		if !listedAmongOthers(content, o, ordered) && !(ordered && orderedList(content, o)) {
			return true
		}
	}
	if esc := jsonEscape(n); esc != n {
		for _, o := range boundaryOccurrences(content, esc) {
			if !listedAmongOthers(content, o, ordered) && !(ordered && orderedList(content, o)) {
				return true
			}
		}
	}
	return false
}

// listedAmongOthers reports whether the occurrence o is (the tail of) an
// item of a list on its line, after a list separator (", ", "; ", or ","
// between cells such as "a.js,b.js", an opening quote allowed), that is
// not the last item of a list ending its line: a value of a census list
// after the list's first item ("firstFile.name (string, 15 distinct): a.js
// 3, b.js 3, ls.js 1": ls.js is listed, not the largest source; the first
// value of a census is its most frequent and is singled out), an item in
// the middle of a list, or the last of a list in a cell of a row. The last
// item of a list that ends its line ("every item, in order: a, b, tap") is
// the last of that list; a member name before its ':' (`,"index.js":[`)
// is the name of its own value, not an item.
//
// The first item of a list in a cell is listed among others too, unless
// the question is about a position (ordered: the first or the last of
// something): the first item of the last row's list is that row's first
// (cmake's last command names gtest_main first).
func listedAmongOthers(s string, o span, ordered bool) bool {
	lineStart := strings.LastIndexByte(s[:o.start], '\n') + 1
	i := o.start
	for i > lineStart && !strings.ContainsRune(" ,;\t\"'([", rune(s[i-1])) {
		i-- // the item's head before a needle that is its tail ("../../" before "/usr/...")
	}
	if i > lineStart && (s[i-1] == '"' || s[i-1] == '\'') {
		i--
	}
	if !ordered && cellListHead(s, i, o) {
		return true
	}
	if i < 1 || s[i-1] != ',' && !(i >= 2 && s[i-1] == ' ' && (s[i-2] == ',' || s[i-2] == ';')) {
		return false
	}
	if censusValue(s, o) {
		return true
	}
	if after := strings.TrimLeft(s[o.end:], "\"'"); strings.HasPrefix(after, ":") {
		return false // a member name, with its own value (`,"index.js":[...]`)
	}
	if !ordered && s[i-1] == ',' && strings.Contains(strings.TrimLeft(lineAt(s, o.start), " \t"), "\t") {
		return true // an item of a row's list cell, the last one too ("libnpmpack\tpack.js,publish.js")
	}
	end := strings.IndexByte(s[o.end:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += o.end
	}
	return strings.TrimRight(s[o.end:end], "\"')] \r") != ""
}

// cellListHead reports whether the item that starts at i and holds the
// occurrence o is the first item of a list in a cell of a tab-separated
// row: it opens its cell, and a ',' right after it (past a closing quote)
// starts another item in the same cell ("libnpmpublish\t/x/publish.js,/x/unpublish.js").
// Such a cell lists the row's items; its first is no more singled out
// than the others.
func cellListHead(s string, i int, o span) bool {
	line := lineAt(s, o.start)
	if !strings.Contains(strings.TrimLeft(line, " \t"), "\t") {
		return false
	}
	lineStart := strings.LastIndexByte(s[:o.start], '\n') + 1
	if i > lineStart && s[i-1] != '\t' {
		return false
	}
	rest := strings.TrimLeft(s[o.end:], "\"'")
	if !strings.HasPrefix(rest, ",") {
		return false
	}
	rest = rest[1:]
	return rest != "" && rest[0] != '\t' && rest[0] != '\n' && rest[0] != ' '
}

// templateValues recognises the head of a template slot's list of values
// in a text view: "values: <*>1 (5 values): ", "positions of few values:
// <*>2: ", and the next list of the line after a "; ".
var templateValues = regexp.MustCompile(`^\s*(?:values|positions of few values): `)

// orderedList reports whether the occurrence o is a value of a census
// list, followed by its count (censusValue: "attr-quotes 2,579,
// no-deprecated-attr 1,405"), or an item of a template slot's values
// ("values: <*>1 (5 values): 'all', 'libgtest.a', 'gtest_main.o'"). Both
// are ordered by how often a value occurs (or in no stated order), so
// neither says which value comes first or last in the output.
func orderedList(s string, o span) bool {
	if censusValue(s, o) {
		return true
	}
	lineStart := strings.LastIndexByte(s[:o.start], '\n') + 1
	m := templateValues.FindStringIndex(s[lineStart:o.start])
	return m != nil
}

// rowField reports whether the occurrence o and the anchor a stand in
// different cells of one tab-separated table row: the row is one record,
// and o is a field of that record, not a count of the records the anchor
// names (a row of CMakeLists.txt with line 20 does not say that 20
// commands come from that file). Cells that each open with their own
// label (labelledCells) are a record's fields on one line too.
func rowField(s string, o, a span) bool {
	lineStart := strings.LastIndexByte(s[:o.start], '\n') + 1
	if a.start < lineStart || strings.Contains(s[min(o.start, a.start):max(o.end, a.end)], "\n") {
		return false // not on one line
	}
	line := lineAt(s, o.start)
	body := lineStart + indent(line)
	if !strings.Contains(s[body:lineStart+len(line)], "\t") {
		return false
	}
	cellOf := func(i int) int { return strings.Count(s[body:max(body, i)], "\t") }
	if cellOf(o.start) == cellOf(a.start) {
		return false
	}
	return !identityCell(s, body, lineStart+len(line), a)
}

// identityCell reports whether anchor a is the whole first cell of a
// table row (after its position, a number or '#'s): the row is then the
// anchor's own record, and a count in another cell is a count of its own.
func identityCell(s string, body, end int, a span) bool {
	cells := strings.Split(s[body:end], "\t")
	start := body
	for _, c := range cells {
		t := strings.TrimSpace(c)
		if strings.Trim(t, "#0123456789") == "" {
			start += len(c) + 1
			continue
		}
		first := start + strings.Index(c, t)
		return a.start == first && a.end == first+len(t)
	}
	return false
}
