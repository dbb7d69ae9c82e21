package view

import (
	"sort"
	"strconv"
	"strings"
)

// Key/value lines listed by their names.
//
// A dump of settings (sysctl -a: 1,304 lines "net.ipv4.conf.eth0.rp_filter
// = 2") is asked about one setting at a time: "what is vm.swappiness".
// Its names are paths whose first parts repeat line after line, so the
// view lists the entries grouped by the part before the last separator,
// each entry written once as rest=value ("vm.: swappiness=60
// overcommit_ratio=50 …"), in line order. Where names differ in one part
// only and the rest repeats (the same settings per network interface:
// net.ipv4.conf.{all,default,eth0,lo}.rp_filter), the settings are
// listed once for the whole set, "rp_filter=2 (lo=0)": the value the
// members share, then the members that differ from it. Every entry is in
// exactly one line; the lines are offered in an even spread over the
// text, so a larger budget lists a superset, and the foot counts the
// entries not listed.

// kvNameLineLen is the length at which a line of names is cut into the
// next one (a whole entry per line at least).
const kvNameLineLen = 320

// kvNameLine is one line of the listing: its text and the positions of
// the entries it states.
type kvNameLine struct {
	text string
	pos  []int
}

// kvFamily is a set of names that differ in one part only (the member):
// pre + sep + member + sep + suffix.
type kvFamily struct {
	pre     string
	members []string
	mIndex  map[string]int
	sufs    []string
	sIndex  map[string]int
	ents    map[[2]int]kvEntry // (member, suffix) -> entry
	n       int
	first   int // position of its first entry
}

// nameListing reports whether the entries are listed by their names:
// nine names in ten are paths of two parts or more ("." "::" or "/"
// between them).
func (s *kvStats) nameListing() bool {
	if s.sample() || s.sep != "." && s.sep != "::" && s.sep != "/" || s.entries < 2*kvMinEntries || len(s.kept) != s.entries {
		return false // names of words ("__DBL_MAX__", "d_fork") are no paths
	}
	with := 0
	for _, e := range s.kept {
		if strings.Contains(strings.TrimLeft(e.key, s.sep), s.sep) {
			with++
		}
	}
	return 10*with >= 9*s.entries
}

// nameLines are the lines of the listing, in line order.
func (s *kvStats) nameLines() []kvNameLine {
	sep := s.sep
	parts := func(k string) []string {
		lead := len(k) - len(strings.TrimLeft(k, sep))
		p := strings.Split(k[lead:], sep)
		p[0] = k[:lead] + p[0]
		return p
	}
	// Candidate families: a prefix of j parts, then a member, then the
	// rest; counted over every entry of at least 3 parts.
	type famKey struct {
		pre string
		j   int
	}
	type famStat struct {
		members map[string]bool
		sufs    map[string]bool
		n       int
	}
	stats := map[famKey]*famStat{}
	for _, e := range s.kept {
		p := parts(e.key)
		for j := 1; j+1 < len(p); j++ {
			k := famKey{strings.Join(p[:j], sep), j}
			st := stats[k]
			if st == nil {
				st = &famStat{members: map[string]bool{}, sufs: map[string]bool{}}
				stats[k] = st
			}
			st.members[p[j]] = true
			st.sufs[strings.Join(p[j+1:], sep)] = true
			st.n++
		}
	}
	// A family: 3 members or more that share their settings, each
	// setting under at least half of the members on average.
	var fams []famKey
	for k, st := range stats {
		m := len(st.members)
		if m >= 3 && len(st.sufs) >= 2 && 2*st.n >= m*len(st.sufs) && st.n >= 3*len(st.sufs) {
			fams = append(fams, k)
		}
	}
	ratio := func(k famKey) float64 { return float64(stats[k].n) / float64(len(stats[k].sufs)) }
	sort.Slice(fams, func(a, b int) bool {
		if ra, rb := ratio(fams[a]), ratio(fams[b]); ra != rb {
			return ra > rb
		}
		if fams[a].j != fams[b].j {
			return fams[a].j > fams[b].j
		}
		return fams[a].pre < fams[b].pre
	})
	rank := map[famKey]int{}
	for i, k := range fams {
		rank[k] = i
	}
	// Each entry goes to its best family, or to the group of its
	// name's part before the last separator.
	byFam := map[famKey]*kvFamily{}
	type unit struct {
		fam   *kvFamily
		group string
		ents  []kvEntry
		first int
	}
	var units []*unit
	var last *unit
	for _, e := range s.kept {
		p := parts(e.key)
		best, bestRank := famKey{}, -1
		for j := 1; j+1 < len(p); j++ {
			k := famKey{strings.Join(p[:j], sep), j}
			if r, ok := rank[k]; ok && (bestRank < 0 || r < bestRank) {
				best, bestRank = k, r
			}
		}
		if bestRank >= 0 {
			f := byFam[best]
			if f == nil {
				f = &kvFamily{pre: best.pre, mIndex: map[string]int{}, sIndex: map[string]int{}, ents: map[[2]int]kvEntry{}, first: e.pos}
				byFam[best] = f
				units = append(units, &unit{fam: f, first: e.pos})
				last = nil
			}
			m, suf := p[best.j], strings.Join(p[best.j+1:], sep)
			mi, ok := f.mIndex[m]
			if !ok {
				mi = len(f.members)
				f.mIndex[m] = mi
				f.members = append(f.members, m)
			}
			si, ok := f.sIndex[suf]
			if !ok {
				si = len(f.sufs)
				f.sIndex[suf] = si
				f.sufs = append(f.sufs, suf)
			}
			if _, dup := f.ents[[2]int{mi, si}]; dup {
				// a name twice: a line of its own
				units = append(units, &unit{group: "", ents: []kvEntry{e}, first: e.pos})
				last = nil
				continue
			}
			f.ents[[2]int{mi, si}] = e
			f.n++
			continue
		}
		g := ""
		if len(p) > 1 {
			g = strings.Join(p[:len(p)-1], sep) + sep
		}
		if last == nil || last.group != g || last.fam != nil {
			last = &unit{group: g, first: e.pos}
			units = append(units, last)
		}
		last.ents = append(last.ents, e)
	}
	var out []kvNameLine
	for _, u := range units {
		if u.fam != nil {
			out = append(out, u.fam.lines(sep)...)
			continue
		}
		out = append(out, groupLines(u.group, u.ents)...)
	}
	return out
}

// kvShown writes a value for a listing of rest=value: as written, or
// quoted as Go quotes a string when it is empty or holds a space, a
// tab, a quote, a comma or a bracket (a value cut past 80 characters
// ends with "…[+N chars]"). A value written in double quotes with none
// inside (apt-config's "amd64") is already quoted: it is shown as
// written, not quoted again.
func kvShown(v string) string {
	c := cut(v, 80)
	if len(c) >= 2 && c[0] == '"' && c[len(c)-1] == '"' && !strings.ContainsAny(c[1:len(c)-1], "\"\\") {
		return c
	}
	if c == "" || strings.ContainsAny(c, " \t\"(),") {
		return strconv.Quote(c)
	}
	return c
}

// groupLines are the lines of a group of names sharing the part before
// the last separator: "fs.: aio-max-nr=65536 aio-nr=0 …".
func groupLines(g string, ents []kvEntry) []kvNameLine {
	head := "  "
	if g != "" {
		head += g + ": "
	}
	w := kvLineWriter{head: head}
	for _, e := range ents {
		item := strings.TrimPrefix(e.key, g) + "=" + kvShown(e.val)
		if e.long {
			item = strings.TrimPrefix(e.key, g) + "=(a value over 200 characters, line " + strconv.Itoa(e.pos) + ")"
		}
		w.add(item, e.pos)
	}
	return w.done()
}

// kvLineWriter writes the listing's lines: its head, then items parted by
// spaces, a new line (with the head again) before an item that would
// make a line longer than kvNameLineLen; each line keeps the positions
// of the entries its items give.
type kvLineWriter struct {
	head string
	b    strings.Builder
	pos  []int
	out  []kvNameLine
}

// add writes item, which gives the entries at pos.
func (w *kvLineWriter) add(item string, pos ...int) {
	if len(w.pos) > 0 && w.b.Len()+1+len(item) > kvNameLineLen {
		w.flush()
	}
	if len(w.pos) == 0 {
		w.b.WriteString(w.head)
	} else {
		w.b.WriteByte(' ')
	}
	w.b.WriteString(item)
	w.pos = append(w.pos, pos...)
}

func (w *kvLineWriter) flush() {
	if len(w.pos) > 0 {
		w.out = append(w.out, kvNameLine{text: w.b.String(), pos: w.pos})
	}
	w.b.Reset()
	w.pos = nil
}

// done ends the last line and returns the lines.
func (w *kvLineWriter) done() []kvNameLine {
	w.flush()
	return w.out
}

// lines are the family's lines: "net.ipv4.conf.{all,default,eth0}.:
// rp_filter=2 (lo=0) forwarding=1 …", each setting once with the value
// most members have and the members that differ or lack it.
func (f *kvFamily) lines(sep string) []kvNameLine {
	w := kvLineWriter{head: "  " + f.pre + sep + "{" + strings.Join(f.members, ",") + "}" + sep + ": "}
	for si, suf := range f.sufs {
		counts := map[string]int{}
		var in []int
		for mi := range f.members {
			if e, ok := f.ents[[2]int{mi, si}]; ok {
				in = append(in, mi)
				if !e.long {
					counts[e.val]++
				}
			}
		}
		// The value most members have (the first member's on a tie).
		common, cn := "", 0
		for _, mi := range in {
			e := f.ents[[2]int{mi, si}]
			if !e.long && counts[e.val] > cn {
				common, cn = e.val, counts[e.val]
			}
		}
		var item strings.Builder
		item.WriteString(suf)
		var except []string
		if cn*2 > len(in) {
			item.WriteString("=" + kvShown(common))
			for _, mi := range in {
				if e := f.ents[[2]int{mi, si}]; e.long || e.val != common {
					except = append(except, f.members[mi]+"="+f.valText(e))
				}
			}
		} else {
			for _, mi := range in {
				except = append(except, f.members[mi]+"="+f.valText(f.ents[[2]int{mi, si}]))
			}
		}
		if len(in) < len(f.members) {
			var names []string
			for _, mi := range in {
				names = append(names, f.members[mi])
			}
			if cn*2 > len(in) {
				except = append([]string{"only " + strings.Join(names, ",")}, except...)
			}
		}
		if len(except) > 0 {
			item.WriteString(" (" + strings.Join(except, ", ") + ")")
		}
		var pos []int
		for _, mi := range in {
			pos = append(pos, f.ents[[2]int{mi, si}].pos)
		}
		w.add(item.String(), pos...)
	}
	return w.done()
}

// valText is an entry's value in a family's line.
func (f *kvFamily) valText(e kvEntry) string {
	if e.long {
		return "(over 200 characters, line " + strconv.Itoa(e.pos) + ")"
	}
	return kvShown(e.val)
}

// nameOrder is the order the listing's lines are offered in: the first
// and the last, then an even spread, coarse to fine.
func nameOrder(n int) []int {
	if n == 0 {
		return nil
	}
	ord := []int{0}
	if n > 1 {
		ord = append(ord, n-1)
	}
	ord = append(ord, spreadOrder(n, n)...)
	seen := make([]bool, n)
	var out []int
	for _, i := range ord {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	for i := range n {
		if !seen[i] {
			out = append(out, i)
		}
	}
	return out
}
