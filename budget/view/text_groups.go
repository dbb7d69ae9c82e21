package view

import (
	"fmt"
	"strings"
)

// Bracketed groups at the end of a table's rows.
//
// A table split at runs of spaces keeps, in its last column, the rest of
// the row joined by single spaces. When that rest ends with groups in
// brackets (java -XX:+PrintFlagsFinal's "false {C2 diagnostic}
// {default}": the value, the flag's kinds, where its value comes from),
// each group is a column of its own: its values are counted like any
// column's (origins: default 754, ergonomic 16, command line 4) and a
// group of several words is one value, not pieces of the rest. A line
// whose rest does not end with the groups is no row (the version lines
// below java's flags).
//
// The split is peelGroups in Go and jqPeel in the queries: both take the
// groups from the end, each in its brackets with no bracket inside,
// separated by one space; what is before them, less one space, is the
// value.

// groupPeel is how the last column of a table split at spaces splits
// again: n groups in open/close brackets at its end.
type groupPeel struct {
	n           int
	open, close byte
}

// peelGroups splits s into the value before its last n bracketed groups
// and the groups' contents (without their brackets); ok false when s
// does not end with n such groups.
func (g *groupPeel) split(s string) (out []string, ok bool) {
	out = make([]string, g.n+1)
	for j := g.n; j >= 1; j-- {
		if len(s) < 2 || s[len(s)-1] != g.close {
			return nil, false
		}
		o := strings.LastIndexByte(s, g.open)
		if o < 0 || strings.IndexByte(s[o+1:len(s)-1], g.close) >= 0 {
			return nil, false
		}
		out[j] = s[o+1 : len(s)-1]
		s = s[:o]
		if j > 1 {
			if !strings.HasSuffix(s, " ") {
				return nil, false // groups are one space apart
			}
			s = s[:len(s)-1]
		} else {
			s = strings.TrimSuffix(s, " ")
		}
	}
	out[0] = s
	return out, true
}

// jq is the jq (over the rest, a string) that yields the array of the
// value and the groups' contents, or nothing when the rest does not end
// with the groups (the regular expression does what split does).
func (g *groupPeel) jq() string {
	o, c := string(g.open), string(g.close)
	re := `^(?<v>.*?) ?`
	keys := []string{".v"}
	for j := 1; j <= g.n; j++ {
		if j > 1 {
			re += " "
		}
		re += fmt.Sprintf(`\\%s(?<g%d>[^\\%s\\%s]*)\\%s`, o, j, o, c, c)
		keys = append(keys, fmt.Sprintf(".g%d", j))
	}
	re += "$"
	return fmt.Sprintf(`(capture("%s") | [%s])`, re, strings.Join(keys, ", "))
}

// maxPeel is the most groups split off the last column.
const maxPeel = 3

// detectPeel sets sp.peel when, of a table split at runs of spaces with
// no header (names and descriptions too: java's "Name = value {…}"), nine rows in ten or more (10 at least) end their last column
// with the same n >= 1 groups in braces or square brackets (the most such
// n), and the columns stay within maxColumns; one group alone splits off
// only when the value before it is not empty in half the rows or more.
func (sp *colSplit) detectPeel(sample []byte) {
	if sp.mode != bySpaces || sp.header != nil || sp.minK != sp.k || sp.trailer || sp.repKey != "" || sp.peel != nil {
		return
	}
	type try struct {
		g           groupPeel
		rows, value int
	}
	var tries []*try
	for _, b := range [][2]byte{{'{', '}'}, {'[', ']'}} {
		for n := 1; n <= maxPeel && sp.k+n <= maxColumns; n++ {
			tries = append(tries, &try{g: groupPeel{n, b[0], b[1]}})
		}
	}
	rows := sp.sampleRows(sample, func(pos int) bool { return pos == sp.headPos }, func(f []string) {
		last := f[len(f)-1]
		for _, t := range tries {
			if out, ok := t.g.split(last); ok {
				t.rows++
				if out[0] != "" {
					t.value++
				}
			}
		}
	})
	if rows < 10 {
		return
	}
	var best *try
	for _, t := range tries {
		if 10*t.rows < 9*rows || t.g.n == 1 && 2*t.value < t.rows {
			continue
		}
		if best == nil || t.g.n > best.g.n {
			best = t
		}
	}
	if best == nil {
		return
	}
	g := best.g
	sp.peel = &g
	sp.k += g.n
	sp.minK += g.n
}

// spaceK and spaceMinK are the columns of a table split at spaces before
// its last column's groups are split off (sp.peel).
func (sp *colSplit) spaceK() int {
	if sp.peel != nil {
		return sp.k - sp.peel.n
	}
	return sp.k
}

func (sp *colSplit) spaceMinK() int {
	if sp.peel != nil {
		return sp.minK - sp.peel.n
	}
	return sp.minK
}

// lastWordLine is the rows of a column of few values (at most
// maxColValues, counted exactly) by the last word of their value, when
// some values are several words that share it ("C2 diagnostic", "ARCH
// diagnostic" and "diagnostic": diagnostic 215): "" when no two values
// share a last word, when no value has more than one word, or for
// numbers.
func (c *colStat) lastWordLine(rows int) string {
	if c.overflow || len(c.values) < 2 || c.isNumber() {
		return ""
	}
	last := map[string]int{}
	several, counted := false, 0
	for v, n := range c.values {
		v = strings.TrimSpace(v)
		i := strings.LastIndexAny(v, " \t")
		if i < 0 {
			if v == "" || !hasLetter(v) {
				continue
			}
		} else {
			several = true
		}
		w := v[i+1:]
		if !hasLetter(w) {
			continue
		}
		last[w] += n
		counted += n
	}
	if !several || len(last) < 2 || len(last) >= len(c.values) || len(last) > shownColValues || 2*counted < rows {
		return ""
	}
	return fmt.Sprintf("  %s by its last word (exact counts of rows): %s", c.name, listCounts(last, counted, rows, "words", "without one", false))
}
