package view_test

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// kvCase is a captured text of key/value lines and a pattern that splits
// its entries into name and value as written, independently of the view.
type kvCase struct {
	file string
	re   *regexp.Regexp
}

var kvCases = []kvCase{
	{"testdata/kv/go-env.txt", regexp.MustCompile(`^([A-Z0-9_]+)=(.*)$`)},
	{"testdata/kv/node-config-variables.txt", regexp.MustCompile(`^([a-z0-9_]+)=(.*)$`)},
	{"testdata/kv/git-config-l.txt", regexp.MustCompile(`^([^=]+)=(.*)$`)},
	{"testdata/kv/proc-meminfo.txt", regexp.MustCompile(`^([^:]+):\s*(.*?)\s*$`)},
	{"../../testdata/captured/gcc-dM.txt", regexp.MustCompile(`^#define ([^ (]+(?:\([^)]*\))?)(?: (.*))?$`)},
}

type kvPair struct{ key, val string }

// shownAs is a value as the view lists it: "(empty)" for nothing, and
// ok false for a value the view cuts.
func shownAs(v string) (string, bool) {
	if v == "" {
		return "(empty)", true
	}
	return v, len([]rune(v)) <= 60
}

// topValues are the values of ps with their counts, most frequent first
// (then by value), those in at least 2 entries, at most max.
func topValues(ps []kvPair, max int) []string {
	m := map[string]int{}
	for _, p := range ps {
		m[p.val]++
	}
	type vc struct {
		v string
		n int
	}
	var vs []vc
	for v, n := range m {
		vs = append(vs, vc{v, n})
	}
	sort.Slice(vs, func(i, j int) bool {
		if vs[i].n != vs[j].n {
			return vs[i].n > vs[j].n
		}
		return vs[i].v < vs[j].v
	})
	var out []string
	for i, x := range vs {
		if i == max || x.n < 2 {
			break
		}
		if s, ok := shownAs(x.v); ok {
			out = append(out, s+" "+commas(x.n))
		}
	}
	return out
}

// kvView builds the view of a text and fills it at each budget.
func kvView(t *testing.T, data []byte, budgets []int) (map[int]string, *view.View) {
	t.Helper()
	v := buildView(t, inputOf(t, data, 4000))
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for _, b := range budgets {
		fl, err := v.Fill(c, b)
		if err != nil {
			continue
		}
		if fl.Tokens > b || fl.Tokens != c.Count(fl.Text) {
			t.Errorf("at %d: %d tokens (counted %d)", b, fl.Tokens, c.Count(fl.Text))
		}
		out[b] = fl.Text
	}
	return out, v
}

// TestKVViewCounts checks every count the view of key/value lines states
// against the entries split by an independent pattern: entries, values,
// name groups and their values, the names listed under each value, the
// entries as written, the number not shown and the query that reads one
// of them; and that a bigger budget shows every line a smaller one does.
func TestKVViewCounts(t *testing.T) {
	budgets := []int{300, 500, 800, 1200, 2000, 4000}
	for _, kc := range kvCases {
		data := readFile(t, kc.file)
		var lines []string
		var ps []kvPair
		byKey := map[string][]string{}
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			lines = append(lines, l)
			if m := kc.re.FindStringSubmatch(l); m != nil {
				ps = append(ps, kvPair{m[1], m[2]})
				byKey[m[1]] = append(byKey[m[1]], m[2])
			}
		}
		views, _ := kvView(t, data, budgets)
		if len(views) < 2 {
			t.Fatalf("%s: %d views", kc.file, len(views))
		}
		var prev string
		for _, b := range budgets {
			text, ok := views[b]
			if !ok {
				continue
			}
			name := kc.file + " at " + strconv.Itoa(b)
			if !strings.Contains(text, "; kind: key/value lines; "+commas(len(ps))+" entries") {
				t.Fatalf("%s: not read as %d key/value entries:\n%s", name, len(ps), text)
			}
			checkKVView(t, name, text, lines, ps, byKey, kc.re)
			// Monotone: every line of the smaller view is in this one.
			for _, l := range strings.Split(prev, "\n") {
				if strings.HasPrefix(l, "  ") && !strings.Contains(text, l+"\n") {
					t.Errorf("%s: lost %q of the smaller view", name, l)
				}
			}
			prev = text
		}
	}
}

func checkKVView(t *testing.T, name, text string, lines []string, ps []kvPair, byKey map[string][]string, re *regexp.Regexp) {
	t.Helper()
	find := func(prefix string) string {
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		return ""
	}
	if l := find("key/value lines: "); !strings.HasPrefix(l, "key/value lines: "+commas(len(ps))+" entries") {
		t.Errorf("%s: %q", name, l)
	}
	if vl := find("values by count"); vl != "" {
		for _, want := range topValues(ps, 16) {
			if !strings.Contains(vl, " "+want+",") && !strings.Contains(vl, " "+want+";") {
				t.Errorf("%s: values line lacks %q: %s", name, want, vl)
			}
		}
	}
	// The entries under a name group.
	under := func(label string) ([]kvPair, string) {
		label = strings.TrimSuffix(label, "…")
		bare := ""
		if i := strings.Index(label, " + "); i >= 0 {
			bare, label = label[:i], label[i+3:]
		}
		var out []kvPair
		for _, p := range ps {
			if strings.HasPrefix(p.key, label) || bare != "" && p.key == bare {
				out = append(out, p)
			}
		}
		return out, label
	}
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "names by ") || strings.HasPrefix(l, "names by their value") {
			continue
		}
		items := strings.Split(l[strings.Index(l, "): ")+3:], ", ")
		for _, it := range items {
			if strings.HasSuffix(it, " more groups") {
				continue
			}
			i := strings.LastIndexByte(it, ' ')
			got, _ := strconv.Atoi(strings.ReplaceAll(it[i+1:], ",", ""))
			es, _ := under(it[:i])
			if got != len(es) || !strings.HasSuffix(it[:i], "…") {
				t.Errorf("%s: group %q: %d entries, counted %d", name, it, got, len(es))
			}
		}
	}
	groupLine := regexp.MustCompile(`^  (.+) \(([\d,]+) entries\): (.*)$`)
	namesLine := regexp.MustCompile(`^  (.+) \(names (\d+)-(\d+) of ([\d,]+)\): (.*)$`)
	shown := map[string]bool{}
	section := ""
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "  ") {
			section = l
			continue
		}
		switch {
		case strings.HasPrefix(section, "values of the largest name groups"):
			m := groupLine.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("%s: %q", name, l)
				continue
			}
			es, _ := under(m[1])
			if n, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", "")); n != len(es) {
				t.Errorf("%s: %q: counted %d entries", name, l, len(es))
			}
			for _, want := range topValues(es, 8) {
				if !strings.Contains(m[3], want) {
					t.Errorf("%s: %q lacks %q", name, l, want)
				}
			}
		case strings.HasPrefix(section, "names by their value"):
			m := namesLine.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("%s: %q", name, l)
				continue
			}
			n := 0
			for _, p := range ps {
				if s, _ := shownAs(p.val); s == m[1] {
					n++
				}
			}
			if total, _ := strconv.Atoi(strings.ReplaceAll(m[4], ",", "")); total != n {
				t.Errorf("%s: %q: %d entries have the value", name, l, n)
			}
			for _, k := range strings.Fields(m[5]) {
				vs := byKey[k]
				if len(vs) != 1 {
					t.Errorf("%s: %q: name %q in %d entries", name, l, k, len(vs))
				} else if s, _ := shownAs(vs[0]); s != m[1] {
					t.Errorf("%s: %q: %s has the value %q", name, l, k, vs[0])
				}
				shown[k] = true
			}
		case strings.HasPrefix(section, "entries by name (PART"):
			// text_kvnames.go: each line read back, every name and value
			// checked against the text's own entries.
			sep := strings.TrimPrefix(section, "entries by name (PART")
			sep = sep[:strings.Index(sep, ":")]
			for k, v := range view.ParseNameLineForTest(t, l, sep) {
				vs := byKey[k]
				if len(vs) == 0 {
					t.Errorf("%s: %q: no entry named %q", name, l, k)
					continue
				}
				if want := vs[0]; v != want && !(strings.Contains(v, "…[+") && strings.HasPrefix(want, v[:strings.Index(v, "…[+")])) {
					t.Errorf("%s: %q: %s read back as %q, the text has %q", name, l, k, v, want)
				}
				shown[k] = true
			}
		case strings.HasPrefix(section, "entries as written"), strings.HasPrefix(section, "last "), strings.HasPrefix(section, "first "):
			e := strings.TrimPrefix(l, "  ")
			if i := strings.Index(e, "…[+"); i >= 0 {
				e = e[:i]
			}
			ok := false
			for _, x := range lines {
				if strings.HasPrefix(x, e) {
					ok = true
					if m := re.FindStringSubmatch(x); m != nil {
						shown[m[1]] = true
					}
				}
			}
			if !ok {
				t.Errorf("%s: %q is no line of the text", name, l)
			}
		}
	}
	foot := regexp.MustCompile(`(?m)^([\d,]+) of ([\d,]+) entries not shown; one by its name \(here (.+?)\): compact artifact query 0123456789ab --jq '(.*)'$`)
	m := foot.FindStringSubmatch(text)
	if m == nil {
		if len(shown) < len(ps) {
			t.Errorf("%s: %d of %d entries shown and no foot", name, len(shown), len(ps))
		}
		return
	}
	if n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); n != len(ps)-len(shown) {
		t.Errorf("%s: %s entries not shown, counted %d", name, m[1], len(ps)-len(shown))
	}
	if shown[m[3]] {
		t.Errorf("%s: the example %q is shown", name, m[3])
	}
	q, err := gojq.Parse(strings.ReplaceAll(m[4], `'\''`, `'`))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	in := make([]any, len(lines))
	for i, l := range lines {
		in[i] = l
	}
	it := q.Run(in)
	var got []string
	for {
		v, ok := it.Next()
		if !ok {
			break
		}
		if err, ok := v.(error); ok {
			t.Fatalf("%s: %v", name, err)
		}
		got = append(got, v.(string))
	}
	if len(got) != len(byKey[m[3]]) || len(got) == 0 {
		t.Errorf("%s: the query for %q reads %q", name, m[3], got)
	}
}
