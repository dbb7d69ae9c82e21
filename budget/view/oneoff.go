package view

import (
	"fmt"
	"sort"
	"strings"
)

// One-off records of an event stream. A stream of several record types
// told apart by a tag (rg --json: begin, match, context, end and one
// summary; a test runner's events; a build's steps and its result)
// often ends with one record of its own type that sums up the run: the
// summary's totals (matches, bytes searched, the time taken) are facts
// about the whole output, asked for as such. A record whose tag value
// is held by it alone is stated whole, its scalar members with their
// values, with the profile's important lines.

// maxOneOff is the most one-off records stated; oneOffWidth the
// characters of one's line.
const (
	maxOneOff   = 3
	oneOffWidth = 1200
)

// addOneOffRecords adds the lines stating the records whose tag value
// no other record has.
func addOneOffRecords(v *View, k *coll, sec int) {
	p := k.p
	if p.Map || p.Records < 20 {
		return
	}
	var tag *Field
	for _, f := range p.Fields {
		if f.parent == p.root && f.Types == tString && f.Present == p.Records && f.Counts != nil &&
			f.Distinct >= 2 && f.Distinct <= 12 && stateNames.MatchString(f.Path) && f.vals != nil {
			tag = f
			break
		}
	}
	if tag == nil {
		return
	}
	shown := 0
	var more []string // one-off values past maxOneOff
	for _, raw := range sortedKeys(tag.vals) {
		vs := tag.vals[raw]
		if vs.n != 1 || len(vs.recs) != 1 {
			continue
		}
		if shown == maxOneOff {
			more = append(more, cell(raw, 40))
			continue
		}
		rec := vs.recs[0]
		var rr []byte
		if r := k.rows[rec]; r != nil {
			rr = r.raw
		} else {
			// Read again: a walk to it (a summary is often last).
			_ = k.eachRecord(func(i int, raw []byte) error { // rows.go
				if i == rec {
					rr = append([]byte(nil), raw...)
					return errStop
				}
				return nil
			})
		}
		if rr == nil {
			continue
		}
		// Every member of the record, read from its text (not only the
		// fields the profile holds): scalars by their dot paths, lists
		// by their sizes.
		kvs, total := recordMembers(rr, tag.name, oneOffMembers)
		var b strings.Builder
		fmt.Fprintf(&b, "  the only record with %s=%s (record %s):", tag.Path, cell(raw, 40), commas(rec))
		n := 0
		for i, x := range kvs {
			if b.Len()+len(x) > oneOffWidth {
				break
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(" " + x)
			n++
		}
		if n < total {
			fmt.Fprintf(&b, " … %d more members; the whole record: %s", total-n, jqCommand(k.in.Handle, oneRecordQuery(k.c, rec)))
		}
		v.Add(Candidate{Section: sec, Key: -900_000 + shown, Record: -1, Prio: PrioProfile, Reason: "a one-off record", Text: b.String()})
		shown++
	}
	if len(more) > 0 {
		// No silent loss: the other one-off records are named, with
		// the query that lists them.
		v.Add(Candidate{Section: sec, Key: -900_000 + shown, Record: -1, Prio: PrioProfile2, Reason: "a one-off record",
			Text: fmt.Sprintf("  %d more records with a %s of their own, not stated: %s; get them: %s", len(more), tag.Path, strings.Join(more, ", "),
				jqCommand(k.in.Handle, fmt.Sprintf("[%s | select(%s | IN(%s))]", iterExpr(k.c), fieldExpr(tag.Path), strings.Join(quotedAll(more, tag), ", "))))})
	}
}

// oneOffMembers is the most members of a one-off record read into its
// line; past it they are only counted.
const oneOffMembers = 400

// recordMembers returns the members of the JSON object rec as
// "path=value" (scalars, dot paths through nested objects, values cut at
// 80 characters) and "path: N items" (arrays), in document order, without
// the member skip, at most max of them, and how many there are in all.
func recordMembers(rec []byte, skip string, max int) (out []string, total int) {
	var walk func(s *jscan, prefix string)
	walk = func(s *jscan, prefix string) {
		s.members(func(name string, raw []byte) {
			if prefix == "" && name == skip {
				return
			}
			label := name
			if !plainName(name) {
				label = jsonQuote(name)
			}
			label = prefix + label
			switch {
			case len(raw) > 0 && raw[0] == '{':
				walk(&jscan{d: raw}, label+".")
				return
			case len(raw) > 0 && raw[0] == '[':
				total++
				if len(out) < max {
					n := 0
					(&jscan{d: raw}).elements(func([]byte) { n++ })
					out = append(out, fmt.Sprintf("%s: %d items", label, n))
				}
			default:
				total++
				if len(out) < max {
					out = append(out, label+"="+cell(string(raw), 80))
				}
			}
		})
	}
	walk(&jscan{d: rec}, "")
	return out, total
}

// quotedAll is the JSON texts of the values of field f the cells vals
// show (each a cell of one of f's values): the values themselves.
func quotedAll(vals []string, f *Field) []string {
	var out []string
	for raw := range f.vals {
		for _, c := range vals {
			if cell(raw, 40) == c {
				out = append(out, raw)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}
