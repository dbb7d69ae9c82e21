package view

import (
	"bytes"
	"fmt"
	"slices"
)

// Duplicate columns: two fields that hold the same value in every record
// (a repository's stargazers_count and watchers_count, an alarm's
// DatapointsToAlarm and EvaluationPeriods, a pod's creationTimestamp and
// startTime) are stated once: the later one's profile line says whose
// values it repeats, and rows leave it out. Fields whose profiles differ
// cannot be duplicates, so only fields with equal profiles are compared,
// by the fingerprints of their values per record that the profile's pass
// sums (Field.recSum): no second walk over the records.

// maxDupFields caps the fields compared.
const maxDupFields = 32

// findDuplicates sets k.dupOf: for each field that repeats an earlier
// field's value in every record, that earlier field.
func (k *coll) findDuplicates() {
	p := k.p
	if p.Records < 2 {
		return
	}
	var cand []*Field
	for _, f := range p.Fields {
		if f.scalar() && !f.inArr && !k.dropped(f) && f.Distinct >= 2 && f.Values == f.Present && !f.Constant(p.Records) {
			cand = append(cand, f)
		}
	}
	if p.Map && !p.keyless {
		// A member holding its record's own key (a coverage map's
		// path under the same path) is stated once: the key.
		for _, f := range cand {
			if f.Types == tString && f.Present == p.Records && f.recSum == p.keySum {
				if k.dupOf == nil {
					k.dupOf = map[*Field]*Field{}
				}
				k.dupOf[f] = keyField
			}
		}
	}
	type pair struct{ a, b *Field }
	var pairs []pair
	for i, a := range cand {
		for _, b := range cand[i+1:] {
			if sameProfile(a, b) {
				pairs = append(pairs, pair{a, b})
			}
		}
	}
	if len(pairs) == 0 {
		return
	}
	var fs []*Field
	seen := map[*Field]bool{}
	for _, pr := range pairs {
		for _, f := range []*Field{pr.a, pr.b} {
			if !seen[f] && len(fs) < maxDupFields {
				seen[f] = true
				fs = append(fs, f)
			}
		}
	}
	idx := map[*Field]int{}
	for i, f := range fs {
		idx[f] = i
	}
	alive := make([]bool, len(pairs))
	for i, pr := range pairs {
		_, okA := idx[pr.a]
		_, okB := idx[pr.b]
		alive[i] = okA && okB
	}
	// The fields' fingerprints, summed in the profile's pass, say
	// whether two hold the same value in every record: no second walk.
	left := 0
	for i, pr := range pairs {
		alive[i] = alive[i] && pr.a.recSum == pr.b.recSum
		if alive[i] {
			left++
		}
	}
	if left == 0 {
		return
	}
	// Fields equal to one another form groups; the shallowest (then the
	// first) names the group: metadata.namespace, not a label that
	// repeats it.
	group := map[*Field]*Field{}
	var find func(f *Field) *Field
	find = func(f *Field) *Field {
		if g, ok := group[f]; ok && g != f {
			r := find(g)
			group[f] = r
			return r
		}
		return f
	}
	better := func(a, b *Field) bool {
		da, db := len(pathSegments(a.Path)), len(pathSegments(b.Path))
		if da != db {
			return da < db
		}
		return a.first < b.first
	}
	for i, pr := range pairs {
		if !alive[i] {
			continue
		}
		ra, rb := find(pr.a), find(pr.b)
		if ra == rb {
			continue
		}
		if better(rb, ra) {
			ra, rb = rb, ra
		}
		group[ra], group[rb] = ra, ra
	}
	if k.dupOf == nil {
		k.dupOf = map[*Field]*Field{}
	}
	for f := range group {
		if r := find(f); r != f {
			k.dupOf[f] = r
		}
	}
}

// keyField stands for a keyed record's key in dupOf: the field it maps
// to holds its record's key.
var keyField = &Field{Path: "the key"}

// sameProfile reports whether two fields' profiles agree in every number
// (a necessary condition for the same value in every record).
func sameProfile(a, b *Field) bool {
	if a.Types != b.Types || a.Present != b.Present || a.Values != b.Values || a.Nulls != b.Nulls ||
		a.Distinct != b.Distinct || a.ManyDistinct != b.ManyDistinct || a.MaxLen != b.MaxLen ||
		a.NumN != b.NumN || a.Min != b.Min || a.Max != b.Max || a.Sum != b.Sum ||
		a.TimeN != b.TimeN || a.earliestText != b.earliestText || a.latestText != b.latestText {
		return false
	}
	if a.Counts != nil || b.Counts != nil {
		return sameValues(a, b)
	}
	return true
}

// dupLine is the profile line of a field that repeats another's values.
func (k *coll) dupLine(f *Field) string {
	in := ""
	if f.Present < k.p.Records {
		in = fmt.Sprintf(", in %s of %s records", commas(f.Present), commas(k.p.Records))
	}
	return fmt.Sprintf("  %s (%s%s): the same value as %s in every record", f.Path, joinTypes(f), in, k.dupOf[f].Path)
}

func joinTypes(f *Field) string {
	var b bytes.Buffer
	for i, t := range f.TypeNames() {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(t)
	}
	return b.String()
}

// codeOf returns the string field whose values number f's one for one
// (a CDP node's chromeRole.value 144, 158, ... beside its role.value
// RootWebArea, StaticText, ...), or nil: f is a number with few values,
// and another field, a string, has as many values in the same records,
// each value as often as one of f's, first held by the same records
// (as far as the profile kept them). Rows, the index and the reasons
// show the string, not its code.
func (k *coll) codeOf(f *Field) *Field {
	if k.codes == nil {
		k.codes = map[*Field]*Field{}
		for _, a := range k.p.Fields {
			// A code takes few values, each held by several records:
			// numbers that are all (or mostly) distinct (a benchmark's
			// means beside its commands) are measures, whatever
			// string they pair with one for one.
			if a.Types != tNumber || a.vals == nil || a.Distinct < 2 || a.Distinct*2 > a.Values || a.inArr {
				continue
			}
			for _, b := range k.p.Fields {
				if b.Types == tString && b.vals != nil && b.Distinct == a.Distinct && b.Present == a.Present && b.Values == a.Values && !b.inArr && sameRecords(a, b) {
					k.codes[a] = b
					break
				}
			}
		}
	}
	return k.codes[f]
}

// sameRecords reports whether each value of a is held by the same
// records (count and first records kept) as some value of b.
func sameRecords(a, b *Field) bool {
	type sig struct {
		n     int
		first int
	}
	bs := map[sig][]*valState{}
	for _, vs := range b.vals {
		bs[sig{vs.n, vs.first}] = append(bs[sig{vs.n, vs.first}], vs)
	}
	for _, va := range a.vals {
		ok := false
		for _, vb := range bs[sig{va.n, va.first}] {
			if slices.Equal(va.recs, vb.recs) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
