package view

import (
	"fmt"
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
	for _, raw := range sortedKeys(tag.vals) {
		vs := tag.vals[raw]
		if vs.n != 1 || len(vs.recs) != 1 || shown == maxOneOff {
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
		type kv struct{ path, val string }
		var kvs []kv
		p.leaves(rr, func(f *Field, val []byte) {
			if f != tag && f.scalar() && !f.inArr && len(kvs) < 40 {
				kvs = append(kvs, kv{f.Path, cell(string(val), 80)})
			}
		})
		var b strings.Builder
		fmt.Fprintf(&b, "  the only record with %s=%s (record %s):", tag.Path, cell(raw, 40), commas(rec))
		for i, x := range kvs {
			if b.Len()+len(x.path)+len(x.val) > oneOffWidth {
				fmt.Fprintf(&b, " … %d more", len(kvs)-i)
				break
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s=%s", x.path, x.val)
		}
		v.Add(Candidate{Section: sec, Key: -900_000 + shown, Record: -1, Prio: PrioProfile, Reason: "a one-off record", Text: b.String()})
		shown++
	}
}
