package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Extremes per value of a field of few values.
//
// "The largest file of type X", "the slowest test of package Y", "the
// total complexity of package Z": a number's one maximum (the profile
// line's) answers none of these, and the rows show a few records of each
// value at most. The tracker (rows.go) already follows, in the profile's
// one pass, every group candidate (a field of the records outside
// arrays, seen in the first record) while it has few values, and per
// value the count, the sum and the largest of every number of the
// record outside arrays (the measure candidates), with the first record
// holding it. So for a field of 2 to maxAnyGroupValues values that most
// records have, and each of its main numbers (a number of most records,
// of more than 5 values, neither an id, a place, a code nor a time
// stamp), the view states per value its records, the sum and the
// largest with the first record holding it, named by its identity
// (recName), in groupLines' words:
//
//	Complexity by PkgName: modfile 137 records sum 1363 max 78
//	((*File).SetRequireSeparateIndirect), module 50 records sum 310 max
//	25 (checkElem), ... (max: with the first record holding it)
//
// (groupLines' sums of the main state field, the same words without the
// largest, are then left out.) Exact: over every record of the value.
// The candidates named like a state or a kind are followed as before;
// of the others, the first maxAnyGroups members of the first record, each
// dropped once it has more than maxAnyGroupValues values (a name, a
// path: a few records' work) and summing only the first anyGroupMeasures
// numbers seen, so the work per record stays bounded (the cost check:
// costcheck.sh). At most maxGroupLines lines, fields named
// like a state or a kind first, then those of more records, fewer values
// (none when the records have no identity to name the largest by); of
// the others only labels (strings, booleans; not a text of over 40
// characters, nor a field most records leave null); at most
// groupValuesShown values a line, the commonest first.

// Limits of the lines of extremes per value.
const (
	maxAnyGroups      = 3  // group candidates not named like a state or a kind
	anyGroupMeasures  = 6  // the numbers (the first seen) such a candidate sums
	maxAnyGroupValues = 24 // values of such a candidate
	maxGroupLines     = 2  // lines in all
	groupMeasures     = 2  // numbers per field
	groupValuesShown  = 12 // values per line, the commonest first
)

// groupMaxLines are the lines of the extremes per value (see above), made
// while the tracker's sums are there.
func (k *coll) groupMaxLines() []string {
	t, p := k.t, k.p
	if t == nil || p.Map || p.Records < 6 || p.Identity == nil {
		// (with no identity the extremes name no record: the sums per
		// state are groupLines')
		return nil
	}
	type gcand struct {
		g     int
		f     *Field
		named bool
	}
	var gs []gcand
	for g, gf := range t.groups {
		if !t.gactive[g] || gf.Counts == nil || gf.Distinct < 2 || gf.Distinct > maxAnyGroupValues || gf.Distinct*2 > p.Records ||
			gf.Present*2 < p.Records || gf == p.Identity || k.hidden(gf) || k.dupOf[gf] != nil || len(t.sums[g]) < 2 {
			continue
		}
		if kindGroup(gf) && (k.c.Kind == "jsonl" || k.c.Kind == "concat") {
			continue // (its largest per kind: json_kinds.go)
		}
		named := stateNames.MatchString(gf.Path) || kindNames.MatchString(gf.Path)
		if !named && (gf.Types&^(tString|tBool|tNull) != 0 || gf.Nulls*2 >= gf.Present || gf.MaxLen > 40) {
			// A label, not a number (a column's offset), a field most
			// records leave null or a text.
			continue
		}
		gs = append(gs, gcand{g, gf, named})
	}
	sort.SliceStable(gs, func(i, j int) bool {
		a, b := gs[i], gs[j]
		if a.named != b.named {
			return a.named
		}
		if a.f.Present != b.f.Present {
			return a.f.Present > b.f.Present
		}
		return a.f.Distinct < b.f.Distinct
	})
	// The main numbers: of most records, several values, measures.
	var ms []int
	for m, mf := range t.measures {
		if mf == p.Identity || mf.ownNumbers() == 0 || mf.ownNumbers() != mf.Values-mf.Nulls || mf.Distinct <= 5 || mf.Present*2 < p.Records || k.hidden(mf) ||
			refNumber(mf.Path) || codeNumber(mf.Path) || timeStampNames.MatchString(mf.Path) || epochField(mf) || identityScore(mf.Path) >= 50 || k.dupOf[mf] != nil {
			continue
		}
		ms = append(ms, m)
	}
	sort.SliceStable(ms, func(i, j int) bool { return t.measures[ms[i]].Present > t.measures[ms[j]].Present })
	var out []string
	for _, gc := range gs {
		sums := t.sums[gc.g]
		keys := sumKeys(sums)
		shown := 0
		for _, m := range ms {
			if len(out) >= maxGroupLines || shown >= groupMeasures {
				break
			}
			mf := t.measures[m]
			if mf == gc.f {
				continue
			}
			held := 0
			for _, v := range keys {
				if s := sums[v]; m < len(s.has) && s.has[m] > 0 {
					held++
				}
			}
			if held < 2 {
				continue
			}
			var b strings.Builder
			fmt.Fprintf(&b, "  %s by %s:", mf.Path, gc.f.Path)
			n := 0
			var none []string
			for _, v := range keys {
				s := sums[v]
				name := v
				if u, err := strconv.Unquote(v); err == nil {
					name = u
				}
				if m >= len(s.has) || s.has[m] == 0 {
					none = append(none, cut(name, 30))
					continue
				}
				if n == groupValuesShown {
					fmt.Fprintf(&b, ", %d more values", held-n)
					break
				}
				if n > 0 {
					b.WriteByte(',')
				}
				n++
				fmt.Fprintf(&b, " %s %s records", cut(name, 40), commas(s.n))
				if s.has[m] < s.n {
					fmt.Fprintf(&b, " (%s have it)", commas(s.has[m]))
				}
				fmt.Fprintf(&b, " sum %s max %s%s", sumText(s.sum[m]), numExact(s.max[m]), k.recName(s.maxRec[m], s.maxRaw[m]))
			}
			if len(none) > 0 && len(none) <= 4 {
				fmt.Fprintf(&b, "; no record of %s has it", strings.Join(none, ", "))
			}
			b.WriteString(" (max: with the first record holding it)")
			out = append(out, b.String())
			shown++
			if gc.f == k.group {
				// (its sums alone, groupLines', are said here)
				if k.groupMaxOf == nil {
					k.groupMaxOf = map[*Field]bool{}
				}
				k.groupMaxOf[mf] = true
			}
		}
	}
	return out
}

// recName is " (X)": record rec (its text raw) by its identity (a
// number with its field's name), or "". Each record is read once.
func (k *coll) recName(rec int, raw []byte) string {
	if rec < 0 || raw == nil {
		return ""
	}
	id, ok := k.holderIDs[rec]
	if !ok {
		id = k.identOf(raw)
		if k.holderIDs == nil {
			k.holderIDs = map[int]string{}
		}
		k.holderIDs[rec] = id
	}
	if id == "" {
		return ""
	}
	if id[0] == '-' || id[0] >= '0' && id[0] <= '9' {
		// A number names no record for a reader without its name:
		// "(id 1288)".
		if _, err := strconv.ParseFloat(id, 64); err == nil && k.p.Identity != nil && !k.p.Map {
			id = k.p.Identity.Path + " " + id
		}
	}
	return " (" + cell(id, 60) + ")"
}

// sumKeys returns the values of a group's sums, most records first, then
// by name.
func sumKeys(sums map[string]*gsum) []string {
	keys := make([]string, 0, len(sums))
	for v := range sums {
		keys = append(keys, v)
	}
	sort.Slice(keys, func(i, j int) bool {
		if sums[keys[i]].n != sums[keys[j]].n {
			return sums[keys[i]].n > sums[keys[j]].n
		}
		return keys[i] < keys[j]
	})
	return keys
}
