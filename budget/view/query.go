package view

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The follow-up queries the view suggests. Each is written out in full,
// runnable as it stands: "compact artifact query HANDLE --jq 'FILTER'".
// An artifact query reads a stream of JSON values (JSON Lines,
// concatenated JSON) as one array, as jq -s does.

// jqCommand is the command line of a jq query over the artifact.
func jqCommand(handle, filter string) string {
	return "compact artifact query " + handle + " --jq " + ShellQuote(filter)
}

// fieldExpr is the jq expression of a profile path relative to a record.
func fieldExpr(path string) string {
	if path == "." {
		return "."
	}
	return "." + path
}

// iterExpr yields the records of c in an artifact query.
func iterExpr(c Collection) string {
	switch c.Kind {
	case "map":
		return c.Path + " | to_entries[]"
	case "jsonl", "concat":
		return ".[]"
	}
	if c.Path == "." {
		return ".[]"
	}
	return c.Path + "[]"
}

// restQuery is the filter that yields exactly the records of c not in
// shown (record positions; for a map, keys holds their keys).
func restQuery(c Collection, shown []int, keys []string) string {
	if len(shown) == 0 {
		if c.Kind == "jsonl" || c.Kind == "concat" {
			return "."
		}
		return c.Path
	}
	if c.Kind == "map" {
		qs := make([]string, len(keys))
		for i, k := range keys {
			qs[i] = jsonQuote(k)
		}
		sort.Strings(qs)
		return fmt.Sprintf("%s | del(.[%s])", c.Path, strings.Join(qs, ","))
	}
	sort.Ints(shown)
	var parts []string
	for i := 0; i < len(shown); {
		j := i
		for j+1 < len(shown) && shown[j+1] == shown[j]+1 {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf(".[%d:%d]", shown[i], shown[j]+1))
		} else {
			for x := i; x <= j; x++ {
				parts = append(parts, fmt.Sprintf(".[%d]", shown[x]))
			}
		}
		i = j + 1
	}
	del := "del(" + strings.Join(parts, ", ") + ")"
	switch {
	case c.Kind == "jsonl" || c.Kind == "concat" || c.Path == ".":
		return del
	case strings.Contains(c.Path, "[]"):
		return "[" + c.Path + "[]] | " + del
	}
	return c.Path + " | " + del
}

// lookupQuery is the filter that yields one record of c by its identity
// (for a map, by its key).
func lookupQuery(c Collection, p *Profile, ident string) string {
	if c.Kind == "map" {
		return fmt.Sprintf("%s[%s]", c.Path, jsonQuote(ident))
	}
	if p.Map {
		// Records keyed by their one member's name (KeyedByName).
		return fmt.Sprintf("%s | to_entries[] | select(.key == %s) | .value", iterExpr(c), jsonQuote(ident))
	}
	return fmt.Sprintf("%s | select(%s == %s)", iterExpr(c), fieldExprOf("", p.Identity), ident)
}

// wholeShown reports whether every line listing the members or items of
// a small collection whole is chosen.
func (k *coll) wholeShown(chosen []Candidate) bool {
	n := 0
	for _, c := range chosen {
		if c.Reason == reasonWhole {
			n++
		}
	}
	return n == k.whole
}

// foot is the end of a collection's section: what is not shown, with
// exact counts, and the queries that fetch exactly that.
func (k *coll) foot(chosen []Candidate) string {
	if k.whole > 0 && k.wholeShown(chosen) {
		return "" // every member or item is listed
	}
	h := k.in.Handle
	var shown []int
	var keys []string
	profiles := 0
	for _, c := range chosen {
		if c.Record >= 0 {
			shown = append(shown, c.Record)
			if k.p.Map {
				keys = append(keys, k.rows[c.Record].ident)
			}
		} else if c.Reason == "profile" && c.Key >= k.fieldKey && c.Key < k.fieldKeyEnd {
			profiles++
		}
	}
	var b strings.Builder
	if len(chosen) == 0 {
		// The bare view: the count and one query for everything.
		fmt.Fprintf(&b, "  get the records: %s\n", jqCommand(h, restQuery(k.c, nil, nil)))
		return b.String()
	}
	if rest := k.c.Count - len(shown); rest > 0 {
		fmt.Fprintf(&b, "  not shown: %s of %s records; get exactly them: %s\n", commas(rest), commas(k.c.Count), jqCommand(h, restQuery(k.c, shown, keys)))
		for _, pr := range k.probe {
			if slices.Contains(shown, pr.rec) || (k.p.Identity == nil && !k.p.Map) {
				continue
			}
			what := "its " + "key"
			if !k.p.Map {
				what = "its " + k.p.Identity.Path
			}
			fmt.Fprintf(&b, "  one record by %s: %s\n", what, jqCommand(h, lookupQuery(k.c, k.p, pr.ident)))
			break
		}
	}
	b.WriteString(k.valueFoot(chosen, shown))
	if n := k.nDropped(); n > 0 {
		fmt.Fprintf(&b, "  %s fields the registry's rules drop are left out of the profile and the rows\n", commas(n))
	}
	if n := k.nProfile() - profiles; n > 0 {
		fields := len(k.p.Fields)
		if k.p.root.Values > 0 && k.p.root.scalar() {
			fields++ // the records' own values (".")
		}
		fmt.Fprintf(&b, "  profile lines not shown: %s of %s fields; list every field: %s\n", commas(n), commas(fields), jqCommand(h, fieldsQuery(k.c, k.p.Map)))
	}
	if len(shown) > 0 && len(k.cols) < len(k.p.Fields) && !(len(k.cols) == 1 && k.cols[0] == k.p.root) {
		opaque := ""
		if len(k.opaqueCols) > 0 {
			var names []string
			for i, f := range k.opaqueCols {
				if i == 6 {
					names = append(names, fmt.Sprintf("%d more", len(k.opaqueCols)-i))
					break
				}
				names = append(names, f.Path)
			}
			opaque = "; left out as opaque (long, nearly every value distinct): " + strings.Join(names, ", ")
		}
		fmt.Fprintf(&b, "  rows show %s of %s fields (constants above%s); a whole record: %s\n", commas(len(k.cols)), commas(len(k.p.Fields)), opaque, jqCommand(h, oneRecordQuery(k.c, shown[0])))
	}
	if k.c.PinnedCount > 0 || k.c.PinStopped {
		pinShown := 0
		for _, c := range chosen {
			if strings.Contains(c.Reason, "pinned") {
				pinShown++
			}
		}
		if k.c.PinStopped {
			fmt.Fprintf(&b, "  pinned rows: %s shown of %s the pin predicate selected in the first %s records it tested before its deadline; it may select more of the %s; all of them: %s\n",
				commas(pinShown), commas(k.c.PinnedCount), commas(k.c.PinTested), commas(k.c.Count), jqCommand(h, pinQuery(k.c, k.p)))
		} else if pinShown < k.c.PinnedCount {
			fmt.Fprintf(&b, "  pinned rows: %s of %s shown; all of them: %s\n", commas(pinShown), commas(k.c.PinnedCount), jqCommand(h, pinQuery(k.c, k.p)))
		}
	}
	return b.String()
}

// nProfile is the number of profile lines of one field each the
// collection has.
func (k *coll) nProfile() int { return k.fieldLines }

// nDropped counts the fields the rules drop.
func (k *coll) nDropped() int {
	n := 0
	for _, f := range k.p.Fields {
		if k.dropped(f) {
			n++
		}
	}
	return n
}

// fieldsQuery lists every field path of c's records (keyed: the records
// are one-member objects keyed by a name, whose values are profiled).
func fieldsQuery(c Collection, keyed bool) string {
	it := iterExpr(c)
	if c.Kind == "map" {
		it += " | .value"
	} else if keyed {
		it += " | to_entries[] | .value"
	}
	return fmt.Sprintf(`[%s | paths | map(if type == "number" then "[]" else tostring end) | join(".")] | unique`, it)
}

// oneRecordQuery yields record i of c in full.
func oneRecordQuery(c Collection, i int) string {
	switch {
	case c.Kind == "map":
		return fmt.Sprintf("%s | to_entries[%d]", c.Path, i)
	case c.Kind == "jsonl" || c.Kind == "concat" || c.Path == ".":
		return fmt.Sprintf(".[%d]", i)
	case strings.Contains(c.Path, "[]"):
		return fmt.Sprintf("[%s[]] | .[%d]", c.Path, i)
	}
	return fmt.Sprintf("%s[%d]", c.Path, i)
}

// pinQuery yields every record the pin predicate selects, by identity
// when there is one.
func pinQuery(c Collection, p *Profile) string {
	pin := strings.TrimSpace(c.Pin)
	sel := "select(" + pin + ")"
	if strings.HasPrefix(pin, "select(") {
		sel = pin
	}
	if c.Kind == "map" {
		return fmt.Sprintf("%s | select(.value | %s) | .key", iterExpr(c), pin)
	}
	if p.Identity != nil {
		return fmt.Sprintf("%s | %s | %s", iterExpr(c), sel, fieldExprOf("", p.Identity))
	}
	return fmt.Sprintf("%s | %s", iterExpr(c), sel)
}

// jsonQuote writes s as a JSON (and jq) string literal.
func jsonQuote(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		return `"` + s + `"` // (json.Marshal's, which escapes none of its bytes)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return strconv.Quote(s)
	}
	return string(b)
}

// pinTotal states n pinned records of c: exactly, or "at least n" when
// the pin predicate stopped at its deadline before it tested every
// record (c.PinStopped), so that n counts only the records it tested.
func (c *Collection) pinTotal(n int) string {
	if c.PinStopped {
		return "at least " + commas(n)
	}
	return commas(n)
}

// pinStopNote says, when the pin predicate of c stopped at its deadline,
// how many of c's records it tested; it is empty when it tested them all.
func (c *Collection) pinStopNote() string {
	if !c.PinStopped {
		return ""
	}
	return fmt.Sprintf(" (stopped at its deadline after testing %s of %s records)", commas(c.PinTested), commas(c.Count))
}

// maxValueParts bounds the values valueFoot names; those past it are
// counted.
const maxValueParts = 4

// valueFoot says, of the values whose records a reason selects (a rare
// or error value: "state=NotReady (11 of 10,000)"), those whose records
// the rows show some of, not all, with how many of how many; and gives
// the query of exactly the others of the first of them (the records
// not shown that hold the value; any value likewise). The rows name a
// value's count, not how many of its records they show (final second
// read F4: 8 rows of 11 NotReady, nothing said, no query).
func (k *coll) valueFoot(chosen []Candidate, shown []int) string {
	var parts []string
	var first *valReason
	var firstShown []int // the records of first's value the rows show
	more := 0
	for _, r := range k.why {
		vr := r.val
		if vr == nil {
			continue
		}
		var in []int
		for _, c := range chosen {
			if c.Record < 0 {
				continue
			}
			if vr.has != nil && vr.has[c.Record] || vr.has == nil && k.rowValue(c.Record, vr.f) == vr.raw {
				in = append(in, c.Record)
			}
		}
		n := len(in)
		if n == 0 || n >= vr.total {
			continue
		}
		if first == nil {
			first, firstShown = vr, in
		}
		if len(parts) == maxValueParts {
			more++
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s of %s", vr.label, commas(n), commas(vr.total)))
	}
	if first == nil {
		return ""
	}
	if more > 0 {
		parts = append(parts, fmt.Sprintf("%s more values", commas(more)))
	}
	// The records with the value, but those the rows show (by their
	// positions: fewer than all the rows'). No map: a map's records are
	// no reasons' values (flag).
	sort.Ints(firstShown)
	pos := make([]string, len(firstShown))
	for i, r := range firstShown {
		pos[i] = strconv.Itoa(r)
	}
	base := k.c.Path + " | "
	switch {
	case k.c.Kind == "jsonl" || k.c.Kind == "concat" || k.c.Path == ".":
		base = ""
	case strings.Contains(k.c.Path, "[]"):
		base = "[" + k.c.Path + "[]] | "
	}
	q := fmt.Sprintf("%sto_entries | map(select((.value | (%s)?) == %s and (.key | IN(%s) | not)) | .value)", base, fieldExprOf("", first.f), jqLiteral(first.raw), strings.Join(pos, ", "))
	return fmt.Sprintf("  values whose records the rows show in part (shown of all): %s; the records of %s not shown (any value likewise): %s\n",
		strings.Join(parts, ", "), first.label, jqCommand(k.in.Handle, q))
}

// rowValue is the value (as written) of field f, outside arrays, in the
// record of row rec, or "" when it has none.
func (k *coll) rowValue(rec int, f *Field) string {
	k.valMu.Lock()
	defer k.valMu.Unlock()
	if vs, ok := k.rowVals[rec]; ok {
		return vs[f]
	}
	if k.rowVals == nil {
		k.rowVals = map[int]map[*Field]string{}
	}
	vs := map[*Field]string{}
	var fs []*Field
	for _, r := range k.why {
		if r.val != nil {
			fs = append(fs, r.val.f)
		}
	}
	if rw := k.rows[rec]; rw != nil && len(fs) > 0 {
		k.p.leavesOf(rw.raw, k.p.mask(fs...), func(g *Field, v []byte) {
			if _, seen := vs[g]; !seen {
				vs[g] = string(v)
			}
		})
	}
	k.rowVals[rec] = vs
	return vs[f]
}

// jqLiteral is a scalar as written in JSON (a string, a number, true,
// false, null) as a jq literal: a string written again (a JSON escape
// jq reads otherwise, "\/", is none then).
func jqLiteral(raw string) string {
	if strings.HasPrefix(raw, `"`) {
		var s string
		if err := json.Unmarshal([]byte(raw), &s); err == nil {
			return jsonQuote(s)
		}
	}
	return raw
}
