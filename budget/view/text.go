package view

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text outputs (Kind "lines"). This is the plain default: every error or
// warning line (by errWords, first ones first), the last lines and the
// first lines, then an even spread. Richer text candidates (records
// separated by blank lines, log templates, test events) live in the
// other text*.go files.

const (
	textTail   = 20
	textHead   = 20
	lineWidth  = 240
	maxErrLine = 60
)

// addText adds the candidates of text collection ci.
func addText(v *View, in Input, ci int) error {
	c := in.Collections[ci]
	n := c.Count
	sec := v.AddSection(&Section{Coll: c.Path, Order: 10 + ci})
	s := v.sections[sec]
	s.Head = func(ch []Candidate) string {
		return fmt.Sprintf("text: %s lines; showing %s of %s (line numbers from 0, then a tab)\n", commas(n), commas(len(ch)), commas(n))
	}
	s.Foot = func(ch []Candidate) string { return textFoot(in.Handle, n, ch) }
	errs := 0
	spread := map[int]int{}
	for r, i := range spreadOrder(n, maxSpread) {
		spread[i] = r
	}
	return c.Each(func(i int, raw []byte) error {
		line := strings.TrimSuffix(string(raw), "\r")
		if !utf8.ValidString(line) {
			line = strings.ToValidUTF8(line, "\uFFFD")
		}
		text := fmt.Sprintf("%d\t%s", i, cut(line, lineWidth))
		switch {
		case errs < maxErrLine && errWords.MatchString(line):
			errs++
			v.Add(Candidate{Section: sec, Key: i, Record: i, Prio: PrioAnomaly, Reason: "error or warning line", Text: text})
		case i >= n-textTail:
			// The last lines: the end of a log says how it ended.
			prio := PrioEnds
			if i < n-5 {
				prio = PrioSecond
			}
			v.Add(Candidate{Section: sec, Key: i, Record: i, Prio: prio, Reason: "last lines", Text: text})
		case i < textHead:
			prio := PrioEnds
			if i >= 5 {
				prio = PrioSecond
			}
			v.Add(Candidate{Section: sec, Key: i, Record: i, Prio: prio, Reason: "first lines", Text: text})
		default:
			if r, ok := spread[i]; ok {
				v.Add(Candidate{Section: sec, Key: i, Record: i, Prio: PrioSpread, Rank: r, Reason: "spread", Text: text})
			}
		}
		return nil
	})
}

// textFoot says which lines are not shown and how to read them: the
// largest gap between shown lines as a slice, and a search.
func textFoot(handle string, n int, ch []Candidate) string {
	if len(ch) >= n {
		return ""
	}
	shown := make([]bool, n)
	for _, c := range ch {
		if c.Record >= 0 && c.Record < n {
			shown[c.Record] = true
		}
	}
	bestStart, bestLen, start := 0, 0, -1
	for i := 0; i <= n; i++ {
		if i < n && !shown[i] {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start > bestLen {
			bestStart, bestLen = start, i-start
		}
		start = -1
	}
	limit := min(bestLen, 200)
	return fmt.Sprintf("  not shown: %s of %s lines; the longest run not shown starts at line %s (%s lines): compact artifact slice %s --offset %d --limit %d\n",
		commas(n-len(ch)), commas(n), commas(bestStart), commas(bestLen), handle, bestStart, limit)
}
