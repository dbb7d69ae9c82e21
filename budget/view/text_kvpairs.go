package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Values that are themselves lists of fields: redis-cli INFO writes
// "cmdstat_set:calls=4003,usec=690,usec_per_call=0.17,rejected_calls=0,
// failed_calls=0" for each command, "errorstat_ERR:count=6" for each
// error, "db0:keys=10,expires=1,avg_ttl=599897" for each database. Read
// as whole values they are all distinct and say nothing; read as
// fields, the entries that share the same field names are the rows of a
// table (the entry's name, then one column per field), and the view
// states each column over every row, exactly: a number's sum (of whole
// numbers), its largest and smallest values with the entries that hold
// them, and for a column that is mostly 0 the entries where it is not;
// a text's values with their counts.

const (
	pairMinRows  = 2  // entries of one field list needed for a table
	pairMaxLists = 6  // field lists stated
	pairNonZero  = 10 // entries named where a mostly-0 column is not 0
	pairAllRows  = 6  // rows of a table small enough to state every value
)

// pairFields splits a value written "k=v,k=v,..." into its field names
// and values; ok is false for any other value.
func pairFields(v string) (keys, vals []string, ok bool) {
	if !strings.Contains(v, "=") || strings.ContainsAny(v, " \t") {
		return nil, nil, false
	}
	for _, p := range strings.Split(v, ",") {
		k, x, found := strings.Cut(p, "=")
		if !found || k == "" || !isIdentLike(k) {
			return nil, nil, false
		}
		keys = append(keys, k)
		vals = append(vals, x)
	}
	return keys, vals, true
}

// isIdentLike reports whether s is a field name: letters, digits, _ . -
// starting with a letter or _.
func isIdentLike(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z':
		case i > 0 && (isDigitByte(c) || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return s != ""
}

// pairLines are the tables of the entries whose values are field lists,
// one line each, largest table first: "  entries whose value is calls=…
// ,usec=…,… (50: cmdstat_…): calls: sum 75018, max 16000
// (cmdstat_lrange), min 1 (cmdstat_xlen); ...; failed_calls: 0 in 42,
// not 0 in 8: cmdstat_incr 1, ...". Empty when the entries are a sample.
func (s *kvStats) pairLines() []string {
	if s.sample() {
		return nil
	}
	type row struct {
		name string
		vals []string
	}
	type table struct {
		keys []string
		rows []row
	}
	bySig := map[string]*table{}
	var order []*table
	for _, e := range s.kept {
		if e.long {
			continue
		}
		keys, vals, ok := pairFields(e.val)
		if !ok {
			continue
		}
		sig := strings.Join(keys, ",")
		t := bySig[sig]
		if t == nil {
			t = &table{keys: keys}
			bySig[sig] = t
			order = append(order, t)
		}
		t.rows = append(t.rows, row{e.key, vals})
	}
	sort.SliceStable(order, func(i, j int) bool { return len(order[i].rows) > len(order[j].rows) })
	var out []string
	for _, t := range order {
		if len(out) == pairMaxLists || len(t.rows) < pairMinRows {
			break
		}
		names := make([]string, len(t.rows))
		for i, r := range t.rows {
			names[i] = r.name
		}
		var cols []string
		for c, k := range t.keys {
			vals := make([]string, len(t.rows))
			for i, r := range t.rows {
				vals[i] = r.vals[c]
			}
			cols = append(cols, k+": "+pairColumn(names, vals))
		}
		form := make([]string, len(t.keys))
		for i, k := range t.keys {
			form[i] = k + "=…"
		}
		who := commonNameStart(names)
		if who != "" {
			who = ": " + who + "…"
		}
		out = append(out, fmt.Sprintf("  entries whose value is %s (%s%s; exact, over every one): %s",
			strings.Join(form, ","), commas(len(t.rows)), who, strings.Join(cols, "; ")))
	}
	return out
}

// pairColumn states one column of a field list's table: numbers by
// their sum (whole numbers), extremes and the entries where a mostly-0
// column is not 0; other values by count.
func pairColumn(names, vals []string) string {
	nums := make([]float64, len(vals))
	whole := true
	for i, v := range vals {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return valueCounts(countOf(vals), len(vals), 6)
		}
		nums[i] = f
		if strings.ContainsAny(v, ".eE") {
			whole = false
		}
	}
	zeros := 0
	for _, f := range nums {
		if f == 0 {
			zeros++
		}
	}
	if zeros == len(vals) {
		return "0 in all"
	}
	if 2*zeros >= len(vals) {
		var parts []string
		for i, f := range nums {
			if f != 0 {
				if len(parts) == pairNonZero {
					parts = append(parts, fmt.Sprintf("and %s more", commas(len(vals)-zeros-pairNonZero)))
					break
				}
				parts = append(parts, names[i]+" "+vals[i])
			}
		}
		return fmt.Sprintf("0 in %s, not 0 in %s: %s", commas(zeros), commas(len(vals)-zeros), strings.Join(parts, ", "))
	}
	hi, lo := 0, 0
	var sum float64
	for i, f := range nums {
		sum += f
		if f > nums[hi] {
			hi = i
		}
		if f < nums[lo] {
			lo = i
		}
	}
	s := ""
	if whole {
		s = "sum " + strconv.FormatFloat(sum, 'f', -1, 64) + ", "
	}
	if len(vals) <= pairAllRows {
		// A small table: every row's value, largest first.
		idx := make([]int, len(vals))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return nums[idx[a]] > nums[idx[b]] })
		parts := make([]string, len(idx))
		for k, i := range idx {
			parts[k] = names[i] + " " + vals[i]
		}
		return s + strings.Join(parts, ", ")
	}
	return s + fmt.Sprintf("max %s (%s), min %s (%s)", vals[hi], names[hi], vals[lo], names[lo])
}

// countOf counts the values of vals.
func countOf(vals []string) map[string]int {
	m := map[string]int{}
	for _, v := range vals {
		m[v]++
	}
	return m
}

// commonNameStart is the start every name shares, up to and with its
// last "_", "." or "-" (or "" when they share none).
func commonNameStart(names []string) string {
	if len(names) == 0 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, p) {
			p = p[:len(p)-1]
		}
	}
	if i := strings.LastIndexAny(p, "_.-"); i >= 0 {
		return p[:i+1]
	}
	return ""
}

// pairValued reports whether most entries of a value count are field
// lists.
func pairValued(vals map[string]int) bool {
	n, all := 0, 0
	for v, c := range vals {
		all += c
		if _, _, ok := pairFields(v); ok {
			n += c
		}
	}
	return 2*n > all
}
