package view

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The holders of a rare value.
//
// "Which URLs returned 404?", "which pods are Pending?", "which
// packages are Apache-2.0?": a profile line counts a field's
// values ("code (number): 200 523, 501 12, 404 5"), and a value few
// records hold is asked by its records, which rows show only in part
// (one of the five 404s is a row). A value held by 2 to maxHolders
// records (the one record of a value is a row of its own: a rare
// value's), of a field of states, kinds or codes (named so: status,
// type, code, level, license, ...) or of booleans, or a value that says
// an error, and by at most a quarter as many as the field's commonest
// value (rareShare), is stated with its holders (a label's or a
// version's few records are no kind the user asks by), named by the
// collection's holder field (holderField: its name, else its identity
// when it is a name, else the most name-like string of the records, a
// request's url):
//
//	code (number): 200 523, 501 12, 404 5
//	the 5 records with code=404, their url in order: http://h/wp-login.php, http://h/.env, ...
//
// A line of its own, shown after the field's, chosen with the values
// rare among many (PrioRare2: after the rows of the first rounds and the
// index of a small collection, before the index of a big one): a view
// too small for it keeps the counts and the rows. A measure's value
// (10 reactions) is no kind of record: never named.
//
// The holders are the records the profile's pass kept for the value
// (valState.recs: every record of a value of at most maxPerWhy, with
// its text): no record is read again but those, and only when the
// field has few values (at most 24, the values a profile line lists).
// The holders' names must differ (a file's name for each of its blocks
// names none of them); at most maxHolderValues values of a field (the
// rarest) and maxRareHolderLines in all. A set of holders is named once: the error message of the same five
// records says "404 File not found 5" only.

// maxHolders is the most records holding a value for the profile line to
// name them.
const maxHolders = 8

// minHolderRecords is the fewest records a collection has for its rare
// values to be named by their holders (a smaller one is mostly shown
// whole, and holderName names the one holder of a value in a few).
const minHolderRecords = 12

// maxHolderValues is the most values of one field named by their
// holders (the rarest), and maxRareHolderLines the most of a collection.
const (
	maxHolderValues    = 3
	maxRareHolderLines = 12
)

// rareShare is how many times a value's count the field's commonest
// value's count is at least, for the value to be rare: 404 5 beside 200
// 523 is; 7 8 beside 1 9 (a tag's values evenly spread) is not.
const rareShare = 4

// holderWidth is the characters of a holder's name before it is cut.
const holderWidth = 100

// urlNames are names of fields holding where a record points (a
// request's url, a file's path): long strings without spaces that name
// the record to a reader, not opaque hashes.
var urlNames = mustPathRe(`(?i)(^|[._])(url|uri|href|link|target|path|file|filename|filepath|location|dest|src|source|host|endpoint|route|query)$`)

// holderField returns the field that names the holders of rare values:
// the name field of records with a number identity (nameField), a
// string identity named like a name or an id, else the most name-like
// string field of the records themselves (in nine in ten records or
// more, half its values distinct, an eighth when named like a URL or a
// path, at most 1.6 holderWidth long, no time, no
// free text, no hash unless named like a URL or a path), else the
// identity; nil when there is none.
func (k *coll) holderField() *Field {
	p := k.p
	if nf := k.nameField(); nf != nil && names(nf) {
		return nf
	}
	id := p.Identity
	if id != nil && !names(id) {
		id = nil
	}
	if id != nil && id.Types == tString && identityScore(id.Path) >= 50 {
		return id
	}
	var best *Field
	bestScore := 0
	for _, f := range p.Fields {
		url := urlNames.MatchString(f.Path)
		if f.inArr || f.Types != tString || k.hidden(f) || f.Present*10 < p.Records*9 || f.MaxLen*5 > 8*holderWidth ||
			!(names(f) || url && f.Distinct*8 >= f.Values) || f.TimeN > 0 || freeText(f) {
			continue
		}
		if k.opaque(f) && !url {
			continue
		}
		score := identityScore(f.Path)
		if url {
			score += 30
		}
		if score > bestScore {
			best, bestScore = f, score
		}
	}
	if best != nil && (id == nil || bestScore >= 30) {
		return best
	}
	return id
}

// names reports whether f's values name records: half of them distinct
// or more (a file's name repeated for each of its blocks does not).
func names(f *Field) bool {
	return f.ManyDistinct || f.Distinct*2 >= f.Values
}

// nameHolders names the holders of each rare value of the fields with
// few values (see above), from the records the tracker kept: run after
// selectRows, while k.t holds them.
func (k *coll) nameHolders() {
	p, t := k.p, k.t
	if t == nil || p.Records < minHolderRecords {
		return
	}
	var hf *Field
	if !p.Map {
		if hf = k.holderField(); hf == nil {
			return
		}
	}
	var mask []bool
	if hf != nil {
		mask = p.mask(hf)
	}
	k.nameMaxHolders()
	named := map[string]bool{}
	lines := 0
	for _, f := range p.Fields {
		kindOf := f.Types == tBool || codeNumber(f.Path) || stateNames.MatchString(f.Path) || kindNames.MatchString(f.Path) || groupNames.MatchString(f.Path)
		if f.Types&tNumber != 0 && !kindOf {
			continue // a measure's values are no kinds of records
		}
		if f == hf || f == p.Identity || f.inArr || k.hidden(f) || f.vals == nil || f.Types&(tArray|tObject) != 0 ||
			len(f.vals) < 2 || len(f.vals) > 24 || f.Distinct >= f.Values || k.dupOf[f] != nil || f.ownNumbers() > 0 && refNumber(f.Path) {
			continue
		}
		top := 0
		for _, vs := range f.vals {
			top = max(top, vs.n)
		}
		// The rarest values first (then in the order sortedKeys
		// gives), at most maxHolderValues of the field.
		var keys []string
		for _, key := range sortedKeys(f.vals) {
			vs := f.vals[key]
			if vs.n >= 2 && vs.n <= maxHolders && vs.n*rareShare <= top && !vs.noRecs && len(vs.recs) == vs.n && key != "null" && (kindOf || vs.errWord > 0) {
				keys = append(keys, key)
			}
		}
		sort.SliceStable(keys, func(a, b int) bool { return f.vals[keys[a]].n < f.vals[keys[b]].n })
		done := 0
		for _, key := range keys {
			vs := f.vals[key]
			if done == maxHolderValues || lines == maxRareHolderLines {
				break
			}
			sig := fmt.Sprint(vs.recs)
			if named[sig] {
				continue
			}
			names := make([]string, 0, vs.n)
			for _, i := range vs.recs {
				raw, ok := t.raws[i]
				if !ok {
					break
				}
				name := ""
				if hf == nil {
					name = mapKey(raw)
				} else {
					p.leavesOf(raw, mask, func(g *Field, v []byte) {
						if g == hf && name == "" {
							name = cell(string(v), holderWidth)
						}
					})
				}
				if name == "" {
					break
				}
				names = append(names, name)
			}
			if len(names) != vs.n || len(slices.Compact(slices.Sorted(slices.Values(names)))) != vs.n {
				continue // (names that repeat name no record: a file of many blocks)
			}
			named[sig] = true
			done++
			lines++
			if k.holders == nil {
				k.holders = map[*valState]*holderLine{}
			}
			what := "key"
			if hf != nil {
				what = k.short(hf)
			}
			text := fmt.Sprintf("  the %d records with %s=%s, their %s in order: %s", vs.n, f.Path, cell(key, 40), what, strings.Join(names, ", "))
			k.holders[vs] = &holderLine{text: text}
		}
	}
}

// reasonHolders is the reason of a line naming a rare value's holders.
const reasonHolders = "holders"

// holderLine is the line naming the holders of one rare value.
type holderLine struct {
	text string
	// key is its candidate's key, right after its field's line
	// (addProfile); listed, that the index lists the value's records
	// by name already (addValueGroups): then it is not added.
	key    int
	listed bool
}

// holderLines returns the lines naming the holders of the rare values
// of f (nameHolders), its values' order: most common first.
func (k *coll) holderLines(f *Field) []*holderLine {
	if k.holders == nil || f.vals == nil {
		return nil
	}
	var out []*holderLine
	for _, vc := range f.sortedCounts() {
		if vs := f.vals[vc.k]; vs != nil && k.holders[vs] != nil {
			out = append(out, k.holders[vs])
		}
	}
	return out
}

// addHolders adds the holder lines (after the index, which may list
// some values' records: those are not repeated), each after its field's
// line, chosen with the values rare among many (PrioRare2).
func (k *coll) addHolders(v *View) {
	var hs []*holderLine
	for _, h := range k.holders {
		if !h.listed && h.key != 0 {
			hs = append(hs, h)
		}
	}
	sort.Slice(hs, func(a, b int) bool { return hs[a].key < hs[b].key })
	for _, h := range hs {
		v.Add(Candidate{Section: k.sec, Key: h.key, Record: -1, Prio: PrioRare2, Reason: reasonHolders, Text: h.text})
	}
}

// maxNamesWidth is the most characters of the names of a max's
// holders (nameMaxHolders); longer, the first is named alone.
const maxNamesWidth = 120

// nameMaxHolders names, for each number field whose largest value two
// or three records hold (holderMost) and whose values are counted, every
// one of them by its identity (recName), from the records the tracker
// kept for the value: "max 2800 (2 records: test-zstd-fast,
// test-zstd-slow)", where "the first of 2" named one.
func (k *coll) nameMaxHolders() {
	p, t := k.p, k.t
	for _, f := range p.Fields {
		if f.vals == nil || f.maxN < 2 || f.maxN > holderMost || f.inArr || f.NumStrings > 0 || f == p.Identity {
			continue
		}
		for _, vs := range f.vals {
			if vs.st.fl&stNum == 0 || vs.st.x != f.Max {
				continue
			}
			if vs.noRecs || len(vs.recs) != vs.n || vs.n != f.maxN {
				break
			}
			var ids []string
			for _, i := range vs.recs {
				id := strings.TrimSuffix(strings.TrimPrefix(k.recName(i, t.raws[i]), " ("), ")")
				if id == "" {
					break
				}
				ids = append(ids, id)
			}
			if all := strings.Join(ids, ", "); len(ids) == vs.n && len(all) <= maxNamesWidth {
				if k.maxNames == nil {
					k.maxNames = map[*Field]string{}
				}
				k.maxNames[f] = all
			}
			break
		}
	}
}
