package view

import (
	"bytes"
	"fmt"
	"github.com/toolcompact/compact/budget/internal/format"
	"github.com/toolcompact/compact/schemas/linetemplate"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The profile of a text: one pass over its lines that finds what the
// text is (its kind and its records), and counts, exactly, what the view
// of it states: lines, records, blank lines, levels, error and warning
// lines (each distinct one with its repeats), templates, the fields of
// RFC 822-like records, the time range. Memory is bounded by the view,
// not the input: the head, a ring of the tail, the lines at the spread's
// positions, at most maxNotable distinct error/warning lines and at most
// maxClusters templates are kept; everything else is counted.

// Kinds of text.
const (
	textPlain   = "text"       // lines, no structure found
	textLog     = "log"        // lines that start with a timestamp or a level
	textBlocks  = "paragraphs" // blank-line-separated blocks
	textFields  = "fields"     // blank-line-separated blocks of "Key: value" lines (RFC 822, dpkg, apt-cache show)
	textGoTest  = "go test"    // go test (-v) text output
	textGoJSON  = "go test -json"
	textTAP     = "TAP"          // Test Anything Protocol
	textCompile = "build output" // compiler diagnostics "file:line:col: ..."
	textReport  = "test report"  // jest, vitest, mocha, pytest -v (text_testreport.go)
	textCommits = "commit list"  // git log --oneline, --graph (text_gitgraph.go)
	textDiff    = "diff"         // unified diffs: git diff, diff -u (text_diff.go)
)

const (
	headKeep   = 200 // head lines kept
	tailKeep   = 200 // tail lines kept
	spreadKeep = 64  // evenly spaced lines kept
	maxNotable = 5000
)

// posLine is a line and its position (0-based, as compact artifact slice
// and jq count lines).
type posLine struct {
	pos  int
	text string
}

// notable is one distinct error or warning line and its repeats.
// maxOtherPrev bounds the distinct lines kept before a repeated error
// line's earlier occurrences.
const maxOtherPrev = 4

type notable struct {
	prev string // the line before its last occurrence, when that is not itself an error or warning line
	// others: the distinct lines before its earlier occurrences (at
	// most maxOtherPrev; not error or warning lines): a repeated
	// "collect2: error: ld returned 1 exit status" follows a different
	// "undefined reference to 'x'" each time, and that is the cause.
	others []posLine
	text   string
	sev    int
	count  int
	first  int
	last   int
}

// fieldStat is the profile of one field of RFC 822-like records.
type fieldStat struct {
	name     string
	present  int
	values   map[string]int      // distinct first-line values while few
	overflow bool                // more than maxFieldValues distinct values
	distinct map[uint64]struct{} // hashes of every distinct value (exact distinct count)
	numeric  int                 // records whose value is an integer
	sum      int64
	min, max int64
	minRec   string // name of the record with the smallest value
	maxRec   string
	names    fieldNames // the names of the records holding rare values (text_kv.go)
}

const maxFieldValues = 64

// maxDistinctTracked bounds the distinct values counted per field.
const maxDistinctTracked = 1 << 20

// hashString is FNV-1a, 64 bits: distinct values are counted by hash (a
// collision among a million values has a chance of about 3e-8).
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// textProfile is what analyzeText found.
type textProfile struct {
	kind       string
	lines      int
	blank      int
	records    int    // records of the kind: blocks, entries, events, lines
	recordUnit string // their name: "paragraphs", "entries", "lines"
	nameField  string // for textFields: the field that names a record ("Package")
	names      []posLine
	firstTime  string
	lastTime   string
	levels     map[string]int
	errors     int // error lines
	nameSev    int // table rows with a severity word only in their name columns (not counted)
	warns      int // warning lines
	notables   []*notable
	notableCut int // distinct error/warning lines past maxNotable (counted in errors/warns)
	miner      *miner
	rows       *rowSampler // an even sample of each template's lines (text_tmplrows.go)
	fields     []*fieldStat
	head       []posLine
	tail       []posLine
	spread     []posLine // in spreadOrder's order: coarse to fine
	extra      map[int]string
	tests      *testSummary // go test, TAP
	cols       *colProfile  // a table's columns (text_columns.go), or nil
	// headKey is the start every record's first line shares ("commit ",
	// "Log started: "), when records are blank-line-separated blocks
	// that start so (see detectHeaderKey); headers are those lines.
	headKey string
	headers []posLine    // the first and last maxHeaders/2 header lines
	nHead   int          // header lines
	loose   bool         // fields are Key: value lines of a text that is not records of fields
	recs    *recordStats // whole records, when headKey finds them (text_records.go)
	graph   *graphStats  // a commit list's counts (text_gitgraph.go), or nil
	diff    *diffStats   // a diff's files and hunks (text_diff.go), or nil
	locs    locStats     // lines with a source location (text_locations.go)
	kv      *kvStats     // key/value lines (text_kv.go), or nil
	// locData: nearly every line is a located diagnostic with no level
	// word (detectLocData); the location prefix makes no error line.
	locData bool
	// maxIndent is the most leading spaces of a line, first at line
	// maxIndentPos.
	maxIndent, maxIndentPos int
	// gor counts a goroutine dump (text_testrun.go).
	gor goroutineStats
	// pathLines are the lines that are one path each (a build's list
	// of the files it read among its other lines), counted by
	// directory like a column of paths (text_paths.go).
	pathLines *colStat
	// testNameSev: go test's "=== RUN" and "--- PASS:" lines with a
	// severity word only in the test's name (TestQuery_HaltError): not
	// counted as error lines.
	testNameSev int
	// proseSev: lines of prose with a severity word inside a sentence,
	// not counted (proseMarkerPattern).
	proseSev int
	// codeSev: lines of source code with a severity word that is a
	// name or a type ("func f() error {"), not counted (isCodeLine).
	codeSev int
	// leadSev: first lines of records led by their indentation with a
	// severity word in their description, not counted (text_lead.go).
	leadSev int
	// tabSev: of a text of "key value" runs (text_keyruns.go), lines
	// of content after a TAB (git blame's source lines) with a severity
	// word, not counted.
	tabSev int
	// titleSev: titles of a table's sections with a severity word
	// inside a sentence (gcc -Q's "The following options control
	// compiler warning messages:"), not counted (sectionTitle).
	titleSev int
	// zeroQuoted: a line's zero phrases differ with and without the
	// quote before the value (zeroQuotedDiffers).
	zeroQuoted bool
	// locPrefixed counts the lines that start "file:line:col: " (the
	// only lines demotePattern can match).
	locPrefixed int
	// tagged counts colon-separated records with a type tag
	// (text_tagged.go), or nil.
	tagged *taggedStats
	// summaries are the first and last maxSummaries/2 summary lines
	// (summaryPattern: "Summary: 2467 error(s)"), of nSummaries.
	summaries  []posLine
	nSummaries int
	// status: the lines of a report of status lines (text_status.go),
	// or nil.
	status *statusStats
}

// maxSummaries bounds the summary lines kept (the first and the last
// half).
const maxSummaries = 6

// maxHeaders bounds the record header lines kept (the first half and
// the last half of them).
const maxHeaders = 200

// maxLooseFields bounds the distinct keys of Key: value lines profiled
// in a text that is not made of records of fields.
const maxLooseFields = 100

// countLines counts lines as textLines numbers them.
func countLines(data []byte) int { return format.CountLines(data) }

// countUpTo counts k in m, a count of at most max distinct keys: a key
// m does not hold yet is counted only while m holds fewer than max. It
// reports whether k was counted; a caller that gets false states the
// count as incomplete (or drops it).
func countUpTo(m map[string]int, k string, max int) bool {
	if _, ok := m[k]; !ok && len(m) >= max {
		return false
	}
	m[k]++
	return true
}

// textLines calls fn for each line of data as compact artifact slice and
// jq number them: split at '\n', a final '\n' starts no line, one '\r'
// ending a line is removed, invalid UTF-8 is replaced.
func textLines(data []byte, fn func(pos int, line string)) {
	textLinesWhile(data, func(pos int, line string) bool { fn(pos, line); return true })
}

// textLinesWhile is textLines until fn returns false.
func textLinesWhile(data []byte, fn func(pos int, line string) bool) {
	pos := 0
	for len(data) > 0 {
		line := data
		var rest []byte
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, rest = data[:j], data[j+1:]
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		s := string(line)
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		if !fn(pos, s) {
			return
		}
		pos++
		data = rest
	}
}

// sampleLines calls fn with each of the first 4,000 lines of data's
// first MiB, in order: the sample the text detectors (detectTextKind,
// detectIndentRecords, ...) decide a text's structure from, so that the
// decision costs the same on a text of any size.
func sampleLines(data []byte, fn func(line string)) {
	if len(data) > 1<<20 {
		data = data[:1<<20]
	}
	firstLines(data, func(_ int, line string) { fn(line) })
}

// nextLine splits data at its first newline: the line without it, and
// the rest (nil after the last line).
func nextLine(data []byte) (line, rest []byte) {
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		return data[:j], data[j+1:]
	}
	return data, nil
}

// firstLines is textLines over the first 4,000 lines of data only: it
// stops there.
func firstLines(data []byte, fn func(pos int, line string)) {
	textLinesWhile(data, func(pos int, line string) bool {
		if pos >= 4000 {
			return false
		}
		fn(pos, line)
		return true
	})
}

// analyzeText profiles the lines of data.
// The lines at the positions in want are kept in extra (the rows a pin
// predicate selected).
func analyzeText(data []byte, want map[int]bool) *textProfile {
	guard, trailer := true, true
	for {
		p := profileText(data, want, guard, trailer)
		switch {
		case p.cols != nil && guard && p.cols.guardBroken():
			// The guard of a column of numbers, chosen on the first
			// 4,000 lines, left out more of all the lines than it
			// allows: the words are the column's values
			// (text_columns.go).
			guard = false
		case p.cols != nil && trailer && p.cols.trailBroken:
			// A row above the summary below the table has more
			// words than its columns: the summary's rule is wrong.
			trailer = false
		default:
			if p.cols != nil {
				p.cols.nameUnits()
			}
			return p
		}
	}
}

// profileText is analyzeText, with the number guard of a table's
// columns (numberGuard) or without it, and with the rule of a summary
// below a table (trailerBelow) or without it.
func profileText(data []byte, want map[int]bool, guard, trailer bool) *textProfile {
	n := countLines(data)
	p := &textProfile{lines: n, levels: map[string]int{}, miner: newMiner(), rows: newRowSampler(), extra: map[int]string{}}
	p.kind = detectTextKind(data)
	if f := detectKV(data, p.kind); f != kvNone {
		p.kind, p.kv = textKV, newKVStats(f)
	}
	p.locData = p.kind == textCompile && detectLocData(data)
	p.miner.keep = p.locData
	if p.kv == nil && detectTagged(data) {
		p.tagged = newTaggedStats() // not a table nor a list (text_tagged.go)
	} else if sp := detectColumnsGuard(data, p.kind, guard, trailer); p.kv == nil && sp != nil {
		p.cols = newColProfile(sp)
	}
	// The spread: lines between the head and the tail, coarse to fine.
	spreadAt := map[int]int{}
	if n > headKeep+tailKeep {
		for r, i := range spreadOrder(n-headKeep-tailKeep, spreadKeep) {
			spreadAt[headKeep+i] = r
		}
		p.spread = make([]posLine, len(spreadAt))
	}
	ring := make([]posLine, 0, tailKeep)
	notables := map[string]*notable{}
	fieldIdx := map[string]*fieldStat{}
	switch p.kind {
	case textFields:
	case textGoTest, textTAP, textReport, textKV:
		fieldIdx = nil
	default:
		p.loose = true
	}
	p.headKey = detectHeaderKey(data, p.kind)
	if p.kv != nil {
		// key/value lines: no other records
	} else if p.headKey != "" {
		p.recs = newRecordStats(p.headKey)
	} else if p.cols != nil && p.cols.split.repKey != "" {
		// The blocks of rows under a repeated header (vmstat's every
		// 21 rows below its indented header) are no records: the
		// header's count says how many there are.
	} else if detectIndentRecords(data, p.kind) {
		p.recs = newRecordStats("")
		p.recs.kv = newKVRecProfile()
	} else if detectKVRecords(data, p.kind) {
		// A line and the Key: value lines below it (smaps): records,
		// not a table of "Rss: 12 kB" rows nor loose fields.
		p.recs = newRecordStats("")
		p.recs.kvHead, p.recs.kv = true, newKVRecProfile()
		p.cols, fieldIdx, p.loose = nil, nil, false
	} else if detectColonRecords(data, p.kind) {
		p.recs = newRecordStats("")
		p.recs.colon = true
	} else if big, unequal, spaced := detectBigBlocks(data, p.kind); big && !unequal && !(spaced && detectKeyRuns(data, p.kind) != nil) {
		p.recs = newRecordStats("")
		p.recs.blocks = true
	} else if kr := detectKeyRuns(data, p.kind); kr != nil {
		// A line and the run of "key value" lines after it (git
		// blame --porcelain's commits: text_keyruns.go). Before the
		// lead records: a blame's header at column 0 and its content
		// after a TAB would read as a record led by its indentation.
		p.recs = newRecordStats("")
		p.recs.keys, p.recs.kv = kr, newKVRecProfile()
		p.recs.kv.keyRuns = true
		p.cols, fieldIdx, p.loose = nil, nil, false
	} else if lf := detectLeadRecords(data, p.kind); lf != nil {
		// Records led by their indentation (text_lead.go), also
		// inside blocks so unequal that they are no records.
		p.recs = newRecordStats("")
		p.recs.lead = lf
		p.recs.kv = newKVRecProfile()
		p.recs.kv.pairs = true // their summary lines' pairs (text_blocks.go)
	} else if detectBracedRecords(data, p.kind) {
		// Braced records (text_blocks.go): gdb's ptype /o writes its
		// members' offsets at column 0.
		p.recs = newRecordStats("")
		p.recs.brace = &braceForm{}
		p.recs.kv = newKVRecProfile()
		p.recs.kv.pairs = true
	} else if big {
		p.recs = newRecordStats("")
		p.recs.blocks = true
	}
	if p.recs != nil && p.cols != nil {
		p.recs.cols = &p.cols.split
	}
	if p.recs != nil && p.recs.kv == nil {
		// The first lines of any records are counted by their columns.
		p.recs.kv = newKVRecProfile()
		p.recs.kv.headOnly = true
	}
	switch p.kind {
	case textGoTest, textGoJSON, textTAP, textReport, textDiff, textCommits, textKV:
	default:
		p.status = newStatusStats() // text_status.go
	}
	var headRing []posLine // the last maxHeaders/2 header lines
	var tests *testSummary
	if p.kind == textGoTest || p.kind == textTAP || p.kind == textReport {
		tests = &testSummary{}
		p.tests = tests
	}
	if p.kind == textCommits {
		p.graph = newGraphStats()
	}
	if p.kind == textDiff {
		p.diff = newDiffStats()
	}
	inBlock := false
	prevLine, prevSev := "", sevNone
	var recName string
	var recFields []string // fields seen in this record, for numeric max attribution
	_ = recFields
	var pendingNums []*fieldStat
	var pendingVals []int64
	flushRecord := func() {
		for i, f := range pendingNums {
			v := pendingVals[i]
			if f.numeric == 1 || v > f.max {
				f.max, f.maxRec = v, recName
			}
			if f.numeric == 1 || v < f.min {
				f.min, f.minRec = v, recName
			}
		}
		pendingNums, pendingVals = pendingNums[:0], pendingVals[:0]
	}
	// Each line is read when the next is known (next: "" after the
	// last): whether a line of the lead form starts a record depends on
	// the line after it (text_lead.go's sevExempt).
	step := func(pos int, line, next string) {
		if pos < headKeep {
			p.head = append(p.head, posLine{pos, line})
		}
		if p.status != nil {
			p.status.add(pos, line)
		}
		if r, ok := spreadAt[pos]; ok {
			p.spread[r] = posLine{pos, line}
		}
		if want[pos] {
			p.extra[pos] = line
		}
		if len(ring) < tailKeep {
			ring = append(ring, posLine{pos, line})
		} else {
			ring[pos%tailKeep] = posLine{pos, line}
		}
		blank := strings.TrimSpace(line) == ""
		if !blank && line[0] == ' ' {
			n := len(line) - len(strings.TrimLeft(line, " "))
			if n > p.maxIndent {
				p.maxIndent, p.maxIndentPos = n, pos
			}
		}
		if blank {
			p.blank++
			if inBlock && p.kind == textFields {
				flushRecord()
			}
			inBlock = false
		}
		// Records.
		switch p.kind {
		case textBlocks, textFields:
			if !blank && !inBlock {
				p.records++
				recName = ""
			}
		case textLog:
			if ts := lineTime(line); ts != "" {
				p.records++
				if p.firstTime == "" {
					p.firstTime = ts
				}
				p.lastTime = ts
			} else if pos == 0 || p.records == 0 {
				p.records++
			}
		default:
			p.records++
		}
		if p.headKey != "" && strings.HasPrefix(line, p.headKey) && headerKey(line) == p.headKey {
			p.nHead++
			if len(p.headers) < maxHeaders/2 {
				p.headers = append(p.headers, posLine{pos, line})
			} else {
				if len(headRing) == maxHeaders/2 {
					headRing = headRing[1:]
				}
				headRing = append(headRing, posLine{pos, line})
			}
		}
		if fieldIdx != nil && !blank {
			// Of a text that is not records of fields, a line may hold
			// several Key: value pairs (stat's "Device: 254,0<TAB>Inode:
			// 681  Links: 2"), indented ("  File: /etc"): text_kv.go.
			for _, fp := range fieldPairs(line, p.loose) {
				k, v := fp.key, fp.val
				if p.loose && fieldIdx[k] == nil && len(fieldIdx) >= maxLooseFields {
					continue
				}
				if !inBlock && !p.loose {
					recName = v
					if p.nameField == "" {
						p.nameField = k
					}
				}
				f := fieldIdx[k]
				if f == nil {
					f = &fieldStat{name: k, values: map[string]int{}, distinct: map[uint64]struct{}{}}
					fieldIdx[k] = f
					p.fields = append(p.fields, f)
				}
				f.present++
				if len(f.distinct) < maxDistinctTracked {
					f.distinct[hashString(v)] = struct{}{}
				}
				if !f.overflow {
					f.values[v]++
					if len(f.values) > maxFieldValues {
						f.overflow, f.values = true, nil
					}
				}
				if !p.loose {
					f.names.note(v, recName)
				}
				if x, err := strconv.ParseInt(v, 10, 64); err == nil {
					f.numeric++
					f.sum += x
					pendingNums = append(pendingNums, f)
					pendingVals = append(pendingVals, x)
					if p.loose {
						recName = "line " + strconv.Itoa(pos)
						flushRecord()
					}
				}
				if !p.loose && k == p.nameField && recName == v && len(p.names) < 100000 {
					p.names = append(p.names, posLine{pos, v})
				}
			}
		}
		if !blank {
			inBlock = true
		}
		if lv := lineLevel(line); lv != "" {
			p.levels[lv]++
		} else if lv := tagLevel(line); lv != "" {
			p.levels[lv]++
		}
		if hasLocationPrefix(line) {
			p.locPrefixed++
		}
		sev := lineSeverityOf(line, p.locData)
		if !p.zeroQuoted && zeroQuotedDiffers(line) {
			p.zeroQuoted = true
		}
		if sev != sevNone && p.cols != nil && len(p.cols.split.names) > 0 && !p.locData {
			if sev = lineSeverityOf(p.cols.split.severityText(line), p.locData); sev == sevNone {
				p.nameSev++
			}
		}
		if sev != sevNone && p.kind == textGoTest && testFraming(line) {
			sev = sevNone
			p.testNameSev++
		}
		if sev != sevNone && p.kind == textBlocks && !proseRe.MatchString(line) {
			sev = sevNone // a sentence with a severity word (text_severity.go)
			p.proseSev++
		}
		if sev != sevNone && isSummaryLine(line) {
			sev = sevNone // a count of diagnostics (text_severity.go)
			p.summaries = append(p.summaries, posLine{pos, line})
			if len(p.summaries) > maxSummaries {
				p.summaries = append(p.summaries[:maxSummaries/2], p.summaries[maxSummaries/2+1:]...)
			}
			p.nSummaries++
		}
		if sev != sevNone && isCodeLine(line) {
			sev = sevNone // a name or a type in code (text_severity.go)
			p.codeSev++
		}
		if sev != sevNone && p.recs != nil && p.recs.lead.sevExempt(line, next) {
			sev = sevNone // a word of a record's description (text_lead.go)
			p.leadSev++
		}
		if sev != sevNone && p.cols != nil && p.cols.split.sectionTitle(line, next) {
			sev = sevNone // the title of the rows below it (text_severity.go)
			p.titleSev++
		}
		if sev != sevNone && p.recs != nil && p.recs.keys != nil && tabContent(line) {
			sev = sevNone // a word of the content the records annotate (text_keyruns.go)
			p.tabSev++
		}
		p.gor.add(pos, line)
		if !blank && p.cols == nil && p.kv == nil && p.diff == nil && p.graph == nil {
			if t := strings.TrimSpace(line); isPath(t) && (t[0] == '/' || strings.HasPrefix(t, "./")) {
				if p.pathLines == nil {
					p.pathLines = newColProfile(&colSplit{mode: byLine, k: 1, minK: 1, headPos: -1}).cols[0]
					p.pathLines.name = "lines that are a path"
				}
				p.pathLines.add(pos, line, t, p.pathLines.rows+1)
			}
		}
		switch sev {
		case sevError:
			p.errors++
		case sevWarn:
			p.warns++
		}
		if sev != sevNone && p.status != nil {
			p.status.diagnostic(pos)
		}
		if sev != sevNone {
			prev := prevLine
			if prevSev != sevNone || strings.TrimSpace(prev) == "" || pos == 0 {
				prev = ""
			}
			if nb := notables[line]; nb != nil {
				nb.count++
				if nb.prev != "" && nb.prev != prev && len(nb.others) < maxOtherPrev && !slices.ContainsFunc(nb.others, func(o posLine) bool { return o.text == nb.prev }) {
					nb.others = append(nb.others, posLine{nb.last - 1, nb.prev})
				}
				nb.last = pos
				nb.prev = prev
			} else if len(notables) < maxNotable {
				nb := &notable{text: line, prev: prev, sev: sev, count: 1, first: pos, last: pos}
				notables[line] = nb
				p.notables = append(p.notables, nb)
			} else {
				p.notableCut++
			}
		}
		if p.recs != nil {
			p.recs.feed(pos, line, blank, sev)
		}
		if p.kv != nil && !blank {
			p.kv.add(pos, line)
		}
		if p.tagged != nil && !blank {
			p.tagged.add(pos, line)
		}
		if !blank {
			if p.diff == nil && p.graph == nil {
				p.locs.add(pos, line)
			}
			if p.kv == nil { // key/value lines state their values, not templates
				p.rows.add(p.miner.add(pos, line, sev), pos, line)
			}
			if p.cols != nil {
				p.cols.add(pos, line)
			}
		}
		prevLine, prevSev = line, sev
		if p.graph != nil {
			p.graph.add(pos, line)
		}
		if p.diff != nil {
			p.diff.add(pos, line)
		}
		if tests != nil && p.kind == textReport {
			tests.addReportLine(pos, line)
		} else if tests != nil {
			tests.addLine(pos, line, p.kind)
		}
	}
	// A guard that leaves out more than max(5, n/100) of the n lines
	// breaks whatever the rest holds (guardBroken: the rows and the
	// lines it leaves out are at most n): the pass stops there, and
	// analyzeText reads the text again without it (rev14 R9: on 50 MB
	// whose words start at line 5,000 the first pass was read whole).
	// So does a summary's rule once a row above it breaks it.
	guardMax := -1
	if guard && p.cols != nil && len(p.cols.split.numbers) > 0 {
		guardMax = max(5, n/100)
	}
	broken := func() bool {
		return p.cols != nil && (guardMax >= 0 && p.cols.guarded > guardMax+repAllowance*p.cols.headReps || p.cols.trailBroken)
	}
	heldPos, held := -1, ""
	textLinesWhile(data, func(pos int, line string) bool {
		if heldPos >= 0 {
			step(heldPos, held, line)
		}
		heldPos, held = pos, line
		return !broken()
	})
	if broken() {
		return p // analyzeText profiles again, without the rule
	}
	if heldPos >= 0 {
		step(heldPos, held, "")
	}
	if inBlock && p.kind == textFields {
		flushRecord()
	}
	p.miner.mergeRare()
	if p.kv != nil {
		p.kv.done()
	}
	if p.recs != nil {
		p.recs.done()
		p.recs.keysInOrder() // text_keyruns.go
	}
	// The tail, in order.
	if len(ring) == tailKeep {
		start := n % tailKeep
		ring = append(ring[start:], ring[:start]...)
	}
	p.tail = ring
	p.headers = append(p.headers, headRing...)
	switch {
	case p.recs != nil && p.recs.colon:
		p.records = p.recs.n
		p.recordUnit = "records (blank-line-separated blocks, each starting with a line that ends with \":\")"
	case p.recs != nil && p.recs.blocks:
		p.records = p.recs.n
		p.recordUnit = "records (blank-line-separated blocks)"
	case p.graph != nil:
		p.records = p.graph.commits
		p.recordUnit = "commits"
	case p.diff != nil:
		p.diff.done()
		p.records = p.diff.nFiles
		p.recordUnit = "files (each from its header to the next file's)"
	case p.recs != nil && p.recs.lead != nil:
		p.records = p.recs.n
		p.recordUnit = p.recs.lead.unit()
	case p.recs != nil && p.recs.brace != nil:
		p.records = p.recs.n
		p.recordUnit = p.recs.brace.unit()
	case p.recs != nil && p.recs.keys != nil:
		p.records = p.recs.n
		p.recordUnit = p.recs.keys.unit()
	case p.recs != nil && p.recs.kvHead:
		p.records = p.recs.n
		p.recordUnit = "records (each a line that is not Key: value and the Key: value lines below it)"
	case p.recs != nil && p.recs.key == "":
		p.records = p.recs.n
		p.recordUnit = "records (each a line at column 0 and the indented lines below it)"
	case p.headKey != "":
		p.records = p.nHead
		p.recordUnit = fmt.Sprintf("records (blank-line-separated blocks, each starting with a line %q)", p.headKey+"…")
	case p.kind == textBlocks || p.kind == textFields:
		p.recordUnit = "records (blank-line-separated paragraphs)"
	case p.kind == textLog:
		p.recordUnit = "entries (a timestamped line and its continuation lines)"
	case p.kv != nil:
		p.records = p.kv.entries
		p.recordUnit = "entries (name and value lines)"
	default:
		p.recordUnit = "lines"
	}
	if p.recs != nil && p.recs.kv.active() {
		// Records of Key: value lines: their keys are profiled per
		// record (text_kvrecords.go), not as loose lines.
		p.fields, p.loose = nil, false
	}
	if p.loose {
		// Keys of Key: value lines that recur (Author: of git log);
		// a key in one or two lines is prose, not a field.
		var keep []*fieldStat
		for _, f := range p.fields {
			if f.present >= 3 {
				keep = append(keep, f)
			}
		}
		sort.SliceStable(keep, func(i, j int) bool { return keep[i].present > keep[j].present })
		p.fields = keep
	}
	if tests != nil {
		tests.finish()
	}
	if p.status != nil && !(p.cols != nil && 2*p.cols.rows >= p.lines-p.blank) {
		// (A table's columns count the same values.)
		p.status.finish()
	}
	return p
}

// headerKey is the start of a line that names its kind: its first one or
// two white-space-separated tokens without a digit, each with the space
// after it ("commit " of "commit 4c776c0...", "Log started: " of "Log
// started: 2025-06-24  14:36:25"); "" when the line starts with a digit
// or a space.
func headerKey(line string) string {
	if line == "" || line[0] == ' ' || line[0] == '\t' {
		return ""
	}
	end := 0
	for tok := 0; tok < 2; tok++ {
		j := end
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			if isDigitByte(line[j]) {
				return line[:end]
			}
			j++
		}
		if j == len(line) {
			return line[:end] // a line that is only the key names no record
		}
		end = j + 1
	}
	return line[:end]
}

// detectHeaderKey finds the start shared by the first lines of the
// records of a text made of blank-line-separated blocks: the headerKey
// of the first non-blank line, when at least 3 lines of the first 4,000
// have it, at least 90% of them start a block (follow a blank line or
// start the text), and no other key starts at least 3 blocks and a third
// as many as it. "" when there is none.
func detectHeaderKey(data []byte, kind string) string {
	switch kind {
	case textFields, textGoTest, textTAP, textGoJSON, textReport, textCommits, textDiff, textKV:
		return ""
	}
	key := ""
	n, atStart := 0, 0
	starts := map[string]int{} // blocks at column 0 by their first line's headerKey
	prevBlank := true
	sampleLines(data, func(line string) {
		blank := strings.TrimSpace(line) == ""
		if !blank && prevBlank && line[0] != ' ' && line[0] != '\t' {
			if k := headerKey(line); k != "" && (starts[k] > 0 || len(starts) < 256) {
				starts[k]++ // a block that starts at column 0
			}
		}
		if !blank && key == "" && n == 0 {
			key = headerKey(line)
			if key == "" {
				n = -1 // the first line names no kind: no headers
			}
		}
		if !blank && key != "" && n >= 0 && strings.HasPrefix(line, key) && headerKey(line) == key {
			n++
			if prevBlank {
				atStart++
			}
		}
		prevBlank = blank
	})
	if key == "" || n < 3 || atStart*10 < n*9 {
		return ""
	}
	// No other key starts as many blocks: else the key names some of
	// the records only ("FAIL path" blocks among "PASS path" blocks).
	for k, c := range starts {
		if k != key && c >= 3 && 3*c >= starts[key] {
			return ""
		}
	}
	return key
}

// detectTextKind decides the kind of a text from its first 4,000 lines.
func detectTextKind(data []byte) string {
	lines, nonBlank, blank, blocks, fieldLines, blockFirstField := 0, 0, 0, 0, 0, 0
	timed, leveled, goTest, tap, located, report := 0, 0, 0, 0, 0, 0
	tapNested, tapYAML := 0, 0
	commits, lanes, diffs, diffHeads := 0, 0, 0, 0
	inBlock := false
	sampleLines(data, func(line string) {
		lines++
		if strings.TrimSpace(line) == "" {
			blank++
			inBlock = false
			return
		}
		nonBlank++
		_, _, isField := fieldLine(line)
		if isField {
			fieldLines++
		} else if line[0] == ' ' || line[0] == '\t' {
			fieldLines++ // a continuation line of a field
		}
		if !inBlock {
			blocks++
			if isField {
				blockFirstField++
			}
		}
		inBlock = true
		if lineTime(line) != "" {
			timed++
		} else if lineLevel(line) != "" {
			leveled++
		}
		if strings.HasPrefix(line, "=== RUN") || strings.HasPrefix(line, "--- PASS: ") || strings.HasPrefix(line, "--- FAIL: ") ||
			strings.HasPrefix(line, "ok  \t") || strings.HasPrefix(line, "FAIL\t") || strings.HasPrefix(line, "PASS") && len(line) == 4 {
			goTest++
		}
		if strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "not ok ") || strings.HasPrefix(line, "1..") {
			tap++
		} else if isTAPLine(line) {
			// An indented test point or plan, "# Subtest:", "TAP
			// version": a nesting producer (node --test).
			tapNested++
		}
		if t := strings.TrimSpace(line); t == "---" || t == "..." || t == "TAP version 13" || t == "TAP version 14" {
			tapYAML++
		}
		if hasLocationPrefix(line) {
			located++
		}
		if isTestReportLine(line) {
			report++
		}
		if d, h := isDiffLine(line); d {
			diffs++
			if h {
				diffHeads++
			}
		}
		if c, l := isCommitListLine(line); c {
			commits++
		} else if l {
			lanes++
		}
	})
	switch {
	case nonBlank == 0:
		return textPlain
	case goTest >= 2 && goTest*20 >= nonBlank:
		return textGoTest
	case tap >= 2 && tap*3 >= nonBlank:
		return textTAP
	case tapYAML > 0 && tap+tapNested >= 4 && (tap+tapNested)*5 >= nonBlank:
		// A nesting TAP producer: points indented under "# Subtest:",
		// each followed by a YAML block of details.
		return textTAP
	case report >= 3 && report*5 >= nonBlank:
		return textReport
	case commits >= 3 && (commits+lanes)*10 >= nonBlank*8:
		return textCommits
	case diffHeads >= 2 && diffs*10 >= nonBlank*9:
		return textDiff
	case blocks >= 3 && blank >= 2 && blockFirstField*10 >= blocks*8 && fieldLines*10 >= nonBlank*7:
		return textFields
	case timed*2 >= nonBlank:
		return textLog
	case blocks >= 3 && blank >= 2 && nonBlank >= 2*blocks && nonBlank <= 50*blocks:
		return textBlocks
	case leveled*2 >= nonBlank:
		return textLog
	case located > 0 && located*10 >= nonBlank:
		return textCompile
	}
	return textPlain
}

// fieldLine splits an RFC 822-like "Key: value" line; the key is a run of
// letters, digits and '-' starting with a letter.
func fieldLine(line string) (key, value string, ok bool) {
	i := 0
	for i < len(line) && (isAlnumByte(line[i]) || line[i] == '-' || line[i] == '_') {
		i++
	}
	if i == 0 || i >= len(line) || line[i] != ':' || !(line[0]|0x20 >= 'a' && line[0]|0x20 <= 'z') || i > 40 {
		return "", "", false
	}
	rest := line[i+1:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false // "http://", "12:30"
	}
	return line[:i], strings.TrimSpace(rest), true
}

// lineTime returns the timestamp a log line starts with (after an
// optional '[' or '<n>'), or "": ISO 8601 dates with a time, syslog
// ("Nov 25 14:57:27"), klog ("I1125 14:57:27.123").
func lineTime(line string) string {
	s := line
	if strings.HasPrefix(s, "[") {
		s = s[1:]
	}
	if n := linetemplate.MatchTimestamp(s); n > 10 {
		return s[:n]
	}
	if len(s) >= 15 && isMonth(s[:3]) && s[3] == ' ' {
		j := 4
		if s[j] == ' ' {
			j++
		}
		k := j
		for k < len(s) && isDigitByte(s[k]) {
			k++
		}
		if k > j && k < len(s) && s[k] == ' ' {
			if n := linetemplate.MatchClock(s[k+1:]); n >= 8 {
				return s[:k+1+n]
			}
		}
	}
	if len(s) >= 14 && strings.IndexByte("IWEF", s[0]) >= 0 && linetemplate.FixedDigits(s, 1, 4) && s[5] == ' ' {
		if n := linetemplate.MatchClock(s[6:]); n >= 8 {
			return s[:6+n]
		}
	}
	return ""
}

func isMonth(s string) bool {
	switch s {
	case "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	return false
}

// lineLevel returns the log level a line states in its first 64 bytes
// (a word such as INFO, [WARN], level=error, or a klog prefix), upper
// case, or "".
func lineLevel(line string) string {
	if len(line) >= 5 && strings.IndexByte("IWEF", line[0]) >= 0 && linetemplate.FixedDigits(line, 1, 4) {
		return map[byte]string{'I': "INFO", 'W': "WARN", 'E': "ERROR", 'F': "FATAL"}[line[0]]
	}
	s := line
	if len(s) > 64 {
		s = s[:64]
	}
	if i := strings.Index(s, "level="); i >= 0 {
		v := s[i+6:]
		v = strings.TrimPrefix(v, `"`)
		j := 0
		for j < len(v) && isAlnumByte(v[j]) {
			j++
		}
		if lv := normLevel(v[:j]); lv != "" {
			return lv
		}
	}
	// A word is a run of letters, digits and '_': TRACE in _POSIX_TRACE
	// is part of a name, not a level.
	word := func(c byte) bool { return isAlnumByte(c) || c == '_' }
	for i := 0; i < len(s); {
		for i < len(s) && !word(s[i]) {
			i++
		}
		j := i
		for j < len(s) && word(s[j]) {
			j++
		}
		w := s[i:j]
		if len(w) >= 4 && w == strings.ToUpper(w) {
			if lv := normLevel(w); lv != "" {
				return lv
			}
		}
		i = j
	}
	return ""
}

// tagLevel is the level of a line that opens with a one-letter tag of
// a level, a colon and a space before a word (apt's and lintian's "E: ",
// "W: ", "I: ", lintian's "P: ", "X: ", "N: ", "O: "), named as the tool
// writes it ("W:"), or "".
func tagLevel(line string) string {
	if len(line) < 4 || line[1] != ':' || line[2] != ' ' || line[3] == ' ' || isDigitByte(line[3]) || strings.IndexByte("EWINPXOCM", line[0]) < 0 {
		return ""
	}
	return line[:2]
}

func normLevel(w string) string {
	switch strings.ToUpper(w) {
	case "TRACE":
		return "TRACE"
	case "DEBUG":
		return "DEBUG"
	case "INFO":
		return "INFO"
	case "NOTICE":
		return "NOTICE"
	case "WARN", "WARNING":
		return "WARN"
	case "ERROR", "ERR":
		return "ERROR"
	case "FATAL", "CRIT", "CRITICAL", "EMERG", "ALERT", "PANIC":
		return "FATAL"
	}
	return ""
}

// sortedLevels returns the levels in a fixed severity order.
func sortedLevels(m map[string]int) []string {
	order := map[string]int{"FATAL": 0, "ERROR": 1, "WARN": 2, "NOTICE": 3, "INFO": 4, "DEBUG": 5, "TRACE": 6,
		"E:": 1, "W:": 2, "N:": 3, "I:": 4, "P:": 7, "X:": 8, "O:": 9, "C:": 10, "M:": 11}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return order[out[i]] < order[out[j]] })
	return out
}
