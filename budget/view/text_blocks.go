package view

import (
	"strings"
)

// Blocks: records whose summary is written on lines of pairs.
//
// A record of a dump (a C struct of pahole or gdb's ptype /o, a block
// group of dumpe2fs, a device of lspci -v) is a header line and its
// member lines, and among them the lines that sum the record up:
// "/* size: 24, cachelines: 1, members: 4 */", "/* total size (bytes):
// 768 */", "8192 free blocks, 512 free inodes, 0 directories". What a
// user asks of such records is those numbers: the largest struct, the
// one with the most members, how many have holes or padding, the size
// of struct X. So, in records led by their indentation (text_lead.go)
// and braced records (detectBracedRecords), the lines that are wholly
// pairs (blockPairs) are the records' Key: value profile
// (text_kvrecords.go): per key the records holding it, numbers with
// their sum, least and greatest and the records holding them, few
// values each with its count; and each record's index line names its
// values.

// maxBlockKey bounds the characters of a pair's key.
const maxBlockKey = 40

// blockPairs are the pairs of a line that is a record's summary, or
// nil: the line (in a comment /* ... */ or not) split at ", " and "; "
// outside parentheses, every part a pair: "key: value", "key = value"
// (a key of one to five words of letters, digits and "_()./-",
// starting with a letter), or "N words" (a number, then one to three
// words of letters: "8192 free blocks" is free blocks 8192). A line
// outside a comment needs two pairs or more: one "Key: value" line is
// a field (text_kv.go), not a summary.
func blockPairs(line string) []kvPair {
	t := strings.TrimSpace(line)
	comment := false
	if strings.HasPrefix(t, "/*") && strings.HasSuffix(t, "*/") && len(t) >= 4 {
		t, comment = strings.TrimSpace(t[2:len(t)-2]), true
	}
	if t == "" {
		return nil
	}
	var out []kvPair
	depth, start := 0, 0
	for i := 0; i <= len(t); i++ {
		if i < len(t) {
			switch t[i] {
			case '(', '[', '{':
				depth++
				continue
			case ')', ']', '}':
				depth--
				continue
			case ',', ';':
				if depth != 0 || i+1 < len(t) && t[i+1] != ' ' {
					continue
				}
			default:
				continue
			}
		}
		pr, ok := blockPair(strings.TrimSpace(t[start:i]))
		if !ok {
			return nil
		}
		out = append(out, pr)
		start = i + 1
	}
	if len(out) == 0 || !comment && len(out) < 2 {
		return nil
	}
	return out
}

// blockPair reads one part of a summary line as a pair (blockPairs).
func blockPair(p string) (kvPair, bool) {
	for _, sep := range []string{": ", " = "} {
		if i := strings.Index(p, sep); i > 0 {
			k, v := strings.TrimSpace(p[:i]), strings.TrimSpace(p[i+len(sep):])
			if v == "" || !blockKey(k) {
				return kvPair{}, false
			}
			return kvPair{strings.Join(strings.Fields(k), " "), v}, true
		}
	}
	f := strings.Fields(p)
	if len(f) < 2 || len(f) > 4 || !isDigitByte(f[0][0]) {
		return kvPair{}, false
	}
	if _, _, ok := parseDecimal(f[0]); !ok {
		return kvPair{}, false
	}
	for _, w := range f[1:] {
		if !letters(w) {
			return kvPair{}, false
		}
	}
	return kvPair{strings.Join(f[1:], " "), f[0]}, true
}

// blockKey reports whether k is a key of a summary pair: one to five
// words of letters, digits and "_()./-", the first starting with a
// letter, at most maxBlockKey characters.
func blockKey(k string) bool {
	f := strings.Fields(k)
	if len(f) == 0 || len(f) > 5 || len(k) > maxBlockKey || !isLetterByte(k[0]) {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(isAlnumByte(c) || c == ' ' || c == '\t' || strings.IndexByte("_()./-", c) >= 0) {
			return false
		}
	}
	return true
}

// linePairs are the pairs a line of a record's body holds as its
// profile reads them: several for a summary line (pairs), else one
// Key: value (or key value) pair, or none.
func (kp *kvRecProfile) linePairs(line string) []kvPair {
	if kp.pairs {
		return blockPairs(line)
	}
	if k, v, ok := kp.splitLine(line); ok {
		return []kvPair{{k, v}}
	}
	return nil
}

// Braced records.
//
// gdb's ptype /o, nft list ruleset, a C declaration dump: a record is a
// line that ends with "{" at depth 0 and the lines down to its matching
// "}" (nested braces inside it), whatever their indentation (gdb writes
// every member's offsets at column 0 and the closing brace indented).
// A line starting with "}" closes one level, a line ending with "{"
// opens one (after the blanks around it are removed); lines at depth 0
// that open nothing are no record's.

// braceForm is the state of the braced records while their lines are
// read: the depth of the line read last.
type braceForm struct{ depth int }

// braceBlanks are the blanks trimmed around a line before its braces
// are read (the \s of a jq regular expression).
const braceBlanks = " \t\n\f\r"

// braceEnds reports whether a line opens a level (it ends with "{")
// and whether it closes one (it starts with "}").
func braceEnds(line string) (open, close bool) {
	t := strings.Trim(line, braceBlanks)
	return strings.HasSuffix(t, "{"), strings.HasPrefix(t, "}")
}

// step reads one line: whether it starts a record, and whether it is a
// record's line (its first, a deeper one or its closing line); end
// reports that it closes the record.
func (bf *braceForm) step(line string) (header, in, end bool) {
	open, close := braceEnds(line)
	if bf.depth == 0 {
		if open {
			bf.depth = 1
			return true, true, false
		}
		return false, false, false
	}
	if close {
		bf.depth--
	}
	if open {
		bf.depth++
	}
	if bf.depth <= 0 {
		bf.depth = 0
		return false, true, true
	}
	return false, true, false
}

// bracedRecordMin: at least this many records, their lines at least 60%
// of the non-blank lines, nine in ten of them closed, none a quarter of
// the non-blank lines or more (go doc's prose around its code: a brace
// that opens a struct's documented fields is closed a thousand lines
// later, and most lines are no code).
const bracedRecordMin = 5

// detectBracedRecords reports whether a text (of kind) is made of
// braced records, from its first 4,000 lines.
func detectBracedRecords(data []byte, kind string) bool {
	switch kind {
	case textFields, textGoTest, textTAP, textGoJSON, textCompile, textLog, textReport, textCommits, textDiff:
		return false
	}
	var bf braceForm
	recs, closed, in, nonBlank, cur, most := 0, 0, 0, 0, 0, 0
	sampleLines(data, func(line string) {
		blank := strings.Trim(line, braceBlanks) == ""
		if !blank {
			nonBlank++
		}
		h, i, e := bf.step(line)
		if h {
			recs++
			cur = 0
		}
		if i && !blank {
			in++
			cur++
			most = max(most, cur)
		}
		if e {
			closed++
		}
	})
	return recs >= bracedRecordMin && 10*closed >= 9*recs && 10*in >= 6*nonBlank && 4*most <= nonBlank
}

// braceName is a braced record's name: its first line without a leading
// comment (gdb's "/* offset | size */"), the "{" at its end and what a
// " = " before the name says ("type = struct tm {" is struct tm).
func braceName(line string) string {
	t := strings.Trim(line, braceBlanks)
	if strings.HasPrefix(t, "/*") {
		if i := strings.Index(t, "*/"); i >= 0 {
			t = strings.TrimSpace(t[i+2:])
		}
	}
	t = strings.TrimSpace(strings.TrimSuffix(t, "{"))
	if i := strings.LastIndex(t, " = "); i >= 0 {
		t = strings.TrimSpace(t[i+3:])
	}
	if t == "" {
		t = strings.Join(strings.Fields(line), " ")
	}
	return t
}

// headerQuery is the jq of every braced record's first line with its
// number (braceForm's steps).
func (bf *braceForm) headerQuery() string {
	return `foreach .[] as $l ({d: 0, i: -1, h: false}; ($l | gsub("^\\s+|\\s+$"; "")) as $t | .i += 1 | .h = (.d == 0 and ($t | endswith("{"))) | ` +
		`.d = (if .h then 1 elif .d == 0 then 0 else ([.d - (if $t | startswith("}") then 1 else 0 end) + (if $t | endswith("{") then 1 else 0 end), 0] | max) end); ` +
		`if .h then "\(.i)\t\($l)" else empty end)`
}

// unit is how the view names braced records.
func (bf *braceForm) unit() string {
	return "records (each a line ending with \"{\" at depth 0 and the lines down to its matching line starting with \"}\")"
}
