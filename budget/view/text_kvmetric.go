package view

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Metric samples: key/value lines whose name may carry a set of labels
// and whose value is a number (Prometheus' text exposition, OpenMetrics,
// /proc/vmstat):
//
//	# HELP node_load1 1m load average.
//	# TYPE node_load1 gauge
//	node_load1 0.21
//	node_cpu_seconds_total{cpu="1",mode="user"} 812.31
//
// A name and its samples are one family (its labelled samples, and the
// comment lines that describe it: "# WORD name rest"). Read line by line
// they say little; the view states, exactly over every line:
//
//   - the families: how many, how many have one sample, and the values of
//     their describing words of one value ("# TYPE": gauge 175, counter
//     60);
//   - per family of several samples, its label names, the number of
//     samples, the values it holds with their counts when few, the label
//     sets of a rare value (the one collector with success 0) and of its
//     smallest and largest value;
//
// then the samples of one sample (node_procs_running 3) densely, several
// a line, in line order; then the labelled samples as written, a family
// at a time, and the description of each family ("# HELP" text).

// metricMaxSamples bounds the labelled samples kept for the view; the
// families' counts stay exact past it.
const metricMaxSamples = 8192

// metricFam is one family: a name, its samples and its describing lines.
type metricFam struct {
	name    string
	first   int // line of its first sample
	n       int // samples
	other   int // samples of another name under it (a summary's name_sum, name_count): not in vals, min, max
	labels  string
	vals    map[string]int // values as written, while few
	valsCap bool
	// the samples of the smallest and the largest value
	min, max   float64
	minS, maxS string
	numbers    int
	sum        float64
	frac       bool                // a value not an integer (or past 2^53): the sum is stated as about
	byVal      map[string][]string // label sets of each value, up to maxRareNames each
	ents       []kvEntry           // its samples, while the total is under metricMaxSamples
	help       string
}

// metricStats is the profile of metric samples.
type metricStats struct {
	fams    []*metricFam
	byName  map[string]*metricFam
	words   map[string]int            // comment lines by their word ("HELP" 271)
	wordVal map[string]map[string]int // values of a word's one-value lines (TYPE: gauge 175)
	wordMix map[string]bool           // a word whose lines hold more than one word after the name
	cur     string                    // the name the last comment line described
	kept    int
	help    map[string]string
	// the families past metricMaxFams: samples by a hash of the name
	// (the top bit: its first sample has labels), and their samples
	rest        map[uint64]uint32
	restSamples int
}

func newMetricStats() *metricStats {
	return &metricStats{byName: map[string]*metricFam{}, words: map[string]int{}, wordVal: map[string]map[string]int{},
		wordMix: map[string]bool{}, help: map[string]string{}}
}

// splitMetric splits a sample line "name{labels} value [timestamp]" into
// its name with labels and its value.
func splitMetric(line string) (key, val string, ok bool) {
	if line == "" || !(line[0] == '_' || line[0] == ':' || line[0]|0x20 >= 'a' && line[0]|0x20 <= 'z') {
		return "", "", false
	}
	i := 1
	for i < len(line) && (isAlnumByte(line[i]) || line[i] == '_' || line[i] == ':') {
		i++
	}
	if i < len(line) && line[i] == '{' {
		j := i + 1
		for ; j < len(line); j++ {
			if line[j] == '"' {
				j = quotedEnd(line, j)
			} else if line[j] == '}' {
				break
			}
		}
		if j >= len(line) {
			return "", "", false
		}
		i = j + 1
	}
	if i >= len(line) || line[i] != ' ' {
		return "", "", false
	}
	key = line[:i]
	rest := strings.TrimLeft(line[i:], " ")
	val, ts, _ := strings.Cut(rest, " ")
	if !metricNumber(val) {
		return "", "", false
	}
	if ts = strings.TrimSpace(ts); ts != "" {
		if _, err := strconv.ParseInt(ts, 10, 64); err != nil {
			return "", "", false
		}
	}
	return key, val, true
}

// metricNumber reports whether v is a sample's value: a number as Go or
// Prometheus writes it (2.3014e-05, +Inf, NaN).
func metricNumber(v string) bool {
	if v == "" || len(v) > 40 {
		return false
	}
	if c := v[0]; !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'N' || c == 'I') {
		return false
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil
}

// metricBase is the name of a sample without its labels.
func metricBase(key string) string {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		return key[:i]
	}
	return key
}

// metricAnnotation splits a describing comment line "# WORD name rest"
// (WORD in capitals), or reports false.
func metricAnnotation(line string) (word, name, rest string, ok bool) {
	s, found := strings.CutPrefix(line, "# ")
	if !found {
		return "", "", "", false
	}
	word, s, _ = strings.Cut(s, " ")
	if word == "" || strings.ToUpper(word) != word || strings.ToLower(word) == word {
		return "", "", "", false
	}
	name, rest, _ = strings.Cut(s, " ")
	if k, _, ok := splitMetric(name + " 0"); !ok || k != name {
		return "", "", "", false
	}
	return word, name, strings.TrimSpace(rest), true
}

// comment counts a describing comment line.
func (m *metricStats) comment(line string) {
	word, name, rest, ok := metricAnnotation(line)
	if !ok {
		return
	}
	m.words[word]++
	m.cur = name
	if rest == "" || strings.ContainsAny(rest, " \t") {
		m.wordMix[word] = true
		if rest != "" && len(m.help) < kvMaxKept {
			if _, seen := m.help[name]; !seen {
				m.help[strings.Clone(name)] = strings.Clone(cut(rest, 200))
			}
		}
		return
	}
	vs := m.wordVal[word]
	if vs == nil {
		vs = map[string]int{}
		m.wordVal[word] = vs
	}
	if _, seen := vs[rest]; seen || len(vs) < 64 {
		vs[strings.Clone(rest)]++
	}
}

// sample counts one sample.
func (m *metricStats) sample(pos int, key, val, text string) {
	base := metricBase(key)
	name := base
	if m.cur != "" && famMember(m.cur, base) {
		name = m.cur // a summary's name_sum, name_count: its family's
	}
	labels := key[len(base):]
	f := m.byName[name]
	if f == nil {
		if len(m.fams) >= metricMaxFams {
			m.countRest(name, labels != "")
			return
		}
		f = &metricFam{name: strings.Clone(name), first: pos, vals: map[string]int{}, byVal: map[string][]string{},
			min: math.Inf(1), max: math.Inf(-1)}
		m.byName[f.name] = f
		m.fams = append(m.fams, f)
	}
	f.n++
	if f.n == 1 {
		f.labels = labelNames(labels)
	}
	if m.kept < metricMaxSamples {
		m.kept++
		f.ents = append(f.ents, kvEntry{pos: pos, key: strings.Clone(key), val: strings.Clone(val), text: strings.Clone(cut(text, kvWidth))})
	}
	if base != name {
		f.other++ // a summary's name_sum, name_count: no value of the family's
		return
	}
	if !f.valsCap {
		if _, seen := f.vals[val]; !seen && len(f.vals) >= maxFieldValues {
			f.valsCap, f.vals, f.byVal = true, nil, nil
		} else {
			f.vals[strings.Clone(val)]++
			if l := f.byVal[val]; len(l) < metricMaxNamed {
				f.byVal[val] = append(l, strings.Clone(labels))
			}
		}
	}
	if x, err := strconv.ParseFloat(val, 64); err == nil && !math.IsNaN(x) {
		f.numbers++
		f.sum += x
		if x != math.Trunc(x) || math.Abs(x) >= 1<<53 {
			f.frac = true
		}
		if x < f.min {
			f.min, f.minS = x, strings.Clone(labels)
		}
		if x > f.max {
			f.max, f.maxS = x, strings.Clone(labels)
		}
	}
}

// famSuffixes are the endings the exposition formats (Prometheus' text,
// OpenMetrics) give the samples of a family under longer names: a
// summary's or histogram's _sum, _count, _bucket, a counter's _total and
// _created, an info's _info, a gauge histogram's _gsum, _gcount.
var famSuffixes = []string{"_sum", "_count", "_bucket", "_total", "_created", "_info", "_gsum", "_gcount"}

// famMember reports whether a sample named base belongs to the family
// fam: base is fam, or fam with one of famSuffixes (up_total is up's,
// upstream_latency_seconds and node_load15 are not up's, node_load1's).
func famMember(fam, base string) bool {
	if base == fam {
		return true
	}
	rest, ok := strings.CutPrefix(base, fam)
	if !ok {
		return false
	}
	for _, x := range famSuffixes {
		if rest == x {
			return true
		}
	}
	return false
}

// metricMaxFams bounds the families profiled in full (label names,
// values, smallest and largest, samples kept); the families past it are
// counted, exactly, by a hash of their name and their number of samples.
const metricMaxFams = 20000

// countRest counts a sample of a family past metricMaxFams.
func (m *metricStats) countRest(name string, labelled bool) {
	if m.rest == nil {
		m.rest = map[uint64]uint32{}
	}
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	c, seen := m.rest[h]
	if !seen && labelled {
		c = 1 << 31 // its first sample has labels
	}
	if c&(1<<31-1) < 1<<31-1 {
		c++
	}
	m.rest[h] = c
	m.restSamples++
}

// metricMaxNamed bounds the label sets named per value of a family: a
// value held by fewer than half of its samples and at most this many is
// stated with the label sets that hold it.
const metricMaxNamed = 32

// labelNames are the names of a label set: {cpu="1",mode="user"} ->
// {cpu,mode}.
func labelNames(set string) string {
	if len(set) < 2 || set[0] != '{' {
		return ""
	}
	var names []string
	s := set[1 : len(set)-1]
	for s != "" {
		n, rest, ok := strings.Cut(s, "=")
		if !ok {
			break
		}
		names = append(names, strings.TrimSpace(n))
		// skip the quoted value
		i := 0
		if strings.HasPrefix(rest, `"`) {
			i = quotedEnd(rest, 0) + 1
		}
		rest = rest[min(i, len(rest)):]
		_, s, _ = strings.Cut(rest, ",")
	}
	return "{" + strings.Join(names, ",") + "}"
}

// facts are the families' lines, in fill order.
func (m *metricStats) facts() []string {
	one, oneLabelled := m.oneCount()
	all := len(m.fams) + len(m.rest)
	l := fmt.Sprintf("families (a name, its samples with their {labels}, and the # lines that describe it): %s; %s of one sample (%s of them with labels), %s of several samples",
		commas(all), commas(one), commas(oneLabelled), commas(all-one))
	if len(m.rest) > 0 {
		l += fmt.Sprintf("; the first %s families in line order are profiled (the lines below are theirs), the other %s (%s samples) only counted",
			commas(len(m.fams)), commas(len(m.rest)), commas(m.restSamples))
	}
	var ws []string
	wk, _ := byCount(m.words)
	for _, w := range wk {
		s := fmt.Sprintf("# %s %s", w.k, commas(w.n))
		if vs := m.wordVal[w.k]; len(vs) > 0 && len(vs) <= 12 && !m.wordMix[w.k] {
			var parts []string
			xs, _ := byCount(vs)
			for _, x := range xs {
				parts = append(parts, fmt.Sprintf("%s %s", x.k, commas(x.n)))
			}
			s += " (" + strings.Join(parts, ", ") + ")"
		}
		ws = append(ws, s)
	}
	if len(ws) > 0 {
		l += "; describing lines by their word: " + strings.Join(ws, ", ")
	}
	out := []string{l}
	var big []string
	fs := m.bySize()
	for i, f := range fs {
		if i == 12 || f.n < 2 {
			break
		}
		big = append(big, fmt.Sprintf("%s %s", f.name, commas(f.n)))
	}
	if len(big) > 0 {
		out = append(out, "families with the most samples: "+strings.Join(big, ", "))
	}
	if l := m.oneExtremes(); l != "" {
		out = append(out, l)
	}
	return out
}

// oneExtremes states the largest values of the families of one sample
// with their names (as written), and the smallest with how many families
// hold it (/proc/vmstat's counters: which is largest), or "". Only in a
// text with no describing lines: described families (# TYPE, # HELP;
// names ending _bytes, _seconds) are of different units, whose values
// rank the units, not the families. No sum: such families count
// different things (pages, events).
func (m *metricStats) oneExtremes() string {
	if len(m.words) > 0 {
		return ""
	}
	var fs []*metricFam
	for _, f := range m.fams {
		if f.n == 1 && f.other == 0 && f.numbers == 1 {
			fs = append(fs, f)
		}
	}
	if len(fs) < 3 {
		return ""
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].max > fs[j].max })
	lo := fs[len(fs)-1].max
	if lo == fs[0].max {
		return ""
	}
	raw := func(f *metricFam) string { // the value as written (its only one)
		for v := range f.vals {
			return v
		}
		return strconv.FormatFloat(f.max, 'g', -1, 64)
	}
	name := func(f *metricFam) string { return f.name + f.maxS + " " + raw(f) }
	var top []string
	for _, f := range fs[:min(5, len(fs))] {
		if f.max == lo {
			break
		}
		top = append(top, name(f))
	}
	atMin := 0
	for _, f := range fs {
		if f.max == lo {
			atMin++
		}
	}
	first := fs[len(fs)-atMin] // the first in line order of those at the least value
	of := ""
	if len(m.rest) > 0 {
		of = fmt.Sprintf(" of the first %s families", commas(len(m.fams)))
	}
	return fmt.Sprintf("families of one sample by value (%s with a number%s, exact): largest %s; smallest %s in %s families (the first %s)",
		commas(len(fs)), of, strings.Join(top, ", "), raw(first), commas(atMin), cut(first.name+first.maxS, 80))
}

// oneCount is the number of families of one sample, and of them those
// with labels, over every family (those past metricMaxFams too).
func (m *metricStats) oneCount() (one, labelled int) {
	for _, f := range m.fams {
		if f.n == 1 {
			one++
			if f.labels != "" {
				labelled++
			}
		}
	}
	for _, c := range m.rest {
		if c&(1<<31-1) == 1 {
			one++
			if c>>31 == 1 {
				labelled++
			}
		}
	}
	return one, labelled
}

// capped reports whether some sample of a profiled family was not kept
// (past metricMaxSamples): the samples listed are of the first ones.
func (m *metricStats) capped() bool {
	n := 0
	for _, f := range m.fams {
		n += f.n
	}
	return n > m.kept
}

// bySize are the families, those of most samples first.
func (m *metricStats) bySize() []*metricFam {
	fs := append([]*metricFam(nil), m.fams...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].n > fs[j].n })
	return fs
}

// famLine is a family of several samples in one line: its label names,
// its values with their counts when few (and the label sets of the
// values fewer than half of its samples hold), its smallest and largest
// value with their label sets. minority tells whether it names the
// label sets of such a value.
func (f *metricFam) famLine() (line string, minority bool) {
	s := fmt.Sprintf("  %s%s (%s samples", f.name, f.labels, commas(f.n))
	if f.other > 0 {
		s += fmt.Sprintf(", %s of them under longer names", commas(f.other))
	}
	s += ")"
	n := f.n - f.other
	if !f.valsCap && len(f.vals) <= 8 && len(f.vals) < n {
		vs, _ := byCount(f.vals)
		var parts []string
		for i, x := range vs {
			p := fmt.Sprintf("%s %s", x.k, commas(x.n))
			if i > 0 && 2*x.n < n && len(f.byVal[x.k]) == x.n {
				p += " (" + labelValues(f.byVal[x.k]) + ")"
				minority = true
			}
			parts = append(parts, p)
		}
		s += ": values " + strings.Join(parts, ", ")
	}
	if f.numbers > 1 && f.min < f.max && !strings.Contains(s, ": values ") {
		s += fmt.Sprintf("; smallest %s %s, largest %s %s", strconv.FormatFloat(f.min, 'g', -1, 64), f.minS, strconv.FormatFloat(f.max, 'g', -1, 64), f.maxS)
		if f.numbers == n {
			if f.frac || math.Abs(f.sum) >= 1<<53 {
				s += "; sum about " + strconv.FormatFloat(f.sum, 'g', 6, 64)
			} else {
				s += "; sum " + strconv.FormatFloat(f.sum, 'f', 0, 64) // integers: exact
			}
		}
	}
	return s, minority
}

// labelValues writes label sets of one label name once
// ({collector="bonding"}, {collector="btrfs"} -> collector: bonding,
// btrfs); others as written.
func labelValues(sets []string) string {
	name := ""
	var vals []string
	for _, l := range sets {
		n, v, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(l, "{"), "}"), "=")
		if !ok || !strings.HasPrefix(l, "{") || strings.Contains(v, `",`) || name != "" && n != name {
			return strings.Join(sets, ", ")
		}
		name = n
		vals = append(vals, v)
	}
	// A value holding a comma or an escape is written quoted, as in the
	// text, and then all are ("c3, extra" is one value).
	quoted := false
	for _, v := range vals {
		if strings.ContainsAny(v, ",\\") || len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
			quoted = true
		}
	}
	if !quoted {
		for i, v := range vals {
			vals[i] = v[1 : len(v)-1]
		}
	}
	return name + ": " + strings.Join(vals, ", ")
}

// famLines are the lines of the families of several samples: those of
// the most samples first; of as many, those naming the label sets of a
// value few samples hold, then in line order.
func (m *metricStats) famLines() []string {
	var out []string
	fs := m.bySize()
	for i := 0; i < len(fs) && fs[i].n >= 2; {
		j := i
		var rest []string
		for ; j < len(fs) && fs[j].n == fs[i].n; j++ {
			l, minor := fs[j].famLine()
			if minor {
				out = append(out, l)
			} else {
				rest = append(rest, l)
			}
		}
		out = append(out, rest...)
		i = j
	}
	return out
}

// oneLines are the samples of the families of one sample, several a
// line in line order, each with the positions it states: first those
// with labels (an information sample's labels are its data:
// node_exporter_build_info{version="1.5.0"} 1), labelled lines, then the
// others.
func (m *metricStats) oneLines() (out []kvNameLine, labelled int) {
	var cur kvNameLine
	flush := func() {
		if len(cur.pos) > 0 {
			out = append(out, cur)
			cur = kvNameLine{}
		}
	}
	for _, pass := range []bool{true, false} {
		for _, f := range m.fams {
			if f.n != 1 || len(f.ents) == 0 || (f.labels != "") != pass {
				continue
			}
			m.oneAdd(&cur, f.ents[0], flush)
		}
		flush()
		if pass {
			labelled = len(out)
		}
	}
	return out, labelled
}

// oneAdd adds sample e to line cur, flushing it first when full.
func (m *metricStats) oneAdd(cur *kvNameLine, e kvEntry, flush func()) {
	t := e.key + " " + e.val
	if len(cur.text)+len(t) > kvNameLineLen {
		flush()
	}
	if cur.text == "" {
		cur.text = "  " + t
	} else {
		cur.text += "; " + t
	}
	cur.pos = append(cur.pos, e.pos)
}

// manyGroups are the labelled samples of the families of several
// samples as written, one family's samples a candidate (cut into chunks
// of 16), in line order.
func (m *metricStats) manyGroups() [][]kvEntry {
	var out [][]kvEntry
	for _, f := range m.fams {
		if f.n < 2 {
			continue
		}
		for i := 0; i < len(f.ents); i += 16 {
			out = append(out, f.ents[i:min(i+16, len(f.ents))])
		}
	}
	return out
}

// helpLines are the descriptions of the families (the text after the
// name of a comment word of several words), several a line.
func (m *metricStats) helpLines() []string {
	var out []string
	cur := ""
	for _, f := range m.fams {
		h, ok := m.help[f.name]
		if !ok {
			continue
		}
		t := f.name + ": " + h
		if len(cur)+len(t) > kvNameLineLen {
			out = append(out, cur)
			cur = ""
		}
		if cur == "" {
			cur = "  " + t
		} else {
			cur += " | " + t
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// metricCandidates adds the candidates of metric samples.
func (tc *textCands) metricCandidates(add func(sec, key, rec int, reason, text string), setPrio func(int)) {
	s := tc.p.kv
	m := s.metric
	setPrio(PrioFact)
	for i, f := range s.facts() {
		add(tsFacts, 100+i, -1, "key/value profile", f)
	}
	for i, f := range m.facts() {
		add(tsFacts, 120+i, -1, "families", f)
	}
	fams := m.famLines()
	setPrio(PrioProfile)
	for i, l := range fams {
		if i == 12 {
			setPrio(PrioSecond)
		}
		add(tsKV, i, -1, "family of samples", cut(l, 3*textWidth))
	}
	tc.kvLines = map[int][]int{}
	lines, labelled := m.oneLines()
	tc.kvNames, _ = m.oneCount()
	setPrio(PrioRare)
	for i := range labelled {
		tc.kvLines[-1-i] = lines[i].pos
		add(tsKVNames, i, -1, "families of one sample, with labels", lines[i].text)
	}
	setPrio(PrioIndex)
	for _, i := range nameOrder(len(lines) - labelled) {
		i += labelled
		tc.kvLines[-1-i] = lines[i].pos
		add(tsKVNames, i, -1, "families of one sample", lines[i].text)
	}
	setPrio(PrioSpread)
	groups := m.manyGroups()
	helps := m.helpLines()
	// The labelled samples and the descriptions advance together, each
	// in an even spread (the fill keeps them by priority: the headers say
	// which lines they come from).
	gi, hi := nameOrder(len(groups)), nameOrder(len(helps))
	for k := 0; k < len(gi) || k < len(hi); k++ {
		if k < len(gi) {
			g := groups[gi[k]]
			var b strings.Builder
			for j, e := range g {
				if j > 0 {
					b.WriteByte('\n')
				}
				b.WriteString("  " + e.text)
			}
			add(tsKVEntries, g[0].pos, g[0].pos, "samples of a family", b.String())
			tc.kvLines[1<<30+g[0].pos] = nil
			for _, e := range g {
				tc.kvLines[1<<30+g[0].pos] = append(tc.kvLines[1<<30+g[0].pos], e.pos)
			}
		}
		if k < len(hi) {
			add(tsKVGroups, hi[k], -1, "descriptions", helps[hi[k]])
		}
	}
}

// hasBasePrefix reports whether some name of bases is a sample of the
// family name under a longer name ("go_gc_duration_seconds_sum" for the
// family go_gc_duration_seconds; not node_load15 for node_load1).
func hasBasePrefix(bases map[string]bool, name string) bool {
	for _, x := range famSuffixes {
		if bases[name+x] {
			return true
		}
	}
	return false
}

// metricHead is the header of the sections of metric samples.
func (tc *textCands) metricHead(k int, cs []Candidate) string {
	switch k {
	case tsKV:
		return "families of several samples (label names, samples; values with their counts when few, the label sets of a rare value; smallest and largest with their label sets; exact):\n"
	case tsKVNames:
		n, span := tc.markMetricShown(cs, func(k int) int { return -1 - k })
		return fmt.Sprintf("families of one sample, as written, in line order (showing %s of %s%s%s):\n", commas(n), commas(tc.kvNames), span.text(), tc.metricKept())
	case tsKVEntries:
		n, span := tc.markMetricShown(cs, func(k int) int { return 1<<30 + k })
		return fmt.Sprintf("samples of the families of several samples, as written (a family at a time; showing %s%s%s):\n", commas(n), span.text(), tc.metricKept())
	case tsKVGroups:
		return fmt.Sprintf("descriptions of the families (name: text, from their # lines; showing %s lines)\n", commas(len(cs)))
	}
	return ""
}

// lineSpan is the range of the lines a section shows: the fill keeps a
// section's candidates by priority, so its header says where the shown
// lines lie rather than claiming how they were picked.
type lineSpan struct {
	lo, hi int
	n      int
}

// add notes line pos as shown.
func (s *lineSpan) add(pos int) {
	if s.n == 0 || pos < s.lo {
		s.lo = pos
	}
	if s.n == 0 || pos > s.hi {
		s.hi = pos
	}
	s.n++
}

// text is ", from lines LO-HI" (empty when no line is shown).
func (s *lineSpan) text() string {
	if s.n == 0 {
		return ""
	}
	return fmt.Sprintf(", from lines %s-%s", commas(s.lo), commas(s.hi))
}

// markMetricShown marks as shown the lines of the chosen candidates cs
// (tc.kvLines under key(c.Key)) and returns how many there are and
// where they lie.
func (tc *textCands) markMetricShown(cs []Candidate, key func(int) int) (int, lineSpan) {
	n, span := 0, lineSpan{}
	for _, c := range cs {
		for _, p := range tc.kvLines[key(c.Key)] {
			tc.shown[p] = true
			tc.kvShown[p] = true
			span.add(p)
			n++
		}
	}
	return n, span
}

// metricKept says, when the view kept only the first metricMaxSamples
// samples, that the listed ones are among them.
func (tc *textCands) metricKept() string {
	if tc.p.kv.metric.capped() || len(tc.p.kv.metric.rest) > 0 {
		return fmt.Sprintf(", among the first %s samples kept", commas(metricMaxSamples))
	}
	return ""
}
