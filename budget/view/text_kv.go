package view

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Texts of key/value lines: one setting a line, spelled one way
// throughout (perl's config.sh name='value', env and go env NAME=value,
// git config -l key=value, sysctl -a key = value, apt-config dump
// key "value";, /proc/meminfo Key: value, cpp -dM #define NAME value).
// Read as a list of lines they say little; split at their separator they
// are a table of two columns, names and values, and the view states
// (exactly, over every entry):
//
//   - the number of entries and of distinct names;
//   - the values with their counts, most frequent first ('define' 521,
//     'undef' 159, '' 108), and how many values stand in one entry only;
//   - the names by their first part ("d_… 562", "net.ipv4.… 224",
//     "Acquire + Acquire::… 68") and by a shared start ("use… 33"), and
//     for the largest of these groups their values with counts (d_…:
//     'define' 395, 'undef' 150);
//   - the longest values, by name, with their lengths;
//
// then as many entries as fit: the names of the values shared by many
// entries, grouped by value (a value once, then its names), and the
// other entries as written, in an even spread over the text; then the
// number of entries not shown and a query for one of them by name.
//
// Detection is conservative: at least kvMinEntries lines of the first
// 4,000 are entries of one spelling, at least 90% of the lines that are
// not blank or comments, and most names are distinct (a log of
// key=value pairs repeats its keys on every line: it stays a log).

// textKV is the kind of a text of key/value lines.
const textKV = "key/value lines"

// kvForm is a spelling of key/value lines.
type kvForm int

const (
	kvNone   kvForm = iota
	kvEq            // NAME=value, name='value' (env, go env, git config -l, perl config.sh)
	kvSpaced        // key = value (sysctl -a)
	kvQuoted        // key "value"; (apt-config dump)
	kvColon         // Key: value (/proc/meminfo)
	kvDefine        // #define NAME value (cpp -dM)
	kvTight         // name:value (redis-cli INFO), the name one word
	kvArrow         // Name => value (php -i), "Name => local => master" with its second value once when the same
	kvMetric        // name{labels} value (Prometheus' text exposition, /proc/vmstat): text_kvmetric.go
)

const (
	kvMinEntries = 8     // entries needed to call a text key/value lines
	kvMaxKept    = 20000 // entries kept for the view (then an even sample) and for name groups
	kvMaxValues  = 4096  // distinct values counted exactly
	kvValueLen   = 200   // values longer than this are not counted by value (their lengths are)
	kvGroupLen   = 60    // values up to this long with kvGroupMin entries are shown with their names grouped
	kvGroupMin   = 3
	kvChunk      = 24  // names per line of a value's group
	kvWidth      = 120 // an entry is shown cut to this many characters
)

// describe names the spelling for the view.
func (f kvForm) describe() string {
	switch f {
	case kvEq:
		return `name=value (split at the first "=")`
	case kvSpaced:
		return `name = value (split at the first " = ")`
	case kvQuoted:
		return `name "value"; (the value between the quotes)`
	case kvColon:
		return `Name: value (split at the first ":")`
	case kvDefine:
		return `#define NAME value`
	case kvTight:
		return `name:value (split at the first ":")`
	case kvArrow:
		return `Name => value (split at the first " => "; "Name => A => A", a local and a master value that are the same, is read as the value A)`
	case kvMetric:
		return `name{labels} value (metric samples: a name, its labels if any, a number)`
	}
	return ""
}

// split splits a line of this spelling into its name and its value as
// written (quotes kept, white space around it removed).
func (f kvForm) split(line string) (key, val string, ok bool) {
	if f != kvDefine {
		line = strings.TrimLeft(line, " \t") // an indented list of settings (python -m sysconfig)
	}
	switch f {
	case kvEq:
		// export -p, declare -p: "declare -x HOME=\"/root\""
		line = strings.TrimPrefix(strings.TrimPrefix(line, "export "), "declare -x ")
		if line == "" || !(line[0] == '_' || isAlnumByte(line[0]) && !isDigitByte(line[0])) {
			return "", "", false
		}
		for i := 1; i < len(line) && i <= 200; i++ {
			c := line[i]
			switch {
			case c == '=':
				v := line[i+1:]
				// perl -V:name writes name='value'; with a final ';'
				if n := len(v); n >= 3 && v[n-1] == ';' && (v[0] == '\'' || v[0] == '"') && v[n-2] == v[0] {
					v = v[:n-1]
				}
				return line[:i], v, true
			case isAlnumByte(c) || strings.IndexByte("_.-/@:", c) >= 0:
			default:
				return "", "", false
			}
		}
	case kvSpaced:
		i := strings.Index(line, " =")
		if i <= 0 || i > 200 || strings.IndexAny(line[:i], " \t=") >= 0 || strings.IndexByte("#;!/", line[0]) >= 0 {
			return "", "", false
		}
		rest := line[i+2:]
		if rest != "" && rest[0] != ' ' {
			return "", "", false
		}
		return line[:i], strings.TrimSpace(rest), true
	case kvQuoted:
		i := strings.IndexByte(line, ' ')
		if i <= 0 || !strings.HasSuffix(line, `";`) || len(line) < i+4 || line[i+1] != '"' || strings.IndexByte("#;/", line[0]) >= 0 {
			return "", "", false
		}
		return line[:i], line[i+1 : len(line)-1], true
	case kvColon:
		if line == "" || !(line[0]|0x20 >= 'a' && line[0]|0x20 <= 'z') {
			return "", "", false
		}
		i := strings.IndexByte(line, ':')
		if i <= 0 || i > 60 {
			return "", "", false
		}
		for j := 0; j < i; j++ {
			if c := line[j]; !isAlnumByte(c) && strings.IndexByte(" \t_-.()/", c) < 0 {
				return "", "", false
			}
		}
		rest := line[i+1:]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return "", "", false // "http://", "12:30"
		}
		key = strings.TrimRight(line[:i], " \t")
		if strings.Count(key, " ") > 3 {
			return "", "", false // a sentence, not a name
		}
		if len(key) == 1 && key[0] >= 'A' && key[0] <= 'Z' {
			return "", "", false // "E: ", "W: ", "I: " (apt, lintian): a level's tag, not a name
		}
		for _, w := range strings.Fields(key) {
			if w != key && strings.Trim(w, "0123456789") == "" {
				return "", "", false // "line 12: ...": numbered lines, not names
			}
			if strings.HasPrefix(w, "0x") && len(w) > 2 {
				return "", "", false // "by 0x1FF12D: main": an address, not a name
			}
		}
		return key, strings.TrimSpace(rest), true
	case kvTight:
		// redis-cli INFO: "used_memory:2171592", "db0:keys=10,expires=1";
		// a name of one word (letters, digits, _ . - |) that starts with
		// a letter, the value right after the colon: not a URL
		// ("http://"), a time ("12:30"), a drive ("C:\\") nor "Key: value".
		i := strings.IndexByte(line, ':')
		if i <= 0 || i > 80 || !(line[0]|0x20 >= 'a' && line[0]|0x20 <= 'z') || i == 1 {
			return "", "", false
		}
		for j := 1; j < i; j++ {
			if c := line[j]; !isAlnumByte(c) && strings.IndexByte("_.-|", c) < 0 {
				return "", "", false
			}
		}
		rest := line[i+1:]
		if rest == "" || rest[0] == ' ' || rest[0] == '\t' || strings.HasPrefix(rest, "//") {
			return "", "", false
		}
		return line[:i], strings.TrimRight(rest, " \t"), true
	case kvArrow:
		// phpinfo()'s text: "memory_limit => 128M => 128M" (a local
		// and a master value), "PHP Version => 8.2.7", a name of a few
		// words; not indented, not a PHP array's "[key] => value".
		i := strings.Index(line+" ", " => ")
		if i <= 0 || i > 80 || line[0] == ' ' || line[0] == '\t' || line[0] == '[' {
			return "", "", false
		}
		val = ""
		if i+4 <= len(line) {
			val = strings.TrimSpace(line[i+4:])
		}
		if a, b, ok := strings.Cut(val, " => "); ok && a == b {
			val = a
		}
		return line[:i], val, true
	case kvMetric:
		return splitMetric(line)
	case kvDefine:
		rest, found := strings.CutPrefix(line, "#define ")
		if !found || rest == "" || rest[0] == ' ' {
			return "", "", false
		}
		end := strings.IndexByte(rest, ' ')
		if p := strings.IndexByte(rest, '('); p >= 0 && (end < 0 || p < end) {
			if q := strings.IndexByte(rest, ')'); q > p {
				end = q + 1
				if end >= len(rest) {
					end = -1
				}
			}
		}
		if end < 0 {
			return rest, "", true
		}
		return rest[:end], strings.TrimSpace(rest[end:]), true
	}
	return "", "", false
}

// kvComment reports whether a line is a comment among key/value lines.
// A section header of an ini file ("[core]") counts as one.
func kvComment(line string) bool {
	s := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "#define ") || strings.HasPrefix(s, ";") || strings.HasPrefix(s, "//") ||
		strings.HasPrefix(s, "[") && strings.HasSuffix(strings.TrimRight(s, " \t"), "]")
}

var kvForms = []kvForm{kvEq, kvSpaced, kvQuoted, kvDefine, kvColon, kvTight, kvArrow, kvMetric}

// detectKV returns the spelling of a text of key/value lines, or kvNone.
// Only plain lines or blank-line-separated blocks can be (python -m
// sysconfig's "Variables:" block, npm config ls -l's sections): not a
// log, a test report, a diff; records of fields repeat their names, so
// those stay records.
func detectKV(data []byte, kind string) kvForm {
	if kind != textPlain && kind != textFields && kind != textBlocks {
		return kvNone
	}
	var hits [kvMetric + 1]int
	keys := make([]map[string]bool, kvMetric+1)
	described := map[string]int{} // comment lines "# WORD name ..." by the name they describe
	for _, f := range kvForms {
		keys[f] = map[string]bool{}
	}
	lines, comments := 0, 0
	arrowFields := map[int]int{} // kvArrow's lines by their count of words split at spaces
	colons := map[int]int{}      // lines by their count of colons (records of fields split at ':')
	sampleLines(data, func(line string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		if kvComment(line) {
			comments++
			if _, name, _, ok := metricAnnotation(line); ok {
				described[name]++
			}
			return
		}
		lines++
		colons[strings.Count(line, ":")]++
		for _, f := range kvForms {
			if k, _, ok := f.split(line); ok {
				hits[f]++
				keys[f][k] = true
				if f == kvArrow {
					arrowFields[len(strings.Fields(line))]++
				}
			}
		}
	})
	best := kvNone
	for _, f := range kvForms {
		if hits[f] > hits[best] {
			best = f
		}
	}
	n := hits[best]
	if best == kvMetric {
		// The lines that describe a family of samples ("# TYPE
		// node_load1 gauge" before "node_load1 0.21") are part of the
		// data, not comments around it.
		bases := map[string]bool{}
		for k := range keys[kvMetric] {
			bases[metricBase(k)] = true
		}
		for name, c := range described {
			if bases[name] || hasBasePrefix(bases, name) {
				comments -= c
			}
		}
	}
	least := 9 // tenths of the lines that must be entries
	if best == kvArrow {
		// " => " is a separator no prose writes: phpinfo()'s module
		// names, lists continued on their own lines and its license
		// text are a fifth of its lines.
		least = 7
		// A table whose rows hold "=>" as one of their columns
		// (ldconfig -p: "libz.so.1 (libc6,x86-64) => /lib/…/libz.so.1",
		// every row 4 words) is a table: its columns are profiled and
		// indexed as columns. phpinfo()'s lines have no one word count
		// (names and values of several words; 45% of its lines at most).
		// Lines of three words ("name => value") stay key/value lines.
		for words, c := range arrowFields {
			if words >= 4 && c*10 >= hits[kvArrow]*9 {
				return kvNone
			}
		}
	}
	if best == kvNone || n < kvMinEntries || n*10 < lines*least || comments > n {
		return kvNone
	}
	if 10*len(keys[best]) < 6*n {
		return kvNone // names repeat: a log or records of key/value lines
	}
	if best == kvTight || best == kvColon {
		// Lines that split at ':' into the same five cells or more, nine
		// in ten (/etc/passwd's "root:x:0:0:root:/root:/bin/bash"), are
		// records of fields, a table's rows (text_split.go's
		// detectDelimited), not a name and its value (rev17 R10).
		for c, m := range colons {
			if c >= 4 && m*10 >= lines*9 {
				return kvNone
			}
		}
	}
	return best
}

// kvEntry is one entry kept for the view.
type kvEntry struct {
	pos  int
	key  string
	val  string // the value as written, "" for a value longer than kvValueLen
	long bool   // the value is longer than kvValueLen
	text string // the line, cut to kvWidth
}

// kvLong is one of the longest values.
type kvLong struct {
	pos int
	key string
	n   int // characters
}

// kvStats is the profile of key/value lines (one pass, bounded memory).
type kvStats struct {
	form     kvForm
	entries  int
	other    int            // lines that are not blank and not entries (comments, headers)
	keys     map[string]int // entries per name, while at most kvMaxKept names
	keysCap  bool
	vals     map[string]int // entries per value (values up to kvValueLen)
	valsCap  int            // entries whose value was past kvMaxValues distinct values
	longVals int            // entries whose value is longer than kvValueLen
	distinct map[uint64]struct{}
	empty    int
	longest  []kvLong // the 5 longest values, longest first
	kept     []kvEntry
	stride   int // kept holds every stride-th entry
	// done: name groups (sep, groups) over kept, when kept is every entry
	sep    string
	groups []kvGroup
	deep   []kvGroup
	metric *metricStats // families of metric samples (text_kvmetric.go), or nil
	// allGroups: items groups every value shared by kvGroupMin entries,
	// not only the 32 most frequent (the index by value of a table,
	// text_valindex.go).
	allGroups bool
	// groupChunk is the names of a value per item (0: kvChunk).
	groupChunk int
}

// kvGroup is a group of names: those that start with part (and the name
// part minus its separator itself, when bare is set).
type kvGroup struct {
	part string
	bare bool // the name without the separator is an entry too
	n    int
	vals map[string]int
}

func newKVStats(f kvForm) *kvStats {
	s := &kvStats{form: f, keys: map[string]int{}, vals: map[string]int{}, distinct: map[uint64]struct{}{}, stride: 1}
	if f == kvMetric {
		s.metric = newMetricStats()
	}
	return s
}

// add counts one non-blank line.
func (s *kvStats) add(pos int, line string) {
	k, v, ok := s.form.split(line)
	if !ok {
		s.other++
		if s.metric != nil {
			s.metric.comment(line)
		}
		return
	}
	if s.metric != nil {
		s.metric.sample(pos, k, v, line)
	}
	i := s.entries
	s.entries++
	if _, seen := s.keys[k]; seen {
		s.keys[k]++
	} else if len(s.keys) < kvMaxKept {
		s.keys[strings.Clone(k)] = 1
	} else {
		s.keysCap = true
	}
	if len(s.distinct) < maxDistinctTracked {
		s.distinct[hashString(v)] = struct{}{}
	}
	if s.emptyValue(v) {
		s.empty++
	}
	e := kvEntry{pos: pos, key: k}
	n := utf8.RuneCountInString(v)
	if n > kvValueLen {
		s.longVals++
		e.long = true
	} else {
		e.val = v
		if _, seen := s.vals[v]; seen {
			s.vals[v]++
		} else if len(s.vals) < kvMaxValues {
			s.vals[strings.Clone(v)] = 1
		} else {
			s.valsCap++
		}
	}
	if len(s.longest) < 5 || n > s.longest[len(s.longest)-1].n {
		l := kvLong{pos, strings.Clone(k), n}
		s.longest = append(s.longest, l)
		sort.SliceStable(s.longest, func(a, b int) bool { return s.longest[a].n > s.longest[b].n })
		if len(s.longest) > 5 {
			s.longest = s.longest[:5]
		}
	}
	if i%s.stride != 0 {
		return
	}
	e.key = strings.Clone(e.key)
	e.val = strings.Clone(e.val)
	if s.form == kvArrow {
		line = k + " => " + v // a repeated master value once, as the form's description says
	}
	e.text = strings.Clone(cut(line, kvWidth))
	s.kept = append(s.kept, e)
	if len(s.kept) == kvMaxKept {
		half := s.kept[:0]
		for j, x := range s.kept {
			if j%2 == 0 {
				half = append(half, x)
			}
		}
		s.kept = half
		s.stride *= 2
	}
}

// emptyValue reports whether v is an empty value as written: nothing,
// ” or "".
func (s *kvStats) emptyValue(v string) bool {
	return v == "" || v == "''" || v == `""`
}

// sample reports whether kept is a sample (more than kvMaxKept entries).
func (s *kvStats) sample() bool { return s.stride > 1 }

// onlyExtension reports whether the one dot of name's last path part
// starts a file's extension of one to five letters or digits at its end
// ("budget/check.go", "README.md"): such a dot does not part a name
// (file(1)'s "path: type" lines are listed by "/", not by "."), while
// sysctl's "vm.swappiness" and "net.ipv4.ip_forward" are parted by it.
func onlyExtension(name string) bool {
	last := name[strings.LastIndexByte(name, '/')+1:]
	i := strings.IndexByte(last, '.')
	if i <= 0 || i != strings.LastIndexByte(last, '.') {
		return false
	}
	ext := last[i+1:]
	if ext == "" || len(ext) > 5 {
		return false
	}
	for _, c := range ext {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// done finds the names' separator and groups.
func (s *kvStats) done() {
	if s.sample() || s.entries == 0 {
		return
	}
	// The separator: the one most names contain ("::" before ".").
	best, bestN := "", 0
	for _, sep := range []string{"::", ".", "/", "_", "-"} {
		n := 0
		for k, c := range s.keys {
			if strings.Contains(k, sep) && !(sep == "." && onlyExtension(k)) {
				n += c
			}
		}
		if n > bestN && 5*n >= s.entries {
			best, bestN = sep, n
		}
	}
	s.sep = best
	byPart := map[string]*kvGroup{}
	var order []*kvGroup
	addPart := func(part string, e kvEntry) {
		g := byPart[part]
		if g == nil {
			g = &kvGroup{part: part, vals: map[string]int{}}
			byPart[part] = g
			order = append(order, g)
		}
		g.n++
		if !e.long && len(g.vals) < kvMaxValues {
			g.vals[e.val]++
		}
	}
	if best != "" {
		for _, e := range s.kept {
			// the first and the first two parts, each with the
			// separator (separators that open the name belong to its
			// first part: "__DBL_" of __DBL_MAX__)
			lead := 0
			for strings.HasPrefix(e.key[lead:], best) {
				lead += len(best)
			}
			if i := strings.Index(e.key[lead:], best); i > 0 {
				i += lead
				addPart(e.key[:i+len(best)], e)
				if j := strings.Index(e.key[i+len(best):], best); j > 0 {
					addPart(e.key[:i+len(best)+j+len(best)], e)
				}
			}
		}
	}
	// Shared starts of names by their letters ("use…" of usethreads,
	// usemymalloc), the same groups a column of names states.
	cs := &colStat{values: s.keys}
	for _, g := range cs.sharedParts(false) {
		if byPart[g.part] != nil || best != "" && strings.HasSuffix(g.part, best) {
			continue
		}
		covered := false // a part group of as many entries says it already
		for _, o := range order {
			if strings.HasPrefix(g.part, o.part) && o.n == g.rows {
				covered = true
			}
		}
		if covered {
			continue
		}
		for _, e := range s.kept {
			if strings.HasPrefix(e.key, g.part) {
				addPart(g.part, e)
			}
		}
	}
	// The name without the separator is under it too ("Acquire" of
	// "Acquire::http"): counted with the group, said so.
	bare := map[string][]*kvGroup{}
	for _, g := range order {
		if best != "" && strings.HasSuffix(g.part, best) {
			if b := strings.TrimSuffix(g.part, best); s.keys[b] > 0 {
				bare[b] = append(bare[b], g)
			}
		}
	}
	if len(bare) > 0 {
		for _, e := range s.kept {
			for _, g := range bare[e.key] {
				g.bare = true
				g.n++
				if !e.long && len(g.vals) < kvMaxValues {
					g.vals[e.val]++
				}
			}
		}
	}
	for _, g := range order {
		if g.n < 2 {
			continue
		}
		if best != "" && strings.Count(strings.TrimLeft(g.part, best), best) == 2 {
			s.deep = append(s.deep, *g)
		} else {
			s.groups = append(s.groups, *g)
		}
	}
	bySize := func(gs []kvGroup) {
		sort.SliceStable(gs, func(i, j int) bool {
			if gs[i].n != gs[j].n {
				return gs[i].n > gs[j].n
			}
			return gs[i].part < gs[j].part
		})
	}
	bySize(s.groups)
	bySize(s.deep)
	// A group of two parts holding every name of its first part says
	// nothing more.
	var deep []kvGroup
	for _, g := range s.deep {
		lead := len(g.part) - len(strings.TrimLeft(g.part, best))
		parent := g.part[:lead+strings.Index(g.part[lead:], best)+len(best)]
		if p := byPart[parent]; p != nil && p.n == g.n {
			continue
		}
		deep = append(deep, g)
	}
	s.deep = deep
}

// label is how a group is written: "d_…", "Acquire + Acquire::…".
func (g kvGroup) label(sep string) string {
	if g.bare {
		return strings.TrimSuffix(g.part, sep) + " + " + g.part + "…"
	}
	return g.part + "…"
}

// shownValue writes a value as the view lists it.
func shownValue(v string) string {
	if v == "" {
		return "(empty)"
	}
	return cut(v, 60)
}

// valueCounts writes "v1 n1, v2 n2, ..." for at most max values of m
// that are in at least 2 entries, and what is left.
func valueCounts(m map[string]int, total, max int) string {
	vs, _ := byCount(m)
	var parts []string
	shown := 0
	for i, x := range vs {
		if i == max || x.n < 2 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", shownValue(x.k), commas(x.n)))
		shown += x.n
	}
	s := strings.Join(parts, ", ")
	if rest := total - shown; rest > 0 {
		if s != "" {
			s += "; "
		}
		s += "other entries " + commas(rest)
	}
	return s
}

// kvFacts are the profile lines of key/value lines, in fill order.
func (s *kvStats) facts() []string {
	var out []string
	head := fmt.Sprintf("key/value lines: %s entries, one a line, written %s", commas(s.entries), s.form.describe())
	if !s.keysCap {
		head += fmt.Sprintf("; %s distinct names", commas(len(s.keys)))
	}
	if s.other > 0 {
		head += fmt.Sprintf("; %s other lines (comments, headers)", commas(s.other))
	}
	out = append(out, head)
	if !s.keysCap && len(s.keys) < s.entries {
		var dup []string
		ks, _ := byCount(s.keys)
		for i, x := range ks {
			if x.n < 2 || i == 12 {
				break
			}
			dup = append(dup, fmt.Sprintf("%s %s", x.k, commas(x.n)))
		}
		out = append(out, fmt.Sprintf("names in more than one entry (entries each): %s", strings.Join(dup, ", ")))
	}
	// Values.
	vs, _ := byCount(s.vals)
	single := 0
	for _, x := range vs {
		if x.n == 1 {
			single++
		}
	}
	vl := fmt.Sprintf("values by count (as written; exact counts of entries): %s", valueCounts(s.vals, s.entries, 16))
	vl += fmt.Sprintf("; %s distinct values", commas(len(s.distinct)))
	if single > 0 {
		vl += fmt.Sprintf(", %s of them in one entry each", commas(single))
	}
	if s.empty > 0 {
		vl += fmt.Sprintf("; empty values: %s", commas(s.empty))
	}
	if s.longVals > 0 {
		vl += fmt.Sprintf("; %s values longer than %d characters not counted by value", commas(s.longVals), kvValueLen)
	}
	if s.valsCap > 0 {
		vl += fmt.Sprintf("; %s entries past the first %s distinct values not counted by value", commas(s.valsCap), commas(kvMaxValues))
	}
	out = append(out, vl)
	if s.sample() {
		out = append(out, fmt.Sprintf("names not grouped: more than %s entries", commas(kvMaxKept)))
		return out
	}
	groupLine := func(what string, gs []kvGroup) string {
		var parts []string
		for i, g := range gs {
			if i == 24 {
				parts = append(parts, fmt.Sprintf("%s more groups", commas(len(gs)-24)))
				break
			}
			parts = append(parts, fmt.Sprintf("%s %s", g.label(s.sep), commas(g.n)))
		}
		return fmt.Sprintf("names by %s (exact counts of entries): %s", what, strings.Join(parts, ", "))
	}
	if len(s.groups) > 0 {
		what := "a shared start"
		if s.sep != "" {
			what = fmt.Sprintf("their first part (up to %q) or a shared start", s.sep)
		}
		out = append(out, groupLine(what, s.groups))
	}
	if len(s.deep) > 0 {
		out = append(out, groupLine(fmt.Sprintf("their first two parts (up to the second %q)", s.sep), s.deep))
	}
	return out
}

// crossLines are the values of the largest name groups: "  d_… (562
// entries): 'define' 395, 'undef' 150; 17 other entries".
// The first kvFirstCross groups of one part and kvFirstCross/2 of two
// are stated first (first true), the others after some entries.
func (s *kvStats) crossLines() (lines []string, first []bool) {
	for d, gs := range [][]kvGroup{s.groups, s.deep} {
		k := 0
		for i, g := range gs {
			if i == 12 || g.n < 5 {
				break
			}
			top, _ := byCount(g.vals)
			if len(top) == 0 || top[0].n < 2 || len(top) == g.n {
				continue // every value its own: nothing to count
			}
			if pairValued(g.vals) {
				continue // fields of a table: pairLines states them
			}
			lines = append(lines, fmt.Sprintf("  %s (%s entries): %s", g.label(s.sep), commas(g.n), valueCounts(g.vals, g.n, 8)))
			first = append(first, k < kvFirstCross>>d)
			k++
		}
	}
	return lines, first
}

// kvFirstCross is the number of name groups whose values are stated
// before any entry.
const kvFirstCross = 4

// longLine names the longest values.
func (s *kvStats) longLine() string {
	if len(s.longest) == 0 || s.longest[0].n == 0 {
		return ""
	}
	var parts []string
	for _, l := range s.longest {
		if l.n == 0 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s characters, line %d)", l.key, commas(l.n), l.pos))
	}
	return "longest values: " + strings.Join(parts, ", ")
}

// tellingWords are words in names of settings that say what the whole
// text describes rather than one of its parts.
var tellingWords = []string{"version", "release", "arch", "platform"}

// kvMaxTelling bounds the entries shown first for their names.
const kvMaxTelling = 16

// telling are the entries whose names say what the whole describes (its
// version, release, architecture, platform), at most kvMaxTelling, the
// shortest names first (the version of the whole before the version of
// one of its parts).
func (s *kvStats) telling() []kvEntry {
	var out []kvEntry
	for _, e := range s.kept {
		k := strings.ToLower(e.key)
		ok := false
		for _, w := range tellingWords {
			if strings.Contains(k, w) {
				ok = true
			}
		}
		if ok {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].key) < len(out[j].key) })
	return out[:min(len(out), kvMaxTelling)]
}

// kvItem is one candidate of the entries: a line of names sharing a value,
// or one entry as written.
type kvItem struct {
	value string // the shared value ("" for one entry)
	group bool
	vrank int // the value's rank among the grouped values
	chunk int // which kvChunk names of the value
	first int // the index of its first name among the value's names
	total int // entries with the value
	ents  []kvEntry
	order float64 // its place in the even spread
}

// items are the entries as candidates, in fill order: values shared by
// at least kvGroupMin entries as lines of names, the rest one entry a
// line, each list in an even spread, merged so that each advances at the
// same pace.
func (s *kvStats) items(skip map[int]bool) []kvItem {
	vs, _ := byCount(s.vals)
	grouped := map[string]int{}
	for _, x := range vs {
		if x.n >= kvGroupMin && utf8.RuneCountInString(x.k) <= kvGroupLen && (len(grouped) < 32 || s.allGroups) {
			grouped[x.k] = len(grouped)
		}
	}
	byVal := make([][]kvEntry, len(grouped))
	var singles []kvEntry
	for _, e := range s.kept {
		if r, ok := grouped[e.val]; ok && !e.long {
			byVal[r] = append(byVal[r], e) // every name of the value, so the line's count is the value's
		} else if !skip[e.pos] {
			singles = append(singles, e)
		}
	}
	var out []kvItem
	spread := func(n int, fn func(rank, i int)) {
		if n == 0 {
			return
		}
		ord := []int{0}
		if n > 1 {
			ord = append(ord, n-1)
		}
		ord = append(ord, spreadOrder(n, n)...)
		seen := map[int]bool{}
		for r, i := range ord {
			if !seen[i] {
				seen[i] = true
				fn(r, i)
			}
		}
		for i := 0; i < n; i++ { // spreadOrder may stop short of n
			if !seen[i] {
				fn(len(seen), i)
				seen[i] = true
			}
		}
	}
	// Each list (the names of one shared value, the other entries)
	// advances through its entries in an even spread at a pace set by
	// what an entry of it costs to show (bytes per entry): at any point
	// each list has had a share of the view in proportion to its
	// entries, and a list of short names shows more of them.
	values := make([]string, len(grouped))
	for v, r := range grouped {
		values[r] = v
	}
	chunk := kvChunk
	if s.groupChunk > 0 {
		chunk = s.groupChunk
	}
	for r, es := range byVal {
		nc := (len(es) + chunk - 1) / chunk
		cost := 0
		for _, e := range es {
			cost += len(e.key) + 1
		}
		per := (float64(cost) + float64(nc*(len(values[r])+24))) / float64(len(es))
		spread(nc, func(rank, c int) {
			ents := es[c*chunk : min(len(es), (c+1)*chunk)]
			out = append(out, kvItem{value: values[r], group: true, vrank: r, chunk: c, first: c * chunk, total: len(es), ents: ents,
				order: (float64(rank) + 0.5) / float64(nc) * per})
		})
	}
	ns := len(singles)
	cost := 0
	for _, e := range singles {
		cost += len(e.text) + 3
	}
	per := float64(cost) / float64(max(ns, 1))
	spread(ns, func(rank, i int) {
		out = append(out, kvItem{ents: singles[i : i+1], order: (float64(rank) + 0.5) / float64(ns) * per})
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].order < out[j].order })
	return out
}

// text is an item's line.
func (it kvItem) text(sep string) string {
	if !it.group {
		return "  " + it.ents[0].text
	}
	names := make([]string, len(it.ents))
	for i, e := range it.ents {
		names[i] = e.key
	}
	first := it.first
	join := " "
	if slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, " ") }) {
		join = ", " // names of words (phpinfo()'s "IPv6 Support")
	}
	return fmt.Sprintf("  %s (names %d-%d of %s): %s", shownValue(it.value), first+1, first+len(it.ents), commas(it.total), strings.Join(names, join))
}

// query is the jq filter that reads the entry named key (over the text's
// lines as compact artifact query reads them).
func (f kvForm) query(key string) string {
	k := jqString(key)
	switch f {
	case kvEq:
		return fmt.Sprintf(`.[] | select(ltrimstr("export ") | ltrimstr("declare -x ") | startswith(%s))`, jqString(key+"="))
	case kvSpaced:
		return fmt.Sprintf(`.[] | select(startswith(%s) or . == %s)`, jqString(key+" = "), jqString(key+" ="))
	case kvQuoted:
		return fmt.Sprintf(`.[] | select(startswith(%s))`, jqString(key+` "`))
	case kvDefine:
		return fmt.Sprintf(`.[] | select(startswith(%s) or . == %s)`, jqString("#define "+key+" "), jqString("#define "+key))
	case kvTight:
		return fmt.Sprintf(`.[] | select(startswith(%s))`, jqString(key+":"))
	case kvMetric:
		return fmt.Sprintf(`.[] | select(startswith(%s))`, jqString(key+" "))
	case kvArrow:
		return fmt.Sprintf(`.[] | select(startswith(%s) or . == %s)`, jqString(key+" => "), jqString(key+" =>"))
	}
	return fmt.Sprintf(`.[] | select((split(":")[0] | rtrimstr(" ") | rtrimstr("\t")) == %s)`, k)
}

// kvCandidates adds the candidates of key/value lines: the profile
// (PrioFact, PrioProfile) and the entries (PrioSpread).
func (tc *textCands) kvCandidates(add func(sec, key, rec int, reason, text string), setPrio func(int), tail map[int]bool) {
	s := tc.p.kv
	if s.metric != nil {
		tc.metricCandidates(add, setPrio) // text_kvmetric.go
		return
	}
	setPrio(PrioFact)
	for i, f := range s.facts() {
		add(tsFacts, 100+i, -1, "key/value profile", f)
	}
	setPrio(PrioProfile)
	cross, first := s.crossLines()
	for i, l := range cross {
		if first[i] {
			add(tsKV, i, -1, "values of a name group", l)
		}
	}
	for i, l := range s.pairLines() {
		add(tsFacts, 150+i, -1, "fields of values", l) // text_kvpairs.go
	}
	if l := s.longLine(); l != "" {
		add(tsFacts, 200, -1, "longest values", l)
	}
	// Entries that name what the text describes (its version, release,
	// architecture, platform), first, as written.
	setPrio(PrioRare)
	skip := map[int]bool{}
	for p := range tail {
		skip[p] = true
	}
	names := s.nameListing()
	for _, e := range s.telling() {
		if names && strings.Count(e.key, s.sep) > 2 {
			continue // a setting of one of many parts (an interface's), in the listing
		}
		if !skip[e.pos] {
			skip[e.pos] = true
			add(tsKVEntries, e.pos, e.pos, "entry that names the whole", "  "+e.text)
		}
	}
	tc.kvLines = map[int][]int{}
	if names {
		// Every entry once, grouped by its name's parts, in line order
		// (text_kvnames.go), in place of names by value and entries as
		// written: the index of a dump of settings, read by name,
		// before the values of the smaller name groups.
		setPrio(PrioIndex)
		lines := s.nameLines()
		for _, l := range lines {
			tc.kvNames += len(l.pos)
		}
		for _, i := range nameOrder(len(lines)) {
			tc.kvLines[-1-i] = lines[i].pos
			add(tsKVNames, i, -1, "entries by name", lines[i].text)
		}
	}
	setPrio(PrioSecond)
	for i, l := range cross {
		if !first[i] {
			add(tsKV, i, -1, "values of a name group", l)
		}
	}
	if names {
		return
	}
	setPrio(PrioSpread)
	for _, it := range s.items(skip) {
		if it.group {
			key := it.vrank*1000000 + it.chunk
			pos := make([]int, len(it.ents))
			for j, e := range it.ents {
				pos[j] = e.pos
			}
			tc.kvLines[key] = pos
			add(tsKVGroups, key, -1, "names of a shared value", it.text(s.sep))
			continue
		}
		add(tsKVEntries, it.ents[0].pos, it.ents[0].pos, "entry", it.text(s.sep))
	}
}

// kvHead is the header of the sections of key/value lines.
func (tc *textCands) kvHead(k int, cs []Candidate) string {
	if tc.p.kv != nil && tc.p.kv.metric != nil {
		return tc.metricHead(k, cs)
	}
	switch k {
	case tsKV:
		return "values of the largest name groups (exact counts of entries):\n"
	case tsKVGroups:
		n := 0
		for _, c := range cs {
			for _, p := range tc.kvLines[c.Key] {
				tc.shown[p] = true
				n++
			}
		}
		return fmt.Sprintf("names by their value (a value shared by %d entries or more, then names that have it, in line order; showing %s names):\n", kvGroupMin, commas(n))
	case tsKVEntries:
		return fmt.Sprintf("entries as written (an even spread; showing %s):\n", commas(len(cs)))
	case tsKVNames:
		n := 0
		for _, c := range cs {
			for _, p := range tc.kvLines[-1-c.Key] {
				tc.shown[p] = true
				n++
			}
		}
		sep := tc.p.kv.sep
		return fmt.Sprintf("entries by name (PART%[1]s: rest=value …, PART up to the name's last %[1]q; PART%[1]s{a,b}%[1]s: the settings of each of a, b, the value they share, (a=v) where a differs; showing %[2]s of %[3]s entries, an even spread of lines in line order):\n",
			sep, commas(n), commas(tc.kvNames))
	}
	return ""
}

// kvFoot says how many entries are not shown and how to read one.
func (tc *textCands) kvFoot() string {
	if tc.p == nil || tc.p.kv == nil {
		return ""
	}
	s := tc.p.kv
	shown := 0
	example := ""
	kept := make(map[int]bool, len(s.kept))
	for _, e := range s.kept {
		kept[e.pos] = true
		if tc.shown[e.pos] {
			shown++
		} else if example == "" {
			example = e.key
		}
	}
	for _, l := range tc.p.tail { // the last lines, shown as lines
		if _, _, ok := s.form.split(l.text); ok && tc.shown[l.pos] && !kept[l.pos] {
			shown++
		}
	}
	if s.metric != nil {
		// the samples shown (text_kvmetric.go's sections mark each, kept
		// or not), and the first and last lines shown as lines
		shown = len(tc.kvShown)
		seen := map[int]bool{}
		for _, ls := range [][]posLine{tc.p.head, tc.p.tail} { // the first and last lines, shown as lines
			for _, l := range ls {
				if _, _, ok := s.form.split(l.text); ok && tc.shown[l.pos] && !tc.kvShown[l.pos] && !seen[l.pos] {
					seen[l.pos] = true
					shown++
				}
			}
		}
	}
	if shown >= s.entries || example == "" {
		return ""
	}
	return fmt.Sprintf("%s of %s entries not shown; one by its name (here %s): compact artifact query %s --jq %s\n",
		commas(s.entries-shown), commas(s.entries), example, tc.in.Handle, tc.jq(s.form.query(example)))
}

// fieldPair is one Key: value pair of a line.
type fieldPair struct{ key, val string }

// fieldPairs are the Key: value pairs of a line (fieldLine). Of a text
// that is not records of fields (loose), the line may start with up to 3
// spaces (a label aligned to the others: stat's "  File:"; 4 spaces or a
// tab indent a paragraph, git log's message) and hold several pairs, each after a tab or a run of two spaces
// or more ("Device: 254,0<TAB>Inode: 681  Links: 2" of stat, whose
// "IO Block:" has a space in its name); a run of spaces inside a value
// that no "Key:" follows stays in the value ("Uid: (    0/    root)").
func fieldPairs(line string, loose bool) []fieldPair {
	if loose {
		if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 {
			line = t
		}
	}
	k, v, ok := fieldLine(line)
	if !ok {
		return nil
	}
	if !loose {
		return []fieldPair{{k, v}}
	}
	if len(k) == 1 && k[0] >= 'A' && k[0] <= 'Z' {
		return nil // "E: ", "W: ", "I: " (apt, lintian): a level's tag, not a key
	}
	var out []fieldPair
	for {
		next, rest := -1, ""
		for i := 0; i < len(v); i++ {
			if v[i] != '\t' && !(v[i] == ' ' && i+1 < len(v) && v[i+1] == ' ') {
				continue
			}
			j := i
			for j < len(v) && (v[j] == ' ' || v[j] == '\t') {
				j++
			}
			if n := pairKeyLen(v[j:]); n > 0 {
				next, rest = i, v[j:]
				break
			}
			i = j - 1
		}
		if next < 0 {
			return append(out, fieldPair{k, v})
		}
		out = append(out, fieldPair{k, strings.TrimSpace(v[:next])})
		n := pairKeyLen(rest)
		k, v = rest[:n], strings.TrimSpace(rest[n+1:])
	}
}

// pairKeyLen is the length of the key s starts with when s starts with
// "Key:" and then a space, a tab or its end: a letter, then letters,
// digits, '-', '_' and single spaces, at most 24 bytes; 0 otherwise.
func pairKeyLen(s string) int {
	if s == "" || !(s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') {
		return 0
	}
	for i := 1; i < len(s) && i <= 24; i++ {
		c := s[i]
		switch {
		case c == ':':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t' {
				return i
			}
			return 0
		case c == ' ':
			if s[i-1] == ' ' || i+1 == len(s) || s[i+1] == ' ' {
				return 0
			}
		case isAlnumByte(c) || c == '-' || c == '_':
		default:
			return 0
		}
	}
	return 0
}

// fieldNames keeps, for a field of records of fields, the names of the
// first records holding it and of those holding each of its values,
// at most maxRareNames each, while the field has at most maxFieldValues
// distinct values: the view names the records of a rare value
// ("Priority: ... "important" 1 (apt)") and of a field few records have
// ("Important (in 2 records: apt, dpkg)").
type fieldNames struct {
	holders []string
	byValue map[string][]string
	off     bool
}

// maxRareNames bounds the names kept per value and per field.
const maxRareNames = 5

// note counts record rec holding value v. Records named by a time or
// a number (apt's history, by Start-Date) are not named: such a name
// says less than what it costs.
func (n *fieldNames) note(v, rec string) {
	if rec == "" || isDigitByte(rec[0]) || n.off {
		return
	}
	if len(n.holders) < maxRareNames {
		n.holders = append(n.holders, rec)
	}
	if n.byValue == nil {
		n.byValue = map[string][]string{}
	}
	names, ok := n.byValue[v]
	if !ok && len(n.byValue) >= maxFieldValues {
		n.off, n.byValue = true, nil
		return
	}
	if len(names) < maxRareNames {
		n.byValue[v] = append(names, rec)
	}
}

// rare reports whether count records of present are few enough to name.
func rare(count, present int) bool { return count <= maxRareNames && count*10 < present }

// rareText is " (name, ...)" after a value held by count records of the
// present ones, when that is rare and the names are known; "" otherwise.
func (n *fieldNames) rareText(v string, count, present int) string {
	names := n.byValue[v]
	if !rare(count, present) || len(names) != count {
		return ""
	}
	return " (" + strings.Join(names, ", ") + ")"
}

// holdersText is ": name, ..." after "in N records" of a field few of the
// records have; "" otherwise.
func (n *fieldNames) holdersText(present, records int) string {
	if !rare(present, records) || len(n.holders) != present {
		return ""
	}
	return ": " + strings.Join(n.holders, ", ")
}
