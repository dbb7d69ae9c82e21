package view

import (
	"bytes"
	"fmt"
	"strings"
)

// The index of a text's records by name.
//
// A record of a text is looked up by its name ("curl" of apt-cache
// policy, "#200" of a backtrace, "--max-old-space-size" of a help text):
// an even spread of whole records answers such a lookup only by chance.
// So, beside the records shown whole, the view lists the records densely
// in record order, one line each: the record's name (the first word of
// its first line, a final ':' dropped) and its deciding fields: the
// values of the Key: value keys nearly every record has ("Installed",
// "Candidate"), else the short columns of its first line when the first
// lines split evenly into columns (a frame's function and file:line).
// With neither (a name alone tells nothing the record's own line would
// not), there is no index. Twenty records make a candidate; the first chunks come before the
// second screen of the spread of whole records (an index line costs a
// tenth of a whole record). Its text is made when the fill reaches it,
// reading the record's lines again.

const (
	recIndexChunk = 20 // records per index candidate
	recIndexKeys  = 2  // columns of the first lines per record at most
	recIndexCell  = 48 // a field's value is cut to this
	recIndexName  = 60 // a record's name is cut to this
)

// recSpan is where a record is: its first and last line.
type recSpan struct{ start, end int }

// recFirstName is the name of a record by its first line: its first
// word, a final ':' or ',' dropped; with skip (a word every record
// starts with: "#" of go mod why), its first two words.
func recFirstName(line string, skip bool) string {
	t := strings.TrimSpace(line)
	w := firstWord(t)
	if skip {
		if rest := strings.TrimSpace(t[len(w):]); rest != "" {
			w += " " + firstWord(rest)
		}
	}
	if t := strings.TrimRight(w, ":,"); t != "" {
		w = t
	}
	if len(w) > 16 && isHexString(w) {
		return w[:12] + "…" // a hash by its first 12 digits, as git abbreviates it
	}
	return cut(w, recIndexName)
}

// isHexString reports whether s is hexadecimal digits only.
func isHexString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// constantLead reports whether nearly every record's first line starts
// with the same word, one with no digit ("#", "commit"): not a name.
func (rs *recordStats) constantLead() bool {
	if rs.leads == nil {
		return false
	}
	ks, _ := byCount(rs.leads)
	return len(ks) > 0 && 10*ks[0].n >= 9*rs.n && !strings.ContainsAny(ks[0].k, "0123456789")
}

// indexKeys are the Key: value keys of the records' bodies an index line
// gives, of the keys in 90% of the records or more with more than one
// value: the first in order of first appearance (the record's main
// field: Installed, author), the number with the most distinct values
// (a time, a size: author-time), the other with the most distinct
// values (Candidate, a commit's summary).
func (kp *kvRecProfile) indexKeys(n int) []string {
	if kp == nil || kp.headOnly {
		return nil
	}
	var cands []*kvRecKey
	for _, s := range kp.order {
		if 10*s.records < 9*n || s.constant(n) || !s.overflow && len(s.values) < 2 {
			continue
		}
		cands = append(cands, s)
	}
	if len(cands) == 0 {
		return nil
	}
	out := []string{cands[0].name}
	most := func(num bool) {
		var best *kvRecKey
		for _, s := range cands[1:] {
			if s.isNumber() == num && (best == nil || len(s.distinct) > len(best.distinct)) {
				best = s
			}
		}
		if best != nil {
			out = append(out, best.name)
		}
	}
	most(true)
	most(false)
	return out
}

// indexHeadCols are the columns of the records' first lines an index line
// gives (when no Key: value keys do): when the first lines split evenly
// into columns, the columns after the first whose values are short (24
// characters or fewer on average), not unique to each record and not
// one value in nearly every record, not hexadecimal addresses; at most
// recIndexKeys.
func (kp *kvRecProfile) indexHeadCols(n int) []int {
	if kp == nil || kp.heads == nil || kp.headColumns(n) == 0 {
		return nil
	}
	var out []int
	for i, c := range kp.heads.cols {
		if len(out) == recIndexKeys {
			break
		}
		if i == 0 || c.rows < n*9/10 || c.sumLen > 24*c.rows || len(c.distinct) < 2 || 2*len(c.distinct) > c.rows {
			continue
		}
		if c.overflow {
			continue
		}
		hex, most := false, 0
		for v, k := range c.values {
			hex = hex || strings.HasPrefix(v, "0x")
			most = max(most, k)
		}
		if hex || 10*most >= 9*c.rows {
			continue // an address, or one value in nearly every record
		}
		out = append(out, i)
	}
	return out
}

// recIndexCandidates adds the index of the records by name (section
// tsRecNames) at prio for chunks [0, first) and PrioSpread after; it
// reports whether there is one. Only when the records are more than the
// view shows whole (at least 3 chunks) and their names mostly differ.
func (tc *textCands) recIndexCandidates(prio int) bool {
	rs := tc.p.recs
	if rs == nil || len(rs.spans) < 3*recIndexChunk {
		return false
	}
	keys := rs.kv.indexKeys(rs.n)
	var cols []int
	if len(keys) == 0 {
		cols = rs.kv.indexHeadCols(rs.n)
	}
	if len(keys) == 0 && len(cols) == 0 {
		return false // a name alone tells nothing the record's line would not
	}
	skip := rs.constantLead()
	data := tc.in.Data
	// Byte offsets of each chunk's first record, in one pass.
	n := (len(rs.spans) + recIndexChunk - 1) / recIndexChunk
	offs := make([]int, n)
	for j, line, off := 0, 0, 0; j < n; {
		if line == rs.spans[j*recIndexChunk].start {
			offs[j] = off
			j++
			continue
		}
		k := bytes.IndexByte(data[off:], '\n')
		if k < 0 {
			return false // cannot happen: the profile read these lines
		}
		off += k + 1
		line++
	}
	render := func(c int) string {
		spans := rs.spans[c*recIndexChunk : min(len(rs.spans), (c+1)*recIndexChunk)]
		var out []string
		k := 0
		var name string
		var vals []string
		flush := func() {
			s := fmt.Sprintf("  %d\t%s", spans[k].start, name)
			for j, v := range vals {
				if v == "" {
					v = "-"
				}
				sep := " "
				if j > 0 {
					sep = "; "
				}
				s += sep + cut(v, recIndexCell)
			}
			out = append(out, s)
		}
		textLinesWhile(data[offs[c]:], func(i int, line string) bool {
			pos := spans[0].start + i
			if pos > spans[k].end {
				flush()
				k++
				if k == len(spans) {
					return false
				}
			}
			if pos < spans[k].start {
				return true // a line of no record
			}
			if pos == spans[k].start {
				name = recFirstName(line, skip)
				if rs.brace != nil {
					name = cut(braceName(line), recIndexName) // text_blocks.go
				}
				vals = make([]string, max(len(keys), len(cols)))
				if len(cols) > 0 {
					f := splitSpaces(strings.TrimSpace(line))
					for j, ci := range cols {
						if ci < len(f) {
							vals[j] = f[ci]
						}
					}
				}
				return true
			}
			if len(keys) > 0 {
				for _, pr := range rs.kv.linePairs(line) {
					for j, kk := range keys {
						if pr.key == kk && vals[j] == "" {
							vals[j] = strings.Join(strings.Fields(pr.val), " ")
						}
					}
				}
			}
			return true
		})
		if k < len(spans) {
			flush()
		}
		return strings.Join(out, "\n")
	}
	var what []string
	what = append(what, keys...)
	for _, ci := range cols {
		what = append(what, fmt.Sprintf("column %d", ci+1))
	}
	tc.recIndexWhat = what
	for c := 0; c < n; c++ {
		p := prio
		if c >= 10 {
			p = PrioSpread
		}
		c := c
		tc.recIndexN[c*recIndexChunk] = min(recIndexChunk, len(rs.spans)-c*recIndexChunk)
		tc.v.Add(Candidate{Section: tc.sec[tsRecNames], Key: c, Record: -1, Prio: p, Reason: "record index",
			lazy: &lazyText{make: func() string { return render(c) }}})
	}
	return true
}

// recNamesHead is the header of the index of records by name.
func (tc *textCands) recNamesHead(cs []Candidate) string {
	rs := tc.p.recs
	n := 0
	for _, c := range cs {
		n += tc.recIndexN[c.Key*recIndexChunk]
	}
	what := "name"
	if len(tc.recIndexWhat) > 0 {
		what += " " + strings.Join(tc.recIndexWhat, "; ")
	}
	cols := ""
	if len(tc.recIndexWhat) > 0 && strings.HasPrefix(tc.recIndexWhat[0], "column ") {
		cols = ", a column one of its first line's split at runs of spaces"
	}
	s := fmt.Sprintf("index of the records by name, in record order (showing %s of %s; line<TAB>%s; the name is the first word of the record's first line (a hash: its first 12 digits)%s; values after the first separated by \"; \", cut at %d characters, - when the record has none):\n",
		commas(n), commas(rs.n), what, cols, recIndexCell)
	if len(rs.spans) < rs.n {
		s += fmt.Sprintf("(the index lists the first %s records)\n", commas(len(rs.spans)))
	}
	if n < rs.n {
		// The records of the chunks not shown, and those past the
		// index: their first lines, in record order.
		shown := make([]bool, (len(rs.spans)+recIndexChunk-1)/recIndexChunk)
		for _, c := range cs {
			shown[c.Key] = true
		}
		var ranges [][2]int
		for c := range shown {
			if !shown[c] {
				ranges = append(ranges, [2]int{c * recIndexChunk, min(len(rs.spans), (c+1)*recIndexChunk)})
			}
		}
		if len(rs.spans) < rs.n {
			ranges = append(ranges, [2]int{len(rs.spans), rs.n})
		}
		s += fmt.Sprintf("the %s records not in this index, by their first lines: compact artifact query %s --jq %s\n",
			commas(rs.n-n), tc.in.Handle, tc.jq("["+rs.headerQuery()+"] | "+jqSlices(ranges, rs.n)))
	}
	return s
}

// jqSlices is the jq that yields the items of an array of n items in
// the ranges [from, to) given in order (adjacent ones are joined; the
// last open when it ends at n): ".[20:100][], .[120:][]".
func jqSlices(ranges [][2]int, n int) string {
	var parts []string
	for i := 0; i < len(ranges); i++ {
		a, b := ranges[i][0], ranges[i][1]
		for i+1 < len(ranges) && ranges[i+1][0] == b {
			i++
			b = ranges[i][1]
		}
		switch {
		case b >= n:
			parts = append(parts, fmt.Sprintf(".[%d:][]", a))
		default:
			parts = append(parts, fmt.Sprintf(".[%d:%d][]", a, b))
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
