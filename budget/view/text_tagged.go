package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Colon-separated records with a type tag in the first field.
//
// gpg --with-colons writes one record a line, its fields separated by
// ':', the first field naming the record's type ("pub", "uid", "fpr",
// "sub", "rvk"); each type has its own fields (a pub's field 3 is the
// key's length, its field 4 the algorithm, its field 6 the creation
// time). Read as one table, the columns mix the types; read as a list,
// every line is one value. When 90% of the non-blank lines among the
// first 4,000 (and 20 at least) start with a tag of 1 to 12 lower-case
// letters and digits and a ':' and have at least 3 fields, with at
// most 24 tags, the lines are grouped by their tag and each tag's
// fields are counted over every line of it, exactly: the values of a
// field of few values with their counts, the distinct count of the
// others, numbers with their smallest and largest (and the lines that
// hold them). Fields are numbered from 1, the tag being field 1, as gpg
// documents them.

const (
	maxTagged       = 24 // tags counted (more: not records of tagged lines)
	maxTagFields    = 24 // fields profiled per tag
	maxTagValues    = 64 // distinct values listed per field, while few
	maxTagDistinct  = 1 << 16
	shownTagValues  = 8
	taggedLineWidth = 3 * textWidth
)

// tagField is the profile of one field of one tag.
type tagField struct {
	present  int // lines with the field (not empty)
	values   map[string]int
	overflow bool
	distinct map[uint64]struct{}
	numeric  int
	min, max int64
	minLine  posLine
	maxLine  posLine
}

// tagStat is the profile of one tag's lines.
type tagStat struct {
	tag    string
	lines  int
	first  int
	fields []*tagField // field 2 on (index 0 is field 2)
}

// taggedStats counts the lines of a text of tagged colon records.
type taggedStats struct {
	tags  map[string]*tagStat
	order []*tagStat
	other int // non-blank lines without a tag
}

// recordTag is the tag a line starts with ("pub" of "pub:-:4096:...")
// when it has at least 3 colon-separated fields, or "".
func recordTag(line string) string {
	i := strings.IndexByte(line, ':')
	if i < 1 || i > 12 || strings.Count(line, ":") < 2 {
		return ""
	}
	if c := line[0]; c < 'a' || c > 'z' {
		return ""
	}
	for j := 1; j < i; j++ {
		if c := line[j]; !(c >= 'a' && c <= 'z' || isDigitByte(c)) {
			return ""
		}
	}
	return line[:i]
}

// detectTagged reports whether a text is made of tagged colon records
// (see above), from its first 4,000 lines.
func detectTagged(data []byte) bool {
	nonBlank, tagged := 0, 0
	tags := map[string]bool{}
	sampleLines(data, func(line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		nonBlank++
		if t := recordTag(line); t != "" {
			tagged++
			tags[t] = true
		}
	})
	return tagged >= 20 && 10*tagged >= 9*nonBlank && len(tags) >= 2 && len(tags) <= maxTagged
}

func newTaggedStats() *taggedStats { return &taggedStats{tags: map[string]*tagStat{}} }

// add counts line pos.
func (ts *taggedStats) add(pos int, line string) {
	tag := recordTag(line)
	if tag == "" {
		ts.other++
		return
	}
	s := ts.tags[tag]
	if s == nil {
		if len(ts.tags) >= maxTagged {
			ts.other++
			return
		}
		s = &tagStat{tag: tag, first: pos}
		ts.tags[tag] = s
		ts.order = append(ts.order, s)
	}
	s.lines++
	f := strings.Split(line, ":")[1:]
	for i, v := range f {
		if i >= maxTagFields-1 {
			break
		}
		for len(s.fields) <= i {
			s.fields = append(s.fields, &tagField{values: map[string]int{}, distinct: map[uint64]struct{}{}})
		}
		fs := s.fields[i]
		if v == "" {
			continue
		}
		fs.present++
		if len(fs.distinct) < maxTagDistinct {
			fs.distinct[hashString(v)] = struct{}{}
		}
		if !fs.overflow {
			fs.values[v]++
			if len(fs.values) > maxTagValues {
				fs.overflow, fs.values = true, nil
			}
		}
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			fs.numeric++
			if fs.numeric == 1 || n < fs.min {
				fs.min, fs.minLine = n, posLine{pos, line}
			}
			if fs.numeric == 1 || n > fs.max {
				fs.max, fs.maxLine = n, posLine{pos, line}
			}
		}
	}
}

// byLines are the tags, most lines first (then in order of appearance).
func (ts *taggedStats) byLines() []*tagStat {
	out := append([]*tagStat(nil), ts.order...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].lines > out[j].lines })
	return out
}

// fact is the line "lines by their type (...): rvk 82, fpr 61, ...".
func (ts *taggedStats) fact() string {
	var parts []string
	for _, s := range ts.byLines() {
		parts = append(parts, fmt.Sprintf("%s %s", s.tag, commas(s.lines)))
	}
	s := "colon-separated records, lines by their type (field 1; exact): " + strings.Join(parts, ", ")
	if ts.other > 0 {
		s += fmt.Sprintf("; %s other lines", commas(ts.other))
	}
	return s
}

// line is the profile of one tag's fields: for each field that is not
// empty in every line, its values with their counts when few, else its
// distinct count, and of numbers the smallest and the largest.
func (s *tagStat) line() string {
	var parts []string
	for i, f := range s.fields {
		if f.present == 0 {
			continue
		}
		name := fmt.Sprintf("field %d", i+2)
		if f.present < s.lines {
			name += fmt.Sprintf(" (in %s)", commas(f.present))
		}
		isNum := f.numeric == f.present
		switch {
		case !f.overflow && (len(f.values) <= shownTagValues || isNum && len(f.values) <= 12 || 2*len(f.values) <= f.present):
			vs, _ := byCount(f.values)
			var xs []string
			for k, x := range vs {
				if k == 12 {
					xs = append(xs, fmt.Sprintf("%d other values", len(vs)-12))
					break
				}
				xs = append(xs, fmt.Sprintf("%q %s", cut(x.k, 60), commas(x.n)))
			}
			parts = append(parts, name+": "+strings.Join(xs, ", "))
		case isNum:
			parts = append(parts, fmt.Sprintf("%s: %s distinct numbers, smallest %d (line %d), largest %d (line %d)", name, f.distinctText(), f.min, f.minLine.pos, f.max, f.maxLine.pos))
		default:
			parts = append(parts, fmt.Sprintf("%s: %s distinct values", name, f.distinctText()))
		}
	}
	return fmt.Sprintf("  %s (%s lines): %s", s.tag, commas(s.lines), strings.Join(parts, "; "))
}

// extremes are the lines holding the smallest and the largest number
// of each numeric field of many values, of each tag (most lines
// first), each once, with why.
func (ts *taggedStats) extremes() (lines []posLine, why []string) {
	seen := map[int]bool{}
	for _, s := range ts.byLines() {
		for i, f := range s.fields {
			if f.present == 0 || f.numeric != f.present || !f.overflow && len(f.values) <= 12 {
				continue
			}
			for _, e := range []struct {
				l posLine
				w string
			}{{f.minLine, "smallest"}, {f.maxLine, "largest"}} {
				if !seen[e.l.pos] {
					seen[e.l.pos] = true
					lines = append(lines, e.l)
					why = append(why, fmt.Sprintf("%s field %d of %s", e.w, i+2, s.tag))
				}
			}
		}
	}
	return lines, why
}

// taggedCandidates adds the profile of each tag (PrioRare) and the lines
// at the extremes of its numeric fields (PrioRare, after the profiles).
func (tc *textCands) taggedCandidates(add func(sec, key, rec int, reason, text string)) {
	ts := tc.p.tagged
	if ts == nil {
		return
	}
	for i, s := range ts.byLines() {
		add(tsTagged, i, -1, "tagged fields", cut(s.line(), taggedLineWidth))
	}
	lines, why := ts.extremes()
	for i, l := range lines {
		add(tsTagged, 1000+i, l.pos, "extreme", fmt.Sprintf("  %d\t%s\t[%s]", l.pos, cutLine(l.text), why[i]))
	}
}

// taggedHead is the head of the section of tagged records.
func (tc *textCands) taggedHead(cs []Candidate) string {
	ts := tc.p.tagged
	example := ts.byLines()[0].tag
	return fmt.Sprintf("colon-separated records by type, each type's fields counted over its lines (fields numbered from 1, the type being field 1); then the lines at the extremes, line<TAB>text<TAB>[why]; the lines of one type (here %s): compact artifact query %s --jq %s\n",
		example, tc.in.Handle, tc.jq(`to_entries[] | select(.value | startswith(`+jqString(example+":")+`)) | "\(.key)\t\(.value)"`))
}

// distinctText is the field's distinct count as a claim: exact below
// maxTagDistinct, where the count stops ("at least 65,536").
func (f *tagField) distinctText() string {
	if len(f.distinct) >= maxTagDistinct {
		return "at least " + commas(maxTagDistinct)
	}
	return commas(len(f.distinct))
}
