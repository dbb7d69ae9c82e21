package view

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A map of scalars: a flat object of build or config variables (python's
// sysconfig: 965 of them, numbers and strings), an environment, a
// package's scripts. Its records are keys and values, not rows: the view
// counts what the keys and the values are and lists keys by what they
// share.
//
//	values by type        number 563, string 402
//	values shared         every value held by two or more keys, with the
//	                      number of keys ("1 390, 0 154, \"\" 120"), and
//	                      how many values one key each holds
//	numbers, strings      the smallest and largest number, the longest
//	                      string, with their keys
//	key prefixes          keys by the part up to their first "_", ".",
//	                      "-" or before a capital after a small letter
//	                      (HAVE_ 480, SIZEOF_ 18), each with its values
//	                      when it has few ("HAVE_ 480: 1 390, 0 90")
//
// Then the keys themselves, grouped in cells of one prefix and one value:
// a cell of one or two keys is shown key by key ("SOABI: cpython-311-…",
// the telling entries: a value no other key of the prefix has), a bigger
// cell as one line of keys per value ("= 0 (HAVE_ keys, 90): HAVE_KQUEUE,
// …"). The cells whose value is not their prefix's most common one come
// first (HAVE_ keys that are 0 when most are 1), the others after. The
// entries are gathered in the profile's one pass, at most maxMapEntries
// of them: a bigger map gets the view of any map (rows and an index).

const (
	// maxMapEntries is how many entries of a map of scalars are kept
	// for its view; a map with more is shown as any map.
	maxMapEntries = 8192
	// minScalarMapView is the smallest map of scalars shown this way;
	// a smaller one is listed whole on one line (membersLine).
	minScalarMapView = 41
	// mapChunk is how many keys one line of keys that share a value
	// lists.
	mapChunk = 24
	// mapValueWidth is how many characters of a value an entry shows.
	mapValueWidth = 72
	// mapPrefixes is how many key prefixes the prefix line lists.
	mapPrefixes = 24
	// maxRestKeys is how many shown keys the query for the keys not
	// shown may name.
	maxRestKeys = 40
)

// mapEntry is one key and value of a map of scalars.
type mapEntry struct {
	key  string
	val  string // canonical: equal for values jq finds equal
	disp string // the value as shown (cut to mapValueWidth)
	raw  string // its JSON text, cut (for queries and lists)
	kind byte   // '"', '0' (number), 't' (true or false), 'n'
	size int    // characters of the value (of a string: unquoted)
	num  float64
}

// scalarMap gathers the entries of a map while its values are scalars.
type scalarMap struct {
	off     bool // a value is an object or an array, or too many entries
	entries []mapEntry
}

// add adds the map's record of the member whose name is k (quoted) and
// whose value is v (its JSON text).
func (m *scalarMap) add(k, v []byte) {
	if m.off {
		return
	}
	if len(m.entries) >= maxMapEntries {
		m.off, m.entries = true, nil
		return
	}
	key := unquote(k)
	c := v[0]
	if c == '{' || c == '[' {
		m.off, m.entries = true, nil
		return
	}
	e := mapEntry{key: key, disp: cell(string(v), mapValueWidth)}
	switch c {
	case '"':
		e.kind = '"'
		str := unquote(v)
		e.size = utf8.RuneCountInString(str)
		e.val = jsonQuote(str)
		e.raw = jsonQuote(cut(str, 40))
		if len([]rune(str)) > 52 {
			e.raw = "" // too long to name in a list or a query
		}
	case 't', 'f':
		e.kind, e.val, e.raw, e.size = 't', string(v), string(v), len(v)
	case 'n':
		e.kind, e.val, e.raw, e.size = 'n', "null", "null", 4
	default:
		e.kind, e.raw, e.size = '0', string(v), len(v)
		e.val = "#" + string(v)
		if x, err := strconv.ParseFloat(string(v), 64); err == nil {
			e.num = x
			e.val = "#" + strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
	m.entries = append(m.entries, e)
}

// keyPrefix is the prefix of a map key that groups it with others: a run
// of small letters and digits before a capital ("user" of userCpuSeconds),
// else the part up to and with the first "_", "." or "-" ("HAVE_",
// "py_", "0."), else "" (none). It is what the jq filter
// test("^(?:[a-z0-9]+(?=[A-Z])|[^_.-]+[_.-])") matches.
func keyPrefix(k string) string {
	i := 0
	for i < len(k) && (k[i] >= 'a' && k[i] <= 'z' || k[i] >= '0' && k[i] <= '9') {
		i++
	}
	if i > 0 && i < len(k) && k[i] >= 'A' && k[i] <= 'Z' {
		return k[:i]
	}
	if j := strings.IndexAny(k, "_.-"); j > 0 {
		return k[:j+1]
	}
	return ""
}

// prefixTest is the jq condition that a key (.) has prefix p.
func prefixTest(p string) string {
	if p == "" {
		return `test("^(?:[a-z0-9]+(?=[A-Z])|[^_.-]+[_.-])") | not`
	}
	if last := p[len(p)-1]; last == '_' || last == '.' || last == '-' {
		return "startswith(" + jsonQuote(p) + ")"
	}
	return "test(" + jsonQuote("^"+regexpQuote(p)+"[A-Z]") + ")"
}

// regexpQuote escapes the characters of a prefix (letters, digits) that
// a regular expression would read: none can occur, but a key is data.
func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// usable reports whether the map of n records is shown as a map of
// scalars: its values are of mixed types or many keys share values (a
// map of all but distinct values, npm's publish times, is listed by its
// keys in order as any map).
func (m *scalarMap) usable(n int) bool {
	if m == nil || m.off || n < minScalarMapView || len(m.entries) != n {
		return false
	}
	seen := map[string]bool{}
	var kinds byte
	for _, e := range m.entries {
		seen[e.val] = true
		switch e.kind {
		case '"':
			kinds |= 1
		case '0':
			kinds |= 2
		default:
			kinds |= 4
		}
	}
	return kinds&(kinds-1) != 0 || len(seen)*4 <= n*3
}

// mapCell is the keys of one prefix holding one value.
type mapCell struct {
	prefix, val string
	keys        []int // entries, in document order
	minority    bool  // the value is not the prefix's most common one
}

// addScalarMap adds the section of map collection ci, whose records are
// all scalars (k.smap.usable).
func addScalarMap(v *View, k *coll, ci int) {
	c := k.c
	es := k.smap.entries
	n := len(es)
	h := k.in.Handle
	base := c.Path
	entriesQ := "to_entries[]"
	if base != "." {
		entriesQ = base + " | to_entries[]"
	}

	// Values: by type, shared ones by the number of keys.
	types := map[string]int{}
	valN := map[string]int{}
	valFirst := map[string]int{}
	var vals []string
	for i, e := range es {
		switch e.kind {
		case '"':
			types["string"]++
		case '0':
			types["number"]++
		case 't':
			types["boolean"]++
		default:
			types["null"]++
		}
		if _, ok := valN[e.val]; !ok {
			valFirst[e.val] = i
			vals = append(vals, e.val)
		}
		valN[e.val]++
	}
	// Prefixes and their values.
	pre := make([]string, n)
	preN := map[string]int{}
	preVals := map[string]map[string]int{}
	var pres []string
	for i, e := range es {
		p := keyPrefix(e.key)
		pre[i] = p
		if _, ok := preN[p]; !ok {
			pres = append(pres, p)
			preVals[p] = map[string]int{}
		}
		preN[p]++
		preVals[p][e.val]++
	}
	topOf := func(p string) string {
		best, bn := "", -1
		for val, x := range preVals[p] { // the first seen breaks ties
			if x > bn || x == bn && valFirst[val] < valFirst[best] {
				best, bn = val, x
			}
		}
		return best
	}
	tops := map[string]string{}
	for _, p := range pres {
		tops[p] = topOf(p)
	}
	// Cells.
	cellOf := map[[2]string]*mapCell{}
	var cells []*mapCell
	for i, e := range es {
		ck := [2]string{pre[i], e.val}
		cl := cellOf[ck]
		if cl == nil {
			cl = &mapCell{prefix: pre[i], val: e.val, minority: e.val != tops[pre[i]]}
			cellOf[ck] = cl
			cells = append(cells, cl)
		}
		cl.keys = append(cl.keys, i)
	}

	sec := v.AddSection(&Section{Coll: c.Path, Order: 10 + ci, weight: k.weight()})
	v.sections[sec].Head = func(ch []Candidate) string {
		shown := 0
		for _, cd := range ch {
			if cd.Record >= 0 {
				shown += 1 + len(cd.More)
			}
		}
		return fmt.Sprintf("collection %s (map): %s, each a key and its value; showing %s of %s keys (as KEY: value, and lines of the keys that share a value)\n",
			c.Path, countWords(c.Path, n), commas(shown), commas(n))
	}
	key := -1000
	line := func(prio int, reason, text string) {
		v.Add(Candidate{Section: sec, Key: key, Record: -1, Prio: prio, Reason: reason, Text: text})
		key++
	}

	// The profile lines.
	var b strings.Builder
	b.WriteString("  values by type: ")
	tk, _ := byCount(types)
	for i, t := range tk {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", t.k, commas(t.n))
	}
	fmt.Fprintf(&b, "; %s distinct values", commas(len(vals)))
	line(PrioProfile, "profile", b.String())

	shared := []string{}
	once := 0
	for _, val := range vals {
		if valN[val] >= 2 {
			shared = append(shared, val)
		} else {
			once++
		}
	}
	sort.SliceStable(shared, func(i, j int) bool { return valN[shared[i]] > valN[shared[j]] })
	if len(shared) > 0 {
		b.Reset()
		fmt.Fprintf(&b, "  values held by more than one key (%s values, each with its number of keys): ", commas(len(shared)))
		listed := 0
		for _, val := range shared {
			r := es[valFirst[val]].raw
			if r == "" {
				continue
			}
			if listed == 20 {
				break
			}
			if listed > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %s", r, commas(valN[val]))
			listed++
		}
		if listed < len(shared) {
			fmt.Fprintf(&b, ", %s more", commas(len(shared)-listed))
		}
		switch once {
		case 0:
		case 1:
			b.WriteString("; 1 value is held by one key")
		default:
			fmt.Fprintf(&b, "; %s values are held by one key each", commas(once))
		}
		line(PrioProfile, "profile", b.String())
	}

	// Numbers and strings: extremes with their keys.
	minI, maxI, longI := -1, -1, -1
	nums := 0
	for i, e := range es {
		if e.kind == '0' {
			nums++
			if minI < 0 || e.num < es[minI].num {
				minI = i
			}
			if maxI < 0 || e.num > es[maxI].num {
				maxI = i
			}
		}
		if e.kind == '"' && (longI < 0 || e.size > es[longI].size) {
			longI = i
		}
	}
	ties := func(i int, same func(mapEntry) bool) string {
		t := 0
		for _, e := range es {
			if same(e) {
				t++
			}
		}
		if t > 1 {
			return fmt.Sprintf("%s and %s more", es[i].key, commas(t-1))
		}
		return es[i].key
	}
	if nums > 0 {
		mi, ma := es[minI], es[maxI]
		line(PrioProfile, "profile", fmt.Sprintf("  numbers (%s): smallest %s (%s), largest %s (%s)", commas(nums),
			mi.raw, ties(minI, func(e mapEntry) bool { return e.kind == '0' && e.num == mi.num }),
			ma.raw, ties(maxI, func(e mapEntry) bool { return e.kind == '0' && e.num == ma.num })))
	}
	if longI >= 0 {
		lo := es[longI]
		empty := 0
		for _, e := range es {
			if e.val == `""` {
				empty++
			}
		}
		emptyN := ""
		if empty > 0 {
			emptyN = fmt.Sprintf("; %s empty (\"\")", commas(empty))
		}
		line(PrioProfile, "profile", fmt.Sprintf("  strings (%s): the longest %s chars (%s)%s", commas(types["string"]),
			commas(lo.size), ties(longI, func(e mapEntry) bool { return e.kind == '"' && e.size == lo.size }), emptyN))
	}

	// Key prefixes, with their values when they have few.
	grouped := 0
	for _, p := range pres {
		if p != "" && preN[p] >= 2 {
			grouped++
		}
	}
	if grouped > 0 && preN[""] < n {
		b.Reset()
		b.WriteString("  key prefixes (up to the first _ . - or before a capital after small letters; keys, then their values by count): ")
		ps := append([]string(nil), pres...)
		sort.SliceStable(ps, func(i, j int) bool { return preN[ps[i]] > preN[ps[j]] })
		listed, restP, restK, single := 0, 0, 0, 0
		for _, p := range ps {
			switch {
			case p == "":
				continue
			case preN[p] == 1:
				single++
				continue
			case listed == mapPrefixes:
				restP++
				restK += preN[p]
				continue
			}
			if listed > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %s", p, commas(preN[p]))
			if pv := preVals[p]; len(pv) >= 2 && len(pv) <= 4 && len(pv) < preN[p] {
				pvs := make([]string, 0, len(pv))
				named := true
				for val := range pv {
					pvs = append(pvs, val)
					named = named && es[valFirst[val]].raw != ""
				}
				sort.Slice(pvs, func(i, j int) bool {
					if pv[pvs[i]] != pv[pvs[j]] {
						return pv[pvs[i]] > pv[pvs[j]]
					}
					return valFirst[pvs[i]] < valFirst[pvs[j]]
				})
				if named {
					parts := make([]string, len(pvs))
					for i, val := range pvs {
						parts[i] = es[valFirst[val]].raw + " " + commas(pv[val])
					}
					fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
				}
			} else if len(pv) == 1 && es[valFirst[tops[p]]].raw != "" {
				fmt.Fprintf(&b, " (all %s)", es[valFirst[tops[p]]].raw)
			}
			listed++
		}
		if restP > 0 {
			fmt.Fprintf(&b, "; %s more prefixes of %s keys", commas(restP), commas(restK))
		}
		if single > 0 {
			fmt.Fprintf(&b, "; %s keys have a prefix no other key has", commas(single))
		}
		fmt.Fprintf(&b, "; %s keys have no prefix", commas(preN[""]))
		line(PrioProfile, "profile", b.String())
	}

	// The entries: cells of one or two keys, key by key, in document
	// order; the first and the last key before them. A value no other
	// key holds comes first when the key stands alone (no prefix, or
	// one no other key has: SOABI, VERSION), with the keys that are the
	// exception in their prefix (Py_ENABLE_SHARED 1 where the other Py_
	// keys are 0); then the other unique values, then the rest.
	small := func(cl *mapCell) bool { return len(cl.keys) <= 2 }
	entry := func(i int, prio, rank int, reason string) {
		e := es[i]
		v.Add(Candidate{Section: sec, Key: i, Record: i, Prio: prio, Rank: rank, Reason: reason,
			Text: "  " + mapKeyLabel(e.key) + ": " + e.disp})
	}
	entry(0, PrioEnds, 0, "the first key")
	if n > 1 {
		entry(n-1, PrioEnds, 0, "the last key")
	}
	alone := func(i int) bool { return pre[i] == "" || preN[pre[i]] == 1 }
	// share is how much of prefix p its most common value holds: the
	// more, the more a key with another value is the exception.
	share := func(p string) float64 { return float64(preVals[p][tops[p]]) / float64(preN[p]) }
	var alones, exceptions, others []int
	for i := 1; i < n-1; i++ {
		cl := cellOf[[2]string{pre[i], es[i].val}]
		if !small(cl) {
			continue
		}
		switch {
		case valN[es[i].val] == 1 && alone(i):
			alones = append(alones, i)
		case cl.minority && !alone(i) && preVals[pre[i]][tops[pre[i]]] >= 2 && share(pre[i]) >= 0.5:
			exceptions = append(exceptions, i)
		default:
			others = append(others, i)
		}
	}
	sort.SliceStable(exceptions, func(a, b int) bool {
		if sa, sb := share(pre[exceptions[a]]), share(pre[exceptions[b]]); sa != sb {
			return sa > sb
		}
		return es[exceptions[a]].size < es[exceptions[b]].size
	})
	// Short values first (more keys for the tokens: a version, an ABI
	// tag before a list of flags); two entries for every line of keys
	// (rank).
	sort.SliceStable(alones, func(a, b int) bool { return es[alones[a]].size < es[alones[b]].size })
	for r, i := range alones {
		entry(i, PrioRare, r/2, "a value no other key holds")
	}
	for r, i := range exceptions {
		entry(i, PrioRare, r/2, "a value few keys of its prefix hold")
	}
	for r, i := range others {
		entry(i, PrioSecond, r, "a value few keys of its prefix hold")
	}
	// The lines of keys: the cells whose value is not their prefix's
	// most common first, chunk by chunk, then the others.
	lineKey := n
	type chunk struct {
		cl       *mapCell
		from, to int
	}
	add := func(ch chunk, prio, rank int) {
		cl := ch.cl
		e0 := es[cl.keys[0]]
		ks := make([]string, 0, ch.to-ch.from)
		for _, i := range cl.keys[ch.from:ch.to] {
			ks = append(ks, mapKeyLabel(es[i].key))
		}
		who := "keys"
		if cl.prefix != "" {
			who = cl.prefix + " keys"
		} else {
			who = "keys with no prefix"
		}
		val := e0.raw
		if val == "" {
			val = cell(jsonQuote(cut(unquote([]byte(e0.val)), 40)), 60)
		}
		part := ""
		if len(cl.keys) > mapChunk {
			part = fmt.Sprintf(", %s-%s of them", commas(ch.from+1), commas(ch.to))
		}
		more := make([]int, 0, ch.to-ch.from-1)
		more = append(more, cl.keys[ch.from+1:ch.to]...)
		v.Add(Candidate{Section: sec, Key: lineKey, Record: cl.keys[ch.from], More: more, Prio: prio, Rank: rank,
			Reason: "keys that share a value",
			Text:   fmt.Sprintf("  = %s (%s, %s%s): %s", val, who, commas(len(cl.keys)), part, strings.Join(ks, ", "))})
		lineKey++
	}
	// The exceptions of the prefixes most keys of which share a value
	// first (HAVE_ keys that are 0), line after line; the other cells,
	// each line after the first lines of all.
	var minor []*mapCell
	for _, cl := range cells {
		if !small(cl) && cl.minority {
			minor = append(minor, cl)
		}
	}
	sort.SliceStable(minor, func(a, b int) bool { return share(minor[a].prefix) > share(minor[b].prefix) })
	seq := 0
	for _, cl := range minor {
		for j := 0; j*mapChunk < len(cl.keys); j++ {
			add(chunk{cl, j * mapChunk, min(len(cl.keys), (j+1)*mapChunk)}, PrioRare, seq)
			seq++
		}
	}
	for _, cl := range cells {
		if small(cl) || cl.minority {
			continue
		}
		for j := 0; j*mapChunk < len(cl.keys); j++ {
			add(chunk{cl, j * mapChunk, min(len(cl.keys), (j+1)*mapChunk)}, PrioSpread, j)
		}
	}

	v.sections[sec].Foot = func(ch []Candidate) string {
		shown := map[int]bool{}
		for _, cd := range ch {
			if cd.Record >= 0 {
				shown[cd.Record] = true
				for _, r := range cd.More {
					shown[r] = true
				}
			}
		}
		if len(shown) == n {
			return ""
		}
		var fb strings.Builder
		fmt.Fprintf(&fb, "  not shown: %s of %s keys", commas(n-len(shown)), commas(n))
		// An example key not shown, and a prefix and a value with keys
		// not shown, make the queries concrete.
		exKey, exPre, exVal := "", "", ""
		for i, e := range es {
			if shown[i] {
				continue
			}
			if exKey == "" {
				exKey = e.key
			}
			if exPre == "" && pre[i] != "" && preN[pre[i]] >= 2 {
				exPre = pre[i]
			}
			if exVal == "" && valN[e.val] >= 2 && e.raw != "" {
				exVal = e.raw
			}
		}
		if q := mapRestQuery(c, es, shown); q != "" {
			fmt.Fprintf(&fb, "; get exactly them: %s", jqCommand(h, q))
		}
		fmt.Fprintf(&fb, "\n  one key: %s\n", jqCommand(h, lookupQuery(c, nil, exKey)))
		if exPre != "" {
			fmt.Fprintf(&fb, "  the keys of a prefix: %s\n", jqCommand(h, fmt.Sprintf("[%s | select(.key | %s)] | from_entries", entriesQ, prefixTest(exPre))))
		}
		if exVal != "" {
			fmt.Fprintf(&fb, "  the keys with a value: %s\n", jqCommand(h, fmt.Sprintf("[%s | select(.value == %s) | .key]", entriesQ, exVal)))
		}
		return fb.String()
	}
}

// mapRestQuery is the filter that yields the entries of the map c not
// in shown (by their keys: an artifact query reads an object's members
// in key order, not in the document's), or "" when more than
// maxRestKeys are shown.
func mapRestQuery(c Collection, es []mapEntry, shown map[int]bool) string {
	if len(shown) > maxRestKeys {
		return ""
	}
	var recs []int
	var keys []string
	for i := range shown {
		recs = append(recs, i)
		keys = append(keys, es[i].key)
	}
	return restQuery(c, recs, keys)
}

// mapKeyLabel is a key as a line shows it: bare when it is plain, else
// quoted.
func mapKeyLabel(k string) string {
	if k == "" || strings.ContainsAny(k, " ,:=\t\n\"") {
		return jsonQuote(k)
	}
	return k
}

// Summary members: a map of records whose first or last member is no
// record but a fact about the others (cloc --by-file --json: "header"
// {cloc_version, elapsed_seconds, n_files, ...} first, "SUM" {blank,
// comment, code, nFiles} last, around 1,488 files). Counted as records
// they are wrong answers: the largest code count is SUM's, the file
// count is off by two, the profile lists the header's fields as rare
// ones. A member at either end is a summary when
//
//	totals  two or more of its numbers are fields nine records in ten
//	        have, and each is the sum of that field over the other
//	        records (twice its value is the sum over all), not all zero;
//	header  none of its members is such a common field, and each is a
//	        field of at most two records.
//
// The summaries are shown whole in the map's head, and the records are
// the collection without them, del(.["SUM","header"]).

// summaryEnds returns the positions (0, Count-1) of the members of map
// collection k that are summaries, read off the first and the last
// record the selection kept; none when the map has fewer than
// minMapSummary records or is under an array (several maps).
func summaryEnds(k *coll) []int {
	c := k.c
	p := k.p
	if !p.Map || c.noSummary || c.Count < minMapSummary || strings.Contains(c.Path, "[]") {
		return nil
	}
	common := func(f *Field) bool { return f != nil && f.parent == p.root && f.Present*10 >= p.Records*9 }
	is := func(i int) bool {
		r := k.rows[i]
		if r == nil {
			return false
		}
		s := jscan{d: r.raw}
		if _, ok := s.entryValue(); !ok || s.peek() != '{' {
			return false
		}
		sums, others, rare, members := 0, 0, 0, 0
		s.members(func(name string, val []byte) {
			members++
			f := p.Field(joinPath(".", name))
			switch {
			case f == nil:
			case common(f):
				others++
				if x, err := strconv.ParseFloat(string(val), 64); err == nil && f.NumN == f.Values && x != 0 &&
					math.Abs(2*x-f.Sum) <= 1e-9*math.Abs(f.Sum) {
					sums++
				}
			case f.Present <= 2:
				rare++
			}
		})
		return sums >= 2 || members > 0 && others == 0 && rare == members
	}
	var out []int
	for _, i := range []int{0, c.Count - 1} {
		if is(i) {
			out = append(out, i)
		}
	}
	return out
}

// minMapSummary is the fewest members of a map whose ends are looked at
// for summaries.
const minMapSummary = 10

// addSummarized adds map collection k (collection ci of in) whose members
// at ends are summaries: a head stating them whole, then the other
// members as a collection of their own (profiled again without them).
func addSummarized(v *View, in Input, ci int, k *coll, ends []int) error {
	c := k.c
	keys := make([]string, len(ends))
	texts := make([]string, len(ends))
	skip := map[string]bool{}
	shown := "shown whole"
	type big struct {
		key, path string
		ic        innerColl
	}
	var bigs []big
	for j, i := range ends {
		raw := k.rows[i].raw
		s := jscan{d: raw}
		s.entryValue()
		keys[j] = mapKey(raw)
		skip[keys[j]] = true
		val := bytes.TrimSpace(s.d[s.pos : len(s.d)-1])
		if bigMember(in, len(val)) {
			// Most of the document: no summary; its largest
			// collection is profiled below (json_inner.go).
			if at := memberText(in, c.Path, keys[j]); at != nil {
				if ic, ok := findInner(at); ok {
					path := innerPath(c.Path, keys[j], ic)
					bigs = append(bigs, big{keys[j], path, ic})
					texts[j] = mapKeyLabel(keys[j]) + ": " + innerNote(path, ic, len(val), len(in.Data))
					continue
				}
			}
		}
		text, whole := inline(val) // facts.go: whole, or summarised
		texts[j] = mapKeyLabel(keys[j]) + ": " + text
		if !whole {
			shown = "shown whole or by their members"
		}
	}
	qs := make([]string, len(keys))
	for j, key := range keys {
		qs[j] = jsonQuote(key)
	}
	sort.Strings(qs)
	path := fmt.Sprintf("del(.[%s])", strings.Join(qs, ","))
	if c.Path != "." {
		path = c.Path + " | " + path
	}
	count := c.Count - len(ends)
	each := func(fn func(i int, raw []byte) error) error {
		j := 0
		var buf []byte
		return eachEntryOf(in, c, func(key string, val []byte) error {
			if skip[key] {
				return nil
			}
			buf = append(buf[:0], '{')
			buf = append(buf, jsonQuote(key)...)
			buf = append(buf, ':')
			buf = append(buf, val...)
			buf = append(buf, '}')
			err := fn(j, append([]byte(nil), buf...))
			j++
			return err
		})
	}
	recs := Collection{Path: path, Kind: "map", Count: count, Each: each, noSummary: true}
	what := "a summary member"
	if len(ends) > 1 {
		what = fmt.Sprintf("%d summary members", len(ends))
	}
	head := fmt.Sprintf("collection %s (map): %s keys: %s at its ends, no record (its numbers are the others' sums, or its fields no other member has), %s: %s; and %s records, the collection %s below\n",
		c.Path, commas(c.Count), what, shown, strings.Join(texts, "; "), commas(count), path)
	if len(bigs) == len(ends) {
		what = "a member"
		if len(ends) > 1 {
			what = fmt.Sprintf("%d members", len(ends))
		}
		head = fmt.Sprintf("collection %s (map): %s keys: %s at its ends unlike the others (their fields no other member has), no record of theirs: %s; and %s records, the collection %s below\n",
			c.Path, commas(c.Count), what, strings.Join(texts, "; "), commas(count), path)
	}
	v.AddSection(&Section{Coll: c.Path, Order: 10 + ci, Head: func([]Candidate) string { return head }})
	in.Collections = append(in.Collections[:len(in.Collections):len(in.Collections)], recs)
	v.items = append(v.items, Items{Path: recs.Path, Kind: recs.Kind, Of: c.Path, Count: recs.Count})
	if err := addRecords(v, in, len(in.Collections)-1); err != nil {
		return err
	}
	for _, b := range bigs {
		if err := addInner(v, in, c.Path, b.path, b.ic); err != nil {
			return err
		}
	}
	return nil
}

// memberText returns the value of member key of the object at path p of
// in's document, a slice of in.Data, or nil.
func memberText(in Input, p, key string) []byte {
	var segs []string
	if p != "." {
		segs = pathSegments(strings.TrimPrefix(p, "."))
	}
	seg := key
	if !plainName(key) {
		seg = jsonQuote(key)
	}
	segs = append(segs, seg)
	var out []byte
	valuesAt(in.Data, segs, func(raw []byte) bool {
		out = raw
		return false
	})
	return out
}
