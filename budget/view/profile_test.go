package view_test

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// jqPath renders a jq path (an array of member names and indices) as a
// profile path: "spec.containers[].image", "." for the record itself.
func jqPath(p []any) string {
	var b strings.Builder
	for _, e := range p {
		switch x := e.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			if plain(x) {
				b.WriteString(x)
			} else {
				b.WriteString(strconv.Quote(x))
			}
		default:
			b.WriteString("[]")
		}
	}
	if b.Len() == 0 {
		return "."
	}
	return b.String()
}

func plain(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// oracle is what jq says about one field.
type oracle struct {
	present, values, nulls int
	counts                 map[string]int
	min, max, sum          float64
	nums                   int
	maxLen                 int
	earliest, latest       time.Time
	times                  int
	minItems, maxItems     int
	items, arrays          int
	// patterned counts the strings of at most 100 bytes of JSON text,
	// each of which has a pattern; nearEdge, those of 90 to 110 bytes,
	// where jq's escapes may differ from the output's.
	patterned, nearEdge int
	unshaped            int
	// Objects: how many, their fewest, most and total members, and the
	// records holding each member name.
	objects, minEntries, maxEntries, entries int
	keyRecs                                  map[string]int
	// containerRecs counts the records holding an object or an array
	// at the path.
	containerRecs int
}

// TestProfileAgainstJQ profiles every collection of every captured JSON
// output and checks each number the view states against gojq run over
// the original: per field the records that have it, its values, nulls,
// distinct values and their counts, numeric min/max/sum, the longest
// string, time ranges and array sizes.
func TestProfileAgainstJQ(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs gojq over every captured output")
	}
	files, _ := filepath.Glob("../../testdata/captured/*.json*")
	if len(files) < 5 {
		t.Fatalf("only %d captured JSON outputs", len(files))
	}
	walk, err := gojq.Parse(`(if type == "object" or type == "array" then [] else [[[], .]] end) + [paths as $p | getpath($p) as $v | select($v | type != "object" and type != "array") | [$p, $v]], [paths as $p | getpath($p) as $v | select($v | type == "array") | [$p, ($v | length)]], [paths as $p | getpath($p) as $v | select($v | type == "object") | [$p, ($v | keys)]]`)
	if err != nil {
		t.Fatal(err)
	}
	code, err := gojq.Compile(walk)
	if err != nil {
		t.Fatal(err)
	}
	checked, maps, tops := 0, 0, 0
	for _, f := range files {
		if strings.HasSuffix(f, ".yaml") {
			continue
		}
		data := readFile(t, f)
		shape, err := budget.DetectShape(data, nil)
		if err != nil || (shape.Format != budget.FormatJSON && shape.Format != budget.FormatJSONL && shape.Format != budget.FormatConcat) {
			continue
		}
		for _, c := range shape.Collections {
			t.Run(filepath.Base(f)+c.Path, func(t *testing.T) {
				p := view.NewProfile(c.Kind == "map")
				var records []any
				err := budget.EachRecord(data, shape, c.Path, func(i int, raw []byte) error {
					p.Add(i, raw)
					var v any
					if err := json.Unmarshal(raw, &v); err != nil {
						return err
					}
					if c.Kind == "map" {
						for _, x := range v.(map[string]any) {
							v = x
						}
					}
					records = append(records, normalize(v))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				p.Finish()
				want := map[string]*oracle{}
				get := func(path string) *oracle {
					o := want[path]
					if o == nil {
						o = &oracle{counts: map[string]int{}, minItems: -1}
						want[path] = o
					}
					return o
				}
				for _, rec := range records {
					iter := code.Run(rec)
					seen := map[string]bool{}
					leaves, _ := iter.Next()
					arrays, _ := iter.Next()
					objects, _ := iter.Next()
					keySeen := map[string]map[string]bool{}
					held := map[string]bool{}
					for _, list := range []any{objects, arrays} {
						for _, pv := range list.([]any) {
							path := jqPath(pv.([]any)[0].([]any))
							if !held[path] {
								held[path] = true
								get(path).containerRecs++
							}
						}
					}
					for _, pv := range objects.([]any) {
						pair := pv.([]any)
						path := jqPath(pair[0].([]any))
						o := get(path)
						names := pair[1].([]any)
						if o.objects == 0 || len(names) < o.minEntries {
							o.minEntries = len(names)
						}
						o.maxEntries = max(o.maxEntries, len(names))
						o.entries += len(names)
						o.objects++
						if keySeen[path] == nil {
							keySeen[path] = map[string]bool{}
						}
						if o.keyRecs == nil {
							o.keyRecs = map[string]int{}
						}
						for _, n := range names {
							if !keySeen[path][n.(string)] {
								keySeen[path][n.(string)] = true
								o.keyRecs[n.(string)]++
							}
						}
					}
					for _, pv := range leaves.([]any) {
						pair := pv.([]any)
						path := jqPath(pair[0].([]any))
						o := get(path)
						if !seen[path] {
							seen[path] = true
							o.present++
						}
						o.values++
						raw, _ := gojq.Marshal(pair[1])
						o.counts[string(raw)]++
						switch x := pair[1].(type) {
						case nil:
							o.nulls++
						case string:
							o.maxLen = max(o.maxLen, utf8.RuneCountInString(x))
							if n := len(raw) - 2; n <= 100 {
								o.patterned++
							} else {
								o.unshaped++
							}
							if n := len(raw) - 2; n >= 90 && n <= 110 {
								o.nearEdge++
							}
							if tm, ok := isTime(x); ok {
								if o.times == 0 || tm.Before(o.earliest) {
									o.earliest = tm
								}
								if o.times == 0 || tm.After(o.latest) {
									o.latest = tm
								}
								o.times++
							}
						case float64, int:
							n := toFloat(x)
							if o.nums == 0 || n < o.min {
								o.min = n
							}
							if o.nums == 0 || n > o.max {
								o.max = n
							}
							o.sum += n
							o.nums++
						}
					}
					for _, pv := range arrays.([]any) {
						pair := pv.([]any)
						o := get(jqPath(pair[0].([]any)))
						n := toInt(pair[1])
						if o.arrays == 0 || n < o.minItems {
							o.minItems = n
						}
						o.maxItems = max(o.maxItems, n)
						o.items += n
						o.arrays++
					}
				}
				if id := p.Identity; id != nil {
					if o := want[id.Path]; o == nil || len(o.counts) != len(records) || o.present != len(records) {
						t.Errorf("identity %s is not unique in every record", id.Path)
					}
				}
				for _, fd := range append(p.Fields, p.Field(".")) {
					o := want[fd.Path]
					if o == nil {
						continue // an object or an empty array: no leaves
					}
					checked++
					if fd.Types&^(1<<4|1<<5) != 0 { // has scalars
						if fd.Values-countContainers(fd) != o.values || fd.Nulls != o.nulls {
							t.Errorf("%s: values %d nulls %d, jq %d %d", fd.Path, fd.Values, fd.Nulls, o.values, o.nulls)
						}
						if fd.Types&(1<<4|1<<5) == 0 && fd.Present != o.present {
							t.Errorf("%s: present in %d records, jq %d", fd.Path, fd.Present, o.present)
						}
						if !fd.ManyDistinct && fd.Distinct != len(o.counts) {
							t.Errorf("%s: %d distinct, jq %d", fd.Path, fd.Distinct, len(o.counts))
						}
						if fd.Counts != nil {
							for k, n := range o.counts {
								if fd.Counts[canon(k)] != n && countOf(fd.Counts, k) != n {
									t.Errorf("%s: value %s %d times, jq %d", fd.Path, k, countOf(fd.Counts, k), n)
								}
							}
						}
						// The most common of many values: each count
						// exact, and no value left out more common than
						// the least listed.
						for i, tv := range fd.Top {
							if n := countOf(o.counts, tv.Value); n != tv.Count {
								t.Errorf("%s: most common %s %d times, jq %d", fd.Path, tv.Value, tv.Count, n)
							}
							if i == len(fd.Top)-1 {
								for k, n := range o.counts {
									if n > tv.Count && !inTop(fd.Top, k) {
										t.Errorf("%s: %s %d times is not among the most common (least listed %d)", fd.Path, k, n, tv.Count)
									}
								}
							}
							tops++
						}
						if o.nums > 0 && (fd.NumN != o.nums || fd.Min != o.min || fd.Max != o.max || math.Abs(fd.Sum-o.sum) > 1e-6*math.Max(1, math.Abs(o.sum))) {
							t.Errorf("%s: numbers %d min %v max %v sum %v, jq %d %v %v %v", fd.Path, fd.NumN, fd.Min, fd.Max, fd.Sum, o.nums, o.min, o.max, o.sum)
						}
						if fd.MaxLen != o.maxLen {
							t.Errorf("%s: longest %d, jq %d", fd.Path, fd.MaxLen, o.maxLen)
						}
						// The view states the patterns' counts ("shapes:
						// node-exporter-* 35"): they count every string.
						if fd.Patterns != nil && o.nearEdge == 0 {
							n := 0
							for _, c := range fd.Patterns {
								n += c
							}
							if n != o.patterned {
								t.Errorf("%s: patterns count %d strings, jq %d", fd.Path, n, o.patterned)
							}
						}
						// And the strings too long for a shape are counted.
						if o.nearEdge == 0 && fd.Unshaped != o.unshaped {
							t.Errorf("%s: %d strings without a shape, jq %d", fd.Path, fd.Unshaped, o.unshaped)
						}
						if fd.TimeN != o.times || o.times > 0 && (!fd.Earliest.Equal(o.earliest) || !fd.Latest.Equal(o.latest)) {
							t.Errorf("%s: %d times %v..%v, jq %d %v..%v", fd.Path, fd.TimeN, fd.Earliest, fd.Latest, o.times, o.earliest, o.latest)
						}
					}
					// The records holding an object or an array member
					// (the members line counts them).
					if fd.Types&^(1<<4|1<<5) == 0 && fd.Present != o.containerRecs {
						t.Errorf("%s: an object or array in %d records, jq %d", fd.Path, fd.Present, o.containerRecs)
					}
					// Objects: their sizes, and a map's names by the
					// records holding them (its line states both).
					if o.objects > 0 && (fd.Objects != o.objects || fd.MinEntries != o.minEntries || fd.MaxEntries != o.maxEntries || fd.Entries != o.entries) {
						t.Errorf("%s: %d objects of %d-%d members (%d), jq %d of %d-%d (%d)", fd.Path, fd.Objects, fd.MinEntries, fd.MaxEntries, fd.Entries, o.objects, o.minEntries, o.maxEntries, o.entries)
					}
					if fd.MapLike {
						maps++
						if !fd.ManyKeys && len(fd.KeyCounts) != len(o.keyRecs) {
							t.Errorf("%s: %d names, jq %d", fd.Path, len(fd.KeyCounts), len(o.keyRecs))
						}
						for k, n := range fd.KeyCounts {
							if o.keyRecs[k] != n {
								t.Errorf("%s: name %q in %d records, jq %d", fd.Path, k, n, o.keyRecs[k])
							}
						}
					}
					if o.arrays > 0 && (fd.MinItems != o.minItems || fd.MaxItems != o.maxItems || fd.Items != o.items) {
						t.Errorf("%s: items %d-%d (%d), jq %d-%d (%d)", fd.Path, fd.MinItems, fd.MaxItems, fd.Items, o.minItems, o.maxItems, o.items)
					}
				}
			})
		}
	}
	if checked < 200 {
		t.Errorf("only %d fields checked", checked)
	}
	if maps < 3 {
		t.Errorf("only %d map-like fields checked", maps)
	}
	if tops < 20 {
		t.Errorf("only %d most common values checked", tops)
	}
}

// inTop reports whether the value whose jq text is k is among top.
func inTop(top []view.TopValue, k string) bool {
	var want any
	json.Unmarshal([]byte(k), &want)
	for _, tv := range top {
		var got any
		if tv.Value == k || json.Unmarshal([]byte(tv.Value), &got) == nil && equal(got, want) {
			return true
		}
	}
	return false
}

// countContainers is the number of object and array values of a field,
// which the leaves jq lists do not include.
func countContainers(f *view.Field) int { return f.Containers }

// canon is the profile's key of a value: its JSON text as the output has
// it; jq re-encodes, so numbers and strings are compared by value.
func canon(s string) string { return s }

// countOf finds a value's count by comparing decoded values.
func countOf(m map[string]int, jqText string) int {
	var want any
	json.Unmarshal([]byte(jqText), &want)
	n := 0
	for k, c := range m {
		var got any
		if json.Unmarshal([]byte(k), &got) == nil && equal(got, want) {
			n += c
		}
	}
	return n
}

func equal(a, b any) bool {
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return string(ab) == string(bb)
}

func isTime(s string) (time.Time, bool) {
	if len(s) < 19 || len(s) > 40 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func toFloat(x any) float64 {
	switch v := x.(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return 0
}

func toInt(x any) int {
	switch v := x.(type) {
	case float64:
		return int(v)
	case int:
		return v
	}
	return 0
}

// normalize turns json.Unmarshal's values into gojq's (it takes them as
// they are; this keeps numbers as float64).
func normalize(v any) any { return v }
