package view

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/schemas/linetemplate"
)

// Numbers at a template's positions, over every line of the template.
//
// A template's position lists its values with their counts while it has
// few (cluster.counts, at most maxCountedValues); a measure (sysbench's
// tps and 95th percentile latency, one value per interval line) has as
// many values as lines, and was left with no word. slotNum keeps, for
// each position whose token is one number ("<n>", "<n>s", "(<n>"), the
// count, sum, smallest and largest value and the line of each extreme,
// named by the line's first other varying token (the interval "11s"),
// exactly, in constant memory per position.

// slotNum is the numbers at one template position.
type slotNum struct {
	n            int
	nMin, nMax   int // lines holding the smallest, the largest value
	sum          float64
	min, max     float64
	minAt, maxAt string // the line of each extreme (named by its first varying token when shown)
	minRaw       string // the extremes as the lines write them
	maxRaw       string
	bad          bool // a line's token there is no number: no numbers stated
}

// oneNumber reports whether masked token t is one number with
// punctuation or a unit around it ("<n>", "<n>s", "(<n>", "<n>%"), no
// other placeholder.
func oneNumber(t string) bool {
	i := strings.Index(t, linetemplate.Number)
	if i < 0 || strings.Count(t, "<") != 1 {
		return false
	}
	rest := t[:i] + t[i+len(linetemplate.Number):]
	return len(rest) <= 3 && !strings.ContainsAny(rest, "0123456789")
}

// parseNumberIn is the number in raw token r (a unit or punctuation
// around it: "11s", "(745.93", "13.04%"); ok is false when there is none.
func parseNumberIn(r string) (float64, bool) {
	i := 0
	for i < len(r) && !isDigitByte(r[i]) && r[i] != '-' && r[i] != '.' {
		i++
	}
	j := i
	for j < len(r) && (isDigitByte(r[j]) || r[j] == '.' || r[j] == '-' && j == i) {
		j++
	}
	if j == i || i > 2 || len(r)-j > 3 {
		return 0, false
	}
	f, err := strconv.ParseFloat(r[i:j], 64)
	return f, err == nil
}

// countNums adds the numbers of one line (masked tokens toks, raw
// tokens raw) to the cluster's slotNums.
func (c *cluster) countNums(toks, raw []string, line string) {
	if len(raw) != len(toks) || c.nums == nil && c.count > 1 {
		return
	}
	if c.nums == nil {
		c.nums = make([]*slotNum, len(toks))
		for i, t := range toks {
			if oneNumber(t) {
				c.nums[i] = &slotNum{}
			}
		}
	}
	if len(c.nums) != len(toks) {
		c.nums = nil
		return
	}
	for i, sn := range c.nums {
		if sn == nil || sn.bad {
			continue
		}
		f, ok := parseNumberIn(raw[i])
		if !ok || !oneNumber(toks[i]) {
			sn.bad = true
			continue
		}
		switch {
		case sn.n == 0 || f < sn.min:
			sn.min, sn.minRaw, sn.minAt, sn.nMin = f, raw[i], line, 1
		case f == sn.min:
			sn.nMin++
		}
		switch {
		case sn.n == 0 || f > sn.max:
			sn.max, sn.maxRaw, sn.maxAt, sn.nMax = f, raw[i], line, 1
		case f == sn.max:
			sn.nMax++
		}
		sn.n++
		sn.sum += f
	}
}

// identOf is the raw token of line (a line of the cluster) that names
// it beside position i: the first other position that varies over the
// template's lines (a <*>, or a placeholder of more than one value: the
// interval "11s" of a sysbench line, "icmp_seq=17" of ping's), or "".
func (c *cluster) identOf(line string, i int) string {
	raw := rawTokens(line, len(c.tokens))
	if len(raw) != len(c.tokens) {
		return ""
	}
	for k, t := range c.tokens {
		if k == i || strings.IndexByte(t, '<') < 0 {
			continue
		}
		if cs := c.countsAt(k); cs != nil && 10*len(cs) < 9*c.count {
			continue // values shared by lines name no line
		}
		if nm := c.numName(k); nm != "" && !strings.HasSuffix(nm, "=") {
			return nm + " " + raw[k] // "branch 1", not "1"
		}
		return raw[k]
	}
	return ""
}

// slotName is the words of the template's example line right before
// position i that name it: the constant tokens with a letter, at most
// 3, back to the previous varying position or a token without a letter
// ("lat (ms,95%):" before the latency of a sysbench line, "called" of
// gcov's "called <n>"); "" when there are none.
func (c *cluster) slotName(i int) string {
	raw := rawTokens(c.example, len(c.tokens))
	if len(raw) != len(c.tokens) {
		return ""
	}
	k := i - 1
	for k >= 0 && i-k <= 3 && c.tokens[k] != tmplAny && hasLetter(strings.ReplaceAll(c.tokens[k], linetemplate.Number, "")) &&
		strings.Count(c.tokens[k], "<") == strings.Count(c.tokens[k], linetemplate.Number) && !(c.nums != nil && c.nums[k] != nil && !c.nums[k].bad && c.nums[k].n > 0 && c.nums[k].min != c.nums[k].max) {
		k--
	}
	return strings.Join(raw[k+1:i], " ")
}

// numText is position i's numbers: "tps: min 274.85 (11s), max 955.43
// (2s), mean 745.93", or "" when it has none for every line.
func (c *cluster) numText(i int, name string) string {
	if c.nums == nil || i >= len(c.nums) || c.nums[i] == nil {
		return ""
	}
	sn := c.nums[i]
	if sn.bad || sn.n != c.count || sn.n < 3 || digitsOf(sn.maxRaw) > 15 || digitsOf(sn.minRaw) > 15 {
		return "" // (numbers of more than 15 digits are ids: serial numbers)
	}
	at := func(line string, n int) string {
		if n > 1 {
			return fmt.Sprintf(" (%s lines)", commas(n)) // a tie names no line
		}
		if id := c.identOf(line, i); id != "" {
			return " (" + cut(id, 40) + ")"
		}
		return ""
	}
	name = c.numName(i)
	if name == "" {
		return "" // numbers without a name say nothing
	}
	return fmt.Sprintf("%s min %s%s, max %s%s, mean %s", name, bareValue(sn.minRaw), at(sn.minAt, sn.nMin), bareValue(sn.maxRaw), at(sn.maxAt, sn.nMax), formatMean(sn.sum/float64(sn.n), sn.minRaw, sn.maxRaw))
}

// formatMean writes a mean with as many decimals as the extremes have
// (at least 2), trailing zeros cut.
func formatMean(f float64, raws ...string) string {
	d := 2
	for _, r := range raws {
		if k := strings.IndexByte(r, '.'); k >= 0 {
			n := 0
			for k+1+n < len(r) && isDigitByte(r[k+1+n]) {
				n++
			}
			d = max(d, n)
		}
	}
	s := strconv.FormatFloat(f, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// maxNamedValues bounds the values of a named number listed each with
// its name.
const maxNamedValues = 6

// numName is the name of position i when its token is one number and
// the words before it name it ("called" of "called <n>", "Rows_examined"
// of "Rows_examined: <n>"), else "".
func (c *cluster) numName(i int) string {
	if i >= len(c.tokens) || !oneNumber(c.tokens[i]) {
		return ""
	}
	nm := c.slotName(i)
	if !hasLetter(nm) || len(nm) > 40 || !measureName(nm) {
		return ""
	}
	return strings.TrimSuffix(nm, ":")
}

// namedCounts lists few values of a named number each with its name and
// count of lines ("called 0 79, called 7 15, called 14 2"), most lines
// first; "" when there are more than maxNamedValues values.
func namedCounts(name string, cs []slotCount) string {
	if len(cs) > maxNamedValues || cs[0].n == 1 {
		return "" // (a value a line: ids, not a distribution)
	}
	var out []string
	for _, x := range cs {
		out = append(out, name+" "+bareValue(x.v)+" "+commas(x.n))
	}
	return strings.Join(out, ", ")
}

// measureName reports whether the words before a number name what it
// measures: the last ends with ':' or '=' ("tps:", "Rows_examined:"),
// or is a word of lower-case letters ("called", "taken"). A capital or
// upper-case word before a number makes a name with it ("Maintainer
// 001", "NULL 4"), not a measure.
func measureName(nm string) bool {
	f := strings.Fields(nm)
	w := f[len(f)-1]
	if strings.HasSuffix(w, ":") || strings.HasSuffix(w, "=") {
		return true
	}
	if len(f) > 1 {
		return false // "root root": words that are values, not a label
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w[i] == '_' && i > 0
		}
	}
	return true
}

// digitsOf is the number of digits in s.
func digitsOf(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			n++
		}
	}
	return n
}

// bareValue is a number token without the punctuation the line wraps
// it in when that is not closed in the token: "(4096" of "(4096 bit)"
// is 4096, "1.5," 1.5; "11s", "13.04%", "(3)" stay as written.
func bareValue(v string) string {
	if strings.HasPrefix(v, "(") && !strings.Contains(v, ")") || strings.HasPrefix(v, "[") && !strings.Contains(v, "]") {
		v = v[1:]
	}
	if strings.HasSuffix(v, ")") && !strings.Contains(v, "(") || strings.HasSuffix(v, "]") && !strings.Contains(v, "[") {
		v = v[:len(v)-1]
	}
	return strings.TrimRight(v, ",;")
}
