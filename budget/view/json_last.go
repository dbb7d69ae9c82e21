package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The last record, whole, and the last record of each kind.
//
// A stream's end is what a user asks about first ("what reason did the
// last message give?"), and head+tail answers it: its tail is the last
// records, every member written out. A row shows only the columns the
// collection's records share, so the last record of mosquitto_sub's
// stream (the gateway's status: state, reason, uptime_s) was a row of
// dashes, its reason nowhere near it. So the rows that stand for an end
// (the last record; the last record of each kind) carry the members no
// cell of theirs shows, as name=value after the row's reasons (restCell),
// each value cut at restValue characters with its length stated, at most
// restChars characters in all, the rest counted ("+3 more members").
//
// The last of each kind: a stream mixes records of several kinds (yarn's
// --json lines: step, info, verbose, progressTick; a trace's events by
// category), and "the last step", "the last progress tick" are ends of
// their own. Per value of the records' kind field (a string member of
// the record itself in nine records of ten or more, named like a kind:
// kindNames, of 2 to maxValues short values), held by two records or more,
// commonest first, the last record holding it is a row ("the last
// type=step"), after the profile's second lines (PrioEnds2: at a small
// budget the rare rows come first). The profile's pass notes, for each
// value of a group field named like a kind (the tracker follows those
// from the first record), the last record holding it and where its text
// starts when it is a slice of the input (lastOf: two stores per record,
// no copy); the record is read off that start once, when chosen.

// Limits of the members a row of an end carries besides its cells.
const (
	restValue     = 100 // characters of one value before it is cut
	restChars     = 480 // characters of the members in all, in a stream's row
	restListChars = 200 // ... in the last row of a list (not a stream)
)

// lastKindRows makes the last record of each kind a row of its own
// when it is not among the last rows. Off: on every worked-from set
// (hf12-hf18, held12, the fresh sets, 2,800 questions) those rows
// answered nothing the rows of the end did not, and they take room
// (vegeta's 'the last method=POST' took 4 index lines at 8,000 tokens,
// the foot of a linter's findings its index at 2,000); a last
// record of a kind among the rows of the end still carries its members
// (app-log's last ERROR, 5th from last: its error and stack).
var lastKindRows = false

// maxLastKinds is the most rows of the last records of each kind.
const maxLastKinds = firstRound

// lastOf notes that vs (nil: none), a value of a kind field, is in the
// current record: its number and the text from the record's start (a
// slice of the input; nil when the record is not one), whose first JSON
// value is the record (lastRecord). Two stores per record.
func (t *tracker) lastOf(vs *valState) {
	if vs == nil {
		return
	}
	vs.lastAt, vs.lastRaw = t.rec+1, nil
	if t.alias {
		vs.lastRaw = t.raw
	}
}

// lastRecord returns the record whose text starts raw (lastOf): its
// first JSON value.
func lastRecord(raw []byte) []byte {
	s := &jscan{d: raw}
	s.ws()
	start := s.pos
	s.skipValue()
	return raw[start:s.pos]
}

// stream reports whether the records are a stream's: JSON lines or
// concatenated JSON values, written one after the other as things
// happened (a list's records, even with a text of their own, are not).
func (k *coll) stream() bool { return k.c.Kind == "jsonl" || k.c.Kind == "concat" }

// kindField returns the records' kind field for the last record of each
// kind, or nil: of a stream (a linter's list of findings has a type, a
// search's repositories a language, but the last convention or the last
// C++ repository is no end), a
// string member of the record itself, followed as a
// group by the tracker, in nine records of ten or more, of 2 to
// maxValues values counted one by one, each short (a cell), named like
// a kind (kindNames: a type, a level, an event; not a message: a
// linter's findings as JSON lines repeat their messages, and "the last
// message=..." rows took the index's place at 2,000 tokens); the first
// in document order.
func (k *coll) kindField() *Field {
	p := k.p
	if p.Map || !k.stream() {
		return nil // (a list's last record of a kind is no end: a stream's is)
	}
	for _, f := range p.Fields {
		if !f.group || f.parent != p.root || f.inArr || f.Types != tString || f.tooMany || f.vals == nil || f == p.Identity ||
			f.Distinct < 2 || f.Present*10 < p.Records*9 || k.hidden(f) || k.dupOf[f] != nil {
			continue
		}
		if kindNames.MatchString(f.Path) && f.MaxLen <= cellWidth {
			return f
		}
	}
	return nil
}

// lastOfKinds adds to r, per value of the kind field (kindField) held
// by two records or more, commonest first, the last record holding it
// (one among the collection's last records, the rows of the end already,
// is only returned: its row carries its members), at most maxLastKinds; extra keeps each row's text. It returns
// the records chosen.
func (k *coll) lastOfKinds(r *reason, extra func(int, []byte)) []int {
	kf := k.kindField()
	if kf == nil {
		return nil
	}
	n := k.c.Count
	vals := make([]*valState, 0, len(kf.vals))
	for _, vs := range kf.vals {
		if vs.n >= 2 && vs.lastAt > 0 && vs.lastAt < n && vs.lastRaw != nil {
			vals = append(vals, vs)
		}
	}
	sort.Slice(vals, func(a, b int) bool {
		if vals[a].n != vals[b].n {
			return vals[a].n > vals[b].n
		}
		return vals[a].key < vals[b].key
	})
	var out []int
	for _, vs := range vals {
		if len(out) >= maxLastKinds {
			break
		}
		i := vs.lastAt - 1
		if _, ok := r.text[i]; ok {
			continue
		}
		if i >= n-1-tailRows(k) {
			// A record among the last ones is a row of the end already
			// ("the end (3rd from last)": the rows after it say no
			// later record is of its kind): its members only.
			out = append(out, i)
			continue
		}
		if !lastKindRows {
			continue
		}
		extra(i, lastRecord(vs.lastRaw))
		r.recs = append(r.recs, i)
		r.text[i] = fmt.Sprintf("the last %s=%s", k.short(kf), cell(vs.key, 40))
		out = append(out, i)
	}
	return out
}

// restCell renders the members of record i that its row does not show
// (no column, not in its other cell, not a constant the profile states,
// not dropped by the rules, neither a copy nor a code of another field
// (dupcols.go: chromeRole.value's 96 for every heading), not opaque (a
// hash, as the rows leave out: an npm lock's integrity), not inside an array: the foot's query of a
// whole record shows those), as name=value in document order, each value
// cut at restValue characters with the cut counted, within restChars
// characters (restListChars in a list's row), the members left out counted; "" when there are none. A
// member the row's reasons name with its value (why: "has total=387")
// is not repeated.
func (k *coll) restCell(i int, why string) string {
	r := k.rows[i]
	if r == nil {
		return ""
	}
	shown := k.otherShown(i)
	limit := restChars
	if !k.stream() {
		// A list's last record is one end among its others (its
		// extremes, its rare rows): the members it is asked for come
		// first in its records (pg_stat's n_tup_upd), a few suffice.
		limit = restListChars
	}
	var parts []string
	size, more := 0, 0
	seen := map[*Field]bool{}
	k.p.leaves(r.raw, func(f *Field, v []byte) {
		if _, col := k.colIdx[f]; col || shown[f] || seen[f] || k.hidden(f) || f.Constant(k.p.Records) || emptyValue(v) ||
			k.dupOf[f] != nil || k.codeOf(f) != nil || k.opaque(f) {
			return
		}
		seen[f] = true
		if strings.Contains(why, k.short(f)+"=") {
			return
		}
		if f.inArr {
			return // (a member inside an array: its column or the foot's whole record says it)
		}
		s := k.short(f) + "=" + cell(string(v), restValue)
		if size+len(s) > limit {
			more++
			return
		}
		size += len(s) + 2
		parts = append(parts, s)
	})
	if len(parts) == 0 && more == 0 {
		return ""
	}
	out := strings.Join(parts, ", ")
	if more > 0 {
		out += fmt.Sprintf(" (+%d more members)", more)
	}
	return out
}

// otherShown returns the fields of otherCols the other cell of record
// i shows (otherCell: the first 4 it has, the rarest first).
func (k *coll) otherShown(i int) map[*Field]bool {
	r := k.rows[i]
	out := map[*Field]bool{}
	if r == nil || len(k.otherCols) == 0 {
		return out
	}
	has := map[*Field]bool{}
	k.p.leavesOf(r.raw, k.p.mask(k.otherCols...), func(f *Field, v []byte) {
		if !emptyValue(v) {
			has[f] = true
		}
	})
	var hs []*Field
	for _, f := range k.otherCols {
		if has[f] {
			hs = append(hs, f)
		}
	}
	sort.SliceStable(hs, func(a, b int) bool { return hs[a].Present < hs[b].Present })
	for _, f := range hs[:min(4, len(hs))] {
		out[f] = true
	}
	return out
}

// restLine is the line after the row of an end (record i) that carries
// the members its cells do not show (restCell), or "" when there are
// none: the record's number and identity, then the members. A line of
// its own, a candidate after the row's, so that the row fits a budget
// the members do not (a fio report's last job lost its row at 2,000
// tokens to its 200 characters of members).
func (k *coll) restLine(i int, why string) string {
	rest := k.restCell(i, why)
	if rest == "" {
		return ""
	}
	// The record by its number, as its row, and by its name (a map's
	// key, the identity's value), as a lookup asks for it.
	name := strconv.Itoa(i)
	if r := k.row(i); r != nil && r.ident != "" {
		switch {
		case k.p.Map:
			name += " (key " + cell(r.ident, 100) + ")"
		case k.p.Identity != nil:
			name += " (" + k.short(k.p.Identity) + "=" + cell(r.ident, 100) + ")"
		}
	}
	return "  " + name + ", its other members: " + rest
}
