package view

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The runs of a table printed in sections.
//
// A table whose rows come in runs with other lines between them (a
// header above each, a total or a geomean below: benchstat's sec/op,
// B/op and allocs/op tables per package, a report's table per host) is
// several tables with the same columns. A reader asks about one of them:
// how many rows the sec/op table of package math has, how many of them
// changed (a signed number, not "~"), what its geomean line says. The
// column profile counts over every row; the runs' lines count per run,
// exactly, each with what names it: the Key: value line it comes under
// (a key that recurs, no more often than there are runs: "pkg: math"),
// the line right above it (its header) and the line right below it (its
// total). Counted per run: the columns of few values (2 to
// shownColValues) and the columns of signed numbers beside a few words
// ("+33.59%", "-40.39%", "~"), the numbers by their sign.
//
// Only a table of at most maxIndexRows rows in 2 to maxRuns runs: the
// runs are read again (one pass over the text) when the candidates are
// made.

// maxRuns is the most runs of rows a table is read by.
const maxRuns = 16

// runLineCut is the characters a run's line is cut at.
const runLineCut = 320

// runKey is the key of the first run's line in the columns' section:
// the runs' lines come first, right after its heading.
const runKey = -1000

// tableRun is one run of rows: its first and last line and its rows.
type tableRun struct{ first, last, rows int }

// noteRun counts row pos in the runs (a new run after another line).
func (cp *colProfile) noteRun(pos int, newRun bool) {
	if newRun {
		cp.runs++
		if cp.runs > maxRuns {
			cp.runList = nil
			return
		}
		cp.runList = append(cp.runList, tableRun{first: pos})
	}
	if cp.runs > maxRuns || len(cp.runList) == 0 {
		return
	}
	r := &cp.runList[len(cp.runList)-1]
	r.last = pos
	r.rows++
}

// runCount is the counts of one column in one run: its values (or, for
// a column of signed numbers, its words) and its numbers by sign.
type runCount struct {
	vals                map[string]int
	below, above, zeros int
}

// signedNumber parses a number written with its sign ("+33.59%",
// "-0.5s"): its value and whether it is one.
func signedNumber(v string) (float64, bool) {
	if len(v) < 2 || v[0] != '+' && v[0] != '-' {
		return 0, false
	}
	num, _ := splitUnit(v)
	f, err := strconv.ParseFloat(num, 64)
	return f, err == nil
}

// runLines are the lines of the runs of the table's rows (nil when the
// table is not read by runs), one per run; runsHead writes their heading.
func (tc *textCands) runLines() []string {
	cp := tc.p.cols
	if cp == nil || cp.runs < 2 || cp.runs > maxRuns || len(cp.runList) != cp.runs || cp.rows > maxIndexRows || cp.split.mode == byLine || tc.p.kind == textLog {
		return nil
	}
	for _, run := range cp.runList {
		if run.rows < minRunRows {
			return nil // a row here and there among other lines: no sections
		}
	}
	// Section keys: Key: value keys that recur, no more often than runs.
	keys := map[string]bool{}
	for _, f := range tc.p.fields {
		// (a key whose value differs: "pkg: math", "pkg: math/bits";
		// not "cpu:", the same above every run)
		if f.present >= 2 && f.present <= cp.runs && (f.overflow || len(f.values) >= 2) {
			keys[f.name] = true
		}
	}
	ncol := len(cp.cols)
	counts := make([][]runCount, len(cp.runList))
	for i := range counts {
		counts[i] = make([]runCount, ncol)
		for j := range counts[i] {
			counts[i][j].vals = map[string]int{}
		}
	}
	signed := make([]int, ncol) // rows with a signed number, per column
	titles := make([]string, len(cp.runList))
	above := make([]string, len(cp.runList))
	below := make([]string, len(cp.runList))
	title, prev := "", ""
	r := 0
	textLinesWhile(tc.in.Data, func(pos int, line string) bool {
		if strings.TrimSpace(line) == "" {
			return true
		}
		in := r < len(cp.runList) && pos >= cp.runList[r].first && pos <= cp.runList[r].last
		var f []string
		if in && pos != cp.split.headPos {
			f = cp.split.fields(line)
		}
		if f == nil {
			if r > 0 && below[r-1] == "" && (r == len(cp.runList) || pos < cp.runList[r].first) && pos > cp.runList[r-1].last {
				below[r-1] = squeezeSpaces(line)
			}
			if k, _, ok := strings.Cut(line, ":"); ok && keys[k] {
				title = squeezeSpaces(line)
			}
			prev = line
			return r < len(cp.runList) || below[r-1] == ""
		}
		if pos == cp.runList[r].first {
			titles[r], above[r] = title, squeezeSpaces(prev)
		}
		for j := 0; j < ncol && j < len(f); j++ {
			rc := &counts[r][j]
			if x, ok := signedNumber(f[j]); ok {
				signed[j]++
				switch {
				case x < 0:
					rc.below++
				case x > 0:
					rc.above++
				default:
					rc.zeros++
				}
				continue
			}
			if len(rc.vals) <= shownColValues {
				rc.vals[f[j]]++
			}
		}
		if pos == cp.runList[r].last {
			r++
		}
		return true
	})
	// The columns counted per run: of few values, or of signed numbers
	// beside at most 4 words.
	var cols []int
	for j, c := range cp.cols {
		if c.overflow {
			continue
		}
		if signed[j] > 0 {
			words := map[string]bool{}
			for _, rc := range counts {
				for v := range rc[j].vals {
					words[v] = true
				}
			}
			if len(words) <= 4 {
				cols = append(cols, j)
			}
			continue
		}
		// (not a column of one value in each run: a unit; nor one of a
		// value per row in each run: names, "Test0" .. "Test9" under
		// each suite of a JUnit report)
		if n := len(c.values); n >= 2 && n <= shownColValues && slices.ContainsFunc(counts, func(rc []runCount) bool { return len(rc[j].vals) >= 2 }) &&
			slices.ContainsFunc(counts, func(rc []runCount) bool { return maxCount(rc[j].vals) >= 2 }) {
			cols = append(cols, j)
		}
	}
	titled := false
	for _, t := range titles {
		titled = titled || t != ""
	}
	if len(cols) == 0 && !titled {
		return nil // nothing to count per run, nothing that names one
	}
	var out []string
	for i, run := range cp.runList {
		s := fmt.Sprintf("  %d-%d\t%s rows", run.first, run.last, commas(run.rows))
		if titles[i] != "" {
			s += fmt.Sprintf(" under %q", cut(titles[i], 60))
		}
		var parts []string
		for _, j := range cols {
			rc := counts[i][j]
			var cs []string
			vs, _ := byCount(rc.vals)
			sort.SliceStable(vs, func(a, b int) bool { return vs[a].n > vs[b].n })
			for _, x := range vs {
				cs = append(cs, fmt.Sprintf("%q %s", x.k, commas(x.n)))
			}
			for _, x := range []struct {
				n    int
				what string
			}{{rc.below, "below zero"}, {rc.above, "above zero"}, {rc.zeros, "zero"}} {
				if x.n > 0 {
					cs = append(cs, fmt.Sprintf("%s %s", x.what, commas(x.n)))
				}
			}
			if len(cs) > 0 {
				parts = append(parts, cp.cols[j].name+" "+strings.Join(cs, ", "))
			}
		}
		if len(parts) > 0 {
			s += ": " + strings.Join(parts, "; ")
		}
		if above[i] != "" && above[i] != titles[i] {
			s += fmt.Sprintf("; above: %q", cut(above[i], 80))
		}
		if below[i] != "" {
			s += fmt.Sprintf("; below: %q", cut(below[i], 80))
		}
		out = append(out, cut(s, runLineCut))
	}
	return out
}

// runsHead is the heading of the runs' lines (runLines) among the chosen
// candidates cs of the columns' section: how many of the runs they show
// and the lines of those they leave out (a slice of the text reads
// them); "" when no run's line is chosen.
func (tc *textCands) runsHead(cs []Candidate) string {
	shown := map[int]bool{}
	for _, c := range cs {
		if c.Reason == "runs of rows" {
			shown[c.Key-runKey] = true
		}
	}
	if len(shown) == 0 {
		return ""
	}
	runs := tc.p.cols.runList
	left := ""
	if len(shown) < len(runs) {
		var ls []string
		for i, r := range runs {
			if !shown[i] {
				ls = append(ls, fmt.Sprintf("%d-%d", r.first, r.last))
			}
		}
		left = fmt.Sprintf(", not shown: the runs of lines %s", strings.Join(ls, ", "))
	}
	return fmt.Sprintf("  the rows in %d runs (sections; showing %d of %d%s), each: first-last line<TAB>rows, the Key: value line above, counts of the columns of few values (signed numbers by sign), the lines above and below:\n",
		len(runs), len(shown), len(runs), left)
}

// squeezeSpaces trims s and writes each run of white space in it as one
// space.
func squeezeSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// sections returns the rows of the longest run of a table printed in
// sections (2 to maxRuns runs of minRunRows rows or more; 0 otherwise)
// and whether a column holds numbers in nine rows in ten.
func (cp *colProfile) sections() (longest int, numbers bool) {
	if cp.runs < 2 || len(cp.runList) != cp.runs {
		return 0, false
	}
	for _, r := range cp.runList {
		if r.rows < minRunRows {
			return 0, false
		}
		longest = max(longest, r.rows)
	}
	for _, c := range cp.cols {
		numbers = numbers || 10*c.numeric >= 9*cp.rows
	}
	return longest, numbers
}
