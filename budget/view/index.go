package view

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The index of a collection: after the profile and the rows with their
// reasons, what is left of the budget lists the records densely, one
// line per record: its identity (or key) and its one or two most telling
// short fields ("ledger-db-1	Running	ip-10-0-3-17"). A question about one
// record in the middle of hundreds ("which version of X", "how big is
// Y") is answered from the view when that record's line fits; a record
// costs a few tokens here against tens as a row.
//
// The lines are candidates in one fixed order (record order; a keyed
// collection in key order, the order a query pages it in), at a priority
// after the rows' second round and before the even spread, so a larger
// budget lists a longer prefix. The section's foot counts the records not
// listed and gives the query that lists exactly them, in the same form.

const (
	// minIndex is the fewest records a collection needs for an index:
	// smaller ones are shown as rows.
	minIndex = 16
	// maxIndexRecords and maxIndexBytes cap the records read for the
	// index (fixed caps: they bound the work and the memory by numbers
	// that depend neither on the input nor on the budget). A keyed
	// collection over either cap has no index (its rest could not be
	// paged by key).
	maxIndexRecords = 4000
	maxIndexBytes   = 1 << 20
	// indexWidth is the characters of an index cell before it is cut;
	// indexFieldLen the longest values of a field an index shows.
	indexWidth    = 64
	indexFieldLen = 64
)

// lookupNames are field names a record is most often looked up for: its
// version, state, size, where it runs, who made it.
var lookupNames = regexp.MustCompile(`(?i)(^|\.|_)(version|status|state|phase|statevalue|size|bytes|length|count|total|amount|price|value|threshold|latest|wanted|current|node|nodename|host|hostname|ip|podip|address|owner|author|login|user|customer|license|type|kind|time|date|updated|created|modified|published)$`)

// indexFields returns the field a record is named by (nil for a keyed
// collection: its key) and the fields its index line shows; ok is false
// when the collection gets no index.
func (k *coll) indexFields() (key *Field, fields []*Field, ok bool) {
	p := k.p
	if p.Records < minIndex || k.c.Kind == "lines" || p.Map && p.root.scalar() && k.c.Count <= 40 {
		return nil, nil, false
	}
	if !p.Map {
		key = p.Identity
		if key == nil {
			// A name most records have their own of (a package
			// installed twice in two versions is still looked up by
			// its name).
			for _, f := range p.Fields {
				if f.scalar() && !f.inArr && f.Types == tString && f.Present == p.Records && f.MaxLen <= 100 && !k.dropped(f) &&
					f.Distinct*2 >= p.Records && (key == nil || f.Distinct > key.Distinct) {
					key = f
				}
			}
		}
		if key == nil {
			return nil, nil, false
		}
	}
	type scored struct {
		f     *Field
		score int
	}
	var cand []scored
	if p.Map && p.root.scalar() && len(p.Fields) == 0 {
		return nil, []*Field{p.root}, true // a map of scalars: key and value
	}
	for _, f := range p.Fields {
		if f == key || !f.scalar() || f.inArr || k.dropped(f) || f.Present*2 < p.Records || k.dupOf[f] != nil ||
			f.Constant(p.Records) || f.MaxLen > indexFieldLen || f.Nulls*2 > f.Values {
			continue
		}
		if f.Counts != nil {
			if vc := f.sortedCounts(); len(vc) > 0 && vc[0].n*10 >= f.Values*9 {
				continue // nearly constant: the profile says it
			}
		}
		s := 0
		if lookupNames.MatchString(f.Path) || stateNames.MatchString(f.Path) {
			s += 40
		}
		switch {
		case f.NumN > 0 && f.Distinct > 12:
			s += 20 // a measure
		case f.Counts != nil && f.Distinct <= 12:
			s += 15 // a state
		case f.Types == tString && f.Distinct*2 >= p.Records:
			s += 10 // a record's own text (a summary, a version)
		}
		if f.MaxLen > 40 {
			s -= 10
		}
		s -= 5 * (len(pathSegments(f.Path)) - 1)
		cand = append(cand, scored{f, s})
	}
	sort.SliceStable(cand, func(i, j int) bool { return cand[i].score > cand[j].score })
	for _, c := range cand {
		if len(fields) == 2 {
			break
		}
		dup := false
		for _, o := range fields {
			dup = dup || sameValues(c.f, o)
		}
		if !dup {
			fields = append(fields, c.f)
		}
	}
	return key, fields, true
}

// indexLine is one record's line in the index.
type indexLine struct {
	rec  int
	key  string // the map key (sorting), or ""
	text string
}

// addIndex adds the index of collection k: a section right after the
// collection's own, with one candidate per record.
func addIndex(v *View, k *coll) {
	key, fields, ok := k.indexFields()
	if !ok {
		return
	}
	p, c := k.p, k.c
	mask := p.mask(append([]*Field{key}, fields...)...)
	if key == nil {
		mask = p.mask(fields...)
	}
	var lines []indexLine
	read := 0
	complete := true
	err := k.eachRecord(func(i int, raw []byte) error { // rows.go
		if i >= maxIndexRecords || read+len(raw) > maxIndexBytes {
			complete = false
			return errStop
		}
		read += len(raw)
		vals := make([][]byte, len(fields))
		var id []byte
		p.leavesOf(raw, mask, func(f *Field, val []byte) {
			if f == key && id == nil {
				id = val
			}
			for j, g := range fields {
				if g == f && vals[j] == nil {
					vals[j] = val
				}
			}
		})
		var b strings.Builder
		l := indexLine{rec: i}
		if p.Map {
			l.key = mapKey(raw)
			b.WriteString(cell(jsonQuote(l.key), 100))
		} else if id != nil {
			b.WriteString(cell(string(id), 100))
		} else {
			b.WriteString("-")
		}
		for _, val := range vals {
			b.WriteByte('\t')
			if val == nil {
				b.WriteString("-")
			} else {
				b.WriteString(cell(string(val), indexWidth))
			}
		}
		l.text = b.String()
		lines = append(lines, l)
		return nil
	})
	if err != nil && err != errStop {
		return // the records were read once already: cannot happen
	}
	if p.Map {
		if !complete {
			return // a keyed collection is paged by key: all or nothing
		}
		sort.SliceStable(lines, func(i, j int) bool { return lines[i].key < lines[j].key })
	}
	if len(lines) == 0 {
		return
	}
	names := []string{"key"}
	if !p.Map {
		names[0] = key.Path
	}
	for _, f := range fields {
		if f == p.root {
			names = append(names, "value")
		} else {
			names = append(names, f.Path)
		}
	}
	order := "record order"
	if p.Map {
		order = "key order"
	}
	total := c.Count
	sec := v.AddSection(&Section{Coll: c.Path, Order: v.sections[k.sec].Order,
		Head: func(ch []Candidate) string {
			if len(ch) == 0 {
				return ""
			}
			what := "every record"
			if len(ch) < total {
				what = fmt.Sprintf("the first %s of %s records", commas(len(ch)), commas(total))
			}
			return fmt.Sprintf("index of %s, %s in %s, one per line (tab-separated: %s):\n", c.Path, what, order, strings.Join(names, ", "))
		},
		Foot: func(ch []Candidate) string {
			if len(ch) == 0 || len(ch) >= total {
				return ""
			}
			return fmt.Sprintf("  index: %s of %s records not listed; list exactly them: %s\n",
				commas(total-len(ch)), commas(total), jqCommand(k.in.Handle, k.indexRestQuery(key, fields, len(ch), lines)))
		},
	})
	for j, l := range lines {
		v.Add(Candidate{Section: sec, Key: j, Record: -1, Prio: PrioIndex, Reason: "index", Text: l.text})
	}
}

// indexRestQuery lists the records after the first n of the index, in
// the index's form ([identity, field, ...] per record).
func (k *coll) indexRestQuery(key *Field, fields []*Field, n int, lines []indexLine) string {
	c := k.c
	var parts []string
	if k.p.Map {
		parts = append(parts, ".key")
		for _, f := range fields {
			if f == k.p.root {
				parts = append(parts, ".value")
			} else {
				parts = append(parts, ".value"+fieldExpr(f.Path))
			}
		}
		return fmt.Sprintf("%s | to_entries | map(select(.key > %s) | [%s])", c.Path, jsonQuote(lines[n-1].key), strings.Join(parts, ", "))
	}
	parts = append(parts, fieldExpr(key.Path))
	for _, f := range fields {
		parts = append(parts, fieldExpr(f.Path))
	}
	form := "map([" + strings.Join(parts, ", ") + "])"
	switch {
	case c.Kind == "jsonl" || c.Kind == "concat" || c.Path == ".":
		return fmt.Sprintf(".[%d:] | %s", n, form)
	case strings.Contains(c.Path, "[]"):
		return fmt.Sprintf("[%s[]] | .[%d:] | %s", c.Path, n, form)
	}
	return fmt.Sprintf("%s[%d:] | %s", c.Path, n, form)
}
