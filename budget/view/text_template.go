package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/schemas/linetemplate"
)

// Templates of the lines of a text, with exact counts.
//
// Mining works like Drain (He et al., ICWS 2017), in two steps. First a
// line is masked by schemas/linetemplate.Append, the rule the logs plugin
// and the host's check of plugin templates share: timestamps, clock
// times, UUIDs, IP addresses, hex ids, numbers and digit-bearing ids
// become placeholders (<ts>, <time>, <uuid>, <ip>, <hex>, <n>, <id>).
// Then the masked line,
// split at white space, joins the most similar cluster of the same token
// count and the same leading words, when at least 40% of its tokens agree
// position by position; the tokens that differ become <*>. Otherwise it
// starts a new cluster. Every line lands in exactly one cluster (or, past
// the cap on clusters, in one counted "other" bucket), so the counts add
// up to the number of lines.

// tmplAny stands for the tokens in which the lines of a template differ
// (the other placeholders are linetemplate's).
const tmplAny = "<*>"

// maxLeadWords bounds the distinct leading words counted (lines whose
// leading words come later are counted in leadOther).
const maxLeadWords = 4000

// countWords counts a line by its leading words: the first two tokens
// when both are plain words ("npm error", "status installed"), or the
// first one ("packagefile", "mkdir"); lines that start with anything else
// (a timestamp, a path) by the first plain words among their first four
// tokens, as groupKey finds them.
func (m *miner) countWords(toks []string) {
	var w []string
	for i, t := range toks {
		if len(w) == 2 || i == 4 {
			break
		}
		if plainWord(t) {
			w = append(w, t)
		} else if len(w) > 0 {
			break
		}
	}
	if len(w) == 0 {
		m.leadNone++
		return
	}
	k := strings.Join(w, " ")
	if !countUpTo(m.lead, k, maxLeadWords) {
		m.leadOther++
	}
}

// countLast counts a line by its last word: its last white-space-separated
// token, and of a path its last segment ("copyright" of
// /usr/share/doc/bash/copyright, "[installed,automatic]" of an apt list
// line).
func (m *miner) countLast(line string) {
	f := strings.TrimRight(line, " \t\r")
	if i := strings.LastIndexAny(f, " \t"); i >= 0 {
		f = f[i+1:]
	}
	if i := strings.LastIndexByte(f, '/'); i >= 0 && i < len(f)-1 {
		f = f[i+1:]
	}
	if f == "" {
		return
	}
	if e := extension(f); e != "" {
		countUpTo(m.ext, e, maxLeadWords)
	}
	if !countUpTo(m.last, f, maxLeadWords) {
		m.lastOther++
	}
}

// extension returns the file extension a word ends with: a dot that is
// not its first character, then 1 to 6 letters or digits with at least
// one letter (".go", ".mp3"; not the ".2" of a version or a sentence's
// final dot); "" when there is none.
func extension(w string) string {
	i := strings.LastIndexByte(w, '.')
	if i <= 0 || len(w)-i < 2 || len(w)-i > 7 {
		return ""
	}
	letter := false
	for k := i + 1; k < len(w); k++ {
		c := w[k]
		if !isAlnumByte(c) {
			return ""
		}
		if !isDigitByte(c) {
			letter = true
		}
	}
	if !letter {
		return ""
	}
	return w[i:]
}

// Bounds of the lines kept per cluster and in all (cluster.lines).
const (
	maxFormLines = 64
	maxKeptLines = 8192
)

// keepLine keeps line pos of cluster c while c is small and the miner
// has room: a cluster keeps all its lines or none.
func (m *miner) keepLine(c *cluster, pos int, line string) {
	if !m.keep {
		return
	}
	if c.count > maxFormLines || c.lines == nil && c.count > 1 || m.kept >= maxKeptLines {
		m.kept -= len(c.lines)
		c.lines = nil
		return
	}
	m.kept++
	c.lines = append(c.lines, posLine{pos, cut(line, textWidth)})
}

// maxClusters bounds the clusters a miner keeps; later lines that match
// none are counted in Other.
const maxClusters = 4000

// maxClusterGroup bounds the clusters compared per (length, first token).
const maxClusterGroup = 64

// cluster is one template and the lines it stands for.
type cluster struct {
	tokens  []string
	count   int
	first   int    // position of its first line
	last    int    // position of its last line
	example string // its first line
	sev     int    // highest severity of its lines
	// slots are the distinct tokens seen at each position while the
	// cluster is small (at most maxSlotLines lines, maxSlotValues values
	// per position; nil once past either).
	slots [][]string
	// lines are its lines while it has at most maxFormLines of them
	// (nil past that), when the miner keeps lines (miner.keep): the
	// rare forms of a text of located diagnostics are shown whole.
	lines []posLine
	// counts are, per position, every distinct token with its exact
	// count of lines, whatever the cluster's size, while the position
	// has at most maxCountedValues of them and the miner has counted at
	// most maxCountedTotal values in all (nil past that: the suite of
	// 1,021 apt-cache policy lines takes 3 values, tsc's error code 26).
	counts [][]slotCount
	// pairs are, per position i, every distinct pair of the tokens at
	// i and i+1 with its exact count of lines, under caps like those of
	// counts (their own total): two positions whose values go together ("still
	// reachable", "possibly lost") are stated as one phrase.
	pairs [][]slotCount
	// nums are, per position whose token is one number, the numbers
	// of every line there (text_slotnum.go).
	nums []*slotNum
}

// slotCount is a token of a template position and its lines.
type slotCount struct {
	v string
	n int
}

// maxCountedValues bounds the values counted per template position;
// maxCountedTotal the values counted over all the templates of a text
// (memory is bounded by these, not by the input); shownSlotValues the
// values a position lists (the most frequent; the others are counted).
const (
	maxCountedValues = 64
	maxCountedTotal  = 1 << 16
	shownSlotValues  = 8
)

// count1 adds the tokens of one more line to the cluster's counts;
// total is the miner's count of values counted.
func (c *cluster) count1(toks []string, total, pairTotal *int) {
	if c.counts == nil {
		return
	}
	if len(toks) != len(c.counts) {
		c.counts = nil
		return
	}
	for i, t := range toks {
		c.counts[i] = addSlotCount(c.counts[i], t, 1, total)
	}
	if len(c.pairs) == len(toks)-1 {
		for i := range c.pairs {
			if c.pairs[i] != nil && c.counts[i] != nil && c.counts[i+1] != nil {
				c.pairs[i] = addSlotCount(c.pairs[i], toks[i]+" "+toks[i+1], 1, pairTotal)
			} else {
				c.pairs[i] = nil
			}
		}
	}
}

// fewValues lists the positions of the template (or pairs that go
// together, phraseAt) that vary over 2 to 6 values, each in more than
// one line, every value with its exact count: a distribution ("values of
// few: <*>3-4: possibly lost 1,040, still reachable 4"), not names; ""
// when there is none.
func (c *cluster) fewValues() string {
	var parts []string
	k := 0
	for i := 0; i < len(c.tokens); i++ {
		if c.tokens[i] != tmplAny {
			continue
		}
		k++
		name := fmt.Sprintf("<*>%d", k)
		cs := c.phraseAt(i)
		if cs != nil {
			name = fmt.Sprintf("<*>%d-%d", k, k+1)
			k++
			i++
		} else {
			cs = c.countsAt(i)
		}
		if len(cs) >= 2 && len(cs) <= 6 && cs[len(cs)-1].n > 1 {
			parts = append(parts, name+": "+formatSlotCounts(cs, len(cs)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "positions of few values: " + strings.Join(parts, "; ")
}

// phraseAt is the values of positions i and i+1 as phrases with their
// counts, most lines first, when both positions vary and each value of
// one goes with one value of the other (as many pairs as values at the
// position of more values: "possibly lost", "definitely lost", "still
// reachable"); nil otherwise.
func (c *cluster) phraseAt(i int) []slotCount {
	if i+1 >= len(c.tokens) || c.tokens[i] != tmplAny || c.tokens[i+1] != tmplAny || i >= len(c.pairs) || c.pairs[i] == nil {
		return nil
	}
	a, b := c.countsAt(i), c.countsAt(i+1)
	if len(a) < 2 && len(b) < 2 || a == nil || b == nil || len(c.pairs[i]) != max(len(a), len(b)) {
		return nil
	}
	for _, x := range append(a, b...) {
		if !hasLetter(x.v) || strings.ContainsAny(x.v, "()[]{}") {
			return nil // punctuation ("(>=") is no word of a phrase
		}
	}
	ps := append([]slotCount(nil), c.pairs[i]...)
	sort.SliceStable(ps, func(x, y int) bool { return ps[x].n > ps[y].n })
	return ps
}

// addSlotCount adds n lines of token t to a position's counts; nil (no
// counts) stays nil, and past maxCountedValues values (or past
// maxCountedTotal values counted in all, total) it becomes nil.
func addSlotCount(cs []slotCount, t string, n int, total *int) []slotCount {
	if cs == nil {
		return nil
	}
	for k := range cs {
		if cs[k].v == t {
			cs[k].n += n
			return cs
		}
	}
	if len(cs) == maxCountedValues || *total >= maxCountedTotal {
		return nil
	}
	*total++
	return append(cs, slotCount{strings.Clone(t), n}) // not the whole line
}

// Bounds of the values kept per template position (see cluster.slots).
const (
	maxSlotLines  = 64
	maxSlotValues = 24
)

// rawTokens returns the white-space-separated tokens of line aligned
// with its n masked tokens: a masked timestamp may stand for two raw
// tokens ("2006-01-02 15:04:05"), so when the counts differ the tokens are
// aligned from the end, the first masked token taking what is left.
func rawTokens(line string, n int) []string {
	f := strings.Fields(line)
	if len(f) == n || n == 0 {
		return f
	}
	if len(f) < n {
		return nil
	}
	out := make([]string, n)
	d := len(f) - n
	out[0] = strings.Join(f[:d+1], " ")
	copy(out[1:], f[d+1:])
	return out
}

// note records the tokens of one more line in the cluster's slots.
func (c *cluster) note(toks []string) {
	if c.slots == nil {
		return
	}
	if c.count > maxSlotLines || len(toks) != len(c.slots) {
		c.slots = nil
		return
	}
	for i, t := range toks {
		if c.slots[i] == nil && i < len(c.slots) && c.count > 1 {
			continue // position already past maxSlotValues
		}
		found := false
		for _, v := range c.slots[i] {
			if v == t {
				found = true
				break
			}
		}
		if !found {
			if len(c.slots[i]) == maxSlotValues {
				c.slots[i] = nil
				continue
			}
			c.slots[i] = append(c.slots[i], t)
		}
	}
}

// slotValues lists, for a small template, the values each varying
// position took: "<*>1: a, b, c; <*>2: ...", or "".
func (c *cluster) slotValues() string {
	if c.slots == nil && c.counts == nil {
		return ""
	}
	var parts []string
	k := 0
	for i := 0; i < len(c.tokens); i++ {
		t := c.tokens[i]
		if ps := c.phraseAt(i); ps != nil && len(ps) <= shownSlotValues {
			// Two positions whose values go together: one phrase.
			parts = append(parts, fmt.Sprintf("<*>%d-%d (%d values): %s", k+1, k+2, len(ps), formatSlotCounts(ps, len(ps))))
			k += 2
			i++
			continue
		}
		if cs := c.countsAt(i); len(cs) >= 2 && (t == tmplAny || strings.IndexByte(t, '<') >= 0) {
			// Every value with its exact count of lines.
			name := t
			if t == tmplAny {
				k++
				name = fmt.Sprintf("<*>%d", k)
			} else if nm := c.numName(i); nm != "" && cs[0].n > 1 {
				// A number named by the words before it
				// (text_slotnum.go): "called 0 79, called 7 15"
				// (not ids, a line each: "#<n>" of "Merge pull
				// request #<n>").
				if s := namedCounts(nm, cs); s != "" {
					parts = append(parts, s)
					continue
				}
				name = nm
			}
			// A small template's few values (the slots hold them all)
			// are listed whole; else the most frequent, when some
			// value is in more than one line.
			n := shownSlotValues
			if i < len(c.slots) && len(c.slots[i]) == len(cs) {
				n = len(cs)
			}
			if len(cs) > shownSlotValues {
				if lo, hi, ok := numericRange(cs); ok {
					if s := c.numText(i, t); s != "" {
						// Many numbers, named: their extremes, the
						// lines of those, and their mean
						// (text_slotnum.go).
						parts = append(parts, s)
						continue
					}
					// Many numbers: their range says more than a census.
					parts = append(parts, fmt.Sprintf("%s (%d values from %s to %s)", name, len(cs), lo, hi))
					continue
				}
			}
			if len(cs) > n && cs[0].n == 1 {
				parts = append(parts, fmt.Sprintf("%s (%d values, one line each)", name, len(cs)))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s (%d values): %s", name, len(cs), formatSlotCounts(cs, n)))
			continue
		}
		if c.countsAt(i) == nil {
			// Too many values to list: a measure's numbers
			// (text_slotnum.go).
			if s := c.numText(i, t); s != "" {
				if t == tmplAny {
					k++
				}
				parts = append(parts, s)
				continue
			}
		}
		if c.slots == nil {
			if t == tmplAny {
				k++
			}
			continue
		}
		if t != tmplAny {
			// A masked token (#<n>, <ts>, (<n>-<n>)) that took a few
			// values: name them too (the pull requests of "Merge pull
			// request #<n> from <*>").
			if strings.IndexByte(t, '<') >= 0 && i < len(c.slots) && len(c.slots[i]) >= 2 {
				parts = append(parts, fmt.Sprintf("%s (%d values): %s", t, len(c.slots[i]), strings.Join(c.slots[i], ", ")))
			}
			continue
		}
		k++
		if c.slots[i] == nil {
			parts = append(parts, fmt.Sprintf("<*>%d: more than %d values", k, maxSlotValues))
			continue
		}
		parts = append(parts, fmt.Sprintf("<*>%d (%d values): %s", k, len(c.slots[i]), strings.Join(c.slots[i], ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "values: " + strings.Join(parts, "; ")
}

// numericRange is the smallest and the largest of values that are all
// numbers (a trailing '%' or unit of letters allowed, "13.04%",
// "1838ms"), as the lines have them; ok is false otherwise.
func numericRange(cs []slotCount) (lo, hi string, ok bool) {
	var min, max float64
	for i, x := range cs {
		v := strings.TrimRight(strings.TrimSuffix(x.v, "%"), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || v == "" {
			return "", "", false
		}
		if i == 0 || f < min {
			min, lo = f, x.v
		}
		if i == 0 || f > max {
			max, hi = f, x.v
		}
	}
	return lo, hi, len(cs) > 0
}

// countsAt is position i's counts, most lines first, or nil.
func (c *cluster) countsAt(i int) []slotCount {
	if c.counts == nil || i >= len(c.counts) || c.counts[i] == nil {
		return nil
	}
	cs := append([]slotCount(nil), c.counts[i]...)
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].n > cs[b].n })
	return cs
}

// formatSlotCounts lists values (most lines first) with their counts
// ("a 842, b 169"), or without when every value is in one line: the
// first n of them, then how many more values there are and their lines.
func formatSlotCounts(cs []slotCount, n int) string {
	ones := true
	for _, x := range cs {
		ones = ones && x.n == 1
	}
	var out []string
	rest := 0
	for i, x := range cs {
		switch {
		case i >= n:
			rest += x.n
		case ones:
			out = append(out, x.v)
		default:
			out = append(out, x.v+" "+commas(x.n))
		}
	}
	s := strings.Join(out, ", ")
	if more := len(cs) - len(out); more > 0 {
		s += fmt.Sprintf(" (%s more values in %s lines)", commas(more), commas(rest))
	}
	return s
}

// Template returns the cluster's template text.
func (c *cluster) template() string { return strings.Join(c.tokens, " ") }

// literals are the template's tokens that are not placeholders.
func (c *cluster) literals() []string {
	var out []string
	for _, t := range c.tokens {
		if t != tmplAny && !(strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">")) {
			out = append(out, t)
		}
	}
	return out
}

// literal reports whether the template has a token that is not a
// placeholder.
func (c *cluster) literal() bool {
	for _, t := range c.tokens {
		if t != tmplAny && !(strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">")) {
			return true
		}
	}
	return false
}

// miner mines templates from lines added in order.
type miner struct {
	clusters  []*cluster
	groups    map[string][]*cluster
	other     int            // lines not clustered because of maxClusters
	lead      map[string]int // lines by their leading words (countWords)
	leadOther int            // lines whose leading words were past maxLeadWords
	leadNone  int            // lines without a leading word
	last      map[string]int // lines by their last word (countLast)
	ext       map[string]int // lines by the extension of their last word (".go"), while few
	lastOther int            // lines whose last word was past maxLeadWords
	otherSev  int
	counted   int // values counted in the templates' positions (cluster.counts)
	// pairCounted: pairs of values counted in adjacent positions
	// (cluster.pairs), under their own cap, so that they take nothing
	// from the counts.
	pairCounted int
	keep        bool // keep the lines of small clusters (cluster.lines)
	kept        int  // lines kept in all (at most maxKeptLines)
	buf         []byte
}

func newMiner() *miner {
	return &miner{groups: make(map[string][]*cluster), lead: make(map[string]int), last: make(map[string]int), ext: make(map[string]int)}
}

// add adds line at position pos with severity sev and returns its cluster
// (nil when it went to Other).
func (m *miner) add(pos int, line string, sev int) *cluster {
	m.countLast(line)
	m.buf = linetemplate.Append(m.buf[:0], line)
	toks := strings.Fields(string(m.buf))
	keepCodes(toks, line)
	key := groupKey(toks)
	m.countWords(toks)
	var best *cluster
	bestSim := -1
	for _, c := range m.groups[key] {
		sim := 0
		for i, t := range toks {
			if c.tokens[i] == t || c.tokens[i] == tmplAny {
				sim++
			}
		}
		if sim > bestSim {
			best, bestSim = c, sim
		}
	}
	if best != nil && 5*bestSim >= 2*len(toks) {
		for i, t := range toks {
			if best.tokens[i] != t && best.tokens[i] != tmplAny {
				best.tokens[i] = tmplAny
			}
		}
		best.count++
		raw := rawTokens(line, len(toks))
		best.note(raw)
		best.count1(raw, &m.counted, &m.pairCounted)
		best.countNums(toks, raw, line)
		best.last = pos
		best.sev = max(best.sev, sev)
		m.keepLine(best, pos, line)
		return best
	}
	if len(m.clusters) >= maxClusters || len(m.groups[key]) >= maxClusterGroup {
		m.other++
		m.otherSev = max(m.otherSev, sev)
		return nil
	}
	c := &cluster{tokens: toks, count: 1, first: pos, last: pos, example: line, sev: sev, slots: make([][]string, len(toks)), counts: make([][]slotCount, len(toks))}
	for i := range c.counts {
		c.counts[i] = make([]slotCount, 0, 1)
	}
	if len(toks) > 1 {
		c.pairs = make([][]slotCount, len(toks)-1)
		for i := range c.pairs {
			c.pairs[i] = make([]slotCount, 0, 1)
		}
	}
	raw := rawTokens(line, len(toks))
	c.note(raw)
	c.count1(raw, &m.counted, &m.pairCounted)
	c.countNums(toks, raw, line)
	m.keepLine(c, pos, line)
	m.clusters = append(m.clusters, c)
	m.groups[key] = append(m.groups[key], c)
	return c
}

// keepCodes puts back, in the masked tokens of a line, the tool codes
// linetemplate masked as ids: a token after the first whose word is
// codeLike ("MD013/line-length", "[SC2086]", "TS7006:") is a fixed word
// of its template (one rule's message), not a value that varies, so the
// lines of each code keep their own template and count.
func keepCodes(toks []string, line string) {
	var raw []string
	for i := 1; i < len(toks); i++ {
		if !strings.Contains(toks[i], linetemplate.ID) {
			continue
		}
		if raw == nil {
			if raw = strings.Fields(line); len(raw) != len(toks) {
				return
			}
		}
		if codeToken(raw[i]) {
			toks[i] = raw[i]
		}
	}
}

// codeToken reports whether a token is a tool code, alone or before a
// '/' and a name, in brackets or parentheses or before a ':' ("MD013",
// "MD013/line-length", "[SC2086]", "(SA1019)", "TS7006:").
func codeToken(t string) bool {
	t = strings.Trim(t, "[]():,;")
	if i := strings.IndexByte(t, '/'); i > 0 {
		t = t[:i]
	}
	return codeLike(t) && !strings.HasPrefix(t, "-W")
}

// mergeRare folds the clusters of one or two lines into a template of at
// least 3 lines that has the same number of tokens and the same first
// plain word, when at least half of their tokens agree: a line whose
// second plain word is a name ("Unpacking iptables (1.8.9-2) ...") is
// grouped by that name and would stand alone, one of hundreds of
// "lines unlike the rest", although it has the common form. A rare
// cluster with another first word stays (the one purge among removes).
// Counts are summed, so every line is still in exactly one template.
func (m *miner) mergeRare() {
	byFirst := map[string][]*cluster{}
	key := func(c *cluster) string {
		k := strconv.Itoa(len(c.tokens))
		for _, tk := range c.tokens {
			if plainWord(tk) {
				return k + "\x00" + tk
			}
		}
		return ""
	}
	for _, c := range m.clusters {
		if c.count >= 3 {
			if k := key(c); k != "" {
				byFirst[k] = append(byFirst[k], c)
			}
		}
	}
	rareBy := map[string][]*cluster{} // the rare clusters kept so far
	kept := m.clusters[:0]
	for _, c := range m.clusters {
		if c.count >= 3 {
			kept = append(kept, c)
			continue
		}
		k := key(c)
		// A template of 3 lines or more first, else an earlier rare
		// cluster of the same form (eight "Unpacking <name> ..." lines
		// are one template of 8 lines, not eight rare lines).
		var best *cluster
		for _, list := range [][]*cluster{byFirst[k], rareBy[k]} {
			bestSim := -1
			for _, d := range list {
				sim, lit, litKept := 0, 0, 0
				for i, tk := range c.tokens {
					if d.tokens[i] == tk || d.tokens[i] == tmplAny || tk == tmplAny {
						sim++
					}
					if dt := d.tokens[i]; dt != tmplAny && !(strings.HasPrefix(dt, "<") && strings.HasSuffix(dt, ">")) {
						lit++
						if dt == tk {
							litKept++
						}
					}
				}
				if 2*litKept < lit {
					// It would wipe out most of the template's words
					// ("link group <*> updated to point to <*>" taking
					// in a "run with --install ..." line): another form.
					continue
				}
				if sim > bestSim {
					best, bestSim = d, sim
				}
			}
			if best != nil && 2*bestSim >= len(c.tokens) {
				break
			}
			best = nil
		}
		if k == "" || best == nil {
			kept = append(kept, c)
			if k != "" {
				rareBy[k] = append(rareBy[k], c)
			}
			continue
		}
		for i, tk := range c.tokens {
			if best.tokens[i] != tk {
				best.tokens[i] = tmplAny
			}
		}
		best.count += c.count
		if best.counts != nil && (c.counts == nil || len(c.counts) != len(best.counts)) {
			best.counts = nil
		}
		for i := range best.counts {
			if c.counts[i] == nil {
				best.counts[i] = nil
				continue
			}
			for _, x := range c.counts[i] {
				best.counts[i] = addSlotCount(best.counts[i], x.v, x.n, &m.counted)
			}
		}
		if best.pairs != nil && (best.counts == nil || c.pairs == nil || len(c.pairs) != len(best.pairs)) {
			best.pairs = nil
		}
		for i := range best.pairs {
			if c.pairs[i] == nil {
				best.pairs[i] = nil
				continue
			}
			for _, x := range c.pairs[i] {
				best.pairs[i] = addSlotCount(best.pairs[i], x.v, x.n, &m.pairCounted)
			}
		}
		if best.lines != nil && len(best.lines)+len(c.lines) == best.count {
			best.lines = append(best.lines, c.lines...)
			sort.Slice(best.lines, func(i, j int) bool { return best.lines[i].pos < best.lines[j].pos })
		} else {
			best.lines = nil
		}
		best.first, best.last = min(best.first, c.first), max(best.last, c.last)
		best.sev = max(best.sev, c.sev)
		if best.slots != nil && (c.slots == nil || best.count > maxSlotLines) {
			best.slots = nil
		}
		for i := range best.slots {
			if best.slots[i] == nil {
				continue
			}
			for _, v := range c.slots[i] {
				found := false
				for _, w := range best.slots[i] {
					found = found || w == v
				}
				if !found {
					if len(best.slots[i]) == maxSlotValues {
						best.slots[i] = nil
						break
					}
					best.slots[i] = append(best.slots[i], v)
				}
			}
		}
	}
	m.clusters = kept
}

// groupKey is the token count and the first two words, among the first
// four tokens, made only of letters, '-' and '_' (Drain's prefix tree of
// depth 2, with the variable tokens skipped: "status installed" and
// "status unpacked" stay apart, "configure <pkg>:<arch>" does not split by
// package).
func groupKey(toks []string) string {
	k := strconv.Itoa(len(toks))
	lit := 0
	for i, t := range toks {
		if lit == 2 || i == 4 {
			break
		}
		if !plainWord(t) {
			continue
		}
		k += "\x00" + t
		lit++
	}
	return k
}

func plainWord(t string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i]; !(c|0x20 >= 'a' && c|0x20 <= 'z' || c == '-' || c == '_') {
			return false
		}
	}
	return t != ""
}

func isAlnumByte(c byte) bool { return isDigitByte(c) || c|0x20 >= 'a' && c|0x20 <= 'z' }
func isHexByte(c byte) bool   { return isDigitByte(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
