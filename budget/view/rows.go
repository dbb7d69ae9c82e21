package view

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// errWords match values that say something went wrong.
var errWords = regexp.MustCompile(`(?i)(err|fail|fatal|panic|crash|alarm|unhealthy|denied|invalid|timed? ?out|warn|critical|backoff|oomkilled|evicted|refused|broken|missing|reject|abort|killed|not.?ready|unavailable|degraded|conflict)`)

// exitNames are numeric fields where a value other than 0 is a failure.
var exitNames = regexp.MustCompile(`(?i)(^|\.)(exit_?code|exitstatus|return_?code|returncode|rc|errors?|failures?|failed)$`)

// leaves calls fn with every scalar value of the record raw (for a map,
// its value) and the profile field it belongs to.
func (p *Profile) leaves(raw []byte, fn func(f *Field, raw []byte)) {
	p.leavesIn(raw, nil, fn)
}

// leavesIn is leaves that skips the subtrees whose fields are not in
// want (indexed by Field.first+1; nil walks everything).
func (p *Profile) leavesIn(raw []byte, want []bool, fn func(f *Field, raw []byte)) {
	p.want = want
	s := jscan{d: raw}
	s.ws()
	if p.Map {
		if s.peek() != '{' {
			return
		}
		s.pos++
		s.ws()
		s.skipString()
		s.ws()
		s.pos++
		s.ws()
	}
	p.walk(&s, p.root, fn)
}

func (p *Profile) walk(s *jscan, f *Field, fn func(*Field, []byte)) {
	if f == nil || p.want != nil && !p.want[f.first+1] {
		s.skipValue()
		return
	}
	switch s.peek() {
	case '{':
		s.pos++
		s.ws()
		if s.peek() == '}' {
			s.pos++
			return
		}
		for {
			s.ws()
			var kid *Field
			if b, name := s.memberName(); b != nil {
				kid = f.kids[string(b)]
			} else {
				kid = f.kids[name]
			}
			s.ws()
			s.pos++
			s.ws()
			p.walk(s, kid, fn)
			s.ws()
			if s.peek() == ',' {
				s.pos++
				continue
			}
			s.pos++
			return
		}
	case '[':
		s.pos++
		s.ws()
		if s.peek() == ']' {
			s.pos++
			return
		}
		for {
			s.ws()
			p.walk(s, f.elem, fn)
			s.ws()
			if s.peek() == ',' {
				s.pos++
				continue
			}
			s.pos++
			return
		}
	}
	start := s.pos
	s.skipValue()
	fn(f, s.d[start:s.pos])
}

// mapKey returns the key of a map record {"key": value}.
func mapKey(raw []byte) string {
	s := jscan{d: raw}
	s.ws()
	s.pos++
	s.ws()
	return s.readString()
}

// spreadOrder returns up to max record positions of n in bisection order
// (the middle, then the quarters, ...): any prefix is an even spread.
func spreadOrder(n, max int) []int {
	var out []int
	seen := map[int]bool{0: true, n - 1: true}
	for step := 2; len(out) < max && step <= 2*n; step *= 2 {
		for j := 1; j < step && len(out) < max; j += 2 {
			i := j * n / step
			if i > 0 && i < n-1 && !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	return out
}

// requestTerms are the words of the tool call's arguments (three letters
// or more), for rows relevant to the request.
func requestTerms(args []byte) []string {
	if len(args) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	// Only string values count: member names are the tool's vocabulary.
	s := jscan{d: args}
	var walk func()
	walk = func() {
		s.ws()
		switch s.peek() {
		case '{':
			s.pos++
			for {
				s.ws()
				if s.peek() == '}' || s.peek() == 0 {
					s.pos++
					return
				}
				s.skipString()
				s.ws()
				s.pos++
				walk()
				s.ws()
				if s.peek() == ',' {
					s.pos++
				}
			}
		case '[':
			s.pos++
			for {
				s.ws()
				if s.peek() == ']' || s.peek() == 0 {
					s.pos++
					return
				}
				walk()
				s.ws()
				if s.peek() == ',' {
					s.pos++
				}
			}
		case '"':
			str := s.readString()
			for _, w := range strings.FieldsFunc(strings.ToLower(str), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
				if len(w) >= 3 && !seen[w] && len(out) < 16 {
					seen[w] = true
					out = append(out, w)
				}
			}
		default:
			s.skipValue()
		}
	}
	walk()
	return out
}

// selectRows walks the records a second time: it finds the records each
// reason selects and renders the rows of those records. Reasons are kept
// apart per field and value (status.phase=Failed is one reason,
// state.waiting.reason=CrashLoopBackOff another), so that the first
// round of rows shows one of each kind of anomaly before a second of any.
func (k *coll) selectRows() error {
	p, c := k.p, k.c
	n := c.Count
	add := func(prio int) *reason {
		r := &reason{prio: prio, text: map[int]string{}}
		k.why = append(k.why, r)
		return r
	}
	pinned := add(PrioPinned)
	for _, i := range c.Pinned {
		pinned.recs = append(pinned.recs, i)
		pinned.text[i] = "pinned"
	}
	pinned.more = c.PinnedCount - len(c.Pinned)
	// Per field and value: the anomalies and the rare values, in the
	// order first seen; sorted rarest first after the walk.
	type keyed struct {
		r     *reason
		count int
	}
	byValue := map[string]*keyed{}
	var anomalies, rares []*keyed
	outliers := &reason{prio: PrioAnomaly, text: map[int]string{}}
	lacking := &reason{prio: PrioRare, text: map[int]string{}}
	relevant := &reason{prio: PrioRare, text: map[int]string{}}
	ends := &reason{prio: PrioEnds, text: map[int]string{}}
	spread := &reason{prio: PrioSpread, text: map[int]string{}}

	// Which fields can flag a record.
	rareVals := map[*Field]map[string]bool{}
	errVals := map[*Field]map[string]bool{}
	type stat struct{ mean, sd float64 }
	outl := map[*Field]stat{}
	var lack []*Field
	for _, f := range p.Fields {
		if k.dropped(f) {
			continue
		}
		if f.Counts != nil && f.Values >= 2 {
			for _, vc := range f.sortedCounts() {
				if vc.n*2 >= f.Values {
					continue // the usual value
				}
				if vc.raw[0] == '"' && errWords.MatchString(vc.raw) && len(vc.raw) < 120 {
					if errVals[f] == nil {
						errVals[f] = map[string]bool{}
					}
					errVals[f][vc.raw] = true
				} else if f.Values >= 10 && f.Distinct <= 24 && f.Distinct < f.Values/2 && vc.n <= max(1, f.Values/20) {
					if rareVals[f] == nil {
						rareVals[f] = map[string]bool{}
					}
					rareVals[f][vc.raw] = true
				}
			}
		}
		if f.NumN >= 8 && f.StdDev() > 0 && f != p.Identity {
			outl[f] = stat{f.Mean(), f.StdDev()}
		}
		if f.Present > 0 && p.Records >= 10 && f.Present*10 <= p.Records && !strings.Contains(f.Path, "[]") {
			parent := f.Path
			if i := strings.LastIndexByte(parent, '.'); i >= 0 {
				parent = parent[:i]
				if pf := p.Field(parent); pf != nil && pf.Present*10 <= p.Records {
					continue // its parent is rare already
				}
			}
			lack = append(lack, f)
		}
	}
	// Extremes of the main numeric and time fields (outside arrays,
	// in at least half the records), and of the longest arrays of
	// scalars.
	type extreme struct {
		f       *Field
		max     bool
		time    bool
		items   bool
		found   bool
		wantNum float64
		wantStr string
	}
	var exts []*extreme
	for _, f := range p.Fields {
		if f == p.Identity || k.dropped(f) || f.Present < p.Records/2 || p.Records < 3 {
			continue
		}
		if strings.HasSuffix(f.Path, "[]") && f.scalar() && !strings.Contains(strings.TrimSuffix(f.Path, "[]"), "[]") {
			if a := p.Field(strings.TrimSuffix(f.Path, "[]")); a != nil && a.MaxItems > a.MinItems {
				exts = append(exts, &extreme{f: f, max: true, items: true, wantNum: float64(a.MaxItems)})
			}
			continue
		}
		if strings.Contains(f.Path, "[]") {
			continue
		}
		if f.NumN > 0 && f.Min != f.Max && f.NumN == f.Values-f.Nulls {
			exts = append(exts, &extreme{f: f, max: true, wantNum: f.Max}, &extreme{f: f, wantNum: f.Min})
		} else if f.TimeN > 1 && f.earliestText != f.latestText {
			exts = append(exts, &extreme{f: f, max: true, time: true, wantStr: f.latestText}, &extreme{f: f, time: true, wantStr: f.earliestText})
		}
	}
	terms := requestTerms(k.in.Args)
	type hit struct {
		rec  int
		mask uint32
	}
	var hits []hit
	df := make([]int, len(terms))
	type dev struct {
		rec int
		d   float64
		why string
	}
	var devs []dev
	want := map[int]bool{0: true, n - 1: true}
	for _, i := range spreadOrder(n, maxSpread) {
		want[i] = true
		spread.recs = append(spread.recs, i)
		spread.text[i] = "spread"
	}
	for _, i := range c.Pinned {
		want[i] = true
	}
	probes := map[int]bool{n / 2: true, n / 3: true, 2 * n / 3: true, n / 4: true, 3 * n / 4: true}
	colIdx := map[*Field]int{}
	for j, f := range k.cols {
		colIdx[f] = j
	}
	items := map[*Field]int{}
	exitField := map[*Field]bool{}
	for _, f := range p.Fields {
		if f.NumN > 0 && exitNames.MatchString(f.Path) && !k.dropped(f) {
			exitField[f] = true
		}
	}
	lower := []byte(nil)
	// Most leaves are of no interest: one slice index tells.
	interesting := make([]bool, len(p.Fields)+1)
	mark := func(f *Field) { interesting[f.first+1] = true }
	extField := map[*Field]bool{}
	for f := range colIdx {
		mark(f)
	}
	for f := range errVals {
		mark(f)
	}
	for f := range rareVals {
		mark(f)
	}
	for f := range outl {
		mark(f)
	}
	for f := range exitField {
		mark(f)
	}
	for _, e := range exts {
		mark(e.f)
		extField[e.f] = true
	}
	// Sums of the main measures per value of the main state field
	// ("total_cents by status: delivered 1,488 sum 56,057,600").
	k.chooseGroups()
	if k.group != nil {
		mark(k.group)
		for _, m := range k.measures {
			mark(m)
		}
	}
	// The walk goes down only where something is of interest.
	under := append([]bool(nil), interesting...)
	for _, f := range p.Fields {
		if interesting[f.first+1] {
			for _, a := range ancestors(p, f) {
				under[a.first+1] = true
			}
		}
	}
	under[0] = true
	if len(lack) > 0 {
		under = nil // hasPath walks whole records anyway
	}
	cells := make([][][]byte, len(k.cols))
	err := c.Each(func(i int, raw []byte) error {
		for j := range cells {
			cells[j] = cells[j][:0]
		}
		sel := false
		flag := func(label string, prio int, list *[]*keyed, count int, why string) {
			kr := byValue[label]
			if kr == nil {
				kr = &keyed{r: &reason{prio: prio, text: map[int]string{}}, count: count}
				byValue[label] = kr
				*list = append(*list, kr)
			}
			if _, ok := kr.r.text[i]; ok {
				return
			}
			if len(kr.r.recs) < maxPerWhy {
				kr.r.recs = append(kr.r.recs, i)
				kr.r.text[i] = why
				sel = true
			} else {
				kr.r.more++
			}
		}
		var bestDev float64
		whyOut := ""
		clear(items)
		var groupVal []byte
		var mvals [4]float64
		var mhas [4]bool
		p.leavesIn(raw, under, func(f *Field, v []byte) {
			if !interesting[f.first+1] {
				return
			}
			if j, ok := colIdx[f]; ok && len(cells[j]) < 4 {
				cells[j] = append(cells[j], v)
			}
			if f == k.group {
				groupVal = v
			}
			for mi, m := range k.measures {
				if f == m {
					if x, err := strconv.ParseFloat(string(v), 64); err == nil {
						mvals[mi], mhas[mi] = x, true
					}
				}
			}
			if extField[f] {
				items[f]++
				for _, e := range exts {
					if e.f != f || e.found || e.items {
						continue
					}
					if e.time {
						e.found = v[0] == '"' && unquote(v) == e.wantStr
					} else if x, err := strconv.ParseFloat(string(v), 64); err == nil && x == e.wantNum {
						e.found = true
					}
					if e.found {
						word := "smallest"
						switch {
						case e.time && e.max:
							word = "latest"
						case e.time:
							word = "earliest"
						case e.max:
							word = "largest"
						}
						ends.recs = append(ends.recs, i)
						ends.text[i] = joinWhy(ends.text[i], word+" "+f.Path)
						sel = true
					}
				}
			}
			if errVals[f][string(v)] {
				label := f.Path + "=" + cell(string(v), 40)
				flag(label, PrioAnomaly, &anomalies, f.Counts[string(v)], fmt.Sprintf("%s (%s of %s)", label, commas(f.Counts[string(v)]), commas(f.Values)))
			}
			if exitField[f] && len(v) > 0 && v[0] != 'n' && string(v) != "0" {
				if x, err := strconv.ParseFloat(string(v), 64); err == nil && x != 0 {
					label := fmt.Sprintf("%s=%s", f.Path, string(v))
					flag(label, PrioAnomaly, &anomalies, f.Counts[string(v)], label+" (not 0)")
				}
			}
			if rareVals[f][string(v)] {
				label := f.Path + "=" + cell(string(v), 40)
				flag(label, PrioRare, &rares, f.Counts[string(v)], fmt.Sprintf("%s is rare (%s of %s)", label, commas(f.Counts[string(v)]), commas(f.Values)))
			}
			if st, ok := outl[f]; ok && len(v) > 0 && v[0] != '"' && v[0] != 'n' {
				if x, err := strconv.ParseFloat(string(v), 64); err == nil {
					if d := math.Abs(x-st.mean) / st.sd; d > 2 && d > bestDev {
						bestDev = d
						whyOut = fmt.Sprintf("%s=%s is %.1fσ from the mean %s", f.Path, num(x), d, num(st.mean))
					}
				}
			}
		})
		if groupVal != nil {
			g := k.groupSums[string(groupVal)]
			if g == nil {
				g = &groupSum{}
				k.groupSums[string(groupVal)] = g
			}
			g.n++
			for mi := range k.measures {
				if mhas[mi] {
					g.sum[mi] += mvals[mi]
					g.has[mi]++
				}
			}
		}
		for _, e := range exts {
			if e.items && !e.found && float64(items[e.f]) == e.wantNum {
				e.found = true
				ends.recs = append(ends.recs, i)
				ends.text[i] = joinWhy(ends.text[i], fmt.Sprintf("most %s items (%d)", strings.TrimSuffix(e.f.Path, "[]"), items[e.f]))
				sel = true
			}
		}
		for _, f := range lack {
			if hasPath(p, raw, f) {
				if len(lacking.recs) < maxPerWhy {
					lacking.recs = append(lacking.recs, i)
					lacking.text[i] = fmt.Sprintf("has %s (only %s of %s records do)", f.Path, commas(f.Present), commas(p.Records))
					sel = true
				}
				break
			}
		}
		if whyOut != "" && len(devs) < 1000 {
			devs = append(devs, dev{i, bestDev, whyOut})
			sel = true
		}
		if len(terms) > 0 {
			lower = append(lower[:0], raw...)
			lower = bytes.ToLower(lower)
			var mask uint32
			for t, term := range terms {
				if bytes.Contains(lower, []byte(term)) {
					mask |= 1 << t
					df[t]++
				}
			}
			if mask != 0 && len(hits) < 2000 {
				hits = append(hits, hit{i, mask})
				sel = true
			}
		}
		if sel || want[i] || probes[i] {
			k.rows[i] = k.renderRow(i, raw, cells)
			if probes[i] && k.rows[i].ident != "" {
				k.probe = append(k.probe, probe{i, k.rows[i].ident})
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("rows of %s: %w", c.Path, err)
	}
	// Anomalies and rare values: the rarest kind first.
	for _, list := range [][]*keyed{anomalies, rares} {
		sort.SliceStable(list, func(a, b int) bool { return list[a].count < list[b].count })
		for _, kr := range list {
			k.why = append(k.why, kr.r)
		}
	}
	// Outliers, most extreme first.
	sort.SliceStable(devs, func(a, b int) bool { return devs[a].d > devs[b].d })
	for _, d := range devs {
		if len(outliers.recs) < maxPerWhy {
			outliers.recs = append(outliers.recs, d.rec)
			outliers.text[d.rec] = d.why
		}
	}
	// Relevant rows: the most relevant first (BM25's idf, one hit per
	// term).
	if len(hits) > 0 {
		idf := make([]float64, len(terms))
		for t := range terms {
			idf[t] = math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
		}
		score := func(m uint32) float64 {
			s := 0.0
			for t := range terms {
				if m&(1<<t) != 0 {
					s += idf[t]
				}
			}
			return s
		}
		sort.SliceStable(hits, func(a, b int) bool { return score(hits[a].mask) > score(hits[b].mask) })
		for _, h := range hits {
			if len(relevant.recs) >= maxPerWhy {
				break
			}
			var ws []string
			for t, term := range terms {
				if h.mask&(1<<t) != 0 {
					ws = append(ws, term)
				}
			}
			relevant.recs = append(relevant.recs, h.rec)
			relevant.text[h.rec] = "matches the request: " + strings.Join(ws, ", ")
		}
	}
	// The first and the last record lead the ends, before the extremes.
	if n > 0 {
		lead := []int{0}
		ends.text[0] = joinWhy("first", ends.text[0])
		if n > 1 {
			lead = append(lead, n-1)
			ends.text[n-1] = joinWhy("last", ends.text[n-1])
		}
		ends.recs = append(lead, ends.recs...)
	}
	k.why = append(k.why, outliers, lacking, relevant, ends, spread)
	return nil
}

// hasPath reports whether the record raw has field f (present, perhaps
// null).
func hasPath(p *Profile, raw []byte, f *Field) bool {
	found := false
	s := jscan{d: raw}
	s.ws()
	if p.Map {
		s.pos++
		s.ws()
		s.skipString()
		s.ws()
		s.pos++
		s.ws()
	}
	p.walkAll(&s, p.root, func(g *Field) {
		if g == f {
			found = true
		}
	})
	return found
}

// walkAll is walk that also reports containers.
func (p *Profile) walkAll(s *jscan, f *Field, fn func(*Field)) {
	if f == nil {
		s.skipValue()
		return
	}
	fn(f)
	switch s.peek() {
	case '{':
		s.pos++
		s.ws()
		if s.peek() == '}' {
			s.pos++
			return
		}
		for {
			s.ws()
			name := s.readString()
			s.ws()
			s.pos++
			s.ws()
			p.walkAll(s, f.kids[name], fn)
			s.ws()
			if s.peek() == ',' {
				s.pos++
				continue
			}
			s.pos++
			return
		}
	case '[':
		s.pos++
		s.ws()
		if s.peek() == ']' {
			s.pos++
			return
		}
		for {
			s.ws()
			p.walkAll(s, f.elem, fn)
			s.ws()
			if s.peek() == ',' {
				s.pos++
				continue
			}
			s.pos++
			return
		}
	}
	s.skipValue()
}

func joinWhy(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "; " + b
}

// renderRow renders the cells of record i.
func (k *coll) renderRow(i int, raw []byte, vals [][][]byte) *row {
	r := &row{}
	if k.p.Map {
		r.cells = append(r.cells, cut(mapKey(raw), 80))
		r.ident = mapKey(raw)
	}
	for j, f := range k.cols {
		vs := vals[j]
		width := cellWidth
		if f == k.p.Identity {
			width = 100
		}
		var parts []string
		for _, v := range vs {
			parts = append(parts, cell(string(v), width))
		}
		s := strings.Join(parts, ",")
		if f.Values > f.Present && len(vs) >= 4 {
			s += ",…"
		}
		if len(vs) == 0 {
			s = "-"
		}
		r.cells = append(r.cells, s)
		if f == k.p.Identity && len(vs) == 1 {
			r.ident = string(vs[0])
		}
	}
	return r
}

// addRows adds one candidate per selected record, at the priority of its
// best reason: each reason's first rows in the first round, its others
// in the second; records are interleaved across reasons (the first of
// every reason, then the second of every reason, ...).
func (k *coll) addRows(v *View, sec int) {
	type pick struct {
		rec, prio, rank, why int
	}
	best := map[int]*pick{}
	texts := map[int][]string{}
	for wi, r := range k.why {
		for rank, i := range r.recs {
			prio := r.prio
			quota := firstRound
			if prio == PrioAnomaly {
				quota = 2 * firstRound
			}
			if rank >= quota && prio < PrioSecond && prio != PrioPinned && prio != PrioEnds {
				prio = PrioSecond
			}
			if prio == PrioEnds && rank >= 2*firstRound+2 {
				prio = PrioSecond
			}
			pk := &pick{i, prio, rank, wi}
			if b := best[i]; b == nil || pk.prio < b.prio || pk.prio == b.prio && pk.rank < b.rank {
				best[i] = pk
			}
			if t := r.text[i]; t != "" && !contains(texts[i], t) && len(texts[i]) < 3 {
				texts[i] = append(texts[i], t)
			}
		}
	}
	var picks []*pick
	for _, pk := range best {
		if k.rows[pk.rec] != nil {
			picks = append(picks, pk)
		}
	}
	sort.Slice(picks, func(a, b int) bool {
		x, y := picks[a], picks[b]
		if x.prio != y.prio {
			return x.prio < y.prio
		}
		if x.rank != y.rank {
			return x.rank < y.rank
		}
		if x.why != y.why {
			return x.why < y.why
		}
		return x.rec < y.rec
	})
	for _, pk := range picks {
		why := texts[pk.rec]
		// The spread is a reason only when there is no other.
		if len(why) > 1 {
			why = remove(why, "spread")
		}
		row := k.rows[pk.rec]
		text := strconv.Itoa(pk.rec) + "\t" + strings.Join(row.cells, "\t") + "\t" + strings.Join(why, "; ")
		v.Add(Candidate{Section: sec, Key: pk.rec, Record: pk.rec, Prio: pk.prio, Rank: pk.rank, Reason: strings.Join(why, "; "), Text: text})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func remove(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// ancestors returns the fields that contain f (its parents up to the
// record).
func ancestors(p *Profile, f *Field) []*Field {
	var out []*Field
	path := f.Path
	for {
		i := strings.LastIndexAny(path, ".[")
		if i <= 0 {
			break
		}
		path = path[:i]
		if a := p.Field(path); a != nil {
			out = append(out, a)
		}
	}
	return out
}

// groupSum is the records of one value of the group field and the sums of
// the measures over them.
type groupSum struct {
	n   int
	sum [4]float64
	has [4]int
}

// chooseGroups picks the group field (a state-like field of 2 to 12
// values, outside arrays, in every record) and up to 3 measures (numeric
// fields outside arrays with many values) for the sums per group.
func (k *coll) chooseGroups() {
	p := k.p
	k.groupSums = map[string]*groupSum{}
	for _, f := range p.Fields {
		if f.Counts != nil && f.Distinct >= 2 && f.Distinct <= 12 && f.Present == p.Records && !strings.Contains(f.Path, "[]") && stateNames.MatchString(f.Path) && !k.dropped(f) {
			k.group = f
			break
		}
	}
	if k.group == nil {
		return
	}
	for _, f := range p.Fields {
		if len(k.measures) < 3 && f != p.Identity && f.NumN > 0 && f.NumN == f.Values-f.Nulls && f.Distinct > 12 && !strings.Contains(f.Path, "[]") && !k.dropped(f) &&
			!strings.HasSuffix(strings.ToLower(f.Path), "id") {
			k.measures = append(k.measures, f)
		}
	}
	if len(k.measures) == 0 {
		k.group = nil
	}
}

// groupLines are the sums of each measure per value of the group field.
func (k *coll) groupLines() []string {
	if k.group == nil || len(k.groupSums) == 0 {
		return nil
	}
	keys := make([]string, 0, len(k.groupSums))
	for v := range k.groupSums {
		keys = append(keys, v)
	}
	sort.Slice(keys, func(i, j int) bool {
		if k.groupSums[keys[i]].n != k.groupSums[keys[j]].n {
			return k.groupSums[keys[i]].n > k.groupSums[keys[j]].n
		}
		return keys[i] < keys[j]
	})
	var out []string
	for mi, m := range k.measures {
		var b strings.Builder
		fmt.Fprintf(&b, "  %s by %s:", m.Path, k.group.Path)
		for i, v := range keys {
			g := k.groupSums[v]
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s %s records sum %s", cell(v, 30), commas(g.n), num(g.sum[mi]))
		}
		out = append(out, b.String())
	}
	return out
}
