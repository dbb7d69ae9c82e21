package budget

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The view of a text that does not fit: candidates, each a line or a few
// lines with the section it belongs to, in one fixed order of priority
// that does not depend on the budget; the view is the longest prefix of
// that order whose rendering fits the exact budget, so a larger budget
// shows everything a smaller one shows, and more. Rendering groups the
// chosen candidates by section, in reading order, and every section
// header states exactly how much of its kind is not shown and the query
// that fetches it.
//
// The order (see textCandidates): what the text is (lines, records, kind)
// and its kind's summary (tests passed and failed, levels, time range);
// the last lines (the end of a log is the most-asked fact); failed tests;
// error and warning lines, latest first, each distinct one once with its
// repeats; more of the tail; the fields of RFC 822-like records; the most
// frequent templates; the first lines; lines unlike the rest (templates
// seen once); then more of each, and an even spread of the middle.

// Sections, in rendering order.
const (
	secFacts = iota
	secSummary
	secPinned
	secPackages
	secFailed
	secBuild
	secErrors
	secRare
	secFields
	secTemplates
	secNames
	secHead
	secSpread
	secTail
	numSections
)

// textCand is one candidate piece of the view.
type textCand struct {
	sec   int
	key   int      // order inside the section
	pos   int      // the line position it shows, or -1
	lines []string // rendered lines
}

// textView holds what a text's view may show.
type textView struct {
	handle string
	header []string // the first lines: budget, tool, size
	p      *textProfile
	t      *testSummary // go test -json (p is nil then)
	cands  []textCand
	total  int // records of the collection (lines, or JSON values)
	// the rows the registry's pin predicate selected (addPinned)
	pinCount         int
	pinPred, pinKind string
	counted          func(string) int
}

// cut shortens a line for display, stating the bytes left out.
func cut(s string) string {
	if len(s) <= maxShown {
		return s
	}
	k := maxShown
	for k > 0 && s[k]&0xC0 == 0x80 {
		k--
	}
	return s[:k] + fmt.Sprintf(" …[+%s bytes]", commas(len(s)-k))
}

// textCandidates builds the candidate list in priority order.
func (v *textView) textCandidates() {
	var c []textCand
	add := func(sec, key, pos int, lines ...string) {
		c = append(c, textCand{sec: sec, key: key, pos: pos, lines: lines})
	}
	p, t := v.p, v.t
	// Tail pieces: the last lines, newest first.
	var tail []posLine
	if p != nil {
		tail = p.tail
	} else if t != nil {
		tail = t.output
	}
	tailFrom := func(a, b int) { // the a-th to b-th line from the end (1-based)
		for k := a; k <= b && k <= len(tail); k++ {
			l := tail[len(tail)-k]
			add(secTail, l.pos*4+0, l.pos, cut(l.text))
		}
	}
	// Notable lines, latest first, errors before warnings.
	var errs, warns []*notable
	if p != nil {
		for _, nb := range p.notables {
			if nb.sev == sevError {
				errs = append(errs, nb)
			} else {
				warns = append(warns, nb)
			}
		}
		byLast := func(s []*notable) {
			sort.SliceStable(s, func(i, j int) bool { return s[i].last > s[j].last })
		}
		byLast(errs)
		byLast(warns)
	}
	notableCand := func(nb *notable) {
		text := fmt.Sprintf("%d\t%s", nb.last, cut(nb.text))
		if nb.count > 1 {
			text = fmt.Sprintf("%d\t[×%s, first at %d] %s", nb.last, commas(nb.count), nb.first, cut(nb.text))
		}
		add(secErrors, nb.last, nb.last, text)
	}
	errsFrom := func(list []*notable, a, b int) {
		for k := a; k < b && k < len(list); k++ {
			notableCand(list[k])
		}
	}
	// Templates by count.
	var tmpls, rare []*cluster
	if p != nil && p.miner != nil {
		for _, cl := range p.miner.clusters {
			if !cl.literal() {
				continue // "<*> <*>" says nothing
			}
			if cl.count > 1 {
				tmpls = append(tmpls, cl)
			} else if cl.sev == sevNone {
				rare = append(rare, cl)
			}
		}
		sort.SliceStable(tmpls, func(i, j int) bool { return tmpls[i].count > tmpls[j].count })
		sort.SliceStable(rare, func(i, j int) bool { return rare[i].first > rare[j].first })
	}
	tmplFrom := func(a, b int) {
		for k := a; k < b && k < len(tmpls); k++ {
			cl := tmpls[k]
			add(secTemplates, k, -1, fmt.Sprintf("[×%s] %s  (positions %d … %d)", commas(cl.count), cut(cl.template()), cl.first, cl.last))
		}
	}
	rareFrom := func(a, b int) {
		// Only when most lines follow templates: in prose every line is rare.
		if p == nil || len(rare)*4 > p.lines-p.blank {
			return
		}
		for k := a; k < b && k < len(rare); k++ {
			add(secRare, rare[k].first, rare[k].first, fmt.Sprintf("%d\t%s", rare[k].first, cut(rare[k].example)))
		}
	}
	headFrom := func(a, b int) {
		if p == nil {
			return
		}
		for k := a; k < b && k < len(p.head); k++ {
			add(secHead, p.head[k].pos, p.head[k].pos, cut(p.head[k].text))
		}
	}
	// Failed tests.
	failedFrom := func(a, b, outLines int) {
		if t == nil {
			return
		}
		for k := a; k < b && k < len(t.failed); k++ {
			f := t.failed[k]
			name := f.name
			if f.pkg != "" {
				name = f.pkg + " " + f.name
			}
			lines := []string{fmt.Sprintf("%s (at %d)", name, f.pos)}
			for i := 0; i < outLines && i < len(f.output); i++ {
				if o := strings.TrimSpace(f.output[i]); o != "" {
					lines = append(lines, "    "+cut(o))
				}
			}
			if len(f.output) > outLines || f.more > 0 {
				lines = append(lines, fmt.Sprintf("    … %d more output lines", len(f.output)-min(outLines, len(f.output))+f.more))
			}
			add(secFailed, k, f.pos, lines...)
		}
	}
	buildFrom := func(a, b int) {
		if t == nil {
			return
		}
		for k := a; k < b && k < len(t.buildErrors); k++ {
			add(secBuild, k, t.buildErrors[k].pos, fmt.Sprintf("%d\t%s", t.buildErrors[k].pos, cut(t.buildErrors[k].text)))
		}
	}

	// 1. The kind's summary.
	for i, s := range v.summaryLines() {
		add(secSummary, i, -1, s)
	}
	if t != nil {
		for i, l := range t.pkgLines {
			add(secPackages, i, l.pos, fmt.Sprintf("%d\t%s", l.pos, cut(l.text)))
		}
	}
	// 2. The end.
	tailFrom(1, 5)
	// 3. Failures and errors.
	buildFrom(0, 10)
	failedFrom(0, 20, 3)
	errsFrom(errs, 0, 10)
	errsFrom(warns, 0, 3)
	// 4. More of the end.
	tailFrom(6, 20)
	// 5. Structure: fields, templates, the start, lines unlike the rest.
	if p != nil {
		for i, f := range p.fields {
			if i < 40 {
				add(secFields, i, -1, fieldSummary(f, p.records))
			}
		}
	}
	tmplFrom(0, 10)
	headFrom(0, 10)
	rareFrom(0, 10)
	// 6. More of everything.
	errsFrom(errs, 10, 40)
	errsFrom(warns, 3, 20)
	buildFrom(10, 200)
	tailFrom(21, 40)
	tmplFrom(10, 30)
	headFrom(10, 30)
	if p != nil {
		for k, l := range p.spread {
			if k%2 == 0 {
				add(secSpread, l.pos, l.pos, fmt.Sprintf("%d\t%s", l.pos, cut(l.text)))
			}
		}
	}
	failedFrom(20, len(v.failedList()), 3)
	rareFrom(10, 40)
	tailFrom(41, 100)
	errsFrom(errs, 40, 200)
	errsFrom(warns, 20, 100)
	if p != nil {
		for k, l := range p.spread {
			if k%2 == 1 {
				add(secSpread, l.pos, l.pos, fmt.Sprintf("%d\t%s", l.pos, cut(l.text)))
			}
		}
		// Record names, spread over the records.
		for i := 0; i < len(p.names); i += 40 {
			end := min(i+40, len(p.names))
			var names []string
			for _, nm := range p.names[i:end] {
				names = append(names, fmt.Sprintf("%s@%d", nm.text, nm.pos))
			}
			add(secNames, i, -1, strings.Join(names, " "))
		}
	}
	tmplFrom(30, 100)
	headFrom(30, 100)
	rareFrom(40, 200)
	tailFrom(101, tailKeep)
	errsFrom(errs, 200, maxNotable)
	errsFrom(warns, 100, maxNotable)
	headFrom(100, headKeep)
	v.cands = c
}

func (v *textView) failedList() []*failedTest {
	if v.t == nil {
		return nil
	}
	return v.t.failed
}

// fieldSummary is one field of RFC 822-like records, as the view shows
// it: how many records have it, and either every value with its count
// (few distinct values), or the numeric range and sum, or the number of
// distinct values.
func fieldSummary(f *fieldStat, records int) string {
	var b strings.Builder
	b.WriteString(f.name)
	if f.present != records {
		fmt.Fprintf(&b, " (in %s records)", commas(f.present))
	}
	b.WriteString(": ")
	switch {
	case f.numeric == f.present && f.present > 1:
		fmt.Fprintf(&b, "numbers, sum %s, min %s (%s), max %s (%s)", strconv.FormatInt(f.sum, 10), strconv.FormatInt(f.min, 10), f.minRec, strconv.FormatInt(f.max, 10), f.maxRec)
	case !f.overflow && (len(f.values) <= 12 || 2*len(f.values) <= f.present):
		type vc struct {
			v string
			n int
		}
		var vs []vc
		for k, n := range f.values {
			vs = append(vs, vc{k, n})
		}
		sort.Slice(vs, func(i, j int) bool {
			if vs[i].n != vs[j].n {
				return vs[i].n > vs[j].n
			}
			return vs[i].v < vs[j].v
		})
		if len(vs) > 12 {
			fmt.Fprintf(&b, "%d distinct values; ", len(vs))
		}
		rest, restN := 0, 0
		for i, x := range vs {
			if i == 12 {
				rest, restN = len(vs)-12, f.present
				for _, y := range vs[:12] {
					restN -= y.n
				}
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			val := x.v
			if len(val) > 60 {
				val = cut(val[:60]) + "…"
			}
			fmt.Fprintf(&b, "%q %s", val, commas(x.n))
		}
		if rest > 0 {
			fmt.Fprintf(&b, "; %d other values in %s records", rest, commas(restN))
		}
	case len(f.distinct) >= maxDistinctTracked:
		fmt.Fprintf(&b, "at least %s distinct values", commas(len(f.distinct)))
	default:
		fmt.Fprintf(&b, "%s distinct values", commas(len(f.distinct)))
	}
	return b.String()
}

// summaryLines are the kind's own facts.
func (v *textView) summaryLines() []string {
	var out []string
	if t := v.t; t != nil {
		out = append(out, testTotals(t, true)...)
		return out
	}
	p := v.p
	if p.tests != nil {
		out = append(out, testTotals(p.tests, false)...)
	}
	if p.firstTime != "" {
		out = append(out, fmt.Sprintf("time: %s … %s", p.firstTime, p.lastTime))
	}
	if (p.kind == textLog || len(p.levels) > 0 && p.kind != textFields && p.kind != textBlocks) && len(p.levels) > 0 {
		var parts []string
		sum := 0
		for _, lv := range sortedLevels(p.levels) {
			parts = append(parts, fmt.Sprintf("%s %s", lv, commas(p.levels[lv])))
			sum += p.levels[lv]
		}
		out = append(out, fmt.Sprintf("levels (lines stating one: %s): %s", commas(sum), strings.Join(parts, ", ")))
	}
	return out
}

// testTotals are the totals of a test run.
func testTotals(t *testSummary, json bool) []string {
	var out []string
	pk := t.pkgPass + t.pkgFail + t.pkgSkip
	if pk > 0 {
		out = append(out, fmt.Sprintf("packages: %s (%s passed, %s failed, %s with no tests or skipped)", commas(pk), commas(t.pkgPass), commas(t.pkgFail), commas(t.pkgSkip)))
	}
	tests := "tests"
	if json {
		tests = "tests (subtests counted, a parent fails with its subtest)"
	}
	out = append(out, fmt.Sprintf("%s: %s (%s passed, %s failed, %s skipped)", tests, commas(t.testPass+t.testFail+t.testSkip), commas(t.testPass), commas(t.testFail), commas(t.testSkip)))
	if len(t.failedPkgs) > 0 {
		out = append(out, "failed packages: "+strings.Join(t.failedPkgs, ", "))
	}
	if len(t.skipped) > 0 {
		s := "skipped tests: " + strings.Join(t.skipped, ", ")
		if t.testSkip > len(t.skipped) {
			s += fmt.Sprintf(" and %s more", commas(t.testSkip-len(t.skipped)))
		}
		out = append(out, s)
	}
	if json && t.elapsed > 0 {
		out = append(out, fmt.Sprintf("elapsed (sum over packages): %.3fs", t.elapsed))
	}
	return out
}

// render writes the view showing the first k candidates.
func (v *textView) render(k int) (string, int) {
	var b strings.Builder
	for _, h := range v.header {
		b.WriteString(h)
		b.WriteByte('\n')
	}
	v.renderFacts(&b)
	chosen := make([][]textCand, numSections)
	for _, c := range v.cands[:k] {
		chosen[c.sec] = append(chosen[c.sec], c)
	}
	shownPos := map[int]bool{}
	for sec := range chosen {
		cs := chosen[sec]
		if len(cs) == 0 {
			continue
		}
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].key < cs[j].key })
		for _, c := range cs {
			if c.pos >= 0 {
				shownPos[c.pos] = true
			}
		}
		if h := v.sectionHeader(sec, cs); h != "" {
			b.WriteString(h)
			b.WriteByte('\n')
		}
		for _, c := range cs {
			for _, l := range c.lines {
				if sec != secSummary {
					b.WriteString("  ")
				}
				b.WriteString(l)
				b.WriteByte('\n')
			}
		}
	}
	v.renderRest(&b, chosen)
	return b.String(), len(shownPos)
}

// renderFacts writes what the text is.
func (v *textView) renderFacts(b *strings.Builder) {
	if t := v.t; t != nil {
		fmt.Fprintf(b, "text: %s lines of go test -json: %s events (one JSON value a line)\n", commas(v.total), commas(t.events))
		return
	}
	p := v.p
	fmt.Fprintf(b, "text: %s lines (%s blank); kind: %s", commas(p.lines), commas(p.blank), p.kind)
	if p.recordUnit != "lines" {
		fmt.Fprintf(b, "; %s %s", commas(p.records), p.recordUnit)
		if p.nameField != "" {
			fmt.Fprintf(b, ", named by %s", p.nameField)
		}
	}
	b.WriteString("\n")
	tmpl := 0
	if p.miner != nil {
		tmpl = len(p.miner.clusters)
	}
	fmt.Fprintf(b, "error lines: %s (%s distinct); warning lines: %s; templates: %s", commas(p.errors), commas(v.distinct(sevError)), commas(p.warns), commas(tmpl))
	if p.miner != nil && p.miner.other > 0 {
		fmt.Fprintf(b, " (+%s lines past the template cap)", commas(p.miner.other))
	}
	b.WriteString("\n")
}

func (v *textView) distinct(sev int) int {
	n := 0
	for _, nb := range v.p.notables {
		if nb.sev == sev {
			n++
		}
	}
	return n
}

// sectionHeader states what a section shows and what it does not.
func (v *textView) sectionHeader(sec int, cs []textCand) string {
	h := v.handle
	switch sec {
	case secPinned:
		s := fmt.Sprintf("rows the registry's pin predicate selects (%s; showing %s), position<TAB>row:", commas(v.pinCount), commas(len(cs)))
		if len(cs) < v.pinCount {
			s += fmt.Sprintf(" all: compact artifact query %s --jq %s", h, shellQuote(`to_entries[] | select(.value | `+v.pinPred+`) | "\(.key)\t\(.value)"`))
		}
		return s
	case secFailed:
		n := len(v.failedList())
		if v.p != nil && v.p.tests != nil {
			n = len(v.p.tests.failed)
		}
		s := fmt.Sprintf("failed tests (%s; showing %s):", commas(n), commas(len(cs)))
		if v.t != nil && len(cs) < n {
			s += fmt.Sprintf(" all: compact artifact query %s --jq %s", h, shellQuote(`.[] | select(.Action == "fail" and .Test) | "\(.Package) \(.Test)"`))
		}
		return s
	case secBuild:
		return fmt.Sprintf("build errors (%s build-output lines, %s failed builds; showing %s, position<TAB>line):", commas(len(v.t.buildErrors)), commas(v.t.buildFails), commas(len(cs)))
	case secErrors:
		p := v.p
		de, dw := v.distinct(sevError), v.distinct(sevWarn)
		at := make(map[int]bool, len(cs))
		for _, c := range cs {
			at[c.pos] = true
		}
		se, sw := 0, 0
		for _, nb := range p.notables {
			if at[nb.last] {
				if nb.sev == sevError {
					se++
				} else {
					sw++
				}
			}
		}
		s := fmt.Sprintf("error and warning lines, latest first by position (showing %s of %s distinct error lines, %s of %s distinct warning lines; [×N, first at P] = N identical lines):", commas(se), commas(de), commas(sw), commas(dw))
		if se < de || p.notableCut > 0 {
			s += fmt.Sprintf("\nall error lines: compact artifact query %s --jq %s", h, shellQuote(severityQuery(sevError)))
		}
		if sw < dw {
			s += fmt.Sprintf("\nall warning lines: compact artifact query %s --jq %s", h, shellQuote(severityQuery(sevWarn)))
		}
		return s
	case secRare:
		return "lines unlike the rest (the only line of their template; latest first), position<TAB>line:"
	case secFields:
		return fmt.Sprintf("fields of the %s records (showing %s of %s fields):", commas(v.p.records), commas(len(cs)), commas(len(v.p.fields)))
	case secTemplates:
		n := len(v.p.miner.clusters)
		return fmt.Sprintf("templates, most frequent first (showing %s of %s; [×N] = N lines; <n> number, <ts> timestamp, <*> varies):", commas(len(cs)), commas(n))
	case secNames:
		return fmt.Sprintf("record names (%s of %s; name@position of its %s line):", commas(v.namesShown(cs)), commas(len(v.p.names)), v.p.nameField)
	case secHead:
		return fmt.Sprintf("first %s lines (positions %d-%d):", commas(len(cs)), cs[0].pos, cs[len(cs)-1].pos)
	case secSpread:
		return "lines spread over the middle, position<TAB>line:"
	case secPackages:
		return fmt.Sprintf("package results as go test printed them (%s), position<TAB>output:", commas(len(cs)))
	case secTail:
		if v.t != nil {
			return fmt.Sprintf("the last %s output lines of the run (the Output of events %d-%d):", commas(len(cs)), cs[0].pos, cs[len(cs)-1].pos)
		}
		return fmt.Sprintf("last %s lines (positions %d-%d):", commas(len(cs)), cs[0].pos, cs[len(cs)-1].pos)
	}
	return ""
}

func (v *textView) namesShown(cs []textCand) int {
	n := 0
	for _, c := range cs {
		n += strings.Count(c.lines[0], " ") + 1
	}
	return n
}

// renderRest writes how to read what is not shown.
func (v *textView) renderRest(b *strings.Builder, chosen [][]textCand) {
	h := v.handle
	head := len(chosen[secHead])
	tail := len(chosen[secTail])
	end := v.total - tail
	if v.t != nil {
		end = v.total // the tail of go test -json is its output text
	}
	if head < end {
		fmt.Fprintf(b, "not shown: lines %d-%d except those above; read them: compact artifact slice %s --offset %d --limit 100", head, end-1, h, head)
		b.WriteString(" (or: compact artifact search " + h + " WORDS)\n")
	}
}

// fit returns the view with the longest prefix of candidates whose
// rendering fits budget, and the number of lines it shows; ok is false
// when not even the facts fit.
func (v *textView) fit(budget int) (string, int, bool) {
	text, shown := v.render(0)
	if v.counted(text) > budget {
		return text, shown, false
	}
	lo, hi := 0, len(v.cands) // lo fits
	for lo < hi {
		mid := (lo + hi + 1) / 2
		t, _ := v.render(mid)
		if v.counted(t) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	text, shown = v.render(lo)
	return text, shown, true
}
