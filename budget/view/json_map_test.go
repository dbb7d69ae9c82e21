package view_test

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sysconfigFile is python's build variables as one flat JSON object
// (985 numbers and strings), captured on Debian 12 with
// /usr/bin/python3 -c 'import sysconfig,json;print(json.dumps(sysconfig.get_config_vars(), indent=1))'.
const sysconfigFile = "../../testdata/captured/python3-sysconfig-debian.json"

// orderedMap reads a flat JSON object in document order.
func orderedMap(t *testing.T, data []byte) (keys []string, vals map[string]any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	vals = map[string]any{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		vals[k.(string)] = v
	}
	return keys, vals
}

// prefixOf is the prefix of a key the view groups it by, computed here
// with regular expressions (the view walks the bytes).
var (
	camelPrefix = regexp.MustCompile(`^([a-z0-9]+)[A-Z]`)
	sepPrefix   = regexp.MustCompile(`^[^_.-]+[_.-]`)
)

func prefixOf(k string) string {
	if m := camelPrefix.FindStringSubmatch(k); m != nil {
		return m[1]
	}
	return sepPrefix.FindString(k)
}

// shownValue is how a value reads in the view's lists: numbers as they
// are, strings quoted.
func shownValue(v any) string {
	if s, ok := v.(string); ok {
		b, _ := json.Marshal(s)
		return string(b)
	}
	return fmt.Sprint(v)
}

// TestFlatMapOfScalars: a flat object of 985 build variables of mixed
// types is a keyed collection (the old view listed them as facts in
// order, with no count of any kind): its view states the number of
// keys, the values by type, every value two or more keys share with its
// number of keys, the extremes, the keys by prefix with their values,
// and lists keys with their values, each number checked here against
// encoding/json. Every "KEY: value" line and every line of keys that
// share a value is true; the view at a bigger budget holds every line of
// a smaller one; its queries run.
func TestFlatMapOfScalars(t *testing.T) {
	v, data := viewOf(t, sysconfigFile)
	keys, vals := orderedMap(t, data)
	types := map[string]int{}
	valN := map[string]int{}
	preN := map[string]int{}
	preVal := map[string]map[string]int{}
	for _, k := range keys {
		x := vals[k]
		sv := shownValue(x)
		if _, ok := x.(string); ok {
			types["string"]++
		} else {
			types["number"]++
		}
		valN[sv]++
		p := prefixOf(k)
		preN[p]++
		if preVal[p] == nil {
			preVal[p] = map[string]int{}
		}
		preVal[p][sv]++
	}
	var prev []string
	for _, b := range []int{2000, 4000, 8000} {
		f := fillAt(t, v, b)
		if f.Tokens > b {
			t.Fatalf("at %d: %d tokens", b, f.Tokens)
		}
		text := f.Text
		for _, want := range []string{
			fmt.Sprintf("collection . (map): %s records, each a key and its value; showing ", commas(len(keys))),
			fmt.Sprintf("  values by type: number %s, string %s; ", commas(types["number"]), commas(types["string"])),
			fmt.Sprintf("HAVE_ %s (1 %s, 0 %s)", commas(preN["HAVE_"]), commas(preVal["HAVE_"]["1"]), commas(preVal["HAVE_"]["0"])),
			fmt.Sprintf(`%s empty ("")`, commas(valN[`""`])),
		} {
			if !strings.Contains(text, want) {
				t.Errorf("at %d: no %q in\n%s", b, want, text)
			}
		}
		lines := strings.Split(text, "\n")
		entries := 0
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "  values held by more than one key "):
				// "1 412, 0 128, \"\" 93, ...": each with its count.
				list := l[strings.Index(l, "): ")+3:]
				list = list[:strings.Index(list, "; ")]
				for _, part := range splitList(list) {
					i := strings.LastIndexByte(part, ' ')
					if i < 0 {
						continue
					}
					n, err := strconv.Atoi(strings.ReplaceAll(part[i+1:], ",", ""))
					if err != nil || strings.HasSuffix(part, " more") {
						continue
					}
					if valN[part[:i]] != n {
						t.Errorf("at %d: %s held by %d keys, the view says %d", b, part[:i], valN[part[:i]], n)
					}
				}
			case strings.HasPrefix(l, "  key prefixes "):
				for p, n := range preN {
					if p != "" && n >= 10 && !strings.Contains(l, fmt.Sprintf(" %s %s", p, commas(n))) {
						t.Errorf("at %d: prefix %s of %d keys not stated: %s", b, p, n, l)
					}
				}
				if want := fmt.Sprintf("; %s keys have no prefix", commas(preN[""])); !strings.HasSuffix(l, want) {
					t.Errorf("at %d: %q does not end with %q", b, l, want)
				}
			case strings.HasPrefix(l, "  = "):
				// = VALUE (P keys, N[, a-b of them]): K1, K2, ...
				head, list, _ := strings.Cut(l[4:], "): ")
				open := strings.LastIndex(head, " (")
				val, who := head[:open], head[open+2:]
				p := strings.TrimSuffix(strings.Split(who, ",")[0], " keys")
				if p == "keys with no prefix" {
					p = ""
				}
				n, _ := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(strings.Split(who, ",")[1]), ",", ""))
				if preVal[p][val] != n {
					t.Errorf("at %d: %d keys of prefix %q hold %s, the view says %d: %s", b, preVal[p][val], p, val, n, l)
				}
				for _, k := range strings.Split(list, ", ") {
					if shownValue(vals[k]) != val || prefixOf(k) != p {
						t.Errorf("at %d: %s is %v (prefix %q), listed under %s, %q", b, k, vals[k], prefixOf(k), val, p)
					}
				}
			case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") && strings.Contains(l, ": "):
				k, val, _ := strings.Cut(l[2:], ": ")
				x, ok := vals[k]
				if !ok {
					continue // a profile line
				}
				entries++
				want := fmt.Sprint(x)
				if s, ok := x.(string); ok && (s == "" || isNumberText(s)) {
					want = strconv.Quote(s)
				}
				if !strings.HasPrefix(want, strings.Split(val, "…[+")[0]) {
					t.Errorf("at %d: %s is %q, the view says %q", b, k, want, val)
				}
			}
		}
		if entries == 0 {
			t.Errorf("at %d: no KEY: value line", b)
		}
		// A bigger budget shows every line of a smaller one (the head
		// and the foot state counts of what is shown).
		have := map[string]bool{}
		for _, l := range lines {
			have[l] = true
		}
		for _, l := range prev {
			if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  not shown:") && !strings.Contains(l, "compact artifact query") && !have[l] {
				t.Errorf("at %d: line %q of the smaller view is gone", b, l)
			}
		}
		prev = lines
		// Every query it suggests runs.
		for _, m := range regexp.MustCompile(`compact artifact query \S+ --jq '([^\n]*)'`).FindAllStringSubmatch(text, -1) {
			q := strings.ReplaceAll(m[1], `'\''`, `'`)
			if out := jq(t, data, q); len(out) == 0 {
				t.Errorf("at %d: %s yields nothing", b, q)
			}
		}
	}
}

// splitList splits "a 1, b 2" at the commas between items (not inside
// quotes).
func splitList(s string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			quoted = !quoted
		case ',':
			if !quoted && i+1 < len(s) && s[i+1] == ' ' {
				out = append(out, s[start:i])
				start = i + 2
			}
		}
	}
	return append(out, s[start:])
}

func isNumberText(s string) bool {
	if s == "true" || s == "false" || s == "null" {
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// TestFlatMapKeysNotShown: the query for the keys not shown yields
// exactly them, by key (an artifact query reads the members in key
// order); the lines of keys that share a value, the ones most keys of
// their prefix do not hold come first (a HAVE_ key that is 0 where most
// are 1).
func TestFlatMapKeysNotShown(t *testing.T) {
	// 60 variables: 50 HAVE_ keys, 47 of them 1; the three 0s are the
	// exceptions shown first.
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 50; i++ {
		v := 1
		if i == 7 || i == 21 || i == 40 {
			v = 0
		}
		fmt.Fprintf(&b, `"HAVE_F%02d": %d, `, i, v)
	}
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, `"VAR%d": "v%d", `, i, i%4)
	}
	b.WriteString(`"LAST": "x"}`)
	data := []byte(b.String())
	v, _ := viewOfData(t, data)
	f := fillAt(t, v, 560)
	if !strings.Contains(f.Text, "  = 0 (HAVE_ keys, 3): HAVE_F07, HAVE_F21, HAVE_F40\n") {
		t.Fatalf("the three HAVE_ keys that are 0 are not listed first:\n%s", f.Text)
	}
	m := regexp.MustCompile(`not shown: (\d+) of 61 keys; get exactly them: compact artifact query \S+ --jq '([^\n]*)'`).FindStringSubmatch(f.Text)
	if m == nil {
		t.Fatalf("no query for the keys not shown:\n%s", f.Text)
	}
	rest := jq(t, data, m[2])[0].(map[string]any)
	if fmt.Sprint(len(rest)) != m[1] {
		t.Errorf("the query yields %d keys, the view says %s not shown", len(rest), m[1])
	}
	var ks []string
	for k := range rest {
		ks = append(ks, k)
		if strings.Contains(f.Text, "  "+k+": ") || strings.Contains(f.Text, " "+k+",") || strings.Contains(f.Text, " "+k+"\n") {
			t.Errorf("%s is shown and in the rest", k)
		}
	}
	sort.Strings(ks)
	if len(ks) == 0 {
		t.Fatalf("nothing left out at 560 tokens:\n%s", f.Text)
	}
}

// TestMapKeysBySegmentsAndTimesByYear: npm's publish times of esbuild
// (441 versions, each a time) are counted by year and the versions by
// their first two segments (one segment, "0.", holds them all), each
// number checked against encoding/json; the old view had neither.
func TestMapKeysBySegmentsAndTimesByYear(t *testing.T) {
	v, data := viewOf(t, "../../testdata/captured/npm-view-esbuild-time.json")
	keys, vals := orderedMap(t, data)
	years := map[string]int{}
	segs := map[string]int{}
	for _, k := range keys {
		years[vals[k].(string)[:4]]++
		if p := regexp.MustCompile(`^[^_.-]+[_.-][^_.-]*[_.-]`).FindString(k); p != "" {
			segs[p]++
		}
	}
	f := fillAt(t, v, 2000)
	var ys []string
	for y := range years {
		ys = append(ys, y)
	}
	sort.Strings(ys)
	var parts []string
	for _, y := range ys {
		parts = append(parts, y+" "+commas(years[y]))
	}
	for _, want := range []string{
		"; by year: " + strings.Join(parts, ", ") + "\n",
		"; keys by their first two segments (up to a _ . or -): ",
		fmt.Sprintf(" 0.19. %d,", segs["0.19."]),
		fmt.Sprintf(" 0.8. %d,", segs["0.8."]),
	} {
		if !strings.Contains(f.Text, want) {
			t.Errorf("no %q in\n%s", want, f.Text)
		}
	}
}

// TestSmallCollectionsWhole: a list of 8 names and a map of 21 short
// strings are listed whole (no rows repeating them); an object too long
// to show inline gives its scalar members' values in its summary.
func TestSmallCollectionsWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"title": "report", "usage": {`)
	for i := 0; i < 14; i++ {
		fmt.Fprintf(&b, `"counter_number_%d": %d, `, i, 1000000+i)
	}
	b.WriteString(`"fsActivity": {"reads": 1648, "writes": 0}, "rss": 42496000}, "versions": {`)
	for i := 0; i < 21; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"component%d": "%d.%d.0"`, i, i, i*2)
	}
	b.WriteString(`}, "libs": [`)
	for i := 0; i < 8; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"/lib/x86_64-linux-gnu/lib%d.so.%d"`, i, i)
	}
	b.WriteString(`]}`)
	v, _ := viewOfData(t, []byte(b.String()))
	f := fillAt(t, v, 8000)
	for _, want := range []string{
		"collection .libs (array): 8 records; showing 8 of 8\n  every item, in order: /lib/x86_64-linux-gnu/lib0.so.0, ",
		"/lib/x86_64-linux-gnu/lib7.so.7\n",
		"collection .versions (map): 21 records; showing 21 of 21; each record is a key and its value\n  every member: component0 0.0.0, ",
		"component20 20.40.0\n",
		"  usage: object of 16 members (",
		"counter_number_0=1000000, ",
	} {
		if !strings.Contains(f.Text, want) {
			t.Errorf("no %q in\n%s", want, f.Text)
		}
	}
	if strings.Contains(f.Text, "rows (") || strings.Contains(f.Text, "not shown: 8") {
		t.Errorf("a list shown whole has rows or a rest:\n%s", f.Text)
	}
}

// findFile is 400 entries of /usr/share/doc as JSON Lines, captured on
// Debian 12 with
// find /usr/share/doc -maxdepth 2 -printf '{"path":"%p","type":"%y","size":%s,"links":%n,"mtime":%T@}\n' | sed -E 's/"mtime":([0-9]+)\.[0-9]+/"mtime":\1/' | head -400
const findFile = "testdata/find-usr-share-doc.jsonl"

// TestProfileExtensionsEpochsEmpties: paths are counted by extension
// (gz, md, ...), a number field named like a time whose numbers are
// seconds since 1970 is stated as times and is no measure summed per
// type, an array field says how many are empty (github issues'
// assignees); each number checked against encoding/json. The old
// profile had none of these.
func TestProfileExtensionsEpochsEmpties(t *testing.T) {
	data := readFile(t, findFile)
	v, _ := viewOfData(t, data)
	exts := map[string]int{}
	minT, maxT := int64(math.MaxInt64), int64(0)
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Path  string
			Mtime int64
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		base := r.Path[strings.LastIndexByte(r.Path, '/')+1:]
		if i := strings.LastIndexByte(base, '.'); i > 0 && regexp.MustCompile(`^[A-Za-z0-9]{0,7}[A-Za-z][A-Za-z0-9]{0,7}$`).MatchString(base[i+1:]) && len(base)-i-1 <= 8 {
			exts[base[i+1:]]++
		}
		minT, maxT = min(minT, r.Mtime), max(maxT, r.Mtime)
	}
	f := fillAt(t, v, 1500)
	for _, want := range []string{
		fmt.Sprintf("; by extension: gz %d, Debian %d, md %d", exts["gz"], exts["Debian"], exts["md"]),
		fmt.Sprintf("; as times: earliest %s, latest %s\n", time.Unix(minT, 0).UTC().Format(time.RFC3339), time.Unix(maxT, 0).UTC().Format(time.RFC3339)),
	} {
		if !strings.Contains(f.Text, want) {
			t.Errorf("no %q in\n%s", want, f.Text)
		}
	}
	if strings.Contains(f.Text, "mtime by ") {
		t.Errorf("times are summed:\n%s", f.Text)
	}

	v, data = viewOf(t, "../../testdata/captured/github-issues.json")
	var issues []struct{ Assignees []any }
	if err := json.Unmarshal(data, &issues); err != nil {
		t.Fatal(err)
	}
	empty := 0
	for _, is := range issues {
		if len(is.Assignees) == 0 {
			empty++
		}
	}
	f = fillAt(t, v, 8000)
	if want := fmt.Sprintf(" in all, %d empty", empty); !strings.Contains(f.Text, want) {
		t.Errorf("no %q in\n%s", want, f.Text)
	}
}
